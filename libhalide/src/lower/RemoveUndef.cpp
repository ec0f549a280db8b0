// See Passes.h. undef() inside a definition's value or coordinates, as
// upstream's: select(c, v, undef()) is v where c holds and no store where
// it does not; any other expression of an undef() is undef() as a whole. A
// Provide becomes stores guarded by the conditions its values and
// coordinates need (a value undef() as a whole is not stored at all).
#include "Halide/Error.h"
#include "Halide/IREquality.h"
#include "Halide/IRMutator.h"
#include "Halide/IROperator.h"
#include "ir/Undef.h"
#include "lower/Passes.h"

namespace Halide {
namespace Internal {
namespace {

Expr and_of(const Expr &a, const Expr &b) {
    return !a.defined() ? b : (!b.defined() ? a : And::make(a, b));
}

// An expression without its undef()s: `whole` when it is undef() everywhere,
// else the value and `predicate`, where it is defined (undefined: everywhere).
class Split : public IRMutator {
public:
    Expr predicate;
    bool whole = false;
    using IRMutator::visit;

    Expr visit(const Call *op) override {
        if (op->call_type == Call::Intrinsic && op->name == Intrinsics::undef) {
            whole = true;
            return make_zero(op->type);
        }
        return IRMutator::visit(op);
    }

    Expr visit(const Select *op) override {
        if (!contains_undef(op->true_value) && !contains_undef(op->false_value)) {
            return IRMutator::visit(op);
        }
        user_assert(!contains_undef(op->condition)) << "undef() may not be part of a select's condition";
        Expr outer = predicate;
        bool outer_whole = whole;
        predicate = Expr();
        whole = false;
        Expr t = mutate(op->true_value);
        Expr pt = predicate;
        bool wt = whole;
        predicate = Expr();
        whole = false;
        Expr f = mutate(op->false_value);
        Expr pf = predicate;
        bool wf = whole;
        predicate = outer;
        whole = outer_whole;
        if (wt && wf) {
            whole = true;
            return t;
        }
        if (wt) {
            predicate = and_of(predicate, and_of(Not::make(op->condition), pf));
            return f;
        }
        if (wf) {
            predicate = and_of(predicate, and_of(op->condition, pt));
            return t;
        }
        if (pt.defined() || pf.defined()) {
            Expr yes = const_true();
            predicate =
                and_of(predicate, Select::make(op->condition, pt.defined() ? pt : yes, pf.defined() ? pf : yes));
        }
        return Select::make(op->condition, t, f);
    }
};

class RemoveUndef : public IRMutator {
public:
    using IRMutator::visit;
    Stmt visit(const Provide *op) override {
        bool any = false;
        for (const Expr &e : op->values) {
            any = any || (!is_undef(e) && contains_undef(e));
        }
        for (const Expr &e : op->args) {
            any = any || contains_undef(e);
        }
        if (!any) {
            return IRMutator::visit(op);
        }
        Split split;
        std::vector<Expr> args;
        for (const Expr &a : op->args) {
            args.push_back(split.mutate(a));
            if (split.whole) {
                return Evaluate::make(make_zero(Int(32))); // stored nowhere
            }
        }
        Expr shared = split.predicate; // where the coordinates are defined
        // Values with the same predicate share one Provide (one point, every
        // value read before any is written); values without one are stored
        // wherever the coordinates are.
        std::vector<Stmt> stores;
        std::vector<Expr> values(op->values.size()), predicates(op->values.size());
        std::vector<bool> stored(op->values.size());
        for (size_t i = 0; i < op->values.size(); i++) {
            if (is_undef(op->values[i])) {
                continue;
            }
            Split v;
            Expr value = v.mutate(op->values[i]);
            if (!v.whole) {
                values[i] = value;
                predicates[i] = v.predicate;
                stored[i] = true;
            }
        }
        for (size_t i = 0; i < op->values.size(); i++) {
            if (!stored[i]) {
                continue;
            }
            std::vector<Expr> group(op->values.size());
            for (size_t j = 0; j < op->values.size(); j++) {
                group[j] = undef(op->values[j].type());
            }
            for (size_t j = i; j < op->values.size(); j++) {
                bool same = stored[j] && (predicates[j].defined() == predicates[i].defined()) &&
                            (!predicates[i].defined() || equal(predicates[j], predicates[i]));
                if (same) {
                    group[j] = values[j];
                    stored[j] = j == i ? stored[j] : false;
                }
            }
            stored[i] = false;
            Stmt s = Provide::make(op->name, group, args);
            Expr when = and_of(shared, predicates[i]);
            stores.push_back(when.defined() ? IfThenElse::make(when, s) : s);
        }
        return stores.empty() ? Evaluate::make(make_zero(Int(32))) : Block::make(stores);
    }
};

} // namespace

Stmt remove_undef(const Stmt &s) {
    return RemoveUndef().mutate(s);
}

} // namespace Internal
} // namespace Halide
