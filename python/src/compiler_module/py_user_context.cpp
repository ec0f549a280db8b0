// hl.user_context_value(): the user context of the call the pipeline runs
// in, as a handle Expr (Extern.h), to pass to a C function (define_extern).
// Under the JIT it is the JITUserContext * that realize() or the Callable
// made for the call.
#include "Halide/Extern.h"
#include "py_compiler.h"

namespace halide_py {

void define_user_context(py::module_ &m) {
    m.def("user_context_value", &Halide::user_context_value);
}

} // namespace halide_py
