// halide.runtime._runtime: the extension behind halide.runtime. It links
// only the Halide runtime (never the compiler or LLVM).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "HalideRuntime.h"
#include "buffer.h"
#include "errors.h"
#include "host_cpu.h"
#include "kernel.h"

namespace halide_python {
void bind_test_exporter(pybind11::module_ &m);
}

namespace py = pybind11;

PYBIND11_MODULE(_runtime, m) {
    m.doc() = "Native core of halide.runtime: loads and calls Halide AOT kernels.";
    halide_python::bind_error_type();
    halide_python::install_error_capture();
    halide_python::bind_kernel(m);
    halide_python::bind_buffer(m);
    halide_python::bind_test_exporter(m);

    m.attr("HALIDE_VERSION") = HALIDE_VERSION_STRING;
    m.attr("METADATA_VERSION") = halide_filter_metadata_version;
    m.attr("BUFFER_CAPSULE_NAME") = HALIDE_BUFFER_CAPSULE_NAME;
    m.def(
        "set_num_threads",
        [](int n) {
            if (n < 0) {
                throw py::value_error("set_num_threads: n must be >= 0 (0 restores the default), got " +
                                      std::to_string(n));
            }
            return halide_set_num_threads(n);
        },
        py::arg("n"), "Sets the size of the process-wide thread pool (0 = default); returns the previous size.");
    m.def("get_num_threads", &halide_get_num_threads, "Size of the process-wide thread pool.");
    m.def("host_cpu_features", &halide_python::host_cpu_features,
          "Target feature names (as in target strings) the running CPU supports.");
}
