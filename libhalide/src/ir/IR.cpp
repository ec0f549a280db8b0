// Constructors for the IR nodes: each `make` builds one node and checks the
// invariants IR.h states (operand types, definedness).
#include "Halide/IR.h"

#include <cmath>
#include <limits>
#include <utility>

#include "Halide/Error.h"
#include "Halide/Float16.h"

namespace Halide {
namespace Internal {

namespace {

// Round a double to the nearest IEEE binary16 value (ties to even), kept as a
// double. Values past the largest half become infinities.
double round_to_float16(double v) {
    if (std::isnan(v) || std::isinf(v) || v == 0) {
        return v;
    }
    double a = std::fabs(v);
    if (a >= 65520.0) { // halfway between 65504 (max half) and 65536
        return std::copysign(std::numeric_limits<double>::infinity(), v);
    }
    int e = 0;
    std::frexp(a, &e); // a = m * 2^e, m in [0.5, 1)
    // 11 significant bits for normals; a fixed 2^-24 quantum for subnormals.
    int q = e - 11;
    if (q < -24) {
        q = -24;
    }
    double r = std::ldexp(std::nearbyint(std::ldexp(a, -q)), q);
    return std::copysign(r, v);
}

void check_defined(const Expr &e, const char *what) {
    internal_assert(e.defined()) << what << " of undefined Expr";
}

template <typename N> Expr make_arith(Expr a, Expr b, const char *what) {
    check_defined(a, what);
    check_defined(b, what);
    internal_assert(a.type() == b.type())
        << what << " of mismatched types " << type_to_string(a.type()) << " and " << type_to_string(b.type());
    auto n = std::make_shared<N>(a.type());
    n->a = std::move(a);
    n->b = std::move(b);
    return Expr(std::move(n));
}

template <typename N> Expr make_cmp(Expr a, Expr b, const char *what) {
    check_defined(a, what);
    check_defined(b, what);
    internal_assert(a.type() == b.type())
        << what << " of mismatched types " << type_to_string(a.type()) << " and " << type_to_string(b.type());
    auto n = std::make_shared<N>(Bool(a.type().lanes()));
    n->a = std::move(a);
    n->b = std::move(b);
    return Expr(std::move(n));
}

template <typename N> Expr make_logical(Expr a, Expr b, const char *what) {
    check_defined(a, what);
    check_defined(b, what);
    internal_assert(a.type().is_bool()) << what << " of non-bool " << type_to_string(a.type());
    internal_assert(b.type().is_bool()) << what << " of non-bool " << type_to_string(b.type());
    internal_assert(a.type().lanes() == b.type().lanes()) << what << " of mismatched lanes";
    auto n = std::make_shared<N>(a.type());
    n->a = std::move(a);
    n->b = std::move(b);
    return Expr(std::move(n));
}

} // namespace

Expr IntImm::make(Type t, int64_t value) {
    internal_assert(t.is_int()) << "IntImm of type " << type_to_string(t);
    internal_assert(t.bits() >= 1 && t.bits() <= 64) << "IntImm of " << t.bits() << " bits";
    if (t.bits() < 64) {
        const int shift = 64 - t.bits();
        // Shift into the top bits, then sign-extend back down.
        value = static_cast<int64_t>(static_cast<uint64_t>(value) << shift) >> shift;
    }
    auto n = std::make_shared<IntImm>(t);
    n->value = value;
    return Expr(std::move(n));
}

Expr UIntImm::make(Type t, uint64_t value) {
    internal_assert(t.is_uint()) << "UIntImm of type " << type_to_string(t);
    internal_assert(t.bits() >= 1 && t.bits() <= 64) << "UIntImm of " << t.bits() << " bits";
    if (t.bits() < 64) {
        value &= (uint64_t(1) << t.bits()) - 1;
    }
    auto n = std::make_shared<UIntImm>(t);
    n->value = value;
    return Expr(std::move(n));
}

Expr FloatImm::make(Type t, double value) {
    internal_assert(t.is_float()) << "FloatImm of type " << type_to_string(t);
    switch (t.bits()) {
    case 16: value = t.is_bfloat() ? (double)(float)bfloat16_t((float)value) : round_to_float16(value); break;
    case 32: value = static_cast<double>(static_cast<float>(value)); break;
    case 64: break;
    default: internal_error << "FloatImm of " << t.bits() << " bits";
    }
    auto n = std::make_shared<FloatImm>(t);
    n->value = value;
    return Expr(std::move(n));
}

Expr StringImm::make(const std::string &value) {
    auto n = std::make_shared<StringImm>(Handle());
    n->value = value;
    return Expr(std::move(n));
}

Expr Cast::make(Type t, Expr value) {
    check_defined(value, "Cast");
    internal_assert(t.bits() > 0) << "Cast to the empty type";
    internal_assert(t.lanes() == value.type().lanes())
        << "Cast from " << type_to_string(value.type()) << " to " << type_to_string(t) << " changes the lane count";
    auto n = std::make_shared<Cast>(t);
    n->value = std::move(value);
    return Expr(std::move(n));
}

Expr Variable::make(Type t, const std::string &name) {
    internal_assert(!name.empty()) << "Variable with an empty name";
    internal_assert(t.bits() > 0) << "Variable " << name << " of the empty type";
    auto n = std::make_shared<Variable>(t);
    n->name = name;
    return Expr(std::move(n));
}

Expr Add::make(Expr a, Expr b) {
    return make_arith<Add>(std::move(a), std::move(b), "Add");
}
Expr Sub::make(Expr a, Expr b) {
    return make_arith<Sub>(std::move(a), std::move(b), "Sub");
}
Expr Mul::make(Expr a, Expr b) {
    return make_arith<Mul>(std::move(a), std::move(b), "Mul");
}
Expr Div::make(Expr a, Expr b) {
    return make_arith<Div>(std::move(a), std::move(b), "Div");
}
Expr Mod::make(Expr a, Expr b) {
    return make_arith<Mod>(std::move(a), std::move(b), "Mod");
}
Expr Min::make(Expr a, Expr b) {
    return make_arith<Min>(std::move(a), std::move(b), "Min");
}
Expr Max::make(Expr a, Expr b) {
    return make_arith<Max>(std::move(a), std::move(b), "Max");
}
Expr EQ::make(Expr a, Expr b) {
    return make_cmp<EQ>(std::move(a), std::move(b), "EQ");
}
Expr NE::make(Expr a, Expr b) {
    return make_cmp<NE>(std::move(a), std::move(b), "NE");
}
Expr LT::make(Expr a, Expr b) {
    return make_cmp<LT>(std::move(a), std::move(b), "LT");
}
Expr LE::make(Expr a, Expr b) {
    return make_cmp<LE>(std::move(a), std::move(b), "LE");
}
Expr GT::make(Expr a, Expr b) {
    return make_cmp<GT>(std::move(a), std::move(b), "GT");
}
Expr GE::make(Expr a, Expr b) {
    return make_cmp<GE>(std::move(a), std::move(b), "GE");
}
Expr And::make(Expr a, Expr b) {
    return make_logical<And>(std::move(a), std::move(b), "And");
}
Expr Or::make(Expr a, Expr b) {
    return make_logical<Or>(std::move(a), std::move(b), "Or");
}

Expr Not::make(Expr a) {
    check_defined(a, "Not");
    internal_assert(a.type().is_bool()) << "Not of non-bool " << type_to_string(a.type());
    auto n = std::make_shared<Not>(a.type());
    n->a = std::move(a);
    return Expr(std::move(n));
}

Expr Select::make(Expr condition, Expr true_value, Expr false_value) {
    check_defined(condition, "Select condition");
    check_defined(true_value, "Select true value");
    check_defined(false_value, "Select false value");
    internal_assert(condition.type().is_bool()) << "Select condition of type " << type_to_string(condition.type());
    internal_assert(true_value.type() == false_value.type())
        << "Select of mismatched types " << type_to_string(true_value.type()) << " and "
        << type_to_string(false_value.type());
    internal_assert(condition.type().lanes() == 1 || condition.type().lanes() == true_value.type().lanes())
        << "Select condition lanes do not match the values";
    auto n = std::make_shared<Select>(true_value.type());
    n->condition = std::move(condition);
    n->true_value = std::move(true_value);
    n->false_value = std::move(false_value);
    return Expr(std::move(n));
}

Expr Load::make(Type t, const std::string &name, Expr index) {
    check_defined(index, "Load index");
    internal_assert(!name.empty()) << "Load from a buffer with an empty name";
    internal_assert(index.type().is_int() || index.type().is_uint())
        << "Load index of type " << type_to_string(index.type());
    internal_assert(t.lanes() == index.type().lanes())
        << "Load of " << type_to_string(t) << " from index of type " << type_to_string(index.type());
    auto n = std::make_shared<Load>(t);
    n->name = name;
    n->index = std::move(index);
    return Expr(std::move(n));
}

Expr Ramp::make(Expr base, Expr stride, int lanes) {
    check_defined(base, "Ramp base");
    check_defined(stride, "Ramp stride");
    internal_assert(base.type().is_scalar() && base.type() == stride.type())
        << "Ramp of base " << type_to_string(base.type()) << " and stride " << type_to_string(stride.type());
    internal_assert(lanes > 1) << "Ramp with " << lanes << " lanes";
    auto n = std::make_shared<Ramp>(base.type().with_lanes(lanes));
    n->base = std::move(base);
    n->stride = std::move(stride);
    n->lanes = lanes;
    return Expr(std::move(n));
}

Expr Broadcast::make(Expr value, int lanes) {
    check_defined(value, "Broadcast value");
    internal_assert(value.type().is_scalar()) << "Broadcast of vector " << type_to_string(value.type());
    internal_assert(lanes > 1) << "Broadcast to " << lanes << " lanes";
    auto n = std::make_shared<Broadcast>(value.type().with_lanes(lanes));
    n->value = std::move(value);
    n->lanes = lanes;
    return Expr(std::move(n));
}

Expr Call::make(Type t, const std::string &name, std::vector<Expr> args, CallType call_type, int value_index,
                std::shared_ptr<void> callee) {
    internal_assert(!name.empty()) << "Call with an empty name";
    for (const Expr &a : args) {
        internal_assert(a.defined()) << "Call to " << name << " with an undefined argument";
    }
    internal_assert(value_index >= 0) << "Call to " << name << " with negative value index";
    auto n = std::make_shared<Call>(t);
    n->name = name;
    n->args = std::move(args);
    switch (call_type) {
    case Call::PureIntrinsic: call_type = Call::Intrinsic; break;
    case Call::PureExtern:
    case Call::ExternCPlusPlus: call_type = Call::Extern; break;
    default: break;
    }
    n->call_type = call_type;
    n->value_index = value_index;
    n->callee = std::move(callee);
    return Expr(std::move(n));
}

const char *Call::get_intrinsic_name(IntrinsicOp op) {
    static const char *const names[] = {
#define HALIDE_INTRINSIC_OP(N) #N,
#include "Halide/IntrinsicOps.def"
#undef HALIDE_INTRINSIC_OP
    };
    static_assert(sizeof(names) / sizeof(names[0]) == IntrinsicOpCount, "one name per IntrinsicOp");
    internal_assert(op >= 0 && op < IntrinsicOpCount) << "IntrinsicOp " << int(op) << " out of range";
    return names[op];
}

Expr Call::make(Type t, IntrinsicOp op, const std::vector<Expr> &args, CallType call_type) {
    return make(t, get_intrinsic_name(op), args, call_type);
}

const Call *Call::as_intrinsic(const Expr &e, std::initializer_list<IntrinsicOp> ops) {
    const Call *c = e.as<Call>();
    return c && c->is_intrinsic(ops) ? c : nullptr;
}

// Our names for these calls (codegen's), where this compiler makes them.
Call::ConstString Call::buffer_get_dimensions = "buffer_get_dimensions", Call::buffer_get_min = "buffer_get_min",
                  Call::buffer_get_extent = "buffer_get_extent", Call::buffer_get_stride = "buffer_get_stride",
                  Call::buffer_get_max = "buffer_get_max", Call::buffer_get_host = "buffer_get_host",
                  Call::buffer_get_device = "buffer_get_device",
                  Call::buffer_get_device_interface = "buffer_get_device_interface",
                  Call::buffer_get_shape = "buffer_get_shape", Call::buffer_get_host_dirty = "buffer_get_host_dirty",
                  Call::buffer_get_device_dirty = "buffer_get_device_dirty", Call::buffer_get_type = "buffer_get_type",
                  Call::buffer_set_host_dirty = "buffer_set_host_dirty",
                  Call::buffer_set_device_dirty = "buffer_set_device_dirty",
                  Call::buffer_is_bounds_query = "buffer_is_bounds_query", Call::buffer_init = "buffer_init",
                  Call::buffer_init_from_buffer = "buffer_init_from_buffer", Call::buffer_crop = "buffer_crop",
                  Call::buffer_set_bounds = "buffer_set_bounds", Call::trace = "trace_event";

Expr Let::make(const std::string &name, Expr value, Expr body) {
    internal_assert(!name.empty()) << "Let with an empty name";
    check_defined(value, "Let value");
    check_defined(body, "Let body");
    auto n = std::make_shared<Let>(body.type());
    n->name = name;
    n->value = std::move(value);
    n->body = std::move(body);
    return Expr(std::move(n));
}

Stmt LetStmt::make(const std::string &name, Expr value, Stmt body) {
    internal_assert(!name.empty()) << "LetStmt with an empty name";
    check_defined(value, "LetStmt value");
    internal_assert(body.defined()) << "LetStmt " << name << " with an undefined body";
    auto n = std::make_shared<LetStmt>();
    n->name = name;
    n->value = std::move(value);
    n->body = std::move(body);
    return Stmt(std::move(n));
}

Stmt AssertStmt::make(Expr condition, Expr message) {
    check_defined(condition, "AssertStmt condition");
    check_defined(message, "AssertStmt message");
    internal_assert(condition.type().is_bool() && condition.type().is_scalar())
        << "AssertStmt condition of type " << type_to_string(condition.type());
    auto n = std::make_shared<AssertStmt>();
    n->condition = std::move(condition);
    n->message = std::move(message);
    return Stmt(std::move(n));
}

Stmt For::make(const std::string &name, Expr min, Expr extent, ForType for_type, Stmt body) {
    internal_assert(!name.empty()) << "For loop with an empty name";
    check_defined(min, "For min");
    check_defined(extent, "For extent");
    internal_assert(body.defined()) << "For loop " << name << " with an undefined body";
    internal_assert(min.type().is_scalar() && extent.type().is_scalar()) << "For loop " << name << " bounds not scalar";
    internal_assert(min.type() == extent.type())
        << "For loop " << name << " with min of type " << type_to_string(min.type()) << " and extent of type "
        << type_to_string(extent.type());
    auto n = std::make_shared<For>();
    n->name = name;
    n->min = std::move(min);
    n->extent = std::move(extent);
    n->for_type = for_type;
    n->body = std::move(body);
    return Stmt(std::move(n));
}

Stmt Provide::make(const std::string &name, std::vector<Expr> values, std::vector<Expr> args) {
    internal_assert(!name.empty()) << "Provide with an empty name";
    internal_assert(!values.empty()) << "Provide to " << name << " without values";
    for (const Expr &v : values) {
        internal_assert(v.defined()) << "Provide to " << name << " of an undefined value";
    }
    for (const Expr &a : args) {
        internal_assert(a.defined()) << "Provide to " << name << " at an undefined coordinate";
    }
    auto n = std::make_shared<Provide>();
    n->name = name;
    n->values = std::move(values);
    n->args = std::move(args);
    return Stmt(std::move(n));
}

Stmt Realize::make(const std::string &name, std::vector<Type> types, std::vector<Range> bounds, Stmt body) {
    internal_assert(!name.empty()) << "Realize with an empty name";
    internal_assert(!types.empty()) << "Realize of " << name << " without types";
    for (const Range &r : bounds) {
        internal_assert(r.min.defined() && r.extent.defined()) << "Realize of " << name << " with undefined bounds";
    }
    internal_assert(body.defined()) << "Realize of " << name << " with an undefined body";
    auto n = std::make_shared<Realize>();
    n->name = name;
    n->types = std::move(types);
    n->bounds = std::move(bounds);
    n->body = std::move(body);
    return Stmt(std::move(n));
}

Stmt Store::make(const std::string &name, Expr value, Expr index) {
    internal_assert(!name.empty()) << "Store to a buffer with an empty name";
    check_defined(value, "Store value");
    check_defined(index, "Store index");
    internal_assert(index.type().is_int() || index.type().is_uint())
        << "Store index of type " << type_to_string(index.type());
    internal_assert(value.type().lanes() == index.type().lanes())
        << "Store of " << type_to_string(value.type()) << " at index of type " << type_to_string(index.type());
    auto n = std::make_shared<Store>();
    n->name = name;
    n->value = std::move(value);
    n->index = std::move(index);
    return Stmt(std::move(n));
}

Stmt Allocate::make(const std::string &name, Type type, std::vector<Expr> extents, Stmt body) {
    internal_assert(!name.empty()) << "Allocate with an empty name";
    internal_assert(type.bits() > 0) << "Allocate of " << name << " with the empty type";
    for (const Expr &e : extents) {
        internal_assert(e.defined()) << "Allocate of " << name << " with an undefined extent";
        internal_assert(e.type().is_scalar()) << "Allocate of " << name << " with a vector extent";
    }
    internal_assert(body.defined()) << "Allocate of " << name << " with an undefined body";
    auto n = std::make_shared<Allocate>();
    n->name = name;
    n->type = type;
    n->extents = std::move(extents);
    n->body = std::move(body);
    return Stmt(std::move(n));
}

Stmt Allocate::make(const std::string &name, Type type, MemoryType memory_type, std::vector<Expr> extents, Stmt body) {
    Stmt s = make(name, type, std::move(extents), std::move(body));
    auto n = std::make_shared<Allocate>(*s.as<Allocate>());
    n->memory_type = memory_type;
    return Stmt(std::move(n));
}

Stmt Allocate::make(const std::string &name, Type type, MemoryType memory_type, std::vector<Expr> extents, Stmt body,
                    Expr new_expr, const std::string &free_function) {
    internal_assert(!new_expr.defined() || (new_expr.type().is_handle() && !free_function.empty()))
        << "Allocate of " << name << " with new memory needs a handle and a free function";
    Stmt s = make(name, type, memory_type, std::move(extents), std::move(body));
    auto n = std::make_shared<Allocate>(*s.as<Allocate>());
    n->new_expr = std::move(new_expr);
    n->free_function = free_function;
    return Stmt(std::move(n));
}

Stmt Block::make(Stmt first, Stmt rest) {
    if (!first.defined()) {
        return rest;
    }
    if (!rest.defined()) {
        return first;
    }
    auto n = std::make_shared<Block>();
    n->first = std::move(first);
    n->rest = std::move(rest);
    return Stmt(std::move(n));
}

Stmt Block::make(const std::vector<Stmt> &stmts) {
    // Right-nested: Block(s0, Block(s1, s2)).
    Stmt result;
    for (auto it = stmts.rbegin(); it != stmts.rend(); ++it) {
        result = Block::make(*it, result);
    }
    return result;
}

Stmt IfThenElse::make(Expr condition, Stmt then_case, Stmt else_case) {
    check_defined(condition, "IfThenElse condition");
    internal_assert(condition.type().is_bool() && condition.type().is_scalar())
        << "IfThenElse condition of type " << type_to_string(condition.type());
    internal_assert(then_case.defined()) << "IfThenElse with an undefined then case";
    auto n = std::make_shared<IfThenElse>();
    n->condition = std::move(condition);
    n->then_case = std::move(then_case);
    n->else_case = std::move(else_case);
    return Stmt(std::move(n));
}

Stmt Atomic::make(const std::string &producer_name, Stmt body) {
    return make(producer_name, "", std::move(body));
}

Stmt Atomic::make(const std::string &producer_name, const std::string &mutex_name, Stmt body) {
    internal_assert(body.defined()) << "Atomic with an undefined body";
    auto n = std::make_shared<Atomic>();
    n->producer_name = producer_name;
    n->mutex_name = mutex_name;
    n->body = std::move(body);
    return Stmt(std::move(n));
}

Stmt ProducerConsumer::make(const std::string &name, bool is_producer, Stmt body) {
    internal_assert(body.defined()) << "ProducerConsumer with an undefined body";
    auto n = std::make_shared<ProducerConsumer>();
    n->name = name;
    n->is_producer = is_producer;
    n->body = std::move(body);
    return Stmt(std::move(n));
}

Stmt ProducerConsumer::make_produce(const std::string &name, Stmt body) {
    return make(name, true, std::move(body));
}

Stmt ProducerConsumer::make_consume(const std::string &name, Stmt body) {
    return make(name, false, std::move(body));
}

Stmt Evaluate::make(Expr value) {
    check_defined(value, "Evaluate");
    auto n = std::make_shared<Evaluate>();
    n->value = std::move(value);
    return Stmt(std::move(n));
}

} // namespace Internal
} // namespace Halide
