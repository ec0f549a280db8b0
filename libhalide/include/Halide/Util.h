// Helpers of upstream's Halide::Internal that programs use.
#ifndef HALIDE_UTIL_H
#define HALIDE_UTIL_H

#include <limits>
#include <string>
#include <type_traits>

namespace Halide {
namespace Internal {

// A name no other object of this process has, `prefix` followed by a number ("t12").
std::string unique_name(char prefix);

// `str` with every occurrence of `find` (not empty) replaced by `replace`, left to right.
std::string replace_all(const std::string &str, const std::string &find, const std::string &replace);

// static_cast<DST>(s) defined for every value: a floating-point value out of
// an integer type's range saturates to it (NaN gives 0); integers wrap.
template <typename DST, typename SRC> DST safe_numeric_cast(SRC s) {
    if constexpr (std::is_floating_point<SRC>::value && std::is_integral<DST>::value) {
        if (s != s) {
            return 0;
        }
        if (s <= (SRC)std::numeric_limits<DST>::lowest()) {
            return std::numeric_limits<DST>::lowest();
        }
        if (s >= (SRC)std::numeric_limits<DST>::max()) {
            return std::numeric_limits<DST>::max();
        }
        return (DST)s;
    } else {
        return (DST)s; // (integers: modulo 2^bits with GCC and Clang)
    }
}

} // namespace Internal
} // namespace Halide

#endif
