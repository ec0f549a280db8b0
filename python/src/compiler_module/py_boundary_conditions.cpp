// hl.BoundaryConditions: constant_exterior, repeat_edge, repeat_image,
// mirror_image and mirror_interior of a Func (with its bounds), a Buffer or
// an ImageParam (bounds optional: their own by default), as upstream's
// submodule. Bounds are a list with one entry per dimension, innermost
// first: a halide.Range, a (min, extent) pair, or None (or (None, None)) for
// an unbounded dimension.
#include <string>

#include "py_compiler.h"

namespace halide_py {

using Halide::Expr;
using Halide::Func;
using Halide::ImageParam;
using Halide::Range;
using Halide::Region;
using Halide::Tuple;
using Buffer = Halide::Buffer<>;

namespace {

std::string type_name_of(py::handle value) {
    return py::str(py::type::handle_of(value).attr("__name__"));
}

// One end of a (min, extent) pair: None or an undefined hl.Expr() (as
// upstream's scripts write it) is an unbounded dimension.
Expr bound_end(py::handle value, const char *what) {
    if (value.is_none() || (py::isinstance<Expr>(value) && !value.cast<Expr>().defined())) {
        return Expr();
    }
    return to_expr(value, what);
}

Region to_region(const py::sequence &bounds, const char *fn) {
    Region region;
    for (size_t i = 0; i < py::len(bounds); i++) {
        py::object item = bounds[i];
        if (py::isinstance<Range>(item)) {
            region.push_back(item.cast<Range>());
        } else if (item.is_none()) {
            region.push_back(Range{});
        } else if ((py::isinstance<py::tuple>(item) || py::isinstance<py::list>(item)) && py::len(item) == 2) {
            auto pair = py::reinterpret_borrow<py::sequence>(item);
            region.push_back(Range{bound_end(pair[0], "bounds min"), bound_end(pair[1], "bounds extent")});
        } else {
            throw py::type_error(std::string("BoundaryConditions.") + fn + ": bounds[" + std::to_string(i) +
                                 "] must be a halide.Range, a (min, extent) pair or None, got " + type_name_of(item));
        }
    }
    return region;
}

// More bounds than dimensions: a ValueError, as upstream's binding raises.
Region checked(const Func &source, Region region, const char *fn) {
    if (source.defined() && (int)region.size() > source.dimensions()) {
        throw py::value_error(std::string("BoundaryConditions.") + fn + " called with more bounds (" +
                              std::to_string(region.size()) + ") than dimensions (" +
                              std::to_string(source.dimensions()) + ") Func " + source.name() + " has");
    }
    return region;
}

// A Buffer or an ImageParam as a Func, and its bounds (its own by default).
template <typename T> std::pair<Func, Region> image_source(const T &image, const py::object &bounds, const char *fn) {
    Func source = Halide::BoundaryConditions::Internal::func_like_to_func(image);
    Region region = bounds.is_none() ? Halide::BoundaryConditions::Internal::bounds_of(image)
                                     : to_region(bounds.cast<py::sequence>(), fn);
    return {source, checked(source, region, fn)};
}

void check_buffer(const Buffer &b, const char *fn) {
    if (!b.defined()) {
        throw py::value_error(std::string("BoundaryConditions.") + fn + " of an undefined Buffer");
    }
}

Tuple to_tuple(const std::vector<Expr> &values) {
    if (values.empty()) {
        throw py::value_error("BoundaryConditions.constant_exterior: the exterior value is an empty sequence");
    }
    return Tuple(values);
}

using Simple = Func (*)(const Func &, const Region &);

// repeat_edge and the three other conditions that take no value.
template <Simple F> void def_simple(py::module_ &bc, const char *name, const char *doc) {
    bc.def(
        name,
        [name](const Func &f, const py::sequence &bounds) { return F(f, checked(f, to_region(bounds, name), name)); },
        py::arg("f"), py::arg("bounds"), doc);
    bc.def(
        name,
        [name](const ImageParam &f, const py::object &bounds) {
            auto [source, region] = image_source(f, bounds, name);
            return F(source, region);
        },
        py::arg("f"), py::arg("bounds") = py::none(), doc);
    bc.def(
        name,
        [name](const Buffer &f, const py::object &bounds) {
            check_buffer(f, name);
            auto [source, region] = image_source(f, bounds, name);
            return F(source, region);
        },
        py::arg("f"), py::arg("bounds") = py::none(), doc);
}

// constant_exterior with `Value` an Expr or a Tuple (a list or tuple of
// values, for a Func with several).
template <typename Value, typename Convert> void def_constant_exterior(py::module_ &bc, Convert convert) {
    const char *doc = "Outside the bounds, the value `exterior` (a list or tuple: one per value of the source).";
    const char *fn = "constant_exterior";
    bc.def(
        fn,
        [convert, fn](const Func &f, const Value &exterior, const py::sequence &bounds) {
            return Halide::BoundaryConditions::constant_exterior(f, convert(exterior),
                                                                 checked(f, to_region(bounds, fn), fn));
        },
        py::arg("f"), py::arg("exterior"), py::arg("bounds"), doc);
    bc.def(
        fn,
        [convert, fn](const ImageParam &f, const Value &exterior, const py::object &bounds) {
            auto [source, region] = image_source(f, bounds, fn);
            return Halide::BoundaryConditions::constant_exterior(source, convert(exterior), region);
        },
        py::arg("f"), py::arg("exterior"), py::arg("bounds") = py::none(), doc);
    bc.def(
        fn,
        [convert, fn](const Buffer &f, const Value &exterior, const py::object &bounds) {
            check_buffer(f, fn);
            auto [source, region] = image_source(f, bounds, fn);
            return Halide::BoundaryConditions::constant_exterior(source, convert(exterior), region);
        },
        py::arg("f"), py::arg("exterior"), py::arg("bounds") = py::none(), doc);
}

} // namespace

void define_boundary_conditions(py::module_ &m) {
    py::module_ bc = m.def_submodule(
        "BoundaryConditions",
        "Funcs, Buffers and ImageParams extended beyond their bounds: constant_exterior, repeat_edge, "
        "repeat_image, mirror_image, mirror_interior. Bounds: one halide.Range, (min, extent) pair or None "
        "(unbounded) per dimension, innermost first; a Buffer or ImageParam uses its own by default.");
    def_constant_exterior<Expr>(bc, [](const Expr &e) { return Tuple(std::vector<Expr>{e}); });
    def_constant_exterior<std::vector<Expr>>(bc, to_tuple);
    def_simple<Halide::BoundaryConditions::repeat_edge>(bc, "repeat_edge",
                                                        "Outside the bounds, the nearest point inside them.");
    def_simple<Halide::BoundaryConditions::repeat_image>(bc, "repeat_image",
                                                         "Outside the bounds, the source repeated periodically.");
    def_simple<Halide::BoundaryConditions::mirror_image>(
        bc, "mirror_image", "Outside the bounds, the source mirrored, edge points repeated (NumPy's 'symmetric').");
    def_simple<Halide::BoundaryConditions::mirror_interior>(
        bc, "mirror_interior", "Outside the bounds, the source mirrored about the edge points (NumPy's 'reflect').");
}

} // namespace halide_py
