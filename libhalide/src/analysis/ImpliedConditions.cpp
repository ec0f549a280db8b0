#include "analysis/ImpliedConditions.h"

#include "Halide/IR.h"

namespace Halide {
namespace Internal {

void for_each_implied_condition(const Expr &cond, bool holds, const std::function<void(const Expr &, bool)> &each) {
    each(cond, holds);
    if (const Not *n = cond.as<Not>()) {
        for_each_implied_condition(n->a, !holds, each);
    } else if (const And *a = cond.as<And>(); a && holds) {
        for_each_implied_condition(a->a, true, each);
        for_each_implied_condition(a->b, true, each);
    } else if (const Or *o = cond.as<Or>(); o && !holds) {
        for_each_implied_condition(o->a, false, each);
        for_each_implied_condition(o->b, false, each);
    } else if (const Call *c = cond.as<Call>(); c && c->call_type == Call::Intrinsic &&
                                                (c->name == "likely" || c->name == "likely_if_innermost") &&
                                                c->args.size() == 1) {
        for_each_implied_condition(c->args[0], holds, each);
    }
}

} // namespace Internal
} // namespace Halide
