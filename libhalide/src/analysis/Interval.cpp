// See Interval.h. Rules are conservative: when unsure, the answer is wider.
#include "analysis/Interval.h"
#include "analysis/IntervalEnds.h"

#include "Halide/Error.h"
#include "Halide/IREquality.h"
#include "Halide/IROperator.h"
#include "Halide/IRVisitor.h"
#include "ir/IntrinsicNames.h"
#include "ir/UsesVars.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <iterator>
#include <optional>

namespace Halide {
namespace Internal {
namespace {
thread_local const FuncValueBounds *current_func_value_bounds = nullptr;

// The values Func call `op` may give, if lowering knows them.
const Interval *func_value_bounds(const Call *op) {
    if (op->call_type != Call::Halide || !current_func_value_bounds) {
        return nullptr;
    }
    auto it = current_func_value_bounds->find({op->name, op->value_index});
    return it == current_func_value_bounds->end() ? nullptr : &it->second;
}
} // namespace

FuncValueBoundsScope::FuncValueBoundsScope(FuncValueBounds bounds)
    : bounds_(std::move(bounds)), outer_(current_func_value_bounds) {
    current_func_value_bounds = &bounds_;
}

FuncValueBoundsScope::~FuncValueBoundsScope() {
    current_func_value_bounds = outer_;
}

namespace interval_ends {

Expr int32(int64_t v) {
    return IntImm::make(Int(32), v);
}

const int64_t *as_int(const Expr &e) {
    if (const IntImm *i = e.as<IntImm>()) {
        return &i->value;
    }
    return nullptr;
}

const double *as_float(const Expr &e) {
    if (const FloatImm *f = e.as<FloatImm>()) {
        return &f->value;
    }
    return nullptr;
}

// min/max that tolerate unbounded ends: an unbounded end wins for the outer
// bound and loses for the inner one.
Expr make_min(const Expr &a, const Expr &b) {
    if (!a.defined() || !b.defined()) {
        return Expr();
    }
    const int64_t *ca = as_int(a), *cb = as_int(b);
    if (ca && cb) {
        return int32(std::min(*ca, *cb));
    }
    const double *fa = as_float(a), *fb = as_float(b);
    if (fa && fb && a.type() == b.type()) {
        return *fa <= *fb ? a : b;
    }
    if (a.same_as(b)) {
        return a;
    }
    return Min::make(a, b);
}

Expr make_max(const Expr &a, const Expr &b) {
    if (!a.defined() || !b.defined()) {
        return Expr();
    }
    const int64_t *ca = as_int(a), *cb = as_int(b);
    if (ca && cb) {
        return int32(std::max(*ca, *cb));
    }
    const double *fa = as_float(a), *fb = as_float(b);
    if (fa && fb && a.type() == b.type()) {
        return *fa >= *fb ? a : b;
    }
    if (a.same_as(b)) {
        return a;
    }
    return Max::make(a, b);
}

} // namespace interval_ends

namespace {

using interval_ends::as_float;
using interval_ends::as_int;
using interval_ends::int32;
using interval_ends::make_max;
using interval_ends::make_min;

// The range of an integer type in int32 index math; unbounded for floats,
// handles and integers of 32 bits or more.
Expr type_min(Type t) {
    if (t.is_bool()) {
        return int32(0);
    }
    return (t.bits() >= 32 || !(t.is_int() || t.is_uint())) ? Expr() : int32(t.imin());
}

Expr type_max(Type t) {
    if (t.is_bool()) {
        return int32(1);
    }
    return (t.bits() >= 32 || !(t.is_int() || t.is_uint())) ? Expr() : int32((int64_t)t.imax());
}

// a * b for interval ends, without the 0 * s and 1 * s that multiplying a
// constant end by a symbol would leave (0 * s is taken as 0 for floats too,
// as upstream: an infinite or NaN symbol is not accounted for).
Expr mul_end(const Expr &a, const Expr &b) {
    for (int i = 0; i < 2; i++) {
        const Expr &c = i == 0 ? a : b, &s = i == 0 ? b : a;
        const double *f = as_float(c);
        const int64_t *n = as_int(c);
        if ((f && *f == 0) || (n && *n == 0)) {
            return c;
        }
        if ((f && *f == 1) || (n && *n == 1)) {
            return s;
        }
    }
    return Mul::make(a, b);
}

// The sign of a constant interval end: 1, -1, 0 for zero, nothing if not constant.
std::optional<int> constant_sign(const Expr &e) {
    if (const int64_t *n = as_int(e)) {
        return *n > 0 ? 1 : (*n < 0 ? -1 : 0);
    }
    if (const double *f = as_float(e)) {
        return *f > 0 ? 1 : (*f < 0 ? -1 : 0);
    }
    return std::nullopt;
}

// The value of an integer constant expression (IntImm leaves under + - * /
// min max, as interval ends are built), or nothing.
std::optional<int64_t> fold_constant(const Expr &e) {
    if (const int64_t *c = as_int(e)) {
        return *c;
    }
    auto both = [](const Expr &a, const Expr &b) -> std::optional<std::pair<int64_t, int64_t>> {
        std::optional<int64_t> x = fold_constant(a), y = fold_constant(b);
        const int64_t limit = int64_t(1) << 40; // far from overflow in the operations below
        if (!x || !y || *x > limit || *x < -limit || *y > limit || *y < -limit) {
            return std::nullopt;
        }
        return std::make_pair(*x, *y);
    };
    if (const Add *op = e.as<Add>()) {
        if (auto p = both(op->a, op->b)) {
            return p->first + p->second;
        }
    } else if (const Sub *op = e.as<Sub>()) {
        if (auto p = both(op->a, op->b)) {
            return p->first - p->second;
        }
    } else if (const Mul *op = e.as<Mul>()) {
        if (auto p = both(op->a, op->b)) {
            return p->first * p->second;
        }
    } else if (const Div *op = e.as<Div>()) {
        if (auto p = both(op->a, op->b); p && p->second != 0) {
            // Euclidean, as the language divides: the remainder is never
            // negative (down for a positive divisor, up for a negative one).
            int64_t q = p->first / p->second, r = p->first % p->second;
            return r < 0 ? (p->second > 0 ? q - 1 : q + 1) : q;
        }
    } else if (const Min *op = e.as<Min>()) {
        if (auto p = both(op->a, op->b)) {
            return std::min(p->first, p->second);
        }
    } else if (const Max *op = e.as<Max>()) {
        if (auto p = both(op->a, op->b)) {
            return std::max(p->first, p->second);
        }
    }
    return std::nullopt;
}

// A constant bound (from above if `upper`, else from below) of the exact
// value of an integer interval end built of constants under + - * / min max
// (the min(e, 127) a saturating cast leaves, whatever e is), or nothing.
// Exact: the bound holds of the end in unbounded arithmetic, whatever an
// evaluation of it in int32 would give. (Ends share subexpressions: each
// is visited once.)
class ConstantBound {
public:
    std::optional<int64_t> operator()(const Expr &e, bool upper) {
        if (!e.defined()) {
            return std::nullopt;
        }
        auto key = std::make_pair(e.get(), upper);
        auto it = memo_.find(key);
        if (it != memo_.end()) {
            return it->second;
        }
        std::optional<int64_t> r = compute(e, upper);
        memo_.emplace(key, r);
        return r;
    }

private:
    static constexpr int64_t limit = int64_t(1) << 40; // far from overflow in the operations below

    static std::optional<int64_t> in_range(std::optional<int64_t> v) {
        return v && *v <= limit && *v >= -limit ? v : std::nullopt;
    }

    std::optional<int64_t> compute(const Expr &e, bool upper) {
        if (const int64_t *c = as_int(e)) {
            return in_range(*c);
        }
        auto both = [&](const Expr &a, bool ua, const Expr &b, bool ub) -> std::optional<std::pair<int64_t, int64_t>> {
            std::optional<int64_t> x = (*this)(a, ua), y = (*this)(b, ub);
            if (!x || !y) {
                return std::nullopt;
            }
            return std::make_pair(*x, *y);
        };
        if (const Min *op = e.as<Min>()) {
            // min(a, b) is at most either one, and at least the smaller lower bound.
            std::optional<int64_t> a = (*this)(op->a, upper), b = (*this)(op->b, upper);
            if (upper) {
                return a && b ? std::min(*a, *b) : (a ? a : b);
            }
            return a && b ? std::optional<int64_t>(std::min(*a, *b)) : std::nullopt;
        }
        if (const Max *op = e.as<Max>()) {
            std::optional<int64_t> a = (*this)(op->a, upper), b = (*this)(op->b, upper);
            if (!upper) {
                return a && b ? std::max(*a, *b) : (a ? a : b);
            }
            return a && b ? std::optional<int64_t>(std::max(*a, *b)) : std::nullopt;
        }
        if (const Add *op = e.as<Add>()) {
            if (auto p = both(op->a, upper, op->b, upper)) {
                return in_range(p->first + p->second);
            }
        } else if (const Sub *op = e.as<Sub>()) {
            if (auto p = both(op->a, upper, op->b, !upper)) {
                return in_range(p->first - p->second);
            }
        } else if (const Mul *op = e.as<Mul>()) {
            for (int i = 0; i < 2; i++) {
                const Expr &k = i == 0 ? op->b : op->a, &v = i == 0 ? op->a : op->b;
                if (const int64_t *c = as_int(k); c && *c <= limit && *c >= -limit) {
                    // v * c: v's bound on the same side for c >= 0, the other side below.
                    std::optional<int64_t> b = *c == 0 ? std::optional<int64_t>(0) : (*this)(v, (*c > 0) == upper);
                    return b ? in_range(*b * *c) : std::nullopt;
                }
            }
        } else if (const Div *op = e.as<Div>()) {
            if (const int64_t *c = as_int(op->b); c && *c > 0) {
                // Rounding down, as the language divides by a positive number.
                if (std::optional<int64_t> b = (*this)(op->a, upper)) {
                    int64_t q = *b / *c;
                    return q * *c > *b ? q - 1 : q;
                }
            }
        }
        return std::nullopt;
    }

    std::map<std::pair<const IRNode *, bool>, std::optional<int64_t>> memo_;
};

std::optional<int64_t> constant_bound(const Expr &e, bool upper) {
    return ConstantBound()(e, upper);
}

// An int32 interval end with its + - * / min max evaluated in 64 bits
// (each other term, a variable or a cast, is an int32 value); cast back to
// int32, it is the end known to fit int32 whose sums and products may not.
// Undefined for an end not of int32. Shared subexpressions stay shared.
class Widen {
public:
    Expr operator()(const Expr &e) {
        auto it = memo_.find(e.get());
        if (it != memo_.end()) {
            return it->second;
        }
        Expr r = compute(e);
        memo_.emplace(e.get(), r);
        return r;
    }

private:
    template <typename Node> Expr pair(const Node *op) {
        Expr a = (*this)(op->a), b = (*this)(op->b);
        return a.defined() && b.defined() ? Node::make(a, b) : Expr();
    }

    Expr compute(const Expr &e) {
        if (e.type() != Int(32)) {
            return Expr();
        }
        if (const int64_t *c = as_int(e)) {
            return IntImm::make(Int(64), *c);
        }
        if (const Add *op = e.as<Add>()) {
            return pair(op);
        }
        if (const Sub *op = e.as<Sub>()) {
            return pair(op);
        }
        if (const Mul *op = e.as<Mul>()) {
            return pair(op);
        }
        if (const Div *op = e.as<Div>()) {
            return pair(op);
        }
        if (const Min *op = e.as<Min>()) {
            return pair(op);
        }
        if (const Max *op = e.as<Max>()) {
            return pair(op);
        }
        return Cast::make(Int(64), e);
    }

    std::map<const IRNode *, Expr> memo_;
};

Expr widened(const Expr &e) {
    return Widen()(e);
}

// An int32 end evaluated in 64 bits and cast back (see Widen).
Expr in_64_bits(const Expr &e) {
    if (as_int(e)) {
        return e;
    }
    Expr w = widened(e);
    return w.defined() ? Cast::make(Int(32), w) : Expr();
}

// The integer constant an interval is, if it is one: a split's extent can
// arrive unsimplified ((4 + (2 - 1)) / 2), its ends two equal expressions.
std::optional<int64_t> constant_of(const Interval &b) {
    if (!b.min.defined() || !b.max.defined()) {
        return std::nullopt;
    }
    std::optional<int64_t> lo = fold_constant(b.min);
    if (!lo || !(b.min.same_as(b.max) || fold_constant(b.max) == lo)) {
        return std::nullopt;
    }
    return lo;
}

template <typename Node> Expr binary(const Expr &a, const Expr &b) {
    return (a.defined() && b.defined()) ? Node::make(a, b) : Expr();
}

class Bounds : public IRVisitor {
public:
    explicit Bounds(const Scope &scope) : scope_(scope) {}
    Interval result;

    Interval of(const Expr &e) {
        if (invariant_narrow_integer(e)) {
            // Evaluated the same way wherever the bound is used, wrapping
            // and all: its own single point (a Param<int16_t> times 2).
            result = Interval::single_point(Cast::make(Int(32), e));
            return result;
        }
        include(e);
        return result;
    }

    using IRVisitor::visit;

    void visit(const IntImm *op) override { result = constant(op->value, false); }
    void visit(const UIntImm *op) override { result = constant((int64_t)op->value, op->value > (uint64_t)INT64_MAX); }
    void visit(const FloatImm *op) override { result = Interval::single_point(Expr(std::make_shared<FloatImm>(*op))); }
    void visit(const StringImm *) override { result = Interval{}; }

    void visit(const Variable *op) override {
        auto it = scope_.find(op->name);
        if (it != scope_.end()) {
            // A caller's Interval::everything()/nothing() ends (upstream's
            // markers) are unbounded ends here.
            const Interval &i = it->second;
            result = {i.has_lower_bound() ? i.min : Expr(), i.has_upper_bound() ? i.max : Expr()};
        } else if (op->type == Int(32)) {
            result = Interval::single_point(Expr(std::make_shared<Variable>(*op)));
        } else if (op->type.is_int() || op->type.is_uint()) {
            result = {type_min(op->type), type_max(op->type)};
        } else if (op->type.is_float()) {
            // A float symbol (a Param) is its own point, as an int32 one is.
            result = Interval::single_point(Expr(std::make_shared<Variable>(*op)));
        } else {
            result = Interval{};
        }
    }

    void visit(const Cast *op) override {
        // cast<T>(cast<U>(e)) of integers, U at least as wide as T, is
        // cast<T>(e): T's low bits of e survive the inner cast (an int32
        // made uint32 or int64 and cast back is itself).
        Expr value = op->value;
        while (is_integer(op->type)) {
            const Cast *inner = value.as<Cast>();
            if (!inner || !is_integer(inner->type) || !is_integer(inner->value.type()) ||
                inner->type.bits() < op->type.bits()) {
                break;
            }
            value = inner->value;
        }
        if (!value.same_as(op->value)) {
            result = value.type() == op->type ? of(value) : of(Cast::make(op->type, value));
            return;
        }
        Interval v = of(op->value);
        Type from = op->value.type(), to = op->type;
        if (is_point(v) && index_or_float(to) && index_or_float(v.min.type())) {
            // One value cast is one value (cast<int>(hypot(w, h)) of Params).
            result = Interval::single_point(to == v.min.type() ? v.min : Cast::make(to, v.min));
            return;
        }
        bool widening = (from.is_int() || from.is_uint()) && (to.is_int() || to.is_uint()) && to.can_represent(from);
        if (widening) {
            result = v;
        } else if (from.is_float() || to.is_float()) {
            result = float_cast(v, from, to);
        } else if (std::optional<int64_t> lo = fold_constant(v.min), hi = fold_constant(v.max);
                   lo && hi && (from.is_int() || from.is_uint()) && (to.is_int() || to.is_uint()) && fits(to, *lo) &&
                   fits(to, *hi)) {
            // A narrowing cast of values that all fit the new type changes none of them.
            result = {int32(*lo), int32(*hi)};
        } else if (std::optional<int64_t> lo = constant_bound(v.min, false), hi = constant_bound(v.max, true);
                   lo && hi && (from.is_int() || from.is_uint()) && (to.is_int() || to.is_uint()) && fits(to, *lo) &&
                   fits(to, *hi)) {
            // Symbolic ends whose constant bounds fit the new type (a
            // saturating cast's min(max(e, lo), hi)): no value changes. The
            // ends of a 64-bit value are int32 terms that may overflow where
            // its 64-bit values do not, so they are evaluated in 64 bits
            // (and then fit).
            result = from.bits() <= 32 ? v : Interval{in_64_bits(v.min), in_64_bits(v.max)};
            if (!result.min.defined() || !result.max.defined()) {
                result = {int32(*lo), int32(*hi)};
            }
        } else {
            result = {type_min(to), type_max(to)};
        }
    }

    void visit(const Add *op) override {
        if (halving(op)) {
            return;
        }
        Interval a = of(op->a), b = of(op->b);
        if (point_of<Add>(a, b, op->type)) {
            return;
        }
        result = {binary<Add>(a.min, b.min), binary<Add>(a.max, b.max)};
        wrap_around(op->type);
    }

    void visit(const Sub *op) override {
        if (halving(op)) {
            return;
        }
        Interval a = of(op->a), b = of(op->b);
        if (point_of<Sub>(a, b, op->type)) {
            return;
        }
        result = {binary<Sub>(a.min, b.max), binary<Sub>(a.max, b.min)};
        wrap_around(op->type);
    }

    void visit(const Mul *op) override {
        Interval a = of(op->a), b = of(op->b);
        if (point_of<Mul>(a, b, op->type)) {
            return;
        }
        if (op->type.is_float()) {
            result = float_mul(a, b);
            return;
        }
        const int64_t *cb = b.min.defined() && b.min.same_as(b.max) ? as_int(b.min) : nullptr;
        const int64_t *ca = a.min.defined() && a.min.same_as(a.max) ? as_int(a.min) : nullptr;
        if (ca && !cb) {
            std::swap(a, b);
            std::swap(ca, cb);
        }
        if (cb) {
            Expr lo = binary<Mul>(a.min, b.min), hi = binary<Mul>(a.max, b.min);
            result = *cb >= 0 ? Interval{lo, hi} : Interval{hi, lo};
        } else if (a.is_bounded() && b.is_bounded()) {
            Expr p[4] = {Mul::make(a.min, b.min), Mul::make(a.min, b.max), Mul::make(a.max, b.min),
                         Mul::make(a.max, b.max)};
            result = {make_min(make_min(p[0], p[1]), make_min(p[2], p[3])),
                      make_max(make_max(p[0], p[1]), make_max(p[2], p[3]))};
        } else {
            result = Interval{};
        }
        wrap_around(op->type);
    }

    void visit(const Div *op) override {
        Interval a = of(op->a), b = of(op->b);
        if (point_of<Div>(a, b, op->type)) {
            return;
        }
        if (op->type.is_float()) {
            result = float_div(a, b);
            return;
        }
        const std::optional<int64_t> kb = constant_of(b);
        const int64_t *cb = kb ? &*kb : nullptr;
        if (cb && *cb > 0) {
            result = {binary<Div>(a.min, b.min), binary<Div>(a.max, b.min)};
        } else if (cb && *cb < 0) {
            result = {binary<Div>(a.max, b.min), binary<Div>(a.min, b.min)};
        } else if (cb && *cb == 0) {
            result = Interval::single_point(int32(0));
        } else if (!(a.is_bounded() && a.min.type() == Int(32))) {
            result = Interval{}; // (the rules below build int32 terms)
        } else if (b.min.defined() && b.min.same_as(b.max) && b.min.type() == Int(32)) {
            // One divisor of unknown sign (r / in.width()): a / b is monotonic
            // in a, one way or the other (x / 0 is 0).
            Expr lo = Div::make(a.min, b.min), hi = Div::make(a.max, b.min);
            result = {Min::make(lo, hi), Max::make(lo, hi)};
        } else if (int64_t b0 = 0, b1 = 0; constant_ends(b, b0, b1) && b0 <= b1 && (b0 > 0 || b1 < 0)) {
            // A divisor in a constant range of one sign: a / b is monotonic
            // in a (up for b > 0, down below) and, for each a, in b, so the
            // ends are quotients of the ends, as upstream's ([0, 255] / [1, 8]
            // lies in [0, 255], not [-255, 255]).
            auto quotient = [](const Expr &e, int64_t d) {
                Expr q = Div::make(e, int32(d));
                std::optional<int64_t> c = fold_constant(q);
                return c ? int32(*c) : q;
            };
            const Expr &low_a = b0 > 0 ? a.min : a.max, &high_a = b0 > 0 ? a.max : a.min;
            result = {make_min(quotient(low_a, b0), quotient(low_a, b1)),
                      make_max(quotient(high_a, b0), quotient(high_a, b1))};
        } else {
            // |a / b| <= |a| for any integer b (x / 0 is 0).
            Expr m = Max::make(a.max, Sub::make(int32(0), a.min));
            result = {Sub::make(int32(0), m), m};
        }
        wrap_around(op->type); // int8 -128 / -1 wraps to -128
    }

    void visit(const Mod *op) override {
        if (op->type.is_float()) {
            // The rules below build int32 terms; a float `%` (bounded now that
            // Funcs' values are) is left unbounded rather than mistyped.
            result = Interval{};
            return;
        }
        Interval a = of(op->a), b = of(op->b);
        const std::optional<int64_t> kb = constant_of(b);
        const int64_t *cb = kb ? &*kb : nullptr;
        if (a.min.defined() && a.min.same_as(a.max) && b.min.defined() && (b.min.same_as(b.max) || (cb && *cb != 0)) &&
            a.min.type() == b.min.type()) {
            // One value (`fused % 2` of a loop fused from split RVars, at
            // one iteration of it): itself, not the divisor's whole range.
            result = Interval::single_point(Mod::make(a.min, b.min));
        } else if (int64_t b0 = 0, b1 = 0; cb || constant_ends(b, b0, b1)) {
            // In [0, |b| - 1] for the largest |b|; x % 0 is 0.
            int64_t largest = cb ? std::abs(*cb) : std::max(std::abs(b0), std::abs(b1));
            result = {int32(0), int32(std::max<int64_t>(largest - 1, 0))};
        } else if (b.is_bounded()) {
            // As above (never [0, -1], for b in [0, 0]).
            Expr largest = Max::make(b.max, Sub::make(int32(0), b.min));
            result = {int32(0), Max::make(Sub::make(largest, int32(1)), int32(0))};
        } else {
            result = Interval{};
        }
        if (known_nonnegative(a) && a.max.defined() && result.max.defined()) {
            // A value of at least 0 is its own remainder or more than it: at most a.
            result.max = make_min(result.max, a.max);
        }
    }

    void visit(const Min *op) override {
        Interval a = of(op->a), b = of(op->b);
        if (point_of<Min>(a, b, op->type)) {
            return;
        }
        result = {make_min(a.min, b.min), pick_min(a.max, b.max)};
    }

    void visit(const Max *op) override {
        Interval a = of(op->a), b = of(op->b);
        if (point_of<Max>(a, b, op->type)) {
            return;
        }
        result = {pick_max(a.min, b.min), make_max(a.max, b.max)};
    }

    void visit(const Select *op) override {
        // An undef() branch is no value (no store happens there): the other's.
        if (is_undef(op->true_value) || is_undef(op->false_value)) {
            result = of(is_undef(op->true_value) ? op->false_value : op->true_value);
            return;
        }
        if (absolute_difference(op)) {
            return;
        }
        Interval t = of(op->true_value), f = of(op->false_value);
        result = interval_union(t, f);
    }

    void visit(const Let *op) override {
        Interval v = of(op->value);
        Scope inner = scope_;
        inner[op->name] = v;
        Bounds b(inner);
        result = b.of(op->body);
    }

    void visit(const Load *op) override { result = {type_min(op->type), type_max(op->type)}; }

    void visit(const Call *op) override {
        if (op->call_type == Call::Intrinsic &&
            (op->name == "likely" || op->name == "likely_if_innermost" || op->name == "memoize_expr" ||
             op->name == "print" || op->name == "trace_value" || op->name == "strict_float") &&
            !op->args.empty()) {
            result = of(op->args[0]); // these return their first argument
        } else if (op->call_type == Call::Intrinsic && op->name == kScatterGatherIntrinsic && !op->args.empty()) {
            // scatter()/gather(): any of its values (one store per value).
            result = of(op->args[0]);
            for (size_t i = 1; i < op->args.size(); i++) {
                result = interval_union(result, of(op->args[i]));
            }
        } else if (op->call_type == Call::Intrinsic && (op->name == "print_when" || op->name == "require") &&
                   op->args.size() > 1) {
            result = of(op->args[1]);
        } else if (op->call_type == Call::Intrinsic &&
                   (op->name == "promise_clamped" || op->name == "unsafe_promise_clamped") && op->args.size() == 3) {
            // The value is promised to lie in [args[1], args[2]]: the
            // intersection of that and the value's own interval.
            Interval v = of(op->args[0]);
            Interval lo = of(op->args[1]), hi = of(op->args[2]);
            result = {pick_max(v.min, lo.min), pick_min(v.max, hi.max)};
        } else if (op->call_type == Call::Intrinsic && bit_operation(op)) {
            // (done: shifts, & | ~ and the bit counts, see bit_operation)
        } else if (op->call_type == Call::Extern && op->type.is_float() && op->args.size() == 1 &&
                   is_rounding(op->name)) {
            // floor, ceil, round and trunc never decrease as their argument grows.
            Interval a = of(op->args[0]);
            auto apply = [&](const Expr &e) {
                return e.defined() ? Call::make(op->type, op->name, {e}, Call::Extern) : Expr();
            };
            result = {apply(a.min), apply(a.max)};
        } else if (op->call_type == Call::Intrinsic && op->name == "abs" && op->args.size() == 1 &&
                   (op->args[0].type().is_float() || op->args[0].type().is_int())) {
            // |v| for v in [lo, hi] lies in [max(0, lo, -hi), max(-lo, hi)] (at
            // least 0, and unbounded above, when an end is unbounded).
            Interval a = of(op->args[0]);
            Expr zero = op->args[0].type().is_float() ? FloatImm::make(op->args[0].type(), 0.0) : int32(0);
            auto neg = [&](const Expr &e) { return e.defined() ? Sub::make(zero, e) : Expr(); };
            Expr hi = a.min.defined() && a.max.defined() ? make_max(neg(a.min), a.max) : Expr();
            result = {pick_max(zero, pick_max(a.min, neg(a.max))), hi};
        } else if (op->call_type == Call::Extern && index_or_float(op->type) && is_math_function(op->name) &&
                   std::all_of(op->args.begin(), op->args.end(), [&](const Expr &e) {
                       Interval a = of(e);
                       return is_point(a) && a.min.type() == e.type();
                   })) {
            // A math function of single points (sqrt of a Param) is one value.
            std::vector<Expr> points;
            for (const Expr &e : op->args) {
                points.push_back(of(e).min);
            }
            result = Interval::single_point(Call::make(op->type, op->name, points, Call::Extern));
        } else if (const Interval *v = func_value_bounds(op)) {
            // A Func whose values are known to lie in *v (an unknown end: its type's).
            bool integer = op->type.is_int() || op->type.is_uint();
            result = {v->min.defined() || !integer ? v->min : type_min(op->type),
                      v->max.defined() || !integer ? v->max : type_max(op->type)};
        } else if (op->type.is_int() || op->type.is_uint()) {
            result = {type_min(op->type), type_max(op->type)};
        } else {
            result = Interval{};
        }
    }

    // Comparisons and logic: a bool.
    void visit(const EQ *) override { result = bool_range(); }
    void visit(const NE *) override { result = bool_range(); }
    void visit(const LT *) override { result = bool_range(); }
    void visit(const LE *) override { result = bool_range(); }
    void visit(const GT *) override { result = bool_range(); }
    void visit(const GE *) override { result = bool_range(); }
    void visit(const And *) override { result = bool_range(); }
    void visit(const Or *) override { result = bool_range(); }
    void visit(const Not *) override { result = bool_range(); }

private:
    // A scalar integer shift, &, |, ~ or bit count whose result it can
    // bound (upstream's bounds of each, exact where upstream's are too
    // tight): sets `result`.
    bool bit_operation(const Call *op) {
        const Type t = op->type;
        if (t.lanes() != 1 || !(t.is_int() || t.is_uint()) || t.is_bool()) {
            return false;
        }
        const std::string &n = op->name;
        const size_t args = op->args.size();
        if ((n == "shift_left" || n == "shift_right") && args == 2) {
            return shift_by_a_range(op, n == "shift_left");
        }
        if (n == "bitwise_and" && args == 2) {
            bitwise_and(t, of(op->args[0]), of(op->args[1]));
        } else if (n == "bitwise_or" && args == 2) {
            bitwise_or(t, of(op->args[0]), of(op->args[1]));
        } else if (n == "bitwise_not" && args == 1 && (t.is_int() || t.bits() < 32)) {
            // ~x is -1 - x (signed) or 2^bits - 1 - x: decreasing in x.
            Interval a = of(op->args[0]);
            Expr all_ones = int32(t.is_int() ? -1 : (int64_t)t.imax());
            auto flip = [&](const Expr &e) { return e.defined() ? fold(Sub::make(all_ones, e)) : Expr(); };
            result = {flip(a.max), flip(a.min)};
            fill_type_ends(t);
        } else if ((n == "count_leading_zeros" || n == "count_trailing_zeros" || n == "popcount") && args == 1) {
            // At most the width, and the fewer leading zeros the larger the
            // (non-negative) value: clz of x in [lo, hi] is in [clz(hi), clz(lo)].
            Interval a = of(op->args[0]); // (before setting `result`, which of() sets)
            result = {int32(0), int32(t.bits())};
            if (std::optional<int64_t> c = a.min.defined() ? fold_constant(a.min) : std::nullopt;
                c && a.max.defined() && fold_constant(a.max) == c) {
                // One value: its count, of its bits in the type (popcount(int8 -8) is 5).
                const uint64_t v = t.bits() == 64 ? (uint64_t)*c : (uint64_t)*c & ((uint64_t(1) << t.bits()) - 1);
                int count = 0;
                if (n == "popcount") {
                    count = __builtin_popcountll(v);
                } else if (n == "count_trailing_zeros") {
                    count = v == 0 ? t.bits() : __builtin_ctzll(v);
                } else {
                    count = t.bits() - (v == 0 ? 0 : 64 - __builtin_clzll(v));
                }
                result = Interval::single_point(int32(count));
                return true;
            }
            bool nonnegative = op->args[0].type().is_uint() || known_nonnegative(a);
            if (n == "count_leading_zeros" && nonnegative) {
                auto leading_zeros = [&](const Expr &e) -> std::optional<int64_t> {
                    std::optional<int64_t> c = e.defined() ? fold_constant(e) : std::nullopt;
                    if (!c || *c < 0 || *c > INT32_MAX) {
                        return std::nullopt;
                    }
                    int64_t width = 0;
                    for (int64_t v = *c; v > 0; v >>= 1) {
                        width++;
                    }
                    return t.bits() - width;
                };
                if (std::optional<int64_t> lo = leading_zeros(a.max)) {
                    result.min = int32(*lo);
                }
                if (std::optional<int64_t> hi = leading_zeros(a.min)) {
                    result.max = int32(*hi);
                }
            }
        } else {
            return false;
        }
        return true;
    }

    // The halving operations as FixedPoint.cpp expands them: halving_add
    // (a & b) + ((a ^ b) >> 1) is floor((a + b) / 2), rounding_halving_add
    // (a | b) - ((a ^ b) >> 1) is floor((a + b + 1) / 2) and halving_sub
    // ((a ^ b) >> 1) - (~a & b) is floor((a - b) / 2), each monotonic in a
    // and b: bounded by a's and b's ends, as upstream's intrinsics are
    // (its & ^ terms alone have no bound in int32). Sets `result`.
    bool halving(const Expr &e) {
        const Type t = e.type();
        if (t.lanes() != 1 || !(t.is_int() || t.is_uint()) || t.is_bool()) {
            return false;
        }
        auto call = [](const Expr &x, const char *name, size_t args) -> const Call * {
            const Call *c = x.as<Call>();
            return c && c->call_type == Call::Intrinsic && c->name == name && c->args.size() == args ? c : nullptr;
        };
        // (a ^ b) >> 1, as the xor.
        auto half_xor = [&](const Expr &x) -> const Call * {
            const Call *s = call(x, "shift_right", 2);
            const int64_t *one = s ? as_int(s->args[1]) : nullptr;
            return one && *one == 1 ? call(s->args[0], "bitwise_xor", 2) : nullptr;
        };
        enum { Sum, RoundedSum, Difference } kind = Sum;
        const Call *x = nullptr, *other = nullptr;
        if (const Add *add = e.as<Add>()) {
            other = call(add->a, "bitwise_and", 2);
            x = half_xor(add->b);
        } else if (const Sub *sub = e.as<Sub>()) {
            if ((other = call(sub->a, "bitwise_or", 2))) {
                kind = RoundedSum;
                x = half_xor(sub->b);
            } else {
                kind = Difference;
                x = half_xor(sub->a);
                other = call(sub->b, "bitwise_and", 2);
            }
        }
        if (!x || !other) {
            return false;
        }
        const Expr &a = x->args[0], &b = x->args[1];
        const Call *not_a = kind == Difference ? call(other->args[0], "bitwise_not", 1) : nullptr;
        if (!equal(kind == Difference ? (not_a ? not_a->args[0] : Expr()) : other->args[0], a) ||
            !equal(other->args[1], b)) {
            return false;
        }
        Interval ia = of(a), ib = of(b);
        // floor((p + q + round) / 2) of two ends (q negated for halving_sub).
        auto half = [&](const Expr &p, const Expr &q) -> Expr {
            if (!p.defined() || !q.defined()) {
                return Expr();
            }
            std::optional<int64_t> cp = fold_constant(p), cq = fold_constant(q);
            if (cp && cq) {
                int64_t sum = *cp + (kind == Difference ? -*cq : *cq) + (kind == RoundedSum ? 1 : 0);
                int64_t h = sum >> 1; // rounds down
                return fits(Int(32), h) ? int32(h) : Expr();
            }
            if (t.bits() > 32) {
                return Expr(); // (the ends of 64-bit values are not known to be exact int32 terms)
            }
            // The sum of two 32-bit ends may overflow int32 where its half
            // does not: summed in 64 bits.
            const bool wide = t.bits() == 32;
            Expr wp = wide ? widened(p) : p, wq = wide ? widened(q) : q;
            if (!wp.defined() || !wq.defined()) {
                return Expr();
            }
            Expr one = wide ? IntImm::make(Int(64), 1) : int32(1), two = wide ? IntImm::make(Int(64), 2) : int32(2);
            Expr sum = kind == Difference ? Sub::make(wp, wq) : Add::make(wp, wq);
            if (kind == RoundedSum) {
                sum = Add::make(sum, one);
            }
            Expr h = Div::make(sum, two);
            return wide ? Cast::make(Int(32), h) : h;
        };
        result = kind == Difference ? Interval{half(ia.min, ib.max), half(ia.max, ib.min)}
                                    : Interval{half(ia.min, ib.min), half(ia.max, ib.max)};
        if (t.is_uint() && kind == Difference && !known_nonnegative(result)) {
            result = Interval{}; // an unsigned halving_sub below 0 wraps around
        }
        fill_type_ends(t);
        return true;
    }

    // x & y: a non-negative x keeps some of its bits, so the result lies in
    // [0, x] (in [0, min(x, y)] when both are); two values that may be
    // negative give at most the larger one (both negative: at most either).
    void bitwise_and(Type t, const Interval &a, const Interval &b) {
        const bool pa = t.is_uint() || known_nonnegative(a), pb = t.is_uint() || known_nonnegative(b);
        if (pa || pb) {
            std::vector<Expr> maxes;
            for (const Expr &m : {pa ? a.max : Expr(), pb ? b.max : Expr()}) {
                if (m.defined()) {
                    maxes.push_back(m);
                }
            }
            // A constant limit alone (x & 7 with x in [0, n]: 7, not min(n, 7)).
            std::optional<int64_t> limit;
            for (const Expr &m : maxes) {
                if (std::optional<int64_t> c = fold_constant(m); c && (!limit || *c < *limit)) {
                    limit = c;
                }
            }
            Expr hi = limit               ? int32(*limit)
                      : maxes.empty()     ? Expr()
                      : maxes.size() == 1 ? maxes[0]
                                          : make_min(maxes[0], maxes[1]);
            result = {int32(0), hi};
        } else {
            result = {Expr(), a.max.defined() && b.max.defined() ? make_max(a.max, b.max) : Expr()};
        }
        fill_type_ends(t);
    }

    // x | y only sets bits: unsigned, at least the larger of the two;
    // signed, at least the smaller (a negative one stays negative but
    // grows). Upstream gives no upper bound but the type's.
    void bitwise_or(Type t, const Interval &a, const Interval &b) {
        if (t.is_uint()) {
            result = {pick_max(a.min, b.min), Expr()};
        } else {
            result = {make_min(a.min, b.min), Expr()};
        }
        fill_type_ends(t);
    }

    // x << s (left) or x >> s for an integer x and an s in a constant
    // range: x times 2^k for k = s or -s (a negative amount shifts the
    // other way, as both shifts take it), rounding down for k < 0. For a
    // given k that is monotonic in x, and for a given x monotonic in k (up
    // for x >= 0, down below), so the ends are x's ends shifted by k's ends
    // (upstream takes x.min << s.min as the lower bound, too high for a
    // negative x.min). An amount that may reach the type's width has no
    // meaning: no bound. Sets `result`.
    bool shift_by_a_range(const Call *op, bool left) {
        const Type t = op->type;
        const int bits = t.bits();
        Interval a = of(op->args[0]), s = of(op->args[1]);
        std::optional<int64_t> lo_end = constant_end(s.min, false), hi_end = constant_end(s.max, true);
        if (!lo_end || !hi_end) {
            return false;
        }
        const int64_t lo = lo_end.value_or(0), hi = hi_end.value_or(0);
        if (lo > hi || lo <= -bits || hi >= bits) {
            return false;
        }
        const int64_t klo = left ? lo : -hi, khi = left ? hi : -lo;
        // Unsigned types and signed ones narrower than 32 bits wrap around
        // (wider signed overflow is undefined, so assumed not to happen).
        const bool wraps = t.is_uint() || bits < 32;
        bool wrapped = false;
        // Bound from below (or above, `upper`) of e * 2^k, as an int32 term.
        auto shifted = [&](const Expr &e, int64_t k, bool upper) -> Expr {
            if (!e.defined()) {
                return Expr();
            }
            if (std::optional<int64_t> c = fold_constant(e); c && *c >= INT32_MIN && *c <= INT32_MAX) {
                int64_t r = 0;
                bool overflow = false;
                if (k < 0) {
                    r = *c >> std::min<int64_t>(-k, 63); // arithmetic: rounds down
                } else if (*c != 0) {
                    overflow = k >= 63 || __builtin_mul_overflow(*c, int64_t(1) << k, &r);
                }
                if (overflow || !t.can_represent(r)) {
                    wrapped = wrapped || wraps;
                    return Expr();
                }
                return fits(Int(32), r) ? int32(r) : Expr();
            }
            if (k == 0) {
                return e;
            }
            if (k > 0) {
                // Only an int32 product is assumed not to overflow.
                wrapped = wrapped || wraps;
                return t == Int(32) && k < 31 ? Mul::make(e, int32(int64_t(1) << k)) : Expr();
            }
            if (-k <= 30) {
                return Div::make(e, int32(int64_t(1) << -k));
            }
            // An int32-range value shifted down by 31 or more is 0 or -1.
            return int32(upper || t.is_uint() ? 0 : -1);
        };
        if (klo == khi) {
            result = {shifted(a.min, klo, false), shifted(a.max, klo, true)};
        } else {
            result = {make_min(shifted(a.min, klo, false), shifted(a.min, khi, false)),
                      make_max(shifted(a.max, klo, true), shifted(a.max, khi, true))};
        }
        if (wrapped) {
            result = Interval{};
        }
        fill_type_ends(t);
        return true;
    }

    // A constant lower (or upper) bound of an interval's values: its end
    // if that folds to a constant, else a constant bound of the end (of
    // clamp(e, 3, 8)'s max(min(e.min, 8), 3), 3).
    static std::optional<int64_t> constant_end(const Expr &end, bool upper) {
        if (!end.defined()) {
            return std::nullopt;
        }
        std::optional<int64_t> c = fold_constant(end);
        return c ? c : constant_bound(end, upper);
    }

    // Constant bounds of both ends of i, if it has them: a range holding
    // all of i's values.
    static bool constant_ends(const Interval &i, int64_t &lo, int64_t &hi) {
        std::optional<int64_t> l = constant_end(i.min, false), h = constant_end(i.max, true);
        if (!l || !h) {
            return false;
        }
        lo = *l;
        hi = *h;
        return true;
    }

    // Whether an interval's values are known to be at least 0.
    static bool known_nonnegative(const Interval &i) {
        std::optional<int64_t> c = constant_end(i.min, false);
        return c && *c >= 0;
    }

    // An unbounded end of `result` is its type's (an unsigned value is never below 0).
    void fill_type_ends(Type t) {
        if (!result.min.defined()) {
            result.min = t.is_uint() ? int32(0) : type_min(t);
        }
        if (!result.max.defined()) {
            result.max = type_max(t);
        }
    }

    // e, or the int32 constant it folds to.
    static Expr fold(const Expr &e) {
        std::optional<int64_t> c = fold_constant(e);
        return c && fits(Int(32), *c) ? int32(*c) : e;
    }

    // absd(a, b) of integers, as IROperator.cpp builds it: select(a < b,
    // u(b) - u(a), u(a) - u(b)) in the unsigned type u of their width, each
    // difference exact where it is picked, so in [0, max(a.max - b.min,
    // b.max - a.min)] (upstream's bound of its absd intrinsic). Sets `result`.
    bool absolute_difference(const Select *op) {
        const Type t = op->type;
        const LT *lt = op->condition.as<LT>();
        const Sub *x = op->true_value.as<Sub>(), *y = op->false_value.as<Sub>();
        if (t.lanes() != 1 || !t.is_uint() || t.is_bool() || !lt || !x || !y || lt->a.type().bits() != t.bits() ||
            lt->a.type().lanes() != 1 || !(lt->a.type().is_int() || lt->a.type().is_uint())) {
            return false;
        }
        auto operand = [&](const Expr &e) {
            const Cast *c = e.as<Cast>();
            return c && c->value.type() == lt->a.type() ? c->value : e;
        };
        // The bits of an integer constant in t's width (a constant operand's
        // cast to t is folded: uint16(int16 -10) is 65526).
        auto bits_of = [&](const Expr &e) -> std::optional<uint64_t> {
            const uint64_t mask = t.bits() == 64 ? ~uint64_t(0) : (uint64_t(1) << t.bits()) - 1;
            if (const IntImm *i = e.as<IntImm>()) {
                return (uint64_t)i->value & mask;
            }
            if (const UIntImm *u = e.as<UIntImm>()) {
                return u->value & mask;
            }
            return std::nullopt;
        };
        auto same = [&](const Expr &e, const Expr &operand_of_lt) {
            if (equal(operand(e), operand_of_lt)) {
                return true;
            }
            std::optional<uint64_t> p = bits_of(e), q = bits_of(operand_of_lt);
            return p && q && *p == *q;
        };
        if (!same(x->a, lt->b) || !same(x->b, lt->a) || !same(y->a, lt->a) || !same(y->b, lt->b)) {
            return false;
        }
        Interval a = of(lt->a), b = of(lt->b);
        if (!a.is_bounded() || !b.is_bounded()) {
            return false;
        }
        std::optional<int64_t> a0 = fold_constant(a.min), a1 = fold_constant(a.max);
        std::optional<int64_t> b0 = fold_constant(b.min), b1 = fold_constant(b.max);
        if (a0 && a1 && b0 && b1) {
            int64_t d = std::max(*a1 - *b0, *b1 - *a0);
            result = {int32(0), fits(Int(32), d) && t.can_represent(d) ? int32(d) : type_max(t)};
            return true;
        }
        if (t.bits() > 16) {
            return false; // symbolic differences of wide values may not fit int32 terms
        }
        result = {int32(0), Max::make(Sub::make(a.max, b.min), Sub::make(b.max, a.min))};
        return true;
    }

    static bool is_integer(Type t) { return t.is_int() || t.is_uint(); }
    static bool is_point(const Interval &i) { return i.min.defined() && i.min.same_as(i.max); }
    // The types whose points are of the type itself (narrower integers'
    // intervals are int32 terms).
    static bool index_or_float(Type t) { return t.lanes() == 1 && (t == Int(32) || t.is_float()); }

    // Two single points (symbols, or expressions of them) give one: `op` of
    // the two, as upstream keeps w / h and hypot(w, h) one value.
    template <typename Node> bool point_of(const Interval &a, const Interval &b, Type t) {
        if (!index_or_float(t) || !is_point(a) || !is_point(b) || a.min.type() != t || b.min.type() != t) {
            return false;
        }
        result = Interval::single_point(Node::make(a.min, b.min));
        return true;
    }

    // The C math functions the IR calls by name (IROperator.cpp's, float and
    // double forms): pure, unlike an extern call in general.
    static bool is_math_function(const std::string &name) {
        static const char *names[] = {"sin",   "asin", "cos",   "acos", "tan",       "atan",  "atan2", "sinh",
                                      "asinh", "cosh", "acosh", "tanh", "atanh",     "sqrt",  "hypot", "exp",
                                      "log",   "pow",  "floor", "ceil", "nearbyint", "trunc", "fabs",  "fmod"};
        std::string base = name;
        if (!base.empty() && base.back() == 'f') {
            base.pop_back(); // sqrtf
        }
        return std::any_of(std::begin(names), std::end(names), [&](const char *n) { return name == n || base == n; });
    }

    static bool is_rounding(const std::string &name) {
        static const char *names[] = {"floor", "floorf", "ceil", "ceilf", "nearbyint", "nearbyintf", "trunc", "truncf"};
        return std::any_of(std::begin(names), std::end(names), [&](const char *n) { return name == n; });
    }

    // Casts from or to a float: each is monotonic (never decreasing), so
    // the ends cast are the ends, unless the result may overflow a narrow
    // integer type (then its whole range). Out-of-range float to int32
    // conversions are undefined, and assumed not to happen. The ends of a
    // 64-bit integer are evaluated in 64 bits (their int32 terms may
    // overflow where the values do not).
    static Interval float_cast(const Interval &v, Type from, Type to) {
        auto cast_end = [&](const Expr &e) {
            if (!e.defined()) {
                return Expr();
            }
            if ((from.is_int() || from.is_uint()) && from.bits() > 32 && !as_int(e)) {
                Expr wide = widened(e);
                return wide.defined() ? Cast::make(to, wide) : Expr();
            }
            return Cast::make(to, e);
        };
        if (to.is_float() || to == Int(32)) {
            return {cast_end(v.min), cast_end(v.max)};
        }
        if (!(to.is_int() || to.is_uint()) || to.bits() >= 32) {
            return Interval{};
        }
        // A narrow integer: the ends if both are constants that fit.
        const double *lo = v.min.defined() ? as_float(v.min) : nullptr;
        const double *hi = v.max.defined() ? as_float(v.max) : nullptr;
        if (lo && hi && std::trunc(*lo) >= (double)to.imin() && std::trunc(*hi) <= (double)to.imax()) {
            return {int32((int64_t)std::trunc(*lo)), int32((int64_t)std::trunc(*hi))};
        }
        return {type_min(to), type_max(to)};
    }

    // The ends of a float product: interval ends times a single point, or
    // the extremes of the four products of two bounded intervals.
    static Interval float_mul(Interval a, Interval b) {
        bool a_point = a.min.defined() && a.min.same_as(a.max), b_point = b.min.defined() && b.min.same_as(b.max);
        if (a_point && !b_point) {
            std::swap(a, b);
            std::swap(a_point, b_point);
        }
        if (b_point) {
            if (a_point) {
                return Interval::single_point(mul_end(a.min, b.min));
            }
            std::optional<int> sign = constant_sign(b.min);
            if (sign && *sign == 0) {
                return Interval::single_point(b.min);
            }
            Expr lo = a.min.defined() ? mul_end(a.min, b.min) : Expr();
            Expr hi = a.max.defined() ? mul_end(a.max, b.min) : Expr();
            if (sign) {
                return *sign > 0 ? Interval{lo, hi} : Interval{hi, lo};
            }
            // A symbol s of unknown sign: the product lies between a.min * s
            // and a.max * s, in one order or the other.
            return a.is_bounded() ? Interval{make_min(lo, hi), make_max(lo, hi)} : Interval{};
        }
        if (!a.is_bounded() || !b.is_bounded()) {
            return Interval{};
        }
        Expr p[4] = {mul_end(a.min, b.min), mul_end(a.min, b.max), mul_end(a.max, b.min), mul_end(a.max, b.max)};
        return {make_min(make_min(p[0], p[1]), make_min(p[2], p[3])),
                make_max(make_max(p[0], p[1]), make_max(p[2], p[3]))};
    }

    // Float division by a single point: a nonzero divisor keeps or reverses
    // the order of the dividend's ends. Anything else may divide by zero.
    static Interval float_div(const Interval &a, const Interval &b) {
        if (!(b.min.defined() && b.min.same_as(b.max))) {
            return Interval{};
        }
        if (a.min.defined() && a.min.same_as(a.max)) {
            return Interval::single_point(Div::make(a.min, b.min));
        }
        std::optional<int> sign = constant_sign(b.min);
        if (sign && *sign == 0) {
            return Interval{};
        }
        Expr lo = binary<Div>(a.min, b.min), hi = binary<Div>(a.max, b.min);
        if (sign) {
            return *sign > 0 ? Interval{lo, hi} : Interval{hi, lo};
        }
        return a.is_bounded() ? Interval{make_min(lo, hi), make_max(lo, hi)} : Interval{};
    }

    // Arithmetic in a type that wraps around on overflow (unsigned, or signed
    // narrower than 32 bits; 32- and 64-bit signed overflow is undefined, so
    // assumed not to happen) gives the exact interval only when both ends are
    // constants in the type's range. Else a value may have wrapped past an
    // end (uint8 0 - x is 0 or 256 - x), and any value of the type is possible.
    void wrap_around(Type t) {
        if (!(t.is_uint() || (t.is_int() && t.bits() < 32))) {
            return;
        }
        std::optional<int64_t> lo = fold_constant(result.min), hi = fold_constant(result.max);
        if (!lo || !hi || !fits(t, *lo) || !fits(t, *hi)) {
            result = {type_min(t), type_max(t)};
        }
    }

    // Whether e is an integer narrower than 32 bits that depends on some
    // variables, none of them in scope, and reads no Func or buffer.
    bool invariant_narrow_integer(const Expr &e) const {
        Type t = e.type();
        if (!(t.is_int() || t.is_uint()) || t.bits() >= 32 || t.bits() == 1 || t.lanes() != 1) {
            return false;
        }
        class ReadsMemory : public IRVisitor {
        public:
            bool found = false;
            using IRVisitor::visit;
            void visit(const Call *) override { found = true; }
            void visit(const Load *op) override {
                found = true;
                IRVisitor::visit(op);
            }
        } reads;
        reads.include(e);
        bool symbolic = false, varies = false; // constants are left to the rules below, which fold them
        expr_uses_var_if(e, [&](const std::string &name) {
            symbolic = true;
            varies = varies || scope_.count(name) > 0;
            return false;
        });
        return !reads.found && symbolic && !varies;
    }

    // Whether v fits type t and int32 index math.
    static bool fits(Type t, int64_t v) {
        if (v < INT32_MIN || v > INT32_MAX) {
            return false;
        }
        return v >= t.imin() && v <= t.imax();
    }
    static Interval bool_range() { return {int32(0), int32(1)}; }
    // An integer constant as int32 index math: itself where it fits, else
    // beyond the int32 end on its side (a uint32 0xffffffff mask is no -1).
    static Interval constant(int64_t v, bool huge) {
        if (!huge && fits(Int(32), v)) {
            return Interval::single_point(int32(v));
        }
        return huge || v > INT32_MAX ? Interval{int32(INT32_MAX), Expr()} : Interval{Expr(), int32(INT32_MIN)};
    }
    // min(a, b) where an unbounded side does not constrain the result.
    static Expr pick_min(const Expr &a, const Expr &b) {
        return !a.defined() ? b : (!b.defined() ? a : make_min(a, b));
    }
    static Expr pick_max(const Expr &a, const Expr &b) {
        return !a.defined() ? b : (!b.defined() ? a : make_max(a, b));
    }
    const Scope &scope_;
};

} // namespace

Interval interval_union(const Interval &a, const Interval &b) {
    return {make_min(a.min, b.min), make_max(a.max, b.max)};
}

Interval bounds_of_expr(const Expr &e, const Scope &scope) {
    Bounds b(scope);
    return b.of(e);
}

} // namespace Internal
} // namespace Halide
