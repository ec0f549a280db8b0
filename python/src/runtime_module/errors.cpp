// See errors.h.
#include "errors.h"

#include "HalideRuntime.h"
#include "call_context.h"
#include "halide_python_marshal.h"

namespace py = pybind11;

namespace halide_python {
namespace {

// Messages reported outside any kernel call (e.g. by a setter) land here.
thread_local ErrorLog stray_log;

PyObject *halide_error_type = nullptr;
PyObject *argument_error_type = nullptr;
PyObject *range_error_type = nullptr;

// Kept for the life of the process.
PyObject *error_class(const py::module_ &errors, const char *name) {
    return py::object(errors.attr(name)).release().ptr();
}

} // namespace

extern "C" void halide_python_capture_error(void * /*user_context*/, const char *message) {
    auto *log = static_cast<ErrorLog *>(hlrt_get_call_context());
    if (!log) {
        log = &stray_log;
    }
    std::lock_guard<std::mutex> lock(log->mutex);
    if (!log->text.empty()) {
        log->text += "\n";
    }
    log->text += message;
    while (!log->text.empty() && log->text.back() == '\n') {
        log->text.pop_back();
    }
}

void install_error_capture() {
    halide_set_error_handler(halide_python_capture_error);
}

ScopedErrorLog::ScopedErrorLog(ErrorLog *log) : previous_(hlrt_set_call_context(log)) {}

ScopedErrorLog::~ScopedErrorLog() {
    hlrt_set_call_context(previous_);
}

void bind_error_type() {
    py::module_ errors = py::module_::import("halide.runtime._errors");
    halide_error_type = error_class(errors, "HalideError");
    argument_error_type = error_class(errors, "KernelArgumentError");
    range_error_type = error_class(errors, "ScalarRangeError");
    read_only_buffer_error_slot() = error_class(errors, "ReadOnlyBufferError");
}

void raise_argument_error(const std::string &message) {
    PyErr_SetString(argument_error_type, message.c_str());
    throw py::error_already_set();
}

void raise_range_error(const std::string &message) {
    PyErr_SetString(range_error_type, message.c_str());
    throw py::error_already_set();
}

void raise_halide_error(const std::string &kernel, int code, const std::string &runtime_message) {
    std::string message = "Halide kernel '" + kernel + "' failed with error code " + std::to_string(code);
    if (!runtime_message.empty()) {
        message += ": " + runtime_message;
    }
    py::object error = py::reinterpret_borrow<py::object>(halide_error_type)(message);
    error.attr("code") = code;
    error.attr("kernel") = kernel;
    error.attr("runtime_message") = runtime_message;
    PyErr_SetObject(halide_error_type, error.ptr());
    throw py::error_already_set();
}

} // namespace halide_python
