// The lowering passes, each in its own file; Lower.cpp runs them in order.
#ifndef HALIDE_INTERNAL_PASSES_H
#define HALIDE_INTERNAL_PASSES_H

#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "Halide/LoweredFunc.h"
#include "analysis/Interval.h"
#include "lower/Function.h"
#include "lower/Lower.h"

namespace Halide {
namespace Internal {

using Environment = std::map<std::string, FunctionPtr>;

// RealizationOrder.cpp: every Func the outputs depend on, producers first;
// a consumer of a wrapped Func (Func::in) is a copy calling the wrapper.
std::vector<std::string> realization_order(const std::vector<FunctionPtr> &outputs, Environment &env);

// InlineFunctions.cpp: replaces calls to Funcs scheduled inline by their
// definitions (in every remaining definition).
void inline_functions(Environment &env, const std::vector<std::string> &order, const std::vector<FunctionPtr> &outputs);

// ScheduleFunctions.cpp: the loop nests. Outputs loop over their buffer's
// region; each compute_root Func is realized over the region its consumers
// need (bounds inference), around them.
Stmt schedule_functions(const Environment &env, const std::vector<std::string> &order,
                        const std::vector<FunctionPtr> &outputs);

// FuncValueBounds.cpp: the values each Func with only a pure definition can
// produce (lower() lists them, with a FuncValueBoundsScope, while it runs).
FuncValueBounds func_value_bounds(const Environment &env, const std::vector<std::string> &order);

// ProducerConsumerMarks.cpp: `produce f` around the statements computing
// each Func f and `consume f` around those after them (upstream's marks),
// for the user's passes and Module::functions(); codegen ignores them.
Stmt mark_producers_consumers(const Stmt &s, const Environment &env);

// Profiling.cpp: the `profile` target feature. Calls to the runtime's
// sampling profiler (runtime/src/profiler.cpp) say which Func runs, how many
// threads work and what each Func allocates; needs the produce/consume marks.
// The Funcs in `unlisted` (no_profiling()) are billed to the Func around them.
Stmt inject_profiling(const Stmt &s, const std::string &pipeline_name, const std::set<std::string> &unlisted);

// ComputeWith.cpp: Stage::compute_with. check_compute_with refuses what
// upstream refuses (inline or differently computed Funcs, dependencies, a
// loop the parent lacks, fused depths that differ, specializations) and
// returns the realization order with each fused group's Funcs next to each
// other. schedule_functions marks each stage of the Funcs in
// compute_with_funcs (mark_compute_with_stage); fuse_compute_with then
// fuses the marked loop nests and removes the marks.
std::vector<std::string> check_compute_with(const Environment &env, const std::vector<std::string> &order,
                                            const std::vector<FunctionPtr> &outputs);
std::set<std::string> compute_with_funcs(const Environment &env);
Stmt mark_compute_with_stage(const FunctionContents &f, int stage, const Stmt &s);
Stmt fuse_compute_with(const Stmt &s, const Environment &env);

// ExternStages.cpp: Func::define_extern. The statement computing extern
// stage f over <region>.min.d/.extent.d: its bounds query (lets opening the
// statement: the region each Func input must cover), then place(call),
// where `place` puts f's storage around the call (and its consumers).
Stmt extern_stage(const FunctionContents &f, const std::string &region, bool is_output,
                  const std::function<Stmt(const Stmt &)> &place);
// Refuses Func inputs of extern stages (and the sources of copy_to_host/
// copy_to_device Funcs) scheduled inline (upstream's error).
void check_extern_inputs(const Environment &env, const std::set<std::string> &inlined);
// Each extern stage's symbol: its C name, or its C++ name with
// NameMangling::CPlusPlus (which needs the target's c_plus_plus_name_mangling
// feature, as upstream) or Default on such a target. On lowering's copies.
void choose_extern_symbols(Environment &env, const Target &target);
// Whether extern stage f is given any input buffer (ImageParam, Buffer).
bool reads_buffers(const FunctionContents &f);
// Whether extern stage f is given any Func.
bool reads_funcs(const FunctionContents &f);
// s with the promises that f's query answers about its Func inputs lie
// within its root query's (which bounds inference may have used for an
// input computed outside f's loops) taken off where no root answer is
// named any more; *used says whether one still is (then s is unchanged,
// and f needs its root query).
Stmt unbound_by_root(const Stmt &s, const FunctionContents &f, bool *used);
// The lets of the bounds query of extern stage f over `region` (in the
// names where they go), whose answers f.extern.root.q<j>.min.d/.max.d are
// the regions its input buffers are read over, and the check of its result.
void extern_root_query(const FunctionContents &f, const Box &region, std::vector<std::pair<std::string, Expr>> &lets,
                       std::vector<Stmt> &checks);
// ExternInputQueries.cpp: each extern stage given an input buffer (or a Func
// computed outside its loops) is asked, before everything, what it reads of
// it over every region of it computed.
Stmt extern_input_queries(const Stmt &s, const Environment &env);
// Removes what extern stages showed bounds inference (before flattening).
Stmt strip_extern_markers(const Stmt &s);

// CheckUpdateRaces.cpp: refuses parallel or vectorized loops over RVars of
// f's updates when iterations may update (or read) the same point.
void check_update_races(const FunctionContents &f);

// SpecializeStages.cpp: Func::specialize. The loop nest of a stage with
// specializations `specs`: `nest` of the schedule (splits, dims) of each,
// in an if/else chain on their conditions (what a condition says about a
// Param substituted in its branch), the stage's own schedule last, or a
// specialize_fail() error.
using SpecializedNest = std::function<Stmt(const std::vector<SplitStep> &, const std::vector<LoopDim> &)>;
Stmt specialize_stage(const std::vector<Specialization> &specs, const std::vector<SplitStep> &splits,
                      const std::vector<LoopDim> &dims, const SpecializedNest &nest);
// check_update_races of the schedules of f's updates' specializations.
void check_specialized_update_races(const FunctionContents &f);

// GPU and Hexagon schedules (gpu_*(), hexagon()): refused with a
// CompileError naming the device, as no backend here compiles them.
void check_device_schedules(const Environment &env, const Target &target);

// CheckScheduleDirectives.cpp: warns (as upstream) about an update left
// unscheduled while other definitions of its Func were scheduled (unless
// Stage::unscheduled() says it is meant), and refuses ring_buffer() without
// a hoist_storage() level apart from the store level.
void check_schedule_directives(const Environment &env);

// AddAtomics.cpp: the Provides of each update marked atomic() (inside that
// stage's loops) wrapped in an Atomic node, which codegen turns into atomic
// read-modify-writes.
Stmt add_atomics(const Stmt &s, const Environment &env);

// ScatterGather.cpp: scatter()/gather() in an update. A Provide whose
// coordinates or values hold "scatter_gather" calls of n values each
// becomes n stores, the k-th with every such call replaced by its k-th
// value, left to right; every coordinate and value is computed before the
// first store (so f(scatter(a, b)) = f(gather(b, a)) swaps).
Stmt lower_scatter_gather(const Stmt &s);
// undef() inside a definition (select(c, v, undef())): the store made only where it is defined.
Stmt remove_undef(const Stmt &s);

// AddTracing.cpp: Func::trace_loads/trace_stores/trace_realizations, and the
// target's trace_* features (which trace every Func). Each event (pipeline
// begin/end, tags, realizations, produce/consume, each store and load)
// becomes a call of the runtime's halide_trace, through the "trace_event"
// and "trace_value" intrinsics, with upstream's parent ids (a vectorized
// load or store is one event of the vector, as upstream's).
struct TraceOptions {
    bool loads = false, stores = false, realizations = false, pipeline = false;
};
Stmt add_tracing(const Stmt &s, const Environment &env, const std::vector<std::string> &order,
                 const std::vector<FunctionPtr> &outputs, const std::string &pipeline,
                 const TraceOptions &options = {});

// DebugToFile.cpp: Func::debug_to_file. After storage flattening, each
// such Func's values, once computed (after the last statement writing its
// allocation, or for an output at the end of the pipeline), are passed to
// the runtime's halide_debug_to_file; a failure is
// halide_error_debug_to_file_failed.
Stmt inject_debug_to_file(const Stmt &s, const Environment &env, const std::vector<FunctionPtr> &outputs);

// AddRequirements.cpp: Pipeline::add_requirement()'s (condition, message
// parts) as assertions before `s`.
Stmt add_requirements(const Stmt &s, const std::vector<std::pair<Expr, std::vector<Expr>>> &requirements);

// PrintLoopNest.cpp: the loops of `s` as upstream's print_loop_nest shows them.
std::string loop_nest_text(const Stmt &s, const Environment &env);

// InferArguments.cpp: the pipeline's arguments (input buffers and scalar
// params it reads, then the outputs), in ABI order.
void infer_arguments(const Stmt &s, const std::vector<FunctionPtr> &outputs, LoweredPipeline &result);

// ArgumentNames.cpp: input arguments take the names their Param or
// ImageParam was given ("p", where the IR says "p$1" because another live
// Param is also called "p"), unless the pipeline already uses that name.
Stmt use_given_argument_names(const Stmt &s, LoweredPipeline &p);

// AddImageChecks.cpp: binds every buffer argument's fields and checks type,
// dimensions, the region read from inputs and scalar ranges.
// `bounds_query`: answer bounds queries (buffers with neither host nor device).
Stmt add_image_checks(const Stmt &s, const LoweredPipeline &p, const std::vector<FunctionPtr> &outputs,
                      bool bounds_query);

// StripAsserts.cpp: removes every AssertStmt (target feature no_asserts).
Stmt strip_asserts(const Stmt &s);

// LowerTargetQueries.cpp: target_arch_is(), target_bits(), target_os_is(),
// target_has_feature(), target_natural_vector_size() replaced by their
// constant for `target`: in the Funcs' definitions (lowering's copies, so
// bounds inference sees constants), then anywhere else in the statement.
void lower_target_queries(Environment &env, const Target &target);
Stmt lower_target_queries(const Stmt &s, const Target &target);

// StripPromises.cpp: drops promise_clamped wrappers once bounds are known.
Stmt strip_promises(const Stmt &s);

// CanonicalizeIndices.cpp: Load/Store indices as sums of distinct terms.
Stmt canonicalize_indices(const Stmt &s);

// UnrollLoops.cpp: unrolled loops (constant extent) become copies of their body.
Stmt unroll_loops(const Stmt &s);

// PartitionLoops.cpp: a loop whose likely branches (min/max/select marked
// with likely()) are taken over part of its range becomes a prologue, a
// steady state with those branches taken, and an epilogue. `policies`:
// Func::partition() by loop name (absent: Auto).
Stmt partition_loops(const Stmt &s, const std::map<std::string, Partition> &policies = {});

// VectorizeLoops.cpp: vectorized loops of constant extent become vector
// code (Ramp, Broadcast, vector Load/Store); loops it cannot widen stay serial.
Stmt vectorize_loops(const Stmt &s);

// DeinterleaveStores.cpp: a vector store whose value takes x % m or x / m
// of its lanes' ramp (a demosaic's select(x % 2 == 0, a(x / 2), b(x / 2)))
// stores interleave_vectors of the m slices of lanes k, k + m, ...; in
// each, the selects have scalar conditions and the reads are dense or
// strided instead of gathers.
Stmt deinterleave_stores(const Stmt &s);

// ShareRepeatedLoads.cpp: a vector load that a store's value reads more than
// once (an inlined producer used several times) is loaded once, into a
// LetStmt around the store; masked loads and atomic stores are left alone.
Stmt share_repeated_loads(const Stmt &s);

// ShareStridedLoads.cpp: strided vector loads (stride 2 to 4) of one buffer
// that a store's value reads at neighbouring offsets (a downsample's f(2x),
// f(2x + 1)) become slice_vector shuffles of one dense load, bound by a
// LetStmt around the store, where together they read exactly that load's
// elements; masked loads and atomic stores are left alone.
Stmt share_strided_loads(const Stmt &s);

// ShareLoopInvariants.cpp: a scalar value that two or more sibling loops
// compute identically and that does not change inside them (the row
// offsets of a partitioned loop's prologue, steady state and epilogue) is
// computed once, in a LetStmt at the top of the enclosing loop's body.
Stmt share_loop_invariants(const Stmt &s);

// SlidingWindow.cpp: a Func stored outside a serial loop and computed
// inside it computes, after the loop's first iteration, only the part of its
// region the previous iterations did not (line buffers).
Stmt sliding_window(const Stmt &s, const Environment &env);

// StorageFolding.cpp: a Func whose accesses within each iteration of a
// serial loop span a constant number of coordinates along a dimension (and
// move one way) is stored in that many (rounded up to a power of two),
// indexed modulo; Func::fold_storage asks for a given fold.
// Async Funcs (Func::async) are folded over two iterations of their loop
// where possible, so that the producer can run one iteration ahead; their
// names go into `run_ahead` (AsyncProducers.cpp reads it).
Stmt storage_folding(const Stmt &s, const Environment &env, std::set<std::string> *run_ahead = nullptr);

// StorageFlattening.cpp: Realize/Provide/calls to flat Allocate/Store/Load.
Stmt storage_flattening(const Stmt &s, const Environment &env);
// AsyncProducers.cpp: Funcs scheduled async() computed in tasks that run
// next to their consumers, synchronized with semaphores (the tasks encoded
// for codegen as async_fork / task_acquires / make_semaphore intrinsics).
Stmt fork_async_producers(const Stmt &s, const Environment &env, const std::set<std::string> &run_ahead);

// Memoize.cpp: Func::memoize. check_memoization refuses what upstream
// refuses (a memoized output, inline Func, or storage at another level than
// the computation); inject_memoization (after storage flattening) makes each
// memoized Func's storage come from the runtime's memoization cache and its
// production run only on a miss (see the file for the statement); a Param
// only an eviction key reads is added to p's arguments.
void check_memoization(const FunctionContents &f, const std::vector<FunctionPtr> &outputs);
Stmt inject_memoization(const Stmt &s, const Environment &env, LoweredPipeline &p);

// SkipStages.cpp: a Func's production runs (and its storage is allocated)
// only under the condition where its consumers read it, when that is known
// before the production (a specialization's branch, a select on a scalar
// Param, a memoized consumer's cache miss). After inject_memoization.
Stmt skip_stages(const Stmt &s, const Environment &env);

// HoistStorage.cpp: the Allocates of Funcs with hoist_storage() move out to
// that loop (hoist_storage_root: around the outermost loop), sized for the
// largest region of the loops they leave.
Stmt hoist_storage(const Stmt &s, const Environment &env);

// CheckMemoryTypes.cpp: refuses store_in() memory a CPU target can't give
// (Register of a size that is not a constant, AMXTile); returns s.
Stmt check_memory_types(const Stmt &s);

// Helpers shared by the passes.
Expr int32_const(int64_t v);
Expr var_int32(const std::string &name);
// `name.min.d`-style field variables of buffers and realizations.
Expr buffer_field(const std::string &buffer, const char *field, int d);
// The loop over `var` of stage `stage` (0: the pure definition, k: update k - 1).
std::string loop_var_name(const std::string &func, const std::string &var, int stage = 0);
// The LetStmts that open s (up to the first whose value `stop` accepts):
// returns the statement inside them, the lets outermost first, and a scope
// in which each is itself (kept symbolic by bounds inference).
struct OpeningLets {
    std::vector<const LetStmt *> lets;
    Scope symbolic;
    Stmt inside;
};
OpeningLets opening_lets(const Stmt &s, const std::function<bool(const Expr &)> &stop = nullptr);
// s inside those lets again (values mapped by `value`, if given).
Stmt wrap_in_lets(const OpeningLets &o, Stmt s, const std::function<Expr(const Expr &)> &value = nullptr);

} // namespace Internal
} // namespace Halide

#endif
