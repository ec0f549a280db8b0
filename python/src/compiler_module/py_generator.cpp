// What Python generators (halide/_generator.py) need from the compiler
// beyond the Pipeline bindings: compilation exactly as the C++ generator
// driver does it (C++ names from `ns::name`, output arguments named after
// the generator's Outputs, multitarget libraries that run the generator once
// per target) and the standalone runtime (`-r`).
#include <pybind11/functional.h>

#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "aot/Compile.h"
#include "py_compiler.h"

namespace halide_py {

namespace {

using Halide::Argument;
using Halide::OutputFileType;
using Halide::Pipeline;
using Halide::Target;
using Halide::Internal::LoweredFunc;

// build(target) runs a fresh generator for `target`: (pipeline, input
// arguments, {output Func name: Output name}).
using Built = std::tuple<Pipeline, std::vector<Argument>, std::map<std::string, std::string>>;
using Build = std::function<Built(const Target &)>;

void compile_generator(const std::map<OutputFileType, std::string> &files, const std::string &function,
                       const std::vector<Target> &targets, const Build &build) {
    if (targets.empty()) {
        throw py::value_error("_compile_generator: no target");
    }
    Halide::Internal::FunctionName fn = Halide::Internal::split_function_name(function, targets.back());
    auto lower = [&](const Target &t, const std::string &name) {
        auto [pipeline, args, output_names] = build(t);
        return Halide::Internal::lower_for_aot(pipeline, args, name, t, output_names);
    };
    if (targets.size() > 1) {
        Halide::Internal::compile_multitarget(files, fn.name, targets, lower, fn.namespaces);
    } else {
        const Target &t = targets.back();
        Halide::Internal::compile_lowered(files, lower(t, fn.name), t, fn.namespaces);
    }
}

} // namespace

void define_generator(py::module_ &m) {
    m.def("_compile_generator", &compile_generator, py::arg("outputs"), py::arg("function_name"), py::arg("targets"),
          py::arg("build"));
    m.def(
        "compile_standalone_runtime",
        [](const std::string &filename, const Target &target) { Halide::compile_standalone_runtime(filename, target); },
        py::arg("filename"), py::arg("target"));
}

} // namespace halide_py
