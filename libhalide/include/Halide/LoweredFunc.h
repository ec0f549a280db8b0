// The hand-off from lowering to code generation: one pipeline, lowered to a
// single statement over flat buffers, and its arguments in ABI order.
// Public, as in upstream's Module.h: Module::functions() holds these.
#ifndef HALIDE_LOWERED_FUNC_H
#define HALIDE_LOWERED_FUNC_H

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "Halide/Argument.h"
#include "Halide/ExternFuncArgument.h"
#include "Halide/IR.h"
#include "HalideRuntime.h"

namespace Halide {

// Which entry points a compiled function gets. Ours always has NAME,
// NAME_argv and NAME_metadata; the linkage is recorded, as upstream's
// default (ExternalPlusMetadata) describes.
enum class LinkageType {
    External,             // NAME only
    ExternalPlusMetadata, // NAME, NAME_argv and NAME_metadata
    ExternalPlusArgv,     // NAME and NAME_argv
    Internal,             // not visible outside the module
};

namespace Internal {

// One argument of the generated entry point (ABI.md section 4).
//
// Inside `body`, a scalar argument is the Variable `name`; a buffer argument
// is the Variable `name.buffer` (Handle, the halide_buffer_t*), and lowering
// binds `name.host`, `name.min.<d>`, `name.extent.<d>`, `name.stride.<d>`
// from it with the buffer_get_* intrinsics.
struct LoweredArgument {
    enum Kind { Scalar, InputBuffer, OutputBuffer };
    LoweredArgument() = default;
    LoweredArgument(const std::string &name, Kind kind, const Type &type, int dimensions)
        : name(name), kind(kind), type(type), dimensions(dimensions) {}
    std::string name;
    Kind kind = Scalar;
    Type type;
    int dimensions = 0;
    // Constant default/range/estimate of a scalar for the metadata, if known.
    Expr scalar_def, scalar_min, scalar_max, scalar_estimate;
    // Buffers: the expected region per dimension (set_estimates), if known.
    std::vector<Range> buffer_estimates;
    bool is_buffer() const { return kind != Scalar; }
};

// A Buffer the pipeline reads that is not an argument (AOT only): its
// shape and contents as they are at compile time become constants of the
// object, bound to the Variable `name.buffer` as an argument's would be.
struct EmbeddedBuffer {
    std::string name;
    const halide_buffer_t *buffer = nullptr;
    std::shared_ptr<void> keep_alive; // owner of `buffer`, while compiling
};

struct LoweredFunc {
    std::string name;
    std::vector<LoweredArgument> args;
    Stmt body;
    LinkageType linkage = LinkageType::ExternalPlusMetadata;
    NameMangling name_mangling = NameMangling::Default;
    std::vector<EmbeddedBuffer> embedded;

    LoweredFunc() = default;
    LoweredFunc(const std::string &name, const std::vector<LoweredArgument> &args, Stmt body, LinkageType linkage,
                NameMangling mangling = NameMangling::Default)
        : name(name), args(args), body(std::move(body)), linkage(linkage), name_mangling(mangling) {}
    // From the public arguments, as upstream's: each keeps its name, kind,
    // type, dimensions and estimates.
    LoweredFunc(const std::string &name, const std::vector<Argument> &args, Stmt body, LinkageType linkage,
                NameMangling mangling = NameMangling::Default)
        : name(name), body(std::move(body)), linkage(linkage), name_mangling(mangling) {
        for (const Argument &a : args) {
            const LoweredArgument::Kind kind = a.kind == Argument::InputScalar   ? LoweredArgument::Scalar
                                               : a.kind == Argument::InputBuffer ? LoweredArgument::InputBuffer
                                                                                 : LoweredArgument::OutputBuffer;
            LoweredArgument la(a.name, kind, a.type, a.dimensions);
            const ArgumentEstimates &e = a.argument_estimates;
            la.scalar_def = e.scalar_def;
            la.scalar_min = e.scalar_min;
            la.scalar_max = e.scalar_max;
            la.scalar_estimate = e.scalar_estimate;
            la.buffer_estimates = e.buffer_estimates;
            this->args.push_back(std::move(la));
        }
    }
};

} // namespace Internal
} // namespace Halide

#endif
