// Where the compiler's text goes from Python, as upstream's module sends
// it: hl.print()/print_when() output, trace lines and compile-time warnings
// are written to sys.stdout (so contextlib.redirect_stdout, pytest's capsys
// and notebooks see them), not to the process's C stdout/stderr.
//
// Pipelines run with the GIL released (PipelineRun), so their worker
// threads can take it to write. Text printed on a thread that cannot take
// the GIL safely (a pipeline run by C++ while Python holds the GIL
// elsewhere) goes to C stdout, as without this module.
#include <atomic>
#include <cstdio>

#include "HalideRuntime.h"
#include "py_compiler.h"

namespace halide_py {

namespace {

// How many pipelines run now with the GIL released.
std::atomic<int> runs_without_gil{0};

void write_c_stdout(const char *text) {
    std::fputs(text, stdout);
    std::fflush(stdout);
}

// Writes with the GIL held; false when Python could not take the text.
bool write_sys_stdout(const char *text) {
    try {
        py::object out = py::module_::import("sys").attr("stdout");
        if (out.is_none()) {
            return false;
        }
        out.attr("write")(py::str(text));
        return true;
    } catch (py::error_already_set &) {
        return false; // a closed or broken sys.stdout: the text goes to C stdout
    }
}

void write_text(const char *text) {
    if (!Py_IsInitialized()) {
        write_c_stdout(text);
        return;
    }
    if (PyGILState_Check() || runs_without_gil.load() > 0) {
        py::gil_scoped_acquire gil;
        if (write_sys_stdout(text)) {
            return;
        }
    }
    write_c_stdout(text);
}

void print_handler(void *, const char *text) {
    write_text(text);
}

// Warnings to sys.stdout; errors stay exceptions (every one of the
// compiler's is a halide.HalideError in Python).
class Reporter : public Halide::CompileTimeErrorReporter {
public:
    void warning(const char *msg) override { write_text(msg); }
    [[noreturn]] void error(const char *msg) override { throw Halide::CompileError(msg); }
};

} // namespace

PipelineRun::Counted::Counted() {
    runs_without_gil++;
}

PipelineRun::Counted::~Counted() {
    runs_without_gil--;
}

void define_output(py::module_ &) {
    static Reporter reporter;
    Halide::set_custom_compile_time_error_reporter(&reporter);
    halide_set_custom_print(print_handler);
}

} // namespace halide_py
