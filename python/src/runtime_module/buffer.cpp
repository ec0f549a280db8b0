// See buffer.h. The Python bindings are in buffer_bindings.cpp.
#include "buffer.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <new>

namespace py = pybind11;

namespace halide_python {
namespace {

std::string unique_name() {
    static std::atomic<uint64_t> next{0};
    return "b" + std::to_string(next.fetch_add(1, std::memory_order_relaxed));
}

// Zero-filled memory for the Runtime::Buffer allocator; throwing keeps a
// failed allocation from reaching the header's assert.
void *zeroed_alloc(size_t bytes) {
    void *p = std::calloc(1, bytes);
    if (!p) {
        throw std::bad_alloc();
    }
    return p;
}

std::string interval(const halide_dimension_t &d) {
    return "[" + std::to_string(d.min) + ", " + std::to_string((int64_t)d.min + d.extent) + ")";
}

bool fits_int32(int64_t v) {
    return v >= INT32_MIN && v <= INT32_MAX;
}

void check_element_type(halide_type_t t, const char *what) {
    bool ok = (t.code == halide_type_uint && t.bits == 1) ||
              ((t.code == halide_type_int || t.code == halide_type_uint) &&
               (t.bits == 8 || t.bits == 16 || t.bits == 32 || t.bits == 64)) ||
              (t.code == halide_type_float && (t.bits == 16 || t.bits == 32 || t.bits == 64)) ||
              (t.code == halide_type_bfloat && t.bits == 16) || (t.code == halide_type_handle && t.bits == 64);
    if (!ok || t.lanes != 1) {
        throw py::value_error(std::string(what) + ": a Buffer cannot hold elements of type " + type_name(t) +
                              (t.lanes != 1 ? "x" + std::to_string(t.lanes) : std::string()));
    }
}

// Dense strides for `sizes` with storage_order[0] innermost. Checks that
// every stride fits in 32 bits.
std::vector<halide_dimension_t> dense_shape(const std::vector<int> &sizes, const std::vector<int> &order,
                                            const char *what) {
    const int d = (int)sizes.size();
    std::vector<halide_dimension_t> dims(d);
    int64_t stride = 1;
    for (int k = 0; k < d; k++) {
        const int i = order[k];
        if (sizes[i] < 0) {
            throw py::value_error(std::string(what) + ": size " + std::to_string(sizes[i]) + " of dimension " +
                                  std::to_string(i) + " is negative");
        }
        if (!fits_int32(stride)) {
            throw py::value_error(std::string(what) +
                                  ": a buffer of these sizes is too large (the stride of "
                                  "dimension " +
                                  std::to_string(i) + " would not fit in 32 bits)");
        }
        dims[i] = halide_dimension_t(0, sizes[i], (int32_t)stride);
        stride *= sizes[i] > 0 ? sizes[i] : 1;
    }
    return dims;
}

std::vector<int> identity_order(int d) {
    std::vector<int> order(d);
    for (int i = 0; i < d; i++) {
        order[i] = i;
    }
    return order;
}

// Raises unless `order` is a permutation of 0 .. d-1.
void check_permutation(const std::vector<int> &order, int d, const char *what) {
    if ((int)order.size() != d) {
        throw py::value_error(std::string(what) + ": expected " + std::to_string(d) + " dimension indices, got " +
                              std::to_string(order.size()));
    }
    std::vector<bool> seen(d, false);
    for (int i : order) {
        if (i < 0 || i >= d || seen[i]) {
            throw py::value_error(std::string(what) + ": the order must list each of the " + std::to_string(d) +
                                  " dimension indices exactly once");
        }
        seen[i] = true;
    }
}

RuntimeBuffer allocated(halide_type_t type, const std::vector<halide_dimension_t> &dims) {
    RuntimeBuffer b(type, nullptr, (int)dims.size(), dims.data());
    b.allocate(zeroed_alloc, std::free);
    return b;
}

} // namespace

Buffer::Buffer() = default;

Buffer::Buffer(const Buffer &other)
    : buffer_(other.rt()), storage_(other.storage_), owner_(other.owner_), identity_(other.identity_),
      name_(other.name_), defined_(other.defined_), readonly_(other.readonly_), reverse_axes_(other.reverse_axes_) {}

Buffer::Buffer(Buffer &&other) noexcept
    : buffer_(std::move(other.buffer_)), borrowed_(other.borrowed_), storage_(std::move(other.storage_)),
      owner_(std::move(other.owner_)), identity_(std::move(other.identity_)), name_(std::move(other.name_)),
      defined_(other.defined_), readonly_(other.readonly_), reverse_axes_(other.reverse_axes_) {
    other.borrowed_ = nullptr;
}

void Buffer::init_identity(const std::string &name) {
    identity_ = std::make_shared<char>();
    name_ = name.empty() ? unique_name() : name;
    defined_ = true;
}

Buffer Buffer::wrap(py::handle exporter, const std::string &name, bool reverse_axes) {
    const std::string what = name.empty() ? std::string("Buffer") : "Buffer '" + name + "'";
    PyObject *obj = exporter.ptr();
    Buffer b;
    b.reverse_axes_ = reverse_axes;
    // A halide_buffer_t capsule (halide.Buffer offers one) comes first: it
    // keeps mins and types NumPy lacks, and is already in Halide's axis
    // order, so reverse_axes does not apply. Our own Buffers go through the
    // buffer protocol, as upstream's do.
    const bool prefer_capsule =
        !py::isinstance<Buffer>(exporter) && PyObject_HasAttrString(obj, HALIDE_BUFFER_CAPSULE_METHOD);
    if (!PyObject_CheckBuffer(obj) || prefer_capsule) {
        PyObject *capsule = nullptr;
        halide_buffer_t *source = nullptr;
        if (!buffer_from_capsule(obj, what.c_str(), &capsule, &source)) {
            throw py::error_already_set();
        }
        if (!capsule) {
            throw py::type_error(what +
                                 ": expected an object exporting the buffer protocol (a NumPy array, bytes, "
                                 "memoryview, ...), an object offering " HALIDE_BUFFER_CAPSULE_METHOD
                                 "(), a Buffer, or a type and sizes; got " +
                                 std::string(Py_TYPE(obj)->tp_name));
        }
        b.owner_ = py::reinterpret_steal<py::object>(capsule);
        if (source->dimensions < 0 || (source->dimensions > 0 && !source->dim)) {
            throw py::value_error(what + ": the capsule's halide_buffer_t has an invalid shape");
        }
        b.buffer_ = RuntimeBuffer(*source);
        b.init_identity(name);
        return b;
    }
    auto storage = std::make_shared<MarshaledBuffer>();
    if (!storage->acquire(obj, what.c_str(), /*writable=*/false, reverse_axes)) {
        throw py::error_already_set();
    }
    const halide_buffer_t &h = storage->buffer;
    b.buffer_ = RuntimeBuffer(h.type, h.host, h.dimensions, h.dim);
    b.readonly_ = storage->view().readonly != 0;
    b.storage_ = std::move(storage);
    b.init_identity(name);
    // As upstream: a freshly wrapped host buffer is the newest copy.
    b.buffer_.set_host_dirty(true);
    return b;
}

Buffer Buffer::allocate_new(halide_type_t type, const std::vector<int> &sizes, const std::vector<int> *storage_order,
                            const std::string &name) {
    check_element_type(type, "Buffer");
    std::vector<int> order = identity_order((int)sizes.size());
    if (storage_order) {
        check_permutation(*storage_order, (int)sizes.size(), "Buffer: storage_order");
        order = *storage_order;
    }
    Buffer b;
    b.buffer_ = allocated(type, dense_shape(sizes, order, "Buffer"));
    b.init_identity(name);
    return b;
}

Buffer Buffer::bounds_query(halide_type_t type, const std::vector<int> &sizes, const std::string &name) {
    check_element_type(type, "make_bounds_query");
    std::vector<halide_dimension_t> dims = dense_shape(sizes, identity_order((int)sizes.size()), "make_bounds_query");
    Buffer b;
    b.buffer_ = RuntimeBuffer(type, nullptr, (int)dims.size(), dims.data());
    b.init_identity(name);
    return b;
}

Buffer Buffer::scalar(halide_type_t type, const std::string &name) {
    check_element_type(type, "make_scalar");
    Buffer b;
    b.buffer_ = allocated(type, {});
    b.init_identity(name);
    return b;
}

Buffer Buffer::interleaved(halide_type_t type, int width, int height, int channels, const std::string &name) {
    check_element_type(type, "make_interleaved");
    Buffer b;
    b.buffer_ = allocated(type, dense_shape({width, height, channels}, {2, 0, 1}, "make_interleaved"));
    b.init_identity(name);
    return b;
}

Buffer Buffer::with_shape_of(const Buffer &src, const std::string &name) {
    const halide_buffer_t &s = src.raw();
    const int d = s.dimensions;
    // Dense, with the dimensions ordered in memory as src's are (by
    // increasing |stride|, ties in dimension order).
    std::vector<int> order = identity_order(d);
    std::stable_sort(order.begin(), order.end(), [&](int a, int c) {
        return std::llabs((int64_t)s.dim[a].stride) < std::llabs((int64_t)s.dim[c].stride);
    });
    std::vector<int> sizes(d);
    for (int i = 0; i < d; i++) {
        sizes[i] = s.dim[i].extent;
    }
    std::vector<halide_dimension_t> dims = dense_shape(sizes, order, "make_with_shape_of");
    for (int i = 0; i < d; i++) {
        dims[i].min = s.dim[i].min;
    }
    Buffer b;
    b.buffer_ = allocated(src.type(), dims);
    b.reverse_axes_ = src.reverse_axes_;
    b.init_identity(name);
    return b;
}

Buffer Buffer::from_borrowed(py::handle capsule, py::object owner, const std::string &name) {
    if (!PyCapsule_CheckExact(capsule.ptr())) {
        throw py::type_error(std::string("_from_borrowed: expected a capsule named '") +
                             HALIDE_RUNTIME_BUFFER_CAPSULE_NAME + "', got " + Py_TYPE(capsule.ptr())->tp_name);
    }
    const char *cap_name = PyCapsule_GetName(capsule.ptr());
    if (!cap_name || std::strcmp(cap_name, HALIDE_RUNTIME_BUFFER_CAPSULE_NAME) != 0) {
        throw py::value_error(std::string("_from_borrowed: the capsule is named '") +
                              (cap_name ? cap_name : "<unnamed>") + "', expected '" +
                              HALIDE_RUNTIME_BUFFER_CAPSULE_NAME + "'");
    }
    auto *borrowed = static_cast<RuntimeBuffer *>(PyCapsule_GetPointer(capsule.ptr(), cap_name));
    if (!borrowed) {
        throw py::error_already_set();
    }
    Buffer b;
    b.borrowed_ = borrowed;
    b.owner_ = std::move(owner);
    b.identity_ = std::make_shared<char>();
    b.name_ = name;
    b.defined_ = true;
    return b;
}

Buffer Buffer::borrow(RuntimeBuffer *rb) {
    Buffer b;
    b.borrowed_ = rb;
    b.identity_ = std::make_shared<char>();
    b.defined_ = true;
    return b;
}

Buffer Buffer::from_dlpack(py::handle producer, const std::string &name, bool reverse_axes) {
    dlpack::Imported t;
    if (!dlpack::import_tensor(producer.ptr(), reverse_axes, "Buffer.from_dlpack", &t)) {
        throw py::error_already_set();
    }
    Buffer b;
    b.owner_ = py::reinterpret_steal<py::object>(t.owner);
    b.buffer_ = RuntimeBuffer(t.buffer.type, t.buffer.host, t.buffer.dimensions, t.buffer.dim);
    b.readonly_ = t.readonly;
    b.reverse_axes_ = reverse_axes;
    b.init_identity(name);
    b.buffer_.set_host_dirty(true);
    return b;
}

Buffer Buffer::view() const {
    Buffer v(*this);
    v.name_ = unique_name();
    return v;
}

Buffer Buffer::copy() const {
    host_for_read("copy");
    Buffer c = with_shape_of(*this, "");
    c.copy_from(*this);
    return c;
}

void Buffer::require_defined() const {
    if (!defined_) {
        throw py::value_error("Undefined buffer");
    }
}

void Buffer::check_dim(int d) const {
    if (d < 0 || d >= dimensions()) {
        throw py::index_error("dimension " + std::to_string(d) + " is out of range for a buffer with " +
                              std::to_string(dimensions()) + " dimensions");
    }
}

uint8_t *Buffer::host_for_read(const char *what) const {
    require_defined();
    const halide_buffer_t &h = raw();
    if (!h.host && h.number_of_elements() > 0) {
        throw py::value_error(std::string(what) +
                              ": the buffer has no host memory (a bounds-query or deallocated buffer); call "
                              "allocate() first");
    }
    return h.host;
}

uint8_t *Buffer::host_for_write(const char *what) {
    uint8_t *host = host_for_read(what);
    if (readonly_) {
        throw py::value_error(std::string(what) + ": the buffer wraps read-only memory");
    }
    if (raw().device_dirty()) {
        throw py::value_error(std::string(what) + ": the buffer is device-dirty; call copy_to_host() first");
    }
    return host;
}

void Buffer::move_host(int64_t elements) {
    // Integer arithmetic: a view may legitimately point outside any
    // allocation (e.g. an empty crop of a buffer with huge strides).
    halide_buffer_t &h = raw();
    if (h.host) {
        h.host = reinterpret_cast<uint8_t *>(reinterpret_cast<uintptr_t>(h.host) +
                                             (uintptr_t)elements * (uintptr_t)h.type.bytes());
    }
}

void Buffer::crop(int d, int min, int extent) {
    check_dim(d);
    halide_dimension_t &dim = raw().dim[d];
    if (extent < 0 || min < dim.min || (int64_t)min + extent > (int64_t)dim.min + dim.extent) {
        throw py::value_error("crop of dimension " + std::to_string(d) + " to [" + std::to_string(min) + ", " +
                              std::to_string((int64_t)min + extent) + ") lies outside the buffer's " + interval(dim));
    }
    if (raw().device_interface) {
        rt().crop(d, min, extent);
        return;
    }
    const int64_t shift = ((int64_t)min - dim.min) * dim.stride;
    dim.min = min;
    dim.extent = extent;
    move_host(shift);
}

void Buffer::crop(const std::vector<std::pair<int, int>> &rect) {
    if ((int)rect.size() > dimensions()) {
        throw py::value_error("crop: got " + std::to_string(rect.size()) + " (min, extent) pairs for a buffer with " +
                              std::to_string(dimensions()) + " dimensions");
    }
    // Check everything before changing anything.
    for (size_t i = 0; i < rect.size(); i++) {
        const halide_dimension_t &dim = raw().dim[i];
        int min = rect[i].first, extent = rect[i].second;
        if (extent < 0 || min < dim.min || (int64_t)min + extent > (int64_t)dim.min + dim.extent) {
            throw py::value_error("crop of dimension " + std::to_string(i) + " to [" + std::to_string(min) + ", " +
                                  std::to_string((int64_t)min + extent) + ") lies outside the buffer's " +
                                  interval(dim));
        }
    }
    for (size_t i = 0; i < rect.size(); i++) {
        crop((int)i, rect[i].first, rect[i].second);
    }
}

void Buffer::slice(int d, int pos) {
    check_dim(d);
    const halide_dimension_t dim = raw().dim[d];
    if (pos < dim.min || (int64_t)pos >= (int64_t)dim.min + dim.extent) {
        throw py::index_error("slice position " + std::to_string(pos) + " is outside dimension " + std::to_string(d) +
                              " " + interval(dim));
    }
    if (raw().device_interface) {
        rt().slice(d, pos);
        return;
    }
    // By hand rather than through the C++ Buffer, whose checks use 32-bit
    // arithmetic (min + extent may exceed INT32_MAX here).
    halide_buffer_t &h = raw();
    for (int i = d; i + 1 < h.dimensions; i++) {
        h.dim[i] = h.dim[i + 1];
    }
    h.dimensions--;
    move_host(((int64_t)pos - dim.min) * dim.stride);
}

void Buffer::slice(int d) {
    check_dim(d);
    slice(d, raw().dim[d].min);
}

void Buffer::add_dimension() {
    const int d = dimensions();
    if (d > 0) {
        const halide_dimension_t &last = raw().dim[d - 1];
        if (!fits_int32((int64_t)last.stride * last.extent)) {
            throw py::value_error("add_dimension: the new dimension's stride (" + std::to_string(last.stride) + " * " +
                                  std::to_string(last.extent) + ") does not fit in 32 bits");
        }
    }
    rt().add_dimension();
}

void Buffer::embed(int d, int pos) {
    if (d < 0 || d > dimensions()) {
        throw py::index_error("embed: dimension " + std::to_string(d) + " is out of range [0, " +
                              std::to_string(dimensions()) + "] for a buffer with " + std::to_string(dimensions()) +
                              " dimensions");
    }
    add_dimension();
    const int last = dimensions() - 1;
    raw().dim[last].min = pos;
    for (int i = last; i > d; i--) {
        std::swap(raw().dim[i], raw().dim[i - 1]);
    }
}

void Buffer::translate(int d, int delta) {
    check_dim(d);
    halide_dimension_t &dim = raw().dim[d];
    int64_t min = (int64_t)dim.min + delta;
    if (!fits_int32(min) || !fits_int32(min + dim.extent - 1)) {
        throw py::value_error("translating dimension " + std::to_string(d) + " by " + std::to_string(delta) +
                              " moves its coordinates outside the 32-bit range");
    }
    dim.min = (int32_t)min;
}

void Buffer::translate(const std::vector<int> &delta) {
    if ((int)delta.size() > dimensions()) {
        throw py::value_error("translate: got " + std::to_string(delta.size()) + " offsets for a buffer with " +
                              std::to_string(dimensions()) + " dimensions");
    }
    for (size_t i = 0; i < delta.size(); i++) {
        const halide_dimension_t &dim = raw().dim[i];
        int64_t min = (int64_t)dim.min + delta[i];
        if (!fits_int32(min) || !fits_int32(min + dim.extent - 1)) {
            throw py::value_error("translating dimension " + std::to_string(i) + " by " + std::to_string(delta[i]) +
                                  " moves its coordinates outside the 32-bit range");
        }
    }
    for (size_t i = 0; i < delta.size(); i++) {
        raw().dim[i].min += delta[i];
    }
}

void Buffer::transpose(int d1, int d2) {
    check_dim(d1);
    check_dim(d2);
    std::swap(raw().dim[d1], raw().dim[d2]);
}

void Buffer::transpose(const std::vector<int> &order) {
    check_permutation(order, dimensions(), "transpose");
    rt().transpose(order);
}

void Buffer::reverse_axes_in_place() {
    const int d = dimensions();
    for (int i = 0; i < d / 2; i++) {
        std::swap(raw().dim[i], raw().dim[d - 1 - i]);
    }
}

void Buffer::set_min(const std::vector<int> &mins) {
    if ((int)mins.size() > dimensions()) {
        throw py::value_error("Too many arguments: set_min got " + std::to_string(mins.size()) +
                              " mins for a buffer with " + std::to_string(dimensions()) + " dimensions");
    }
    for (size_t i = 0; i < mins.size(); i++) {
        if (!fits_int32((int64_t)mins[i] + raw().dim[i].extent - 1)) {
            throw py::value_error("set_min: a min of " + std::to_string(mins[i]) + " puts dimension " +
                                  std::to_string(i) + " outside the 32-bit range");
        }
    }
    for (size_t i = 0; i < mins.size(); i++) {
        raw().dim[i].min = mins[i];
    }
}

bool Buffer::contains(const std::vector<int> &coords) const {
    if ((int)coords.size() > dimensions()) {
        throw py::value_error("Too many arguments: contains got " + std::to_string(coords.size()) +
                              " coordinates for a buffer with " + std::to_string(dimensions()) + " dimensions");
    }
    for (size_t i = 0; i < coords.size(); i++) {
        const halide_dimension_t &dim = raw().dim[i];
        if (coords[i] < dim.min || (int64_t)coords[i] >= (int64_t)dim.min + dim.extent) {
            return false;
        }
    }
    return true;
}

void Buffer::allocate() {
    // Refuse shapes whose span cannot be addressed (the C++ Buffer asserts).
    const halide_buffer_t &h = raw();
    uint64_t span = 1;
    bool overflow = false;
    for (int i = 0; i < h.dimensions; i++) {
        const uint64_t magnitude = (uint64_t)std::llabs((int64_t)h.dim[i].stride);
        const uint64_t steps = (uint64_t)(h.dim[i].extent > 0 ? h.dim[i].extent - 1 : 0);
        uint64_t reach = 0;
        overflow = overflow || __builtin_mul_overflow(magnitude, steps, &reach);
        overflow = overflow || __builtin_add_overflow(span, reach, &span);
    }
    uint64_t bytes = 0;
    overflow = overflow || __builtin_mul_overflow(span, (uint64_t)h.type.bytes(), &bytes);
    if (overflow || bytes > (uint64_t)PTRDIFF_MAX / 2) {
        throw py::value_error("allocate: the buffer's shape spans more memory than can be addressed");
    }
    if (h.type.bytes() == 0) {
        throw py::value_error("allocate: a Buffer cannot hold elements of type " + type_name(h.type));
    }
    rt().allocate(zeroed_alloc, std::free);
    readonly_ = false;
    storage_.reset();
}

void Buffer::deallocate() {
    rt().deallocate();
}

void Buffer::copy_from(const Buffer &src) {
    require_defined();
    src.require_defined();
    const halide_buffer_t &s = src.raw();
    if (s.dimensions != dimensions()) {
        throw py::value_error("copy_from: the source has " + std::to_string(s.dimensions) +
                              " dimensions, this buffer " + std::to_string(dimensions()));
    }
    if (!same_element_type(s.type, type())) {
        throw py::type_error("copy_from: the source holds " + type_name(s.type) + " elements, this buffer " +
                             type_name(type()));
    }
    if (s.device_dirty()) {
        throw py::value_error("copy_from: the source is device-dirty; call copy_to_host() on it first");
    }
    // The intersection of the two buffers, in absolute coordinates.
    const int d = dimensions();
    std::vector<halide_dimension_t> from(s.dim, s.dim + d), to(raw().dim, raw().dim + d);
    int64_t from_offset = 0, to_offset = 0;
    for (int i = 0; i < d; i++) {
        const int64_t lo = std::max<int64_t>(from[i].min, to[i].min);
        const int64_t hi = std::min<int64_t>((int64_t)from[i].min + from[i].extent, (int64_t)to[i].min + to[i].extent);
        if (hi <= lo) {
            return; // nothing in common
        }
        from_offset += (lo - from[i].min) * from[i].stride;
        to_offset += (lo - to[i].min) * to[i].stride;
        from[i].min = to[i].min = (int32_t)lo;
        from[i].extent = to[i].extent = (int32_t)(hi - lo);
    }
    const uint8_t *from_host = src.host_for_read("copy_from (source)");
    uint8_t *to_host = host_for_write("copy_from");
    const int bytes = type().bytes();
    halide_buffer_t fb = s, tb = raw();
    fb.dim = from.data();
    tb.dim = to.data();
    Halide::Runtime::Internal::copy_elements(fb, tb, d - 1, from_host + from_offset * bytes,
                                             to_host + to_offset * bytes, (size_t)bytes);
    raw().set_host_dirty(true);
}

uint8_t *Buffer::address_of(const std::vector<int> &pos, bool for_write) {
    require_defined();
    if ((int)pos.size() != dimensions()) {
        throw py::value_error("Incorrect number of dimensions: the buffer has " + std::to_string(dimensions()) +
                              " dimensions, got " + std::to_string(pos.size()) + " coordinates");
    }
    int64_t offset = 0;
    for (int d = 0; d < dimensions(); d++) {
        const halide_dimension_t &dim = raw().dim[d];
        if (pos[d] < dim.min || (int64_t)pos[d] >= (int64_t)dim.min + dim.extent) {
            throw py::index_error("index " + std::to_string(pos[d]) + " is out of bounds for axis " +
                                  std::to_string(d) + " with min=" + std::to_string(dim.min) +
                                  ", extent=" + std::to_string(dim.extent));
        }
        offset += ((int64_t)pos[d] - dim.min) * dim.stride;
    }
    uint8_t *host = for_write ? host_for_write("element assignment") : host_for_read("element access");
    return host + offset * type().bytes();
}

Buffer::Keepalive *Buffer::new_keepalive() const {
    auto *k = new Keepalive;
    k->buffer = rt();
    k->storage = storage_;
    k->owner = owner_;
    return k;
}

void for_each_coordinate(const halide_buffer_t &buf, const pybind11::function &f) {
    // A snapshot of the shape: f may change the buffer.
    const int d = buf.dimensions;
    std::vector<halide_dimension_t> dims(buf.dim, buf.dim + d);
    for (const auto &dim : dims) {
        if (dim.extent <= 0) {
            return;
        }
    }
    std::vector<int64_t> pos(d); // 64-bit: min + extent may pass INT32_MAX
    for (int i = 0; i < d; i++) {
        pos[i] = dims[i].min;
    }
    for (;;) {
        pybind11::list coords(d);
        for (int i = 0; i < d; i++) {
            coords[i] = pos[i];
        }
        f(coords);
        int i = 0;
        for (; i < d; i++) {
            if (++pos[i] < (int64_t)dims[i].min + dims[i].extent) {
                break;
            }
            pos[i] = dims[i].min;
        }
        if (i == d) {
            return;
        }
    }
}

} // namespace halide_python
