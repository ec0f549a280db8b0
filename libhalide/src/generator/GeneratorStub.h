// The C++ stub of a generator (the generator command line's emit kind
// cpp_stub, NAME.stub.h): a header that lets another generator build this
// one inside its own generate(), as upstream's stubs (see Generator.h).
#ifndef HALIDE_GENERATOR_GENERATOR_STUB_H
#define HALIDE_GENERATOR_GENERATOR_STUB_H

#include <string>

#include "Halide/Generator.h"

namespace Halide {
namespace Internal {

// The stub header of `g`, a fresh instance (its GeneratorParams at their
// declared values become the stub's defaults; configure() is run to list
// the Inputs and Outputs it adds). The class is g.stub_name(), which may
// be namespace-qualified; throws CompileError if a GeneratorParam's type
// can't be passed by a stub.
std::string generator_stub_source(GeneratorBase &g);

} // namespace Internal
} // namespace Halide

#endif
