// hl.Range, hl.RVar, hl.RDom and the inline reductions hl.sum, hl.product,
// hl.maximum, hl.minimum, hl.argmax and hl.argmin.
#include <sstream>

#include "Halide/IRPrinter.h"
#include "py_compiler.h"

namespace halide_py {

using Halide::Expr;
using Halide::Range;
using Halide::RDom;
using Halide::RVar;

namespace {

// "r.x(0, 10)", or just the name for an RVar that belongs to no RDom.
std::string rvar_text(const RVar &v) {
    std::ostringstream s;
    s << v.name();
    if (v.domain()) {
        s << "(" << v.min() << ", " << v.extent() << ")";
    }
    return s.str();
}

// One dimension of an RDom's region: a Range, or a (min, extent) pair.
Range to_range(py::handle item) {
    if (py::isinstance<Range>(item)) {
        return item.cast<Range>();
    }
    if ((py::isinstance<py::tuple>(item) || py::isinstance<py::list>(item)) && py::len(item) == 2) {
        auto pair = py::reinterpret_borrow<py::sequence>(item);
        return Range{to_expr(pair[0], "RDom min"), to_expr(pair[1], "RDom extent")};
    }
    throw py::type_error("RDom region: expected a halide.Range or a (min, extent) tuple, got " +
                         std::string(py::str(py::type::handle_of(item).attr("__name__"))));
}

// r[i] out of range raises this: an IndexError (so list(r) and for loops
// stop there) that is also the KeyError upstream's raises.
PyObject *rdom_index_error() {
    static PyObject *type = [] {
        py::dict body;
        body["__str__"] = py::module_::import("builtins").attr("BaseException").attr("__str__");
        py::tuple bases = py::make_tuple(py::handle(PyExc_IndexError), py::handle(PyExc_KeyError));
        PyObject *t = PyErr_NewException("halide.RDomIndexError", bases.ptr(), body.ptr());
        if (!t) {
            throw py::error_already_set();
        }
        return t; // owned for the life of the process, as exception classes are
    }();
    return type;
}

// The RDom's field x, y, z or w: an RVar of this RDom, so asking for r.z of
// a two-dimensional RDom is an error rather than an unrelated variable.
RVar named_rvar(const RDom &r, int i, const char *field) {
    if (i >= r.dimensions()) {
        std::ostringstream s;
        s << "RDom '" << (r.defined() ? r.name() : std::string("<undefined>")) << "' has " << r.dimensions()
          << " dimension(s); it has no ." << field;
        throw py::attribute_error(s.str());
    }
    return r[i];
}

// sum(expr, name=...) and sum(rdom, expr, name=...): the first overload is
// tried first, so hl.sum(r.x, "s") names the reduction and hl.sum(r, e)
// falls through to the second.
template <Expr (*Plain)(Expr, const std::string &), Expr (*Over)(const RDom &, Expr, const std::string &)>
void def_reduction(py::module_ &m, const char *name) {
    m.def(
        name, [name](const py::object &e, const std::string &n) { return Plain(to_expr(e, name), n); }, py::arg("expr"),
        py::arg("name") = name);
    m.def(
        name, [name](const RDom &r, const py::object &e, const std::string &n) { return Over(r, to_expr(e, name), n); },
        py::arg("rdom"), py::arg("expr"), py::arg("name") = name);
}

// argmax/argmin return a Tuple: a Python tuple of Exprs, as upstream's.
template <Halide::Tuple (*Plain)(Expr, const std::string &),
          Halide::Tuple (*Over)(const RDom &, Expr, const std::string &)>
void def_arg_reduction(py::module_ &m, const char *name) {
    auto as_tuple = [](const Halide::Tuple &t) { return py::tuple(py::cast(t.as_vector())); };
    m.def(
        name,
        [name, as_tuple](const py::object &e, const std::string &n) { return as_tuple(Plain(to_expr(e, name), n)); },
        py::arg("expr"), py::arg("name") = name);
    m.def(
        name,
        [name, as_tuple](const RDom &r, const py::object &e, const std::string &n) {
            return as_tuple(Over(r, to_expr(e, name), n));
        },
        py::arg("rdom"), py::arg("expr"), py::arg("name") = name);
}

// Resolves the overloads of the C++ functions (each has two) for the templates.
Expr sum_e(Expr e, const std::string &n) {
    return Halide::sum(std::move(e), n);
}
Expr sum_r(const RDom &r, Expr e, const std::string &n) {
    return Halide::sum(r, std::move(e), n);
}
Expr saturating_sum_e(Expr e, const std::string &n) {
    return Halide::saturating_sum(std::move(e), n);
}
Expr saturating_sum_r(const RDom &r, Expr e, const std::string &n) {
    return Halide::saturating_sum(r, std::move(e), n);
}
Expr product_e(Expr e, const std::string &n) {
    return Halide::product(std::move(e), n);
}
Expr product_r(const RDom &r, Expr e, const std::string &n) {
    return Halide::product(r, std::move(e), n);
}
Expr maximum_e(Expr e, const std::string &n) {
    return Halide::maximum(std::move(e), n);
}
Expr maximum_r(const RDom &r, Expr e, const std::string &n) {
    return Halide::maximum(r, std::move(e), n);
}
Expr minimum_e(Expr e, const std::string &n) {
    return Halide::minimum(std::move(e), n);
}
Expr minimum_r(const RDom &r, Expr e, const std::string &n) {
    return Halide::minimum(r, std::move(e), n);
}
Halide::Tuple argmax_e(Expr e, const std::string &n) {
    return Halide::argmax(std::move(e), n);
}
Halide::Tuple argmax_r(const RDom &r, Expr e, const std::string &n) {
    return Halide::argmax(r, std::move(e), n);
}
Halide::Tuple argmin_e(Expr e, const std::string &n) {
    return Halide::argmin(std::move(e), n);
}
Halide::Tuple argmin_r(const RDom &r, Expr e, const std::string &n) {
    return Halide::argmin(r, std::move(e), n);
}

} // namespace

void define_rdom(py::module_ &m) {
    bound_class<Range>(m, "Range")
        .def(py::init<>())
        .def(py::init([](const py::object &min, const py::object &extent) {
                 return Range{to_expr(min, "Range min"), to_expr(extent, "Range extent")};
             }),
             py::arg("min"), py::arg("extent"))
        .def(py::init([](const py::tuple &t) { return to_range(t); }), py::arg("range"))
        .def_readwrite("min", &Range::min)
        .def_readwrite("extent", &Range::extent)
        .def("__repr__", [](const Range &r) {
            std::ostringstream s;
            s << "<halide.Range [" << r.min << ", " << r.extent << "]>";
            return s.str();
        });

    auto rvar = bound_class<RVar>(m, "RVar");
    rvar.def(py::init<>())
        .def(py::init<const std::string &>(), py::arg("name"))
        .def(py::init([](const RDom &r) { return RVar(r); }), py::arg("rdom"))
        .def("name", &RVar::name)
        .def("min", &RVar::min)
        .def("extent", &RVar::extent)
        .def("logical_not", [](const RVar &v) { return !Expr(v); })
        .def("__repr__", [](const RVar &v) { return "<halide.RVar " + rvar_text(v) + ">"; })
        .def("__str__", &RVar::name);
    add_expr_operators(rvar);

    auto rdom = bound_class<RDom>(m, "RDom");
    rdom.def(py::init<>())
        // Buffer and ImageParam first: an hl.Buffer is also a sequence.
        .def(py::init([](const Halide::Buffer<> &b) { return RDom(b); }), py::arg("buffer"))
        .def(py::init([](const Halide::OutputImageParam &p) { return RDom(p); }), py::arg("image_param"))
        .def(py::init([](const py::sequence &region, const std::string &name) {
                 Halide::Region r;
                 for (const auto &item : region) {
                     r.push_back(to_range(item));
                 }
                 return RDom(r, name);
             }),
             py::arg("region"), py::arg("name") = "")
        .def("defined", &RDom::defined)
        .def("dimensions", &RDom::dimensions)
        // Upstream's returns a ReductionDomain, a type its Python does not
        // have: calling it raises TypeError there, as here.
        .def("domain",
             [](const RDom &) -> py::object {
                 throw py::type_error("RDom.domain() returns a ReductionDomain, which has no Python type (as in "
                                      "upstream's module); use the RDom and its RVars");
             })
        .def("__len__", &RDom::dimensions)
        .def(
            "__getitem__",
            [](const RDom &r, int i) {
                if (i < 0 || i >= r.dimensions()) {
                    PyErr_SetString(rdom_index_error(), ("RDom has " + std::to_string(r.dimensions()) +
                                                         " dimension(s); there is no " + std::to_string(i))
                                                            .c_str());
                    throw py::error_already_set();
                }
                return r[i];
            },
            py::arg("index"))
        .def_property_readonly("x", [](const RDom &r) { return named_rvar(r, 0, "x"); })
        .def_property_readonly("y", [](const RDom &r) { return named_rvar(r, 1, "y"); })
        .def_property_readonly("z", [](const RDom &r) { return named_rvar(r, 2, "z"); })
        .def_property_readonly("w", [](const RDom &r) { return named_rvar(r, 3, "w"); })
        // Upstream's Python where() returns None; the predicate is added to
        // this RDom (shared by its copies).
        .def(
            "where", [](RDom &r, const py::object &p) { r.where(to_expr(p, "where")); }, py::arg("predicate"))
        .def("same_as", &RDom::same_as, py::arg("other"))
        .def("name", &RDom::name)
        .def("logical_not", [](const RDom &r) { return !Expr(r); })
        .def("__repr__", [](const RDom &r) {
            if (!r.defined()) {
                return std::string("<halide.RDom RDom()>"); // as upstream's
            }
            std::string s = "<halide.RDom '" + r.name() + "' [";
            for (int i = 0; i < r.dimensions(); i++) {
                s += (i ? ", " : "") + rvar_text(r[i]);
            }
            return s + "]>";
        });
    add_expr_operators(rdom);
    // A one-dimensional RDom wherever an RVar goes (f.compute_at(g, r),
    // f.update().vectorize(r, 4)), as upstream's.
    py::implicitly_convertible<RDom, RVar>();

    def_reduction<sum_e, sum_r>(m, "sum");
    def_reduction<saturating_sum_e, saturating_sum_r>(m, "saturating_sum"); // not in upstream's Python
    def_reduction<product_e, product_r>(m, "product");
    def_reduction<maximum_e, maximum_r>(m, "maximum");
    def_reduction<minimum_e, minimum_r>(m, "minimum");
    def_arg_reduction<argmax_e, argmax_r>(m, "argmax");
    def_arg_reduction<argmin_e, argmin_r>(m, "argmin");
}

} // namespace halide_py
