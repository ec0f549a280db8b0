// See BoundaryConditions.h. Each condition is a new Func over the source's
// pure Vars that calls the source at remapped coordinates. Wherever the
// remapped coordinate could be computed for a point inside the bounds, it
// is clamped into the bounds as well, so that bounds inference sees every
// read of the source land inside them.
#include "Halide/BoundaryConditions.h"

#include <functional>

#include "Halide/Error.h"
#include "Halide/IROperator.h"
#include "Halide/IRPrinter.h"

namespace Halide {
namespace BoundaryConditions {

namespace {

// The source's values at `coords`: one Expr per value of a Tuple.
std::vector<Expr> call_values(const Func &source, const std::vector<Expr> &coords) {
    FuncRef ref = source(coords);
    std::vector<Expr> values;
    if (source.outputs() == 1) {
        values.push_back(Expr(ref));
    } else {
        for (int i = 0; i < source.outputs(); i++) {
            values.push_back(ref[i]);
        }
    }
    return values;
}

void define(Func &f, const std::vector<Var> &args, const std::vector<Expr> &values) {
    if (values.size() == 1) {
        f(args) = values[0];
    } else {
        f(args) = Tuple(values);
    }
}

// Checks the source and its bounds; the bounds of each dimension, or an
// undefined Range for a dimension left unbounded.
Region checked_bounds(const char *what, const Func &source, const Region &bounds) {
    user_assert(source.defined()) << what << " of Func '" << source.name()
                                  << "', which has not been defined: define it before adding a boundary condition";
    user_assert((int)bounds.size() <= source.dimensions())
        << what << " called with more bounds (" << bounds.size() << ") than dimensions (" << source.dimensions()
        << ") Func " << source.name() << " has.";
    std::vector<Var> args = source.args();
    Region out(source.dimensions());
    for (size_t i = 0; i < bounds.size(); i++) {
        const Range &r = bounds[i];
        user_assert(r.min.defined() == r.extent.defined())
            << "Partially undefined bounds for dimension " << args[i].name() << " of Func " << source.name() << ": "
            << what << " needs both the min and the extent, or neither (an unbounded dimension)";
        if (r.min.defined()) {
            user_assert(r.min.type().is_int() || r.min.type().is_uint())
                << what << " of Func " << source.name() << ": the min of dimension " << args[i].name()
                << " must be an integer, but it is " << r.min;
            user_assert(r.extent.type().is_int() || r.extent.type().is_uint())
                << what << " of Func " << source.name() << ": the extent of dimension " << args[i].name()
                << " must be an integer, but it is " << r.extent;
        }
        out[i] = r;
    }
    return out;
}

// x clamped into [min, min + extent), the in-bounds case marked likely.
Expr clamp_likely(const Expr &x, const Range &r) {
    return clamp(likely(x), r.min, r.min + r.extent - 1);
}

using Remap = std::function<Expr(const Expr &, const Range &)>;

// A condition that maps each bounded coordinate on its own: `remap(x, r)`
// gives the coordinate read for x outside r. Inside r, x itself is read
// (as clamp_likely, marked likely). `near(d, r)`, where defined, is the
// same coordinate for d = x - min in [-extent, extent] around r's points
// (a band that reaches at least one extent beyond each end; for 32-bit
// bounds only), computed without a division; outside r it is the likely
// case, so that loop partitioning gives the edges within the band a loop
// of their own (see lower/PartitionLoops.cpp), and only coordinates
// farther out take the general form.
struct Band {
    std::function<Expr(const Expr &, const Expr &)> contains; // (d, extent): d is in the band
    Remap value;                                              // (d, r): the coordinate
};

Func remap_each(const char *what, const Func &source, const Region &bounds, const Remap &remap,
                const Band *band = nullptr) {
    Region checked = checked_bounds(what, source, bounds);
    std::vector<Var> args = source.args();
    std::vector<Expr> coords;
    for (size_t i = 0; i < args.size(); i++) {
        Expr x = args[i];
        const Range &r = checked[i];
        if (!r.min.defined()) {
            coords.push_back(x);
        } else if (!remap) {
            coords.push_back(clamp_likely(x, r));
        } else {
            Expr outside = x < r.min || x >= r.min + r.extent;
            Expr far = remap(x, r);
            if (band && r.min.type() == Int(32) && r.extent.type() == Int(32)) {
                Expr d = x - r.min;
                Expr near = clamp(band->value(d, r), r.min, r.min + r.extent - 1);
                far = select(likely(band->contains(d, r.extent)), near, far);
            }
            coords.push_back(select(outside, far, likely(clamp_likely(x, r))));
        }
    }
    Func f(what);
    define(f, args, call_values(source, coords));
    return f;
}

} // namespace

Func repeat_edge(const Func &source, const Region &bounds) {
    return remap_each("repeat_edge", source, bounds, nullptr);
}

// d in [-extent, 2 * extent - 1]: one period on each side of the image.
// Empty for an extent below 1.
Expr within_one_period(const Expr &d, const Expr &extent) {
    return d >= 0 - extent && d <= extent * 2 - 1;
}

Func repeat_image(const Func &source, const Region &bounds) {
    // Within a period of the image: d shifted by one extent.
    static const Band band{within_one_period, [](const Expr &d, const Range &r) {
                               Expr shifted = select(d < 0, d + r.extent, select(d >= r.extent, d - r.extent, d));
                               return shifted + r.min;
                           }};
    return remap_each(
        "repeat_image", source, bounds,
        [](const Expr &x, const Range &r) {
            // Halide's % is never negative for a positive divisor.
            return (x - r.min) % r.extent + r.min;
        },
        &band);
}

Func mirror_image(const Func &source, const Region &bounds) {
    // Within a period: d reflected about -1/2 (-1 - d for d < 0), then
    // about extent - 1/2.
    static const Band band{within_one_period, [](const Expr &d, const Range &r) {
                               Expr t = max(d, -1 - d);
                               return min(t, r.extent * 2 - 1 - t) + r.min;
                           }};
    return remap_each(
        "mirror_image", source, bounds,
        [](const Expr &x, const Range &r) {
            Expr period = r.extent * 2;
            Expr t = (x - r.min) % period;
            Expr folded = select(t < r.extent, t, period - 1 - t);
            return clamp(folded + r.min, r.min, r.min + r.extent - 1);
        },
        &band);
}

Func mirror_interior(const Func &source, const Region &bounds) {
    // For d in [-(extent - 1), 2 * (extent - 1)]: |d| reflected about
    // extent - 1, i.e. min(|d|, 2 * (extent - 1) - |d|).
    static const Band band{[](const Expr &d, const Expr &extent) {
                               Expr last = extent - 1;
                               return d >= 0 - last && d <= last * 2;
                           },
                           [](const Expr &d, const Range &r) {
                               Expr t = max(d, 0 - d);
                               return min(t, (r.extent - 1) * 2 - t) + r.min;
                           }};
    return remap_each(
        "mirror_interior", source, bounds,
        [](const Expr &x, const Range &r) {
            // Period 2 * (extent - 1); an extent of 1 gives period 0, and x % 0 is 0.
            Expr last = r.extent - 1;
            Expr t = (x - r.min) % (last * 2);
            Expr folded = select(t <= last, t, last * 2 - t);
            return clamp(folded + r.min, r.min, r.min + last);
        },
        &band);
}

Func constant_exterior(const Func &source, const Tuple &value, const Region &bounds) {
    const char *what = "constant_exterior";
    Region checked = checked_bounds(what, source, bounds);
    std::vector<Type> types = source.output_types();
    user_assert(value.size() == types.size())
        << what << " of Func " << source.name() << ": the exterior value has " << value.size()
        << " element(s), but the Func has " << types.size() << " value(s)";
    std::vector<Var> args = source.args();
    Expr outside = Halide::Internal::const_false();
    for (size_t i = 0; i < args.size(); i++) {
        const Range &r = checked[i];
        if (r.min.defined()) {
            Expr x = args[i];
            outside = outside || x < r.min || x >= r.min + r.extent;
        }
    }
    // The source is read through repeat_edge, so that evaluating the inside
    // branch for an outside point (a vectorized select) stays in bounds.
    std::vector<Expr> coords(args.begin(), args.end());
    std::vector<Expr> inside = call_values(repeat_edge(source, bounds), coords);
    std::vector<Expr> values;
    for (size_t i = 0; i < types.size(); i++) {
        Expr v = value[i];
        user_assert(v.defined()) << what << " of Func " << source.name() << ": exterior value " << i << " is undefined";
        if (v.type() != types[i] && Halide::Internal::as_const_int(v)) {
            v = cast(types[i], v); // an integer literal takes the Func's type, as in select()
        }
        user_assert(v.type() == types[i])
            << what << " of Func " << source.name() << ": the exterior value " << v << " has type " << v.type()
            << ", but the Func's value " << i << " has type " << types[i];
        values.push_back(select(outside, v, likely(inside[i])));
    }
    Func f(what);
    define(f, args, values);
    return f;
}

Func constant_exterior(const Func &source, const Expr &value, const Region &bounds) {
    return constant_exterior(source, Tuple(std::vector<Expr>{value}), bounds);
}

} // namespace BoundaryConditions
} // namespace Halide
