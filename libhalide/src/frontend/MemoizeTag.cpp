// See MemoizeTag.h: the intrinsic memoize_expr(result, key values...),
// which lower/Memoize.cpp reads for the key and code generation reads as
// `result`.
#include "Halide/MemoizeTag.h"

#include "Halide/Error.h"
#include "Halide/IR.h"

namespace Halide {

Expr memoize_tag(Expr result, const std::vector<Expr> &cache_key_values) {
    user_assert(result.defined()) << "memoize_tag of an undefined expression";
    std::vector<Expr> args = {result};
    for (const Expr &k : cache_key_values) {
        user_assert(k.defined()) << "memoize_tag with an undefined cache key value";
        args.push_back(k);
    }
    return Internal::Call::make(result.type(), "memoize_expr", args, Internal::Call::Intrinsic);
}

} // namespace Halide
