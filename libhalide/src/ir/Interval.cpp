// Upstream's Interval operations on the public Interval (Halide/Interval.h).
// Bounds inference (analysis/Interval.cpp) uses the struct with undefined
// ends; these accept either form and answer in the markers' form.
#include "Halide/Interval.h"

#include "Halide/IR.h"
#include "Halide/IREquality.h"

namespace Halide {
namespace Internal {

namespace {

// The markers, made once; compared by reference (no handle copies: bounds
// inference asks is_bounded() often).
const Expr &pos_marker() {
    static const Expr marker = Variable::make(Handle(), "pos_inf");
    return marker;
}
const Expr &neg_marker() {
    static const Expr marker = Variable::make(Handle(), "neg_inf");
    return marker;
}

bool is_pos_inf(const Expr &e) {
    return e.same_as(pos_marker());
}
bool is_neg_inf(const Expr &e) {
    return e.same_as(neg_marker());
}

// An undefined end in the markers' form.
Expr lower_end(const Expr &e) {
    return e.defined() ? e : Interval::neg_inf();
}
Expr upper_end(const Expr &e) {
    return e.defined() ? e : Interval::pos_inf();
}

// The smaller (take_min) or larger of two constants of one type, or
// undefined when they are not both constants.
Expr fold_constants(const Expr &a, const Expr &b, bool take_min) {
    if (!(a.type() == b.type())) {
        return Expr();
    }
    auto pick = [&](auto va, auto vb) { return (va < vb) == take_min ? a : b; };
    if (const auto *ia = a.as<IntImm>()) {
        if (const auto *ib = b.as<IntImm>()) {
            return pick(ia->value, ib->value);
        }
    } else if (const auto *ua = a.as<UIntImm>()) {
        if (const auto *ub = b.as<UIntImm>()) {
            return pick(ua->value, ub->value);
        }
    } else if (const auto *fa = a.as<FloatImm>()) {
        if (const auto *fb = b.as<FloatImm>()) {
            return pick(fa->value, fb->value);
        }
    }
    return Expr();
}

} // namespace

Expr Interval::pos_inf() {
    return pos_marker();
}

Expr Interval::neg_inf() {
    return neg_marker();
}

Interval Interval::everything() {
    return {neg_inf(), pos_inf()};
}
Interval Interval::nothing() {
    return {pos_inf(), neg_inf()};
}
Interval Interval::single_point(const Expr &e) {
    return {e, e};
}

bool Interval::is_empty() const {
    return is_pos_inf(min) || is_neg_inf(max);
}

bool Interval::is_everything() const {
    return !has_lower_bound() && !has_upper_bound() && !is_empty();
}

bool Interval::is_single_point() const {
    return min.defined() && min.same_as(max);
}

bool Interval::is_single_point(const Expr &e) const {
    return e.defined() && min.same_as(e) && max.same_as(e);
}

bool Interval::has_upper_bound() const {
    return max.defined() && !is_pos_inf(max) && !is_empty();
}

bool Interval::has_lower_bound() const {
    return min.defined() && !is_neg_inf(min) && !is_empty();
}

bool Interval::same_as(const Interval &other) const {
    return min.same_as(other.min) && max.same_as(other.max);
}

bool Interval::operator==(const Interval &other) const {
    return equal(min, other.min) && equal(max, other.max);
}

Expr Interval::make_max(const Expr &a, const Expr &b) {
    if (is_pos_inf(a) || is_pos_inf(b)) {
        return pos_inf();
    }
    if (is_neg_inf(a)) {
        return b;
    }
    if (is_neg_inf(b) || a.same_as(b)) {
        return a;
    }
    Expr folded = fold_constants(a, b, false);
    return folded.defined() ? folded : Max::make(a, b);
}

Expr Interval::make_min(const Expr &a, const Expr &b) {
    if (is_neg_inf(a) || is_neg_inf(b)) {
        return neg_inf();
    }
    if (is_pos_inf(a)) {
        return b;
    }
    if (is_pos_inf(b) || a.same_as(b)) {
        return a;
    }
    Expr folded = fold_constants(a, b, true);
    return folded.defined() ? folded : Min::make(a, b);
}

Interval Interval::make_union(const Interval &a, const Interval &b) {
    Interval x{lower_end(a.min), upper_end(a.max)}, y{lower_end(b.min), upper_end(b.max)};
    if (x.is_empty()) {
        return y;
    }
    if (y.is_empty()) {
        return x;
    }
    return {make_min(x.min, y.min), make_max(x.max, y.max)};
}

Interval Interval::make_intersection(const Interval &a, const Interval &b) {
    return {make_max(lower_end(a.min), lower_end(b.min)), make_min(upper_end(a.max), upper_end(b.max))};
}

void Interval::include(const Interval &i) {
    *this = make_union(*this, i);
}

void Interval::include(const Expr &e) {
    *this = make_union(*this, single_point(e));
}

void Interval::intersect(const Interval &i) {
    *this = make_intersection(*this, i);
}

} // namespace Internal
} // namespace Halide
