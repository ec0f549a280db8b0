// hl.HalideError: what every error the compiler reports becomes in Python
// (upstream's class name). The message is the compiler's.
#include "py_compiler.h"

namespace halide_py {

namespace {

// Owned for the life of the process: an exception class outlives modules.
PyObject *halide_error_type = nullptr;

} // namespace

void define_error(py::module_ &m) {
    halide_error_type = PyErr_NewExceptionWithDoc("halide.HalideError",
                                                  "An error reported by the Halide compiler or by a pipeline it ran.",
                                                  PyExc_Exception, nullptr);
    if (!halide_error_type) {
        throw py::error_already_set();
    }
    m.attr("HalideError") = py::reinterpret_borrow<py::object>(halide_error_type);
    py::register_exception_translator([](std::exception_ptr p) {
        try {
            if (p) {
                std::rethrow_exception(p);
            }
        } catch (const Halide::Error &e) {
            PyErr_SetString(halide_error_type, e.what());
        }
    });
}

} // namespace halide_py
