// See Monotonic.h. A structural walk: sums, differences, scaling by
// constants, min/max, clamps and widening casts keep (or flip) the direction
// of their operands; anything else that depends on the variable is Unknown.
#include "analysis/Monotonic.h"

#include <optional>

#include "Halide/IROperator.h"

namespace Halide {
namespace Internal {

Monotonic monotonic_flip(Monotonic m) {
    switch (m) {
    case Monotonic::Increasing: return Monotonic::Decreasing;
    case Monotonic::Decreasing: return Monotonic::Increasing;
    default: return m;
    }
}

Monotonic monotonic_sum(Monotonic a, Monotonic b) {
    if (a == Monotonic::Constant) {
        return b;
    }
    if (b == Monotonic::Constant || a == b) {
        return a;
    }
    return Monotonic::Unknown;
}

namespace {

class Walk {
public:
    Walk(const std::string &var, std::map<std::string, Monotonic> known) : var_(var), known_(std::move(known)) {}

    Monotonic of(const Expr &e) {
        if (!e.defined() || e.as<IntImm>() || e.as<UIntImm>() || e.as<FloatImm>() || e.as<StringImm>()) {
            return Monotonic::Constant;
        }
        if (const Variable *v = e.as<Variable>()) {
            if (v->name == var_) {
                return Monotonic::Increasing;
            }
            auto it = known_.find(v->name);
            return it == known_.end() ? Monotonic::Constant : it->second;
        }
        if (const Add *op = e.as<Add>()) {
            return monotonic_sum(of(op->a), of(op->b));
        }
        if (const Sub *op = e.as<Sub>()) {
            return monotonic_sum(of(op->a), monotonic_flip(of(op->b)));
        }
        if (const Mul *op = e.as<Mul>()) {
            return scaled(op->a, op->b);
        }
        if (const Div *op = e.as<Div>()) {
            // Integer division rounds down: monotonic in the numerator for a
            // constant divisor (flipped when it is negative).
            Monotonic b = of(op->b);
            const IntImm *d = op->b.as<IntImm>();
            if (b != Monotonic::Constant) {
                return both_constant(of(op->a), b);
            }
            Monotonic a = of(op->a);
            if (a == Monotonic::Constant) {
                return a;
            }
            if (!d || d->value == 0) {
                return Monotonic::Unknown;
            }
            return d->value > 0 ? a : monotonic_flip(a);
        }
        if (const Min *op = e.as<Min>()) {
            return same_direction(of(op->a), of(op->b));
        }
        if (const Max *op = e.as<Max>()) {
            return same_direction(of(op->a), of(op->b));
        }
        if (const Select *op = e.as<Select>()) {
            Monotonic c = of(op->condition);
            Monotonic branches = same_direction(of(op->true_value), of(op->false_value));
            return c == Monotonic::Constant ? branches : both_constant(c, branches);
        }
        if (const Cast *op = e.as<Cast>()) {
            Monotonic v = of(op->value);
            // A cast that keeps every value keeps the order.
            bool widening = (op->type.is_int() || op->type.is_uint()) &&
                            (op->value.type().is_int() || op->value.type().is_uint()) &&
                            op->type.is_int() == op->value.type().is_int() &&
                            op->type.bits() >= op->value.type().bits();
            return v == Monotonic::Constant || widening ? v : Monotonic::Unknown;
        }
        if (const Call *op = e.as<Call>()) {
            if (op->call_type == Call::Intrinsic && (op->name == "likely" || op->name == "likely_if_innermost") &&
                op->args.size() == 1) {
                return of(op->args[0]);
            }
            if (op->call_type == Call::Intrinsic && op->name == "promise_clamped" && op->args.size() == 3) {
                // max(min(value, hi), lo): monotonic in each argument.
                return same_direction(same_direction(of(op->args[0]), of(op->args[1])), of(op->args[2]));
            }
            if (op->call_type == Call::Halide || op->call_type == Call::Image) {
                return Monotonic::Unknown; // values computed or changed inside the loop
            }
            Monotonic all = Monotonic::Constant;
            for (const Expr &a : op->args) {
                all = both_constant(all, of(a));
            }
            return all;
        }
        if (const Let *op = e.as<Let>()) {
            Monotonic value = of(op->value);
            auto saved = known_.find(op->name);
            std::optional<Monotonic> old;
            if (saved != known_.end()) {
                old = saved->second;
            }
            known_[op->name] = value;
            Monotonic body = of(op->body);
            if (old) {
                known_[op->name] = *old;
            } else {
                known_.erase(op->name);
            }
            return body;
        }
        if (e.as<Load>()) {
            return Monotonic::Unknown; // memory the loop may write
        }
        // Comparisons, logic, vectors: constant only if all operands are.
        return operands_constant(e);
    }

private:
    static Monotonic same_direction(Monotonic a, Monotonic b) { return monotonic_sum(a, b); }
    static Monotonic both_constant(Monotonic a, Monotonic b) {
        return a == Monotonic::Constant && b == Monotonic::Constant ? Monotonic::Constant : Monotonic::Unknown;
    }
    Monotonic scaled(const Expr &a, const Expr &b) {
        Monotonic ma = of(a), mb = of(b);
        if (ma == Monotonic::Constant && mb == Monotonic::Constant) {
            return Monotonic::Constant;
        }
        const Expr &factor = ma == Monotonic::Constant ? a : b;
        Monotonic varying = ma == Monotonic::Constant ? mb : ma;
        if (!(ma == Monotonic::Constant || mb == Monotonic::Constant)) {
            return Monotonic::Unknown;
        }
        if (const IntImm *k = factor.as<IntImm>()) {
            return k->value == 0 ? Monotonic::Constant : (k->value > 0 ? varying : monotonic_flip(varying));
        }
        return Monotonic::Unknown; // a symbolic factor of unknown sign
    }
    Monotonic operands_constant(const Expr &e);

    std::string var_;
    std::map<std::string, Monotonic> known_;
};

// Whether any operand of a comparison, logical or vector node varies.
Monotonic Walk::operands_constant(const Expr &e) {
    auto pair = [&](const Expr &a, const Expr &b) { return both_constant(of(a), of(b)); };
#define HALIDE_BINARY_OPERANDS(T)                                                                                      \
    if (const T *op = e.as<T>()) {                                                                                     \
        return pair(op->a, op->b);                                                                                     \
    }
    HALIDE_BINARY_OPERANDS(EQ)
    HALIDE_BINARY_OPERANDS(NE)
    HALIDE_BINARY_OPERANDS(LT)
    HALIDE_BINARY_OPERANDS(LE)
    HALIDE_BINARY_OPERANDS(GT)
    HALIDE_BINARY_OPERANDS(GE)
    HALIDE_BINARY_OPERANDS(And)
    HALIDE_BINARY_OPERANDS(Or)
    HALIDE_BINARY_OPERANDS(Mod)
#undef HALIDE_BINARY_OPERANDS
    if (const Not *op = e.as<Not>()) {
        return both_constant(of(op->a), Monotonic::Constant);
    }
    if (const Broadcast *op = e.as<Broadcast>()) {
        return both_constant(of(op->value), Monotonic::Constant);
    }
    if (const Ramp *op = e.as<Ramp>()) {
        return pair(op->base, op->stride);
    }
    return Monotonic::Unknown;
}

} // namespace

Monotonic is_monotonic(const Expr &e, const std::string &var, const std::map<std::string, Monotonic> &known) {
    return Walk(var, known).of(e);
}

} // namespace Internal
} // namespace Halide
