// Halide::Buffer<T>: an image the compiler can read from (b(x, y) in an
// expression) and realize into, over Halide::Runtime::Buffer.
#ifndef HALIDE_BUFFER_H
#define HALIDE_BUFFER_H

#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "Halide/Error.h"
#include "Halide/Expr.h"
#include "Halide/Target.h"
#include "Halide/Var.h"
#include "HalideBuffer.h"

namespace Halide {

namespace Internal {
struct InputBufferContents;
// Gives `raw` (kept alive by `owner`) a name the compiler can find.
std::shared_ptr<InputBufferContents> make_buffer_contents(const std::string &name, Type type, int dims,
                                                          halide_buffer_t *raw, std::shared_ptr<void> owner);
const std::string &buffer_contents_name(const InputBufferContents &c);
// After an in-place change of the shape (slice, embed, add_dimension,
// transpose): the compiler reads the buffer's dimensions again.
void buffer_contents_reshaped(InputBufferContents &c);
// Argument packs of sizes with an optional name last, as upstream's
// Buffer(w, h, "name") constructors take.
template <typename... Args> struct all_ints_and_optional_name : std::true_type {};
template <typename A> struct all_ints_and_optional_name<A> {
    static constexpr bool value = std::is_convertible<A, int>::value || std::is_convertible<A, std::string>::value;
};
template <typename A, typename B, typename... Rest> struct all_ints_and_optional_name<A, B, Rest...> {
    static constexpr bool value = std::is_convertible<A, int>::value && all_ints_and_optional_name<B, Rest...>::value;
};
inline void split_sizes_and_name(std::vector<int> &, std::string &) {}
template <typename A, typename... Rest>
void split_sizes_and_name(std::vector<int> &sizes, std::string &name, const A &a, const Rest &...rest) {
    if constexpr (std::is_convertible<A, int>::value) {
        sizes.push_back(int(a));
    } else {
        name = a;
    }
    split_sizes_and_name(sizes, name, rest...);
}
Expr make_image_call(Type type, const std::string &name, std::vector<Expr> args);
// Buffer::copy_to_device / device_malloc: this compiler has no device
// backend, so these throw a CompileError naming the device asked for.
[[noreturn]] void no_device_for_buffer(const std::string &buffer, const char *method, DeviceAPI d, const Target &t);
} // namespace Internal

struct JITUserContext;

// The runtime buffer every Halide::Buffer converted from one another shares
// (as upstream's): room in the object for this many dimensions, so that any
// Buffer<T, Dims> with Dims up to it can view it.
constexpr int kMaxBufferViewDims = 16;
using SharedRuntimeBuffer = Runtime::Buffer<void, Runtime::AnyDims, kMaxBufferViewDims>;

template <typename T = void, int Dims = Runtime::AnyDims> class Buffer {
    static_assert(Dims == Runtime::AnyDims || Dims <= kMaxBufferViewDims,
                  "Halide::Buffer supports at most kMaxBufferViewDims static dimensions");
    template <typename T2, int D2> friend class Buffer;

public:
    using RuntimeBuffer = Runtime::Buffer<T, Dims>;
    using VoidPtrElem = std::conditional_t<std::is_const<T>::value, const void, void>;

    Buffer() = default;
    // Sizes, with an optional name last: Buffer<float>(w, h, "name").
    template <
        typename... Args, typename U = T,
        typename = std::enable_if_t<!std::is_void<U>::value && Internal::all_ints_and_optional_name<Args...>::value>>
    explicit Buffer(int first, const Args &...rest) {
        Shape s = shape_of(first, rest...);
        adopt(std::make_shared<SharedRuntimeBuffer>(RuntimeBuffer(s.sizes)), s.name);
    }
    template <typename... Args, typename = std::enable_if_t<Internal::all_ints_and_optional_name<Args...>::value>>
    explicit Buffer(Type t, int first, const Args &...rest) {
        Shape s = shape_of(first, rest...);
        adopt(std::make_shared<SharedRuntimeBuffer>(RuntimeBuffer(halide_type_t(t), s.sizes)), s.name);
    }
    Buffer(Type t, const std::vector<int> &sizes, const std::string &name = "")
        : Buffer(RuntimeBuffer(halide_type_t(t), sizes), name) {}
    explicit Buffer(const std::vector<int> &sizes, const std::string &name = "") : Buffer(RuntimeBuffer(sizes), name) {}
    // storage_order lists the dimensions innermost first.
    explicit Buffer(Type t, const std::vector<int> &sizes, const std::vector<int> &storage_order,
                    const std::string &name = "")
        : Buffer(RuntimeBuffer(halide_type_t(t), sizes, storage_order), name) {}
    explicit Buffer(const std::vector<int> &sizes, const std::vector<int> &storage_order, const std::string &name = "")
        : Buffer(RuntimeBuffer(sizes, storage_order), name) {}
    explicit Buffer(const RuntimeBuffer &b, const std::string &name = "") {
        adopt(std::make_shared<SharedRuntimeBuffer>(b), name);
    }
    // Over a C array (not copied: it must outlive the Buffer), its last
    // index innermost: Buffer<int>(vals) of int vals[3][4] is 4 wide, 3 high.
    template <typename Array, size_t N>
    explicit Buffer(Array (&vals)[N], const std::string &name = "") : Buffer(RuntimeBuffer(vals), name) {}
    // Over memory the caller owns (and keeps alive while the Buffer is
    // used): no copy is made.
    explicit Buffer(const halide_buffer_t &buf, const std::string &name = "") : Buffer(RuntimeBuffer(buf), name) {}
    template <
        typename... Args, typename U = T,
        typename = std::enable_if_t<!std::is_void<U>::value && Internal::all_ints_and_optional_name<Args...>::value>>
    explicit Buffer(T *data, int first, const Args &...rest) {
        Shape s = shape_of(first, rest...);
        adopt(std::make_shared<SharedRuntimeBuffer>(RuntimeBuffer(data, s.sizes)), s.name);
    }
    template <typename U = T, typename = std::enable_if_t<!std::is_void<U>::value>>
    explicit Buffer(T *data, const std::vector<int> &sizes, const std::string &name = "")
        : Buffer(RuntimeBuffer(data, sizes), name) {}
    template <typename U = T, typename = std::enable_if_t<!std::is_void<U>::value>>
    explicit Buffer(T *data, int d, const halide_dimension_t *shape, const std::string &name = "")
        : Buffer(RuntimeBuffer(data, d, shape), name) {}
    template <typename... Args, typename = std::enable_if_t<Internal::all_ints_and_optional_name<Args...>::value>>
    explicit Buffer(Type t, VoidPtrElem *data, int first, const Args &...rest) {
        Shape s = shape_of(first, rest...);
        adopt(std::make_shared<SharedRuntimeBuffer>(RuntimeBuffer(halide_type_t(t), data, s.sizes)), s.name);
    }
    explicit Buffer(Type t, VoidPtrElem *data, const std::vector<int> &sizes, const std::string &name = "")
        : Buffer(RuntimeBuffer(halide_type_t(t), data, sizes), name) {}
    explicit Buffer(Type t, VoidPtrElem *data, int d, const halide_dimension_t *shape, const std::string &name = "")
        : Buffer(RuntimeBuffer(halide_type_t(t), data, d, shape), name) {}

    // Zero-dimensional buffers, interleaved images over given memory and
    // buffers shaped as another, as upstream's static makers.
    template <typename U = T, typename = std::enable_if_t<!std::is_void<U>::value>>
    static Buffer make_scalar(const std::string &name = "") {
        return Buffer(RuntimeBuffer::make_scalar(), name);
    }
    static Buffer<> make_scalar(Type t, const std::string &name = "") {
        return Buffer<>(Runtime::Buffer<>::make_scalar(halide_type_t(t)), name);
    }
    template <typename U = T, typename = std::enable_if_t<!std::is_void<U>::value>>
    static Buffer make_scalar(T *data, const std::string &name = "") {
        return Buffer(RuntimeBuffer::make_scalar(data), name);
    }
    template <typename U = T, typename = std::enable_if_t<!std::is_void<U>::value>>
    static Buffer make_interleaved(T *data, int width, int height, int channels, const std::string &name = "") {
        return Buffer(RuntimeBuffer::make_interleaved(data, width, height, channels), name);
    }
    template <typename T2, int D2>
    static Buffer make_with_shape_of(const Buffer<T2, D2> &src, void *(*allocate_fn)(size_t) = nullptr,
                                     void (*deallocate_fn)(void *) = nullptr, const std::string &name = "") {
        return Buffer(RuntimeBuffer::make_with_shape_of(*src.get(), allocate_fn, deallocate_fn), name);
    }
    template <typename T2, int D2, int S2>
    static Buffer make_with_shape_of(const Runtime::Buffer<T2, D2, S2> &src, void *(*allocate_fn)(size_t) = nullptr,
                                     void (*deallocate_fn)(void *) = nullptr, const std::string &name = "") {
        return Buffer(RuntimeBuffer::make_with_shape_of(src, allocate_fn, deallocate_fn), name);
    }
    // The same buffer (shape, elements and name) seen with another
    // (compatible) type, as upstream's: a change of one's shape, such as
    // infer_input_bounds() giving a query buffer its bounds, shows in all.
    template <typename T2, int D2> Buffer(const Buffer<T2, D2> &other) {
        if (other.defined()) {
            user_assert(RuntimeBuffer::can_convert_from(*other.get()))
                << "Cannot convert Buffer '" << other.name() << "' of type " << int(other.type().code()) << ":"
                << other.type().bits() << " to this Buffer type";
            buf_ = other.buf_;
            contents_ = other.contents_;
            name_ = other.name_;
        }
    }

    bool defined() const { return buf_ != nullptr; }
    // The shared object, viewed with this Buffer's type (every
    // Runtime::Buffer instantiation has the same layout but for the
    // in-class shape storage, which is last and largest in the shared one).
    RuntimeBuffer *get() const { return reinterpret_cast<RuntimeBuffer *>(buf_.get()); }
    RuntimeBuffer *operator->() const { return get(); }
    halide_buffer_t *raw_buffer() const { return get()->raw_buffer(); }
    const std::string &name() const { return name_; }
    Type type() const { return Type(get()->type()); }
    int dimensions() const { return get()->dimensions(); }
    auto dim(int i) const { return get()->dim(i); }
    int width() const { return get()->width(); }
    int height() const { return get()->height(); }
    int channels() const { return get()->channels(); }
    int number_of_elements() const { return (int)get()->number_of_elements(); }
    auto data() const { return get()->data(); }

    // The shape and element helpers of Runtime::Buffer, as upstream's
    // Halide::Buffer forwards them (they act on the shared elements).
    int min(int i) const { return get()->dim(i).min(); }
    int extent(int i) const { return get()->dim(i).extent(); }
    int stride(int i) const { return get()->dim(i).stride(); }
    int left() const { return get()->left(); }
    int right() const { return get()->right(); }
    int top() const { return get()->top(); }
    int bottom() const { return get()->bottom(); }
    size_t size_in_bytes() const { return get()->size_in_bytes(); }
    template <typename... Args> void set_min(Args... mins) { get()->set_min(mins...); }
    void set_min(const std::vector<int> &mins) { get()->set_min(mins); }
    void translate(int d, int delta) { get()->translate(d, delta); }
    void translate(const std::vector<int> &deltas) { get()->translate(deltas); }
    template <typename... Args> bool contains(Args... pos) const { return get()->contains(pos...); }
    // Crops, as upstream's: cropped() is a new Buffer over the same
    // elements; crop() narrows this one (and every copy of this handle).
    Buffer cropped(int d, int min, int extent) const { return Buffer(get()->cropped(d, min, extent)); }
    Buffer cropped(const std::vector<std::pair<int, int>> &rect) const { return Buffer(get()->cropped(rect)); }
    void crop(int d, int min, int extent) { get()->crop(d, min, extent); }
    void crop(const std::vector<std::pair<int, int>> &rect) { get()->crop(rect); }
    // The other reshaping views, as new Buffers over the same elements.
    Buffer<T> sliced(int d, int pos) const { return Buffer<T>(get()->sliced(d, pos)); }
    Buffer<T> sliced(int d) const { return Buffer<T>(get()->sliced(d)); }
    Buffer<T> embedded(int d, int pos = 0) const { return Buffer<T>(get()->embedded(d, pos)); }
    Buffer translated(int d, int dx) const { return Buffer(get()->translated(d, dx)); }
    Buffer translated(const std::vector<int> &delta) const { return Buffer(get()->translated(delta)); }
    Buffer transposed(int d1, int d2) const { return Buffer(get()->transposed(d1, d2)); }
    // In place, as upstream's: the shape changes for every copy of this handle.
    void transpose(int d1, int d2) {
        get()->transpose(d1, d2);
        reshaped();
    }
    void transpose(const std::vector<int> &order) {
        get()->transpose(order);
        reshaped();
    }
    void slice(int d, int pos) {
        get()->slice(d, pos);
        reshaped();
    }
    void slice(int d) {
        get()->slice(d);
        reshaped();
    }
    void embed(int d, int pos = 0) {
        get()->embed(d, pos);
        reshaped();
    }
    void add_dimension() {
        get()->add_dimension();
        reshaped();
    }
    // Host memory: allocate() gives the buffer its own for the current shape,
    // deallocate() drops this handle's share; begin()/end() are the lowest
    // and one-past-highest element addresses.
    void allocate(void *(*allocate_fn)(size_t) = nullptr, void (*deallocate_fn)(void *) = nullptr) {
        get()->allocate(allocate_fn, deallocate_fn);
    }
    void deallocate() { get()->deallocate(); }
    auto begin() const { return get()->begin(); }
    auto end() const { return get()->end(); }
    template <typename V> Buffer &fill(V value) {
        get()->fill(value);
        return *this;
    }
    template <typename F> const Buffer &for_each_element(F &&f) const {
        get()->for_each_element(std::forward<F>(f));
        return *this;
    }
    template <typename F, typename... Others> const Buffer &for_each_value(F &&f, Others &&...others) const {
        get()->for_each_value(std::forward<F>(f), (*others.get())...);
        return *this;
    }
    template <typename V> bool all_equal(V value) const { return get()->all_equal(value); }
    // A new Buffer with its own copy of the elements (dense, same mins).
    Buffer copy() const { return Buffer(get()->copy()); }
    template <typename T2, int D2> void copy_from(const Buffer<T2, D2> &other) { get()->copy_from(*other.get()); }
    template <typename T2, int D2 = Dims> Buffer<T2, D2> as() const { return Buffer<T2, D2>(*this); }
    // Channels innermost (stride 1), then x, then y: the layout of
    // interleaved images.
    template <typename U = T, typename = std::enable_if_t<!std::is_void<U>::value>>
    static Buffer make_interleaved(int width, int height, int channels, const std::string &name = "") {
        return Buffer(RuntimeBuffer::make_interleaved(width, height, channels), name);
    }
    static Buffer make_interleaved(Type t, int width, int height, int channels, const std::string &name = "") {
        return Buffer(RuntimeBuffer::make_interleaved(halide_type_t(t), width, height, channels), name);
    }

    // Device state, as upstream's. Buffers live on the host here: the dirty
    // bits and copy_to_host() work as for a buffer that was never on a
    // device; copy_to_device() and device_malloc() throw (no GPU backend).
    bool host_dirty() const { return get()->host_dirty(); }
    bool device_dirty() const { return get()->device_dirty(); }
    void set_host_dirty(bool v = true) { get()->set_host_dirty(v); }
    void set_device_dirty(bool v = true) { get()->set_device_dirty(v); }
    bool has_device_allocation() const { return get()->has_device_allocation(); }
    int copy_to_host(void *ctx = nullptr) { return get()->copy_to_host(ctx); }
    int device_sync(void *ctx = nullptr) { return get()->device_sync(ctx); }
    int device_free(void *ctx = nullptr) { return get()->device_free(ctx); }
    void device_deallocate() { get()->device_deallocate(); }
    int device_wrap_native(const halide_device_interface_t *device_interface, uint64_t handle, void *ctx = nullptr) {
        return get()->device_wrap_native(device_interface, handle, ctx);
    }
    int device_detach_native(void *ctx = nullptr) { return get()->device_detach_native(ctx); }
    int copy_to_device(const Target &t = get_jit_target_from_environment(), JITUserContext * = nullptr) {
        Internal::no_device_for_buffer(name_, "copy_to_device", DeviceAPI::Default_GPU, t);
    }
    int copy_to_device(const DeviceAPI &d, const Target &t = get_jit_target_from_environment(),
                       JITUserContext * = nullptr) {
        Internal::no_device_for_buffer(name_, "copy_to_device", d, t);
    }
    int device_malloc(const Target &t = get_jit_target_from_environment(), JITUserContext * = nullptr) {
        Internal::no_device_for_buffer(name_, "device_malloc", DeviceAPI::Default_GPU, t);
    }
    int device_malloc(const DeviceAPI &d, const Target &t = get_jit_target_from_environment(),
                      JITUserContext * = nullptr) {
        Internal::no_device_for_buffer(name_, "device_malloc", d, t);
    }

    // Element access.
    template <typename... Args, typename = std::enable_if_t<(std::is_convertible<Args, int>::value && ...)>>
    decltype(auto) operator()(Args... pos) const {
        return (*get())(int(pos)...);
    }
    // b(x, y) in an expression: a call to this buffer.
    template <typename... Args,
              typename = std::enable_if_t<!(std::is_convertible<Args, int>::value && ...) && sizeof...(Args) != 0>>
    Expr operator()(const Args &...pos) const {
        return Internal::make_image_call(type(), name_, {Expr(pos)...});
    }
    Expr operator()(const std::vector<Expr> &pos) const { return Internal::make_image_call(type(), name_, pos); }
    // The element at the coordinates pos[0], pos[1], ... (one per dimension;
    // the int * form takes an int array without going to the Expr form).
    decltype(auto) operator()(const int *pos) const { return (*get())(pos); }
    decltype(auto) operator()(int *pos) const { return (*get())((const int *)pos); }

private:
    struct Shape {
        std::vector<int> sizes;
        std::string name;
    };
    template <typename... Args> static Shape shape_of(int first, const Args &...rest) {
        Shape s;
        s.sizes.push_back(first);
        Internal::split_sizes_and_name(s.sizes, s.name, rest...);
        return s;
    }
    void reshaped() {
        if (contents_) {
            Internal::buffer_contents_reshaped(*contents_);
        }
    }
    void adopt(std::shared_ptr<SharedRuntimeBuffer> b, const std::string &name) {
        buf_ = std::move(b);
        contents_ = Internal::make_buffer_contents(name, Type(buf_->type()), buf_->dimensions(), buf_->raw_buffer(),
                                                   std::static_pointer_cast<void>(buf_));
        name_ = Internal::buffer_contents_name(*contents_);
    }

    std::shared_ptr<SharedRuntimeBuffer> buf_;
    std::shared_ptr<Internal::InputBufferContents> contents_;
    std::string name_;
};

} // namespace Halide

#endif
