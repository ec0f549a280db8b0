// String helpers of upstream's Halide::Internal that programs use.
#ifndef HALIDE_UTIL_H
#define HALIDE_UTIL_H

#include <string>

namespace Halide {
namespace Internal {

// A name no other object of this process has, `prefix` followed by a number ("t12").
std::string unique_name(char prefix);

// `str` with every occurrence of `find` (not empty) replaced by `replace`, left to right.
std::string replace_all(const std::string &str, const std::string &find, const std::string &replace);

} // namespace Internal
} // namespace Halide

#endif
