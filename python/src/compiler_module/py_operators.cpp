// The functions of IROperator.h: hl.select, hl.min, hl.max, hl.clamp, casts,
// math. Every argument that is an Expr takes any Python number as well.
#include "py_compiler.h"

namespace halide_py {

using Halide::Expr;

namespace {

Expr arg(const py::object &o, const char *what) {
    return to_expr(o, what);
}

// Left to right, as upstream folds min(a, b, c, ...) into min(a, min(b, ...)).
template <Expr (*F)(Expr, Expr)> Expr fold(const py::args &args, const char *name) {
    if (args.size() < 2) {
        throw py::type_error(std::string(name) + "() needs at least two arguments, got " + std::to_string(args.size()));
    }
    Expr result = arg(args[args.size() - 1], name);
    for (size_t i = args.size() - 1; i-- > 0;) {
        result = F(arg(args[i], name), result);
    }
    return result;
}

Expr min2(Expr a, Expr b) {
    return Halide::min(std::move(a), std::move(b));
}
Expr max2(Expr a, Expr b) {
    return Halide::max(std::move(a), std::move(b));
}

// What select() takes as a Tuple: a Python tuple or list, an hl.Tuple, or a
// call to a Func with several values.
bool is_tuple_like(py::handle v) {
    if (py::isinstance<py::tuple>(v) || py::isinstance<py::list>(v) || py::isinstance<Halide::Tuple>(v)) {
        return true;
    }
    if (py::isinstance<Halide::FuncRef>(v)) {
        try {
            return v.cast<const Halide::FuncRef &>().size() > 1;
        } catch (const Halide::Error &) {
            return false; // a Func not defined yet: its call is no Tuple
        }
    }
    return false;
}

std::vector<Expr> tuple_values(py::handle v) {
    if (py::isinstance<Halide::Tuple>(v)) {
        return v.cast<const Halide::Tuple &>().as_vector();
    }
    if (py::isinstance<Halide::FuncRef>(v)) {
        return Halide::Tuple(v.cast<const Halide::FuncRef &>()).as_vector();
    }
    std::vector<Expr> values;
    for (const auto &item : py::reinterpret_borrow<py::iterable>(v)) {
        values.push_back(arg(py::reinterpret_borrow<py::object>(item), "select"));
    }
    return values;
}

// select(c0, v0, [c1, v1, ...] default) on Tuples, element by element, as
// upstream's: every value a Tuple of one size; the conditions all Exprs or
// all Tuples of that size. A Python tuple of the Exprs.
py::tuple select_tuples(const py::args &args) {
    const size_t n = args.size();
    std::vector<std::vector<Expr>> conditions, values;
    bool some_tuple_condition = false, some_expr_condition = false;
    for (size_t i = 0; i + 1 < n; i += 2) {
        py::object condition = args[i], value = args[i + 1];
        if (is_tuple_like(condition)) {
            some_tuple_condition = true;
            conditions.push_back(tuple_values(condition));
        } else {
            some_expr_condition = true;
            conditions.push_back({arg(condition, "select")});
        }
        if (!is_tuple_like(value)) {
            throw Halide::CompileError(
                Halide::Internal::user_error_text("select() on Tuples requires every value to be a Tuple."));
        }
        values.push_back(tuple_values(value));
    }
    py::object last = args[n - 1];
    if (!is_tuple_like(last)) {
        throw Halide::CompileError(
            Halide::Internal::user_error_text("select() on Tuples requires every value to be a Tuple."));
    }
    std::vector<Expr> result = tuple_values(last);
    if (some_tuple_condition && some_expr_condition) {
        throw Halide::CompileError(Halide::Internal::user_error_text(
            "select() on Tuples may not mix Expr and Tuple for the condition elements."));
    }
    const size_t size = result.size();
    for (size_t i = 0; i < values.size(); i++) {
        if (values[i].size() != size || (some_tuple_condition && conditions[i].size() != size)) {
            throw Halide::CompileError(
                Halide::Internal::user_error_text("select() on Tuples requires all Tuples to have identical sizes."));
        }
    }
    for (size_t i = values.size(); i-- > 0;) {
        for (size_t k = 0; k < size; k++) {
            const Expr &c = some_tuple_condition ? conditions[i][k] : conditions[i][0];
            result[k] = Halide::select(c, values[i][k], result[k]);
        }
    }
    return py::cast(result);
}

} // namespace

// print / print_when arguments: Exprs, numbers, and strings as text.
std::vector<Expr> print_args(const py::args &args, size_t first) {
    std::vector<Expr> out;
    for (size_t i = first; i < args.size(); i++) {
        if (py::isinstance<py::str>(args[i])) {
            out.emplace_back(args[i].cast<std::string>());
        } else {
            out.push_back(to_expr(args[i], "print"));
        }
    }
    return out;
}

void define_operators(py::module_ &m) {
    m.def(
        "select",
        [](const py::args &args) {
            if (args.size() < 3 || args.size() % 2 == 0) {
                throw py::type_error("select() takes (condition, true_value, [condition, value, ...] false_value): an "
                                     "odd number of at least three arguments, got " +
                                     std::to_string(args.size()));
            }
            for (const auto &a : args) {
                if (is_tuple_like(a)) {
                    return py::object(select_tuples(args));
                }
            }
            Expr result = arg(args[args.size() - 1], "select");
            for (size_t i = args.size() - 1; i >= 2; i -= 2) {
                result = Halide::select(arg(args[i - 2], "select"), arg(args[i - 1], "select"), result);
            }
            return py::cast(result);
        },
        "select(c0, v0, [c1, v1, ...] default): the value of the first true condition (a tuple of Exprs when "
        "the values are Tuples)");
    m.def(
        "mux",
        [](const py::object &id, const std::vector<py::object> &values) {
            std::vector<Expr> v;
            for (const auto &o : values) {
                v.push_back(arg(o, "mux"));
            }
            return Halide::mux(arg(id, "mux"), v);
        },
        py::arg("id"), py::arg("values"));
    m.def("min", [](const py::args &args) { return fold<min2>(args, "min"); });
    m.def("max", [](const py::args &args) { return fold<max2>(args, "max"); });
    m.def(
        "clamp",
        [](const py::object &a, const py::object &lo, const py::object &hi) {
            return Halide::clamp(arg(a, "clamp"), arg(lo, "clamp"), arg(hi, "clamp"));
        },
        py::arg("a"), py::arg("min_val"), py::arg("max_val"));
    m.def(
        "absd", [](const py::object &a, const py::object &b) { return Halide::absd(arg(a, "absd"), arg(b, "absd")); },
        py::arg("a"), py::arg("b"));
    m.def(
        "lerp",
        [](const py::object &a, const py::object &b, const py::object &w) {
            return Halide::lerp(arg(a, "lerp"), arg(b, "lerp"), arg(w, "lerp"));
        },
        py::arg("zero_val"), py::arg("one_val"), py::arg("weight"));
    m.def(
        "cast", [](const Halide::Type &t, const py::object &e) { return Halide::cast(t, arg(e, "cast")); },
        py::arg("t"), py::arg("e"));
    m.def(
        "reinterpret",
        [](const Halide::Type &t, const py::object &e) { return Halide::reinterpret(t, arg(e, "reinterpret")); },
        py::arg("t"), py::arg("e"));
    m.def(
        "saturating_cast",
        [](const Halide::Type &t, const py::object &e) {
            return Halide::saturating_cast(t, arg(e, "saturating_cast"));
        },
        py::arg("t"), py::arg("e"));
    m.def(
        "logical_not", [](const py::object &e) { return !arg(e, "logical_not"); }, py::arg("a"));
    m.def(
        "atan2",
        [](const py::object &y, const py::object &x) { return Halide::atan2(arg(y, "atan2"), arg(x, "atan2")); },
        py::arg("y"), py::arg("x"));
    m.def(
        "hypot",
        [](const py::object &x, const py::object &y) { return Halide::hypot(arg(x, "hypot"), arg(y, "hypot")); },
        py::arg("x"), py::arg("y"));
    m.def(
        "pow", [](const py::object &x, const py::object &y) { return Halide::pow(arg(x, "pow"), arg(y, "pow")); },
        py::arg("x"), py::arg("y"));
    // Fast Float(32) approximations; positional arguments, as upstream's.
    m.def("fast_exp", [](const Expr &x) { return Halide::fast_exp(x); });
    m.def("fast_log", [](const Expr &x) { return Halide::fast_log(x); });
    m.def("fast_pow", [](const Expr &x, const Expr &y) { return Halide::fast_pow(x, y); });
    m.def("fast_inverse", [](const Expr &x) { return Halide::fast_inverse(x); });
    m.def("fast_inverse_sqrt", [](const Expr &x) { return Halide::fast_inverse_sqrt(x); });
    // A value an update leaves unchanged: f[x] = (f[x][0] + 1, hl.undef(f.type(1))).
    m.def("undef", [](const Halide::Type &t) { return Halide::undef(t); });
    m.def("print", [](const py::args &args) { return Halide::print(print_args(args, 0)); });
    m.def("print_when", [](const py::object &condition, const py::args &args) {
        return Halide::print_when(arg(condition, "print_when"), print_args(args, 0));
    });

#define HALIDE_PY_UNARY(name)                                                                                          \
    m.def(                                                                                                             \
        #name, [](const py::object &x) { return Halide::name(arg(x, #name)); }, py::arg("x"));
    HALIDE_PY_UNARY(abs)
    HALIDE_PY_UNARY(sin)
    HALIDE_PY_UNARY(asin)
    HALIDE_PY_UNARY(cos)
    HALIDE_PY_UNARY(acos)
    HALIDE_PY_UNARY(tan)
    HALIDE_PY_UNARY(atan)
    HALIDE_PY_UNARY(sinh)
    HALIDE_PY_UNARY(asinh)
    HALIDE_PY_UNARY(cosh)
    HALIDE_PY_UNARY(acosh)
    HALIDE_PY_UNARY(tanh)
    HALIDE_PY_UNARY(atanh)
    HALIDE_PY_UNARY(sqrt)
    HALIDE_PY_UNARY(exp)
    HALIDE_PY_UNARY(log)
    HALIDE_PY_UNARY(floor)
    HALIDE_PY_UNARY(ceil)
    HALIDE_PY_UNARY(round)
    HALIDE_PY_UNARY(trunc)
    HALIDE_PY_UNARY(fract)
    HALIDE_PY_UNARY(is_nan)
    HALIDE_PY_UNARY(is_inf)
    HALIDE_PY_UNARY(is_finite)
    HALIDE_PY_UNARY(likely)
    HALIDE_PY_UNARY(likely_if_innermost)
#undef HALIDE_PY_UNARY
    // Concise casts: hl.u8(x) is hl.cast(hl.UInt(8), x); the _sat forms clamp.
#define HALIDE_PY_UNARY(name)                                                                                          \
    m.def(                                                                                                             \
        #name, [](const py::object &x) { return Halide::ConciseCasts::name(arg(x, #name)); }, py::arg("x"));
    // A Python float given to a float cast is that cast's constant, made at
    // full double precision first (upstream: hl.f64(0.1) is the double 0.1,
    // and no float32 precision warning).
#define HALIDE_PY_FLOAT_CAST(name)                                                                                     \
    m.def(                                                                                                             \
        #name,                                                                                                         \
        [](const py::object &x) {                                                                                      \
            if (PyFloat_Check(x.ptr())) {                                                                              \
                return Halide::ConciseCasts::name(Expr(PyFloat_AsDouble(x.ptr())));                                    \
            }                                                                                                          \
            return Halide::ConciseCasts::name(arg(x, #name));                                                          \
        },                                                                                                             \
        py::arg("x"));
    HALIDE_PY_FLOAT_CAST(f64)
    HALIDE_PY_FLOAT_CAST(f32)
    HALIDE_PY_FLOAT_CAST(f16)
#undef HALIDE_PY_FLOAT_CAST
    HALIDE_PY_UNARY(i64)
    HALIDE_PY_UNARY(i32)
    HALIDE_PY_UNARY(i16)
    HALIDE_PY_UNARY(i8)
    HALIDE_PY_UNARY(u64)
    HALIDE_PY_UNARY(u32)
    HALIDE_PY_UNARY(u16)
    HALIDE_PY_UNARY(u8)
    HALIDE_PY_UNARY(i64_sat)
    HALIDE_PY_UNARY(i32_sat)
    HALIDE_PY_UNARY(i16_sat)
    HALIDE_PY_UNARY(i8_sat)
    HALIDE_PY_UNARY(u64_sat)
    HALIDE_PY_UNARY(u32_sat)
    HALIDE_PY_UNARY(u16_sat)
    HALIDE_PY_UNARY(u8_sat)
#undef HALIDE_PY_UNARY
}

} // namespace halide_py
