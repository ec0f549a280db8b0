// See Passes.h: a stage's loop nest under each of its specializations.
//
// For f.specialize(c1) (itself specialized by c3) and f.specialize(c2):
//
//   if (c1) { if (c3) nest(c1.c3) else nest(c1) }
//   else if (c2) nest(c2)
//   else nest(f)
//
// Inside each branch what its condition says is substituted: a bool Param
// `p` is true in `if (p)` and false in its else, `p == 3` makes p 3, the
// condition itself (and each of its conjuncts where it holds, disjuncts
// where it fails) is true or false, and a comparison of a variable with a
// constant that the known ones decide (p > 50 where p > 73 holds) is too,
// so the branch's code is simplified for that case (and its selects on
// those conditions read only one side: bounds inference sees that).
// specialize_fail(message) replaces the default nest by a run-time error
// with the message.
#include <climits>

#include "Halide/IREquality.h"
#include "Halide/IRMutator.h"
#include "Halide/IROperator.h"
#include "Halide/Simplify.h"
#include "analysis/ImpliedConditions.h"
#include "ir/Substitute.h"
#include "lower/Passes.h"

namespace Halide {
namespace Internal {
namespace {

// Variables' values, and conditions known to hold or fail.
struct Facts {
    std::map<std::string, Expr> values;
    std::vector<std::pair<Expr, bool>> conditions;
    bool empty() const { return values.empty() && conditions.empty(); }
};

// The variable and constant of `v op k` or `k op v` (int32), with op
// turned around for the second.
bool var_vs_const(const Expr &c, std::string &var, IRNodeType &op, int64_t &k) {
    if (!c.defined()) {
        return false;
    }
    Expr a, b;
    switch (c->node_type) {
    case IRNodeType::LT: a = c.as<LT>()->a, b = c.as<LT>()->b; break;
    case IRNodeType::LE: a = c.as<LE>()->a, b = c.as<LE>()->b; break;
    case IRNodeType::GT: a = c.as<GT>()->a, b = c.as<GT>()->b; break;
    case IRNodeType::GE: a = c.as<GE>()->a, b = c.as<GE>()->b; break;
    default: return false;
    }
    op = c->node_type;
    const Variable *v = a.as<Variable>();
    const IntImm *i = b.as<IntImm>();
    if (!v || !i) {
        v = b.as<Variable>();
        i = a.as<IntImm>();
        static const std::map<IRNodeType, IRNodeType> flipped = {{IRNodeType::LT, IRNodeType::GT},
                                                                 {IRNodeType::LE, IRNodeType::GE},
                                                                 {IRNodeType::GT, IRNodeType::LT},
                                                                 {IRNodeType::GE, IRNodeType::LE}};
        op = flipped.at(op);
    }
    if (!v || !i || v->type != Int(32)) {
        return false;
    }
    var = v->name;
    k = i->value;
    return true;
}

// The range [lo, hi] of values of v for which `v op k` holds (or fails).
std::pair<int64_t, int64_t> range_of(IRNodeType op, int64_t k, bool holds) {
    if (!holds) {
        op = op == IRNodeType::LT   ? IRNodeType::GE
             : op == IRNodeType::LE ? IRNodeType::GT
             : op == IRNodeType::GT ? IRNodeType::LE
                                    : IRNodeType::LT;
    }
    switch (op) {
    case IRNodeType::LT: return {INT64_MIN, k - 1};
    case IRNodeType::LE: return {INT64_MIN, k};
    case IRNodeType::GT: return {k + 1, INT64_MAX};
    default: return {k, INT64_MAX};
    }
}

// Replaces the known conditions (and comparisons they decide) by constants.
class Decide : public IRMutator {
public:
    explicit Decide(const Facts &f) : facts_(f) {
        for (const auto &[c, holds] : f.conditions) {
            std::string v;
            IRNodeType op;
            int64_t k;
            if (var_vs_const(c, v, op, k)) {
                auto r = range_of(op, k, holds);
                auto [it, fresh] = ranges_.emplace(v, r);
                if (!fresh) {
                    it->second = {std::max(it->second.first, r.first), std::min(it->second.second, r.second)};
                }
            }
        }
    }
    using IRMutator::mutate;
    Expr mutate(const Expr &e) override {
        if (e.type().is_bool() && e.type().lanes() == 1) {
            for (const auto &[c, holds] : facts_.conditions) {
                if (equal(e, c)) {
                    return holds ? const_true() : const_false();
                }
            }
            std::string v;
            IRNodeType op;
            int64_t k;
            if (var_vs_const(e, v, op, k)) {
                auto known = ranges_.find(v);
                if (known != ranges_.end()) {
                    auto yes = range_of(op, k, true), no = range_of(op, k, false);
                    auto inside = [&](std::pair<int64_t, int64_t> r) {
                        return r.first <= known->second.first && known->second.second <= r.second;
                    };
                    if (inside(yes) || inside(no)) {
                        return inside(yes) ? const_true() : const_false();
                    }
                }
            }
        }
        return IRMutator::mutate(e);
    }

private:
    const Facts &facts_;
    std::map<std::string, std::pair<int64_t, int64_t>> ranges_;
};

// What holding (`holds`) or failing of condition c says: p, !p, p == k,
// k == p about single variables, c itself, and conjunctions (or, when c
// fails, disjunctions) of those.
void learn(const Expr &cond, bool holds, Facts &facts) {
    for_each_implied_condition(cond, holds, [&](const Expr &c, bool h) {
        facts.conditions.emplace_back(c, h);
        if (const Variable *v = c.as<Variable>()) {
            facts.values[v->name] = h ? const_true() : const_false();
        } else if (const EQ *eq = c.as<EQ>(); eq && h) {
            const Variable *va = eq->a.as<Variable>(), *vb = eq->b.as<Variable>();
            if (va && is_const(eq->b)) {
                facts.values[va->name] = eq->b;
            } else if (vb && is_const(eq->a)) {
                facts.values[vb->name] = eq->a;
            }
        }
    });
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
            return facts.empty() ? s : Decide(facts).mutate(substitute(facts.values, s));
        }
        const Specialization &sp = specs[i];
        if (sp.fails) {
            Expr error = Call::make(Int(32), "halide_error_specialize_fail",
                                    {Variable::make(Handle(), "__user_context"), StringImm::make(sp.failure_message)},
                                    Call::Extern);
            return AssertStmt::make(const_false(), error);
        }
        Expr c = simplify(facts.empty() ? sp.condition : Decide(facts).mutate(substitute(facts.values, sp.condition)));
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
