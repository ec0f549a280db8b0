// See Passes.h: loop nests and realizations.
//
// An output Func loops over its output buffer's region (the variables
// `f.min.d` and `f.extent.d`, bound from the buffer by add_image_checks).
// A compute_root Func g is wrapped around everything that consumes it:
//
//   let g.min.d = ..., g.extent.d = ...     (the region its consumers need)
//   realize g { produce g (loops over that region); consumers }
//
// With store_root()/store_at() outside its compute_at() level, g's
// computation (over region g.c.*) sits at the compute loop and its storage
// (region g.*, every element any iteration writes or reads) at the store
// loop.
//
// Funcs are wrapped in reverse realization order, so when g is placed, all
// of its consumers are already in the statement and bounds inference over
// that statement gives the region g must cover.
#include <algorithm>
#include <functional>
#include <set>

#include "Halide/Error.h"
#include "Halide/IREquality.h"
#include "Halide/IRMutator.h"
#include "Halide/IROperator.h"
#include "Halide/IRPrinter.h"
#include "Halide/IRVisitor.h"
#include "Halide/Var.h"
#include "analysis/Interval.h"
#include "ir/Substitute.h"
#include "ir/UsesVars.h"
#include "lower/ComputeWith.h"
#include "lower/ExternStages.h"
#include "lower/LegalLocations.h"
#include "lower/Passes.h"

namespace Halide {
namespace Internal {
namespace {

// Whether a split of a non-output Func can shift its last iteration inwards
// without a guard: the first split of a pure argument (not explicitly
// bounded) by a constant, with the Auto or ShiftInwards tail. bind_region then makes the
// region at least one factor wide, so the shifted iteration stays inside.
bool shifts_inwards(const FunctionContents &f, const SplitStep &step) {
    if (step.kind != SplitStep::Split || !step.factor.as<IntImm>() ||
        (step.tail != TailKind::Auto && step.tail != TailKind::ShiftInwards &&
         step.tail != TailKind::ShiftInwardsAndBlend) ||
        f.explicit_bounds.count(step.old_var) || f.extent_bounds.count(step.old_var) ||
        std::find(f.args.begin(), f.args.end(), step.old_var) == f.args.end()) {
        return false;
    }
    for (const SplitStep &s : f.splits) {
        if (&s == &step) {
            return true;
        }
        if (s.kind == SplitStep::Split && s.old_var == step.old_var) {
            return false;
        }
    }
    return false;
}

// The factor the region of pure argument `arg` must be at least as wide as, or 0.
int64_t minimum_width(const FunctionContents &f, const std::string &arg) {
    for (const SplitStep &s : f.splits) {
        if (s.kind == SplitStep::Split && s.old_var == arg) {
            return shifts_inwards(f, s) ? s.factor.as<IntImm>()->value : 0;
        }
    }
    return 0;
}

// `value`, with the promise that it lies in [min, max]. The
// schedule knows each loop variable's exact range; this hands that range to
// bounds inference (codegen drops the wrapper).
Expr promise_in(const Expr &value, const Expr &min, const Expr &max) {
    return Call::make(Int(32), "promise_clamped", {value, min, max}, Call::Intrinsic);
}

// Whether a RoundUp split of `var` in update `u` leaves every point updated
// once, by upstream's rule: not for an RVar or anything made from one, nor
// for the inner half of a split (its rounding would overlap the next
// iteration's points); pure Vars, outer halves and fused loops of pure
// Vars are fine.
bool rounds_up_safely(const UpdateDefinition &u, const std::string &var) {
    if (std::find(u.pure_vars.begin(), u.pure_vars.end(), var) != u.pure_vars.end()) {
        return true;
    }
    for (const SplitStep &s : u.splits) {
        if (s.kind == SplitStep::Split && s.outer == var) {
            return rounds_up_safely(u, s.old_var);
        }
        if (s.kind == SplitStep::Fuse && s.old_var == var) {
            return rounds_up_safely(u, s.inner) && rounds_up_safely(u, s.outer);
        }
    }
    return false; // an RVar, or the inner half of a split
}

// Whether `var` of update `u` is an RVar or made from one by splits and fuses.
bool stems_from_rvar(const UpdateDefinition &u, const std::string &var) {
    if (std::find(u.pure_vars.begin(), u.pure_vars.end(), var) != u.pure_vars.end()) {
        return false;
    }
    for (const SplitStep &s : u.splits) {
        if (s.kind == SplitStep::Split && (s.outer == var || s.inner == var)) {
            return stems_from_rvar(u, s.old_var);
        }
        if (s.kind == SplitStep::Fuse && s.old_var == var) {
            return stems_from_rvar(u, s.inner) || stems_from_rvar(u, s.outer);
        }
    }
    return true;
}

const char *tail_name(TailKind t) {
    switch (t) {
    case TailKind::GuardWithIf: return "GuardWithIf";
    case TailKind::ShiftInwards: return "ShiftInwards";
    case TailKind::RoundUp: return "RoundUp";
    case TailKind::Predicate: return "Predicate";
    case TailKind::PredicateLoads: return "PredicateLoads";
    case TailKind::PredicateStores: return "PredicateStores";
    case TailKind::ShiftInwardsAndBlend: return "ShiftInwardsAndBlend";
    case TailKind::RoundUpAndBlend: return "RoundUpAndBlend";
    default: return "Auto";
    }
}

// The original variable `var` was split or fused from (a loop variable
// itself when no split made it), and every variable made from it.
std::string root_of(const std::vector<SplitStep> &splits, const std::string &var) {
    for (const SplitStep &s : splits) {
        if (s.kind == SplitStep::Split && (s.outer == var || s.inner == var)) {
            return root_of(splits, s.old_var);
        }
        if (s.kind == SplitStep::Fuse && s.old_var == var) {
            return root_of(splits, s.inner);
        }
    }
    return var;
}

// The checks upstream makes of the tail strategies that are not always
// legal, with its words: which splits may use PredicateLoads or
// PredicateStores, which tails an RVar may have, and that the blending
// tails (a read-modify-write of the tail) are not raced by a parallel loop
// from the same variable.
void check_tail_legality(const FunctionContents &f, const UpdateDefinition *update,
                         const std::vector<SplitStep> &splits, const std::vector<LoopDim> &dims) {
    std::string where = update ? "update definition of " + f.name : "the definition of " + f.name;
    for (size_t i = 0; i < splits.size(); i++) {
        const SplitStep &step = splits[i];
        if (step.kind != SplitStep::Split) {
            continue;
        }
        TailKind tail = step.tail;
        bool predicates_part = tail == TailKind::PredicateLoads || tail == TailKind::PredicateStores;
        bool blends = tail == TailKind::ShiftInwardsAndBlend || tail == TailKind::RoundUpAndBlend;
        if (update && (predicates_part || blends) && stems_from_rvar(*update, step.old_var)) {
            user_error << "When splitting Var " << step.old_var
                       << " the tail strategy must be GuardWithIf, Predicate, or Auto. Anything else may change "
                          "the meaning of the algorithm";
        }
        // As upstream: PredicateLoads (not PredicateStores) may not split a
        // Var stemming from a prior split's inner Var (that inner Var, the
        // halves of its splits, a fuse with it), and no split may split the
        // inner Var of a predicated split.
        std::set<std::string> from_inner;
        for (size_t j = 0; j < i; j++) {
            const SplitStep &prior = splits[j];
            if (prior.kind == SplitStep::Fuse) {
                if (from_inner.count(prior.inner) || from_inner.count(prior.outer)) {
                    from_inner.insert(prior.old_var);
                }
                continue;
            }
            bool old_from_inner = from_inner.count(prior.old_var) > 0;
            from_inner.erase(prior.outer);
            if (old_from_inner) {
                from_inner.insert(prior.outer);
            }
            from_inner.insert(prior.inner);
            if (prior.inner == step.old_var) {
                user_assert(prior.tail != TailKind::PredicateLoads && prior.tail != TailKind::PredicateStores)
                    << "Cannot split a loop variable resulting from a split using PredicateLoads or "
                       "PredicateStores.";
            }
        }
        user_assert(tail != TailKind::PredicateLoads || !from_inner.count(step.old_var))
            << "Can't use TailStrategy::" << tail_name(tail) << " for splitting " << step.old_var << " in " << where
            << ". " << tail_name(tail)
            << " may not be used to split a Var stemming from the inner Var of a prior split.";
        if (blends) {
            std::string root = root_of(splits, step.old_var);
            for (const LoopDim &d : dims) {
                user_assert(d.for_type != ForType::Parallel || root_of(splits, d.var) != root)
                    << "Tail strategy " << tail_name(tail) << " may not be used to split " << step.old_var
                    << " because other vars stemming from the same original Var or RVar are marked as parallel."
                    << "This could cause a race condition.";
            }
        }
    }
}

// The check `holds` (by default, touched_max within the buffer) of a split of
// an output's dimension, which touches [touched_min, touched_max], with
// upstream's message when it fails ("Output buffer f is accessed at <x>,
// which is before the min / beyond the max"); undefined when the split is
// not of a dimension of f (of a split's inner half).
Stmt output_access_check(const FunctionContents &f, const UpdateDefinition *update, const SplitStep &step,
                         const Expr &holds, const Expr &touched_min, const Expr &touched_max) {
    for (size_t d = 0; d < f.args.size(); d++) {
        if ((update ? update->pure_vars[d] : f.args[d]) != step.old_var) {
            continue;
        }
        Expr buf_min = buffer_field(f.name, "min", (int)d), buf_max = buffer_field(f.name, "max", (int)d);
        return AssertStmt::make(
            holds.defined() ? holds : LE::make(touched_max, buf_max),
            Call::make(Int(32), "halide_error_access_out_of_bounds",
                       {Variable::make(Handle(), "__user_context"), StringImm::make("Output buffer " + f.name),
                        int32_const((int)d), touched_min, touched_max, buf_min, buf_max},
                       Call::Extern));
    }
    return Stmt();
}

// The check of an output's split whose tail runs on past the extent
// (RoundUp; PredicateLoads, whose stores do the same upstream): the rounded-up
// region must fit the buffer. Splitting a dimension of the output, upstream's
// message: the buffer "is accessed at <max>, which is beyond the max". Any
// other split (of a split's inner half): the extent is not a multiple of
// the factor, naming the tail strategy.
Stmt round_up_check(const FunctionContents &f, const UpdateDefinition *update, const SplitStep &step, const Expr &min,
                    const Expr &extent) {
    const Expr &k = step.factor;
    Expr rounded = Mul::make(Div::make(Add::make(extent, Sub::make(k, int32_const(1))), k), k);
    Expr touched_max = Sub::make(Add::make(min, rounded), int32_const(1));
    if (Stmt check = output_access_check(f, update, step, Expr(), min, touched_max); check.defined()) {
        return check;
    }
    // (stringify separates its values with spaces.)
    std::string what =
        std::string("TailStrategy::") + tail_name(step.tail) + " splits " + step.old_var + " of " + f.name + " by";
    Expr message = Call::make(Handle(), "stringify",
                              {StringImm::make(what), k, StringImm::make("and its extent"), extent,
                               StringImm::make("is not a multiple of it: the last iteration would compute past it")},
                              Call::Intrinsic);
    Expr uc = Variable::make(Handle(), "__user_context");
    return AssertStmt::make(
        EQ::make(Mod::make(extent, k), int32_const(0)),
        Call::make(Int(32), "halide_error_requirement_failed", {uc, StringImm::make("false"), message}, Call::Extern));
}

// The conditions of the guards produce_stage_nest puts around update stages
// whose pure Vars it clipped, while one output is produced.
thread_local std::set<const IRNode *> clipped_stage_guards;

// Splits `e` into coeff * v + offset with a constant coeff and an offset
// free of v; false where it is not of that form.
bool linear_in(const Expr &e, const std::string &v, int64_t &coeff, Expr &offset) {
    if (!expr_uses_var_if(e, [&](const std::string &n) { return n == v; })) {
        coeff = 0;
        offset = e;
        return true;
    }
    if (const Variable *var = e.as<Variable>()) {
        coeff = 1;
        offset = int32_const(0);
        return var->name == v;
    }
    int64_t ca, cb;
    Expr oa, ob;
    if (const Add *op = e.as<Add>()) {
        if (!linear_in(op->a, v, ca, oa) || !linear_in(op->b, v, cb, ob)) {
            return false;
        }
        coeff = ca + cb;
        offset = Add::make(oa, ob);
        return true;
    }
    if (const Sub *op = e.as<Sub>()) {
        if (!linear_in(op->a, v, ca, oa) || !linear_in(op->b, v, cb, ob)) {
            return false;
        }
        coeff = ca - cb;
        offset = Sub::make(oa, ob);
        return true;
    }
    if (const Mul *op = e.as<Mul>()) {
        const int64_t *k = as_const_int(op->b);
        Expr other = op->a;
        if (!k) {
            k = as_const_int(op->a);
            other = op->b;
        }
        if (!k || !linear_in(other, v, ca, oa)) {
            return false;
        }
        coeff = ca * *k;
        offset = Mul::make(oa, op->b.same_as(other) ? op->a : op->b);
        return true;
    }
    return false;
}

// An update's pure Var that other arguments use (f(x, x), f(x, 3 - x))
// loops only where those arguments stay inside their dimensions of the
// region, as upstream's: the points that would leave it are skipped. Only
// arguments linear in one pure Var (and no RVar) are solved; others leave
// the loop as it is.
void clip_update_pure_vars(const UpdateDefinition &u, const std::string &region,
                           std::map<std::string, std::pair<Expr, Expr>> &min_max) {
    std::set<std::string> rvars;
    if (u.rdom) {
        for (const ReductionVariable &r : u.rdom->domain) {
            rvars.insert(r.var);
        }
    }
    for (size_t d = 0; d < u.args.size(); d++) {
        if (!u.pure_vars[d].empty() || expr_uses_any_var(u.args[d], rvars)) {
            continue;
        }
        std::vector<std::string> used;
        for (const auto &[v, bounds] : min_max) {
            if (expr_uses_any_var(u.args[d], {v})) {
                used.push_back(v);
            }
        }
        int64_t k;
        Expr b;
        if (used.size() != 1 || !linear_in(u.args[d], used[0], k, b) || k == 0) {
            continue;
        }
        // lo <= k * v + b <= hi, solved for v (Div rounds down).
        Expr lo = buffer_field(region, "min", (int)d), hi = buffer_field(region, "max", (int)d);
        Expr first, last;
        if (k > 0) {
            first = Div::make(Add::make(Sub::make(lo, b), int32_const(k - 1)), int32_const(k));
            last = Div::make(Sub::make(hi, b), int32_const(k));
        } else {
            first = Div::make(Add::make(Sub::make(b, hi), int32_const(-k - 1)), int32_const(-k));
            last = Div::make(Sub::make(b, lo), int32_const(-k));
        }
        auto &[min, max] = min_max.at(used[0]);
        min = Max::make(min, first);
        max = Min::make(max, last);
    }
}

// The check of a split shifted inwards: its extent is at least the factor.
// Splitting a dimension of the output, its last iteration starts before the
// buffer's min when not (upstream's message: the buffer "is accessed at
// max - factor + 1, which is before the min"); any other split, the region
// given (from min to max) does not cover the factor's.
Stmt shift_inwards_check(const FunctionContents &f, const UpdateDefinition *update, const SplitStep &step,
                         const Expr &min, const Expr &max, const Expr &extent) {
    const Expr &k = step.factor;
    Expr shifted_min = Add::make(max, Sub::make(int32_const(1), k));
    if (Stmt check = output_access_check(f, update, step, GE::make(extent, k), Min::make(min, shifted_min), max);
        check.defined()) {
        return check;
    }
    return AssertStmt::make(
        GE::make(extent, k),
        Call::make(Int(32), "halide_error_explicit_bounds_too_small",
                   {Variable::make(Handle(), "__user_context"), StringImm::make(f.name), StringImm::make(step.old_var),
                    int32_const(0), Sub::make(extent, int32_const(1)), int32_const(0), Sub::make(k, int32_const(1))},
                   Call::Extern));
}

// The loop nest that computes stage `stage` of f over <region>.min.d /
// .extent.d, following its schedule: splits and fuses (in order), then the
// loops (innermost first). Stage 0 is the pure definition, stage k update k-1.
//
//   for f.sK.<outermost> ...
//     for f.sK.<innermost> ...
//       if (guards) f(site) = value    (split-off variables substituted)
//
// `splits` and `dims`: the stage's schedule, or one of its specializations'.
Stmt produce_stage_nest(const FunctionContents &f, int stage, bool is_output, const std::string &region,
                        const std::vector<SplitStep> &splits, const std::vector<LoopDim> &dims) {
    // max is kept apart from min + extent - 1: bounds inference sees it as one
    // variable, so it does not lose the correlation between min and extent.
    struct Bounds {
        Expr min, extent, max;
    };
    const UpdateDefinition *update = stage > 0 ? &f.updates[(size_t)stage - 1] : nullptr;
    std::map<std::string, Bounds> bounds;
    std::vector<Stmt> checks;
    auto loop = [&](const std::string &var) { return var_int32(loop_var_name(f.name, var, stage)); };
    for (size_t d = 0; d < f.args.size(); d++) {
        const std::string &var = update ? update->pure_vars[d] : f.args[d];
        if (var.empty()) {
            continue; // an update's argument that is not a pure Var: no loop
        }
        bounds[var] = {buffer_field(region, "min", (int)d), buffer_field(region, "extent", (int)d),
                       buffer_field(region, "max", (int)d)};
        auto b = f.explicit_bounds.find(f.args[d]);
        auto e = f.extent_bounds.find(f.args[d]);
        if (is_output && (b != f.explicit_bounds.end() || e != f.extent_bounds.end())) {
            // An output computes exactly its bound() region (bound_extent():
            // that extent from the buffer's min), which its buffer must hold.
            Expr min = b != f.explicit_bounds.end() ? b->second.first : buffer_field(f.name, "min", (int)d);
            Expr extent = b != f.explicit_bounds.end() ? b->second.second : e->second;
            Expr max = Sub::make(Add::make(min, extent), int32_const(1));
            bounds[var] = {min, extent, max};
            Expr buf_min = buffer_field(f.name, "min", (int)d), buf_max = buffer_field(f.name, "max", (int)d);
            if (stage == 0) {
                checks.push_back(AssertStmt::make(
                    And::make(LE::make(buf_min, min), LE::make(max, buf_max)),
                    Call::make(Int(32), "halide_error_access_out_of_bounds",
                               {Variable::make(Handle(), "__user_context"), StringImm::make("Output buffer " + f.name),
                                int32_const((int)d), min, max, buf_min, buf_max},
                               Call::Extern)));
                // As upstream, the buffer may not reach past the bound()
                // region (bound_extent(): past its max) either: the points
                // outside it would be left unwritten.
                Expr covered = b == f.explicit_bounds.end() ? LE::make(buf_max, max)
                                                            : And::make(LE::make(min, buf_min), LE::make(buf_max, max));
                checks.push_back(AssertStmt::make(
                    covered, Call::make(Int(32), "halide_error_explicit_bounds_too_small",
                                        {Variable::make(Handle(), "__user_context"), StringImm::make(f.args[d]),
                                         StringImm::make(f.name), min, max, buf_min, buf_max},
                                        Call::Extern)));
            }
        }
    }
    Expr nonempty; // where a clipped pure Var's loop has points at all
    if (update) {
        std::map<std::string, std::pair<Expr, Expr>> min_max;
        for (const std::string &v : update->pure_vars) {
            if (!v.empty()) {
                min_max[v] = {bounds[v].min, bounds[v].max};
            }
        }
        clip_update_pure_vars(*update, region, min_max);
        for (const auto &[v, mm] : min_max) {
            if (!mm.first.same_as(bounds[v].min) || !mm.second.same_as(bounds[v].max)) {
                Expr extent = Max::make(Add::make(Sub::make(mm.second, mm.first), int32_const(1)), int32_const(0));
                bounds[v] = {mm.first, extent, mm.second};
                Expr some = LE::make(mm.first, mm.second);
                nonempty = nonempty.defined() ? And::make(nonempty, some) : some;
            }
        }
    }
    if (update && update->rdom) {
        for (const ReductionVariable &r : update->rdom->domain) {
            bounds[r.var] = {r.min, r.extent, Sub::make(Add::make(r.min, r.extent), int32_const(1))};
        }
    }
    check_tail_legality(f, update, splits, dims);
    std::vector<std::pair<std::string, Expr>> lets; // in the order the splits were made
    std::vector<Expr> guards;
    for (const SplitStep &step : splits) {
        if (step.kind == SplitStep::Split) {
            Bounds old = bounds.at(step.old_var);
            Expr factor = step.factor;
            Expr outer_extent = Div::make(Add::make(old.extent, Sub::make(factor, int32_const(1))), factor);
            bounds[step.outer] = {int32_const(0), outer_extent, Sub::make(outer_extent, int32_const(1))};
            bounds[step.inner] = {int32_const(0), factor, Sub::make(factor, int32_const(1))};
            Expr outer = loop(step.outer), inner = loop(step.inner);
            TailKind tail = step.tail;
            bool checked_shift = true;
            // Predicating the loads and stores is how a guard is vectorized
            // (VectorizeLoops.cpp): the three are guards here. PredicateLoads
            // lets the stores run on as RoundUp does, so an output's extent
            // must then be a multiple of the factor, checked as RoundUp's.
            // Blending keeps the points a stage should not write: a guard
            // does the same, except on the outputs' pure definitions, which
            // may shift inwards or round up as the unblended tails do.
            bool predicate_loads_check = tail == TailKind::PredicateLoads && is_output && !update;
            if (tail == TailKind::Predicate || tail == TailKind::PredicateLoads || tail == TailKind::PredicateStores) {
                tail = TailKind::GuardWithIf;
            } else if (tail == TailKind::ShiftInwardsAndBlend) {
                tail = update ? TailKind::GuardWithIf : TailKind::ShiftInwards;
            } else if (tail == TailKind::RoundUpAndBlend) {
                tail = update || !is_output ? TailKind::GuardWithIf : TailKind::RoundUp;
            }
            if (update) {
                // Rounding up a split of an RVar or of a split's inner half
                // would update some points twice: refused, as upstream.
                user_assert(tail != TailKind::RoundUp || rounds_up_safely(*update, step.old_var))
                    << "Can't use TailStrategy::RoundUp for splitting " << step.old_var << " in update definition "
                    << stage - 1 << " of " << f.name << " (" << f.name << ".update(" << stage - 1
                    << ")): some points would be updated twice, which changes the result. Use "
                    << "TailStrategy::GuardWithIf instead.";
                // An update may not compute a point twice (f(x) += 1 would
                // add twice), so its tails are guarded; an output's RoundUp
                // stays (checked below), a producer's computes the same
                // values guarded (upstream grows its region instead).
                if (tail != TailKind::RoundUp || !is_output) {
                    tail = TailKind::GuardWithIf;
                }
            } else if (!is_output && shifts_inwards(f, step)) {
                // Upstream grows such regions; we shift inwards within a
                // region realize_around made at least one factor wide.
                tail = TailKind::ShiftInwards;
                checked_shift = false;
            } else if (!is_output && tail != TailKind::GuardWithIf) {
                // Any other split of a producer (of a split's outer loop, say)
                // is guarded: upstream computes a larger region instead, but
                // the values a consumer reads are the same.
                tail = TailKind::GuardWithIf;
            }
            if (tail == TailKind::Auto) {
                tail = TailKind::ShiftInwards;
            }
            // The first point of this iteration. Shifted inwards, the last
            // iteration starts at max - factor + 1: written with the max
            // (not min + extent - factor) so bounds inference, which sees
            // max as one variable, need not bound the extent from below.
            // likely_if_innermost, as upstream: loop partitioning peels the
            // shifted last iteration off an innermost loop (one around vector
            // code), so its steady state stores at base + k * factor without
            // a min per iteration (PartitionLoops.cpp).
            Expr base = Add::make(old.min, Mul::make(outer, factor));
            if (tail == TailKind::ShiftInwards) {
                base = Min::make(likely_if_innermost(base), Add::make(old.max, Sub::make(int32_const(1), factor)));
            }
            if (tail == TailKind::ShiftInwards && checked_shift) {
                checks.push_back(shift_inwards_check(f, update, step, old.min, old.max, old.extent));
            }
            Expr value = Add::make(base, inner);
            lets.emplace_back(step.old_var, promise_in(value, old.min, old.max));
            if (tail == TailKind::GuardWithIf) {
                // likely: loop partitioning peels the tail off, so the steady
                // state runs unguarded (PartitionLoops.cpp).
                guards.push_back(likely(LT::make(loop(step.old_var), Add::make(old.min, old.extent))));
            }
            if (tail == TailKind::RoundUp || predicate_loads_check) {
                checks.push_back(round_up_check(f, update, step, old.min, old.extent));
            }
        } else {
            Bounds in = bounds.at(step.inner), out = bounds.at(step.outer);
            Expr fused_extent = Mul::make(in.extent, out.extent);
            bounds[step.old_var] = {int32_const(0), fused_extent, Sub::make(fused_extent, int32_const(1))};
            Expr fused = loop(step.old_var);
            lets.emplace_back(step.inner, promise_in(Add::make(in.min, Mod::make(fused, in.extent)), in.min, in.max));
            lets.emplace_back(step.outer,
                              promise_in(Add::make(out.min, Div::make(fused, in.extent)), out.min, out.max));
        }
    }

    // The definition in terms of this stage's loop variables.
    std::map<std::string, Expr> renames;
    std::vector<Expr> site, values, predicates;
    if (update) {
        for (const std::string &v : update->pure_vars) {
            if (!v.empty()) {
                renames[v] = loop(v);
            }
        }
        if (update->rdom) {
            for (const ReductionVariable &r : update->rdom->domain) {
                renames[r.var] = loop(r.var);
            }
            for (const Expr &p : update->rdom->predicates) {
                predicates.push_back(substitute(renames, p));
            }
        }
        for (const Expr &a : update->args) {
            site.push_back(substitute(renames, a));
        }
        for (const Expr &v : update->values) {
            values.push_back(substitute(renames, v));
        }
    } else {
        for (const std::string &a : f.args) {
            renames[a] = loop(a);
            site.push_back(renames[a]);
        }
        for (const Expr &v : f.values) {
            values.push_back(substitute(renames, v));
        }
    }
    Stmt s = Provide::make(f.name, values, site);
    for (const Expr &p : predicates) {
        s = IfThenElse::make(p, s); // RDom::where: only the points where it holds
    }
    if (!guards.empty()) {
        Expr all = guards[0];
        for (size_t i = 1; i < guards.size(); i++) {
            all = And::make(all, guards[i]);
        }
        s = IfThenElse::make(all, s);
    }
    // Replace each split-off variable by its definition in terms of the
    // loops (latest split first, since earlier definitions use its results),
    // so index expressions are plain arithmetic on loop variables.
    std::map<std::string, Expr> definitions;
    for (auto it = lets.rbegin(); it != lets.rend(); ++it) {
        definitions[loop_var_name(f.name, it->first, stage)] = substitute(definitions, it->second);
    }
    s = substitute(definitions, s);
    for (const LoopDim &d : dims) {
        const Bounds &b = bounds.at(d.var);
        s = For::make(loop_var_name(f.name, d.var, stage), b.min, b.extent, d.for_type, s);
    }
    if (nonempty.defined()) {
        // An empty clipped loop's bounds lie outside the region; the guard
        // lets check_output_touched skip its points.
        s = IfThenElse::make(nonempty, s);
        clipped_stage_guards.insert(nonempty.get());
    }
    return Block::make(Block::make(checks), s);
}

// The Funcs that some Func is computed or stored at Var::outermost() of.
thread_local const std::set<std::string> *outermost_marked = nullptr;

std::set<std::string> outermost_levels(const Environment &env) {
    std::set<std::string> funcs;
    for (const auto &[name, g] : env) {
        if (g->compute == ComputeLevel::At && g->compute_at_var == Var::outermost().name()) {
            funcs.insert(g->compute_at_func);
        }
        if (g->store == ComputeLevel::At && g->store_at_var == Var::outermost().name()) {
            funcs.insert(g->store_at_func);
        }
    }
    return funcs;
}

// Stage `stage` of f: its loop nest, or one per specialization (in the
// if/else chain of their conditions). When a Func is computed or stored at
// its Var::outermost(), the stage is in a loop of one iteration of that
// name, the place such a Func goes (as upstream's outermost loop).
Stmt produce_stage(const FunctionContents &f, int stage, bool is_output, const std::string &region) {
    const UpdateDefinition *update = stage > 0 ? &f.updates[(size_t)stage - 1] : nullptr;
    Stmt s = specialize_stage(update ? update->specializations : f.specializations, update ? update->splits : f.splits,
                              update ? update->dims : f.dims,
                              [&](const std::vector<SplitStep> &splits, const std::vector<LoopDim> &dims) {
                                  return produce_stage_nest(f, stage, is_output, region, splits, dims);
                              });
    if (outermost_marked && outermost_marked->count(f.name)) {
        s = For::make(loop_var_name(f.name, Var::outermost().name(), stage), int32_const(0), int32_const(1),
                      ForType::Serial, s);
    }
    return s;
}

// Every stage of f over <region>. With update definitions, each stage
// covers the region and whatever the stages after it read of f beyond it (a
// scan's f(s - 1) reads points the earlier stages must have computed), as
// upstream's bounds inference grows them; an output's stages loop over its
// buffer (reads beyond it are checked where the output is made).
// The Funcs whose stages schedule_functions marks for fuse_compute_with.
thread_local const std::set<std::string> *compute_with_marked = nullptr;

Stmt produce(const FunctionContents &f, bool is_output, const std::string &region) {
    int last = (int)f.updates.size();
    std::vector<Stmt> stages((size_t)last + 1);
    std::map<std::string, Box> later_reads; // what the stages after the current one read of f
    // The region's max kept symbolic: a stage's loop over [min, extent] is
    // then bounded by that max, not by min + extent - 1, whose interval
    // (once the region moves with an outer loop) is nearly twice as wide.
    Scope region_max;
    for (size_t d = 0; d < f.args.size(); d++) {
        Expr max = buffer_field(region, "max", (int)d);
        region_max[region + ".max." + std::to_string(d)] = Interval::single_point(max);
    }
    for (int k = last; k >= 0; k--) {
        bool widened = !is_output && k < last && later_reads.count(f.name);
        std::string stage_region = widened ? region + ".s" + std::to_string(k) : region;
        Stmt s = produce_stage(f, k, is_output, stage_region);
        if (widened) {
            const Box &read = later_reads.at(f.name);
            for (size_t d = f.args.size(); d-- > 0;) {
                Expr min = buffer_field(region, "min", (int)d), max = buffer_field(region, "max", (int)d);
                if (read[d].is_bounded()) {
                    min = Min::make(min, read[d].min);
                    max = Max::make(max, read[d].max);
                }
                std::string suffix = "." + std::to_string(d);
                Expr extent = Add::make(
                    Sub::make(buffer_field(stage_region, "max", (int)d), buffer_field(stage_region, "min", (int)d)),
                    int32_const(1));
                s = LetStmt::make(stage_region + ".extent" + suffix, extent, s);
                s = LetStmt::make(stage_region + ".max" + suffix, max, s);
                s = LetStmt::make(stage_region + ".min" + suffix, min, s);
            }
        }
        stages[(size_t)k] = s;
        if (compute_with_marked && compute_with_marked->count(f.name)) {
            stages[(size_t)k] = mark_compute_with_stage(f, k, s);
        }
        if (k > 0) {
            auto reads = boxes_required(s, region_max);
            auto it = reads.find(f.name);
            if (it != reads.end()) {
                auto prev = later_reads.find(f.name);
                later_reads[f.name] = prev == later_reads.end() ? it->second : box_union(prev->second, it->second);
            }
        }
    }
    return Block::make(stages);
}

// Whether e reads any Func.
bool calls_a_func(const Expr &e) {
    class Finder : public IRVisitor {
    public:
        bool found = false;
        using IRVisitor::visit;
        void visit(const Call *op) override {
            found = found || op->call_type == Call::Halide;
            IRVisitor::visit(op);
        }
    } finder;
    finder.include(e);
    return finder.found;
}

// The region of g that `body` needs, as lets `<region>.min.d`, `.max.d` and
// `.extent.d` around `inner` (with checks of explicit bounds first). The
// region is widened as g's schedule needs (align_bounds, one split factor).
// `kind` says which region: the one read (Required), the one whose values
// matter (Selected: a call in a select's branch only where the branch is
// picked, the region to compute), or the one read and written (Touched:
// also g's own Provides, for storage that several computations of g write into).
enum class RegionKind { Required, Selected, Touched };

Stmt bind_region(const FunctionContents &g, const Stmt &body, const std::string &region, RegionKind kind,
                 const std::function<Stmt(const Stmt &)> &inner) {
    // The lets that open `body` (the regions of consumers placed at this
    // level, a loop's coordinates) stay symbolic in g's region, and g's lets
    // go inside them, as upstream orders them. Substituting their values
    // instead nests each producer's region in its consumer's, which grows
    // exponentially along a chain of Funcs.
    // A let reading a Func stays inside: g may be what it reads.
    OpeningLets opening = opening_lets(body, calls_a_func);
    const Stmt &rest = opening.inside;
    auto boxes = kind == RegionKind::Touched    ? boxes_touched(rest, opening.symbolic)
                 : kind == RegionKind::Selected ? boxes_selected(rest, opening.symbolic)
                                                : boxes_required(rest, opening.symbolic);
    auto found = boxes.find(g.name);
    if (found == boxes.end() && kind == RegionKind::Selected) {
        // Loaded only where its values never matter: computed over what is
        // loaded, as before (the computation's placement stays where it was scheduled).
        boxes = boxes_required(rest, opening.symbolic);
        found = boxes.find(g.name);
    }
    if (found == boxes.end()) {
        return Stmt(); // nothing consumes it any more
    }
    Box box = found->second;
    std::vector<Stmt> checks;
    std::vector<std::pair<size_t, Interval>> needed; // dimensions widened to a split factor
    for (size_t d = 0; d < box.size(); d++) {
        auto b = g.explicit_bounds.find(g.args[d]);
        if (b != g.explicit_bounds.end()) {
            // Exactly the bound() region; consumers needing more fail at run
            // time. As upstream, bound() does not excuse an unbounded access
            // (an update writing at f(in(r)), a call at f(in(x))).
            user_assert(box[d].is_bounded())
                << g.name << " is accessed over an unbounded domain in dimension " << g.args[d];
            Expr min = b->second.first, max = Sub::make(Add::make(min, b->second.second), int32_const(1));
            if (box[d].is_bounded()) {
                // The Var first, then the Func, as upstream 21 passes them:
                // the runtime prints "Bounds given for <func> in <var>".
                checks.push_back(
                    AssertStmt::make(And::make(LE::make(min, box[d].min), LE::make(box[d].max, max)),
                                     Call::make(Int(32), "halide_error_explicit_bounds_too_small",
                                                {Variable::make(Handle(), "__user_context"), StringImm::make(g.args[d]),
                                                 StringImm::make(g.name), min, max, box[d].min, box[d].max},
                                                Call::Extern)));
            }
            box[d] = {min, max};
            continue;
        }
        auto ea = g.extent_alignments.find(g.args[d]);
        if (ea != g.extent_alignments.end() && box[d].is_bounded()) {
            // align_extent(): the extent rounded up, the min kept.
            Expr mod = ea->second;
            Expr span = Add::make(Sub::make(box[d].max, box[d].min), int32_const(1));
            Expr rounded = Mul::make(Div::make(Add::make(span, Sub::make(mod, int32_const(1))), mod), mod);
            box[d].max = Sub::make(Add::make(box[d].min, rounded), int32_const(1));
        }
        auto eb = g.extent_bounds.find(g.args[d]);
        if (eb != g.extent_bounds.end() && box[d].is_bounded()) {
            // bound_extent(): exactly that extent from the min needed; a
            // consumer needing more fails at run time, as with bound().
            Expr max = Sub::make(Add::make(box[d].min, eb->second), int32_const(1));
            checks.push_back(
                AssertStmt::make(LE::make(box[d].max, max),
                                 Call::make(Int(32), "halide_error_explicit_bounds_too_small",
                                            {Variable::make(Handle(), "__user_context"), StringImm::make(g.args[d]),
                                             StringImm::make(g.name), box[d].min, max, box[d].min, box[d].max},
                                            Call::Extern)));
            box[d].max = max;
            continue;
        }
        auto a = g.alignments.find(g.args[d]);
        if (a != g.alignments.end() && box[d].is_bounded()) {
            // Round the region out: min down and max up to the alignment.
            Expr mod = a->second.first, rem = a->second.second;
            Expr min = Add::make(Mul::make(Div::make(Sub::make(box[d].min, rem), mod), mod), rem);
            Expr span = Add::make(Sub::make(box[d].max, min), int32_const(1));
            Expr rounded = Mul::make(Div::make(Add::make(span, Sub::make(mod, int32_const(1))), mod), mod);
            box[d] = {min, Sub::make(Add::make(min, rounded), int32_const(1))};
        }
        if (int64_t width = minimum_width(g, g.args[d]); width > 1 && box[d].is_bounded()) {
            // At least one split factor wide, so the shifted last iteration
            // stays inside. Grown downwards from the max, as upstream grows it
            // (its last iteration starts at max - factor + 1), so both read
            // the same inputs. An empty region (the guarded tail of a
            // consumer's split) stays empty: nothing is read there.
            Expr widened = Min::make(box[d].min, Sub::make(box[d].max, int32_const(width - 1)));
            if (kind != RegionKind::Touched && g.updates.empty()) {
                // The points below the region needed are computed but their
                // values do not matter: g's producers are computed only for
                // the region needed (boxes_selected reads these lets where g
                // is produced), their storage covering what g loads. (An
                // update may read those points: then they matter.)
                needed.push_back({d, box[d]});
            }
            box[d].min = Select::make(GE::make(box[d].max, box[d].min), widened, box[d].min);
        }
    }
    for (size_t d = 0; d < box.size(); d++) {
        if (!box[d].is_bounded()) {
            user_error << "Can't infer the region of Func '" << g.name << "' its consumers need: the "
                       << (box[d].min.defined() ? "maximum" : "minimum") << " of dimension " << d << " ('" << g.args[d]
                       << "') is unbounded. Clamp the coordinates where it is called, or "
                       << "schedule it inline.";
        }
    }
    Stmt s = Block::make(Block::make(checks), inner(rest));
    for (size_t d = box.size(); d-- > 0;) {
        std::string prefix = region + ".";
        std::string suffix = "." + std::to_string(d);
        // Empty (max < min) in the guarded tail of a split: nothing is read there.
        Expr extent =
            Max::make(Add::make(Sub::make(buffer_field(region, "max", (int)d), buffer_field(region, "min", (int)d)),
                                int32_const(1)),
                      int32_const(0));
        s = LetStmt::make(prefix + "extent" + suffix, extent, s);
        s = LetStmt::make(prefix + "max" + suffix, box[d].max, s);
        s = LetStmt::make(prefix + "min" + suffix, box[d].min, s);
    }
    for (const auto &[d, i] : needed) {
        s = LetStmt::make(g.name + ".needed.max." + std::to_string(d), i.max, s);
        s = LetStmt::make(g.name + ".needed.min." + std::to_string(d), i.min, s);
    }
    return wrap_in_lets(opening, s);
}

// Storage for g over `region` (g.min.d / g.extent.d) around `body`.
Stmt realize(const FunctionContents &g, const Stmt &body) {
    std::vector<Range> bounds;
    for (size_t d = 0; d < g.args.size(); d++) {
        bounds.push_back({buffer_field(g.name, "min", (int)d), buffer_field(g.name, "extent", (int)d)});
    }
    std::vector<Type> types;
    for (const Expr &v : g.values) {
        types.push_back(v.type());
    }
    return Realize::make(g.name, types, bounds, body);
}

// Wraps `body` (the statements that consume g) in g's realization over the
// region `body` needs: storage and computation at one place.
Stmt compute_around(const FunctionContents &g, const Stmt &body);
Stmt store_around(const FunctionContents &g, const Stmt &body);

// Whether a select in `body` calls g in a branch its condition may trim
// (select(x < 100, g(x), h(x))), or a consumer computed wider than needed
// reads g: g's region to compute is then smaller than the one loaded.
bool selects_trim(const FunctionContents &g, const Stmt &body) {
    class Finder : public IRVisitor {
    public:
        explicit Finder(const std::string &n) : name(n) {}
        const std::string &name;
        bool found = false;
        using IRVisitor::visit;
        void visit(const Select *op) override {
            found = found || exprs_call_func({op->true_value, op->false_value}, name);
            if (!found) {
                IRVisitor::visit(op);
            }
        }
        // A consumer computed wider than needed (bind_region's needed lets).
        void visit(const LetStmt *op) override {
            found = found || op->name.find(".needed.min.") != std::string::npos;
            if (!found) {
                IRVisitor::visit(op);
            }
        }
    } finder(g.name);
    finder.include(body);
    if (!finder.found) {
        return false;
    }
    OpeningLets opening = opening_lets(body, calls_a_func);
    auto loaded = boxes_required(opening.inside, opening.symbolic);
    auto selected = boxes_selected(opening.inside, opening.symbolic);
    auto a = loaded.find(g.name), b = selected.find(g.name);
    if (a == loaded.end() || b == selected.end()) {
        return false;
    }
    for (size_t d = 0; d < a->second.size(); d++) {
        const Interval &x = a->second[d], &y = b->second[d];
        if (x.min.defined() != y.min.defined() || x.max.defined() != y.max.defined() ||
            (x.min.defined() && !equal(x.min, y.min)) || (x.max.defined() && !equal(x.max, y.max))) {
            return true;
        }
    }
    return false;
}

Stmt realize_around(const FunctionContents &g, const Stmt &body) {
    if (!g.updates.empty() || (!g.extern_def && selects_trim(g, body))) {
        // Updates may write (hist(im(r.x)) += 1) and read (a scan) beyond the
        // region consumers need: the storage covers everything touched. A
        // select's branch loads g where its values do not matter: the
        // storage covers the loads, the computation what is selected.
        return store_around(g, compute_around(g, body));
    }
    // An extern stage computes (and stores) what its query answers for the
    // region required (ExternStages.h).
    const std::string required = g.extern_def ? g.name + ".required" : g.name;
    Stmt s = bind_region(g, body, required, RegionKind::Required, [&](const Stmt &rest) {
        if (g.extern_def) {
            return extern_stage_computing_answer(g, required, g.name,
                                                 [&](const Stmt &p) { return realize(g, Block::make(p, rest)); });
        }
        return realize(g, Block::make(produce(g, false, g.name), rest));
    });
    return s.defined() ? s : body;
}

// The computation of g (over the region `body` needs, named g.c.*) before
// `body`, without storage: that is at an outer level (store_at/store_root).
Stmt compute_around(const FunctionContents &g, const Stmt &body) {
    std::string region = g.name + ".c";
    Stmt s =
        bind_region(g, body, region, g.extern_def ? RegionKind::Required : RegionKind::Selected, [&](const Stmt &rest) {
            if (g.extern_def) {
                return extern_stage(g, region, false, [&](const Stmt &p) { return Block::make(p, rest); });
            }
            return Block::make(produce(g, false, region), rest);
        });
    return s.defined() ? s : body;
}

// Storage for g around `body`, covering every element that body's
// computations of g write and its consumers read.
Stmt store_around(const FunctionContents &g, const Stmt &body) {
    Stmt s = bind_region(g, body, g.name, RegionKind::Touched, [&](const Stmt &rest) { return realize(g, rest); });
    return s.defined() ? s : body;
}

// Replaces the body of each loop named in `loops` by wrap(body).
class InjectAt : public IRMutator {
public:
    InjectAt(std::vector<std::string> loops, std::function<Stmt(const Stmt &)> wrap)
        : loops_(std::move(loops)), wrap_(std::move(wrap)) {}
    bool found = false;

    using IRMutator::visit;
    Stmt visit(const For *op) override {
        if (std::find(loops_.begin(), loops_.end(), op->name) == loops_.end()) {
            return IRMutator::visit(op);
        }
        found = true;
        return For::make(op->name, op->min, op->extent, op->for_type, wrap_(op->body));
    }

private:
    std::vector<std::string> loops_;
    std::function<Stmt(const Stmt &)> wrap_;
};

// A level's Var as upstream prints it: Var::outermost() by that name.
std::string level_var(const std::string &var) {
    return var == Var::outermost().name() ? "Var::outermost()" : var;
}

// g's placement as a schedule call, e.g. `f.store_root().compute_at(g, y);`,
// for the words upstream's placement errors use.
std::string placement(const FunctionContents &g) {
    std::string s = g.name;
    if (g.store == ComputeLevel::Root) {
        s += ".store_root()";
    } else if (g.store == ComputeLevel::At) {
        s += ".store_at(" + g.store_at_func + ", " + level_var(g.store_at_var) + ")";
    }
    if (g.compute == ComputeLevel::Root) {
        s += ".compute_root()";
    } else if (g.compute == ComputeLevel::At) {
        s += ".compute_at(" + g.compute_at_func + ", " + level_var(g.compute_at_var) + ")";
    }
    return s + ";";
}

std::string invalid_location(const FunctionContents &g) {
    return "Func \"" + g.name + "\" is computed at the following invalid location:\n  " + placement(g) + "\n";
}

// The loop variable names of loop `dim` of Func `func` (a compute_at or
// store_at level), checked: as upstream's, a level names that loop in every
// stage of the Func that has it, so g is computed (or stored) in each, for
// the uses of g in that stage.
// A level that is no loop (of a Func inlined or not in the pipeline, or a
// name the Func has no loop of) is upstream's error, with the levels g could
// be placed at in `s`.
std::vector<std::string> level_loops(const Environment &env, const Stmt &s, const FunctionContents &g,
                                     const std::string &func, const std::string &dim, const char *what,
                                     int only_stage = -1) {
    auto consumer = env.find(func);
    if (consumer == env.end()) {
        user_error << invalid_location(g) << legal_locations_text(g, s, env);
    }
    const FunctionContents &c = *consumer->second;
    std::vector<std::string> loops;
    user_assert(only_stage <= (int)c.updates.size())
        << invalid_location(g) << "Func '" << g.name << "' is " << what << " stage " << only_stage << " of Func '"
        << func << "', which has " << c.updates.size() + 1 << " stages";
    for (int stage = 0; stage <= (int)c.updates.size(); stage++) {
        if (only_stage >= 0 && stage != only_stage) {
            continue; // a LoopLevel with a stage index names that stage's loop only
        }
        if (dim == Var::outermost().name()) {
            loops.push_back(loop_var_name(func, dim, stage)); // see produce_stage
            continue;
        }
        auto add = [&](const std::vector<LoopDim> &dims) {
            for (const LoopDim &d : dims) {
                if (d.name == dim) {
                    loops.push_back(loop_var_name(func, d.var, stage));
                }
            }
        };
        add(stage == 0 ? c.dims : c.updates[stage - 1].dims);
        // Each specialization's loop of that name too (in its branch).
        for_each_specialization(stage == 0 ? c.specializations : c.updates[stage - 1].specializations,
                                [&](const Specialization &sp) { add(sp.dims); });
    }
    if (loops.empty()) {
        user_error << invalid_location(g) << legal_locations_text(g, s, env);
    }
    return loops;
}

// Every Provide to g must be inside g's Realize (store_at outside compute_at).
class CheckProvidesInsideRealization : public IRVisitor {
public:
    explicit CheckProvidesInsideRealization(const FunctionContents &g) : g_(g) {}
    using IRVisitor::visit;
    void visit(const Realize *op) override {
        depth_ += op->name == g_.name;
        IRVisitor::visit(op);
        depth_ -= op->name == g_.name;
    }
    void visit(const Provide *op) override {
        outside = outside || (op->name == g_.name && depth_ == 0);
        IRVisitor::visit(op);
    }
    bool outside = false; // stored at a loop inside the one it is computed at

private:
    const FunctionContents &g_;
    int depth_ = 0;
};

// g stored outside a parallel or vectorized loop but computed inside it
// would have every iteration write one shared buffer: refused, as upstream
// refuses it. Loops of g's own are inside its computation and don't count.
class CheckNoRaceOnStorage : public IRVisitor {
public:
    explicit CheckNoRaceOnStorage(const FunctionContents &g) : g_(g), own_prefix_(g.name + ".") {}
    using IRVisitor::visit;
    void visit(const Realize *op) override {
        bool mine = op->name == g_.name;
        std::vector<const For *> outer;
        if (mine) {
            outer.swap(loops_);
            inside_ = true;
        }
        IRVisitor::visit(op);
        if (mine) {
            loops_.swap(outer);
            inside_ = false;
        }
    }
    void visit(const For *op) override {
        bool track = inside_ && op->name.compare(0, own_prefix_.size(), own_prefix_) != 0;
        if (track) {
            loops_.push_back(op);
        }
        IRVisitor::visit(op);
        if (track) {
            loops_.pop_back();
        }
    }
    void visit(const Provide *op) override {
        if (inside_ && op->name == g_.name) {
            for (const For *loop : loops_) {
                if (loop->for_type == ForType::Parallel || loop->for_type == ForType::Vectorized) {
                    user_error << "Func \"" << g_.name
                               << "\" is stored outside the parallel/vectorized/gpu_block loop over "
                               << loop_label(loop->name) << " but computed within it. This is a potential race "
                               << "condition.\n"
                               << invalid_location(g_);
                }
            }
        }
        IRVisitor::visit(op);
    }

private:
    // "f.s0.y" -> "f.y", as upstream names the loop.
    static std::string loop_label(const std::string &loop) {
        size_t stage = loop.find(".s0.");
        return stage == std::string::npos ? loop : loop.substr(0, stage) + "." + loop.substr(stage + 4);
    }
    const FunctionContents &g_;
    std::string own_prefix_;
    std::vector<const For *> loops_;
    bool inside_ = false;
};

// Every call to a realized Func must happen inside its realization: a
// compute_at that a consumer outside that loop also needs is a user error.
class CheckCallsInsideRealizations : public IRVisitor {
public:
    CheckCallsInsideRealizations(const Environment &env, const std::set<std::string> &outputs)
        : env_(env), live_(outputs.begin(), outputs.end()) {} // an output's buffer is live throughout

    using IRVisitor::visit;
    void visit(const Realize *op) override {
        live_.insert(op->name);
        IRVisitor::visit(op);
        live_.erase(live_.find(op->name));
    }
    void visit(const Call *op) override {
        IRVisitor::visit(op);
        if (op->call_type != Call::Halide || live_.count(op->name)) {
            return;
        }
        if (!misplaced) {
            misplaced = env_.at(op->name).get(); // used outside the loop it is computed at
        }
    }
    const FunctionContents *misplaced = nullptr;

private:
    const Environment &env_;
    std::multiset<std::string> live_;
};

// The innermost loop around every call to g, not entering vectorized loops
// (empty: none). A Func with update definitions left inline is computed
// there, as upstream computes it at the innermost level of its uses.
class InnermostLoopAroundCalls : public IRVisitor {
public:
    explicit InnermostLoopAroundCalls(const std::string &g) : g_(g) {}
    std::vector<std::string> common; // the loops around every call so far, outermost first
    bool found = false;

    using IRVisitor::visit;
    void visit(const For *op) override {
        include(op->min);
        include(op->extent);
        bool usable = op->for_type != ForType::Vectorized && vectorized_ == 0;
        if (usable) {
            loops_.push_back(op->name);
        } else {
            vectorized_++;
        }
        include(op->body);
        if (usable) {
            loops_.pop_back();
        } else {
            vectorized_--;
        }
    }
    void visit(const Call *op) override {
        IRVisitor::visit(op);
        if (op->call_type != Call::Halide || op->name != g_) {
            return;
        }
        if (!found) {
            common = loops_;
            found = true;
            return;
        }
        size_t n = 0;
        while (n < common.size() && n < loops_.size() && common[n] == loops_[n]) {
            n++;
        }
        common.resize(n);
    }

private:
    std::string g_;
    std::vector<std::string> loops_;
    int vectorized_ = 0;
};

// An output's updates may write anywhere (f(im(r.x)) += 1): every point its
// stages touch must lie in its buffer, as upstream checks.
// A stage whose loops were clipped is checked apart, under its guard: when
// its loops are empty, their bounds say nothing.
Stmt check_output_touched(const FunctionContents &f, const Stmt &nest) {
    class SetClippedApart : public IRMutator {
    public:
        std::vector<std::pair<Expr, Stmt>> apart;
        using IRMutator::visit;
        Stmt visit(const IfThenElse *op) override {
            if (!op->else_case.defined() && clipped_stage_guards.count(op->condition.get())) {
                apart.emplace_back(op->condition, op->then_case);
                return Evaluate::make(int32_const(0));
            }
            return IRMutator::visit(op);
        }
    } set_apart;
    std::vector<std::pair<Expr, Stmt>> parts = {{Expr(), set_apart.mutate(nest)}};
    parts.insert(parts.end(), set_apart.apart.begin(), set_apart.apart.end());
    std::vector<Stmt> checks;
    for (const auto &[guard, part] : f.updates.empty() ? decltype(parts){} : parts) {
        auto boxes = boxes_touched(part);
        auto found = boxes.find(f.name);
        if (found == boxes.end()) {
            continue;
        }
        for (size_t d = 0; d < found->second.size(); d++) {
            const Interval &i = found->second[d];
            Expr buf_min = buffer_field(f.name, "min", (int)d), buf_max = buffer_field(f.name, "max", (int)d);
            user_assert(i.is_bounded()) << "Can't tell which points of output Func '" << f.name
                                        << "' its update definitions write in dimension " << d
                                        << ": clamp the coordinates they write at";
            Expr inside = And::make(LE::make(buf_min, i.min), LE::make(i.max, buf_max));
            checks.push_back(AssertStmt::make(
                guard.defined() ? Or::make(Not::make(guard), inside) : inside,
                Call::make(Int(32), "halide_error_access_out_of_bounds",
                           {Variable::make(Handle(), "__user_context"), StringImm::make("Output buffer " + f.name),
                            int32_const((int)d), i.min, i.max, buf_min, buf_max},
                           Call::Extern)));
        }
    }
    clipped_stage_guards.clear();
    return checks.empty() ? nest : Block::make(Block::make(checks), nest);
}

} // namespace

Stmt schedule_functions(const Environment &env, const std::vector<std::string> &order,
                        const std::vector<FunctionPtr> &outputs) {
    std::set<std::string> marked = compute_with_funcs(env), at_outermost = outermost_levels(env);
    compute_with_marked = &marked;
    outermost_marked = &at_outermost;
    struct Unmark {
        ~Unmark() {
            compute_with_marked = nullptr;
            outermost_marked = nullptr;
        }
    } unmark;
    std::set<std::string> output_names;
    for (const FunctionPtr &f : outputs) {
        output_names.insert(f->name);
    }
    // The outputs run in realization order, not the order the Pipeline
    // lists them: an output another output reads is produced first.
    std::vector<Stmt> output_nests;
    for (const std::string &name : order) {
        if (!output_names.count(name)) {
            continue;
        }
        const FunctionContents &out = *env.at(name);
        if (out.extern_def) {
            output_nests.push_back(extern_stage(out, name, true, [](const Stmt &p) { return p; }));
            continue;
        }
        clipped_stage_guards.clear(); // (an earlier Func's, whose nodes may be gone)
        Stmt nest = produce(out, true, name);
        output_nests.push_back(check_output_touched(out, nest));
    }
    internal_assert(output_nests.size() == outputs.size()) << "an output is missing from the realization order";
    Stmt s = Block::make(output_nests);
    // A fused group with a Func placed in its shared loops is fused as soon
    // as its Funcs are placed (ComputeWith.h), before that Func is.
    EarlyFusion early = fused_before_placing(env);
    std::set<std::string> placed(output_names.begin(), output_names.end());
    auto fuse_placed_groups = [&]() {
        for (auto g = early.groups.begin(); g != early.groups.end();) {
            if (std::all_of(g->begin(), g->end(), [&](const std::string &f) { return placed.count(f) > 0; })) {
                s = fuse_group(s, env, *g, early.kept_loops);
                g = early.groups.erase(g);
            } else {
                ++g;
            }
        }
    };
    // Consumers are placed before their producers, so each producer sees
    // every use of it when its region is inferred.
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
        fuse_placed_groups(); // (each Func's producers come after it)
        placed.insert(*it);
        if (output_names.count(*it) || !env.count(*it)) {
            continue; // outputs are already there; inlined Funcs are gone
        }
        const FunctionContents &g = *env.at(*it);
        if (!stored_apart(g)) {
            if (g.compute == ComputeLevel::At) {
                InjectAt inject(
                    level_loops(env, s, g, g.compute_at_func, g.compute_at_var, "computed at", g.compute_at_stage),
                    [&](const Stmt &body) { return realize_around(g, body); });
                s = inject.mutate(s);
                internal_assert(inject.found);
            } else if (g.compute == ComputeLevel::Inlined) {
                // Left inline with update definitions: at the innermost loop of its uses.
                InnermostLoopAroundCalls where(g.name);
                where.include(s);
                if (where.common.empty()) {
                    s = realize_around(g, s);
                } else {
                    InjectAt inject({where.common.back()}, [&](const Stmt &body) { return realize_around(g, body); });
                    s = inject.mutate(s);
                    internal_assert(inject.found);
                }
            } else {
                s = realize_around(g, s);
            }
            continue;
        }
        // Computed at one loop, stored at an outer one (or at the root).
        InjectAt compute(level_loops(env, s, g, g.compute_at_func, g.compute_at_var, "computed at", g.compute_at_stage),
                         [&](const Stmt &body) { return compute_around(g, body); });
        s = compute.mutate(s);
        internal_assert(compute.found);
        if (g.store == ComputeLevel::Root) {
            s = store_around(g, s);
        } else {
            InjectAt store(level_loops(env, s, g, g.store_at_func, g.store_at_var, "stored at", g.store_at_stage),
                           [&](const Stmt &body) { return store_around(g, body); });
            s = store.mutate(s);
            internal_assert(store.found);
        }
        CheckProvidesInsideRealization inside(g);
        inside.include(s);
        if (inside.outside) {
            user_error << invalid_location(g) << legal_locations_text(g, s, env);
        }
        CheckNoRaceOnStorage(g).include(s);
    }
    fuse_placed_groups();
    CheckCallsInsideRealizations calls(env, output_names);
    calls.include(s);
    if (calls.misplaced) {
        user_error << invalid_location(*calls.misplaced) << legal_locations_text(*calls.misplaced, s, env);
    }
    return s;
}

} // namespace Internal
} // namespace Halide
