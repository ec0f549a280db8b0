// The code generator behind codegen_llvm (CodeGen_LLVM.h), shared by the
// files it is split into. The class is declared once here; its members are
// defined by concern, each group in the file named next to it:
//
//   CodeGen_LLVM.cpp          the module drivers, types, symbols, shared
//                             helpers and the per-node dispatch
//   CodeGen_LLVM_Entry.cpp    NAME, NAME_argv, NAME_metadata, multitarget
//   CodeGen_LLVM_Arith.cpp    scalar arithmetic, comparisons and casts
//   CodeGen_LLVM_Vectors.cpp  loads, stores, ramps, gathers and scatters
//   CodeGen_LLVM_Lookup.cpp   byte table lookups through pshufb
//   CodeGen_LLVM_Permute.cpp  loads of a short run of elements in any order
//                             (dense loads and a variable permute)
//   CodeGen_LLVM_Calls.cpp    extern calls, math functions, intrinsics, print
//   CodeGen_LLVM_Buffers.cpp  halide_buffer_t fields, bounds queries, heap
//                             allocations
//   CodeGen_LLVM_Loops.cpp    serial, vectorized and parallel loops
//   CodeGen_LLVM_Atomics.cpp  atomic read-modify-writes (Atomic nodes)
//   CodeGen_LLVM_Prefetch.cpp the prefetch intrinsic (Func::prefetch)
//
// Internal to src/codegen: nothing outside CodeGen_LLVM*.cpp includes it.
#ifndef HALIDE_INTERNAL_CODEGEN_LLVM_INTERNAL_H
#define HALIDE_INTERNAL_CODEGEN_LLVM_INTERNAL_H

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "Halide/IR.h"
#include "Halide/LoweredFunc.h"
#include "codegen/CodeGen_LLVM.h"
#include "codegen/LLVM_Headers.h"
#include "codegen/RuntimeLayout.h"

namespace Halide {
namespace Internal {

// One CodeGen_LLVM walks one function's statement once, emitting into its
// entry point. Values live in a scoped symbol table (name -> stack of
// llvm::Value*). Parallel loops are outlined into task functions that read
// the symbols they use from a closure struct. Heap allocations still live at
// an early return (a failed assert, a failed parallel task) are freed before
// the function returns.
class CodeGen_LLVM {
public:
    CodeGen_LLVM(llvm::LLVMContext &ctx, llvm::Module &module);

    // NAME(args...) runs the pipeline; NAME_argv(void **) unpacks an argv
    // array and calls it (ABI.md 4); NAME_metadata() describes the
    // arguments (ABI.md 3) when `target_string` is given.
    void compile(const LoweredFunc &f, const std::string *target_string);

    // A multitarget wrapper: NAME(args...) calls the first variant whose
    // features halide_can_use_target_features accepts, else the last one;
    // NAME_argv and NAME_metadata as for a single kernel.
    // The LLVM feature string ("+avx2,+ssse3,...") of the code's target:
    // which x86 instructions the byte table lookup may use.
    void set_target_features(const std::string &llvm_features);

    void compile_dispatcher(const LoweredFunc &f, const std::vector<MultitargetVariant> &variants,
                            const std::string &target_string);

    // The symbol that holds the user context pointer in every function.
    static constexpr const char *kUserContext = "__user_context";

    // `s` with every character outside [A-Za-z0-9_] replaced by '_'.
    static std::string sanitize(const std::string &s);

    // Float or bfloat: arithmetic on it uses the floating-point instructions.
    static bool is_floating(const Type &t) { return t.is_float() || t.code() == halide_type_bfloat; }

private:
    // ------------------------------------------- entry points (_Entry.cpp)

    // `int name(args...)` with f's parameters, C ABI attributes included.
    llvm::Function *declare_entry(const LoweredFunc &f, const std::string &name);
    // Narrow integers and bools are extended by the caller in the C ABI.
    void add_c_abi_attributes(llvm::Function *fn, unsigned i, const Type &t);
    // NAME_argv(void **args): loads each argument from its slot, calls NAME.
    void emit_argv_wrapper(const LoweredFunc &f);
    // halide_filter_metadata_t and its halide_filter_argument_t array, as
    // constants, and NAME_metadata() returning a pointer to them.
    void emit_metadata(const LoweredFunc &f, const std::string &target_string);
    // A private constant global holding `value`, named after the function.
    llvm::Constant *private_constant(llvm::Constant *value, const std::string &name);
    // An int64_t holding `value` if it is an integer constant, else NULL.
    llvm::Constant *int64_constant(const Expr &value);
    // A halide_scalar_value_t holding `value` (a constant of type t), or NULL.
    llvm::Constant *scalar_constant(const Expr &value, const Type &t);

    // ------------------------------------------- types (CodeGen_LLVM.cpp)

    // The LLVM type of one lane of t.
    llvm::Type *scalar_type(const Type &t);
    // The type of a value in registers (bool is i1).
    llvm::Type *reg_type(const Type &t);
    // The type of a value in memory (bool is i8).
    llvm::Type *mem_type(const Type &t);
    // A value loaded from memory in its register form, and back.
    llvm::Value *from_memory(llvm::Value *v, const Type &t) { return t.is_bool() ? b_.CreateIsNotNull(v) : v; }
    llvm::Value *to_memory(llvm::Value *v, const Type &t) { return t.is_bool() ? b_.CreateZExt(v, mem_type(t)) : v; }

    // ------------------------------------------- symbols (CodeGen_LLVM.cpp)

    // Binds `name` to `v` until the matching pop(name).
    void push(const std::string &name, llvm::Value *v) { symbols_[name].push_back(v); }
    void pop(const std::string &name);
    // The innermost binding of `name`; InternalError if there is none.
    llvm::Value *sym(const std::string &name);
    bool has_sym(const std::string &name) const { return symbols_.count(name) != 0; }

    // ------------------------------------------- helpers (CodeGen_LLVM.cpp)

    llvm::Constant *int_const(llvm::Type *t, int64_t v) { return llvm::ConstantInt::get(t, (uint64_t)v, true); }
    // A declaration of the C function `name` (one signature per name).
    llvm::FunctionCallee runtime_fn(const std::string &name, llvm::Type *ret, std::vector<llvm::Type *> args);
    llvm::Function *current_fn() { return b_.GetInsertBlock()->getParent(); }
    llvm::BasicBlock *new_block(const std::string &name) { return llvm::BasicBlock::Create(ctx_, name, current_fn()); }
    // A conditional branch weighted heavily towards `likely_bb`.
    void branch_likely(llvm::Value *cond, llvm::BasicBlock *likely_bb, llvm::BasicBlock *unlikely_bb);
    // cond ? then_value() : else_value() as a branch: each value is emitted in
    // its own block (weighted towards `then` if `likely`), joined by a phi.
    llvm::Value *branch_value(llvm::Value *cond, bool likely, const std::string &name,
                              const std::function<llvm::Value *()> &then_value,
                              const std::function<llvm::Value *()> &else_value);
    // Frees every live heap allocation, then returns `code` from the
    // current function. Leaves the builder in a fresh unreachable block.
    void emit_return(llvm::Value *code);
    // An integer value widened or narrowed to i32 / i64 by t's signedness.
    llvm::Value *to_i32(llvm::Value *v, const Type &t);
    llvm::Value *to_i64(llvm::Value *v, const Type &t);
    // Makes an integer value fit the node's type (for intrinsics whose raw
    // field width differs from the type the IR asked for).
    llvm::Value *fit(llvm::Value *v, const Type &t);
    // A NUL-terminated string constant, one per distinct string.
    llvm::Constant *string_constant(const std::string &s);

    // ------------------------------------------- dispatch (CodeGen_LLVM.cpp)

    llvm::Value *codegen(const Expr &e);
    void codegen(const Stmt &s);

    // ------------------------------------------- arithmetic (_Arith.cpp)

    // `v` of type `from` converted to `to`, as a Cast node does.
    llvm::Value *cast(llvm::Value *v, const Type &from, const Type &to);
    // a << b or a >> b (the operands have one width). A negative signed
    // amount shifts the other way, as upstream does; shifting by the width or
    // more gives 0 (or the sign, for a right shift of a signed value) rather
    // than LLVM's poison.
    llvm::Value *shift(bool left, const Type &t, llvm::Value *a, bool signed_amount, llvm::Value *b);
    llvm::Value *shift_by_magnitude(bool left, const Type &t, llvm::Value *a, llvm::Value *amount);
    // Add, Sub or Mul (`int_op`; the float instruction for float operands).
    llvm::Value *arith(const Expr &ea, const Expr &eb, llvm::Instruction::BinaryOps int_op);
    // Integer Div/Mod per IR.h, without branches on the dividend (div_mod_ramp
    // branches on the divisor) and without ever trapping:
    // a zero divisor gives 0, and INT_MIN / -1 wraps. Signed division is
    // Euclidean: the remainder is in [0, |b|) and a == (a / b) * b + a % b,
    // so for b > 0 the quotient is the floor of a / b.
    llvm::Value *div_mod(const Expr &ea, const Expr &eb, bool is_div);
    // The same for vectors of at most 32-bit integers (type t) by a divisor
    // that is not a constant, through floating point.
    llvm::Value *div_mod_through_float(llvm::Value *a, llvm::Value *b, const Type &t, bool is_div);
    // A 32-bit ramp of positive stride by a broadcast variable: one scalar
    // division where the lanes wrap at most once (a branch on m, loop
    // invariant), else div_mod_through_float.
    llvm::Value *div_mod_ramp(const Expr &a, const Expr &m, int64_t stride, bool is_div);
    llvm::Value *min_max(const Expr &ea, const Expr &eb, bool is_min);
    // EQ, NE, LT, LE, GT or GE (`kind`); NaN compares unequal to anything.
    llvm::Value *compare(const Expr &ea, const Expr &eb, IRNodeType kind);

    // ------------------------------------------- memory and vectors (_Vectors.cpp)

    // Address of element `index` of the flat buffer `name`. Where the index
    // is a sum with a term that is a LetStmt around loops (a row offset),
    // the address is that let's row pointer plus the other terms.
    llvm::Value *element_address(const std::string &name, const Expr &index, llvm::Type *elem);
    // For an Int(32) LetStmt `op` whose body has loops: the address of
    // element `op->name` of each buffer whose indices in two or more of the
    // loops add that let as a term, bound (push()) here, before the loops;
    // the names bound (pop() them after the body, then pop_index_let()).
    std::vector<std::string> push_row_pointers(const LetStmt *op);
    void pop_index_let(const std::string &name);
    // An int32 index computed in 64 bits, without signed overflow (an index
    // that overflowed would address outside the buffer anyway). This lets
    // LLVM see that neighbouring elements are adjacent in memory, which its
    // vectorizers need.
    llvm::Value *index_i64(const Expr &e);
    llvm::Value *ramp(const Ramp *op);
    // One address per lane of a vector index (for gathers and scatters).
    llvm::Value *lane_addresses(const std::string &name, const Expr &index, llvm::Type *elem);
    // An all-true mask of `lanes` lanes.
    llvm::Value *all_lanes(int lanes);
    // A scalar load, a dense vector load, a broadcast of one load, a
    // clamped-ramp load or a gather, by the shape of the index.
    llvm::Value *load(const Load *op);
    // One scalar load per lane; `idx`: the index vector if already generated.
    llvm::Value *gather(const Load *op, llvm::Value *idx = nullptr);
    // A load whose lanes read a run of at most n elements (n lanes; a
    // coordinate mirrored at an image's edge): two dense loads of n / 2 lanes
    // inside the run and a variable permute, checked at run time with the
    // gather kept for other runs (CodeGen_LLVM_Permute.cpp). NULL where the
    // target has no permute for the type or the index reads memory.
    llvm::Value *span_load(const Load *op);
    // Lane i: element first + r[i] of a run of span + 1 <= n elements (n
    // lanes of r, an int32 vector; span a scalar) read as `front`, its first
    // n / 2 elements, and `back`, its last n / 2, by one permute() of both.
    llvm::Value *pick_from_run(llvm::Value *front, llvm::Value *back, llvm::Value *r, llvm::Value *span);
    // Lane i of the result is lane at[i] of `table` (an integer vector; `at`
    // an int32 vector of as many lanes, each in [0, lanes)), as x86 permutes.
    llvm::Value *permute(llvm::Value *table, llvm::Value *at);
    // Whether permute() can look up `lanes` lanes of `bits` bits on the target;
    // native_permute: in one instruction.
    bool permute_supported(int lanes, int bits) const;
    bool native_permute(int lanes, int bits) const;
    // A uint8 or int8 vector load at int32(a uint8 vector), as pshufb table
    // lookups (CodeGen_LLVM_Lookup.cpp); NULL where the target has no pshufb
    // or the load has another shape.
    llvm::Value *byte_table_lookup(const Load *op);
    // The vectors of `parts` (as many lanes each) one after the other.
    llvm::Value *concat_vectors(const std::vector<llvm::Value *> &parts);
    // The intrinsics masked_load(load, mask) and Store(f, masked_store(value,
    // mask), index) of a predicated vector tail (VectorizeLoops.cpp): LLVM's
    // masked loads and stores (gathers and scatters when not dense).
    llvm::Value *masked_load(const Call *op);
    void masked_store(const Store *op, const Call *masked);
    // A load through a clamped ramp (an image read with a clamped edge):
    // when every lane is inside the clamp, which is almost always, the
    // clamp changes nothing and one dense (or strided) load does; otherwise gather.
    llvm::Value *clamped_ramp_load(const Load *op, const Ramp *dense, const Expr &in_range);
    // Its lanes where the clamp changes some, for in[offset + clamp(ramp(base,
    // 1, n), lo, hi)]: two dense loads and a permute (or, without one for the
    // type, the loads shifted through the stack).
    llvm::Value *shifted_clamped_load(const Load *op, const Expr &offset, const Expr &base, const Expr &lo,
                                      const Expr &hi);
    // A load at ramp(base, s, n) for a small constant stride s > 1: dense
    // loads of n lanes, each inside the elements the ramp spans (so none
    // reads past its last element), and shuffles picking every s-th lane.
    llvm::Value *strided_load(const Load *op, const Ramp *r, int stride);
    // interleave_vectors(v0, ..., vm-1) (DeinterleaveStores.cpp): lane i of
    // the result is lane i / m of v(i % m); one shuffle.
    llvm::Value *interleave_vectors(const Call *op);
    // slice_vector(v, start, stride, lanes) (ShareStridedLoads.cpp): lanes
    // start, start + stride, ... of v, `lanes` of them; one shuffle.
    llvm::Value *slice_vector(const Call *op);
    // A scalar store, a dense vector store or one store per lane.
    void store(const Store *op);
    // Distinct buffers never overlap (as in upstream Halide): each buffer's
    // loads and stores get their own TBAA type, so LLVM may reorder and
    // vectorize accesses to different buffers.
    llvm::MDNode *buffer_tbaa(const std::string &name);

    // ------------------------------------------- calls (_Calls.cpp)

    llvm::Value *call(const Call *op);
    // A C function call; a math intrinsic where LLVM has one.
    llvm::Value *call_extern(const Call *op);
    // A vector call of a C function: one call per lane.
    llvm::Value *scalarized_call(const Call *op);
    // One call of op->name with `args`, integer extension attributes included.
    llvm::Value *scalar_call(const Call *op, const std::vector<llvm::Value *> &args);
    llvm::Value *call_intrinsic(const Call *op);
    // Formats args[first..] separated by spaces with snprintf into a stack
    // buffer and hands the line to halide_print, as print() promises.
    void emit_print(const std::vector<Expr> &args, size_t first, const char *separator = " ");
    // The text of args[first, last) (strings and numbers, joined by
    // `separator`, then `end`) formatted into a stack buffer; its address.
    llvm::Value *format_text(const std::vector<Expr> &args, size_t first, size_t last, const char *separator,
                             const char *end);
    // trace_event / trace_value (lower/AddTracing.cpp): a halide_trace_event_t
    // built on the stack and passed to halide_trace, whose id it returns.
    // `value`: trace_value's value, already generated (null for trace_event).
    llvm::Value *emit_trace(const Call *op, llvm::Value *value);

    // ------------------------------------------- buffers (_Buffers.cpp)

    // The buffer_* intrinsics: halide_buffer_t fields and bounds queries.
    llvm::Value *buffer_intrinsic(const Call *op);
    llvm::Value *make_stack_buffer(const Call *op);
    // buffer_fill_query(buf, type word, dimensions, min0, extent0, min1, ...):
    // the answer to a bounds query (ABI.md 9) written into the caller's
    // halide_buffer_t: type (lanes 1), dimensions, flags 0 and per dimension
    // {min, extent, dense stride, 0} in the caller's dim array.
    void fill_bounds_query(const Call *op);
    // Stores `v` at byte `offset` of the struct at `base`.
    void store_field(llvm::Value *base, int offset, llvm::Value *v, int align);
    // A field of type `ty` at byte `offset` of the struct at `base`.
    llvm::Value *load_field(llvm::Value *base, int offset, llvm::Type *ty, int align);
    // A halide_dimension_t field of buffer_get_min/extent/stride(buf, d).
    llvm::Value *dim_field(const Call *op, int field_offset);
    // A heap block from halide_malloc, live for the Allocate's body.
    void allocate(const Allocate *op);
    // store_in(Stack / Register): an alloca (in the entry block when the
    // size is a constant).
    void allocate_on_stack(const Allocate *op);
    // A halide_buffer_t global holding e's shape, over a constant copy of
    // its elements (AOT code reading a Buffer that is not an argument).
    llvm::Constant *embedded_buffer(const EmbeddedBuffer &e);

    // ------------------------------------------- loops (_Loops.cpp)

    void for_loop(const For *op);
    // A vectorized loop that VectorizeLoops could not widen (see there) is a
    // serial loop that asks LLVM's loop vectorizer for vectors as wide as it.
    void request_vectorization(llvm::BranchInst *back_edge, const For *op);
    // Outlines the body into `int32 task(void *uc, int32 idx, uint8_t *closure)`
    // and runs it through halide_do_par_for.
    void parallel_loop(const For *op, llvm::Value *mn, llvm::Value *ext);
    // The symbols `body` uses from outside (all but `bound`), stored in a
    // struct in the current function's frame, for an outlined task.
    struct Closure {
        std::vector<std::pair<std::string, llvm::Value *>> captured;
        llvm::StructType *type = nullptr;
        llvm::Value *ptr = nullptr;
    };
    Closure make_closure(const Stmt &body, const std::string &bound, const std::string &name);
    // Generates the body of the outlined task `fn` through `emit`, with a
    // fresh symbol table holding the closure's fields (read from
    // `closure_arg`) and the user context `uc`; then returns to the caller.
    void outline(llvm::Function *fn, const Closure &c, llvm::Value *closure_arg, llvm::Value *uc,
                 const std::function<void()> &emit);
    // Returns `rc` (after the frees emit_return does) unless it is 0.
    void return_if_failed(llvm::Value *rc, const std::string &name);
    // async producers (CodeGen_LLVM_Async.cpp, encoded by AsyncProducers.cpp):
    // a Block opening with async_fork(n) runs its n task loops through
    // halide_do_parallel_tasks; make_semaphore(n) is a semaphore in the frame.
    static bool is_async_fork(const Block *op);
    void async_fork(const Block *op);
    llvm::Value *make_semaphore(const Call *op);

    // ------------------------------------------- prefetches (_Prefetch.cpp)

    // prefetch(base, index, extent_0, stride_0, ...) (lower/Prefetch.h):
    // llvm.prefetch of each cache line of the region; returns a zero of the
    // call's type (an Evaluate drops it).
    llvm::Value *prefetch(const Call *op);
    // for (i = 0; i < n; i++) body(i), n an i64 (nothing when n < 1).
    void counted_loop(llvm::Value *n, const std::string &name, const std::function<void(llvm::Value *)> &body);

    // ------------------------------------------- atomics (_Atomics.cpp)

    // The body, with the stores to op->producer_name atomic.
    void atomic(const Atomic *op);
    // Whether op stores to the Func of an enclosing Atomic node.
    bool is_atomic_store(const Store *op) const;
    // An atomicrmw per lane, or a compare-and-swap loop per lane.
    void atomic_store(const Store *op);

    // ------------------------------------------- state

    llvm::LLVMContext &ctx_;
    llvm::Module &module_;
    llvm::IRBuilder<> b_;
    llvm::Type *i1_, *i8_, *i32_, *i64_;
    llvm::PointerType *ptr_;
    // size_t of the target (as wide as a pointer), and where the target puts
    // halide_buffer_t's fields (RuntimeLayout.h).
    llvm::IntegerType *size_t_;
    RuntimeLayout layout_;

    std::string func_name_;
    llvm::Function *fn_ = nullptr;
    std::map<std::string, std::vector<llvm::Value *>> symbols_;
    // The values of the Int(32) lets around loops in scope (push_row_pointers),
    // which index_i64 expands into the indices that add them.
    std::map<std::string, std::vector<Expr>> index_lets_;
    // For each let name in scope, innermost binding last: does its value
    // come from memory (a vector holding a load, or another such let)? An
    // index built from one is data, whose lanes are rarely a short run.
    std::map<std::string, std::vector<bool>> data_lets_;
    // Binds or unbinds `name` in data_lets_ if `value` is such a value.
    void push_data_let(const std::string &name, const Expr &value);
    void pop_data_let(const std::string &name);
    // Does `e` read memory, directly or through data_lets_?
    bool reads_data(const Expr &e) const;
    // Heap blocks of the current function that an early return must free,
    // with the function that frees each (halide_free, or an Allocate's free_function).
    std::vector<std::pair<llvm::Value *, std::string>> live_allocations_;
    std::map<std::string, llvm::Constant *> strings_;
    int task_counter_ = 0;
    // Lanes of one pshufb on the target: 32 (AVX2), 16 (SSSE3) or 0 (none).
    int pshufb_lanes_ = 0;
    // The target's x86 vector extensions that permute() uses.
    struct {
        bool ssse3 = false, avx2 = false, avx512f = false, avx512bw = false, avx512vl = false, avx512vbmi = false;
    } x86_;
    llvm::MDNode *tbaa_root_ = nullptr;
    std::map<std::string, llvm::MDNode *> tbaa_tags_;
    // The Funcs of the Atomic nodes around the code being generated.
    std::vector<std::string> atomic_producers_;
};

} // namespace Internal
} // namespace Halide

#endif
