// memoize_tag(result, cache key values...): `result`, and what the
// memoization cache key (Func::memoize) of a Func computing it holds in
// place of what `result` depends on. With no key values the key holds the
// value of `result` itself (which must then depend only on Params: say a
// float Param quantized to an integer, so that Param values giving the same
// integer share cached results); with key values, those values (which lets
// a memoized Func read an input buffer, whose contents are otherwise not
// part of any key: the caller vouches that the key values identify them).
#ifndef HALIDE_MEMOIZE_TAG_H
#define HALIDE_MEMOIZE_TAG_H

#include <vector>

#include "Halide/Expr.h"

namespace Halide {

Expr memoize_tag(Expr result, const std::vector<Expr> &cache_key_values);
template <typename... Args> Expr memoize_tag(Expr result, const Args &...cache_key_values) {
    return memoize_tag(std::move(result), std::vector<Expr>{Expr(cache_key_values)...});
}

} // namespace Halide

#endif
