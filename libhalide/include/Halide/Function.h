// Halide::Internal::Function: a handle on a Func's definition and schedule,
// as upstream's (Func::function() returns one).
#ifndef HALIDE_FUNCTION_H
#define HALIDE_FUNCTION_H

#include <memory>
#include <string>
#include <vector>

#include "Halide/Expr.h"
#include "Halide/Type.h"

namespace Halide {
namespace Internal {

struct FunctionContents;

class Function {
public:
    Function() = default;
    // Beyond upstream: converts from and to the contents' shared pointer,
    // which the compiler's own code passes around.
    Function(std::shared_ptr<FunctionContents> contents) : contents_(std::move(contents)) {}
    operator const std::shared_ptr<FunctionContents> &() const { return contents_; }
    FunctionContents *operator->() const { return contents_.get(); }
    FunctionContents &operator*() const { return *contents_; }
    const std::shared_ptr<FunctionContents> &get_contents() const { return contents_; }

    // A handle on some Func (not whether that Func has a definition).
    bool defined() const { return contents_ != nullptr; }
    bool same_as(const Function &other) const { return contents_ == other.contents_; }
    friend bool operator==(const Function &a, const Function &b) { return a.same_as(b); }
    friend bool operator!=(const Function &a, const Function &b) { return !a.same_as(b); }

    const std::string &name() const;
    // The pure definition's argument names, innermost first.
    const std::vector<std::string> &args() const;
    const std::vector<Expr> &values() const;
    int dimensions() const;
    int outputs() const;
    std::vector<Type> output_types() const;
    // What Func(types, dims, name) constrained it to (empty, -1: nothing).
    const std::vector<Type> &required_types() const;
    int required_dimensions() const;
    bool has_pure_definition() const;
    bool has_update_definition() const;
    bool has_extern_definition() const;
    // Realized or called by another definition: no more updates.
    bool frozen() const;

private:
    std::shared_ptr<FunctionContents> contents_;
};

} // namespace Internal
} // namespace Halide

#endif
