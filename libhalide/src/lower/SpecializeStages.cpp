// See Passes.h: a stage's loop nest under each of its specializations.
//
// For f.specialize(c1) (itself specialized by c3) and f.specialize(c2):
//
//   if (c1) { if (c3) nest(c1.c3) else nest(c1) }
//   else if (c2) nest(c2)
//   else nest(f)
//
// Inside each branch what its condition says is substituted: a bool Param
// `p` is true in `if (p)` and false in its else, `p == 3` makes p 3, so the
// branch's code is simplified for that case. specialize_fail(message)
// replaces the default nest by a run-time error with the message.
#include "Halide/IROperator.h"
#include "Halide/Simplify.h"
#include "ir/Substitute.h"
#include "lower/Passes.h"

namespace Halide {
namespace Internal {
namespace {

using Facts = std::map<std::string, Expr>;

// What holding (`holds`) or failing of condition c says about single
// variables: p, !p, p == k, k == p, and conjunctions (or, when c fails,
// disjunctions) of those.
void learn(const Expr &c, bool holds, Facts &facts) {
    if (const Variable *v = c.as<Variable>()) {
        facts[v->name] = holds ? const_true() : const_false();
    } else if (const Not *n = c.as<Not>()) {
        learn(n->a, !holds, facts);
    } else if (const And *a = c.as<And>()) {
        if (holds) {
            learn(a->a, true, facts);
            learn(a->b, true, facts);
        }
    } else if (const Or *o = c.as<Or>()) {
        if (!holds) {
            learn(o->a, false, facts);
            learn(o->b, false, facts);
        }
    } else if (const EQ *eq = c.as<EQ>()) {
        if (holds) {
            const Variable *va = eq->a.as<Variable>(), *vb = eq->b.as<Variable>();
            if (va && is_const(eq->b)) {
                facts[va->name] = eq->b;
            } else if (vb && is_const(eq->a)) {
                facts[vb->name] = eq->a;
            }
        }
    }
}

Facts with(Facts facts, const Expr &c, bool holds) {
    learn(c, holds, facts);
    return facts;
}

struct Chain {
    const SpecializedNest &nest;

    // The schedule (splits, dims) with its specializations `specs` from index i on.
    Stmt build(const std::vector<Specialization> &specs, size_t i, const std::vector<SplitStep> &splits,
               const std::vector<LoopDim> &dims, const Facts &facts) const {
        if (i == specs.size()) {
            Stmt s = nest(splits, dims);
            return facts.empty() ? s : substitute(facts, s);
        }
        const Specialization &sp = specs[i];
        if (sp.fails) {
            Expr error = Call::make(Int(32), "halide_error_specialize_fail",
                                    {Variable::make(Handle(), "__user_context"), StringImm::make(sp.failure_message)},
                                    Call::Extern);
            return AssertStmt::make(const_false(), error);
        }
        Expr c = simplify(facts.empty() ? sp.condition : substitute(facts, sp.condition));
        if (is_const_zero(c)) {
            return build(specs, i + 1, splits, dims, facts); // never taken
        }
        Stmt then_case = build(sp.specializations, 0, sp.splits, sp.dims, with(facts, c, true));
        if (is_const_one(c)) {
            return then_case; // the ones after it are never taken
        }
        Stmt else_case = build(specs, i + 1, splits, dims, with(facts, c, false));
        return IfThenElse::make(c, then_case, else_case);
    }
};

} // namespace

Stmt specialize_stage(const std::vector<Specialization> &specs, const std::vector<SplitStep> &splits,
                      const std::vector<LoopDim> &dims, const SpecializedNest &nest) {
    return Chain{nest}.build(specs, 0, splits, dims, {});
}

void check_specialized_update_races(const FunctionContents &f) {
    for (size_t k = 0; k < f.updates.size(); k++) {
        for_each_specialization(f.updates[k].specializations, [&](const Specialization &sp) {
            if (sp.fails) {
                return;
            }
            FunctionContents copy = f;
            copy.updates[k].splits = sp.splits;
            copy.updates[k].dims = sp.dims;
            check_update_races(copy);
        });
    }
}

} // namespace Internal
} // namespace Halide
