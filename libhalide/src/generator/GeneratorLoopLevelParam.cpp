// GeneratorParam<LoopLevel> from and to the command line's words (see
// GeneratorParam.h).
#include "Halide/GeneratorParam.h"

namespace Halide {

void GeneratorParam<LoopLevel>::set_from_string(const std::string &s) {
    if (s == "root") {
        set(LoopLevel::root());
    } else if (s == "inlined") {
        set(LoopLevel::inlined());
    } else {
        user_error << "Unable to parse " << name_ << ": " << s << " (a LoopLevel GeneratorParam is root or inlined)";
    }
}

std::string GeneratorParam<LoopLevel>::to_string() const {
    if (!value_.defined()) {
        return "undefined";
    }
    LoopLevel copy; // a locked copy to read: value_ itself may still be set
    copy.set(value_);
    copy.lock();
    return copy.is_root() ? "root" : copy.is_inlined() ? "inlined" : copy.to_string();
}

} // namespace Halide
