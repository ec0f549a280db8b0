// See ImplicitVars.h.
#include "ImplicitVars.h"

#include <algorithm>

#include "Halide/Error.h"
#include "Halide/IR.h"
#include "Halide/IRVisitor.h"
#include "Halide/Var.h"

namespace Halide {
namespace Internal {

namespace {

bool is_placeholder_expr(const Expr &e) {
    const Variable *v = e.as<Variable>();
    return v && Var::is_placeholder(v->name);
}

// 1 + the largest implicit Var index used (0 if none).
class CountImplicitVars : public IRVisitor {
public:
    int count = 0;
    using IRVisitor::visit;
    void visit(const Variable *v) override {
        if (!Var::is_placeholder(v->name)) {
            count = std::max(count, Var::implicit_index(v->name) + 1);
        }
    }
};

// Position of the one `_` in args, or -1.
int placeholder_position(const std::string &func, const std::vector<Expr> &args) {
    int pos = -1;
    for (size_t i = 0; i < args.size(); i++) {
        if (is_placeholder_expr(args[i])) {
            user_assert(pos < 0) << "Func \"" << func << "\" is called with more than one placeholder '_'";
            pos = (int)i;
        }
    }
    return pos;
}

void replace_placeholder(std::vector<Expr> &args, int pos, int count) {
    args.erase(args.begin() + pos);
    for (int i = 0; i < count; i++) {
        args.insert(args.begin() + pos + i, Var::implicit(i));
    }
}

} // namespace

void expand_placeholder_in_call(const std::string &func, int dimensions, std::vector<Expr> &args) {
    int pos = placeholder_position(func, args);
    if (pos < 0 || dimensions < 0) {
        return;
    }
    int missing = dimensions - ((int)args.size() - 1);
    user_assert(missing >= 0) << "Func \"" << func << "\" was called with " << args.size() - 1
                              << " arguments and a placeholder '_', but was defined with " << dimensions;
    replace_placeholder(args, pos, missing);
}

void expand_placeholder_in_definition(const std::string &func, bool update, std::vector<Expr> &args,
                                      const std::vector<Expr> &values) {
    CountImplicitVars used;
    for (const Expr &v : values) {
        used.include(v);
    }
    int pos = placeholder_position(func, args);
    if (pos >= 0) {
        replace_placeholder(args, pos, used.count);
        return;
    }
    if (used.count == 0) {
        return;
    }
    // Implicit Vars named on the left (f(_0) = g(_0)) are ordinary arguments.
    CountImplicitVars named;
    for (const Expr &a : args) {
        named.include(a);
    }
    user_assert(named.count >= used.count)
        << "Right-hand-side of " << (update ? "update" : "pure") << " definition of " << func
        << " uses implicit variables, but the left-hand-side does not contain the placeholder symbol '_'.";
}

} // namespace Internal
} // namespace Halide
