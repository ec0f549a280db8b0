// hl.Func(type, dimensions, name) and hl.Func([types], dimensions, name), as
// upstream's: a Func whose value types and number of dimensions are fixed
// before it is defined. type(), types(), outputs() and dimensions() answer
// from the requirement while the Func is undefined (a generator's outputs
// are such Funcs, so generate() may read self.output.type()), and a pure
// definition that does not match it is refused.
//
// The requirement lives here, beside the bindings: the compiler's Func has
// no such field. It is keyed by the Func's shared contents, so every handle
// on the Func (copies, the Func a generator stored) sees it.
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>

#include "py_compiler.h"

namespace halide_py {

using Halide::Func;
using Halide::Type;

namespace {

struct Requirement {
    std::weak_ptr<Halide::Internal::FunctionContents> contents;
    std::vector<Type> types;
    int dimensions;
};

std::mutex registry_mutex;
std::map<const void *, Requirement> registry;

void require(const Func &f, std::vector<Type> types, int dimensions) {
    if (types.empty()) {
        throw py::value_error("Func(): a typed Func needs at least one type");
    }
    if (dimensions < 0) {
        throw py::value_error("Func(): the number of dimensions must be non-negative, got " +
                              std::to_string(dimensions));
    }
    std::lock_guard<std::mutex> lock(registry_mutex);
    // Forget the Funcs that are gone (their contents' address may be reused).
    for (auto it = registry.begin(); it != registry.end();) {
        it = it->second.contents.expired() ? registry.erase(it) : std::next(it);
    }
    registry[f.function().get()] = Requirement{f.function(), std::move(types), dimensions};
}

// The Func's requirement, if it was made with one.
std::optional<Requirement> requirement(const Func &f) {
    std::lock_guard<std::mutex> lock(registry_mutex);
    auto it = registry.find(f.function().get());
    if (it == registry.end() || it->second.contents.lock() != f.function()) {
        return std::nullopt;
    }
    return it->second;
}

std::string types_text(const std::vector<Type> &types) {
    std::ostringstream s;
    if (types.size() == 1) {
        s << types[0];
        return s.str();
    }
    s << "(";
    for (size_t i = 0; i < types.size(); i++) {
        s << (i ? ", " : "") << types[i];
    }
    s << ")";
    return s.str();
}

[[noreturn]] void no_requirement(const Func &f, const char *method, const char *what) {
    throw Halide::CompileError(
        Halide::Internal::user_error_text(std::string("Can't call Func::") + method + " on Func \"" + f.name() +
                                          "\" because it is undefined or has no " + what + " requirements."));
}

std::vector<Type> func_types(const Func &f, const char *method) {
    if (f.defined()) {
        return f.output_types();
    }
    if (auto r = requirement(f)) {
        return r->types;
    }
    no_requirement(f, method, "type");
}

} // namespace

void check_func_requirement(const Func &f, size_t dimensions, const std::vector<Halide::Expr> &values) {
    if (f.defined()) {
        return; // an update: the compiler checks it against the pure definition
    }
    auto r = requirement(f);
    if (!r) {
        return;
    }
    if (dimensions != (size_t)r->dimensions) {
        throw Halide::CompileError(Halide::Internal::user_error_text(
            "Func \"" + f.name() + "\" is constrained to have exactly " + std::to_string(r->dimensions) +
            " dimensions, but is defined with " + std::to_string(dimensions) + " dimensions."));
    }
    std::vector<Type> types;
    for (const Halide::Expr &v : values) {
        types.push_back(v.type());
    }
    if (types != r->types) {
        throw Halide::CompileError(Halide::Internal::user_error_text(
            "Func \"" + f.name() + "\" is constrained to only hold values of type " + types_text(r->types) +
            " but is defined with values of type " + types_text(types) + "."));
    }
}

void define_func_requirements(py::module_ &m) {
    auto cls = bound_class<Func>(m, "Func");
    cls.def(py::init([](const Type &t, int dimensions, const std::string &name) {
                Func f(name);
                require(f, {t}, dimensions);
                return f;
            }),
            py::arg("required_type"), py::arg("required_dimensions"), py::arg("name") = "")
        .def(py::init([](const std::vector<Type> &types, int dimensions, const std::string &name) {
                 Func f(name);
                 require(f, types, dimensions);
                 return f;
             }),
             py::arg("required_types"), py::arg("required_dimensions"), py::arg("name") = "")
        .def("type",
             [](const Func &f) {
                 std::vector<Type> types = func_types(f, "type");
                 if (types.size() != 1) {
                     throw Halide::CompileError(Halide::Internal::user_error_text(
                         "Can't call Func::type on Func \"" + f.name() + "\" because it returns a Tuple."));
                 }
                 return types[0];
             })
        .def("types", [](const Func &f) { return func_types(f, "types"); })
        .def("outputs", [](const Func &f) { return (int)func_types(f, "outputs").size(); })
        .def("dimensions", [](const Func &f) {
            if (f.defined()) {
                return f.dimensions();
            }
            if (auto r = requirement(f)) {
                return r->dimensions;
            }
            no_requirement(f, "dimensions", "dimension");
        });
}

} // namespace halide_py
