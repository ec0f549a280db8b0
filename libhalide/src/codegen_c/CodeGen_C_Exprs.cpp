// Expressions of the C source backend: each node's value computed into a
// local constant through the prelude's helpers (CPrelude.cpp), which carry
// Halide's meaning (wrap-around, Euclidean division, ...) and work on
// scalars and vectors alike. Loads and calls, intrinsics included, are here.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "Halide/Error.h"
#include "Halide/IR.h"
#include "Halide/IROperator.h"
#include "codegen/BackendCommon.h"
#include "codegen_c/CodeGen_C_Internal.h"
#include "ir/IntrinsicNames.h"
#include "ir/StructLayout.h"

namespace Halide {
namespace Internal {

namespace {

// C math functions (math.h declares them) the IR calls by name.
bool is_math_function(const std::string &name) {
    static const std::set<std::string> names = {
        "sin",  "asin",  "cos",      "acos",  "tan",    "atan",   "atan2", "sinh",  "asinh",   "cosh",  "acosh",
        "tanh", "atanh", "sqrt",     "hypot", "exp",    "log",    "floor", "ceil",  "round",   "trunc", "nearbyint",
        "pow",  "fabs",  "fmod",     "exp2",  "log2",   "log10",  "expm1", "log1p", "erf",     "erfc",  "cbrt",
        "fmin", "fmax",  "copysign", "rint",  "lgamma", "tgamma", "isnan", "isinf", "isfinite"};
    std::string base = name;
    if (names.count(base)) {
        return true;
    }
    if (!base.empty() && base.back() == 'f') {
        base.pop_back();
    }
    return names.count(base) != 0;
}

} // namespace

std::string CodeGen_C::temp(const Type &t, const std::string &value) {
    std::string name = "t" + std::to_string(counter_++);
    line() << c_type(t) << " const " << name << " = " << value << ";\n";
    return name;
}

std::string CodeGen_C::literal(const Expr &e) {
    Type t = e.type();
    std::string ty = c_type(t);
    char buf[64];
    if (const IntImm *i = e.as<IntImm>()) {
        if (i->value == INT64_MIN) {
            return "((" + ty + ")INT64_MIN)";
        }
        return "((" + ty + ")" + std::to_string(i->value) + "ll)";
    }
    if (const UIntImm *u = e.as<UIntImm>()) {
        if (t.is_bool()) {
            return u->value ? "true" : "false";
        }
        return "((" + ty + ")" + std::to_string(u->value) + "ull)";
    }
    const FloatImm *f = e.as<FloatImm>();
    internal_assert(f) << "literal of a non-constant";
    if (std::isnan(f->value)) {
        return "((" + ty + ")__builtin_nan(\"\"))";
    }
    if (std::isinf(f->value)) {
        return std::string("((") + ty + ")" + (f->value < 0 ? "-" : "") + "__builtin_inf())";
    }
    std::snprintf(buf, sizeof buf, "%a", f->value); // exact
    return "((" + ty + ")" + buf + ")";
}

std::string CodeGen_C::expr(const Expr &e) {
    internal_assert(e.defined()) << "compile_to_c: an undefined Expr";
    switch (e->node_type) {
    case IRNodeType::IntImm:
    case IRNodeType::UIntImm:
    case IRNodeType::FloatImm: return literal(e);
    case IRNodeType::StringImm: return c_string(e.as<StringImm>()->value);
    case IRNodeType::Variable: return sym(e.as<Variable>()->name);
    default: return compute(e);
    }
}

std::string CodeGen_C::compute(const Expr &e) {
    auto bin = [&](const char *fn, const Expr &a, const Expr &b) {
        std::string sa = expr(a);
        std::string sb = expr(b);
        return temp(e.type(), std::string(fn) + "(" + sa + ", " + sb + ")");
    };
    switch (e->node_type) {
    case IRNodeType::Cast: {
        const Cast *op = e.as<Cast>();
        std::string v = expr(op->value);
        c_type(op->value.type()); // refuses float16 sources too
        return temp(op->type, "h_cast<" + c_type(op->type.element_of()) + ">(" + v + ")");
    }
    case IRNodeType::Add: return bin("h_add", e.as<Add>()->a, e.as<Add>()->b);
    case IRNodeType::Sub: return bin("h_sub", e.as<Sub>()->a, e.as<Sub>()->b);
    case IRNodeType::Mul: return bin("h_mul", e.as<Mul>()->a, e.as<Mul>()->b);
    case IRNodeType::Div: return bin("h_div", e.as<Div>()->a, e.as<Div>()->b);
    case IRNodeType::Mod: return bin("h_mod", e.as<Mod>()->a, e.as<Mod>()->b);
    case IRNodeType::Min: return bin("h_min", e.as<Min>()->a, e.as<Min>()->b);
    case IRNodeType::Max: return bin("h_max", e.as<Max>()->a, e.as<Max>()->b);
    case IRNodeType::EQ: return bin("h_eq", e.as<EQ>()->a, e.as<EQ>()->b);
    case IRNodeType::NE: return bin("h_ne", e.as<NE>()->a, e.as<NE>()->b);
    case IRNodeType::LT: return bin("h_lt", e.as<LT>()->a, e.as<LT>()->b);
    case IRNodeType::LE: return bin("h_le", e.as<LE>()->a, e.as<LE>()->b);
    case IRNodeType::GT: return bin("h_gt", e.as<GT>()->a, e.as<GT>()->b);
    case IRNodeType::GE: return bin("h_ge", e.as<GE>()->a, e.as<GE>()->b);
    case IRNodeType::And: return bin("h_land", e.as<And>()->a, e.as<And>()->b);
    case IRNodeType::Or: return bin("h_lor", e.as<Or>()->a, e.as<Or>()->b);
    case IRNodeType::Not: {
        std::string a = expr(e.as<Not>()->a);
        return temp(e.type(), "h_lnot(" + a + ")");
    }
    case IRNodeType::Select: {
        const Select *op = e.as<Select>();
        std::string c = expr(op->condition);
        std::string a = expr(op->true_value);
        std::string b = expr(op->false_value);
        return temp(e.type(), "h_select(" + c + ", " + a + ", " + b + ")");
    }
    case IRNodeType::Load: return load(e.as<Load>());
    case IRNodeType::Ramp: {
        const Ramp *op = e.as<Ramp>();
        user_assert(op->base.type().is_scalar()) << "compile_to_c: a ramp of vectors";
        std::string b = expr(op->base);
        std::string s = expr(op->stride);
        return temp(e.type(), "h_ramp<" + std::to_string(op->lanes) + ">(" + b + ", " + s + ")");
    }
    case IRNodeType::Broadcast: {
        const Broadcast *op = e.as<Broadcast>();
        user_assert(op->value.type().is_scalar()) << "compile_to_c: a broadcast of a vector";
        std::string v = expr(op->value);
        return temp(e.type(), "h_broadcast<" + std::to_string(op->lanes) + ">(" + v + ")");
    }
    case IRNodeType::Call: return call(e.as<Call>());
    case IRNodeType::Let: {
        const Let *op = e.as<Let>();
        std::string v = expr(op->value);
        std::string name = fresh(op->name);
        line() << c_type(op->value.type()) << " const " << name << " = " << v << ";\n";
        push(op->name, name);
        std::string r = expr(op->body);
        pop(op->name);
        return r;
    }
    default: internal_error << "compile_to_c: not an expression node";
    }
    return "";
}

std::string CodeGen_C::load(const Load *op) {
    Type t = op->type;
    std::string et = c_type(t.element_of());
    std::string host = sym(op->name + ".host");
    if (t.is_scalar()) {
        std::string i = expr(op->index);
        return temp(t, "h_load<" + et + ">(" + host + ", (int64_t)" + i + ")");
    }
    if (const Ramp *r = dense_ramp(op->index)) {
        std::string base = expr(r->base);
        return temp(t,
                    "h_load_dense<" + et + ", " + std::to_string(t.lanes()) + ">(" + host + ", (int64_t)" + base + ")");
    }
    std::string i = expr(op->index);
    return temp(t, "h_gather<" + et + ">(" + host + ", " + i + ")");
}

std::string CodeGen_C::call(const Call *op) {
    switch (op->call_type) {
    case Call::Halide:
    case Call::Image:
        internal_error << "Call to " << op->name << " reached codegen; lowering should have replaced it";
        return "";
    case Call::Extern: return call_extern(op);
    case Call::Intrinsic: return call_intrinsic(op);
    case Call::ExternCPlusPlus: // Call::make records these as Extern / Intrinsic
    case Call::PureExtern:
    case Call::PureIntrinsic: break;
    }
    internal_error << "unknown call type";
    return "";
}

std::string CodeGen_C::as_arg(const Expr &e) {
    std::string v = expr(e);
    return e.type().is_handle() || e.as<StringImm>() ? "h_any(" + v + ")" : v;
}

void CodeGen_C::declare_extern(const Call *op) {
    if (is_math_function(op->name) || op->name.compare(0, 7, "halide_") == 0 || !declared_.insert(op->name).second) {
        return;
    }
    decls_ << "extern \"C\" " << (op->type.bits() == 0 ? std::string("void") : c_type(op->type.element_of())) << " "
           << op->name << "(";
    for (size_t i = 0; i < op->args.size(); i++) {
        Type t = op->args[i].type().element_of();
        decls_ << (i ? ", " : "") << (t.is_handle() ? "void *" : c_type(t));
    }
    decls_ << ");\n";
}

std::string CodeGen_C::call_extern(const Call *op) {
    declare_extern(op);
    std::vector<std::string> args;
    for (const Expr &a : op->args) {
        args.push_back(as_arg(a));
    }
    std::string list;
    for (size_t i = 0; i < args.size(); i++) {
        list += (i ? ", " : "") + args[i];
    }
    if (op->type.bits() == 0) {
        line() << "::" << op->name << "(" << list << ");\n";
        return "0";
    }
    if (op->type.is_vector()) {
        // One call per lane.
        std::string params, names;
        for (size_t i = 0; i < args.size(); i++) {
            params += (i ? ", " : "") + std::string("auto a") + std::to_string(i);
            names += (i ? ", " : "") + std::string("a") + std::to_string(i);
        }
        return temp(op->type, "h_lift([](" + params + ") { return (" + c_type(op->type.element_of()) +
                                  ")::" + op->name + "(" + names + "); }, " + list + ")");
    }
    return temp(op->type, "(" + c_type(op->type) + ")::" + op->name + "(" + list + ")");
}

std::string CodeGen_C::call_intrinsic(const Call *op) {
    const std::string &n = op->name;
    auto arg = [&](size_t i) {
        internal_assert(i < op->args.size()) << "intrinsic " << n << " needs argument " << i;
        return expr(op->args[i]);
    };
    std::string rt = op->type.bits() ? c_type(op->type.element_of()) : "";
    if (n == "likely" || n == "likely_if_innermost" || n == "promise_clamped" || n == "unsafe_promise_clamped" ||
        n == "memoize_expr" || n == "strict_float") {
        return arg(0);
    }
    if (n == "bitwise_and" || n == "bitwise_or" || n == "bitwise_xor") {
        std::string a = arg(0), b = arg(1);
        const char *fn = n == "bitwise_and" ? "h_and" : (n == "bitwise_or" ? "h_or" : "h_xor");
        return temp(op->type, std::string(fn) + "(" + a + ", " + b + ")");
    }
    if (n == "bitwise_not") {
        return temp(op->type, "h_not(" + arg(0) + ")");
    }
    if (n == "shift_left" || n == "shift_right") {
        std::string a = arg(0), b = arg(1);
        return temp(op->type, std::string(n == "shift_left" ? "h_shl(" : "h_shr(") + a + ", " + b + ")");
    }
    if (n == "abs" || n == "popcount" || n == "count_leading_zeros" || n == "count_trailing_zeros") {
        const char *fn = n == "abs" ? "h_abs" : (n == "popcount" ? "h_popcount" : (n[6] == 'l' ? "h_clz" : "h_ctz"));
        return temp(op->type, "h_cast<" + rt + ">(" + fn + "(" + arg(0) + "))");
    }
    if (n == "reinterpret") {
        user_assert(op->args[0].type().lanes() == op->type.lanes())
            << "compile_to_c: reinterpret between vectors of different lane counts";
        return temp(op->type, "h_reinterpret<" + rt + ">(" + arg(0) + ")");
    }
    if (n == kPrefetchIntrinsic) { // (base, index, extent_0, stride_0, ...): lower/Prefetch.h
        internal_assert(op->args.size() >= 4 && op->args.size() % 2 == 0) << "prefetch(base, index, extents...)";
        std::string base = arg(0), index = arg(1), shape;
        for (size_t i = 2; i < op->args.size(); i++) {
            shape += (i > 2 ? ", " : "") + std::string("(int64_t)") + arg(i);
        }
        std::string name = fresh("prefetch_shape");
        line() << "const int64_t " << name << "[] = {" << shape << "};\n";
        const int elem = op->type.bytes();
        line() << "h_prefetch((const char *)" << base << " + (int64_t)" << index << " * " << elem << ", " << elem
               << ", " << (op->args.size() - 2) / 2 - 1 << ", " << name << ");\n";
        return "0";
    }
    if (n == "masked_load") {
        const Load *l = op->args[0].as<Load>();
        internal_assert(l && op->args.size() == 2) << "masked_load(load, mask) expected";
        std::string idx = expr(l->index);
        std::string mask = arg(1);
        if (l->index.type().is_scalar()) {
            idx = "h_broadcast<" + std::to_string(op->type.lanes()) + ">(" + idx + ")";
        }
        return temp(op->type, "h_gather_masked<" + rt + ">(" + sym(l->name + ".host") + ", " + idx + ", " + mask + ")");
    }
    if (n == "interleave_vectors") {
        std::string list;
        for (size_t i = 0; i < op->args.size(); i++) {
            list += (i ? ", " : "") + arg(i);
        }
        return temp(op->type, "h_interleave(" + list + ")");
    }
    if (n == "slice_vector") {
        internal_assert(op->args.size() == 4) << "slice_vector(v, start, stride, lanes) expected";
        std::string v = arg(0);
        if (op->type.is_scalar()) {
            return temp(op->type, v + ".v[" + arg(1) + "]");
        }
        return temp(op->type,
                    "h_slice<" + std::to_string(op->type.lanes()) + ">(" + v + ", " + arg(1) + ", " + arg(2) + ")");
    }
    if (n == "print") {
        std::string value = arg(0);
        std::string text = format_text(op->args, 0, op->args.size(), " ", "\n");
        line() << "halide_print(" << sym("__user_context") << ", " << text << ");\n";
        return value;
    }
    if (n == "print_when") {
        std::string cond = arg(0);
        std::string value = arg(1);
        line() << "if (" << cond << ") {\n";
        indent_++;
        std::string text = format_text(op->args, 1, op->args.size(), " ", "\n");
        line() << "halide_print(" << sym("__user_context") << ", " << text << ");\n";
        indent_--;
        line() << "}\n";
        return value;
    }
    if (n == "stringify") {
        return format_text(op->args, 0, op->args.size(), " ", "");
    }
    if (n == "require") {
        std::string cond = arg(0);
        line() << "if (!(" << cond << ")) {\n";
        indent_++;
        std::string text = format_text(op->args, 1, op->args.size(), " ", "");
        line() << "return halide_error_requirement_failed(" << sym("__user_context") << ", \"false\", " << text
               << ");\n";
        indent_--;
        line() << "}\n";
        return arg(1);
    }
    if (n == "make_struct") {
        // A C struct's layout (ir/StructLayout.h), padding zeroed.
        std::vector<Type> types;
        std::vector<std::string> values; // each emitted before the struct's lines
        for (size_t i = 0; i < op->args.size(); i++) {
            types.push_back(op->args[i].type());
            values.push_back(arg(i));
        }
        StructLayout layout = struct_layout(types);
        std::string name = "t" + std::to_string(counter_++);
        line() << "alignas(8) uint8_t " << name << "[" << std::max<size_t>(layout.size, 1) << "] = {0};\n";
        for (size_t i = 0; i < values.size(); i++) {
            std::string field = "t" + std::to_string(counter_++);
            std::string type = c_type(types[i]);
            line() << type << " " << field << " = (" << type << ")" << values[i] << ";\n";
            line() << "memcpy(" << name << " + " << layout.offsets[i] << ", &" << field << ", sizeof(" << field
                   << "));\n";
        }
        return "((void *)" + name + ")";
    }
    if (n.compare(0, 7, "buffer_") == 0) {
        return buffer_intrinsic(op);
    }
    if (n == "trace_event" || n == "trace_value") {
        return trace(op);
    }
    if (n == "make_semaphore") {
        // In this scope, which holds the tasks that use it.
        std::string count = arg(0);
        std::string name = "t" + std::to_string(counter_++);
        line() << "halide_semaphore_t " << name << ";\n";
        line() << "halide_semaphore_init(&" << name << ", (int)" << count << ");\n";
        return "((void *)&" + name + ")";
    }
    user_error << "compile_to_c: the C++ source backend does not support the intrinsic '" << n << "'";
    return "";
}

std::string CodeGen_C::buffer_intrinsic(const Call *op) {
    const std::string &n = op->name;
    auto buf = [&]() { return "((halide_buffer_t *)" + expr(op->args[0]) + ")"; };
    auto dim = [&](const char *field) {
        std::string b = buf();
        std::string d = expr(op->args[1]);
        return temp(op->type, "(" + c_type(op->type) + ")" + b + "->dim[" + d + "]." + field);
    };
    if (n == "buffer_get_host") {
        return temp(op->type, "(void *)" + buf() + "->host");
    }
    if (n == "buffer_get_min") {
        return dim("min");
    }
    if (n == "buffer_get_extent") {
        return dim("extent");
    }
    if (n == "buffer_get_stride") {
        return dim("stride");
    }
    if (n == "buffer_get_dimensions") {
        return temp(op->type, "(" + c_type(op->type) + ")" + buf() + "->dimensions");
    }
    if (n == "buffer_get_type") {
        std::string b = buf();
        std::string word = "t" + std::to_string(counter_++);
        line() << "uint32_t " << word << ";\n";
        line() << "memcpy(&" << word << ", &" << b << "->type, 4);\n";
        return temp(op->type, "(" + c_type(op->type) + ")" + word);
    }
    if (n == "buffer_get_flags") {
        return temp(op->type, "(" + c_type(op->type) + ")" + buf() + "->flags");
    }
    if (n == "buffer_is_bounds_query") {
        std::string b = buf();
        return temp(op->type, b + "->host == nullptr && " + b + "->device == 0");
    }
    if (n == "buffer_fill_query") {
        // The answer to a bounds query (ABI.md 9): type (lanes 1),
        // dimensions, flags 0 and per dimension {min, extent, dense stride}.
        std::string b = buf();
        std::string type = expr(op->args[1]);
        int dims = (int)op->args[2].as<IntImm>()->value;
        std::string word = "t" + std::to_string(counter_++);
        line() << "const uint32_t " << word << " = (uint32_t)" << type << " | (1u << 16);\n";
        line() << "memcpy((void *)&" << b << "->type, &" << word << ", 4);\n";
        line() << b << "->dimensions = " << dims << ";\n";
        line() << b << "->flags = 0;\n";
        std::string stride = "t" + std::to_string(counter_++);
        line() << "int32_t " << stride << " = 1;\n";
        for (int d = 0; d < dims; d++) {
            std::string mn = expr(op->args[3 + 2 * d]);
            std::string ext = expr(op->args[4 + 2 * d]);
            line() << b << "->dim[" << d << "] = halide_dimension_t((int32_t)" << mn << ", (int32_t)" << ext << ", "
                   << stride << ", 0);\n";
            line() << stride << " = (int32_t)((uint32_t)" << stride << " * (uint32_t)(int32_t)" << ext << ");\n";
        }
        return "((int32_t)0)";
    }
    if (n == "buffer_make") {
        // A halide_buffer_t and its dimensions in this scope (an extern
        // stage's argument, lower/ExternStages.cpp).
        auto constant = [&](size_t i) {
            const IntImm *c = op->args[i].as<IntImm>();
            internal_assert(c) << "buffer_make argument " << i << " must be a constant";
            return c->value;
        };
        int64_t code = constant(2), bits = constant(3), lanes = constant(4), dims = constant(5);
        std::string host = "nullptr";
        if (op->args[0].type().is_handle()) {
            std::string base = expr(op->args[0]);
            std::string offset = expr(op->args[1]);
            host = "(uint8_t *)" + base + " + (int64_t)" + offset + " * " + std::to_string((bits + 7) / 8 * lanes);
        }
        std::string name = "t" + std::to_string(counter_++);
        std::string shape = "nullptr";
        if (dims > 0) {
            std::vector<std::string> fields;
            for (int64_t i = 0; i < 3 * dims; i++) {
                fields.push_back(expr(op->args[(size_t)(6 + i)]));
            }
            shape = name + "_dim";
            line() << "halide_dimension_t " << shape << "[" << dims << "] = {";
            for (int64_t d = 0; d < dims; d++) {
                *body_ << (d ? ", " : "") << "halide_dimension_t((int32_t)" << fields[(size_t)(3 * d)] << ", (int32_t)"
                       << fields[(size_t)(3 * d + 1)] << ", (int32_t)" << fields[(size_t)(3 * d + 2)] << ", 0)";
            }
            *body_ << "};\n";
        }
        line() << "halide_buffer_t " << name << " = {0, nullptr, " << host << ", 0, halide_type_t((halide_type_code_t)"
               << code << ", " << bits << ", " << lanes << "), " << dims << ", " << shape << ", nullptr};\n";
        return "((void *)&" + name + ")";
    }
    user_error << "compile_to_c: the C++ source backend does not support the intrinsic '" << n << "'";
    return "";
}

// trace_event / trace_value (lower/AddTracing.cpp): the event's fields
// handed to halide_trace_helper, which builds the halide_trace_event_t.
// Arguments (after trace_value's value): func, event, parent id,
// value_index, number of tag parts, the tag parts, the coordinates.
std::string CodeGen_C::trace(const Call *op) {
    const bool with_value = op->name == "trace_value";
    const size_t o = with_value ? 1 : 0;
    internal_assert(op->args.size() >= o + 5) << op->name << " needs at least " << o + 5 << " arguments";
    const StringImm *func = op->args[o].as<StringImm>();
    const int64_t *tag_parts = as_const_int(op->args[o + 4]);
    internal_assert(func && tag_parts) << op->name << ": malformed";
    const size_t coords_at = o + 5 + (size_t)*tag_parts;
    const size_t dims = op->args.size() - coords_at;
    Type vt = with_value ? op->args[0].type() : Type();
    const int lanes = with_value ? vt.lanes() : 1;
    std::string value, value_ptr = "nullptr";
    if (with_value) {
        value = expr(op->args[0]);
        value_ptr = "t" + std::to_string(counter_++);
        line() << c_type(vt) << " " << value_ptr << "_v = " << value << ";\n";
        line() << "void *const " << value_ptr << " = &" << value_ptr << "_v;\n";
    }
    std::string coords = "nullptr";
    if (dims > 0) {
        coords = "t" + std::to_string(counter_++);
        line() << "int32_t " << coords << "[" << dims * (size_t)lanes << "];\n";
        for (size_t d = 0; d < dims; d++) {
            const Expr &e = op->args[coords_at + d];
            std::string c = expr(e);
            for (int l = 0; l < lanes; l++) {
                line() << coords << "[" << d * (size_t)lanes + (size_t)l << "] = (int32_t)"
                       << (e.type().is_vector() ? c + ".v[" + std::to_string(l) + "]" : c) << ";\n";
            }
        }
    }
    std::string tag = *tag_parts > 0 ? format_text(op->args, o + 5, coords_at, "", "") : "\"\"";
    std::string ev = expr(op->args[o + 1]), parent = expr(op->args[o + 2]), index = expr(op->args[o + 3]);
    // Events without a value have the type upstream gives them: handle, 0 bits, 0 lanes.
    std::string type =
        with_value ? std::to_string((int)vt.code()) + ", " + std::to_string(vt.bits()) + ", " + std::to_string(lanes)
                   : std::to_string((int)halide_type_handle) + ", 0, 0";
    std::string id =
        temp(Int(32), "halide_trace_helper(" + sym("__user_context") + ", " + c_string(func->value) + ", " + value_ptr +
                          ", " + (dims > 0 ? coords : "nullptr") + ", " + type + ", (int)" + ev + ", (int)" + parent +
                          ", (int)" + index + ", " + std::to_string(dims * (size_t)lanes) + ", " + tag + ")");
    return with_value ? value : id;
}

std::string CodeGen_C::format_text(const std::vector<Expr> &args, size_t first, size_t last, const char *sep,
                                   const char *end) {
    std::string format, values;
    for (size_t i = first; i < last; i++) {
        const Expr &a = args[i];
        Type t = a.type();
        user_assert(t.is_scalar()) << "compile_to_c: print of a vector value";
        std::string v = expr(a);
        format += i > first ? sep : "";
        if (a.as<StringImm>()) {
            format += "%s";
        } else if (t.is_float()) {
            format += t.bits() == 64 ? "%e" : "%f"; // as upstream: doubles in scientific notation
            v = "(double)" + v;
        } else if (t.is_handle()) {
            format += "%p";
        } else if (t.is_int()) {
            format += "%lld";
            v = "(long long)" + v;
        } else {
            format += "%llu";
            v = "(unsigned long long)" + v;
        }
        values += ", " + v;
    }
    format += end;
    std::string name = "t" + std::to_string(counter_++);
    line() << "char " << name << "[8192];\n"; // cut at 8191 characters, as upstream
    line() << "snprintf(" << name << ", sizeof " << name << ", " << c_string(format) << values << ");\n";
    return name;
}

} // namespace Internal
} // namespace Halide
