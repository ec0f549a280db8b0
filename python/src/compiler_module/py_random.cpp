// hl.random_float, hl.random_int, hl.random_uint (Random.h): deterministic
// pseudo-random values per point, optionally seeded.
#include "Halide/Random.h"
#include "py_compiler.h"

namespace halide_py {

using Halide::Expr;

void define_random(py::module_ &m) {
    m.def("random_float", []() { return Halide::random_float(); });
    m.def(
        "random_float", [](const Expr &seed) { return Halide::random_float(seed); }, py::arg("seed"));
    m.def("random_int", []() { return Halide::random_int(); });
    m.def(
        "random_int", [](const Expr &seed) { return Halide::random_int(seed); }, py::arg("seed"));
    m.def("random_uint", []() { return Halide::random_uint(); });
    m.def(
        "random_uint", [](const Expr &seed) { return Halide::random_uint(seed); }, py::arg("seed"));
}

} // namespace halide_py
