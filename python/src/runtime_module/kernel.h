// halide.runtime.Kernel: one AOT kernel (NAME_argv + NAME_metadata), callable
// from Python with NumPy arrays and Python scalars.
#ifndef HALIDE_PYTHON_KERNEL_H
#define HALIDE_PYTHON_KERNEL_H

#include <pybind11/pybind11.h>

#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "HalideRuntime.h"
#include "library.h"

namespace halide_python {

// One entry of the kernel's metadata, as Python sees it.
struct ArgumentInfo {
    std::string name;        // as in the metadata ("g.0")
    std::string python_name; // usable as a keyword ("g_0")
    std::string what;        // names it in error messages: "Invalid argument g.0"
    int kind;                // halide_argument_kind_t
    int dimensions;
    halide_type_t type;
    const halide_filter_argument_t *raw;

    bool is_buffer() const { return kind != halide_argument_kind_input_scalar; }
    bool is_output() const { return kind == halide_argument_kind_output_buffer; }
};

class Kernel {
public:
    Kernel(std::shared_ptr<Library> library, const std::string &name);

    // kernel(*args, **kwargs): see docs/runtime.md for the binding rules.
    pybind11::object call(const pybind11::args &args, const pybind11::kwargs &kwargs);
    // kernel.bounds(...): the regions a call with these arguments would need.
    pybind11::dict bounds(const pybind11::args &args, const pybind11::kwargs &kwargs);

    const std::string &name() const { return name_; }
    std::string target() const { return metadata_->target ? metadata_->target : ""; }
    const std::string &library_path() const { return library_->path(); }
    const std::vector<ArgumentInfo> &arguments() const { return arguments_; }
    bool has_user_context() const { return user_context_index_ >= 0; }
    pybind11::list argument_names() const; // raw metadata names, in argv order
    pybind11::list keyword_names() const;  // Python-safe names, in argv order
    pybind11::list argument_infos() const;

private:
    struct Binding;
    void bind(const pybind11::args &args, const pybind11::kwargs &kwargs, Binding &b, bool for_bounds) const;
    int index_of(PyObject *keyword) const;
    std::string listing() const; // "input, offset, pair.0 (or pair_0)"
    pybind11::object shape_for(const ArgumentInfo &a, PyObject *output_shape) const;

    std::shared_ptr<Library> library_;
    std::string name_;
    halide_argv_call_t argv_;
    const halide_filter_metadata_t *metadata_;
    std::vector<ArgumentInfo> arguments_;
    std::vector<int> visible_; // indices of arguments a caller passes (all but __user_context)
    int user_context_index_ = -1;
    pybind11::dict keyword_index_; // raw name and python name -> argument index
};

void bind_kernel(pybind11::module_ &m);

} // namespace halide_python

#endif
