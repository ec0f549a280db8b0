// hl.Expr: construction from Python values and every Python operator.
#include <cmath>
#include <sstream>

#include "Halide/IRPrinter.h"
#include "py_compiler.h"

namespace halide_py {

using Halide::Expr;
using Halide::Type;

std::string expr_repr(const Expr &e) {
    std::ostringstream s;
    if (!e.defined()) {
        return "<halide.Expr (undefined)>";
    }
    s << "<halide.Expr of type " << type_name(e.type()) << ": " << e << ">";
    return s.str();
}

Expr float_to_expr(double value) {
    float f = (float)value;
    if (!std::isnan(value) && (double)f != value) {
        std::ostringstream msg;
        msg.precision(17);
        msg << "The floating-point value " << value
            << " will be interpreted as a float32 by Halide and lose precision; add an explicit `f32()` or "
               "`f64()` cast to avoid this warning.";
        if (PyErr_WarnEx(PyExc_RuntimeWarning, msg.str().c_str(), 1) != 0) {
            throw py::error_already_set();
        }
    }
    return Expr(f);
}

bool as_small_int(py::handle value, int *out) {
    if (!PyIndex_Check(value.ptr()) || PyFloat_Check(value.ptr())) {
        return false;
    }
    py::int_ i = py::reinterpret_steal<py::int_>(PyNumber_Index(value.ptr()));
    if (!i) {
        throw py::error_already_set();
    }
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(i.ptr(), &overflow);
    if (overflow || v < INT32_MIN || v > INT32_MAX) {
        return false;
    }
    *out = (int)v;
    return true;
}

namespace {

// An Expr for a Python number, or an undefined Expr if it is not one.
Expr number_to_expr(py::handle value) {
    PyObject *o = value.ptr();
    if (PyIndex_Check(o) && !PyFloat_Check(o)) {
        py::int_ i = py::reinterpret_steal<py::int_>(PyNumber_Index(o));
        if (!i) {
            throw py::error_already_set();
        }
        int overflow = 0;
        long long v = PyLong_AsLongLongAndOverflow(i.ptr(), &overflow);
        if (!overflow) {
            if (v >= INT32_MIN && v <= INT32_MAX) {
                return Expr((int32_t)v);
            }
            return Expr((int64_t)v);
        }
        // Beyond 64 bits: as upstream, the value becomes a float.
        double d = PyLong_AsDouble(i.ptr());
        if (d == -1.0 && PyErr_Occurred()) {
            throw py::error_already_set();
        }
        return float_to_expr(d);
    }
    if (PyFloat_Check(o) || (Py_TYPE(o)->tp_as_number && Py_TYPE(o)->tp_as_number->nb_float)) {
        double d = PyFloat_AsDouble(o);
        if (d == -1.0 && PyErr_Occurred()) {
            throw py::error_already_set();
        }
        return float_to_expr(d);
    }
    return Expr();
}

// An Expr for an Expr-like object (Expr, Var, RVar, RDom, FuncRef, Param), else
// undefined.
Expr exprlike_to_expr(py::handle value) {
    if (py::isinstance<Expr>(value)) {
        return value.cast<Expr>();
    }
    if (py::isinstance<Halide::Var>(value)) {
        return Expr(value.cast<Halide::Var>());
    }
    if (py::isinstance<Halide::FuncRef>(value)) {
        return Expr(value.cast<Halide::FuncRef>());
    }
    if (py::isinstance<Halide::Param<>>(value)) {
        return Expr(value.cast<Halide::Param<>>());
    }
    if (py::isinstance<Halide::RVar>(value)) {
        return Expr(value.cast<Halide::RVar>());
    }
    if (py::isinstance<Halide::RDom>(value)) {
        return Expr(value.cast<Halide::RDom>()); // one-dimensional only (else a HalideError)
    }
    return Expr();
}

[[noreturn]] void bad_operand(py::handle value, const char *what) {
    throw py::type_error(std::string(what) +
                         ": expected a halide.Expr, Var, RVar, RDom, FuncRef, Param, int, float or bool, got " +
                         std::string(py::str(py::type::handle_of(value).attr("__name__"))));
}

// Like to_arith_expr, but returns undefined instead of raising.
Expr try_arith(py::handle value) {
    Expr e = exprlike_to_expr(value);
    if (!e.defined()) {
        e = number_to_expr(value);
    }
    return e;
}

// A Python int v combined with an Expr of type t becomes a constant of type
// t, as upstream does; a constant that would change its value is an error.
Expr coerce_int(const Type &t, int v) {
    if (t.is_int_or_uint() && !t.is_bool() && !t.can_represent((int64_t)v)) {
        Expr wrapped = Halide::Internal::make_const(t, (int64_t)v);
        std::ostringstream msg;
        msg << "Integer constant " << v << " will be implicitly coerced to type " << type_name(t)
            << ", which changes its value to " << wrapped << ".";
        throw Halide::CompileError(Halide::Internal::user_error_text(msg.str()));
    }
    return Halide::Internal::make_const(t, (int64_t)v);
}

// The two operands of a binary operator, self first. Returns false when
// `other` is not something an Expr combines with (the operator then returns
// NotImplemented). A small Python int takes the type of the Expr.
bool operands(py::handle self, py::handle other, Expr *a, Expr *b) {
    *a = exprlike_to_expr(self);
    if (!a->defined()) {
        return false;
    }
    int small = 0;
    *b = exprlike_to_expr(other);
    if (b->defined()) {
        return true;
    }
    if (as_small_int(other, &small)) {
        *b = coerce_int(a->type(), small);
        return true;
    }
    *b = number_to_expr(other);
    return b->defined();
}

template <typename F> BinaryOp make_op() {
    return [](py::handle self, py::handle other) -> py::object {
        Expr a, b;
        if (!operands(self, other, &a, &b)) {
            return py::reinterpret_borrow<py::object>(Py_NotImplemented);
        }
        return py::cast(F()(a, b));
    };
}

template <typename F> BinaryOp make_rop() {
    return [](py::handle self, py::handle other) -> py::object {
        Expr a, b;
        if (!operands(self, other, &a, &b)) {
            return py::reinterpret_borrow<py::object>(Py_NotImplemented);
        }
        return py::cast(F()(b, a));
    };
}

#define HALIDE_PY_BINOP(name, expr)                                                                                    \
    struct name {                                                                                                      \
        Expr operator()(const Expr &a, const Expr &b) const { return expr; }                                           \
    };
HALIDE_PY_BINOP(Add, a + b)
HALIDE_PY_BINOP(Sub, a - b)
HALIDE_PY_BINOP(Mul, a *b)
HALIDE_PY_BINOP(Div, a / b)
HALIDE_PY_BINOP(Mod, a % b)
HALIDE_PY_BINOP(And, a &b)
HALIDE_PY_BINOP(Or, a | b)
HALIDE_PY_BINOP(Xor, a ^ b)
HALIDE_PY_BINOP(Shl, a << b)
HALIDE_PY_BINOP(Shr, a >> b)
HALIDE_PY_BINOP(Lt, a < b)
HALIDE_PY_BINOP(Le, a <= b)
HALIDE_PY_BINOP(Gt, a > b)
HALIDE_PY_BINOP(Ge, a >= b)
HALIDE_PY_BINOP(Eq, a == b)
HALIDE_PY_BINOP(Ne, a != b)
#undef HALIDE_PY_BINOP

// a // b: Halide's division for integers (rounds toward negative infinity),
// floor of the quotient for floats.
struct FloorDiv {
    Expr operator()(const Expr &a, const Expr &b) const {
        Expr q = a / b;
        return q.type().is_float() ? Halide::floor(q) : q;
    }
};

// An integer power by repeated squaring; negative powers are 1 / x^-n.
Expr int_power(const Expr &x, int64_t n) {
    if (n < 0) {
        return Halide::Internal::make_one(x.type()) / int_power(x, -n);
    }
    if (n == 0) {
        return Halide::Internal::make_one(x.type());
    }
    if (n == 1) {
        return x;
    }
    if (n % 2 == 0) {
        Expr h = int_power(x, n / 2);
        return h * h;
    }
    return int_power(x, n - 1) * x;
}

struct Pow {
    Expr operator()(const Expr &a, const Expr &b) const {
        if (const int64_t *n = Halide::Internal::as_const_int(b)) {
            if (*n >= -64 && *n <= 64) {
                return int_power(a, *n);
            }
        }
        if (const uint64_t *n = Halide::Internal::as_const_uint(b)) {
            if (*n <= 64) {
                return int_power(a, (int64_t)*n);
            }
        }
        Expr fa = a.type().is_float() ? a : Halide::cast(Halide::Float(32), a);
        Expr fb = b.type().is_float() ? b : Halide::cast(Halide::Float(32), b);
        return Halide::pow(fa, fb);
    }
};

py::object pow_op(py::handle self, py::handle other) {
    Expr a = exprlike_to_expr(self);
    Expr b = try_arith(other);
    if (!a.defined() || !b.defined()) {
        return py::reinterpret_borrow<py::object>(Py_NotImplemented);
    }
    return py::cast(Pow()(a, b));
}

py::object rpow_op(py::handle self, py::handle other) {
    Expr a = exprlike_to_expr(self);
    Expr b = try_arith(other);
    if (!a.defined() || !b.defined()) {
        return py::reinterpret_borrow<py::object>(Py_NotImplemented);
    }
    return py::cast(Pow()(b, a));
}

} // namespace

Expr to_arith_expr(py::handle value, const char *what) {
    Expr e = try_arith(value);
    if (!e.defined()) {
        bad_operand(value, what);
    }
    return e;
}

Expr to_expr(py::handle value, const char *what) {
    if (PyBool_Check(value.ptr())) {
        return Halide::Internal::make_bool(value.ptr() == Py_True);
    }
    return to_arith_expr(value, what);
}

const std::vector<std::pair<const char *, BinaryOp>> &expr_binary_operators() {
    static const std::vector<std::pair<const char *, BinaryOp>> ops = {
        {"__add__", make_op<Add>()},
        {"__radd__", make_rop<Add>()},
        {"__sub__", make_op<Sub>()},
        {"__rsub__", make_rop<Sub>()},
        {"__mul__", make_op<Mul>()},
        {"__rmul__", make_rop<Mul>()},
        {"__truediv__", make_op<Div>()},
        {"__rtruediv__", make_rop<Div>()},
        {"__floordiv__", make_op<FloorDiv>()},
        {"__rfloordiv__", make_rop<FloorDiv>()},
        {"__mod__", make_op<Mod>()},
        {"__rmod__", make_rop<Mod>()},
        {"__and__", make_op<And>()},
        {"__rand__", make_rop<And>()},
        {"__or__", make_op<Or>()},
        {"__ror__", make_rop<Or>()},
        {"__xor__", make_op<Xor>()},
        {"__rxor__", make_rop<Xor>()},
        {"__lshift__", make_op<Shl>()},
        {"__rlshift__", make_rop<Shl>()},
        {"__rshift__", make_op<Shr>()},
        {"__rrshift__", make_rop<Shr>()},
        {"__lt__", make_op<Lt>()},
        {"__le__", make_op<Le>()},
        {"__gt__", make_op<Gt>()},
        {"__ge__", make_op<Ge>()},
        {"__eq__", make_op<Eq>()},
        {"__ne__", make_op<Ne>()},
        {"__pow__", pow_op},
        {"__rpow__", rpow_op},
    };
    return ops;
}

const std::vector<std::pair<const char *, UnaryOp>> &expr_unary_operators() {
    static const std::vector<std::pair<const char *, UnaryOp>> ops = {
        {"__neg__", [](py::handle self) -> py::object { return py::cast(-exprlike_to_expr(self)); }},
        {"__invert__", [](py::handle self) -> py::object { return py::cast(~exprlike_to_expr(self)); }},
        {"__bool__",
         [](py::handle self) -> py::object {
             std::ostringstream s;
             s << "The halide.Expr (" << exprlike_to_expr(self)
               << ") cannot be converted to a bool. If this error occurs using the 'and'/'or' keywords, consider "
                  "using the '&'/'|' operators instead.";
             throw py::value_error(s.str());
         }},
    };
    return ops;
}

void define_expr(py::module_ &m) {
    auto cls = bound_class<Expr>(m, "Expr");
    cls.def(py::init<>())
        .def(py::init([](const Halide::Var &v) { return Expr(v); }), py::arg("v"))
        .def(py::init([](const Halide::FuncRef &f) { return Expr(f); }), py::arg("f"))
        .def(py::init([](bool b) { return Halide::Internal::make_bool(b); }), py::arg("b"))
        .def(py::init([](py::int_ i) { return to_arith_expr(i, "Expr()"); }), py::arg("i"))
        .def(py::init([](py::float_ f) { return to_arith_expr(f, "Expr()"); }), py::arg("f"))
        .def(py::init([](const std::string &s) { return Expr(s); }), py::arg("s"))
        .def(py::init([](const py::object &o) { return to_arith_expr(o, "Expr()"); }), py::arg("value"))
        .def("type", &Expr::type)
        .def("defined", &Expr::defined)
        .def("logical_not", [](const Expr &e) { return !e; })
        .def("__repr__", &expr_repr)
        .def("__str__", &expr_repr);
    add_expr_operators(cls);
    py::implicitly_convertible<Halide::Var, Expr>();
    py::implicitly_convertible<Halide::FuncRef, Expr>();
    // Any Python number (int, float, bool, NumPy scalars) where an Expr is
    // expected: through the constructors above.
    py::implicitly_convertible<py::object, Expr>();
}

} // namespace halide_py
