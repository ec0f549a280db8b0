// See Func.h: the schedule of one definition of a Func (splits, fuses,
// loop order and loop types). Func's own scheduling methods are those of
// its pure definition, Stage 0; Func::update(i) is Stage i + 1.
#include <algorithm>
#include <set>

#include "Associativity.h"
#include "Halide/Error.h"
#include "Halide/Func.h"
#include "Halide/IREquality.h"
#include "Halide/IROperator.h"
#include "Halide/IRPrinter.h"
#include "Halide/IRVisitor.h"
#include "ir/UsesVars.h"
#include "lower/Function.h"

namespace Halide {

using namespace Internal;

namespace {

// The parts of a FunctionContents one stage's schedule works on (of one of
// its specializations when `path` names one).
struct StageParts {
    FunctionContents &f;
    std::vector<SplitStep> &splits;
    std::vector<LoopDim> &dims;
    std::vector<RenameStep> &renames;
    std::vector<std::string> base_vars; // the loops before any split: pure Vars, RVars
    std::vector<std::string> rvars;
    std::string label; // "f" or "f.update(0)"
    std::vector<Specialization> &specializations;
};

StageParts specialized(StageParts s, const std::vector<size_t> &path) {
    std::vector<SplitStep> *splits = &s.splits;
    std::vector<LoopDim> *dims = &s.dims;
    std::vector<RenameStep> *renames = &s.renames;
    std::vector<Specialization> *specs = &s.specializations;
    for (size_t i : path) {
        internal_assert(i < specs->size());
        Specialization &sp = (*specs)[i];
        splits = &sp.splits;
        dims = &sp.dims;
        renames = &sp.renames;
        specs = &sp.specializations;
    }
    return {s.f, *splits, *dims, *renames, s.base_vars, s.rvars, s.label, *specs};
}

// Every caller schedules the stage: it counts as scheduled from then on.
StageParts parts_of(FunctionContents &f, int stage, const std::vector<size_t> &path = {}) {
    user_assert(f.defined()) << "Can't schedule Func '" << f.name << "' before it has been defined";
    if (stage == 0) {
        f.scheduled = true;
        return specialized({f, f.splits, f.dims, f.renames, f.args, {}, f.name, f.specializations}, path);
    }
    user_assert(stage >= 1 && (size_t)stage <= f.updates.size())
        << "Func '" << f.name << "' has " << f.updates.size() << " update definition(s); there is no update("
        << stage - 1 << ")";
    UpdateDefinition &u = f.updates[(size_t)stage - 1];
    u.scheduled = true;
    std::vector<std::string> base, rvars;
    for (const std::string &v : u.pure_vars) {
        if (!v.empty()) {
            base.push_back(v);
        }
    }
    if (u.rdom) {
        for (const ReductionVariable &r : u.rdom->domain) {
            base.push_back(r.var);
            rvars.push_back(r.var);
        }
    }
    return specialized({f, u.splits, u.dims, u.renames, base, rvars,
                        f.name + ".update(" + std::to_string(stage - 1) + ")", u.specializations},
                       path);
}

// Whether the order of stage `stage`'s RVar loops can't change its result:
// it is associative (f(x) += r), or it never reads f and each iteration
// writes a point of its own (its arguments are distinct Vars and RVars,
// every RVar among them: g(r) = f(r)).
bool rvar_order_free(const FunctionContents &f, int stage) {
    if (stage == 0) {
        return true;
    }
    const UpdateDefinition &u = f.updates[(size_t)stage - 1];
    if (find_associative_form(f.name, u, nullptr)) {
        return true;
    }
    std::set<std::string> written;
    for (const Expr &a : u.args) {
        const Variable *v = a.as<Variable>();
        if (!v || !written.insert(v->name).second) {
            return false;
        }
    }
    if (exprs_call_func(u.args, f.name) || exprs_call_func(u.values, f.name)) {
        return false;
    }
    if (!u.rdom) {
        return true;
    }
    for (const ReductionVariable &r : u.rdom->domain) {
        if (!written.count(r.var)) {
            return false;
        }
    }
    return true;
}

// The index in the stage's loops of the LoopDim the user calls `name`.
size_t dim_index(const StageParts &s, const std::string &name, const char *what) {
    for (size_t i = 0; i < s.dims.size(); i++) {
        if (s.dims[i].name == name) {
            return i;
        }
    }
    std::string known;
    for (const LoopDim &d : s.dims) {
        known += (known.empty() ? "" : ", ") + d.name;
    }
    user_error << "In schedule for " << s.label << ", could not find " << what << " dimension: " << name << " (in "
               << what << " of " << (s.label == s.f.name ? "Func '" + s.label + "'" : s.label)
               << ": it has no loop named '" << name << "'; its loops are " << known << ")";
    return 0;
}

// A fresh internal name for a loop the user calls `name`.
std::string internal_var(const StageParts &s, const std::string &name) {
    auto taken = [&](const std::string &v) {
        if (std::find(s.base_vars.begin(), s.base_vars.end(), v) != s.base_vars.end()) {
            return true;
        }
        for (const SplitStep &st : s.splits) {
            if (st.old_var == v || st.outer == v || st.inner == v) {
                return true;
            }
        }
        return false;
    };
    std::string v = name;
    for (int n = 1; taken(v); n++) {
        v = name + "$" + std::to_string(n);
    }
    return v;
}

TailKind tail_kind(TailStrategy t) {
    switch (t) {
    case TailStrategy::GuardWithIf: return TailKind::GuardWithIf;
    case TailStrategy::ShiftInwards: return TailKind::ShiftInwards;
    case TailStrategy::RoundUp: return TailKind::RoundUp;
    case TailStrategy::Predicate: return TailKind::Predicate;
    case TailStrategy::PredicateLoads: return TailKind::PredicateLoads;
    case TailStrategy::PredicateStores: return TailKind::PredicateStores;
    case TailStrategy::ShiftInwardsAndBlend: return TailKind::ShiftInwardsAndBlend;
    case TailStrategy::RoundUpAndBlend: return TailKind::RoundUpAndBlend;
    default: return TailKind::Auto;
    }
}

// A loop name based on `base` that the stage does not use yet (vectorizing
// the same Var twice splits it twice).
std::string fresh_loop_name(const StageParts &s, const std::string &base) {
    auto used = [&](const std::string &n) {
        return std::any_of(s.dims.begin(), s.dims.end(), [&](const LoopDim &d) { return d.name == n; });
    };
    std::string name = base;
    for (int k = 1; used(name); k++) {
        name = base + "$" + std::to_string(k);
    }
    return name;
}

} // namespace

std::string Stage::name() const {
    return stage_ == 0 ? f_->name : f_->name + ".update(" + std::to_string(stage_ - 1) + ")";
}

Stage &Stage::split(const VarOrRVar &old, const VarOrRVar &outer, const VarOrRVar &inner, const Expr &factor,
                    TailStrategy tail) {
    StageParts s = parts_of(*f_, stage_, path_);
    size_t i = dim_index(s, old.name(), "split");
    user_assert(factor.defined() && (factor.type().is_int() || factor.type().is_uint()))
        << "The split factor of '" << old.name() << "' in Func '" << f_->name << "' must be an integer";
    if (const IntImm *c = factor.as<IntImm>()) {
        user_assert(c->value > 0) << "The split factor of '" << old.name() << "' in Func '" << f_->name
                                  << "' must be positive, not " << c->value;
    }
    for (const LoopDim &d : s.dims) {
        user_assert(d.name == old.name() || (d.name != outer.name() && d.name != inner.name()))
            << "In schedule for " << f_->name << ", can't create var "
            << (d.name == outer.name() ? outer.name() : inner.name())
            << " using a split or tile, because it is already used in this Func's schedule elsewhere (a loop named '"
            << (d.name == outer.name() ? outer.name() : inner.name()) << "' already exists)";
    }
    user_assert(outer.name() != inner.name())
        << "In split of Func '" << f_->name << "': the outer and inner loops need different names";
    // An RVar splits into RVars and a Var into Vars, as upstream requires.
    for (const VarOrRVar *half : {&outer, &inner}) {
        user_assert(half->is_rvar == s.dims[i].is_rvar)
            << "In schedule for " << s.label << ": Can't split " << (s.dims[i].is_rvar ? "RVar " : "Var ") << old.name()
            << " into " << (half->is_rvar ? "RVar " : "Var ") << half->name();
    }
    SplitStep step;
    step.kind = SplitStep::Split;
    step.old_var = s.dims[i].var;
    step.factor = factor.type() == Int(32) ? factor : cast(Int(32), factor);
    step.tail = tail_kind(tail);
    // Reserve the names one at a time so outer and inner never collide.
    step.given_outer = outer.name();
    step.given_inner = inner.name();
    step.outer = internal_var(s, outer.name() + (outer.name() == old.name() ? "$o" : ""));
    s.splits.push_back(step);
    s.splits.back().inner = internal_var(s, inner.name() + (inner.name() == old.name() ? "$i" : ""));
    // Both halves keep the loop's type, as upstream's do (a split of a
    // parallel loop gives two parallel loops), and an RVar's halves are RVars.
    ForType type = s.dims[i].for_type;
    bool rvar = s.dims[i].is_rvar;
    s.dims[i] = {inner.name(), s.splits.back().inner, type, rvar};
    s.dims.insert(s.dims.begin() + i + 1, LoopDim{outer.name(), s.splits.back().outer, type, rvar});
    mark_changed(*f_);
    return *this;
}

Stage &Stage::fuse(const VarOrRVar &inner, const VarOrRVar &outer, const VarOrRVar &fused) {
    StageParts s = parts_of(*f_, stage_, path_);
    size_t i = dim_index(s, inner.name(), "fuse");
    size_t o = dim_index(s, outer.name(), "fuse");
    user_assert(o != i) << "In fuse of Func '" << f_->name << "': can't fuse '" << inner.name() << "' with itself";
    // As upstream's: the fused loop takes the inner loop's place and the outer
    // loop goes, wherever it was; moving an RVar's loop past another RVar's
    // would change the order the reduction visits its points.
    bool free_order = rvar_order_free(*f_, stage_);
    for (size_t k = std::min(i, o) + 1; k < std::max(i, o) && s.dims[o].is_rvar && !free_order; k++) {
        user_assert(!s.dims[k].is_rvar) << "In schedule for " << s.label << ", can't fuse RVar " << outer.name()
                                        << " with " << inner.name() << " past RVar " << s.dims[k].name
                                        << " because it may change the meaning of the algorithm.";
    }
    SplitStep step;
    step.kind = SplitStep::Fuse;
    step.inner = s.dims[i].var;
    step.outer = s.dims[o].var;
    step.old_var = internal_var(s, fused.name());
    step.given_old = fused.name();
    s.splits.push_back(step);
    s.dims[i] = {fused.name(), step.old_var, s.dims[o].for_type, s.dims[i].is_rvar && s.dims[o].is_rvar};
    s.dims.erase(s.dims.begin() + o);
    mark_changed(*f_);
    return *this;
}

Stage &Stage::reorder(const std::vector<VarOrRVar> &vars) {
    StageParts s = parts_of(*f_, stage_, path_);
    std::vector<size_t> positions;
    for (const VarOrRVar &v : vars) {
        size_t p = dim_index(s, v.name(), "reorder");
        for (size_t q : positions) {
            user_assert(q != p) << "In schedule for " << f_->name << ", call to reorder references " << v.name()
                                << " twice.";
        }
        positions.push_back(p);
    }
    std::vector<LoopDim> picked;
    for (size_t p : positions) {
        picked.push_back(s.dims[p]);
    }
    std::vector<size_t> sorted = positions;
    std::sort(sorted.begin(), sorted.end());
    // Loops over RVars keep their order: swapping two changes the order the
    // reduction visits its points, which may change its result (unless it
    // can't, as upstream's test: see rvar_order_free).
    bool free_order = rvar_order_free(*f_, stage_);
    for (size_t a = 0; a < positions.size() && !free_order; a++) {
        for (size_t b = a + 1; b < positions.size(); b++) {
            user_assert(!(s.dims[positions[a]].is_rvar && s.dims[positions[b]].is_rvar && positions[a] > positions[b]))
                << "In schedule for " << s.label << ", can't reorder RVars " << s.dims[positions[a]].name << " and "
                << s.dims[positions[b]].name << " because it may change the meaning of the algorithm.";
        }
    }
    for (size_t k = 0; k < sorted.size(); k++) {
        s.dims[sorted[k]] = picked[k];
    }
    mark_changed(*f_);
    return *this;
}

Stage &Stage::tile(const VarOrRVar &x, const VarOrRVar &y, const VarOrRVar &xo, const VarOrRVar &yo,
                   const VarOrRVar &xi, const VarOrRVar &yi, const Expr &xfactor, const Expr &yfactor,
                   TailStrategy tail) {
    split(x, xo, xi, xfactor, tail);
    split(y, yo, yi, yfactor, tail);
    return reorder(xi, yi, xo, yo);
}

Stage &Stage::tile(const VarOrRVar &x, const VarOrRVar &y, const VarOrRVar &xi, const VarOrRVar &yi,
                   const Expr &xfactor, const Expr &yfactor, TailStrategy tail) {
    return tile(x, y, x, y, xi, yi, xfactor, yfactor, tail);
}

Stage &Stage::tile(const std::vector<VarOrRVar> &previous, const std::vector<VarOrRVar> &outers,
                   const std::vector<VarOrRVar> &inners, const std::vector<Expr> &factors,
                   const std::vector<TailStrategy> &tails) {
    const size_t n = previous.size();
    user_assert(outers.size() == n && inners.size() == n && factors.size() == n && tails.size() == n)
        << "Vectors passed to Stage::tile must all be the same length.";
    std::vector<VarOrRVar> order;
    for (size_t i = 0; i < n; i++) {
        split(previous[i], outers[i], inners[i], factors[i], tails[i]);
        order.push_back(inners[i]);
    }
    order.insert(order.end(), outers.begin(), outers.end());
    return reorder(order);
}

Stage &Stage::tile(const std::vector<VarOrRVar> &previous, const std::vector<VarOrRVar> &outers,
                   const std::vector<VarOrRVar> &inners, const std::vector<Expr> &factors, TailStrategy tail) {
    return tile(previous, outers, inners, factors, std::vector<TailStrategy>(previous.size(), tail));
}

Stage &Stage::tile(const std::vector<VarOrRVar> &previous, const std::vector<VarOrRVar> &inners,
                   const std::vector<Expr> &factors, TailStrategy tail) {
    return tile(previous, previous, inners, factors, tail);
}

Stage &Stage::set_loop_type(const VarOrRVar &v, ForType type, const char *what) {
    StageParts s = parts_of(*f_, stage_, path_);
    // Parallel or vectorized RVars are checked for races when lowering
    // (lower/CheckUpdateRaces.cpp), as upstream checks them.
    s.dims[dim_index(s, v.name(), what)].for_type = type;
    mark_changed(*f_);
    return *this;
}

Stage &Stage::partition(const VarOrRVar &v, Partition policy) {
    StageParts s = parts_of(*f_, stage_, path_);
    s.dims[dim_index(s, v.name(), "partition")].partition = policy;
    mark_changed(*f_);
    return *this;
}

Stage &Stage::never_partition(const std::vector<VarOrRVar> &vars) {
    for (const VarOrRVar &v : vars) {
        partition(v, Partition::Never);
    }
    return *this;
}

Stage &Stage::always_partition(const std::vector<VarOrRVar> &vars) {
    for (const VarOrRVar &v : vars) {
        partition(v, Partition::Always);
    }
    return *this;
}

Stage &Stage::never_partition_all() {
    for (LoopDim &d : parts_of(*f_, stage_, path_).dims) {
        d.partition = Partition::Never;
    }
    mark_changed(*f_);
    return *this;
}

Stage &Stage::always_partition_all() {
    for (LoopDim &d : parts_of(*f_, stage_, path_).dims) {
        d.partition = Partition::Always;
    }
    mark_changed(*f_);
    return *this;
}

void Stage::unscheduled() {
    user_assert(f_->defined()) << "Can't schedule Func '" << f_->name << "' before it has been defined";
    user_assert(stage_ >= 0 && (size_t)stage_ <= f_->updates.size()) << "There is no stage " << name();
    bool &scheduled = stage_ == 0 ? f_->scheduled : f_->updates[(size_t)stage_ - 1].scheduled;
    user_assert(!scheduled) << "Stage::unscheduled called on an update definition with a schedule (" << name() << ")";
    scheduled = true;
}

std::string Stage::dump_argument_list() const {
    user_assert(f_->defined()) << "Func '" << f_->name << "' has no stages: it has not been defined";
    user_assert(stage_ >= 0 && (size_t)stage_ <= f_->updates.size()) << "There is no stage " << name();
    const std::vector<LoopDim> *dims = stage_ == 0 ? &f_->dims : &f_->updates[(size_t)stage_ - 1].dims;
    const std::vector<Specialization> *specs =
        stage_ == 0 ? &f_->specializations : &f_->updates[(size_t)stage_ - 1].specializations;
    for (size_t i : path_) {
        dims = &(*specs)[i].dims;
        specs = &(*specs)[i].specializations;
    }
    std::string out = "Vars:";
    for (const LoopDim &d : *dims) {
        out += " " + d.name;
    }
    return out + " " + Var::outermost().name() + "\n";
}

Func &Func::atomic(bool override_associativity_test) {
    // The pure definition writes each point once: nothing to make atomic.
    (void)override_associativity_test;
    user_assert(defined()) << "Can't schedule Func '" << name() << "' before it has been defined";
    f_->scheduled = true; // as upstream: it counts as scheduling the pure definition
    return *this;
}

Func &Func::allow_race_conditions() {
    user_assert(defined()) << "Can't schedule Func '" << name() << "' before it has been defined";
    f_->scheduled = true;
    return *this;
}

Stage &Stage::allow_race_conditions() {
    user_assert(stage_ > 0) << "allow_race_conditions() applies to update definitions, not to the pure definition of "
                            << f_->name;
    parts_of(*f_, stage_, path_);
    f_->updates[(size_t)stage_ - 1].allow_race_conditions = true;
    mark_changed(*f_);
    return *this;
}

Stage &Stage::atomic(bool override_associativity_test) {
    user_assert(stage_ > 0) << "atomic() applies to update definitions, not to the pure definition of " << f_->name;
    parts_of(*f_, stage_, path_);
    UpdateDefinition &u = f_->updates[(size_t)stage_ - 1];
    user_assert(override_associativity_test || find_associative_form(f_->name, u, nullptr))
        << "Failed to call atomic() on " << name()
        << " since it can't prove associativity or commutativity of the operator.";
    u.atomic = true;
    u.atomic_override = override_associativity_test;
    mark_changed(*f_);
    return *this;
}

Stage &Stage::parallel(const VarOrRVar &v) {
    return set_loop_type(v, ForType::Parallel, "parallelize");
}
Stage &Stage::vectorize(const VarOrRVar &v) {
    return set_loop_type(v, ForType::Vectorized, "vectorize");
}
Stage &Stage::unroll(const VarOrRVar &v) {
    return set_loop_type(v, ForType::Unrolled, "unroll");
}
Stage &Stage::serial(const VarOrRVar &v) {
    return set_loop_type(v, ForType::Serial, "serial");
}

Stage &Stage::rename(const VarOrRVar &old_name, const VarOrRVar &new_name) {
    StageParts s = parts_of(*f_, stage_, path_);
    size_t i = dim_index(s, old_name.name(), "rename");
    user_assert(new_name.is_rvar == s.dims[i].is_rvar)
        << "In schedule for " << s.label << ", can't rename " << (s.dims[i].is_rvar ? "RVar " : "Var ")
        << old_name.name() << " to " << (new_name.is_rvar ? "RVar " : "Var ") << new_name.name();
    if (new_name.name() == old_name.name()) {
        return *this;
    }
    for (const LoopDim &d : s.dims) {
        user_assert(d.name != new_name.name())
            << "In schedule for " << s.label << ", can't rename " << old_name.name() << " to " << new_name.name()
            << ": a loop named '" << new_name.name() << "' already exists";
    }
    // Loops are found by the user's name; the internal one stays.
    s.dims[i].name = new_name.name();
    s.renames.push_back({s.splits.size(), s.dims[i].var, new_name.name()});
    mark_changed(*f_);
    return *this;
}

// parallel(v, n), vectorize(v, n), unroll(v, n): split v by n, keep the
// name v for the outer loop, and mark the inner (or, for parallel, outer) one.
Stage &Stage::parallel(const VarOrRVar &v, const Expr &task_size, TailStrategy tail) {
    VarOrRVar inner(fresh_loop_name(parts_of(*f_, stage_, path_), v.name() + "_par_inner"), v.is_rvar);
    split(v, v, inner, task_size, tail);
    return parallel(v);
}

Stage &Stage::vectorize(const VarOrRVar &v, const Expr &factor, TailStrategy tail) {
    VarOrRVar inner(fresh_loop_name(parts_of(*f_, stage_, path_), v.name() + "_vec"), v.is_rvar);
    split(v, v, inner, factor, tail);
    return vectorize(inner);
}

Stage &Stage::unroll(const VarOrRVar &v, const Expr &factor, TailStrategy tail) {
    VarOrRVar inner(fresh_loop_name(parts_of(*f_, stage_, path_), v.name() + "_unroll"), v.is_rvar);
    split(v, v, inner, factor, tail);
    return unroll(inner);
}

// Specializations: see Func.h. Each copies the stage's schedule as it is
// now (not its specializations); lowering emits the if/else chain
// (lower/SpecializeStages.cpp).
Stage Stage::specialize(const Expr &condition) {
    StageParts s = parts_of(*f_, stage_, path_);
    user_assert(condition.defined() && condition.type().is_bool() && condition.type().lanes() == 1)
        << "Argument passed to specialize must be of type bool";
    // The condition must be the same at every point of the stage.
    std::vector<std::string> pure = f_->args;
    if (stage_ > 0) {
        pure = f_->updates[(size_t)stage_ - 1].pure_vars;
    }
    class FindLoopVar : public IRVisitor {
    public:
        explicit FindLoopVar(const std::vector<std::string> &pure) : pure_(pure) {}
        std::string found;
        using IRVisitor::visit;
        void visit(const Variable *op) override {
            if (found.empty() && (std::find(pure_.begin(), pure_.end(), op->name) != pure_.end() ||
                                  find_reduction_domain_of(op->name))) {
                found = op->name;
            }
        }

    private:
        const std::vector<std::string> &pure_;
    } find(pure);
    find.include(condition);
    user_assert(find.found.empty()) << "Specialization condition " << condition << " for " << name()
                                    << " depends on Var or RVar " << find.found
                                    << ". Specialization conditions may not depend on any Vars or RVars.";
    std::vector<size_t> path = path_;
    for (size_t i = 0; i < s.specializations.size(); i++) {
        if (!s.specializations[i].fails && equal(s.specializations[i].condition, condition)) {
            path.push_back(i);
            return Stage(f_, stage_, path);
        }
    }
    user_assert(s.specializations.empty() || !s.specializations.back().fails)
        << "Cannot add new specializations after specialize_fail().";
    Specialization sp;
    sp.condition = condition;
    sp.splits = s.splits;
    sp.dims = s.dims;
    sp.renames = s.renames;
    s.specializations.push_back(std::move(sp));
    path.push_back(s.specializations.size() - 1);
    mark_changed(*f_);
    return Stage(f_, stage_, path);
}

void Stage::specialize_fail(const std::string &message) {
    StageParts s = parts_of(*f_, stage_, path_);
    user_assert(s.specializations.empty() || !s.specializations.back().fails)
        << "Only one specialize_fail() may be defined per Stage.";
    Specialization sp;
    sp.condition = const_true();
    sp.fails = true;
    sp.failure_message = message;
    s.specializations.push_back(std::move(sp));
    mark_changed(*f_);
}

Stage Func::specialize(const Expr &condition) {
    return Stage(f_, 0).specialize(condition);
}

void Func::specialize_fail(const std::string &message) {
    Stage(f_, 0).specialize_fail(message);
}

} // namespace Halide
