// The simplifier: constant folding with the IR's exact semantics, a small
// set of algebraic rules, each valid under wrap-around arithmetic, and
// bounds reasoning (Prover.h) that removes min/max/comparisons decided by
// the loop ranges, Lets and asserts around them.
#include "Halide/Simplify.h"

#include <cmath>
#include <cstring>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "Halide/Error.h"
#include "Halide/IREquality.h"
#include "Halide/IRMutator.h"
#include "Halide/IROperator.h"
#include "Halide/IRVisitor.h"
#include "simplify/Prover.h"
#include "simplify/StrictFloatScope.h"

namespace Halide {
namespace Internal {

namespace {

// StrictFloatScope.h: lowering for a strict_float target.
thread_local int strict_float_targets = 0;

bool strict_float_target() {
    return strict_float_targets > 0;
}

bool is_imm(const Expr &e) {
    return e.as<IntImm>() || e.as<UIntImm>() || e.as<FloatImm>();
}

bool is_integer_type(Type t) {
    return t.is_int() || t.is_uint();
}

// An immediate of an integer type from its bit pattern (wrapping or masking
// into t).
Expr make_bits(Type t, uint64_t bits) {
    if (t.is_int()) {
        return IntImm::make(t, (int64_t)bits);
    }
    return UIntImm::make(t, bits);
}

// The bit pattern of an integer immediate (IntImm sign-extended to 64 bits).
bool imm_bits(const Expr &e, uint64_t *bits) {
    if (const IntImm *i = e.as<IntImm>()) {
        *bits = (uint64_t)i->value;
        return true;
    }
    if (const UIntImm *u = e.as<UIntImm>()) {
        *bits = u->value;
        return true;
    }
    return false;
}

// ---------------------------------------------------------------------------
// Folding by operand type

Expr fold_int(IRNodeType k, Type t, int64_t a, int64_t b) {
    uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
    switch (k) {
    case IRNodeType::Add: return IntImm::make(t, (int64_t)(ua + ub));
    case IRNodeType::Sub: return IntImm::make(t, (int64_t)(ua - ub));
    case IRNodeType::Mul: return IntImm::make(t, (int64_t)(ua * ub));
    case IRNodeType::Div: return IntImm::make(t, div_imp<int64_t>(a, b));
    case IRNodeType::Mod: return IntImm::make(t, mod_imp<int64_t>(a, b));
    case IRNodeType::Min: return IntImm::make(t, a < b ? a : b);
    case IRNodeType::Max: return IntImm::make(t, a > b ? a : b);
    case IRNodeType::EQ: return make_bool(a == b);
    case IRNodeType::NE: return make_bool(a != b);
    case IRNodeType::LT: return make_bool(a < b);
    case IRNodeType::LE: return make_bool(a <= b);
    case IRNodeType::GT: return make_bool(a > b);
    case IRNodeType::GE: return make_bool(a >= b);
    default: return Expr();
    }
}

Expr fold_uint(IRNodeType k, Type t, uint64_t a, uint64_t b) {
    switch (k) {
    case IRNodeType::Add: return UIntImm::make(t, a + b);
    case IRNodeType::Sub: return UIntImm::make(t, a - b);
    case IRNodeType::Mul: return UIntImm::make(t, a * b);
    case IRNodeType::Div: return UIntImm::make(t, b == 0 ? 0 : a / b);
    case IRNodeType::Mod: return UIntImm::make(t, b == 0 ? 0 : a % b);
    case IRNodeType::Min: return UIntImm::make(t, a < b ? a : b);
    case IRNodeType::Max: return UIntImm::make(t, a > b ? a : b);
    case IRNodeType::EQ: return make_bool(a == b);
    case IRNodeType::NE: return make_bool(a != b);
    case IRNodeType::LT: return make_bool(a < b);
    case IRNodeType::LE: return make_bool(a <= b);
    case IRNodeType::GT: return make_bool(a > b);
    case IRNodeType::GE: return make_bool(a >= b);
    case IRNodeType::And: return make_bool(a != 0 && b != 0);
    case IRNodeType::Or: return make_bool(a != 0 || b != 0);
    default: return Expr();
    }
}

// F is float for Float(32), double for Float(64) and Float(16) (whose
// results FloatImm::make then rounds; one rounding of the exact result).
template <typename F> Expr fold_float(IRNodeType k, Type t, F a, F b) {
    F r = 0;
    switch (k) {
    case IRNodeType::Add: r = a + b; break;
    case IRNodeType::Sub: r = a - b; break;
    case IRNodeType::Mul: r = a * b; break;
    case IRNodeType::Div: r = a / b; break;
    case IRNodeType::Mod: {
        if (t.bits() == 16) {
            return Expr(); // several roundings in half precision
        }
        F q = a / b;
        q = std::floor(q);
        F p = b * q;
        r = a - p;
        break;
    }
    // As the code generator does: the second operand unless the first is
    // strictly smaller (larger), so NaN in either place and +-0 ties give b.
    case IRNodeType::Min: r = a < b ? a : b; break;
    case IRNodeType::Max: r = a > b ? a : b; break;
    case IRNodeType::EQ: return make_bool(a == b);
    case IRNodeType::NE: return make_bool(a != b);
    case IRNodeType::LT: return make_bool(a < b);
    case IRNodeType::LE: return make_bool(a <= b);
    case IRNodeType::GT: return make_bool(a > b);
    case IRNodeType::GE: return make_bool(a >= b);
    default: return Expr();
    }
    return FloatImm::make(t, (double)r);
}

Expr fold_binary(IRNodeType k, const Expr &a, const Expr &b) {
    if (a.type() != b.type()) {
        return Expr();
    }
    Type t = a.type();
    if (const IntImm *ia = a.as<IntImm>()) {
        if (const IntImm *ib = b.as<IntImm>()) {
            return fold_int(k, t, ia->value, ib->value);
        }
    } else if (const UIntImm *ua = a.as<UIntImm>()) {
        if (const UIntImm *ub = b.as<UIntImm>()) {
            return fold_uint(k, t, ua->value, ub->value);
        }
    } else if (const FloatImm *fa = a.as<FloatImm>()) {
        if (const FloatImm *fb = b.as<FloatImm>()) {
            if (t.bits() == 32) {
                return fold_float<float>(k, t, (float)fa->value, (float)fb->value);
            }
            return fold_float<double>(k, t, fa->value, fb->value);
        }
    }
    return Expr();
}

// Constant a << b or a >> b, as codegen computes it: a negative signed amount
// shifts the other way; shifting by the width or more gives 0 or the sign.
Expr fold_shift(bool left, Type t, const Expr &a, const Expr &b) {
    uint64_t abits = 0, amount = 0;
    if (!imm_bits(a, &abits) || !imm_bits(b, &amount) || b.type().bits() != t.bits()) {
        return Expr();
    }
    if (b.type().is_int() && (int64_t)amount < 0) {
        left = !left;
        amount = (uint64_t)0 - amount;
    }
    // The amount is read as an unsigned value of the operands' width.
    if (t.bits() < 64) {
        amount &= (uint64_t(1) << t.bits()) - 1;
    }
    bool too_big = amount >= (uint64_t)t.bits();
    if (left) {
        return make_bits(t, too_big ? 0 : abits << amount);
    }
    if (t.is_int()) {
        // The IntImm value is sign-extended, so an arithmetic shift of the
        // 64-bit value is the N-bit arithmetic shift.
        int64_t v = (int64_t)abits;
        return make_bits(t, (uint64_t)(v >> (too_big ? t.bits() - 1 : (int)amount)));
    }
    return make_bits(t, too_big ? 0 : abits >> amount);
}

Expr fold_reinterpret(Type t, const Expr &a) {
    Type s = a.type();
    if (s.bits() != t.bits() || s.lanes() != 1 || t.lanes() != 1) {
        return Expr();
    }
    uint64_t bits = 0;
    if (const FloatImm *f = a.as<FloatImm>()) {
        if (s.bits() == 32) {
            float v = (float)f->value;
            uint32_t b32 = 0;
            std::memcpy(&b32, &v, sizeof(v));
            bits = b32;
        } else if (s.bits() == 64) {
            std::memcpy(&bits, &f->value, sizeof(bits));
        } else {
            return Expr();
        }
    } else if (!imm_bits(a, &bits)) {
        return Expr();
    }
    if (s.bits() < 64) {
        bits &= (uint64_t(1) << s.bits()) - 1;
    }
    if (t.is_int() || t.is_uint()) {
        return make_bits(t, bits);
    }
    if (t.is_float() && t.bits() == 32) {
        uint32_t b32 = (uint32_t)bits;
        float v = 0;
        std::memcpy(&v, &b32, sizeof(v));
        return FloatImm::make(t, (double)v);
    }
    if (t.is_float() && t.bits() == 64) {
        double v = 0;
        std::memcpy(&v, &bits, sizeof(v));
        return FloatImm::make(t, v);
    }
    return Expr();
}

// The correctly-rounded C math functions (exact in IEEE arithmetic).
Expr fold_math(const Call *op) {
    if (op->args.size() != 1) {
        return Expr();
    }
    const FloatImm *f = op->args[0].as<FloatImm>();
    if (!f || op->type != op->args[0].type() || (op->type.bits() != 32 && op->type.bits() != 64)) {
        return Expr();
    }
    bool single = op->type.bits() == 32;
    std::string base = op->name;
    if (single) {
        if (base.empty() || base.back() != 'f') {
            return Expr();
        }
        base.pop_back();
    }
    double v = f->value;
    float fv = (float)v;
    double r = 0;
    if (base == "sqrt") {
        r = single ? (double)std::sqrt(fv) : std::sqrt(v);
    } else if (base == "floor") {
        r = single ? (double)std::floor(fv) : std::floor(v);
    } else if (base == "ceil") {
        r = single ? (double)std::ceil(fv) : std::ceil(v);
    } else if (base == "trunc") {
        r = single ? (double)std::trunc(fv) : std::trunc(v);
    } else if (base == "nearbyint") {
        r = single ? (double)std::nearbyint(fv) : std::nearbyint(v);
    } else if (base == "fabs") {
        r = single ? (double)std::fabs(fv) : std::fabs(v);
    } else {
        return Expr();
    }
    return FloatImm::make(op->type, r);
}

Expr fold_call(const Call *op) {
    for (const Expr &a : op->args) {
        if (!is_imm(a)) {
            return Expr();
        }
    }
    if (op->call_type == Call::Extern) {
        return fold_math(op);
    }
    if (op->call_type != Call::Intrinsic) {
        return Expr();
    }
    const std::string &n = op->name;
    Type t = op->type;
    if (n == Intrinsics::reinterpret && op->args.size() == 1) {
        return fold_reinterpret(t, op->args[0]);
    }
    if (n == Intrinsics::abs && op->args.size() == 1) {
        if (const FloatImm *f = op->args[0].as<FloatImm>()) {
            return t.is_float() ? FloatImm::make(t, std::fabs(f->value)) : Expr();
        }
    }
    if (!is_integer_type(t)) {
        return Expr();
    }
    uint64_t a = 0, b = 0;
    if (n == Intrinsics::abs && op->args.size() == 1 && imm_bits(op->args[0], &a)) {
        if (op->args[0].as<IntImm>() && (int64_t)a < 0) {
            a = (uint64_t)0 - a;
        }
        return make_bits(t, a);
    }
    if (n == Intrinsics::bitwise_not && op->args.size() == 1 && imm_bits(op->args[0], &a)) {
        return make_bits(t, ~a);
    }
    if (op->args.size() != 2) {
        return Expr();
    }
    if (n == Intrinsics::shift_left || n == Intrinsics::shift_right) {
        return fold_shift(n == Intrinsics::shift_left, t, op->args[0], op->args[1]);
    }
    if (!imm_bits(op->args[0], &a) || !imm_bits(op->args[1], &b)) {
        return Expr();
    }
    if (n == Intrinsics::bitwise_and) {
        return make_bits(t, a & b);
    }
    if (n == Intrinsics::bitwise_or) {
        return make_bits(t, a | b);
    }
    if (n == Intrinsics::bitwise_xor) {
        return make_bits(t, a ^ b);
    }
    return Expr();
}

// Does a Let, LetStmt or For inside the node bind `name`? (Substituting the
// variable `name` into it would then be captured.)
class FindsBinder : public IRVisitor {
public:
    explicit FindsBinder(const std::string &n) : name(n) {}
    const std::string &name;
    bool found = false;

protected:
    using IRVisitor::visit;
    void visit(const Let *op) override {
        found = found || op->name == name;
        IRVisitor::visit(op);
    }
    void visit(const LetStmt *op) override {
        found = found || op->name == name;
        IRVisitor::visit(op);
    }
    void visit(const For *op) override {
        found = found || op->name == name;
        IRVisitor::visit(op);
    }
};

template <typename Body> bool substitutable(const Expr &value, const Body &body) {
    if (is_imm(value)) {
        return true;
    }
    const Variable *v = value.as<Variable>();
    if (!v) {
        return false;
    }
    FindsBinder finder(v->name);
    finder.include(body);
    return !finder.found;
}

// ---------------------------------------------------------------------------
// The mutator

class Simplifier : public IRMutator {
public:
    using IRMutator::mutate;

protected:
    using IRMutator::visit;

    // Replacements for Let-bound names (undefined entries hide a name).
    std::map<std::string, std::vector<Expr>> scope_;
    // What the enclosing loops, Lets, asserts and ifs say about names.
    Prover prover_;
    // Inside strict_float(): no float rewrite that could change a result.
    int strict_float_depth_ = 0;

    void push(const std::string &n, Expr v) { scope_[n].push_back(std::move(v)); }
    void pop(const std::string &n) {
        auto it = scope_.find(n);
        internal_assert(it != scope_.end()) << "Simplifier scope underflow for " << n;
        it->second.pop_back();
        if (it->second.empty()) {
            scope_.erase(it);
        }
    }

    // Bind `n` to a runtime value within a body: hide any replacement for n.
    std::vector<std::string> hide(const std::string &n) {
        push(n, Expr());
        return {n};
    }
    void unhide(const std::vector<std::string> &hidden) {
        for (const std::string &h : hidden) {
            pop(h);
        }
    }

    // ----- rules on already-simplified operands -----

    Expr add(Expr a, Expr b) {
        if (is_imm(a) && is_imm(b)) {
            Expr f = fold_binary(IRNodeType::Add, a, b);
            if (f.defined()) {
                return f;
            }
        }
        if (!is_integer_type(a.type())) {
            return Add::make(std::move(a), std::move(b));
        }
        if (is_imm(a) && !is_imm(b)) {
            std::swap(a, b);
        }
        if (is_const_zero(b)) {
            return a;
        }
        if (is_imm(b)) {
            if (const Add *aa = a.as<Add>()) {
                if (is_imm(aa->b)) { // (x + c1) + c2
                    return add(aa->a, fold_binary(IRNodeType::Add, aa->b, b));
                }
            }
            if (const Sub *as = a.as<Sub>()) {
                if (is_imm(as->b)) { // (x - c1) + c2
                    return add(as->a, fold_binary(IRNodeType::Sub, b, as->b));
                }
                if (is_imm(as->a)) { // (c1 - x) + c2
                    return sub(fold_binary(IRNodeType::Add, as->a, b), as->b);
                }
            }
        }
        if (const Sub *bs = b.as<Sub>()) {
            if (equal(bs->b, a)) { // x + (y - x)
                return bs->a;
            }
        }
        if (const Sub *as = a.as<Sub>()) {
            if (equal(as->b, b)) { // (x - y) + y
                return as->a;
            }
        }
        return Add::make(std::move(a), std::move(b));
    }

    Expr sub(Expr a, Expr b) {
        if (is_imm(a) && is_imm(b)) {
            Expr f = fold_binary(IRNodeType::Sub, a, b);
            if (f.defined()) {
                return f;
            }
        }
        Type t = a.type();
        if (!is_integer_type(t)) {
            return Sub::make(std::move(a), std::move(b));
        }
        if (equal(a, b)) {
            return make_zero(t);
        }
        if (is_const_zero(b)) {
            return a;
        }
        if (is_imm(b)) {
            if (t.is_int()) { // x - c == x + (-c) in wrap-around arithmetic
                return add(a, fold_binary(IRNodeType::Sub, make_zero(t), b));
            }
            if (const Add *aa = a.as<Add>()) {
                if (is_imm(aa->b)) { // (x + c1) - c2
                    return add(aa->a, fold_binary(IRNodeType::Sub, aa->b, b));
                }
            }
            if (const Sub *as = a.as<Sub>()) {
                if (is_imm(as->b)) { // (x - c1) - c2
                    return sub(as->a, fold_binary(IRNodeType::Add, as->b, b));
                }
            }
        }
        if (const Add *aa = a.as<Add>()) {
            if (equal(aa->a, b)) { // (x + y) - x
                return aa->b;
            }
            if (equal(aa->b, b)) { // (x + y) - y
                return aa->a;
            }
            if (is_imm(aa->b)) {
                if (const Add *ba = b.as<Add>()) {
                    if (is_imm(ba->b)) { // (x + c1) - (y + c2)
                        return add(sub(aa->a, ba->a), fold_binary(IRNodeType::Sub, aa->b, ba->b));
                    }
                }
            }
        }
        if (std::optional<int64_t> d = prover_.constant_difference(a, b)) {
            return make_const(t, *d);
        }
        if (const Add *ba = b.as<Add>()) {
            if (equal(ba->a, a)) { // x - (x + y)
                return sub(make_zero(t), ba->b);
            }
            if (equal(ba->b, a)) { // y - (x + y)
                return sub(make_zero(t), ba->a);
            }
            if (is_imm(a) && is_imm(ba->b)) { // c1 - (x + c2)
                return sub(fold_binary(IRNodeType::Sub, a, ba->b), ba->a);
            }
        }
        return Sub::make(std::move(a), std::move(b));
    }

    Expr mul(Expr a, Expr b) {
        if (is_imm(a) && is_imm(b)) {
            Expr f = fold_binary(IRNodeType::Mul, a, b);
            if (f.defined()) {
                return f;
            }
        }
        if (!is_integer_type(a.type())) {
            if (is_const_one(b)) {
                return a;
            }
            return Mul::make(std::move(a), std::move(b));
        }
        if (is_imm(a) && !is_imm(b)) {
            std::swap(a, b);
        }
        if (is_const_one(b)) {
            return a;
        }
        if (is_const_zero(b)) {
            return b;
        }
        if (is_imm(b)) {
            if (const Mul *am = a.as<Mul>()) {
                if (is_imm(am->b)) { // (x * c1) * c2
                    return mul(am->a, fold_binary(IRNodeType::Mul, am->b, b));
                }
            }
        }
        return Mul::make(std::move(a), std::move(b));
    }

    template <typename Node> Expr min_or_max(Expr a, Expr b) {
        constexpr bool is_min = Node::kind == IRNodeType::Min;
        if (is_imm(a) && is_imm(b)) {
            Expr f = fold_binary(Node::kind, a, b);
            if (f.defined()) {
                return f;
            }
        }
        if (equal(a, b)) {
            return a;
        }
        Type t = a.type();
        if (!is_integer_type(t)) {
            return Node::make(std::move(a), std::move(b));
        }
        if (is_imm(a) && !is_imm(b)) {
            std::swap(a, b);
        }
        if (is_imm(b)) {
            // Against the type's own extremes.
            Expr lo = make_const(t, t.imin());
            Expr hi = t.is_int() ? make_const(t, t.imax()) : make_const(t, t.umax());
            if (equal(b, is_min ? hi : lo)) {
                return a;
            }
            if (equal(b, is_min ? lo : hi)) {
                return b;
            }
            if (const Node *inner = a.as<Node>()) {
                if (is_imm(inner->b)) { // min(min(x, c1), c2)
                    return min_or_max<Node>(inner->a, fold_binary(Node::kind, inner->b, b));
                }
            }
        }
        if (prover_.prove_le(a, b)) {
            return is_min ? a : b;
        }
        if (prover_.prove_le(b, a)) {
            return is_min ? b : a;
        }
        return Node::make(std::move(a), std::move(b));
    }

    // Whether a < b (or a <= b) is decided by the bounds of its sides.
    std::optional<bool> decide_order(const Expr &a, const Expr &b, bool strict) {
        if (strict ? prover_.prove_lt(a, b) : prover_.prove_le(a, b)) {
            return true;
        }
        if (strict ? prover_.prove_le(b, a) : prover_.prove_lt(b, a)) {
            return false;
        }
        return std::nullopt;
    }

    template <typename Node> Expr compare(Expr a, Expr b) {
        if (is_imm(a) && is_imm(b)) {
            Expr f = fold_binary(Node::kind, a, b);
            if (f.defined()) {
                return f;
            }
        }
        constexpr IRNodeType k = Node::kind;
        if (is_integer_type(a.type()) && equal(a, b)) {
            return make_bool(k == IRNodeType::EQ || k == IRNodeType::LE || k == IRNodeType::GE);
        }
        if (k == IRNodeType::LT || k == IRNodeType::LE || k == IRNodeType::GT || k == IRNodeType::GE) {
            bool flip = k == IRNodeType::GT || k == IRNodeType::GE;
            std::optional<bool> d =
                decide_order(flip ? b : a, flip ? a : b, k == IRNodeType::LT || k == IRNodeType::GT);
            if (d) {
                return make_bool(*d);
            }
        }
        return Node::make(std::move(a), std::move(b));
    }

    Expr logical_not(Expr a) {
        if (const UIntImm *u = a.as<UIntImm>()) {
            return make_bool(u->value == 0);
        }
        if (const Not *n = a.as<Not>()) {
            return n->a;
        }
        return Not::make(std::move(a));
    }

    // ----- expressions -----

    template <typename Node> bool unchanged(const Node *op, const Expr &a, const Expr &b) {
        return a.same_as(op->a) && b.same_as(op->b);
    }

    template <typename Node> Expr keep_or(const Node *op, const Expr &a, const Expr &b, Expr result) {
        // Keep the original handle when nothing changed.
        if (unchanged(op, a, b) && result.as<Node>() && result.template as<Node>()->a.same_as(a) &&
            result.template as<Node>()->b.same_as(b)) {
            return self_expr(op);
        }
        return result;
    }

    Expr visit(const Variable *op) override {
        auto it = scope_.find(op->name);
        if (it != scope_.end() && it->second.back().defined()) {
            return it->second.back();
        }
        return self_expr(op);
    }

    Expr visit(const Cast *op) override {
        Expr v = mutate(op->value);
        if (v.type() == op->type) {
            return v;
        }
        Expr f = cast_constant(op->type, v);
        if (f.defined()) {
            return f;
        }
        if (v.same_as(op->value)) {
            return self_expr(op);
        }
        return Cast::make(op->type, std::move(v));
    }

    Expr visit(const Add *op) override {
        Expr a = mutate(op->a), b = mutate(op->b);
        return keep_or(op, a, b, add(a, b));
    }
    Expr visit(const Sub *op) override {
        Expr a = mutate(op->a), b = mutate(op->b);
        return keep_or(op, a, b, sub(a, b));
    }
    Expr visit(const Mul *op) override {
        Expr a = mutate(op->a), b = mutate(op->b);
        return keep_or(op, a, b, mul(a, b));
    }

    Expr visit(const Div *op) override {
        Expr a = mutate(op->a), b = mutate(op->b);
        if (is_imm(a) && is_imm(b)) {
            Expr f = fold_binary(IRNodeType::Div, a, b);
            if (f.defined()) {
                return f;
            }
        }
        if (is_const_one(b)) {
            return a; // exact for integers and floats
        }
        if (is_integer_type(op->type) && is_const_zero(b)) {
            return b; // x / 0 == 0
        }
        // As upstream: a float divided by a constant is multiplied by its
        // reciprocal (1 / c in double, rounded once to the type; not exact),
        // except under strict_float().
        if (op->type.is_float() && strict_float_depth_ == 0 && !strict_float_target()) {
            const Broadcast *bc = b.as<Broadcast>();
            const FloatImm *c = (bc ? bc->value : b).as<FloatImm>();
            if (c) {
                Expr r = FloatImm::make(c->type, 1.0 / c->value);
                return mul(a, bc ? Broadcast::make(r, bc->lanes) : r);
            }
        }
        return keep_or(op, a, b, Div::make(a, b));
    }

    Expr visit(const Mod *op) override {
        Expr a = mutate(op->a), b = mutate(op->b);
        if (is_imm(a) && is_imm(b)) {
            Expr f = fold_binary(IRNodeType::Mod, a, b);
            if (f.defined()) {
                return f;
            }
        }
        if (is_integer_type(op->type) && (is_const_zero(b) || is_const_one(b))) {
            return make_zero(op->type); // x % 0 == 0, x % 1 == 0
        }
        return keep_or(op, a, b, Mod::make(a, b));
    }

    Expr visit(const Min *op) override {
        Expr a = mutate(op->a), b = mutate(op->b);
        return keep_or(op, a, b, min_or_max<Min>(a, b));
    }
    Expr visit(const Max *op) override {
        Expr a = mutate(op->a), b = mutate(op->b);
        return keep_or(op, a, b, min_or_max<Max>(a, b));
    }

#define HALIDE_SIMPLIFY_CMP(N)                                                                                         \
    Expr visit(const N *op) override {                                                                                 \
        Expr a = mutate(op->a), b = mutate(op->b);                                                                     \
        return keep_or(op, a, b, compare<N>(a, b));                                                                    \
    }
    HALIDE_SIMPLIFY_CMP(EQ)
    HALIDE_SIMPLIFY_CMP(NE)
    HALIDE_SIMPLIFY_CMP(LT)
    HALIDE_SIMPLIFY_CMP(LE)
    HALIDE_SIMPLIFY_CMP(GT)
    HALIDE_SIMPLIFY_CMP(GE)
#undef HALIDE_SIMPLIFY_CMP

    // And and Or: a constant side either decides the result or drops out;
    // `absorbs` is the constant that decides it (false for And, true for Or).
    template <typename Node> Expr fold_logical(const Node *op, bool absorbs) {
        Expr a = mutate(op->a), b = mutate(op->b);
        for (int i = 0; i < 2; i++) {
            if (const UIntImm *u = a.as<UIntImm>()) {
                return (u->value != 0) == absorbs ? a : b;
            }
            std::swap(a, b);
        }
        if (equal(a, b)) {
            return a;
        }
        return keep_or(op, a, b, Node::make(a, b));
    }

    Expr visit(const And *op) override {
        return fold_logical(op, false);
    }

    Expr visit(const Or *op) override {
        return fold_logical(op, true);
    }

    Expr visit(const Not *op) override {
        Expr a = mutate(op->a);
        if (a.same_as(op->a) && !is_imm(a) && !a.as<Not>()) {
            return self_expr(op);
        }
        return logical_not(std::move(a));
    }

    Expr visit(const Select *op) override {
        Expr c = mutate(op->condition);
        if (const UIntImm *u = c.as<UIntImm>()) {
            return mutate(u->value ? op->true_value : op->false_value);
        }
        Expr t = mutate(op->true_value), f = mutate(op->false_value);
        if (equal(t, f)) {
            return t;
        }
        if (c.same_as(op->condition) && t.same_as(op->true_value) && f.same_as(op->false_value)) {
            return self_expr(op);
        }
        return Select::make(std::move(c), std::move(t), std::move(f));
    }

    Expr visit(const Call *op) override {
        bool changed = false;
        const bool strict = op->call_type == Call::Intrinsic && op->name == Intrinsics::strict_float;
        strict_float_depth_ += strict;
        std::vector<Expr> args = mutate_exprs(op->args, &changed);
        strict_float_depth_ -= strict;
        Expr result = changed ? Call::make(op->type, op->name, args, op->call_type, op->value_index) : self_expr(op);
        if (const Call *c = result.as<Call>()) {
            Expr f = fold_call(c);
            if (f.defined()) {
                return f;
            }
        }
        return result;
    }

    // Let and LetStmt: a value the body may take as it is (a constant, a
    // variable) is substituted; otherwise the name stays bound, hidden from
    // substitution, and the prover knows its definition inside the body.
    template <typename Node, typename Body> auto simplify_let(const Node *op) {
        Expr value = mutate(op->value);
        if (substitutable(value, op->body)) {
            push(op->name, value);
            Body body = mutate(op->body);
            pop(op->name);
            return body;
        }
        std::vector<std::string> hidden = hide(op->name);
        prover_.push_definition(op->name, value);
        Body body = mutate(op->body);
        prover_.pop(op->name);
        unhide(hidden);
        if (!body.defined()) {
            return Body(); // a LetStmt whose body vanished
        }
        if (value.same_as(op->value) && body.same_as(op->body)) {
            return Body(self_node(op));
        }
        return Body(Node::make(op->name, std::move(value), std::move(body)));
    }
    Expr self_node(const Let *op) {
        return self_expr(op);
    }
    Stmt self_node(const LetStmt *op) {
        return self_stmt(op);
    }

    Expr visit(const Let *op) override {
        return simplify_let<Let, Expr>(op);
    }

    // ----- statements -----

    Stmt visit(const LetStmt *op) override {
        return simplify_let<LetStmt, Stmt>(op);
    }

    Stmt visit(const For *op) override {
        Expr min = mutate(op->min), extent = mutate(op->extent);
        if (const int64_t *e = as_const_int(extent)) {
            if (*e <= 0) {
                return Stmt();
            }
        } else if (const uint64_t *e = as_const_uint(extent)) {
            if (*e == 0) {
                return Stmt();
            }
        }
        std::vector<std::string> hidden = hide(op->name);
        prover_.push_range(op->name, min, Sub::make(Add::make(min, extent), make_one(extent.type())));
        Stmt body = mutate(op->body);
        prover_.pop(op->name);
        unhide(hidden);
        if (!body.defined()) {
            return Stmt();
        }
        if (min.same_as(op->min) && extent.same_as(op->extent) && body.same_as(op->body)) {
            return self_stmt(op);
        }
        return For::make(op->name, std::move(min), std::move(extent), op->for_type, std::move(body));
    }

    Stmt visit(const IfThenElse *op) override {
        Expr c = mutate(op->condition);
        // likely(true) / likely(false) (a guard proven to hold or fail) decide as the constant.
        const Call *hint = c.as<Call>();
        const bool is_hint = hint && hint->call_type == Call::Intrinsic && hint->args.size() == 1 &&
                             (hint->name == "likely" || hint->name == "likely_if_innermost");
        if (const UIntImm *u = (is_hint ? hint->args[0] : c).as<UIntImm>()) {
            return mutate(u->value ? op->then_case : op->else_case);
        }
        Stmt then_case = with_facts(c, [&] { return mutate(op->then_case); });
        Stmt else_case = mutate(op->else_case);
        if (!then_case.defined() && !else_case.defined()) {
            return Stmt();
        }
        if (c.same_as(op->condition) && then_case.same_as(op->then_case) && else_case.same_as(op->else_case)) {
            return self_stmt(op);
        }
        if (!then_case.defined()) {
            return IfThenElse::make(logical_not(std::move(c)), std::move(else_case));
        }
        return IfThenElse::make(std::move(c), std::move(then_case), std::move(else_case));
    }

    // f() with what `condition` (known to hold) says about single names.
    template <typename F> Stmt with_facts(const Expr &condition, F f) {
        std::vector<std::string> learned = prover_.learn(condition);
        Stmt s = f();
        for (auto it = learned.rbegin(); it != learned.rend(); ++it) {
            prover_.pop(*it);
        }
        return s;
    }

    // Asserts in `first` hold for everything in `rest`.
    Stmt visit(const Block *op) override {
        Stmt first = mutate(op->first);
        Expr facts = asserted(first);
        Stmt rest = facts.defined() ? with_facts(facts, [&] { return mutate(op->rest); }) : mutate(op->rest);
        if (first.same_as(op->first) && rest.same_as(op->rest)) {
            return self_stmt(op);
        }
        if (!first.defined() || !rest.defined()) {
            return first.defined() ? first : rest;
        }
        return Block::make(std::move(first), std::move(rest));
    }

    // The conjunction of the asserts at the top level of s (through Blocks).
    static Expr asserted(const Stmt &s) {
        if (!s.defined()) {
            return Expr();
        }
        if (const AssertStmt *a = s.as<AssertStmt>()) {
            return a->condition;
        }
        if (const Block *b = s.as<Block>()) {
            Expr x = asserted(b->first), y = asserted(b->rest);
            return !x.defined() ? y : (!y.defined() ? x : And::make(x, y));
        }
        return Expr();
    }

    Stmt visit(const AssertStmt *op) override {
        Expr c = mutate(op->condition);
        if (const UIntImm *u = c.as<UIntImm>()) {
            if (u->value) {
                return Stmt();
            }
        }
        Expr m = mutate(op->message);
        if (c.same_as(op->condition) && m.same_as(op->message)) {
            return self_stmt(op);
        }
        return AssertStmt::make(std::move(c), std::move(m));
    }
};

} // namespace

Expr constant_fold(const Expr &e) {
    if (!e.defined()) {
        return Expr();
    }
    switch (e->node_type) {
    case IRNodeType::Cast: {
        const Cast *c = e.as<Cast>();
        return is_imm(c->value) ? cast_constant(c->type, c->value) : Expr();
    }
#define HALIDE_FOLD_BINARY(N)                                                                                          \
    case IRNodeType::N: {                                                                                              \
        const N *n = e.as<N>();                                                                                        \
        return is_imm(n->a) && is_imm(n->b) ? fold_binary(IRNodeType::N, n->a, n->b) : Expr();                         \
    }
        HALIDE_FOLD_BINARY(Add)
        HALIDE_FOLD_BINARY(Sub)
        HALIDE_FOLD_BINARY(Mul)
        HALIDE_FOLD_BINARY(Div)
        HALIDE_FOLD_BINARY(Mod)
        HALIDE_FOLD_BINARY(Min)
        HALIDE_FOLD_BINARY(Max)
        HALIDE_FOLD_BINARY(EQ)
        HALIDE_FOLD_BINARY(NE)
        HALIDE_FOLD_BINARY(LT)
        HALIDE_FOLD_BINARY(LE)
        HALIDE_FOLD_BINARY(GT)
        HALIDE_FOLD_BINARY(GE)
        HALIDE_FOLD_BINARY(And)
        HALIDE_FOLD_BINARY(Or)
#undef HALIDE_FOLD_BINARY
    case IRNodeType::Not: {
        const UIntImm *u = e.as<Not>()->a.as<UIntImm>();
        return u ? make_bool(u->value == 0) : Expr();
    }
    case IRNodeType::Select: {
        const Select *s = e.as<Select>();
        const UIntImm *u = s->condition.as<UIntImm>();
        if (!u) {
            return Expr();
        }
        const Expr &r = u->value ? s->true_value : s->false_value;
        return is_imm(r) ? r : Expr();
    }
    case IRNodeType::Call: return fold_call(e.as<Call>());
    default: return Expr();
    }
}

StrictFloatScope::StrictFloatScope(bool strict) : strict_(strict) {
    strict_float_targets += strict_;
}

StrictFloatScope::~StrictFloatScope() {
    strict_float_targets -= strict_;
}

Expr simplify(const Expr &e) {
    Simplifier s;
    return s.mutate(e);
}

Stmt simplify(const Stmt &st) {
    if (!st.defined()) {
        return st;
    }
    Simplifier s;
    Stmt r = s.mutate(st);
    if (!r.defined()) {
        return Evaluate::make(make_zero(Int(32)));
    }
    return r;
}

bool can_prove(const Expr &e) {
    user_assert(e.defined() && e.type().is_bool()) << "can_prove needs a boolean expression";
    Expr s = simplify(e); // keeps the node alive while it is read
    const UIntImm *u = s.as<UIntImm>();
    return u && u->value == 1;
}

} // namespace Internal
} // namespace Halide
