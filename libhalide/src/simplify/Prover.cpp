// See Prover.h. To prove a <= b, write a - b as a sum of coefficient * term
// (equal terms cancel), then show the sum's upper bound is <= 0: constant
// bounds where terms have them; otherwise replace one term by what is known
// about it and try again, a bounded number of times. For k * min(p, q) with
// k > 0 either replacement bounds the sum (k * max with k < 0 likewise); a
// max, a select or a negated min needs both. A loop variable is replaced by
// its max (or min, for a negative coefficient), a Let name by its value.
//
// Names are assumed unique where they are known (lowering never rebinds a
// loop or Let name inside its own scope).
#include "simplify/Prover.h"

#include "Halide/Error.h"
#include "Halide/IREquality.h"

namespace Halide {
namespace Internal {

namespace {

constexpr int kBudget = 4;    // nested replacements per proof
constexpr int kMaxWork = 400; // sums examined per proof

bool is_index_type(const Type &t) {
    return t.is_int() && t.is_scalar() && (t.bits() == 32 || t.bits() == 64);
}

std::optional<int64_t> add_checked(std::optional<int64_t> a, std::optional<int64_t> b) {
    int64_t r;
    if (!a || !b || __builtin_add_overflow(*a, *b, &r)) {
        return std::nullopt;
    }
    return r;
}

std::optional<int64_t> mul_checked(std::optional<int64_t> a, int64_t k) {
    int64_t r;
    if (!a || __builtin_mul_overflow(*a, k, &r)) {
        return std::nullopt;
    }
    return r;
}

// Floor division (the IR's signed division for a positive divisor).
int64_t floor_div(int64_t a, int64_t k) {
    int64_t q = a / k;
    return (a % k != 0 && a < 0) ? q - 1 : q;
}

} // namespace

struct Prover::Linear {
    std::vector<std::pair<Expr, int64_t>> terms;
    int64_t constant = 0;
    bool ok = true; // false once a coefficient overflowed

    void add(const Expr &e, int64_t scale) {
        if (!ok || scale == 0) {
            return;
        }
        if (const IntImm *i = e.as<IntImm>()) {
            std::optional<int64_t> v = add_checked(constant, mul_checked(i->value, scale));
            ok = v.has_value();
            constant = v.value_or(0);
        } else if (const Add *a = e.as<Add>()) {
            add(a->a, scale);
            add(a->b, scale);
        } else if (const Sub *s = e.as<Sub>()) {
            add(s->a, scale);
            add(s->b, -scale);
        } else if (const Call *c = e.as<Call>();
                   c && c->call_type == Call::Intrinsic && c->args.size() == 1 && c->name == "likely_if_innermost") {
            // A ShiftInwards split's base (ScheduleFunctions.cpp): its value
            // is its argument's, so min(base, max - factor + 1) still folds
            // where the split divides its range (a tile's row of vectors).
            add(c->args[0], scale);
        } else if (const Mul *m = e.as<Mul>(); m && (m->a.as<IntImm>() || m->b.as<IntImm>())) {
            const IntImm *k = m->b.as<IntImm>() ? m->b.as<IntImm>() : m->a.as<IntImm>();
            std::optional<int64_t> s2 = mul_checked(scale, k->value);
            ok = s2.has_value();
            add(m->b.as<IntImm>() ? m->a : m->b, s2.value_or(0));
        } else {
            add_term(e, scale);
        }
    }

    void add_term(const Expr &e, int64_t scale) {
        for (size_t i = 0; i < terms.size(); i++) {
            if (equal(terms[i].first, e)) {
                std::optional<int64_t> c = add_checked(terms[i].second, scale);
                ok = ok && c.has_value();
                terms[i].second = c.value_or(0);
                if (terms[i].second == 0) {
                    terms.erase(terms.begin() + (long)i);
                }
                return;
            }
        }
        terms.emplace_back(e, scale);
    }

    // This sum with term i replaced by `e` (same coefficient).
    Linear with(size_t i, const Expr &e) const {
        Linear l = *this;
        int64_t k = l.terms[i].second;
        l.terms.erase(l.terms.begin() + (long)i);
        l.add(e, k);
        return l;
    }
};

void Prover::push(const std::string &name, Knowledge k) {
    known_[name].push_back(std::move(k));
}

void Prover::push_range(const std::string &name, const Expr &min, const Expr &max) {
    Knowledge k;
    if (is_index_type(min.type()) && is_index_type(max.type())) {
        k.min = min;
        k.max = max;
    }
    push(name, std::move(k));
}

void Prover::push_definition(const std::string &name, const Expr &value) {
    Knowledge k;
    if (is_index_type(value.type())) {
        k.definition = value;
    }
    push(name, std::move(k));
}

void Prover::push_constant_bounds(const std::string &name, std::optional<int64_t> lo, std::optional<int64_t> hi) {
    Knowledge k;
    if (const Knowledge *outer = find(name)) {
        k = *outer; // still the same value; now with more known about it
    }
    if (lo) {
        k.lo = k.lo ? std::max(*k.lo, *lo) : *lo;
    }
    if (hi) {
        k.hi = k.hi ? std::min(*k.hi, *hi) : *hi;
    }
    push(name, std::move(k));
}

void Prover::pop(const std::string &name) {
    auto it = known_.find(name);
    internal_assert(it != known_.end() && !it->second.empty()) << "Prover: popping unknown " << name;
    it->second.pop_back();
    if (it->second.empty()) {
        known_.erase(it);
    }
}

const Prover::Knowledge *Prover::find(const std::string &name) const {
    auto it = known_.find(name);
    return it == known_.end() ? nullptr : &it->second.back();
}

std::vector<std::string> Prover::learn(const Expr &c) {
    if (const And *a = c.as<And>()) {
        std::vector<std::string> names = learn(a->a);
        for (const std::string &n : learn(a->b)) {
            names.push_back(n);
        }
        return names;
    }
    // Normalize to `v <= k` (upper) or `v >= k` (lower).
    Expr l, r;
    int64_t adjust = 0;
    bool less = true;
    if (const LE *op = c.as<LE>()) {
        l = op->a, r = op->b;
    } else if (const LT *op = c.as<LT>()) {
        l = op->a, r = op->b, adjust = -1;
    } else if (const GE *op = c.as<GE>()) {
        l = op->a, r = op->b, less = false;
    } else if (const GT *op = c.as<GT>()) {
        l = op->a, r = op->b, less = false, adjust = 1;
    } else {
        return {};
    }
    if (l.as<IntImm>() && r.as<Variable>()) { // k <= v is v >= k
        std::swap(l, r);
        less = !less;
        adjust = -adjust;
    }
    const Variable *v = l.as<Variable>();
    const IntImm *k = r.as<IntImm>();
    if (!v || !k || !is_index_type(v->type)) {
        return {};
    }
    std::optional<int64_t> bound = add_checked(k->value, adjust);
    if (!bound) {
        return {};
    }
    push_constant_bounds(v->name, less ? std::nullopt : bound, less ? bound : std::nullopt);
    return {v->name};
}

bool Prover::prove_le(const Expr &a, const Expr &b) const {
    return prove_difference_at_most(a, b, 0);
}

bool Prover::prove_lt(const Expr &a, const Expr &b) const {
    return prove_difference_at_most(a, b, -1);
}

// a - b <= target?
bool Prover::prove_difference_at_most(const Expr &a, const Expr &b, int64_t target) const {
    if (!is_index_type(a.type()) || a.type() != b.type()) {
        return false;
    }
    Linear l;
    l.add(a, 1);
    l.add(b, -1);
    int work = 0;
    return l.ok && at_most(l, target, kBudget, &work);
}

std::optional<int64_t> Prover::constant_difference(const Expr &a, const Expr &b) const {
    if (!is_index_type(a.type()) || a.type() != b.type()) {
        return std::nullopt;
    }
    Linear l;
    l.add(a, 1);
    l.add(b, -1);
    for (int round = 0; round < 2 * kBudget && l.ok && !l.terms.empty(); round++) {
        bool expanded = false;
        for (size_t i = l.terms.size(); i-- > 0;) {
            const Variable *v = l.terms[i].first.as<Variable>();
            const Knowledge *k = v ? find(v->name) : nullptr;
            if (k && k->definition.defined()) {
                l = l.with(i, k->definition);
                expanded = true;
                break;
            }
        }
        if (!expanded) {
            break;
        }
    }
    if (!l.ok || !l.terms.empty()) {
        return std::nullopt;
    }
    return l.constant;
}

bool Prover::at_most(const Linear &l, int64_t target, int budget, int *work) const {
    if (!l.ok || ++*work > kMaxWork) {
        return false;
    }
    std::optional<int64_t> total = l.constant;
    for (const auto &[term, k] : l.terms) {
        total = add_checked(total, mul_checked(constant_bound(term, k > 0, 0), k));
        if (!total) {
            break;
        }
    }
    if (total && *total <= target) {
        return true;
    }
    // Constant bounds too loose (terms that cancel, as a tile's min and max
    // do: x * 16 and x * 16 + 15 over x's whole range): try definitions.
    if (budget == 0) {
        return false;
    }
    for (size_t i = 0; i < l.terms.size(); i++) {
        const Expr &t = l.terms[i].first;
        int64_t k = l.terms[i].second;
        Expr p, q;
        bool either = false; // whether one branch alone bounds the sum
        if (const Min *m = t.as<Min>()) {
            p = m->a, q = m->b, either = k > 0;
        } else if (const Max *m = t.as<Max>()) {
            p = m->a, q = m->b, either = k < 0;
        } else if (const Select *s = t.as<Select>()) {
            p = s->true_value, q = s->false_value;
        } else if (const Variable *v = t.as<Variable>()) {
            const Knowledge *known = find(v->name);
            if (!known) {
                continue;
            }
            if (known->definition.defined() && at_most(l.with(i, known->definition), target, budget - 1, work)) {
                return true;
            }
            if (known->min.defined() && at_most(l.with(i, k > 0 ? known->max : known->min), target, budget - 1, work)) {
                return true;
            }
            continue;
        } else {
            continue;
        }
        bool first = at_most(l.with(i, p), target, budget - 1, work);
        if (first && either) {
            return true;
        }
        if (!first && !either) {
            continue;
        }
        if (at_most(l.with(i, q), target, budget - 1, work)) {
            return true;
        }
    }
    return false;
}

std::optional<int64_t> Prover::constant_bound(const Expr &e, bool upper, int depth) const {
    if (depth > 6) {
        return std::nullopt;
    }
    Type t = e.type();
    if (!(t.is_int() || t.is_uint()) || !t.is_scalar() || t.bits() > 64 || (t.is_uint() && t.bits() == 64)) {
        return std::nullopt;
    }
    auto bound = [&](const Expr &x) { return constant_bound(x, upper, depth + 1); };
    auto opposite = [&](const Expr &x) { return constant_bound(x, !upper, depth + 1); };
    if (const IntImm *i = e.as<IntImm>()) {
        return i->value;
    }
    if (const UIntImm *u = e.as<UIntImm>()) {
        return (int64_t)u->value;
    }
    if (const Variable *v = e.as<Variable>()) {
        const Knowledge *k = find(v->name);
        std::optional<int64_t> r;
        if (k) {
            r = upper ? k->hi : k->lo;
            std::optional<int64_t> other;
            if (k->min.defined()) {
                other = bound(upper ? k->max : k->min);
            } else if (k->definition.defined()) {
                other = bound(k->definition);
            }
            if (other) {
                r = !r ? other : (upper ? std::min(*r, *other) : std::max(*r, *other));
            }
        }
        if (!r && t.is_uint()) {
            r = upper ? std::optional<int64_t>((int64_t)t.umax()) : std::optional<int64_t>(0);
        }
        return r;
    }
    bool wraps = !is_index_type(t); // narrow and unsigned arithmetic wraps around
    if (const Add *op = e.as<Add>(); op && !wraps) {
        return add_checked(bound(op->a), bound(op->b));
    }
    if (const Sub *op = e.as<Sub>(); op && !wraps) {
        return add_checked(bound(op->a), mul_checked(opposite(op->b), -1));
    }
    if (const Mul *op = e.as<Mul>(); op && !wraps) {
        const IntImm *k = op->b.as<IntImm>() ? op->b.as<IntImm>() : op->a.as<IntImm>();
        if (!k) {
            return std::nullopt;
        }
        const Expr &x = op->b.as<IntImm>() ? op->a : op->b;
        return mul_checked(k->value >= 0 ? bound(x) : opposite(x), k->value);
    }
    if (const Div *op = e.as<Div>(); op && !wraps) {
        const IntImm *k = op->b.as<IntImm>();
        if (!k || k->value <= 0) {
            return std::nullopt;
        }
        std::optional<int64_t> b = bound(op->a);
        return b ? std::optional<int64_t>(floor_div(*b, k->value)) : std::nullopt;
    }
    if (const Mod *op = e.as<Mod>(); op && !wraps) {
        const IntImm *k = op->b.as<IntImm>();
        if (!k || k->value <= 0) {
            return std::nullopt;
        }
        return upper ? k->value - 1 : 0;
    }
    bool is_min = e.as<Min>() != nullptr;
    if (is_min || e.as<Max>()) {
        Expr a = is_min ? e.as<Min>()->a : e.as<Max>()->a;
        Expr b = is_min ? e.as<Min>()->b : e.as<Max>()->b;
        std::optional<int64_t> x = bound(a), y = bound(b);
        if (is_min == upper) { // min's upper bound (max's lower): either side will do
            if (x && y) {
                return upper ? std::min(*x, *y) : std::max(*x, *y);
            }
            return x ? x : y;
        }
        if (x && y) {
            return upper ? std::max(*x, *y) : std::min(*x, *y);
        }
        return std::nullopt;
    }
    if (const Select *op = e.as<Select>()) {
        std::optional<int64_t> x = bound(op->true_value), y = bound(op->false_value);
        if (x && y) {
            return upper ? std::max(*x, *y) : std::min(*x, *y);
        }
        return std::nullopt;
    }
    if (const Cast *op = e.as<Cast>()) {
        Type from = op->value.type();
        if ((from.is_int() || from.is_uint()) && t.can_represent(from)) {
            std::optional<int64_t> b = bound(op->value);
            if (b) {
                return b;
            }
            if (from.is_uint() && from.bits() < 64) {
                return upper ? (int64_t)from.umax() : 0;
            }
            return upper ? from.imax() : from.imin();
        }
        return std::nullopt;
    }
    if (t.is_uint() && t.bits() < 64) {
        return upper ? (int64_t)t.umax() : 0;
    }
    return std::nullopt;
}

} // namespace Internal
} // namespace Halide
