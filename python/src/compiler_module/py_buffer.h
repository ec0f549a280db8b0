// Shared by the files that bind halide.Buffer: py_buffer.cpp (construction,
// shape, elements, dirty bits) and py_buffer_interop.cpp (buffer protocol,
// numpy_view, capsules, DLPack, PNG).
#ifndef HALIDE_PY_BUFFER_H
#define HALIDE_PY_BUFFER_H

#include "py_compiler.h"

namespace halide_py {

using Buffer = Halide::Buffer<>;
using RuntimeBuffer = Halide::Runtime::Buffer<>;

// Raises ValueError for a Buffer() with no shape or memory.
void check_defined(const Buffer &b);

// Adds the buffer protocol, numpy_view, capsules and DLPack to the class.
void define_buffer_interop(py::class_<Buffer> &cls);

// A Buffer over another halide_buffer_t-bearing object: a halide.runtime
// Buffer (or anything offering _get_halide_buffer_t_capsule()) or a
// buffer-protocol object. Every C++ copy of the result (a Func reading it,
// a Param set to it) keeps `source` alive, exported.
Buffer buffer_from_object(const py::handle &source, const std::string &name, bool reverse_axes);

} // namespace halide_py

#endif
