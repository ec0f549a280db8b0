// halide.runtime.Buffer: a Halide::Runtime::Buffer<void> seen from Python.
//
// A Buffer either wraps the memory of an object that exports the buffer
// protocol (no copy; the exporter stays alive as long as any view of it), or
// owns memory it allocated itself (Buffer(type, sizes), make_scalar(),
// copy(), ...), or has no host memory at all (make_bounds_query(), an
// undefined Buffer()). Views (cropped(), sliced(), ...) share the memory and
// the identity (same_as) of the buffer they were made from.
//
// Every member checks its arguments before touching the C++ Buffer, whose
// own checks are assertions: bad input raises a Python exception, it never
// reaches an assert.
#ifndef HALIDE_PYTHON_BUFFER_H
#define HALIDE_PYTHON_BUFFER_H

#include <pybind11/pybind11.h>

#include <exception>
#include <memory>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include "HalideBuffer.h"
#include "HalideRuntime.h"
#include "halide_python_dlpack.h"
#include "halide_python_marshal.h"

// Capsule carrying a Halide::Runtime::Buffer<void> * (the object itself, not
// just its halide_buffer_t), for _get_halide_runtime_buffer_capsule() and
// Buffer._from_borrowed(). Only meaningful between modules built against
// this runtime's HalideBuffer.h, so the major version is part of the name.
#define HALIDE_RUNTIME_BUFFER_CAPSULE_NAME "halide.runtime.Buffer.v" HALIDE_PYTHON_STR(HALIDE_VERSION_MAJOR)

namespace halide_python {

using RuntimeBuffer = Halide::Runtime::Buffer<void>;

class Buffer {
public:
    // An undefined buffer (defined() is false): no dimensions, no memory.
    Buffer();
    // Shares memory, identity and name with `other`; the shape is copied, so
    // in-place changes of one do not affect the other.
    Buffer(const Buffer &other);
    Buffer(Buffer &&other) noexcept;
    Buffer &operator=(const Buffer &) = delete;
    Buffer &operator=(Buffer &&) = delete;
    ~Buffer() = default;

    // Wraps a buffer-protocol object (or one offering a halide_buffer_t
    // capsule); with reverse_axes, NumPy's last axis is dimension 0.
    static Buffer wrap(pybind11::handle exporter, const std::string &name, bool reverse_axes);
    // Allocates dense, zero-filled memory. storage_order (may be null) lists
    // the dimensions from innermost to outermost; the default is 0, 1, ...
    static Buffer allocate_new(halide_type_t type, const std::vector<int> &sizes, const std::vector<int> *storage_order,
                               const std::string &name);
    static Buffer bounds_query(halide_type_t type, const std::vector<int> &sizes, const std::string &name);
    static Buffer scalar(halide_type_t type, const std::string &name);
    static Buffer interleaved(halide_type_t type, int width, int height, int channels, const std::string &name);
    static Buffer with_shape_of(const Buffer &src, const std::string &name);
    // Borrows the Runtime::Buffer in `capsule`: in-place changes of the new
    // Buffer change that object. `owner` is kept alive.
    static Buffer from_borrowed(pybind11::handle capsule, pybind11::object owner, const std::string &name);
    // Operates on `rb` in place (no owner): for a caller that keeps `rb`
    // alive, such as halide.Buffer reusing these checked shape operations.
    static Buffer borrow(RuntimeBuffer *rb);
    // Consumes the DLPack tensor of `producer` (an object with __dlpack__
    // or a DLPack capsule), without copying; the tensor is released when the
    // last view of it goes away.
    static Buffer from_dlpack(pybind11::handle producer, const std::string &name, bool reverse_axes);

    // A view of this buffer (same memory and identity, a fresh name).
    Buffer view() const;
    // An independent copy of the elements (dense, same memory order).
    Buffer copy() const;

    RuntimeBuffer &rt() { return borrowed_ ? *borrowed_ : buffer_; }
    const RuntimeBuffer &rt() const { return borrowed_ ? *borrowed_ : buffer_; }
    halide_buffer_t &raw() { return *rt().raw_buffer(); }
    const halide_buffer_t &raw() const { return *rt().raw_buffer(); }

    int dimensions() const { return rt().dimensions(); }
    halide_type_t type() const { return rt().type(); }
    bool defined() const { return defined_; }
    bool readonly() const { return readonly_; }
    bool reverse_axes() const { return reverse_axes_; }
    const std::string &name() const { return name_; }
    void set_name(std::string n) { name_ = std::move(n); }
    bool same_as(const Buffer &other) const { return identity_ && identity_ == other.identity_; }

    // Raise IndexError / ValueError instead of asserting.
    void check_dim(int d) const;
    void require_defined() const;
    // The host pointer for reading or writing `what` (an operation name).
    // Raises when undefined, without host memory (unless there are no
    // elements), read-only (for writes) or device-dirty.
    uint8_t *host_for_read(const char *what) const;
    uint8_t *host_for_write(const char *what);

    // In-place shape changes (all checked).
    void crop(int d, int min, int extent);
    void crop(const std::vector<std::pair<int, int>> &rect);
    void slice(int d, int pos);
    void slice(int d);
    void embed(int d, int pos);
    void add_dimension();
    void translate(int d, int delta);
    void translate(const std::vector<int> &delta);
    void transpose(int d1, int d2);
    void transpose(const std::vector<int> &order);
    void set_min(const std::vector<int> &mins);
    bool contains(const std::vector<int> &coords) const;
    void reverse_axes_in_place();

    void allocate();
    void deallocate();

    // Copies the elements where `src` and this buffer overlap.
    void copy_from(const Buffer &src);

    // Address of the element at Halide coordinates `pos` (mins honoured).
    // ValueError for the wrong number of coordinates, IndexError outside.
    uint8_t *address_of(const std::vector<int> &pos, bool for_write);

    // Keeps this buffer's memory alive for an export (buffer protocol,
    // numpy_view): holds a reference to the allocation, the exporter and
    // the owner, independent of later changes to this Buffer.
    struct Keepalive {
        RuntimeBuffer buffer;
        std::shared_ptr<MarshaledBuffer> storage;
        pybind11::object owner;
    };
    Keepalive *new_keepalive() const;

private:
    void init_identity(const std::string &name);
    void move_host(int64_t elements);

    RuntimeBuffer buffer_;
    // Set by from_borrowed(): the C++ Buffer this one operates on.
    RuntimeBuffer *borrowed_ = nullptr;
    // The exporter's Py_buffer (wrapped memory), shared by every view.
    std::shared_ptr<MarshaledBuffer> storage_;
    // Whatever else must stay alive: a capsule provider or borrowed owner.
    pybind11::object owner_;
    std::shared_ptr<char> identity_;
    std::string name_;
    bool defined_ = false;
    bool readonly_ = false;
    bool reverse_axes_ = true;
};

// In a C slot (bf_getbuffer...): turns the C++ exception being handled into
// the pending Python exception.
inline void set_python_error_from_current_exception() {
    try {
        throw;
    } catch (pybind11::error_already_set &err) {
        err.restore();
    } catch (pybind11::builtin_exception &err) {
        err.set_error();
    } catch (std::bad_alloc &) {
        PyErr_NoMemory();
    } catch (std::exception &err) {
        PyErr_SetString(PyExc_RuntimeError, err.what());
    }
}

void bind_buffer(pybind11::module_ &m);

// Calls f([x, y, ...]) for every coordinate of `buf`'s shape (as it is on
// entry), dimension 0 varying fastest: for_each_element of both Buffer classes.
void for_each_coordinate(const halide_buffer_t &buf, const pybind11::function &f);

} // namespace halide_python

#endif
