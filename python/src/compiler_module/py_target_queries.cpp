// hl.target_arch_is, hl.target_bits, hl.target_os_is, hl.target_has_feature,
// hl.target_natural_vector_size: Exprs that compiling replaces with the
// answer for the compile target (docs/language.md, IROperator.h).
#include "Halide/TargetQueries.h"
#include "py_compiler.h"

namespace halide_py {

using Halide::Expr;
using Halide::Target;
using Halide::Type;

void define_target_queries(py::module_ &m) {
    m.def("target_arch_is", [](Target::Arch arch) { return Halide::target_arch_is(arch); });
    m.def("target_bits", []() { return Halide::target_bits(); });
    m.def("target_os_is", [](Target::OS os) { return Halide::target_os_is(os); });
    m.def("target_has_feature", [](Target::Feature feature) { return Halide::target_has_feature(feature); });
    m.def("target_natural_vector_size", [](const Type &t) { return Halide::target_natural_vector_size(t); });
}

} // namespace halide_py
