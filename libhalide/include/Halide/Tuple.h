// Halide::Tuple: several values a Func computes at each point, as upstream's
// Tuple. f(x, y) = Tuple(a, b) defines them; f(x, y)[i] reads value i.
#ifndef HALIDE_TUPLE_H
#define HALIDE_TUPLE_H

#include <vector>

#include "Halide/Error.h"
#include "Halide/Expr.h"

namespace Halide {

class FuncRef;

class Tuple {
public:
    // Every value of a call of a Func (f(x, y)[0], f(x, y)[1], ...); implicit,
    // as upstream's, so f(x) = g(x) copies all of a Tuple-valued g.
    Tuple(const FuncRef &f);
    // A Tuple of one value.
    explicit Tuple(Expr e) : exprs_{std::move(e)} {}
    template <typename... Args>
    Tuple(const Expr &a, const Expr &b, const Args &...rest) : exprs_{a, b, Expr(rest)...} {}
    explicit Tuple(const std::vector<Expr> &exprs) : exprs_(exprs) {
        user_assert(!exprs_.empty()) << "A Tuple needs at least one value";
    }
    size_t size() const { return exprs_.size(); }
    Expr &operator[](size_t i) {
        user_assert(i < exprs_.size()) << "Tuple index " << i << " is out of range (size " << exprs_.size() << ")";
        return exprs_[i];
    }
    Expr operator[](size_t i) const {
        user_assert(i < exprs_.size()) << "Tuple index " << i << " is out of range (size " << exprs_.size() << ")";
        return exprs_[i];
    }
    const std::vector<Expr> &as_vector() const { return exprs_; }

private:
    std::vector<Expr> exprs_;
};

} // namespace Halide

#endif
