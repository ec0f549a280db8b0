// Halide::Internal::Interval: a range [min, max] of values of an expression,
// with upstream's markers for its unbounded ends and its set operations.
#ifndef HALIDE_INTERVAL_H
#define HALIDE_INTERVAL_H

#include "Halide/Expr.h"

namespace Halide {
namespace Internal {

// Inclusive at both ends. An end is unbounded when it is pos_inf()/neg_inf()
// (upstream's markers) or undefined (the form bounds inference builds
// internally); every query below reads both forms alike.
struct Interval {
    Expr min, max;

    // Differs from upstream: both ends are left undefined, which every query
    // reads as unbounded (upstream fills in the markers).
    Interval() = default;
    Interval(Expr min, Expr max) : min(std::move(min)), max(std::move(max)) {}

    // The markers of an unbounded end: one object each, compared by identity.
    static Expr pos_inf();
    static Expr neg_inf();

    static Interval everything();                // [neg_inf, pos_inf]
    static Interval nothing();                   // [pos_inf, neg_inf]
    static Interval single_point(const Expr &e); // [e, e]

    bool is_empty() const;
    bool is_everything() const;
    bool is_single_point() const;
    bool is_single_point(const Expr &e) const;
    bool has_upper_bound() const;
    bool has_lower_bound() const;
    bool is_bounded() const { return has_lower_bound() && has_upper_bound(); }
    // Both ends the same objects.
    bool same_as(const Interval &other) const;
    // Structural equality of both ends.
    bool operator==(const Interval &other) const;

    // Grow to contain `i` / the value `e`.
    void include(const Interval &i);
    void include(const Expr &e);
    // Shrink to what `i` contains as well.
    void intersect(const Interval &i);

    // The smallest interval containing both; the largest contained in both
    // (its ends need not be ordered: [9, 4] is empty).
    static Interval make_union(const Interval &a, const Interval &b);
    static Interval make_intersection(const Interval &a, const Interval &b);
    // min/max of two ends, folding the markers and constants.
    static Expr make_max(const Expr &a, const Expr &b);
    static Expr make_min(const Expr &a, const Expr &b);
};

} // namespace Internal
} // namespace Halide

#endif
