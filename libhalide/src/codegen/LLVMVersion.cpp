// Internal::get_llvm_version (Target.h): the LLVM this library was built with.
#include <llvm/Config/llvm-config.h>

#include "Halide/Target.h"

namespace Halide {
namespace Internal {

int get_llvm_version() {
    return LLVM_VERSION_MAJOR * 10 + LLVM_VERSION_MINOR;
}

} // namespace Internal
} // namespace Halide
