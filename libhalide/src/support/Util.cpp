// See Util.h.
#include "Halide/Util.h"

#include "lower/Function.h"

namespace Halide {
namespace Internal {

std::string unique_name(char prefix) {
    return fresh_name(prefix);
}

std::string replace_all(const std::string &str, const std::string &find, const std::string &replace) {
    if (find.empty()) {
        return str;
    }
    std::string result;
    size_t pos = 0;
    for (size_t hit = str.find(find); hit != std::string::npos; hit = str.find(find, pos)) {
        result += str.substr(pos, hit - pos) + replace;
        pos = hit + find.size();
    }
    return result + str.substr(pos);
}

} // namespace Internal
} // namespace Halide
