// hl.Pipeline, hl.Argument/ArgumentKind, hl.OutputFileType and
// hl.StmtOutputFormat: running and compiling one or more output Funcs
// (and the same methods on hl.Func).
#include "py_compile_methods.h"

namespace halide_py {

using Halide::Argument;
using Halide::Func;
using Halide::Pipeline;

void check_jit_target(const Halide::Target &t, const char *what) {
    if (t.has_unknowns()) {
        return;
    }
    Halide::Target host = Halide::get_host_target();
    if (t.os != host.os || t.arch != host.arch || t.bits != host.bits) {
        throw Halide::CompileError(
            Halide::Internal::user_error_text(std::string(what) + ": the JIT compiles for this machine (" +
                                              host.to_string() + "), not for target " + t.to_string()));
    }
}

py::object realization_to_python(const Halide::Realization &r) {
    if (r.size() == 1) {
        return py::cast(r[0]);
    }
    py::tuple out(r.size());
    for (size_t i = 0; i < r.size(); i++) {
        out[i] = py::cast(r[i]);
    }
    return std::move(out);
}

namespace {

const char *kind_name(Argument::Kind k) {
    switch (k) {
    case Argument::InputScalar: return "InputScalar";
    case Argument::InputBuffer: return "InputBuffer";
    default: return "OutputBuffer";
    }
}

} // namespace

void define_pipeline(py::module_ &m) {
    py::enum_<Argument::Kind>(m, "ArgumentKind")
        .value("InputScalar", Argument::InputScalar)
        .value("InputBuffer", Argument::InputBuffer)
        .value("OutputBuffer", Argument::OutputBuffer);

    bound_class<Argument>(m, "Argument")
        .def(py::init<>())
        .def(py::init([](const Halide::Param<> &p) { return Argument(p); }), py::arg("param"))
        .def(py::init([](const Halide::OutputImageParam &im) { return Argument(im); }), py::arg("im"))
        .def(py::init([](const Halide::Buffer<> &b) {
                 if (!b.defined()) {
                     throw py::value_error("Argument(): the halide.Buffer is undefined");
                 }
                 return Argument(b.name(), Argument::InputBuffer, b.type(), b.dimensions());
             }),
             py::arg("buffer"))
        .def_readwrite("name", &Argument::name)
        .def_readwrite("kind", &Argument::kind)
        .def_readwrite("dimensions", &Argument::dimensions)
        .def_readwrite("type", &Argument::type)
        .def("is_buffer", &Argument::is_buffer)
        .def("is_scalar", &Argument::is_scalar)
        .def("is_input", &Argument::is_input)
        .def("is_output", &Argument::is_output)
        .def("__repr__", [](const Argument &a) {
            return "<halide.Argument '" + a.name + "' " + kind_name(a.kind) + " " + type_name(a.type) +
                   (a.is_buffer() ? ", dims: " + std::to_string(a.dimensions) : std::string()) + ">";
        });
    // Lists of Params, ImageParams and Buffers where arguments are expected.
    py::implicitly_convertible<Halide::Param<>, Argument>();
    py::implicitly_convertible<Halide::OutputImageParam, Argument>();
    py::implicitly_convertible<Halide::ImageParam, Argument>();
    py::implicitly_convertible<Halide::Buffer<>, Argument>();

    py::enum_<Halide::OutputFileType>(m, "OutputFileType")
        .value("assembly", Halide::OutputFileType::assembly)
        .value("bitcode", Halide::OutputFileType::bitcode)
        .value("c_header", Halide::OutputFileType::c_header)
        .value("llvm_assembly", Halide::OutputFileType::llvm_assembly)
        .value("object", Halide::OutputFileType::object)
        .value("static_library", Halide::OutputFileType::static_library)
        .value("stmt", Halide::OutputFileType::stmt)
        .value("python_extension", Halide::OutputFileType::python_extension)
        .value("shared_library", Halide::OutputFileType::shared_library)
        .value("c_source", Halide::OutputFileType::c_source)
        .value("compiler_log", Halide::OutputFileType::compiler_log)
        .value("conceptual_stmt", Halide::OutputFileType::conceptual_stmt)
        .value("conceptual_stmt_html", Halide::OutputFileType::conceptual_stmt_html)
        .value("cpp_stub", Halide::OutputFileType::cpp_stub)
        .value("device_code", Halide::OutputFileType::device_code)
        .value("featurization", Halide::OutputFileType::featurization)
        .value("function_info_header", Halide::OutputFileType::function_info_header)
        .value("hlpipe", Halide::OutputFileType::hlpipe)
        .value("pytorch_wrapper", Halide::OutputFileType::pytorch_wrapper)
        .value("registration", Halide::OutputFileType::registration)
        .value("schedule", Halide::OutputFileType::schedule)
        .value("stmt_html", Halide::OutputFileType::stmt_html);

    py::enum_<StmtOutputFormat>(m, "StmtOutputFormat")
        .value("Text", StmtOutputFormat::Text)
        .value("HTML", StmtOutputFormat::HTML);

    auto cls = bound_class<Pipeline>(m, "Pipeline");
    cls.def(py::init<>())
        .def(py::init<const Func &>(), py::arg("output"))
        .def(py::init<const std::vector<Func> &>(), py::arg("outputs"))
        .def("defined", &Pipeline::defined)
        .def("outputs", &Pipeline::outputs)
        .def(
            "get_func",
            [](Pipeline &p, int index) {
                if (index < 0) {
                    throw py::index_error("Pipeline.get_func(): index " + std::to_string(index) + " is negative");
                }
                return p.get_func((size_t)index);
            },
            py::arg("index"))
        .def(
            "add_requirement",
            [](Pipeline &p, const py::object &condition, const py::args &error_args) {
                std::vector<Halide::Expr> parts;
                for (const auto &a : error_args) {
                    parts.push_back(py::isinstance<py::str>(a) ? Halide::Expr(a.cast<std::string>())
                                                               : to_expr(a, "add_requirement argument"));
                }
                p.add_requirement(to_expr(condition, "add_requirement condition"), parts);
            },
            py::arg("condition"))
        .def("invalidate_cache", &Pipeline::invalidate_cache)
        .def("__repr__", [](const Pipeline &p) {
            if (!p.defined()) {
                return std::string("<halide.Pipeline Pipeline()>"); // as upstream's
            }
            std::string s = "<halide.Pipeline [";
            std::vector<Func> funcs = p.outputs();
            for (size_t i = 0; i < funcs.size(); i++) {
                s += (i ? ", '" : "'") + funcs[i].name() + "'";
            }
            return s + "]>";
        });
    add_compile_methods(cls);
    auto func = bound_class<Func>(m, "Func");
    add_compile_methods(func);
}

} // namespace halide_py
