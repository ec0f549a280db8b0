// hl.serialize_pipeline / hl.deserialize_pipeline / hl.deserialize_parameters
// (Serialization.h), with upstream's Python signatures: bytes or a path
// (str or os.PathLike), get_params= and user_params=.
#include "py_compiler.h"

namespace halide_py {

using Halide::Parameter;
using Halide::Pipeline;

namespace {

bool is_data(const py::object &o) {
    return py::isinstance<py::bytes>(o) || py::isinstance<py::bytearray>(o) ||
           py::isinstance(o, py::module_::import("builtins").attr("memoryview"));
}

std::vector<uint8_t> bytes_of(const py::object &o) {
    std::string s = py::bytes(py::module_::import("builtins").attr("bytes")(o));
    return std::vector<uint8_t>(s.begin(), s.end());
}

std::string path_of(const py::object &o, const char *fn) {
    try {
        py::object p = py::module_::import("os").attr("fspath")(o);
        if (py::isinstance<py::str>(p)) {
            return p.cast<std::string>();
        }
    } catch (const py::error_already_set &) {
    }
    throw py::type_error(std::string(fn) + "() takes bytes or a path (str or os.PathLike), not " +
                         std::string(py::str(py::type::handle_of(o).attr("__name__"))));
}

py::dict dict_of(const std::map<std::string, Parameter> &params) {
    py::dict d;
    for (const auto &[name, p] : params) {
        d[py::str(name)] = py::cast(p);
    }
    return d;
}

std::map<std::string, Parameter> params_of(const py::object &o) {
    std::map<std::string, Parameter> m;
    if (!o.is_none()) {
        for (auto item : py::dict(o)) {
            m[item.first.cast<std::string>()] = item.second.cast<Parameter>();
        }
    }
    return m;
}

} // namespace

void define_serialize(py::module_ &m) {
    m.def(
        "serialize_pipeline",
        [](const Pipeline &p, const py::object &filename, const py::object &get_params) -> py::object {
            bool want = !get_params.is_none() && get_params.cast<bool>();
            std::map<std::string, Parameter> params;
            if (filename.is_none()) {
                std::vector<uint8_t> data;
                Halide::serialize_pipeline(p, data, params);
                py::bytes b((const char *)data.data(), data.size());
                if (want) {
                    return py::make_tuple(b, dict_of(params));
                }
                return std::move(b);
            }
            Halide::serialize_pipeline(p, path_of(filename, "serialize_pipeline"), params);
            return want ? py::object(dict_of(params)) : py::object(py::none());
        },
        py::arg("pipeline"), py::arg("filename") = py::none(), py::kw_only(), py::arg("get_params") = py::none(),
        "Serializes a pipeline to bytes (no filename) or to a file (str or os.PathLike). With get_params=True, "
        "also returns its Params and ImageParams by name: (bytes, dict) or dict.");
    m.def(
        "deserialize_pipeline",
        [](const py::object &source, const py::object &user_params) {
            std::map<std::string, Parameter> params = params_of(user_params);
            if (is_data(source)) {
                return Halide::deserialize_pipeline(bytes_of(source), params);
            }
            return Halide::deserialize_pipeline(path_of(source, "deserialize_pipeline"), params);
        },
        py::arg("data"), py::arg("user_params") = py::dict(),
        "A new Pipeline from bytes or a file (str or os.PathLike) that serialize_pipeline wrote; the Parameters "
        "of user_params (by name) stand in for the pipeline's own.");
    m.def(
        "deserialize_parameters",
        [](const py::object &source) {
            if (is_data(source)) {
                return dict_of(Halide::deserialize_parameters(bytes_of(source)));
            }
            return dict_of(Halide::deserialize_parameters(path_of(source, "deserialize_parameters")));
        },
        py::arg("data"), "The Params and ImageParams of a serialized pipeline, as new Parameters by name.");
}

} // namespace halide_py
