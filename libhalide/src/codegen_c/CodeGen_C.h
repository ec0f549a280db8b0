// The C++ source backend (OutputFileType::c_source, compile_to_c): a
// lowered pipeline as one C++17 file defining the same entry points as the
// object code, `int NAME(args...)`, `int NAME_argv(void **args)` and
// `const halide_filter_metadata_t *NAME_metadata()` (ABI.md 3 and 4). The
// file includes HalideRuntime.h and calls the runtime (halide_malloc,
// halide_do_par_for, halide_error_*, ...), which the user links in: a
// standalone runtime (compile_standalone_runtime) or the runtime library.
#ifndef HALIDE_INTERNAL_CODEGEN_C_H
#define HALIDE_INTERNAL_CODEGEN_C_H

#include <string>
#include <vector>

#include "Halide/LoweredFunc.h"
#include "Halide/Target.h"

namespace Halide {
namespace Internal {

// The source of `fs` for target t. With the target feature
// c_plus_plus_name_mangling the entry points are C++ functions inside
// `namespaces`; otherwise extern "C". Throws CompileError for float16 and
// bfloat16 values, which have no C++17 type.
std::string codegen_c_source(const std::vector<LoweredFunc> &fs, const Target &t,
                             const std::vector<std::string> &namespaces = {});

} // namespace Internal
} // namespace Halide

#endif
