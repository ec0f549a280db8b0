// Linking inside the compiler (LLVM's lld as a library), so that ahead-of-
// time compilation needs no C compiler or linker on the machine, and the
// runtime that kernels embed (the runtime library, built with libhalide and
// stored in it, its symbols weak as in upstream's kernels).
#ifndef HALIDE_INTERNAL_LINKER_H
#define HALIDE_INTERNAL_LINKER_H

#include <string>
#include <utility>
#include <vector>

namespace Halide {
namespace Internal {

// The embedded runtime's archive members (name, object file bytes), built
// for the machine libhalide runs on.
const std::vector<std::pair<std::string, std::string>> &runtime_objects();

// One relocatable object: `objects` linked together (ld -r).
std::string link_relocatable(const std::vector<std::string> &objects);

// A shared library (ELF, x86-64) with soname `soname` from `objects`. It
// records the C and C++ libraries the runtime needs as dependencies.
std::string link_shared_library(const std::vector<std::string> &objects, const std::string &soname);

} // namespace Internal
} // namespace Halide

#endif
