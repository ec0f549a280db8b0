// C++ names for the entry points of kernels built with the target feature
// c_plus_plus_name_mangling (docs/aot.md): the Itanium C++ ABI names that
// g++ and clang give `int ns::name(halide_buffer_t *, ...)`, NAME_argv and
// NAME_metadata. Code generation names entry points as C symbols; the
// object's symbols are renamed to these afterwards.
#ifndef HALIDE_INTERNAL_MANGLE_H
#define HALIDE_INTERNAL_MANGLE_H

#include <map>
#include <string>
#include <vector>

#include "Halide/LoweredFunc.h"

namespace Halide {
namespace Internal {

// C symbol -> C++ symbol, for f.name, f.name_argv and f.name_metadata.
std::map<std::string, std::string> mangled_entry_points(const LoweredFunc &f,
                                                        const std::vector<std::string> &namespaces);

// A relocatable ELF64 little-endian object with the symbols `renames`
// names given their new names (each must be defined in it).
std::string rename_symbols(const std::string &object, const std::map<std::string, std::string> &renames);

} // namespace Internal
} // namespace Halide

#endif
