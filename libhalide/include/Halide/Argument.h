// Halide::Argument: one argument of an ahead-of-time compiled pipeline, in
// the order the caller lists them (ABI.md section 4). Param<T> and
// ImageParam convert to it, so `f.compile_to_file("f", {input, scale})`
// reads as in upstream Halide.
#ifndef HALIDE_ARGUMENT_H
#define HALIDE_ARGUMENT_H

#include <string>
#include <vector>

#include "Halide/Buffer.h"
#include "Halide/IR.h"
#include "Halide/Type.h"

namespace Halide {

// A box: per dimension, a min and an extent (as in set_estimates).
using Range = Internal::Range;
using Region = std::vector<Range>;

// What is known of an argument's values, for tools such as autoschedulers
// and for ahead-of-time metadata: a scalar's default (its current value in
// infer_arguments), range and estimate, a buffer's expected region per
// dimension. Undefined Exprs and an empty region mean unknown.
struct ArgumentEstimates {
    Expr scalar_def, scalar_min, scalar_max, scalar_estimate;
    Region buffer_estimates;
};

struct Argument {
    // Values as in halide_argument_kind_t (ABI.md section 3).
    enum Kind { InputScalar = 0, InputBuffer = 1, OutputBuffer = 2 };

    std::string name;
    Kind kind = InputScalar;
    int dimensions = 0;
    Type type;
    ArgumentEstimates argument_estimates;

    Argument() = default;
    Argument(const std::string &name, Kind kind, const Type &type, int dimensions,
             const ArgumentEstimates &estimates = ArgumentEstimates())
        : name(name), kind(kind), dimensions(dimensions), type(type), argument_estimates(estimates) {}
    // A Buffer the pipeline reads, as an input buffer argument of its name
    // (compile_to_file("f", {buffer}) makes it a parameter, not a constant).
    template <typename T, int Dims>
    Argument(const Buffer<T, Dims> &im)
        : name(im.name()), kind(InputBuffer), dimensions(im.dimensions()), type(im.type()) {}

    bool is_buffer() const { return kind != InputScalar; }
    bool is_scalar() const { return kind == InputScalar; }
    bool is_input() const { return kind != OutputBuffer; }
    bool is_output() const { return kind == OutputBuffer; }
};

// What Pipeline::compile_to can write (upstream's emit names in comments).
enum class OutputFileType {
    assembly,             // .s
    bitcode,              // .bc
    c_header,             // .h
    llvm_assembly,        // .ll
    object,               // .o
    static_library,       // .a
    stmt,                 // .stmt, the lowered loop nest
    python_extension,     // .py.cpp
    shared_library,       // .so, linked by the compiler itself (not in upstream)
    c_source,             // .halide_generated.cpp, the C++ backend
    compiler_log,         // .halide_compiler_log (needs a compiler logger, as upstream)
    conceptual_stmt,      // .conceptual.stmt (here the same as stmt)
    conceptual_stmt_html, // .conceptual.stmt.html
    cpp_stub,             // .stub.h (generators only)
    device_code,          // GPU code: nothing to write for a CPU target
    featurization,        // .featurization (autoscheduler data: empty here)
    function_info_header, // .function_info.h
    hlpipe,               // .hlpipe (serialization: not supported)
    pytorch_wrapper,      // .pytorch.h (not supported)
    registration,         // .registration.cpp
    schedule,             // .schedule.h
    stmt_html,            // .stmt.html
};

// How compile_to_lowered_stmt / compile_to_conceptual_stmt write the
// statement: plain text, or an HTML page of it. Unscoped, as upstream's:
// Halide::Text and StmtOutputFormat::Text both name the first.
enum StmtOutputFormat { Text, HTML };

} // namespace Halide

#endif
