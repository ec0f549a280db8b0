// See Func.h: Stage::get_schedule, a view of one stage's schedule in
// upstream's terms (Halide/Schedule.h), built from the Func's record.
// Loops are named as upstream names them: a split's halves, a fused loop
// and a renamed loop are the old loop's name, a dot, and the name given
// ("x.xo", "x.xo.xi"); the record's internal names are not shown.
#include <algorithm>
#include <map>
#include <set>

#include "Halide/Error.h"
#include "Halide/Func.h"
#include "Halide/IRVisitor.h"
#include "lower/Function.h"

namespace Halide {

using namespace Internal;

namespace {

// The parts of the record that make one stage's schedule.
struct StageRecord {
    const std::vector<SplitStep> *splits = nullptr;
    const std::vector<LoopDim> *dims = nullptr;
    const std::vector<RenameStep> *renames = nullptr;
    const UpdateDefinition *update = nullptr; // null for the pure definition
};

StageRecord record_of(const FunctionContents &f, int stage, const std::vector<size_t> &path) {
    StageRecord r;
    const std::vector<Specialization> *specs = nullptr;
    if (stage == 0) {
        r = {&f.splits, &f.dims, &f.renames, nullptr};
        specs = &f.specializations;
    } else {
        const UpdateDefinition &u = f.updates[(size_t)stage - 1];
        r = {&u.splits, &u.dims, &u.renames, &u};
        specs = &u.specializations;
    }
    for (size_t i : path) {
        internal_assert(i < specs->size());
        const Specialization &sp = (*specs)[i];
        r.splits = &sp.splits;
        r.dims = &sp.dims;
        r.renames = &sp.renames;
        specs = &sp.specializations;
    }
    return r;
}

// Whether iterations of RVar `rvar` of update `u` of `f` cannot interfere: in
// some dimension the update writes at exactly `rvar`, and every read of f
// takes that dimension at exactly `rvar` too, so distinct iterations write
// and read distinct points.
bool rvar_is_pure(const std::string &f, const UpdateDefinition &u, const std::string &rvar) {
    class SelfCalls : public IRVisitor {
    public:
        explicit SelfCalls(const std::string &f) : f_(f) {}
        std::vector<const Call *> calls;
        using IRVisitor::visit;
        void visit(const Call *op) override {
            if (op->name == f_) {
                calls.push_back(op);
            }
            IRVisitor::visit(op);
        }

    private:
        const std::string &f_;
    } reads(f);
    for (const Expr &e : u.values) {
        e.accept(&reads);
    }
    for (const Expr &e : u.args) {
        e.accept(&reads);
    }
    auto is_rvar = [&](const Expr &e) {
        const Variable *v = e.as<Variable>();
        return v && v->name == rvar;
    };
    for (size_t d = 0; d < u.args.size(); d++) {
        if (!is_rvar(u.args[d])) {
            continue;
        }
        bool same = std::all_of(reads.calls.begin(), reads.calls.end(),
                                [&](const Call *c) { return d < c->args.size() && is_rvar(c->args[d]); });
        if (same) {
            return true;
        }
    }
    return false;
}

// What upstream reports for a split left at TailStrategy::Auto: its choice
// when the split is made (GuardWithIf for an RVar; RoundUp for a Var of an
// update, or the outer half of a ShiftInwards split; else ShiftInwards).
TailStrategy reported_tail(TailKind t, bool rvar, bool update, bool outer_of_shift) {
    switch (t) {
    case TailKind::GuardWithIf: return TailStrategy::GuardWithIf;
    case TailKind::ShiftInwards: return TailStrategy::ShiftInwards;
    case TailKind::RoundUp: return TailStrategy::RoundUp;
    case TailKind::Predicate: return TailStrategy::Predicate;
    case TailKind::PredicateLoads: return TailStrategy::PredicateLoads;
    case TailKind::PredicateStores: return TailStrategy::PredicateStores;
    case TailKind::ShiftInwardsAndBlend: return TailStrategy::ShiftInwardsAndBlend;
    case TailKind::RoundUpAndBlend: return TailStrategy::RoundUpAndBlend;
    case TailKind::Auto: break;
    }
    if (rvar) {
        return TailStrategy::GuardWithIf;
    }
    return update || outer_of_shift ? TailStrategy::RoundUp : TailStrategy::ShiftInwards;
}

StageSchedule make_view(const FunctionContents &f, int stage, const std::vector<size_t> &path) {
    const StageRecord rec = record_of(f, stage, path);
    const bool update = rec.update != nullptr;

    std::vector<ReductionVariable> rvars;
    std::map<std::string, DimType> types; // by internal name
    if (update) {
        for (const std::string &v : rec.update->pure_vars) {
            if (!v.empty()) {
                types[v] = DimType::PureVar;
            }
        }
        if (rec.update->rdom) {
            rvars = rec.update->rdom->domain;
            for (const ReductionVariable &r : rvars) {
                types[r.var] = rvar_is_pure(f.name, *rec.update, r.var) ? DimType::PureRVar : DimType::ImpureRVar;
            }
        }
    } else {
        for (const std::string &v : f.args) {
            types[v] = DimType::PureVar;
        }
    }

    // Upstream's name of each internal loop name, and which entry of
    // `splits` made it (a rename of a loop a split made renames it there).
    std::map<std::string, std::string> names;
    std::map<std::string, size_t> made_by;
    auto name_of = [&](const std::string &v) {
        auto it = names.find(v);
        return it == names.end() ? v : it->second;
    };
    auto type_of = [&](const std::string &v) {
        auto it = types.find(v);
        return it == types.end() ? DimType::PureVar : it->second;
    };
    std::vector<Split> splits;
    auto apply_rename = [&](const RenameStep &r) {
        std::string old_name = name_of(r.var);
        std::string new_name = old_name + "." + r.name;
        names[r.var] = new_name;
        auto it = made_by.find(r.var);
        if (it != made_by.end()) {
            Split &s = splits[it->second];
            (s.split_type == Split::FuseVars ? s.old_var : s.outer == old_name ? s.outer : s.inner) = new_name;
            return;
        }
        Split s;
        s.old_var = old_name;
        s.outer = new_name;
        s.factor = 1;
        s.tail = TailStrategy::RoundUp;
        s.split_type = Split::RenameVar;
        made_by[r.var] = splits.size();
        splits.push_back(s);
    };
    size_t next_rename = 0;
    auto renames_until = [&](size_t k) {
        while (next_rename < rec.renames->size() && (*rec.renames)[next_rename].after_splits <= k) {
            apply_rename((*rec.renames)[next_rename++]);
        }
    };
    for (size_t k = 0; k < rec.splits->size(); k++) {
        renames_until(k);
        const SplitStep &step = (*rec.splits)[k];
        Split s;
        if (step.kind == SplitStep::Split) {
            const DimType t = type_of(step.old_var);
            const bool rvar = t != DimType::PureVar;
            s.old_var = name_of(step.old_var);
            s.outer = s.old_var + "." + (step.given_outer.empty() ? step.outer : step.given_outer);
            s.inner = s.old_var + "." + (step.given_inner.empty() ? step.inner : step.given_inner);
            s.factor = step.factor;
            s.exact = rvar;
            auto maker = made_by.find(step.old_var);
            const bool outer_of_shift = maker != made_by.end() && splits[maker->second].outer == s.old_var &&
                                        splits[maker->second].split_type == Split::SplitVar &&
                                        splits[maker->second].tail == TailStrategy::ShiftInwards;
            s.tail = reported_tail(step.tail, rvar, update, outer_of_shift);
            s.split_type = Split::SplitVar;
            names[step.outer] = s.outer;
            names[step.inner] = s.inner;
            types[step.outer] = types[step.inner] = t;
            made_by[step.outer] = made_by[step.inner] = splits.size();
        } else {
            s.outer = name_of(step.outer);
            s.inner = name_of(step.inner);
            s.old_var = s.inner + "." + (step.given_old.empty() ? step.old_var : step.given_old);
            s.exact = true;
            s.tail = TailStrategy::RoundUp;
            s.split_type = Split::FuseVars;
            names[step.old_var] = s.old_var;
            types[step.old_var] = std::max(type_of(step.inner), type_of(step.outer));
            made_by[step.old_var] = splits.size();
        }
        splits.push_back(s);
    }
    renames_until(rec.splits->size());

    std::vector<Dim> dims;
    for (const LoopDim &d : *rec.dims) {
        Dim dim;
        dim.var = name_of(d.var);
        dim.for_type = d.for_type;
        dim.dim_type = type_of(d.var);
        dim.partition_policy = d.partition;
        dims.push_back(dim);
    }
    dims.push_back(Dim{Var::outermost().name(), ForType::Serial, DeviceAPI::None, DimType::PureVar, Partition::Auto});

    std::vector<PrefetchDirective> prefetches;
    for (const PrefetchRecord &p : f.prefetches) {
        if (p.stage == stage) {
            PrefetchDirective d;
            d.name = p.name;
            d.at = p.at;
            d.from = p.from;
            d.offset = p.offset;
            d.strategy = p.strategy;
            prefetches.push_back(d);
        }
    }

    const FuseLevel &fuse = update ? rec.update->fuse : f.fuse;
    FuseLoopLevel fuse_level;
    if (fuse.defined()) {
        LoopLevel level;
        if (fuse.level) {
            *level.contents() = *fuse.level;
        } else {
            level.contents()->func_name = fuse.parent_func;
            level.contents()->var_name = fuse.var;
            level.contents()->stage_index = fuse.parent_stage;
        }
        level.contents()->locked = true;
        std::map<std::string, LoopAlignStrategy> align(fuse.align.begin(), fuse.align.end());
        fuse_level = FuseLoopLevel(level, align);
    }

    const bool touched = update ? rec.update->scheduled : f.scheduled;
    return StageSchedule(rvars, splits, dims, prefetches, fuse_level, {}, touched,
                         update && rec.update->allow_race_conditions, update && rec.update->atomic,
                         update && rec.update->atomic_override);
}

} // namespace

const StageSchedule &Stage::get_schedule() const {
    user_assert(f_->defined()) << "Func '" << f_->name << "' has no stages: it has not been defined";
    user_assert(stage_ >= 0 && (size_t)stage_ <= f_->updates.size()) << "There is no stage " << name();
    std::shared_ptr<StageSchedule> &view = f_->schedule_views.by_stage[{stage_, path_}];
    if (!view) {
        view = std::make_shared<StageSchedule>();
    }
    *view = make_view(*f_, stage_, path_);
    return *view;
}

const StageSchedule &Func::get_schedule() const {
    return Stage(f_, 0).get_schedule();
}

} // namespace Halide
