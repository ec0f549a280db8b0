// Halide::BoundaryConditions: a Func, Buffer or ImageParam extended to every
// integer coordinate, as upstream's. Inside the given bounds the result is
// the source; outside, each condition says what is read instead:
//
//   constant_exterior  a constant value (or a Tuple of them)
//   repeat_edge        the nearest point inside (clamped coordinates)
//   repeat_image       the source tiled periodically
//   mirror_image       the source reflected, the edge point repeated
//                      (..., 1, 0 | 0, 1, ..., n-1 | n-1, n-2, ...)
//   mirror_interior    the source reflected about the edge point
//                      (..., 2, 1 | 0, 1, ..., n-1 | n-2, n-3, ...)
//
// Bounds are one (min, extent) per dimension, innermost first; fewer bounds
// than dimensions leave the remaining dimensions unbounded, as does a Range
// whose min and extent are both undefined. Buffers and ImageParams without
// explicit bounds use their own (min, extent) per dimension. The in-bounds
// case is marked `likely`, so that loops can be split into a fast interior.
#ifndef HALIDE_BOUNDARY_CONDITIONS_H
#define HALIDE_BOUNDARY_CONDITIONS_H

#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "Halide/Argument.h"
#include "Halide/Expr.h"
#include "Halide/Func.h"
#include "Halide/Tuple.h"
#include "Halide/Var.h"

namespace Halide {
namespace BoundaryConditions {

namespace Internal {

// A Func that reads a Buffer or an ImageParam at every coordinate (args
// _0, _1, ...), as the conditions below take their source as a Func.
inline const Func &func_like_to_func(const Func &func) {
    return func;
}
template <typename T> Func func_like_to_func(const T &image) {
    std::vector<Var> args;
    std::vector<Expr> coords;
    for (int i = 0; i < image.dimensions(); i++) {
        args.push_back(Var::implicit(i));
        coords.push_back(args.back());
    }
    Func f("lambda");
    f(args) = image(coords);
    return f;
}

// The (min, extent) of each dimension of a Buffer or an ImageParam.
template <typename T> Region bounds_of(const T &image) {
    Region bounds;
    for (int i = 0; i < image.dimensions(); i++) {
        bounds.push_back(Range{Expr(image.dim(i).min()), Expr(image.dim(i).extent())});
    }
    return bounds;
}

// (min0, extent0, min1, extent1, ...) as a Region.
inline void collect_region(Region &) {}
template <typename A, typename B, typename... Rest>
void collect_region(Region &region, A &&min, B &&extent, Rest &&...rest) {
    region.push_back(Range{Expr(std::forward<A>(min)), Expr(std::forward<B>(extent))});
    collect_region(region, std::forward<Rest>(rest)...);
}

template <typename... Args> struct all_convertible_to_expr : std::conjunction<std::is_convertible<Args, Expr>...> {};

} // namespace Internal

// Outside `bounds`, the value `value` (one Expr per value of the source).
Func constant_exterior(const Func &source, const Tuple &value, const Region &bounds);
Func constant_exterior(const Func &source, const Expr &value, const Region &bounds);

template <typename T> Func constant_exterior(const T &func_like, const Tuple &value, const Region &bounds) {
    return constant_exterior(Internal::func_like_to_func(func_like), value, bounds);
}
template <typename T> Func constant_exterior(const T &func_like, const Expr &value, const Region &bounds) {
    return constant_exterior(Internal::func_like_to_func(func_like), value, bounds);
}
template <typename T> Func constant_exterior(const T &func_like, const Tuple &value) {
    return constant_exterior(Internal::func_like_to_func(func_like), value, Internal::bounds_of(func_like));
}
template <typename T> Func constant_exterior(const T &func_like, const Expr &value) {
    return constant_exterior(Internal::func_like_to_func(func_like), value, Internal::bounds_of(func_like));
}
// constant_exterior(f, value, min0, extent0, min1, extent1, ...)
template <typename T, typename... Bounds,
          typename = std::enable_if_t<(sizeof...(Bounds) > 0) && sizeof...(Bounds) % 2 == 0 &&
                                      Internal::all_convertible_to_expr<Bounds...>::value>>
Func constant_exterior(const T &func_like, const Tuple &value, Bounds &&...bounds) {
    Region region;
    Internal::collect_region(region, std::forward<Bounds>(bounds)...);
    return constant_exterior(Internal::func_like_to_func(func_like), value, region);
}
template <typename T, typename... Bounds,
          typename = std::enable_if_t<(sizeof...(Bounds) > 0) && sizeof...(Bounds) % 2 == 0 &&
                                      Internal::all_convertible_to_expr<Bounds...>::value>>
Func constant_exterior(const T &func_like, const Expr &value, Bounds &&...bounds) {
    Region region;
    Internal::collect_region(region, std::forward<Bounds>(bounds)...);
    return constant_exterior(Internal::func_like_to_func(func_like), value, region);
}

// The other four take the same sources: a Func with its bounds, or a
// Buffer or ImageParam with or without explicit bounds.
#define HALIDE_BOUNDARY_CONDITION(NAME)                                                                                \
    Func NAME(const Func &source, const Region &bounds);                                                               \
    template <typename T> Func NAME(const T &func_like, const Region &bounds) {                                        \
        return NAME(Internal::func_like_to_func(func_like), bounds);                                                   \
    }                                                                                                                  \
    template <typename T> Func NAME(const T &func_like) {                                                              \
        return NAME(Internal::func_like_to_func(func_like), Internal::bounds_of(func_like));                           \
    }

// Outside `bounds`, the nearest point inside.
HALIDE_BOUNDARY_CONDITION(repeat_edge)
// Outside `bounds`, the source repeated with period extent.
HALIDE_BOUNDARY_CONDITION(repeat_image)
// Outside `bounds`, the source mirrored, edge points repeated (period 2 * extent).
HALIDE_BOUNDARY_CONDITION(mirror_image)
// Outside `bounds`, the source mirrored about the edge points (period 2 * (extent - 1)).
HALIDE_BOUNDARY_CONDITION(mirror_interior)

#undef HALIDE_BOUNDARY_CONDITION

} // namespace BoundaryConditions
} // namespace Halide

#endif
