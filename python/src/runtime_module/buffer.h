// halide.runtime.Buffer: a zero-copy halide_buffer_t view of any object that
// exports the buffer protocol, with Halide's coordinate conventions.
#ifndef HALIDE_PYTHON_BUFFER_H
#define HALIDE_PYTHON_BUFFER_H

#include <pybind11/pybind11.h>

#include <memory>
#include <string>
#include <vector>

#include "HalideRuntime.h"
#include "halide_python_marshal.h"

namespace halide_python {

class Buffer {
public:
    // Wraps `exporter`; with reverse_axes, NumPy's last axis is dimension 0.
    Buffer(pybind11::object exporter, std::string name, bool reverse_axes);

    halide_buffer_t &raw() { return buffer_; }
    const halide_buffer_t &raw() const { return buffer_; }
    int dimensions() const { return buffer_.dimensions; }
    const std::string &name() const { return name_; }
    void set_name(std::string n) { name_ = std::move(n); }
    bool reverse_axes() const { return reverse_axes_; }
    bool readonly() const { return storage_->view().readonly != 0; }

    // Views share the exporter; the *_in_place forms change this buffer.
    Buffer view() const { return *this; }
    void crop(int d, int min, int extent);
    void slice(int d, int pos);
    void transpose(int d1, int d2);
    void translate(int d, int delta);
    void check_dim(int d) const;

    // Address of the element at Halide coordinates `pos` (mins honoured);
    // raises IndexError naming the coordinate when outside the buffer.
    uint8_t *address_of(const std::vector<int> &pos) const;

private:
    void move_host(int64_t elements);
    void sync_header() {
        buffer_.dim = dims_.data();
        buffer_.dimensions = (int)dims_.size();
    }

    // Holds the Py_buffer, and so the exporter, for every view.
    std::shared_ptr<MarshaledBuffer> storage_;
    std::vector<halide_dimension_t> dims_;
    halide_buffer_t buffer_{};
    std::string name_;
    bool reverse_axes_;

public:
    Buffer(const Buffer &other)
        : storage_(other.storage_), dims_(other.dims_), buffer_(other.buffer_), name_(other.name_),
          reverse_axes_(other.reverse_axes_) {
        sync_header();
    }
    Buffer &operator=(const Buffer &) = delete;
};

void bind_buffer(pybind11::module_ &m);

} // namespace halide_python

#endif
