// Scheduling choices shared by the front end and lowering.
#ifndef HALIDE_SCHEDULE_H
#define HALIDE_SCHEDULE_H

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "Halide/DeviceAPI.h"
#include "Halide/Expr.h"
#include "Halide/IR.h"
#include "Halide/PrefetchDirective.h"
#include "Halide/Reduction.h"

namespace Halide {

class Func;
class VarOrRVar;

// Whether a loop may be split into prologue, steady state and epilogue
// around the iterations where its likely() branches are taken (see
// Func::partition). Auto: where the compiler finds such a range. Always:
// as Auto, and it is an error when there is none. Never: the loop stays one.
enum class Partition { Auto, Never, Always };

// How compute_with lines up a fused loop of the child stage with its
// parent's when their ranges differ (values as upstream's):
// - AlignStart: the child's first iteration runs with the parent's first.
// - AlignEnd: the child's last iteration runs with the parent's last.
// - NoAlign: each iteration runs at its own coordinate; the fused loop
//   covers both ranges.
// - Auto: NoAlign.
enum class LoopAlignStrategy { AlignStart, AlignEnd, NoAlign, Auto };

// What a split does when the extent is not a multiple of the factor (in
// upstream's order, so the values match):
// - RoundUp: the last iteration runs past the end (outputs and inputs must
//   then be a multiple of the factor wide).
// - GuardWithIf: an if around the body skips the points past the end; a
//   vectorized tail masks its loads and stores.
// - Predicate: the same, said of the loads and stores (masked in a
//   vectorized tail).
// - PredicateLoads / PredicateStores: only the loads (the stores run past
//   the end, as RoundUp) or only the stores (the loads run past the end).
//   Innermost splits of Vars only.
// - ShiftInwards: the last iteration is moved back so it ends at the edge
//   (the extent must be at least one factor).
// - ShiftInwardsAndBlend / RoundUpAndBlend: as ShiftInwards / RoundUp, but
//   points the stage should not write keep their old values (legal on
//   update definitions; not with a parallel loop split from the same Var).
// - Auto: ShiftInwards for the pipeline's outputs, GuardWithIf for every
//   other Func and for update definitions.
enum class TailStrategy {
    RoundUp,
    GuardWithIf,
    Predicate,
    PredicateLoads,
    PredicateStores,
    ShiftInwards,
    ShiftInwardsAndBlend,
    RoundUpAndBlend,
    Auto
};

namespace Internal {
// What a LoopLevel names; shared by its copies, so set() changes them all.
struct LoopLevelContents {
    std::string func_name;
    std::string var_name;
    bool is_rvar = false;
    int stage_index = -1; // -1: every stage of func_name that has the loop
    bool locked = false;
};
} // namespace Internal

// A place in a loop nest where a Func is computed or stored: the root (outside
// every loop), inlined (no place of its own), or the loop over `var` of Func
// `f` (of stage `stage_index` only; by default, of each stage that has it).
// A LoopLevel is a shared, mutable handle until it is locked: copies refer to
// the same level, and set() changes every copy, including the ones schedules
// were given (f.compute_at(level) follows a later level.set(...)), as
// generators use it. Lowering locks the levels its schedules use; the
// accessors need a locked level.
class LoopLevel {
public:
    // Undefined: it must be set() before the pipeline is compiled.
    LoopLevel();
    LoopLevel(const Func &f, const VarOrRVar &v, int stage_index = -1);

    static LoopLevel inlined();
    static LoopLevel root();

    bool defined() const;
    // Makes this level (and every copy of it) name what `other` names now.
    // An error on a locked level.
    void set(const LoopLevel &other);
    LoopLevel &lock();
    bool locked() const;

    // These need a locked level.
    std::string func() const;
    VarOrRVar var() const;
    int stage_index() const;
    bool is_inlined() const;
    bool is_root() const;
    // "f.x" (or "f.s1.x" with a stage index), ".__root", ".__inlined".
    std::string to_string() const;
    bool match(const std::string &loop) const;
    bool match(const LoopLevel &other) const;
    bool operator==(const LoopLevel &other) const;
    bool operator!=(const LoopLevel &other) const { return !(*this == other); }

    // The shared contents (lowering reads them).
    const std::shared_ptr<Internal::LoopLevelContents> &contents() const { return contents_; }

private:
    explicit LoopLevel(std::shared_ptr<Internal::LoopLevelContents> c) : contents_(std::move(c)) {}
    void check_locked() const;
    std::shared_ptr<Internal::LoopLevelContents> contents_;
};

// Where a stage's loops are fused with another stage's (Stage::compute_with):
// the loop `level` names, and the alignment of each fused loop by name (the
// ones not named: LoopAlignStrategy::Auto). Unfused: the inlined level.
struct FuseLoopLevel {
    LoopLevel level;
    std::map<std::string, LoopAlignStrategy> align;

    FuseLoopLevel() : level(LoopLevel::inlined().lock()) {}
    FuseLoopLevel(const LoopLevel &level, const std::map<std::string, LoopAlignStrategy> &align)
        : level(level), align(align) {}
};

namespace Internal {

// One step of a stage's loop structure, in the order the schedule made them
// (Stage::split, fuse, rename; vectorize, unroll, parallel and tile with a
// factor split too). SplitVar: `old_var` becomes `outer` and `inner`, which
// runs over [0, factor); `exact` when the factor must divide the extent (a
// split of an RVar). RenameVar: `old_var` is called `outer` from then on
// (`inner` empty, factor 1). FuseVars: `inner` and `outer` become the one
// loop `old_var`.
struct Split {
    std::string old_var, outer, inner;
    Expr factor;
    bool exact = false;
    TailStrategy tail = TailStrategy::Auto;

    enum SplitType { SplitVar = 0, RenameVar, FuseVars };
    SplitType split_type = SplitVar;
};

// What may be done with a loop (values in upstream's order). PureVar: from a
// Var, its points may be computed in any order. PureRVar: from an RVar whose
// iterations cannot interfere. ImpureRVar: from an RVar whose iterations run
// in order. Fusing two loops gives the greater of their types.
enum class DimType { PureVar = 0, PureRVar, ImpureRVar };

// Whether iterations of a loop of this type may run at once, in any order
// (parallel), or at once in some order (parallel or vectorized).
inline bool is_unordered_parallel(ForType for_type) {
    return for_type == ForType::Parallel;
}
inline bool is_parallel(ForType for_type) {
    return for_type == ForType::Parallel || for_type == ForType::Vectorized;
}

// One loop of a stage, as the schedule has it.
struct Dim {
    std::string var;
    ForType for_type = ForType::Serial;
    DeviceAPI device_api = DeviceAPI::None;
    DimType dim_type = DimType::PureVar;
    Partition partition_policy = Partition::Auto;

    bool is_pure() const { return dim_type == DimType::PureVar || dim_type == DimType::PureRVar; }
    bool is_rvar() const { return dim_type == DimType::PureRVar || dim_type == DimType::ImpureRVar; }
    bool is_unordered_parallel() const { return Internal::is_unordered_parallel(for_type); }
    bool is_parallel() const { return Internal::is_parallel(for_type); }
};

// Two stages whose loops are fused from the outermost down to the loop
// `var_name`: stage_1 of func_1 runs first in each fused iteration.
struct FusedPair {
    std::string func_1, func_2;
    size_t stage_1 = 0, stage_2 = 0;
    std::string var_name;

    FusedPair() = default;
    FusedPair(const std::string &f1, size_t s1, const std::string &f2, size_t s2, const std::string &var)
        : func_1(f1), func_2(f2), stage_1(s1), stage_2(s2), var_name(var) {}
    bool operator==(const FusedPair &other) const {
        return func_1 == other.func_1 && func_2 == other.func_2 && stage_1 == other.stage_1 &&
               stage_2 == other.stage_2 && var_name == other.var_name;
    }
    // Ordered by func_1, func_2, var_name, stage_1, stage_2.
    bool operator<(const FusedPair &other) const {
        if (func_1 != other.func_1) {
            return func_1 < other.func_1;
        }
        if (func_2 != other.func_2) {
            return func_2 < other.func_2;
        }
        if (var_name != other.var_name) {
            return var_name < other.var_name;
        }
        if (stage_1 != other.stage_1) {
            return stage_1 < other.stage_1;
        }
        return stage_2 < other.stage_2;
    }
};

struct StageScheduleContents {
    std::vector<ReductionVariable> rvars;
    std::vector<Split> splits;
    std::vector<Dim> dims;
    std::vector<PrefetchDirective> prefetches;
    FuseLoopLevel fuse_level;
    std::vector<FusedPair> fused_pairs;
    bool touched = false, allow_race_conditions = false, atomic = false;
    bool override_atomic_associativity_test = false;
};

// The schedule of one stage of a Func, for reading (Stage::get_schedule):
// the RVars it loops over, its splits in order, its loops innermost first
// (the last one "__outermost", a loop of one iteration around the rest),
// its prefetches and compute_with. Copies share their contents; get_copy()
// makes an independent one. Scheduling goes through Func and Stage.
class StageSchedule {
public:
    StageSchedule() : contents_(std::make_shared<StageScheduleContents>()) {}
    explicit StageSchedule(std::shared_ptr<StageScheduleContents> contents) : contents_(std::move(contents)) {}
    StageSchedule(const std::vector<ReductionVariable> &rvars, const std::vector<Split> &splits,
                  const std::vector<Dim> &dims, const std::vector<PrefetchDirective> &prefetches,
                  const FuseLoopLevel &fuse_level, const std::vector<FusedPair> &fused_pairs, bool touched,
                  bool allow_race_conditions, bool atomic, bool override_atomic_associativity_test)
        : contents_(std::make_shared<StageScheduleContents>(
              StageScheduleContents{rvars, splits, dims, prefetches, fuse_level, fused_pairs, touched,
                                    allow_race_conditions, atomic, override_atomic_associativity_test})) {}

    StageSchedule get_copy() const { return StageSchedule(std::make_shared<StageScheduleContents>(*contents_)); }

    // Whether the stage was given a schedule (or Stage::unscheduled()).
    bool touched() const { return contents_->touched; }
    const std::vector<ReductionVariable> &rvars() const { return contents_->rvars; }
    const std::vector<Split> &splits() const { return contents_->splits; }
    const std::vector<Dim> &dims() const { return contents_->dims; }
    const std::vector<PrefetchDirective> &prefetches() const { return contents_->prefetches; }
    const FuseLoopLevel &fuse_level() const { return contents_->fuse_level; }
    const std::vector<FusedPair> &fused_pairs() const { return contents_->fused_pairs; }
    bool allow_race_conditions() const { return contents_->allow_race_conditions; }
    bool atomic() const { return contents_->atomic; }
    bool override_atomic_associativity_test() const { return contents_->override_atomic_associativity_test; }

private:
    std::shared_ptr<StageScheduleContents> contents_;
};

} // namespace Internal

} // namespace Halide

#endif
