// The Python extension source (.py.cpp) of an ahead-of-time compiled
// pipeline: a CPython module with one function that marshals NumPy (or any
// buffer-protocol) arrays with python/src/marshal/halide_python_marshal.h,
// releases the GIL, calls NAME and turns failures into exceptions.
#ifndef HALIDE_INTERNAL_PYTHON_EXTENSION_H
#define HALIDE_INTERNAL_PYTHON_EXTENSION_H

#include <string>

#include "Halide/LoweredFunc.h"

namespace Halide {
namespace Internal {

std::string python_extension_source(const LoweredFunc &f);

// A filter argument's name as a Python keyword (ABI.md 8): '.' becomes '_',
// other characters that are not letters, digits or '_' become _<code>.
std::string python_keyword(const std::string &name);

} // namespace Internal
} // namespace Halide

#endif
