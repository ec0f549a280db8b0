// _TestExporter: a buffer-protocol object with any format, item size, shape
// and strides, so tests can feed the marshaller descriptions that NumPy and
// memoryview refuse to make. Not part of the public API.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <vector>

namespace py = pybind11;

namespace halide_python {
namespace {

struct TestExporter {
    std::vector<uint8_t> storage;
    py::ssize_t offset;
    std::string format;
    py::ssize_t itemsize;
    std::vector<py::ssize_t> shape, strides;
    bool readonly;
};

} // namespace

void bind_test_exporter(py::module_ &m) {
    py::class_<TestExporter>(m, "_TestExporter", py::buffer_protocol())
        .def(py::init([](py::ssize_t nbytes, py::ssize_t offset, std::string format, py::ssize_t itemsize,
                         std::vector<py::ssize_t> shape, std::vector<py::ssize_t> strides, bool readonly) {
                 if (shape.size() != strides.size() || offset < 0 || offset > nbytes) {
                     throw py::value_error("inconsistent _TestExporter description");
                 }
                 return TestExporter{std::vector<uint8_t>((size_t)nbytes),
                                     offset,
                                     std::move(format),
                                     itemsize,
                                     std::move(shape),
                                     std::move(strides),
                                     readonly};
             }),
             py::arg("nbytes"), py::arg("offset"), py::arg("format"), py::arg("itemsize"), py::arg("shape"),
             py::arg("strides"), py::arg("readonly") = false)
        .def("address", [](TestExporter &e) { return (uintptr_t)(e.storage.data() + e.offset); })
        .def_buffer([](TestExporter &e) {
            return py::buffer_info(e.storage.data() + e.offset, e.itemsize, e.format, (py::ssize_t)e.shape.size(),
                                   e.shape, e.strides, e.readonly);
        });
}

} // namespace halide_python
