// See Require.h. require(condition, value, args...) is the intrinsic
// require(condition, value, args...) up to code generation, which checks
// the condition where the value is computed (a vectorized loop computes it
// lane by lane) and, where it fails, returns the runtime's error.
#include "Halide/Require.h"

#include "Halide/Error.h"
#include "Halide/IR.h"

namespace Halide {

Expr require(Expr condition, const std::vector<Expr> &values) {
    user_assert(condition.defined() && condition.type().is_bool()) << "Require condition must be a boolean type.";
    user_assert(!values.empty() && values[0].defined()) << "Require of undefined value.";
    std::vector<Expr> args = {std::move(condition)};
    args.insert(args.end(), values.begin(), values.end());
    return Internal::Call::make(values[0].type(), "require", args, Internal::Call::Intrinsic);
}

} // namespace Halide
