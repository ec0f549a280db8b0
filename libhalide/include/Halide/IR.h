// The IR: what each node kind means and holds.
//
// Semantics, once:
// - Integer arithmetic wraps (two's complement) in the node's type. Signed
//   Div and Mod are Euclidean: the remainder is never negative, so Div
//   rounds towards negative infinity for a positive divisor (and up for a
//   negative one). Dividing by zero gives zero, and so does Mod by zero.
//   Float Div and Mod are IEEE division and a - b * floor(a / b).
// - Comparisons and And/Or/Not produce Bool; Select evaluates both sides.
// - Call nodes name a Func (before lowering), an input buffer (Image), a
//   math function (Extern) or an intrinsic; Load reads element `index` of a
//   flat buffer (after storage flattening).
// - Vector expressions (Type::lanes > 1) exist only after vectorization:
//   operands of a node have equal lanes, a vector Load reads one element
//   per lane of its index and a vector Store writes one per lane.
// - Provide/Realize are multi-dimensional stores and allocations, which
//   storage flattening turns into Store/Allocate over flat indices.
#ifndef HALIDE_IR_H
#define HALIDE_IR_H

#include <initializer_list>
#include <string>
#include <vector>

#include "Halide/Expr.h"

namespace Halide {
namespace Internal {

#define HALIDE_EXPR_KIND(N)                                                                                            \
    static constexpr IRNodeType kind = IRNodeType::N;                                                                  \
    explicit N(Type t) : BaseExprNode(IRNodeType::N, t) {}
#define HALIDE_STMT_KIND(N)                                                                                            \
    static constexpr IRNodeType kind = IRNodeType::N;                                                                  \
    N() : BaseStmtNode(IRNodeType::N) {}

struct IntImm : BaseExprNode {
    HALIDE_EXPR_KIND(IntImm)
    int64_t value = 0;
    static Expr make(Type t, int64_t value); // wraps value into t
};

struct UIntImm : BaseExprNode {
    HALIDE_EXPR_KIND(UIntImm)
    uint64_t value = 0;
    static Expr make(Type t, uint64_t value);
};

struct FloatImm : BaseExprNode {
    HALIDE_EXPR_KIND(FloatImm)
    double value = 0;
    static Expr make(Type t, double value); // rounds to t's precision
};

struct StringImm : BaseExprNode {
    HALIDE_EXPR_KIND(StringImm)
    std::string value;
    static Expr make(const std::string &value);
};

struct Cast : BaseExprNode {
    HALIDE_EXPR_KIND(Cast)
    Expr value;
    static Expr make(Type t, Expr value);
};

// A loop variable, a Let name, a scalar parameter ("offset") or a field of
// a buffer parameter ("input.min.0", "input.stride.1", "input.extent.0").
struct Variable : BaseExprNode {
    HALIDE_EXPR_KIND(Variable)
    std::string name;
    static Expr make(Type t, const std::string &name);
};

#define HALIDE_BINARY_NODE(N)                                                                                          \
    struct N : BaseExprNode {                                                                                          \
        HALIDE_EXPR_KIND(N)                                                                                            \
        Expr a, b;                                                                                                     \
        static Expr make(Expr a, Expr b);                                                                              \
    };
HALIDE_BINARY_NODE(Add)
HALIDE_BINARY_NODE(Sub)
HALIDE_BINARY_NODE(Mul)
HALIDE_BINARY_NODE(Div)
HALIDE_BINARY_NODE(Mod)
HALIDE_BINARY_NODE(Min)
HALIDE_BINARY_NODE(Max)
HALIDE_BINARY_NODE(EQ)
HALIDE_BINARY_NODE(NE)
HALIDE_BINARY_NODE(LT)
HALIDE_BINARY_NODE(LE)
HALIDE_BINARY_NODE(GT)
HALIDE_BINARY_NODE(GE)
HALIDE_BINARY_NODE(And)
HALIDE_BINARY_NODE(Or)
#undef HALIDE_BINARY_NODE

struct Not : BaseExprNode {
    HALIDE_EXPR_KIND(Not)
    Expr a;
    static Expr make(Expr a);
};

struct Select : BaseExprNode {
    HALIDE_EXPR_KIND(Select)
    Expr condition, true_value, false_value;
    static Expr make(Expr condition, Expr true_value, Expr false_value);
};

// Element `index` of the flat buffer `name`.
struct Load : BaseExprNode {
    HALIDE_EXPR_KIND(Load)
    std::string name;
    Expr index;
    static Expr make(Type t, const std::string &name, Expr index);
};

// The vector <base, base + stride, ..., base + (lanes - 1) * stride>.
// Ramp and Broadcast appear only after vectorization (VectorizeLoops.cpp).
struct Ramp : BaseExprNode {
    HALIDE_EXPR_KIND(Ramp)
    Expr base, stride;
    int lanes = 0;
    static Expr make(Expr base, Expr stride, int lanes);
};

// The scalar `value` in each of `lanes` lanes.
struct Broadcast : BaseExprNode {
    HALIDE_EXPR_KIND(Broadcast)
    Expr value;
    int lanes = 0;
    static Expr make(Expr value, int lanes);
};

struct Call : BaseExprNode {
    HALIDE_EXPR_KIND(Call)
    enum CallType {
        Halide,    // a Func, at coordinates `args`
        Image,     // an input buffer, at coordinates `args`
        Extern,    // a C math function: sqrtf, sin, pow, ...
        Intrinsic, // see the names in IROperator.cpp (likely, print, ...)
        // Upstream's other kinds, for code written against it: make()
        // records the pure ones as Extern / Intrinsic (the compiler treats
        // every extern and intrinsic call as having effects) and a C++ extern
        // as Extern (called by its unmangled name).
        ExternCPlusPlus,
        PureExtern,
        PureIntrinsic,
    };
    // Upstream's names of well-known intrinsics, for custom lowering passes
    // (Func::add_custom_lowering_pass): an intrinsic Call holds its op's
    // name, get_intrinsic_name(op). Not every op is made by this compiler.
    enum IntrinsicOp {
#define HALIDE_INTRINSIC_OP(N) N,
#include "Halide/IntrinsicOps.def"
#undef HALIDE_INTRINSIC_OP
        IntrinsicOpCount
    };
    static const char *get_intrinsic_name(IntrinsicOp op);
    // Names of the calls on halide_buffer_t fields (upstream's constants).
    using ConstString = const char *const;
    static ConstString buffer_get_dimensions, buffer_get_min, buffer_get_extent, buffer_get_stride, buffer_get_max,
        buffer_get_host, buffer_get_device, buffer_get_device_interface, buffer_get_shape, buffer_get_host_dirty,
        buffer_get_device_dirty, buffer_get_type, buffer_set_host_dirty, buffer_set_device_dirty,
        buffer_is_bounds_query, buffer_init, buffer_init_from_buffer, buffer_crop, buffer_set_bounds, trace;

    std::string name;
    std::vector<Expr> args;
    CallType call_type = Extern;
    int value_index = 0; // which value of a Tuple-valued Func
    // A call of a Func keeps that Func alive (an inline reduction's
    // anonymous Func lives as long as the Exprs that call it).
    std::shared_ptr<void> callee;
    static Expr make(Type t, const std::string &name, std::vector<Expr> args, CallType call_type, int value_index = 0,
                     std::shared_ptr<void> callee = nullptr);
    static Expr make(Type t, IntrinsicOp op, const std::vector<Expr> &args, CallType call_type);

    bool is_intrinsic() const {
        return call_type == Intrinsic;
    }
    bool is_intrinsic(IntrinsicOp op) const {
        return is_intrinsic() && name == get_intrinsic_name(op);
    }
    bool is_intrinsic(std::initializer_list<IntrinsicOp> ops) const {
        for (IntrinsicOp op : ops) {
            if (is_intrinsic(op)) {
                return true;
            }
        }
        return false;
    }
    bool is_extern() const {
        return call_type == Extern;
    }
    // Image loads only: extern and intrinsic calls are all taken to have effects here.
    bool is_pure() const {
        return call_type == Image;
    }
    bool is_tag() const {
        return is_intrinsic({likely, likely_if_innermost});
    }
    // `e` if it is a call of one of `ops`, else null.
    static const Call *as_intrinsic(const Expr &e, std::initializer_list<IntrinsicOp> ops);
    static const Call *as_tag(const Expr &e) {
        return as_intrinsic(e, {likely, likely_if_innermost});
    }
};

struct Let : BaseExprNode {
    HALIDE_EXPR_KIND(Let)
    std::string name;
    Expr value, body;
    static Expr make(const std::string &name, Expr value, Expr body);
};

struct LetStmt : BaseStmtNode {
    HALIDE_STMT_KIND(LetStmt)
    std::string name;
    Expr value;
    Stmt body;
    static Stmt make(const std::string &name, Expr value, Stmt body);
};

// If `condition` is false, the pipeline returns the int32 `message`
// (a call to a halide_error_* helper, which reports and returns a code).
struct AssertStmt : BaseStmtNode {
    HALIDE_STMT_KIND(AssertStmt)
    Expr condition, message;
    static Stmt make(Expr condition, Expr message);
};

// Marks `body` as the computation of Func `name` (is_producer: "produce
// name") or as the statements that read it ("consume name"). Lowering
// leaves these marks for the user's passes (add_custom_lowering_pass) and
// Module::functions(); they mean their body.
struct ProducerConsumer : BaseStmtNode {
    HALIDE_STMT_KIND(ProducerConsumer)
    std::string name;
    bool is_producer = false;
    Stmt body;
    static Stmt make(const std::string &name, bool is_producer, Stmt body);
    static Stmt make_produce(const std::string &name, Stmt body);
    static Stmt make_consume(const std::string &name, Stmt body);
};

enum class ForType { Serial, Parallel, Vectorized, Unrolled };

struct For : BaseStmtNode {
    HALIDE_STMT_KIND(For)
    std::string name;
    Expr min, extent;
    ForType for_type = ForType::Serial;
    Stmt body;
    static Stmt make(const std::string &name, Expr min, Expr extent, ForType for_type, Stmt body);
};

// Func `name` at coordinates `args` takes `values`.
struct Provide : BaseStmtNode {
    HALIDE_STMT_KIND(Provide)
    std::string name;
    std::vector<Expr> values, args;
    static Stmt make(const std::string &name, std::vector<Expr> values, std::vector<Expr> args);
};

struct Range {
    Expr min, extent;
    Range() = default;
    Range(const Expr &min_in, const Expr &extent_in) : min(min_in), extent(extent_in) {}
};

// Storage for Func `name` over `bounds`, live within `body`.
struct Realize : BaseStmtNode {
    HALIDE_STMT_KIND(Realize)
    std::string name;
    std::vector<Type> types;
    std::vector<Range> bounds;
    Stmt body;
    static Stmt make(const std::string &name, std::vector<Type> types, std::vector<Range> bounds, Stmt body);
};

struct Store : BaseStmtNode {
    HALIDE_STMT_KIND(Store)
    std::string name;
    Expr value, index;
    static Stmt make(const std::string &name, Expr value, Expr index);
};

// A flat buffer of `type` elements, the product of `extents` long, in
// `memory_type` memory (see MemoryType). With `new_expr`, the memory is
// that pointer instead (allocated by someone else, e.g. the memoization
// cache) and `free_function` (called with the user context and the pointer)
// gives it back at the end of the scope or at an early return.
struct Allocate : BaseStmtNode {
    HALIDE_STMT_KIND(Allocate)
    std::string name;
    Type type;
    MemoryType memory_type = MemoryType::Auto;
    std::vector<Expr> extents;
    Stmt body;
    Expr new_expr;
    std::string free_function;
    static Stmt make(const std::string &name, Type type, std::vector<Expr> extents, Stmt body);
    static Stmt make(const std::string &name, Type type, MemoryType memory_type, std::vector<Expr> extents, Stmt body);
    static Stmt make(const std::string &name, Type type, MemoryType memory_type, std::vector<Expr> extents, Stmt body,
                     Expr new_expr, const std::string &free_function);
};

struct Block : BaseStmtNode {
    HALIDE_STMT_KIND(Block)
    Stmt first, rest;
    static Stmt make(Stmt first, Stmt rest);
    static Stmt make(const std::vector<Stmt> &stmts);
};

struct IfThenElse : BaseStmtNode {
    HALIDE_STMT_KIND(IfThenElse)
    Expr condition;
    Stmt then_case, else_case;
    static Stmt make(Expr condition, Stmt then_case, Stmt else_case = Stmt());
};

struct Evaluate : BaseStmtNode {
    HALIDE_STMT_KIND(Evaluate)
    Expr value;
    static Stmt make(Expr value);
};

// Every Store in `body` to the buffer of Func `producer_name` is an atomic
// read-modify-write: concurrent iterations (parallel or vectorized loops of
// an atomic() update) may update the same element without losing updates.
// `mutex_name` names the lock of an update that needs one (upstream's
// field); empty here, where every atomic update is a hardware atomic.
struct Atomic : BaseStmtNode {
    HALIDE_STMT_KIND(Atomic)
    std::string producer_name;
    std::string mutex_name;
    Stmt body;
    static Stmt make(const std::string &producer_name, Stmt body);
    static Stmt make(const std::string &producer_name, const std::string &mutex_name, Stmt body);
};

#undef HALIDE_EXPR_KIND
#undef HALIDE_STMT_KIND

} // namespace Internal
} // namespace Halide

#endif
