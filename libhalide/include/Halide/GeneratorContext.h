// What a Generator is created with, as upstream: the Target it compiles for
// and the autoscheduler to use (AutoschedulerParams: a name and its
// options). Ahead-of-time compilation applies the named autoscheduler
// (Pipeline::apply_autoscheduler); a Callable is compiled without it, as upstream.
#ifndef HALIDE_GENERATOR_CONTEXT_H
#define HALIDE_GENERATOR_CONTEXT_H

#include <map>
#include <memory>
#include <string>

#include "Halide/Target.h"

namespace Halide {

struct AutoschedulerParams {
    std::string name;
    std::map<std::string, std::string> extra;

    AutoschedulerParams() = default;
    AutoschedulerParams(const std::string &name) : name(name) {} // NOLINT: implicit, as upstream
    AutoschedulerParams(const std::string &name, const std::map<std::string, std::string> &extra)
        : name(name), extra(extra) {}

    // "autoscheduler=NAME autoscheduler.KEY=VALUE ...", the generator command line's form.
    std::string to_string() const;
};

// The GeneratorParams of create_callable_from_generator, by name.
using GeneratorParamsMap = std::map<std::string, std::string>;

class GeneratorContext {
public:
    GeneratorContext() = default;
    explicit GeneratorContext(const Target &t) : target_(t) {}
    GeneratorContext(const Target &t, const AutoschedulerParams &autoscheduler_params)
        : target_(t), autoscheduler_params_(autoscheduler_params) {}

    const Target &target() const { return target_; }
    const AutoschedulerParams &autoscheduler_params() const { return autoscheduler_params_; }
    // The same context for another Target.
    GeneratorContext with_target(const Target &t) const { return GeneratorContext(t, autoscheduler_params_); }

    // A new instance of the Generator class T, made with this context.
    template <typename T> std::unique_ptr<T> create() const { return T::create(*this); }

private:
    Target target_;
    AutoschedulerParams autoscheduler_params_;
};

} // namespace Halide

#endif
