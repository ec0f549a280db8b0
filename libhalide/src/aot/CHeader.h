// The C header of an ahead-of-time compiled pipeline: prototypes of NAME,
// NAME_argv and NAME_metadata, valid C and C++ (ABI.md section 4).
#ifndef HALIDE_INTERNAL_C_HEADER_H
#define HALIDE_INTERNAL_C_HEADER_H

#include <string>
#include <vector>

#include "Halide/LoweredFunc.h"

namespace Halide {
namespace Internal {

std::string c_header(const LoweredFunc &f, const std::string &target_string);
// One header for several functions (a Module's), guarded by `name`.
std::string c_header(const std::vector<LoweredFunc> &fs, const std::string &name, const std::string &target_string);
// With C++ names (target feature c_plus_plus_name_mangling): a C++-only
// header declaring the entry points inside `namespaces`.
std::string cplusplus_header(const LoweredFunc &f, const std::string &target_string,
                             const std::vector<std::string> &namespaces);
std::string cplusplus_header(const std::vector<LoweredFunc> &fs, const std::string &name,
                             const std::string &target_string, const std::vector<std::string> &namespaces);

// `name` as a C identifier: '.' and other punctuation become '_'.
std::string c_identifier(const std::string &name);

} // namespace Internal
} // namespace Halide

#endif
