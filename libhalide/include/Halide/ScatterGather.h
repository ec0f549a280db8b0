// scatter() and gather(): an update definition that stores several values
// at several places at once, as upstream's (its IROperator.h declares
// them; Halide.h brings in both). f(x, scatter(3, 4)) = gather(1, 2)
// stores 1 at (x, 3) and 2 at (x, 4). Everything around a scatter or
// gather distributes over its values (2 * gather(a, b) is gather(2 * a,
// 2 * b)); every scatter and gather of one definition has the same number
// of values; all values are computed before the first store, and stores
// to the same place happen left to right (the last wins), so
// f(scatter(3, 5)) = f(gather(5, 3)) swaps two values.
#ifndef HALIDE_SCATTER_GATHER_H
#define HALIDE_SCATTER_GATHER_H

#include <utility>
#include <vector>

#include "Halide/Expr.h"

namespace Halide {

Expr scatter(const std::vector<Expr> &args);
Expr gather(const std::vector<Expr> &args);

template <typename... Args> Expr scatter(const Expr &e, Args &&...args) {
    return scatter({e, std::forward<Args>(args)...});
}
template <typename... Args> Expr gather(const Expr &e, Args &&...args) {
    return gather({e, std::forward<Args>(args)...});
}

} // namespace Halide

#endif
