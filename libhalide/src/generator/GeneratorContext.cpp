// See GeneratorContext.h.
#include "Halide/GeneratorContext.h"

namespace Halide {

std::string AutoschedulerParams::to_string() const {
    std::string s;
    if (!name.empty()) {
        s = "autoscheduler=" + name;
    }
    for (const auto &kv : extra) {
        s += (s.empty() ? "" : " ") + std::string("autoscheduler.") + kv.first + "=" + kv.second;
    }
    return s;
}

} // namespace Halide
