// The compiler's record of a Func, an input buffer or a scalar parameter,
// shared by the front-end handles and found by name during lowering.
#ifndef HALIDE_INTERNAL_FUNCTION_H
#define HALIDE_INTERNAL_FUNCTION_H

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "Halide/DeviceAPI.h"
#include "Halide/Expr.h"
#include "Halide/IR.h"
#include "Halide/PrefetchDirective.h"
#include "Halide/Reduction.h"
#include "Halide/Schedule.h"
#include "HalideRuntime.h"

namespace Halide {
namespace Runtime {
template <typename T, int Dims, int InClassDimStorage> class Buffer;
}

namespace Internal {

enum class ComputeLevel { Inlined, Root, At };

// How a split handles an extent that is not a multiple of the factor.
// The names and meanings are TailStrategy's (Func.h).
enum class TailKind {
    Auto,
    GuardWithIf,
    ShiftInwards,
    RoundUp,
    Predicate,
    PredicateLoads,
    PredicateStores,
    ShiftInwardsAndBlend,
    RoundUpAndBlend
};

// One step of a Func's loop structure, in the order the schedule made them.
// Names are internal and unique within the Func (see LoopDim).
struct SplitStep {
    enum Kind { Split, Fuse };
    Kind kind = Split;
    std::string old_var, outer, inner; // Fuse: `old_var` is the fused result
    Expr factor;
    TailKind tail = TailKind::Auto;
    // The names the user gave the new loops (Split: given_outer and
    // given_inner; Fuse: given_old), for Stage::get_schedule's view.
    std::string given_old, given_outer, given_inner;
};

// Stage::rename, for Stage::get_schedule's view: after the stage's first
// `after_splits` splits, the loop `var` (an internal name) is called `name`.
struct RenameStep {
    size_t after_splits = 0;
    std::string var, name;
};

// A loop, innermost first. `name` is what the user calls it, `var` the
// unique internal name of this incarnation (a split may reuse a user name).
struct LoopDim {
    std::string name, var;
    ForType for_type = ForType::Serial;
    bool is_rvar = false; // a loop of a reduction domain (or a split or fuse of them)
    Partition partition = Partition::Auto;
};

// A reduction domain (RDom): loops over [min, min + extent) per variable,
// innermost first, restricted to the points where every predicate holds.
// (ReductionVariable: Halide/Reduction.h)
struct ReductionDomainContents {
    std::string name;
    std::vector<ReductionVariable> domain;
    std::vector<Expr> predicates; // RDom::where(), combined with &&
};
using ReductionDomainPtr = std::shared_ptr<ReductionDomainContents>;

// Func::specialize(condition) / Stage::specialize: where `condition` (of
// Params and buffer fields) holds, the stage runs with this schedule (a copy
// of the stage's schedule when specialized, changed independently since).
// The first specialization whose condition holds is run; they nest.
// specialize_fail(message) adds one whose condition is true and whose
// choice is a run-time error with `message`.
struct Specialization {
    Expr condition;
    std::vector<SplitStep> splits;
    std::vector<LoopDim> dims;
    std::vector<RenameStep> renames;
    std::vector<Specialization> specializations;
    bool fails = false;
    std::string failure_message;
};

// Calls `visit` on each specialization in `specs` and the ones nested in them.
inline void for_each_specialization(const std::vector<Specialization> &specs,
                                    const std::function<void(const Specialization &)> &visit) {
    for (const Specialization &s : specs) {
        visit(s);
        for_each_specialization(s.specializations, visit);
    }
}

// Stage::compute_with: this stage's loops, from the outermost down to the
// parent's loop named `var`, are fused with the parent stage's (ComputeWith.cpp).
// Given as a LoopLevel, `level` is resolved when lowering starts.
struct FuseLevel {
    std::string parent_func; // empty: not fused
    int parent_stage = 0;
    std::string var;
    std::vector<std::pair<std::string, LoopAlignStrategy>> align; // by loop name; the others `all`
    LoopAlignStrategy all = LoopAlignStrategy::Auto;
    std::shared_ptr<LoopLevelContents> level;
    bool defined() const { return !parent_func.empty() || level; }
};

// An update definition f(args) = values, run after the pure definition and
// the updates before it. Each argument is a pure Var of the update (looped
// over the region of that dimension), or any Expr of RVars and those Vars.
struct UpdateDefinition {
    std::vector<Expr> args, values;
    ReductionDomainPtr rdom;                     // null when the update uses no RVars
    std::vector<std::string> pure_vars;          // by dimension; empty where that argument is not a pure Var
    std::vector<SplitStep> splits;               // its schedule, as the pure definition's below
    std::vector<LoopDim> dims;                   // RVars innermost by default, then the pure Vars
    std::vector<RenameStep> renames;             // as the pure definition's below
    bool allow_race_conditions = false;          // Stage::allow_race_conditions()
    bool atomic = false;                         // Stage::atomic()
    bool atomic_override = false;                // Stage::atomic(true)
    std::vector<Specialization> specializations; // Stage::specialize()
    FuseLevel fuse;                              // Stage::compute_with()
    bool scheduled = false;                      // given a schedule, or Stage::unscheduled()
};

// Stage::prefetch: injected by lower/Prefetch.cpp.
struct PrefetchRecord {
    int stage = 0;
    std::string name; // the Func or buffer prefetched
    std::string at, from;
    Expr offset;
    PrefetchBoundStrategy strategy = PrefetchBoundStrategy::GuardWithIf;
};

struct FunctionContents;

// Func::define_extern: the C function computing a Func.
struct ExternDefinition {
    std::string name;           // as given ("ns::fn" for a C++ function in namespace ns)
    std::string cplusplus_name; // the Itanium C++ name of int name(halide_buffer_t *, scalars...)
    int mangling = 0;           // NameMangling: Default, C, CPlusPlus
    std::vector<int> arg_kinds; // ExternFuncArgument::ArgType of each argument
};

// What the user requires of one dimension of a buffer argument
// (Dimension::set_min/set_extent/set_stride): checked when the pipeline
// runs, and a constant one is assumed by the code (a dense innermost
// dimension makes vector loads and stores possible). Undefined: anything.
struct DimensionConstraint {
    Expr min, extent, stride;
};

// A buffer argument: an ImageParam (bound before realize), a concrete
// Buffer, or (with `output`) the buffer a Func writes when it is a
// pipeline's output (Func::output_buffer).
struct InputBufferContents {
    std::string name;
    Type type;
    int dimensions = 0;
    std::string user_name;                        // as given (`name` is unique): name(), the argument's name
    halide_buffer_t *bound = nullptr;             // what the pipeline reads when run
    std::shared_ptr<void> keep_alive;             // owner of `bound`
    std::vector<Range> estimates;                 // set_estimates(), for the metadata
    std::vector<DimensionConstraint> constraints; // one per dimension
    bool output = false;
    bool concrete = false;                     // a Buffer, not an ImageParam: AOT code embeds its contents
    int host_alignment = 0;                    // set_host_alignment() (0: the type's size, not checked)
    MemoryType memory_type = MemoryType::Auto; // store_in(): recorded (a CPU has one kind of memory)
    // ImageParam::in(): wrapper Funcs by consumer ("" for the global one), as FunctionContents::wrappers.
    std::map<std::string, std::shared_ptr<FunctionContents>> wrappers;
    FunctionContents *func = nullptr; // outputs: the Func, to mark it changed
    // ImageParam's conversion to Func: one Func name_im(_0, ...) = im(_0, ...), made on first use.
    std::shared_ptr<FunctionContents> as_func;
    // ImageParam::trace_loads()/add_trace_tag(): its loads traced as a
    // Func's (lower/AddTracing.cpp), with these tags.
    bool trace_loads = false;
    std::vector<std::string> trace_tags;
};
using InputBufferPtr = std::shared_ptr<InputBufferContents>;
// As upstream: only the innermost stride is constrained, to 1.
std::vector<DimensionConstraint> default_constraints(int dimensions);

struct FunctionContents {
    std::string name;
    std::vector<std::string> args; // pure definition's Var names, innermost first
    std::vector<Expr> values;      // empty until defined
    // Func(types, dims, name): what the pure definition must have (-1, empty: anything).
    std::vector<Type> required_types;
    int required_dimensions = -1;
    ComputeLevel compute = ComputeLevel::Inlined;
    std::string compute_at_func, compute_at_var; // with ComputeLevel::At: a Func and its LoopDim name
    // With ComputeLevel::At, store and hoist: the stage of that Func whose
    // loop it is (-1: every stage that has a loop of that name).
    int compute_at_stage = -1, store_at_stage = -1, hoist_at_stage = -1;
    // Given as LoopLevels (compute_at(LoopLevel) ...): resolved into the
    // fields above when lowering starts (resolve_loop_levels), so a level
    // set() after the schedule call counts.
    std::shared_ptr<LoopLevelContents> compute_level, store_level, hoist_level;
    // store_root()/store_at(): Inlined (unset) stores where g is computed.
    ComputeLevel store = ComputeLevel::Inlined;
    std::string store_at_func, store_at_var;
    std::vector<SplitStep> splits; // the pure definition's schedule
    std::vector<LoopDim> dims;
    std::vector<RenameStep> renames;             // the pure definition's
    std::vector<Specialization> specializations; // the pure definition's
    FuseLevel fuse;                              // the pure definition's compute_with()
    std::vector<UpdateDefinition> updates;
    // Realized, or called by another Func's definition: no more updates
    // (they would change what that already means), as upstream.
    bool frozen = false;
    // Per pure argument: bound() (min, extent) and align_bounds() (modulus, remainder).
    std::map<std::string, std::pair<Expr, Expr>> explicit_bounds, alignments;
    // Per pure argument: bound_extent() and align_extent() (the min kept),
    // align_storage() (the allocation's extent padded to a multiple).
    std::map<std::string, Expr> extent_bounds, extent_alignments, storage_alignments;
    bool scheduled = false;                    // the pure definition's loops scheduled, or Stage::unscheduled()
    std::vector<PrefetchRecord> prefetches;    // of every stage
    Expr ring_buffer;                          // ring_buffer(): checked, one copy kept
    bool buffer_copy = false;                  // copy_to_host()/copy_to_device(): a plain copy
    std::vector<std::string> storage_order;    // pure arguments, innermost first; empty = args order
    MemoryType memory_type = MemoryType::Auto; // store_in()
    // hoist_storage()/hoist_storage_root(): Inlined (unset) allocates where stored.
    ComputeLevel hoist = ComputeLevel::Inlined;
    std::string hoist_at_func, hoist_at_var;
    std::map<std::string, Expr> storage_bounds; // bound_storage(), per pure argument
    // fold_storage(): per pure argument, the fold factor and whether the
    // accesses move towards larger coordinates.
    std::map<std::string, std::pair<Expr, bool>> storage_folds;
    std::vector<Range> estimates; // set_estimates() of an output, for the metadata
    // Func::in(): the wrappers of this Func by the consumer Func they serve
    // ("" for the global one); a wrapper names the Func it wraps. The
    // wrapper calls this Func without keeping it alive (no cycle).
    std::map<std::string, std::shared_ptr<FunctionContents>> wrappers;
    std::string wraps;
    // Lowering's copy of a consumer with its calls redirected to wrappers:
    // the user's Func it copies (whose change stamp counts).
    const FunctionContents *original = nullptr;
    bool async = false; // Func::async(): computed as a task next to its consumer (lower/AsyncProducers.cpp)
    // memoize(): results kept in the runtime's cache (lower/Memoize.cpp),
    // with the eviction key given (or undefined).
    bool memoized = false;
    Expr memoize_eviction_key;
    // trace_loads()/trace_stores()/trace_realizations(): lowering adds the
    // events upstream's default trace handler prints (AddTracing.cpp).
    bool trace_loads = false, trace_stores = false, trace_realizations = false;
    // debug_to_file(): the file its values are written to once computed
    // (lower/DebugToFile.cpp), or empty.
    std::string debug_file;
    // add_trace_tag(): texts reported as tag events after the Func's own tag.
    std::vector<std::string> trace_tags;
    // no_profiling(): recorded (upstream leaves the Func out of the
    // profiler's report; this compiler has no profiler).
    bool no_profiling = false;
    // gpu_*() / hexagon(): the device the schedule asks for (None: the
    // host). Lowering refuses it: there is no GPU or Hexagon backend.
    DeviceAPI device_api = DeviceAPI::None;
    // define_extern() (null: an ordinary Func). Each value is then an
    // "extern_stage" intrinsic whose arguments are the stage's: a Func
    // input or a buffer called at zeros, a scalar as itself (so the passes
    // that follow calls, redirect them or inline them see the stage's).
    std::shared_ptr<const ExternDefinition> extern_def;
    std::string extern_symbol; // lowering's copy: the symbol called (C or C++ name)
    // Func::output_buffers(), made on first use: one per value.
    std::vector<std::shared_ptr<InputBufferContents>> output_buffers;
    // The Funcs, input buffers and Params the definition calls or reads, kept
    // alive by it (the IR names them; the registry holds weak pointers).
    std::vector<std::shared_ptr<void>> referenced;
    // The change stamp of its last definition or schedule change (see mark_changed).
    uint64_t stamp = 0;
    // What Stage::get_schedule returned, by stage and specialization path:
    // each call refreshes the object in place, so references stay valid.
    // A copy of the record (a clone, lowering's copy) starts without them.
    struct ScheduleViews {
        std::map<std::pair<int, std::vector<size_t>>, std::shared_ptr<StageSchedule>> by_stage;
        ScheduleViews() = default;
        ScheduleViews(const ScheduleViews &) {}
        ScheduleViews &operator=(const ScheduleViews &) { return *this; }
    } schedule_views;

    bool defined() const { return !values.empty(); }
};

// Calls `visit` on each loop dimension of stage `stage` of f (0: the pure
// definition, i: update i - 1), in its schedule and every specialization's.
inline void for_each_stage_dim(const FunctionContents &f, int stage,
                               const std::function<void(const LoopDim &)> &visit) {
    const bool pure = stage == 0;
    if (!pure && stage - 1 >= (int)f.updates.size()) {
        return;
    }
    auto each = [&](const std::vector<LoopDim> &dims) {
        for (const LoopDim &d : dims) {
            visit(d);
        }
    };
    each(pure ? f.dims : f.updates[(size_t)stage - 1].dims);
    for_each_specialization(pure ? f.specializations : f.updates[(size_t)stage - 1].specializations,
                            [&](const Specialization &sp) { each(sp.dims); });
}
using FunctionPtr = std::shared_ptr<FunctionContents>;

struct ParamContents {
    std::string name;
    std::string user_name; // as given (`name` is unique): name(), the argument's name
    Type type;
    halide_scalar_value_t value{};
    bool has_value = false;       // given a value (set, a constant): else reading it is an error, as upstream
    Expr min_value, max_value;    // optional range checks
    Expr default_value, estimate; // optional, for ahead-of-time metadata
};
using ParamPtr = std::shared_ptr<ParamContents>;

// Names are unique among live objects: a taken name gets a "$n" suffix.
std::string unique_name(const std::string &requested);
std::string fresh_name(char prefix);

void register_function(const FunctionPtr &f);
void register_reduction_domain(const ReductionDomainPtr &r);
// The RDom that reduction variable `var` belongs to, and its index there.
ReductionDomainPtr find_reduction_domain_of(const std::string &var, int *index = nullptr);
void register_input_buffer(const InputBufferPtr &b);
void register_param(const ParamPtr &p);
FunctionPtr find_function(const std::string &name);
InputBufferPtr find_input_buffer(const std::string &name);
ParamPtr find_param(const std::string &name);
// If `var` names a field of a live input buffer ("<buffer>.min.0",
// ".extent.", ".max.", ".stride."), that buffer's name; else empty.
std::string input_buffer_of_field(const std::string &var);
// Change tracking for the JIT cache. Every change to a definition or a
// schedule takes a new stamp from one global counter and records it in the
// Func changed, so a compiled Pipeline stays current while the Funcs it
// reaches keep the stamps it was compiled with: an edit recompiles only the
// pipelines that use the edited Func. RDom::where and Param ranges are not
// tied to one Func and mark everything changed.
uint64_t latest_change_stamp();
void mark_changed(FunctionContents &f);
void mark_everything_changed();
uint64_t everything_changed_stamp();
// Whether g's storage is at a different level from its computation
// (store_root() or store_at() outside its compute_at() loop).
bool stored_apart(const FunctionContents &g);
// Locks the LoopLevels f's schedule was given (compute_at/store_at/
// hoist_storage/compute_with) and records what they name in f's fields.
void resolve_loop_levels(FunctionContents &f);
// How many names the registry holds (live ones, and destroyed ones not yet swept).
size_t registered_name_count();

} // namespace Internal
} // namespace Halide

#endif
