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

// A condition that maps each bounded coordinate on its own: `remap(x, r)`
// gives the coordinate read for x outside r. Inside r, x itself is read
// (as clamp_likely, marked likely).
Func remap_each(const char *what, const Func &source, const Region &bounds,
                const std::function<Expr(const Expr &, const Range &)> &remap) {
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
            coords.push_back(select(outside, remap(x, r), likely(clamp_likely(x, r))));
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

Func repeat_image(const Func &source, const Region &bounds) {
    return remap_each("repeat_image", source, bounds, [](const Expr &x, const Range &r) {
        // Halide's % is never negative for a positive divisor.
        return (x - r.min) % r.extent + r.min;
    });
}

Func mirror_image(const Func &source, const Region &bounds) {
    return remap_each("mirror_image", source, bounds, [](const Expr &x, const Range &r) {
        Expr period = r.extent * 2;
        Expr t = (x - r.min) % period;
        Expr folded = select(t < r.extent, t, period - 1 - t);
        return clamp(folded + r.min, r.min, r.min + r.extent - 1);
    });
}

Func mirror_interior(const Func &source, const Region &bounds) {
    return remap_each("mirror_interior", source, bounds, [](const Expr &x, const Range &r) {
        // Period 2 * (extent - 1); an extent of 1 gives period 0, and x % 0 is 0.
        Expr last = r.extent - 1;
        Expr t = (x - r.min) % (last * 2);
        Expr folded = select(t <= last, t, last * 2 - t);
        return clamp(folded + r.min, r.min, r.min + last);
    });
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
