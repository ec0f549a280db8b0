// The integer helpers of IROperator.h: widening, saturating, halving and
// rounding arithmetic, mul_shift_right, bit counts and bit fields,
// division rounding toward zero, strict_float, unsafe_promise_clamped, and
// fast_sin / fast_cos / erf. As upstream's bindings do, a Python int shift
// amount takes the C++ int overload (a constant of the operand's width),
// so widening_shift_left(u8, 3) is a UInt(16); other Python numbers become
// Exprs as in arithmetic.
#include "py_compiler.h"

namespace halide_py {

using Halide::Expr;

namespace {

Expr arg(const py::object &o, const char *what) {
    return to_expr(o, what);
}

// A Python int (not a bool) that fits a C++ int.
bool is_int_literal(const py::object &o, int *out) {
    return py::isinstance<py::int_>(o) && !py::isinstance<py::bool_>(o) && as_small_int(o, out);
}

template <Expr (*F)(Expr, Expr)> void def_binary(py::module_ &m, const char *name) {
    m.def(
        name, [name](const py::object &a, const py::object &b) { return F(arg(a, name), arg(b, name)); }, py::arg("a"),
        py::arg("b"));
}

// Shifts: an int amount takes the (Expr, int) overload.
template <Expr (*F)(Expr, Expr), Expr (*G)(Expr, int)> void def_shift(py::module_ &m, const char *name) {
    m.def(
        name,
        [name](const py::object &a, const py::object &b) {
            int literal = 0;
            return is_int_literal(b, &literal) ? G(arg(a, name), literal) : F(arg(a, name), arg(b, name));
        },
        py::arg("a"), py::arg("b"));
}

template <Expr (*F)(Expr, Expr, Expr), Expr (*G)(Expr, Expr, int)>
void def_mul_shift(py::module_ &m, const char *name) {
    m.def(
        name,
        [name](const py::object &a, const py::object &b, const py::object &q) {
            int literal = 0;
            return is_int_literal(q, &literal) ? G(arg(a, name), arg(b, name), literal)
                                               : F(arg(a, name), arg(b, name), arg(q, name));
        },
        py::arg("a"), py::arg("b"), py::arg("q"));
}

template <Expr (*F)(Expr)> void def_unary(py::module_ &m, const char *name) {
    m.def(
        name, [name](const py::object &x) { return F(arg(x, name)); }, py::arg("x"));
}

template <Expr (*F)(const Expr &)> void def_unary_ref(py::module_ &m, const char *name) {
    m.def(
        name, [name](const py::object &x) { return F(arg(x, name)); }, py::arg("x"));
}

// None (or an undefined Expr) is no bound.
Expr optional_bound(const py::object &o) {
    return o.is_none() ? Expr() : arg(o, "unsafe_promise_clamped");
}

} // namespace

void define_integer_ops(py::module_ &m) {
    def_binary<Halide::widen_right_add>(m, "widen_right_add");
    def_binary<Halide::widen_right_sub>(m, "widen_right_sub");
    def_binary<Halide::widen_right_mul>(m, "widen_right_mul");
    def_binary<Halide::widening_add>(m, "widening_add");
    def_binary<Halide::widening_sub>(m, "widening_sub");
    def_binary<Halide::widening_mul>(m, "widening_mul");
    def_shift<Halide::widening_shift_left, Halide::widening_shift_left>(m, "widening_shift_left");
    def_shift<Halide::widening_shift_right, Halide::widening_shift_right>(m, "widening_shift_right");
    def_shift<Halide::rounding_shift_left, Halide::rounding_shift_left>(m, "rounding_shift_left");
    def_shift<Halide::rounding_shift_right, Halide::rounding_shift_right>(m, "rounding_shift_right");
    def_binary<Halide::saturating_add>(m, "saturating_add");
    def_binary<Halide::saturating_sub>(m, "saturating_sub");
    def_binary<Halide::halving_add>(m, "halving_add");
    def_binary<Halide::rounding_halving_add>(m, "rounding_halving_add");
    def_binary<Halide::halving_sub>(m, "halving_sub");
    def_mul_shift<Halide::mul_shift_right, Halide::mul_shift_right>(m, "mul_shift_right");
    def_mul_shift<Halide::rounding_mul_shift_right, Halide::rounding_mul_shift_right>(m, "rounding_mul_shift_right");
    def_unary<Halide::popcount>(m, "popcount");
    def_unary<Halide::count_leading_zeros>(m, "count_leading_zeros");
    def_unary<Halide::count_trailing_zeros>(m, "count_trailing_zeros");
    def_binary<Halide::div_round_to_zero>(m, "div_round_to_zero");
    def_binary<Halide::mod_round_to_zero>(m, "mod_round_to_zero");
    def_unary<Halide::strict_float>(m, "strict_float");
    def_unary_ref<Halide::fast_sin>(m, "fast_sin");
    def_unary_ref<Halide::fast_cos>(m, "fast_cos");
    def_unary_ref<Halide::erf>(m, "erf");
    m.def(
        "extract_bits",
        [](const Halide::Type &t, const py::object &e, const py::object &lsb) {
            return Halide::extract_bits(t, arg(e, "extract_bits"), arg(lsb, "extract_bits"));
        },
        py::arg("t"), py::arg("e"), py::arg("lsb"));
    m.def(
        "concat_bits",
        [](const std::vector<py::object> &parts) {
            std::vector<Expr> e;
            for (const auto &o : parts) {
                e.push_back(arg(o, "concat_bits"));
            }
            return Halide::concat_bits(e);
        },
        py::arg("e"));
    m.def(
        "unsafe_promise_clamped",
        [](const py::object &value, const py::object &min, const py::object &max) {
            return Halide::unsafe_promise_clamped(arg(value, "unsafe_promise_clamped"), optional_bound(min),
                                                  optional_bound(max));
        },
        py::arg("value"), py::arg("min"), py::arg("max"));
}

} // namespace halide_py
