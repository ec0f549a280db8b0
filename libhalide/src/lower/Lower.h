// Lowering: a pipeline of Funcs to one statement over flat buffers. The
// passes, in order, are listed in Lower.cpp.
#ifndef HALIDE_INTERNAL_LOWER_H
#define HALIDE_INTERNAL_LOWER_H

#include <string>
#include <vector>

#include "Halide/LoweredFunc.h"
#include "Halide/Target.h"
#include "lower/Function.h"

namespace Halide {
namespace Internal {

class IRMutator;

// Where each argument of the lowered function gets its value at run time.
struct ArgumentSource {
    ParamPtr param;        // scalar arguments
    InputBufferPtr buffer; // input buffers
    int output_index = -1; // output buffers: which output
};

struct LoweredPipeline {
    LoweredFunc func;
    std::vector<ArgumentSource> sources; // parallel to func.args
};

// Choices the target makes about lowering.
struct LowerOptions {
    bool no_asserts = false;      // target feature no_asserts: drop every check
    bool no_bounds_query = false; // target feature no_bounds_query: NULL hosts are not queries
    bool debug = false;           // target feature debug: report entry and exit through halide_print
    // The target compiled for (the JIT's by default): named in errors such as
    // a GPU schedule's, which no backend here can compile.
    Target target = get_jit_target_from_environment();
    // Pipeline::add_custom_lowering_pass(): run last, in order.
    std::vector<IRMutator *> custom_passes;
    // Pipeline::add_requirement(): conditions checked first, with their messages' parts.
    std::vector<std::pair<Expr, std::vector<Expr>>> requirements;
    // If set, receives the loop nest (Pipeline::print_loop_nest) once bounds are simplified.
    std::string *loop_nest = nullptr;
    // Pipeline::trace_pipeline(): begin/end pipeline trace events.
    bool trace_pipeline = false;
};

LoweredPipeline lower(const std::vector<FunctionPtr> &outputs, const std::string &name,
                      const LowerOptions &options = LowerOptions());

} // namespace Internal
} // namespace Halide

#endif
