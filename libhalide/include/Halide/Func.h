// Halide::Func: a function over an infinite integer domain, defined by an
// expression of its Vars, with a schedule that says how to compute it.
#ifndef HALIDE_FUNC_H
#define HALIDE_FUNC_H

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "Halide/Argument.h"
#include "Halide/Buffer.h"
#include "Halide/Callable.h"
#include "Halide/Expr.h"
#include "Halide/ExternFuncArgument.h"
#include "Halide/Function.h"
#include "Halide/Param.h"
#include "Halide/Parameter.h"
#include "Halide/PrefetchDirective.h"
#include "Halide/RDom.h"
#include "Halide/Realization.h"
#include "Halide/Schedule.h"
#include "Halide/Target.h"
#include "Halide/Tuple.h"
#include "Halide/Var.h"

namespace Halide {

namespace Internal {
struct FunctionContents;
class IRMutator;
enum class ForType;
} // namespace Internal

class Func;
class Module;
class Pipeline;
struct CustomLoweringPass;
struct JITHandlers;

// A loop name in a schedule: a Var, or an RVar of an update definition.
class VarOrRVar {
public:
    VarOrRVar(const Var &v) : var(v), is_rvar(false) {}
    VarOrRVar(const RVar &r) : rvar(r), is_rvar(true) {}
    VarOrRVar(const RDom &r) : rvar(RVar(r)), is_rvar(true) {}
    VarOrRVar(const std::string &n, bool r) : var(n), rvar(n), is_rvar(r) {}
    const std::string &name() const { return is_rvar ? rvar.name() : var.name(); }

    Var var;
    RVar rvar;
    bool is_rvar;
};

// One definition of a Func (the pure one, or an update) as a thing to
// schedule: Func::update(i) returns the Stage of update i.
class Stage {
public:
    Stage(std::shared_ptr<Internal::FunctionContents> f, int stage) : f_(std::move(f)), stage_(stage) {}
    // A specialization of the stage: `path` indexes specializations, outermost first.
    Stage(std::shared_ptr<Internal::FunctionContents> f, int stage, std::vector<size_t> path)
        : f_(std::move(f)), stage_(stage), path_(std::move(path)) {}

    Stage &split(const VarOrRVar &old, const VarOrRVar &outer, const VarOrRVar &inner, const Expr &factor,
                 TailStrategy tail = TailStrategy::Auto);
    Stage &fuse(const VarOrRVar &inner, const VarOrRVar &outer, const VarOrRVar &fused);
    // Innermost first.
    Stage &reorder(const std::vector<VarOrRVar> &vars);
    template <typename... Vars> Stage &reorder(const VarOrRVar &v, const Vars &...rest) {
        return reorder(std::vector<VarOrRVar>{v, rest...});
    }
    Stage &tile(const VarOrRVar &x, const VarOrRVar &y, const VarOrRVar &xo, const VarOrRVar &yo, const VarOrRVar &xi,
                const VarOrRVar &yi, const Expr &xfactor, const Expr &yfactor, TailStrategy tail = TailStrategy::Auto);
    Stage &tile(const VarOrRVar &x, const VarOrRVar &y, const VarOrRVar &xi, const VarOrRVar &yi, const Expr &xfactor,
                const Expr &yfactor, TailStrategy tail = TailStrategy::Auto);
    // Any number of loops: previous[i] splits into outers[i] and inners[i]
    // by factors[i]; then the inner loops go innermost, in order. Without
    // outers, the outer loops keep the previous names.
    Stage &tile(const std::vector<VarOrRVar> &previous, const std::vector<VarOrRVar> &outers,
                const std::vector<VarOrRVar> &inners, const std::vector<Expr> &factors,
                const std::vector<TailStrategy> &tails);
    Stage &tile(const std::vector<VarOrRVar> &previous, const std::vector<VarOrRVar> &outers,
                const std::vector<VarOrRVar> &inners, const std::vector<Expr> &factors,
                TailStrategy tail = TailStrategy::Auto);
    Stage &tile(const std::vector<VarOrRVar> &previous, const std::vector<VarOrRVar> &inners,
                const std::vector<Expr> &factors, TailStrategy tail = TailStrategy::Auto);
    Stage &parallel(const VarOrRVar &v);
    Stage &parallel(const VarOrRVar &v, const Expr &task_size, TailStrategy tail = TailStrategy::Auto);
    Stage &vectorize(const VarOrRVar &v);
    Stage &vectorize(const VarOrRVar &v, const Expr &factor, TailStrategy tail = TailStrategy::Auto);
    Stage &unroll(const VarOrRVar &v);
    Stage &unroll(const VarOrRVar &v, const Expr &factor, TailStrategy tail = TailStrategy::Auto);
    Stage &serial(const VarOrRVar &v);
    // The loop `old_name` is called `new_name` from now on (a Var stays a
    // Var and an RVar an RVar; the new name must not name another loop).
    Stage &rename(const VarOrRVar &old_name, const VarOrRVar &new_name);
    // Loop partitioning of this stage's loops (see Partition).
    Stage &partition(const VarOrRVar &v, Partition policy);
    Stage &never_partition(const std::vector<VarOrRVar> &vars);
    Stage &always_partition(const std::vector<VarOrRVar> &vars);
    template <typename... Vars> Stage &never_partition(const VarOrRVar &v, const Vars &...rest) {
        return never_partition(std::vector<VarOrRVar>{v, rest...});
    }
    template <typename... Vars> Stage &always_partition(const VarOrRVar &v, const Vars &...rest) {
        return always_partition(std::vector<VarOrRVar>{v, rest...});
    }
    Stage &never_partition_all();
    Stage &always_partition_all();
    // Parallel or vectorized RVars are refused when iterations may update
    // the same point; this accepts them anyway (the result may then vary).
    Stage &allow_race_conditions();
    // Splits an associative update (f(x) = f(x) op g with op +, *, min,
    // max, &&, ||; Tuples element by element) in two: the returned Func
    // reduces over the other RVars for each value of every preserved RVar,
    // which becomes the pure Var paired with it, and this update then
    // combines those partial results over the preserved RVars alone. Call it
    // before scheduling this stage's pure Vars or loop types; RVars split
    // or fused by this stage can be preserved.
    Func rfactor(std::vector<std::pair<RVar, Var>> preserved);
    Func rfactor(const RVar &r, const Var &v);
    // Marks an associative update atomic: each point's read-modify-write is
    // done as one step, so RVars may be parallel even where iterations
    // update the same point. override_associativity_test skips the check.
    Stage &atomic(bool override_associativity_test = false);
    // A version of this stage run where `condition` (a bool of Params and
    // buffer fields) holds, with its own schedule: a copy of this one so far.
    // The first specialization whose condition holds runs; asking again with
    // the same condition returns the same one.
    Stage specialize(const Expr &condition);
    // Where no specialization's condition holds, running the pipeline is an
    // error with `message`. Ends the chain: no specializations after it.
    void specialize_fail(const std::string &message);

    // "f.update(0)"-style name, as upstream's messages use.
    std::string name() const;
    // GPU and Hexagon scheduling, with upstream's signatures: accepted and
    // recorded (gpu_tile splits as tile() does), but this compiler has no
    // GPU or Hexagon backend, so compiling a pipeline that uses them fails
    // with a CompileError naming the device the schedule requires.
    Stage &gpu_threads(const VarOrRVar &thread_x, DeviceAPI device_api = DeviceAPI::Default_GPU);
    Stage &gpu_threads(const VarOrRVar &thread_x, const VarOrRVar &thread_y,
                       DeviceAPI device_api = DeviceAPI::Default_GPU);
    Stage &gpu_threads(const VarOrRVar &thread_x, const VarOrRVar &thread_y, const VarOrRVar &thread_z,
                       DeviceAPI device_api = DeviceAPI::Default_GPU);
    Stage &gpu_lanes(const VarOrRVar &thread_x, DeviceAPI device_api = DeviceAPI::Default_GPU);
    Stage &gpu_single_thread(DeviceAPI device_api = DeviceAPI::Default_GPU);
    Stage &gpu_blocks(const VarOrRVar &block_x, DeviceAPI device_api = DeviceAPI::Default_GPU);
    Stage &gpu_blocks(const VarOrRVar &block_x, const VarOrRVar &block_y,
                      DeviceAPI device_api = DeviceAPI::Default_GPU);
    Stage &gpu_blocks(const VarOrRVar &block_x, const VarOrRVar &block_y, const VarOrRVar &block_z,
                      DeviceAPI device_api = DeviceAPI::Default_GPU);
    Stage &gpu(const VarOrRVar &block_x, const VarOrRVar &thread_x, DeviceAPI device_api = DeviceAPI::Default_GPU);
    Stage &gpu(const VarOrRVar &block_x, const VarOrRVar &block_y, const VarOrRVar &thread_x, const VarOrRVar &thread_y,
               DeviceAPI device_api = DeviceAPI::Default_GPU);
    Stage &gpu(const VarOrRVar &block_x, const VarOrRVar &block_y, const VarOrRVar &block_z, const VarOrRVar &thread_x,
               const VarOrRVar &thread_y, const VarOrRVar &thread_z, DeviceAPI device_api = DeviceAPI::Default_GPU);
    Stage &gpu_tile(const VarOrRVar &x, const VarOrRVar &bx, const VarOrRVar &tx, const Expr &x_size,
                    TailStrategy tail = TailStrategy::Auto, DeviceAPI device_api = DeviceAPI::Default_GPU);
    Stage &gpu_tile(const VarOrRVar &x, const VarOrRVar &tx, const Expr &x_size, TailStrategy tail = TailStrategy::Auto,
                    DeviceAPI device_api = DeviceAPI::Default_GPU);
    Stage &gpu_tile(const VarOrRVar &x, const VarOrRVar &y, const VarOrRVar &bx, const VarOrRVar &by,
                    const VarOrRVar &tx, const VarOrRVar &ty, const Expr &x_size, const Expr &y_size,
                    TailStrategy tail = TailStrategy::Auto, DeviceAPI device_api = DeviceAPI::Default_GPU);
    Stage &gpu_tile(const VarOrRVar &x, const VarOrRVar &y, const VarOrRVar &tx, const VarOrRVar &ty,
                    const Expr &x_size, const Expr &y_size, TailStrategy tail = TailStrategy::Auto,
                    DeviceAPI device_api = DeviceAPI::Default_GPU);
    Stage &gpu_tile(const VarOrRVar &x, const VarOrRVar &y, const VarOrRVar &z, const VarOrRVar &bx,
                    const VarOrRVar &by, const VarOrRVar &bz, const VarOrRVar &tx, const VarOrRVar &ty,
                    const VarOrRVar &tz, const Expr &x_size, const Expr &y_size, const Expr &z_size,
                    TailStrategy tail = TailStrategy::Auto, DeviceAPI device_api = DeviceAPI::Default_GPU);
    Stage &gpu_tile(const VarOrRVar &x, const VarOrRVar &y, const VarOrRVar &z, const VarOrRVar &tx,
                    const VarOrRVar &ty, const VarOrRVar &tz, const Expr &x_size, const Expr &y_size,
                    const Expr &z_size, TailStrategy tail = TailStrategy::Auto,
                    DeviceAPI device_api = DeviceAPI::Default_GPU);
    Stage &hexagon(const VarOrRVar &x = Var::outermost());

    // Fuses this stage's loops, from the outermost down to `var`, with the
    // same number of outermost loops of stage `s` (the parent), which must
    // have a loop named `var`: one loop nest runs both, the parent's body
    // first in each fused iteration. Both Funcs must be computed at the
    // same level and neither may depend on the other. Where the loop ranges
    // differ, `align` says how they line up (per fused loop, or one
    // strategy for all; see LoopAlignStrategy). The results do not change.
    Stage &compute_with(const Stage &s, const VarOrRVar &var,
                        const std::vector<std::pair<VarOrRVar, LoopAlignStrategy>> &align);
    Stage &compute_with(const Stage &s, const VarOrRVar &var, LoopAlignStrategy align = LoopAlignStrategy::Auto);
    // The same, at a LoopLevel (resolved when the pipeline is compiled).
    Stage &compute_with(const LoopLevel &loop_level, const std::vector<std::pair<VarOrRVar, LoopAlignStrategy>> &align);
    Stage &compute_with(const LoopLevel &loop_level, LoopAlignStrategy align = LoopAlignStrategy::Auto);

    // Prefetches, at the top of each iteration of this stage's loop `at`, what the
    // iteration `offset` steps later along loop `from` (`at` or a loop outside it)
    // reads of `f` or of an input buffer (ImageParam, Buffer, Parameter): one
    // prefetch (x86: prefetcht0) per cache line; PrefetchBoundStrategy says what
    // happens at the edges. Results never change; `from` inside `at` is an error.
    Stage &prefetch(const Func &f, const VarOrRVar &at, const VarOrRVar &from, Expr offset = 1,
                    PrefetchBoundStrategy strategy = PrefetchBoundStrategy::GuardWithIf);
    Stage &prefetch(const Parameter &param, const VarOrRVar &at, const VarOrRVar &from, Expr offset = 1,
                    PrefetchBoundStrategy strategy = PrefetchBoundStrategy::GuardWithIf);
    template <typename T>
    Stage &prefetch(const T &image, const VarOrRVar &at, const VarOrRVar &from, Expr offset = 1,
                    PrefetchBoundStrategy strategy = PrefetchBoundStrategy::GuardWithIf) {
        return prefetch(image.parameter(), at, from, std::move(offset), strategy);
    }
    // Says this stage is left with the default schedule on purpose: no
    // warning that an update was forgotten while other definitions of the
    // Func were scheduled. An error on a stage already scheduled (this
    // counts as scheduling it, so twice is an error too).
    void unscheduled();
    // The stage's loops after its splits and fuses, innermost first, as
    // "Vars: x y __outermost\n".
    std::string dump_argument_list() const;
    // The stage's schedule as it is now, for reading (its loops, splits,
    // RVars, prefetches, compute_with). The object belongs to the Func and
    // lives as long as it; each call brings it up to date.
    const Internal::StageSchedule &get_schedule() const;

private:
    Stage &set_loop_type(const VarOrRVar &v, Internal::ForType type, const char *what);
    std::shared_ptr<Internal::FunctionContents> f_;
    int stage_;
    std::vector<size_t> path_;
};

// The eviction key of a memoized Func (Func::memoize): an integer or
// handle Expr, widened to uint64, that tags the cache entries the Func
// stores so that halide_memoization_cache_evict(key) can drop them.
class EvictionKey {
protected:
    Expr key;
    friend class Func;

public:
    explicit EvictionKey(const Expr &expr = Expr()) : key(expr) {}
};

// f(x, y): the left side of a definition, or a call inside an expression.
class FuncTupleElementRef;

class FuncRef {
public:
    FuncRef(std::shared_ptr<Internal::FunctionContents> f, std::vector<Expr> args);
    // Copies refer to the same point (assignment, below, defines the Func).
    FuncRef(const FuncRef &) = default;
    // Defines the Func: every argument must be a distinct Var. Each
    // definition returns the Stage it made (as upstream's), to schedule.
    Stage operator=(const Expr &value);
    Stage operator=(const Tuple &values);
    // f(x) = g(x): all of g's values when g is Tuple-valued.
    Stage operator=(const FuncRef &other);
    // A call of a single-valued Func.
    operator Expr() const;
    // Value i of a Func defined with a Tuple: reads as that value and, on
    // the left of an assignment, updates it alone.
    FuncTupleElementRef operator[](int i) const;
    // How many values the Func has (1 unless defined with a Tuple).
    size_t size() const;

    // Update definitions: f(x) = f(x) + e, written f(x) += e. On a Func not
    // yet defined, these first define it as 0 (+=, -=) or 1 (*=, /=).
    Stage operator+=(const Expr &e);
    Stage operator-=(const Expr &e);
    Stage operator*=(const Expr &e);
    Stage operator/=(const Expr &e);
    Stage operator+=(const FuncRef &e) { return *this += Expr(e); }
    Stage operator-=(const FuncRef &e) { return *this -= Expr(e); }
    Stage operator*=(const FuncRef &e) { return *this *= Expr(e); }
    Stage operator/=(const FuncRef &e) { return *this /= Expr(e); }
    // The same, value by value, for a Func defined with a Tuple (of as many
    // values); an undefined Func is first defined as a Tuple of 0s or 1s.
    Stage operator+=(const Tuple &t);
    Stage operator-=(const Tuple &t);
    Stage operator*=(const Tuple &t);
    Stage operator/=(const Tuple &t);

private:
    friend class FuncTupleElementRef;
    void define(const std::vector<Expr> &values);
    // An update of value i alone (the others undef: left as they are).
    void define_element(int i, const Expr &value);
    void define_pure(const std::vector<Expr> &values);
    void define_update(const std::vector<Expr> &values);
    // f(args) op= e: defines f as `identity` first if need be.
    Stage update_with(const Expr &e, const Expr &identity, Expr (*op)(const Expr &, const Expr &));
    Stage update_with(const Tuple &t, const Expr &identity, Expr (*op)(const Expr &, const Expr &));
    // The stage the last definition made.
    Stage last_stage() const;
    Expr call(int value_index) const;
    std::shared_ptr<Internal::FunctionContents> f_;
    std::vector<Expr> args_;
};

// f(args)[i]: value i of a Tuple-valued Func at a point. It is the Expr
// that reads that value; assigned to (=, +=, -=, *=, /=) it defines an
// update of value i alone, the other values kept, as upstream's.
class FuncTupleElementRef : public Expr {
public:
    FuncTupleElementRef(const FuncRef &ref, int index);
    FuncTupleElementRef(const FuncTupleElementRef &) = default;
    // Each returns the update Stage it defined, as upstream's.
    Stage operator=(const Expr &e);
    Stage operator=(const FuncTupleElementRef &e) { return *this = Expr(e); }
    Stage operator=(const FuncRef &e) { return *this = Expr(e); }
    Stage operator+=(const Expr &e) { return *this = Expr(*this) + e; }
    Stage operator-=(const Expr &e) { return *this = Expr(*this) - e; }
    Stage operator*=(const Expr &e) { return *this = Expr(*this) * e; }
    Stage operator/=(const Expr &e) { return *this = Expr(*this) / e; }
    // Which value of the Tuple this is.
    int index() const { return index_; }

private:
    FuncRef ref_;
    int index_;
};

class Func {
public:
    Func();
    explicit Func(const std::string &name);
    explicit Func(const char *name) : Func(std::string(name)) {}
    // A Func whose definition must have these value types and this many
    // dimensions (upstream's "is constrained to ..." errors otherwise); before
    // it is defined, type(), types() and dimensions() report them.
    explicit Func(const Type &required_type, int required_dims, const std::string &name);
    explicit Func(const std::vector<Type> &required_types, int required_dims, const std::string &name);
    // A zero-dimensional Func whose value is `e`.
    explicit Func(const Expr &e);
    // A handle on an existing Func's contents (as rfactor() returns).
    explicit Func(std::shared_ptr<Internal::FunctionContents> f);
    explicit Func(const Internal::Function &f) : Func(f.get_contents()) {}
    // A new Func f(_0, _1, ...) = im(_0, _1, ...) over the buffer.
    template <typename T, int Dims> explicit Func(Buffer<T, Dims> &im) : Func() { define_as_call_of(Buffer<>(im)); }

    const std::string &name() const;
    bool defined() const;
    int dimensions() const;
    std::vector<Var> args() const;
    Expr value() const;
    // The values of the pure definition (one for a Func not defined with a Tuple).
    Tuple values() const;
    Type type() const;
    std::vector<Type> output_types() const;
    std::vector<Type> types() const; // as output_types(), or the required types before a definition
    // How many values it computes (> 1 when defined with a Tuple).
    int outputs() const;

    // Update definitions (f(x) += ..., f(r.x) = ...), in the order made.
    bool has_update_definition() const;
    int num_update_definitions() const;
    const std::vector<Expr> &update_args(int idx = 0) const;
    Expr update_value(int idx = 0) const;
    Tuple update_values(int idx = 0) const;
    // The schedule of update `idx`.
    Stage update(int idx = 0);
    // The RVars of update `idx`'s reduction domain (none if it has none).
    std::vector<RVar> rvars(int idx = 0) const;
    operator Stage() const { return Stage(f_, 0); }

    template <typename... Args> FuncRef operator()(const Args &...args) const {
        return (*this)(std::vector<Expr>{Expr(args)...});
    }
    FuncRef operator()(std::vector<Expr> args) const;
    FuncRef operator()(const std::vector<Var> &args) const;

    // Schedule. Inlined into its callers by default. A schedule never
    // changes results. Vars name the Func's current loops.
    Func &compute_root();
    Func &compute_inline();
    // Keeps the results of this (non-output, not inlined) Func in the
    // runtime's memoization cache across calls of the pipeline, keyed by
    // the region computed and the Params its definition (and the Funcs it
    // calls) reads: a later call needing the same region with the same
    // values reuses them instead of computing again. With an eviction key,
    // halide_memoization_cache_evict(key) drops the entries it stored. The
    // cache size is halide_memoization_cache_set_size (1 MiB by default).
    Func &memoize(const EvictionKey &eviction_key = EvictionKey());
    // Computed (and stored) inside `f`'s loop over `var`, over the region
    // one iteration of that loop needs.
    Func &compute_at(const Func &f, const Var &var);
    Func &compute_at(const Func &f, const RVar &var) { return compute_at(f, Var(var.name())); }
    // Storage at the root, or at `f`'s loop over `var` (at or outside the
    // compute level); by default it is where the Func is computed.
    Func &store_root();
    Func &store_at(const Func &f, const Var &var);
    Func &store_at(const Func &f, const RVar &var) { return store_at(f, Var(var.name())); }
    // At a LoopLevel: root, inlined, or a loop. The level is read when the
    // pipeline is compiled, so a later level.set(...) counts.
    Func &compute_at(const LoopLevel &loop_level);
    Func &store_at(const LoopLevel &loop_level);
    Func &hoist_storage(const LoopLevel &loop_level);
    // See Stage::compute_with (of the pure definition).
    Func &compute_with(const Stage &s, const VarOrRVar &var,
                       const std::vector<std::pair<VarOrRVar, LoopAlignStrategy>> &align);
    Func &compute_with(const Stage &s, const VarOrRVar &var, LoopAlignStrategy align = LoopAlignStrategy::Auto);
    Func &compute_with(const LoopLevel &loop_level, const std::vector<std::pair<VarOrRVar, LoopAlignStrategy>> &align);
    Func &compute_with(const LoopLevel &loop_level, LoopAlignStrategy align = LoopAlignStrategy::Auto);

    // The region of `var` this Func is computed over is exactly
    // [min, min + extent): a consumer needing more is a runtime error.
    Func &bound(const Var &var, const Expr &min, const Expr &extent);
    // The region this output is expected to cover (constants), reported in
    // ahead-of-time metadata (buffer_estimates) for tools such as autoschedulers.
    Func &set_estimates(const Region &estimates);
    // The same for the one dimension `var` (the others stay unknown).
    Func &set_estimate(const Var &var, const Expr &min, const Expr &extent);
    // Rounds the region computed over `var` out to multiples of `modulus`
    // (offset by `remainder`).
    Func &align_bounds(const Var &var, const Expr &modulus, const Expr &remainder = 0);
    // Rounds the extent of the region computed over `var` up to a multiple
    // of `modulus`, keeping its min (Funcs other than outputs).
    Func &align_extent(const Var &var, Expr modulus);
    // The region computed over `var` is `extent` wide from the min its
    // consumers need (from the output buffer's min for an output, whose
    // buffer must be exactly that wide): a consumer needing more is a runtime error.
    Func &bound_extent(const Var &var, Expr extent);
    // Pads the storage of dimension `dim` to a multiple of `alignment`
    // coordinates, so the strides of the dimensions stored outside it are
    // multiples of it.
    Func &align_storage(const Var &dim, const Expr &alignment);
    // Store only `extent` coordinates of dimension `dim`, indexed modulo
    // `extent` (a circular buffer); `fold_forward`: accesses move towards
    // larger coordinates (false: smaller). Checked when compiled (and, when
    // the region's size is not a constant, when run).
    Func &fold_storage(const Var &dim, const Expr &extent, bool fold_forward = true);
    // Pipeline::add_custom_lowering_pass and friends, for pipeline().
    void add_custom_lowering_pass(Internal::IRMutator *pass, std::function<void()> deleter);
    template <typename T> void add_custom_lowering_pass(T *pass) {
        add_custom_lowering_pass(pass, [pass]() { delete pass; });
    }
    void clear_custom_lowering_passes();
    const std::vector<CustomLoweringPass> &custom_lowering_passes();

    // The kind of memory its storage lives in (see MemoryType).
    Func &store_in(MemoryType memory_type);
    // Allocate the storage once, outside the loops it is stored in, at the
    // root or at `f`'s loop over `var` (outside its store level): sized for
    // the largest region any iteration needs (the size must then have an
    // upper bound there). Indexing stays per iteration (unlike store_at).
    Func &hoist_storage(const Func &f, const Var &var);
    Func &hoist_storage(const Func &f, const RVar &var) { return hoist_storage(f, Var(var.name())); }
    Func &hoist_storage_root();
    // Store `bound` coordinates of dimension `dim` whatever the region
    // computed is (a constant allocation size); a region wider than that is
    // an error when the pipeline runs.
    Func &bound_storage(const Var &dim, const Expr &bound);
    // Memory layout of a realized Func: the first Var has stride 1.
    Func &reorder_storage(const std::vector<Var> &dims);
    template <typename... Vars> Func &reorder_storage(const Var &v, const Vars &...rest) {
        return reorder_storage(std::vector<Var>{v, rest...});
    }

    // The pure definition's loops: as Stage's (upstream's signatures).
    Func &split(const VarOrRVar &old, const VarOrRVar &outer, const VarOrRVar &inner, const Expr &factor,
                TailStrategy tail = TailStrategy::Auto);
    Func &fuse(const VarOrRVar &inner, const VarOrRVar &outer, const VarOrRVar &fused);
    // Innermost first.
    Func &reorder(const std::vector<VarOrRVar> &vars);
    template <typename... Vars> Func &reorder(const VarOrRVar &v, const Vars &...rest) {
        return reorder(std::vector<VarOrRVar>{v, rest...});
    }
    Func &tile(const VarOrRVar &x, const VarOrRVar &y, const VarOrRVar &xo, const VarOrRVar &yo, const VarOrRVar &xi,
               const VarOrRVar &yi, const Expr &xfactor, const Expr &yfactor, TailStrategy tail = TailStrategy::Auto);
    Func &tile(const VarOrRVar &x, const VarOrRVar &y, const VarOrRVar &xi, const VarOrRVar &yi, const Expr &xfactor,
               const Expr &yfactor, TailStrategy tail = TailStrategy::Auto);
    Func &tile(const std::vector<VarOrRVar> &previous, const std::vector<VarOrRVar> &outers,
               const std::vector<VarOrRVar> &inners, const std::vector<Expr> &factors,
               const std::vector<TailStrategy> &tails);
    Func &tile(const std::vector<VarOrRVar> &previous, const std::vector<VarOrRVar> &outers,
               const std::vector<VarOrRVar> &inners, const std::vector<Expr> &factors,
               TailStrategy tail = TailStrategy::Auto);
    Func &tile(const std::vector<VarOrRVar> &previous, const std::vector<VarOrRVar> &inners,
               const std::vector<Expr> &factors, TailStrategy tail = TailStrategy::Auto);
    Func &parallel(const VarOrRVar &v);
    Func &parallel(const VarOrRVar &v, const Expr &task_size, TailStrategy tail = TailStrategy::Auto);
    Func &vectorize(const VarOrRVar &v);
    Func &vectorize(const VarOrRVar &v, const Expr &factor, TailStrategy tail = TailStrategy::Auto);
    Func &unroll(const VarOrRVar &v);
    Func &unroll(const VarOrRVar &v, const Expr &factor, TailStrategy tail = TailStrategy::Auto);
    // Ours: an int factor, so a GeneratorParam<int> (which converts to int,
    // not to Expr, here) can be the factor.
    Func &vectorize(const VarOrRVar &v, int factor, TailStrategy tail = TailStrategy::Auto) {
        return vectorize(v, Expr(factor), tail);
    }
    Func &unroll(const VarOrRVar &v, int factor, TailStrategy tail = TailStrategy::Auto) {
        return unroll(v, Expr(factor), tail);
    }
    Func &serial(const VarOrRVar &v);
    // See Stage::rename (of the pure definition).
    Func &rename(const VarOrRVar &old_name, const VarOrRVar &new_name);
    Func &partition(const VarOrRVar &v, Partition policy);
    Func &never_partition(const std::vector<VarOrRVar> &vars);
    Func &always_partition(const std::vector<VarOrRVar> &vars);
    template <typename... Vars> Func &never_partition(const VarOrRVar &v, const Vars &...rest) {
        return never_partition(std::vector<VarOrRVar>{v, rest...});
    }
    template <typename... Vars> Func &always_partition(const VarOrRVar &v, const Vars &...rest) {
        return always_partition(std::vector<VarOrRVar>{v, rest...});
    }
    Func &never_partition_all();
    Func &always_partition_all();
    // See Stage::specialize and Stage::specialize_fail (of the pure definition).
    Stage specialize(const Expr &condition);
    void specialize_fail(const std::string &message);

    // JIT-compiles (cached until the pipeline changes) and runs.
    // The Func over `sizes` (none for a 0-D Func): one buffer, or one per
    // value of a Tuple. A default Target() means the JIT's; the JIT makes
    // code for this machine only. With a JITUserContext, as
    // Pipeline::realize.
    Realization realize(std::vector<int32_t> sizes = {}, const Target &target = Target());
    Realization realize(JITUserContext *context, std::vector<int32_t> sizes = {}, const Target &target = Target());
    void realize(const Realization &dst, const Target &target = Target());
    void realize(JITUserContext *context, const Realization &dst, const Target &target = Target());
    template <typename T, int D> void realize(Buffer<T, D> dst, const Target &target = Target()) {
        realize(nullptr, Realization({Buffer<>(dst)}), target);
    }
    template <typename T, int D>
    void realize(JITUserContext *context, Buffer<T, D> dst, const Target &target = Target()) {
        realize(context, Realization({Buffer<>(dst)}), target);
    }
    // f.realize({a, b}) for a Tuple, a Runtime::Buffer or a halide_buffer_t *
    // (upstream's Pipeline::RealizationArg, Realization.h).
    void realize(Internal::RealizationArg outputs, const Target &target = Target()) {
        realize(nullptr, outputs.realization(), target);
    }
    void realize(JITUserContext *context, Internal::RealizationArg outputs, const Target &target = Target()) {
        realize(context, outputs.realization(), target);
    }
    // Compiles for `target` (the JIT's when not given; the JIT makes code
    // for this machine only) ahead of the first realize.
    void compile_jit(const Target &target = get_jit_target_from_environment());

    // For people: the lowered loop nest, LLVM IR and assembly of this
    // pipeline (compiled for the host, as the JIT does).
    std::string lowered_stmt();
    // Ahead-of-time compilation: see Pipeline (these compile Pipeline(*this)).
    void compile_to(const std::map<OutputFileType, std::string> &output_files, const std::vector<Argument> &args,
                    const std::string &fn_name, const Target &target = get_target_from_environment());
    void compile_to_object(const std::string &filename, const std::vector<Argument> &args, const std::string &fn_name,
                           const Target &target = get_target_from_environment());
    void compile_to_header(const std::string &filename, const std::vector<Argument> &args, const std::string &fn_name,
                           const Target &target = get_target_from_environment());
    // GPU and Hexagon scheduling, with upstream's signatures: accepted and
    // recorded (gpu_tile splits as tile() does), but this compiler has no
    // GPU or Hexagon backend, so compiling a pipeline that uses them fails
    // with a CompileError naming the device the schedule requires.
    Func &gpu_threads(const VarOrRVar &thread_x, DeviceAPI device_api = DeviceAPI::Default_GPU);
    Func &gpu_threads(const VarOrRVar &thread_x, const VarOrRVar &thread_y,
                      DeviceAPI device_api = DeviceAPI::Default_GPU);
    Func &gpu_threads(const VarOrRVar &thread_x, const VarOrRVar &thread_y, const VarOrRVar &thread_z,
                      DeviceAPI device_api = DeviceAPI::Default_GPU);
    Func &gpu_lanes(const VarOrRVar &thread_x, DeviceAPI device_api = DeviceAPI::Default_GPU);
    Func &gpu_single_thread(DeviceAPI device_api = DeviceAPI::Default_GPU);
    Func &gpu_blocks(const VarOrRVar &block_x, DeviceAPI device_api = DeviceAPI::Default_GPU);
    Func &gpu_blocks(const VarOrRVar &block_x, const VarOrRVar &block_y, DeviceAPI device_api = DeviceAPI::Default_GPU);
    Func &gpu_blocks(const VarOrRVar &block_x, const VarOrRVar &block_y, const VarOrRVar &block_z,
                     DeviceAPI device_api = DeviceAPI::Default_GPU);
    Func &gpu(const VarOrRVar &block_x, const VarOrRVar &thread_x, DeviceAPI device_api = DeviceAPI::Default_GPU);
    Func &gpu(const VarOrRVar &block_x, const VarOrRVar &block_y, const VarOrRVar &thread_x, const VarOrRVar &thread_y,
              DeviceAPI device_api = DeviceAPI::Default_GPU);
    Func &gpu(const VarOrRVar &block_x, const VarOrRVar &block_y, const VarOrRVar &block_z, const VarOrRVar &thread_x,
              const VarOrRVar &thread_y, const VarOrRVar &thread_z, DeviceAPI device_api = DeviceAPI::Default_GPU);
    Func &gpu_tile(const VarOrRVar &x, const VarOrRVar &bx, const VarOrRVar &tx, const Expr &x_size,
                   TailStrategy tail = TailStrategy::Auto, DeviceAPI device_api = DeviceAPI::Default_GPU);
    Func &gpu_tile(const VarOrRVar &x, const VarOrRVar &tx, const Expr &x_size, TailStrategy tail = TailStrategy::Auto,
                   DeviceAPI device_api = DeviceAPI::Default_GPU);
    Func &gpu_tile(const VarOrRVar &x, const VarOrRVar &y, const VarOrRVar &bx, const VarOrRVar &by,
                   const VarOrRVar &tx, const VarOrRVar &ty, const Expr &x_size, const Expr &y_size,
                   TailStrategy tail = TailStrategy::Auto, DeviceAPI device_api = DeviceAPI::Default_GPU);
    Func &gpu_tile(const VarOrRVar &x, const VarOrRVar &y, const VarOrRVar &tx, const VarOrRVar &ty, const Expr &x_size,
                   const Expr &y_size, TailStrategy tail = TailStrategy::Auto,
                   DeviceAPI device_api = DeviceAPI::Default_GPU);
    Func &gpu_tile(const VarOrRVar &x, const VarOrRVar &y, const VarOrRVar &z, const VarOrRVar &bx, const VarOrRVar &by,
                   const VarOrRVar &bz, const VarOrRVar &tx, const VarOrRVar &ty, const VarOrRVar &tz,
                   const Expr &x_size, const Expr &y_size, const Expr &z_size, TailStrategy tail = TailStrategy::Auto,
                   DeviceAPI device_api = DeviceAPI::Default_GPU);
    Func &gpu_tile(const VarOrRVar &x, const VarOrRVar &y, const VarOrRVar &z, const VarOrRVar &tx, const VarOrRVar &ty,
                   const VarOrRVar &tz, const Expr &x_size, const Expr &y_size, const Expr &z_size,
                   TailStrategy tail = TailStrategy::Auto, DeviceAPI device_api = DeviceAPI::Default_GPU);
    Func &hexagon(const VarOrRVar &x = Var::outermost());
    void compile_to_assembly(const std::string &filename, const std::vector<Argument> &args, const std::string &fn_name,
                             const Target &target = get_target_from_environment());
    void compile_to_bitcode(const std::string &filename, const std::vector<Argument> &args, const std::string &fn_name,
                            const Target &target = get_target_from_environment());
    void compile_to_llvm_assembly(const std::string &filename, const std::vector<Argument> &args,
                                  const std::string &fn_name, const Target &target = get_target_from_environment());
    // Without a function name: the Func's own name, as upstream's.
    void compile_to_object(const std::string &filename, const std::vector<Argument> &args,
                           const Target &target = get_target_from_environment());
    void compile_to_assembly(const std::string &filename, const std::vector<Argument> &args,
                             const Target &target = get_target_from_environment());
    void compile_to_bitcode(const std::string &filename, const std::vector<Argument> &args,
                            const Target &target = get_target_from_environment());
    void compile_to_llvm_assembly(const std::string &filename, const std::vector<Argument> &args,
                                  const Target &target = get_target_from_environment());
    // C++ source defining the same entry points as the object (OutputFileType::c_source).
    void compile_to_c(const std::string &filename, const std::vector<Argument> &args, const std::string &fn_name = "",
                      const Target &target = get_target_from_environment());
    void compile_to_lowered_stmt(const std::string &filename, const std::vector<Argument> &args,
                                 const Target &target = get_target_from_environment());
    void compile_to_static_library(const std::string &filename_prefix, const std::vector<Argument> &args,
                                   const std::string &fn_name = "",
                                   const Target &target = get_target_from_environment());
    void compile_to_file(const std::string &filename_prefix, const std::vector<Argument> &args,
                         const std::string &fn_name = "", const Target &target = get_target_from_environment());
    // See Module.h: the pipeline lowered for `target`, not yet written.
    Module compile_to_module(const std::vector<Argument> &args, const std::string &fn_name = "",
                             const Target &target = get_target_from_environment());
    void compile_to_multitarget_static_library(const std::string &filename_prefix, const std::vector<Argument> &args,
                                               const std::vector<Target> &targets);
    void compile_to_multitarget_object_files(const std::string &filename_prefix, const std::vector<Argument> &args,
                                             const std::vector<Target> &targets,
                                             const std::vector<std::string> &suffixes);
    void compile_to_lowered_stmt(const std::string &filename, const std::vector<Argument> &args, StmtOutputFormat fmt,
                                 const Target &target = get_target_from_environment());
    void compile_to_conceptual_stmt(const std::string &filename, const std::vector<Argument> &args,
                                    StmtOutputFormat fmt = StmtOutputFormat::Text,
                                    const Target &target = get_target_from_environment());
    // See Pipeline::print_loop_nest.
    void print_loop_nest();
    std::string llvm_ir();
    std::string assembly();

    // See Pipeline (these use Pipeline(*this)).
    Callable compile_to_callable(const std::vector<Argument> &args,
                                 const Target &target = get_jit_target_from_environment());
    void infer_input_bounds(const std::vector<int32_t> &sizes,
                            const Target &target = get_jit_target_from_environment());
    void infer_input_bounds(const Realization &dst, const Target &target = get_jit_target_from_environment());
    void infer_input_bounds(JITUserContext *context, const std::vector<int32_t> &sizes,
                            const Target &target = get_jit_target_from_environment());
    void infer_input_bounds(JITUserContext *context, const Realization &dst,
                            const Target &target = get_jit_target_from_environment());
    template <typename T, int D>
    void infer_input_bounds(const Buffer<T, D> &dst, const Target &target = get_jit_target_from_environment()) {
        infer_input_bounds(Realization({Buffer<>(dst)}), target);
    }
    void infer_input_bounds(Internal::RealizationArg outputs,
                            const Target &target = get_jit_target_from_environment()) {
        infer_input_bounds(outputs.realization(), target);
    }
    void infer_input_bounds(JITUserContext *context, Internal::RealizationArg outputs,
                            const Target &target = get_jit_target_from_environment()) {
        infer_input_bounds(context, outputs.realization(), target);
    }
    std::vector<Argument> infer_arguments();

    // Wrappers: a new Func with this one's arguments and values
    // (w(x, y) = f(x, y)) that `consumer` (or each of `consumers`; with no
    // argument, every other Func) calls instead of this one, so it can be
    // scheduled separately for them, e.g. f.in(g).compute_at(g, x). Asking
    // again for the same consumers returns the same wrapper.
    Func in(const Func &consumer);
    Func in(const std::vector<Func> &consumers);
    Func in();
    // A copy of this Func's definitions (pure and updates) and schedule,
    // called `<f>_clone_in_<consumer>`, that replaces it in the consumers
    // given; unlike a wrapper it does not call this Func, so the two are
    // computed independently. Asking again for the same consumers returns
    // the same clone.
    Func clone_in(const Func &consumer);
    Func clone_in(const std::vector<Func> &consumers);
    // Accepted as upstream's schedule directive; this compiler still
    // computes the Func synchronously (same results, no extra thread).
    Func &async();
    // Upstream's ring buffering of hoisted storage (for async producers):
    // `extent` copies of the storage. It needs a hoist_storage() level
    // outside the store level (checked when compiled, as upstream); as this
    // compiler runs producers synchronously, one copy is kept.
    Func &ring_buffer(Expr extent);
    // A Func defined as a plain copy of another (f(x, y) = g(x, y), as
    // in() makes) computed by a buffer copy to the device `d` / to the host.
    // On the host the copy is the Func's own loop nest; another device is
    // refused when compiled (no GPU backend). The Func called must not be
    // inlined. Returns this Func.
    Func copy_to_device(DeviceAPI d = DeviceAPI::Default_GPU);
    Func copy_to_host();
    // See Stage::prefetch (of the pure definition).
    Func &prefetch(const Func &f, const VarOrRVar &at, const VarOrRVar &from, Expr offset = 1,
                   PrefetchBoundStrategy strategy = PrefetchBoundStrategy::GuardWithIf);
    Func &prefetch(const Parameter &param, const VarOrRVar &at, const VarOrRVar &from, Expr offset = 1,
                   PrefetchBoundStrategy strategy = PrefetchBoundStrategy::GuardWithIf);
    template <typename T>
    Func &prefetch(const T &image, const VarOrRVar &at, const VarOrRVar &from, Expr offset = 1,
                   PrefetchBoundStrategy strategy = PrefetchBoundStrategy::GuardWithIf) {
        return prefetch(image.parameter(), at, from, std::move(offset), strategy);
    }
    // Upstream applies these to the pure definition, which can't race:
    // accepted (see Stage::atomic and Stage::allow_race_conditions for updates).
    Func &atomic(bool override_associativity_test = false);
    Func &allow_race_conditions();
    // Every run writes this Func's values, once computed, to `filename`
    // through the runtime's halide_debug_to_file: .npy, .mat or (any other
    // extension) .tmp format as upstream's (HalideRuntime.h); .tif/.tiff is
    // a runtime error here. Not for Tuples.
    void debug_to_file(const std::string &filename);

    // Debugging: when the pipeline runs, print each value stored into this
    // Func, each value loaded from it, and where its storage is allocated
    // and computed, as events passed to the runtime's halide_trace (whose
    // default handler prints upstream's lines, e.g. "Store f.0(3, 1) =
    // 4.000000", between "Begin pipeline" and "End pipeline"; see
    // jit_handlers().custom_trace). A vectorized access is one event of the
    // whole vector, as upstream's: "Store f.0(<0, 1, 2, 3>, <5, 5, 5, 5>) =
    // <...>".
    Func &trace_loads();
    Func &trace_stores();
    Func &trace_realizations();
    // A tag event with this text, after the Func's "func_type_and_dim" tag,
    // at the start of every traced run of a pipeline that traces this Func.
    Func &add_trace_tag(const std::string &trace_tag);
    // Leaves the Func out of a profiler's report (targets with `profile`):
    // recorded; this compiler produces no profiler report.
    Func &no_profiling();
    // The JIT handlers of pipeline() (see Pipeline::jit_handlers).
    JITHandlers &jit_handlers();

    // The buffer this Func writes as a pipeline's output (one per value of
    // a Tuple): its dim(i) fields for expressions, and requirements on them
    // (by default a dense innermost dimension; set_stride(Expr()) lifts it).
    OutputImageParam output_buffer() const;
    std::vector<OutputImageParam> output_buffers() const;

    // An extern stage: the Func's values over a region are computed by the C
    // function `function_name`, called as
    //   int function_name(halide_buffer_t *inputs..., scalars..., halide_buffer_t *outputs...)
    // (arguments in the order of `params`; one output buffer per type). It
    // is first called with the output buffers and its Func inputs' buffers
    // having no host (a bounds query): it then sets those inputs' dim[]
    // min and extent to the region it needs, which is computed before the
    // real call. A non-zero return fails the pipeline with that code.
    void define_extern(const std::string &function_name, const std::vector<ExternFuncArgument> &params, Type t,
                       int dimensionality, NameMangling mangling = NameMangling::Default,
                       DeviceAPI device_api = DeviceAPI::Host) {
        define_extern(function_name, params, t, Internal::make_argument_list(dimensionality), mangling, device_api);
    }
    void define_extern(const std::string &function_name, const std::vector<ExternFuncArgument> &params,
                       const std::vector<Type> &types, int dimensionality,
                       NameMangling mangling = NameMangling::Default, DeviceAPI device_api = DeviceAPI::Host) {
        define_extern(function_name, params, types, Internal::make_argument_list(dimensionality), mangling, device_api);
    }
    void define_extern(const std::string &function_name, const std::vector<ExternFuncArgument> &params, Type t,
                       const std::vector<Var> &arguments, NameMangling mangling = NameMangling::Default,
                       DeviceAPI device_api = DeviceAPI::Host) {
        define_extern(function_name, params, std::vector<Type>{t}, arguments, mangling, device_api);
    }
    void define_extern(const std::string &function_name, const std::vector<ExternFuncArgument> &params,
                       const std::vector<Type> &types, const std::vector<Var> &arguments,
                       NameMangling mangling = NameMangling::Default, DeviceAPI device_api = DeviceAPI::Host);
    // Whether define_extern() defined it, and the C function it names.
    bool is_extern() const;
    const std::string &extern_function_name() const;

    Internal::Function function() const { return Internal::Function(f_); }
    // The pure definition's schedule (Stage::get_schedule).
    const Internal::StageSchedule &get_schedule() const;

private:
    Pipeline &pipeline();
    void define_as_call_of(const Buffer<> &im);
    std::shared_ptr<Internal::FunctionContents> f_;
    std::shared_ptr<Pipeline> pipeline_;
};

} // namespace Halide

#endif
