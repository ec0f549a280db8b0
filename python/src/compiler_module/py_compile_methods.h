// The methods Func and Pipeline share in Python, as upstream spells them:
// realize (sizes, a Buffer or a list of Buffers; target=), compile_jit,
// compile_to_callable, infer_input_bounds, infer_arguments, print_loop_nest
// and every compile_to_* of the C++ API.
#ifndef HALIDE_PY_COMPILE_METHODS_H
#define HALIDE_PY_COMPILE_METHODS_H

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "py_compiler.h"

namespace halide_py {

using Halide::StmtOutputFormat;

// Upstream's default Target() means "from the environment": the JIT target
// for running, HL_TARGET's for ahead-of-time files.
inline Halide::Target aot_target(const Halide::Target &t) {
    return t.has_unknowns() ? Halide::get_target_from_environment() : t;
}
// The JIT makes code for this machine only (as the C++ side checks).
void check_jit_target(const Halide::Target &t, const char *what);

// realize's result: one Buffer, or a tuple of them (as upstream).
py::object realization_to_python(const Halide::Realization &r);

template <typename T> void add_compile_methods(py::class_<T> &cls) {
    using Halide::Argument;
    using Halide::Target;
    using Buf = Halide::Buffer<>;
    using Args = std::vector<Argument>;
    cls.def(
           "realize",
           [](T &self, const Buf &dst, const Target &target) {
               check_jit_target(target, "realize");
               PipelineRun run;
               self.realize(Halide::Realization({dst}), target);
           },
           py::arg("dst"), target_arg())
        .def(
            "realize",
            [](T &self, const std::vector<int32_t> &sizes, const Target &target) {
                check_jit_target(target, "realize");
                std::optional<Halide::Realization> r;
                {
                    PipelineRun run;
                    r.emplace(self.realize(sizes, target));
                }
                return realization_to_python(*r);
            },
            py::arg("sizes") = std::vector<int32_t>{}, target_arg())
        .def(
            "realize",
            [](T &self, const std::vector<Buf> &dst, const Target &target) {
                check_jit_target(target, "realize");
                PipelineRun run;
                self.realize(Halide::Realization(dst), target);
            },
            py::arg("dst"), target_arg())
        .def(
            "compile_jit",
            [](T &self, const Target &target) {
                check_jit_target(target, "compile_jit");
                self.compile_jit(target);
            },
            target_arg())
        .def(
            "compile_to_callable",
            [](T &self, const Args &arguments, const Target &target) {
                return self.compile_to_callable(arguments, target);
            },
            py::arg("arguments"), target_arg())
        .def(
            "infer_input_bounds",
            [](T &self, const py::object &dst, const Target &target) {
                if (py::isinstance<Buf>(dst)) {
                    self.infer_input_bounds(Halide::Realization({dst.cast<Buf>()}), target);
                } else if (py::isinstance<py::sequence>(dst) && py::len(dst) > 0 &&
                           py::isinstance<Buf>(dst[py::int_(0)])) {
                    self.infer_input_bounds(Halide::Realization(dst.cast<std::vector<Buf>>()), target);
                } else {
                    std::vector<int32_t> sizes;
                    try {
                        sizes = dst.cast<std::vector<int32_t>>();
                    } catch (const py::cast_error &) {
                        throw py::type_error("infer_input_bounds() takes a list of sizes, a halide.Buffer or a list "
                                             "of halide.Buffer, got " +
                                             std::string(py::str(py::type::handle_of(dst).attr("__name__"))));
                    }
                    self.infer_input_bounds(sizes, target);
                }
            },
            py::arg("dst"), target_arg())
        .def("infer_arguments", [](T &self) { return self.infer_arguments(); })
        .def(
            "compile_to",
            [](T &self, const std::map<Halide::OutputFileType, std::string> &outputs, const Args &arguments,
               const std::string &fn_name,
               const Target &target) { self.compile_to(outputs, arguments, fn_name, aot_target(target)); },
            py::arg("outputs"), py::arg("arguments"), py::arg("fn_name"), target_arg())
        .def(
            "compile_to_header",
            [](T &self, const std::string &filename, const Args &arguments, const std::string &fn_name,
               const Target &target) { self.compile_to_header(filename, arguments, fn_name, aot_target(target)); },
            py::arg("filename"), py::arg("arguments"), py::arg("fn_name") = "", target_arg())
        .def(
            "compile_to_lowered_stmt",
            [](T &self, const std::string &filename, const Args &arguments, StmtOutputFormat fmt,
               const Target &target) { self.compile_to_lowered_stmt(filename, arguments, fmt, aot_target(target)); },
            py::arg("filename"), py::arg("arguments"),
            py::arg_v("fmt", StmtOutputFormat::Text, "StmtOutputFormat.Text"), target_arg())
        .def(
            "compile_to_conceptual_stmt",
            [](T &self, const std::string &filename, const Args &arguments, StmtOutputFormat fmt,
               const Target &target) { self.compile_to_conceptual_stmt(filename, arguments, fmt, aot_target(target)); },
            py::arg("filename"), py::arg("arguments"),
            py::arg_v("fmt", StmtOutputFormat::Text, "StmtOutputFormat.Text"), target_arg())
        .def(
            "compile_to_multitarget_object_files",
            [](T &self, const std::string &prefix, const Args &arguments, const std::vector<Target> &targets,
               const std::vector<std::string> &suffixes) {
                self.compile_to_multitarget_object_files(prefix, arguments, targets, suffixes);
            },
            py::arg("filename_prefix"), py::arg("arguments"), py::arg("targets"), py::arg("suffixes"))
        .def("print_loop_nest",
             [](T &self) {
                 // Written by C++ to stderr: Python's own buffered output first.
                 py::module_::import("sys").attr("stdout").attr("flush")();
                 py::module_::import("sys").attr("stderr").attr("flush")();
                 self.print_loop_nest();
             })
        .def(
            "compile_to_static_library",
            [](T &self, const std::string &prefix, const Args &arguments, const std::string &fn_name,
               const Target &target) {
                self.compile_to_static_library(prefix, arguments, fn_name, aot_target(target));
            },
            py::arg("filename_prefix"), py::arg("arguments"), py::arg("fn_name") = "", target_arg())
        .def(
            "compile_to_file",
            [](T &self, const std::string &prefix, const Args &arguments, const std::string &fn_name,
               const Target &target) { self.compile_to_file(prefix, arguments, fn_name, aot_target(target)); },
            py::arg("filename_prefix"), py::arg("arguments"), py::arg("fn_name") = "", target_arg())
        .def(
            "compile_to_multitarget_static_library",
            [](T &self, const std::string &prefix, const Args &arguments, const std::vector<Target> &targets) {
                self.compile_to_multitarget_static_library(prefix, arguments, targets);
            },
            py::arg("filename_prefix"), py::arg("arguments"), py::arg("targets"));

    // Each with and without fn_name, as upstream.
    using Emit = void (T::*)(const std::string &, const Args &, const std::string &, const Target &);
    const std::pair<const char *, Emit> emitters[] = {
        {"compile_to_object", &T::compile_to_object},
        {"compile_to_assembly", &T::compile_to_assembly},
        {"compile_to_bitcode", &T::compile_to_bitcode},
        {"compile_to_llvm_assembly", &T::compile_to_llvm_assembly},
        {"compile_to_c", &T::compile_to_c},
    };
    for (const auto &[name, emit] : emitters) {
        cls.def(
               name,
               [emit = emit](T &self, const std::string &filename, const Args &arguments, const std::string &fn_name,
                             const Target &target) { (self.*emit)(filename, arguments, fn_name, aot_target(target)); },
               py::arg("filename"), py::arg("arguments"), py::arg("fn_name"), target_arg())
            .def(
                name,
                [emit = emit](T &self, const std::string &filename, const Args &arguments, const Target &target) {
                    (self.*emit)(filename, arguments, "", aot_target(target));
                },
                py::arg("filename"), py::arg("arguments"), target_arg());
    }
}

} // namespace halide_py

#endif
