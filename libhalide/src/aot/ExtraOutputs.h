// The small text outputs of Pipeline::compile_to and the generator driver
// besides headers and objects: the function-info header, the RunGen
// registration source and the schedule header.
#ifndef HALIDE_INTERNAL_AOT_EXTRA_OUTPUTS_H
#define HALIDE_INTERNAL_AOT_EXTRA_OUTPUTS_H

#include <string>
#include <vector>

#include "Halide/LoweredFunc.h"
#include "Halide/Pipeline.h"

namespace Halide {
namespace Internal {

// A C++17 header with, per function, `constexpr std::array<HalideFunctionInfo::ArgumentInfo, N>
// NAME_argument_info()`: the arguments' names, kinds, dimensions and types at compile time.
// `path` names the include guard.
std::string function_info_header(const std::vector<LoweredFunc> &fs, const std::string &path);

// A C++ source that registers the function `name` (declared as its header
// declares it: in C, or with C++ names in `namespaces` for
// c_plus_plus_name_mangling) with halide_register_argv_and_metadata when it
// is loaded, as upstream's emit kind `registration` does for RunGen.
std::string registration_source(const std::string &name, const std::vector<std::string> &namespaces, bool cplusplus);

// The header upstream's autoschedulers fill: apply_schedule_NAME(Pipeline,
// Target), in `namespaces`, whose body is the schedule an autoscheduler
// applied (`results`, its schedule_source: C++ statements over `pipeline`),
// or no directives when none ran.
std::string schedule_header(const std::string &name, const std::string &target_string,
                            const AutoSchedulerResults *results, const std::vector<std::string> &namespaces);

} // namespace Internal
} // namespace Halide

#endif
