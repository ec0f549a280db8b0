/*
 * HalideBuffer.h: Halide::Runtime::Buffer, a C++ owner and view of a
 * halide_buffer_t.
 *
 * The class is source-compatible with the common API of upstream Halide's
 * header of the same name, so code written against upstream (tutorials,
 * apps, generated-kernel callers) compiles unchanged against this runtime.
 * It is header-only and needs no symbol from the runtime library: device
 * operations go through the buffer's own device_interface table.
 *
 * A Buffer is either
 *   - owning: it allocated the host memory itself (aligned to 128 bytes) and
 *     shares that allocation, reference counted, with every copy and view
 *     made from it; the memory is freed when the last one goes away; or
 *   - borrowing: it describes memory somebody else owns (a pointer plus
 *     sizes, or an existing halide_buffer_t) and never frees it.
 * Copying a Buffer never copies elements; copy() does.
 *
 * Template parameters:
 *   T                  element type; void (or const void) when only known at
 *                      run time.
 *   Dims               number of dimensions, or AnyDims when it may vary.
 *   InClassDimStorage  how many dimensions fit in the object itself before
 *                      the shape moves to the heap.
 *
 * Coordinates are absolute: element (x, y, ...) lives at
 *   host + bytes * sum_i (x_i - min_i) * stride_i
 * and `host` always points at the element at the mins.
 */
#ifndef HALIDE_RUNTIME_BUFFER_H
#define HALIDE_RUNTIME_BUFFER_H

#include <algorithm>
#include <atomic>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <new>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "HalideRuntime.h"

/* Define to 1 before including this header to assert on every
 * out-of-range coordinate passed to operator(). */
#ifndef HALIDE_RUNTIME_BUFFER_CHECK_INDICES
#define HALIDE_RUNTIME_BUFFER_CHECK_INDICES 0
#endif

namespace Halide {
namespace Runtime {

/* Dims value meaning "the number of dimensions is only known at run time". */
constexpr int AnyDims = -1;

/* Who is responsible for a buffer's device allocation. */
enum struct BufferDeviceOwnership : int {
    Allocated,              // ours: device_free when the last reference goes
    WrappedNative,          // a wrapped native handle: detach_native at the end
    Unmanaged,              // somebody else's: never released by us
    AllocatedDeviceAndHost, // from device_and_host_malloc: device_and_host_free
    Cropped,                // a device-side view of another buffer: device_release_crop
};

/* The header placed at the start of every host allocation a Buffer makes.
 * All Buffers sharing the allocation point at the same header. */
struct AllocationHeader {
    void (*deallocate_fn)(void *);
    std::atomic<int> ref_count;

    explicit AllocationHeader(void (*fn)(void *)) : deallocate_fn(fn), ref_count(1) {}
};

/* Ours: the header of memory a Buffer borrowed from an owner (see
 * Buffer::set_host_owner). The header comes first, so the header's address is
 * the record's. */
struct HostOwnerRecord {
    AllocationHeader header;
    void (*release)(void *context);
    void *context;

    static void release_and_free(void *record) {
        HostOwnerRecord *r = reinterpret_cast<HostOwnerRecord *>(record);
        r->release(r->context);
        std::free(r);
    }
};

/* Shared reference count of a device allocation. Only created when there is
 * a device allocation to track, so it starts at one. */
struct DeviceRefCount {
    std::atomic<int> count{1};
    BufferDeviceOwnership ownership{BufferDeviceOwnership::Allocated};
    /* For Cropped: a heap-held Buffer referring to the buffer the view was
     * taken from, which keeps that device allocation alive, and the function
     * that destroys it. */
    void *parent = nullptr;
    void (*drop_parent)(void *) = nullptr;
};

namespace Internal {

/* True when every type in the pack can serve as an integer coordinate:
 * convertible to int, and not a floating-point type (which would convert
 * silently). */
template <typename... Ts> struct AllInts : std::true_type {};

template <typename T, typename... Ts>
struct AllInts<T, Ts...>
    : std::integral_constant<bool, std::is_convertible<T, int>::value &&
                                       !std::is_floating_point<typename std::decay<T>::type>::value &&
                                       AllInts<Ts...>::value> {};

inline bool any_zero(const int *values, int n) {
    for (int i = 0; i < n; i++) {
        if (values[i] == 0) {
            return true;
        }
    }
    return false;
}

/* Helpers to call a function with the coordinates of a position, either as
 * a `const int *` or as N separate ints. */
template <size_t> using int_for_index = int;

template <typename Fn, typename Seq> struct CallableWithInts;

template <typename Fn, size_t... I>
struct CallableWithInts<Fn, std::index_sequence<I...>> : std::is_invocable<Fn, int_for_index<I>...> {};

/* The most coordinates for_each_element / fill pass as separate ints. */
constexpr int kMaxElementArgs = 16;

/* Number of int arguments `Fn` accepts (the smallest that works), or -1. */
template <typename Fn, int N = 0> constexpr int int_arity() {
    if constexpr (N > kMaxElementArgs) {
        return -1;
    } else if constexpr (CallableWithInts<Fn, std::make_index_sequence<N>>::value) {
        return N;
    } else {
        return int_arity<Fn, N + 1>();
    }
}

template <typename Fn> constexpr bool takes_position_array() {
    return std::is_invocable<Fn, const int *>::value;
}

/* How many coordinates a for_each_element callback wants: -2 for a position
 * array, the int count otherwise (-1 if it accepts neither). */
template <typename Fn> constexpr int element_callback_arity() {
    if constexpr (takes_position_array<Fn>()) {
        return -2;
    } else {
        return int_arity<Fn>();
    }
}

template <typename Fn, size_t... I> decltype(auto) call_with_ints(Fn &f, const int *pos, std::index_sequence<I...>) {
    return f(pos[I]...);
}

/* Calls f with the position, in whichever form it takes. */
template <typename Fn> decltype(auto) call_at(Fn &f, const int *pos) {
    constexpr int arity = element_callback_arity<Fn>();
    static_assert(arity != -1, "The callback must take either a const int * or between 0 and 16 int coordinates");
    if constexpr (arity == -2) {
        return f(pos);
    } else {
        return call_with_ints(f, pos, std::make_index_sequence<(size_t)arity>());
    }
}

/* Lowest and highest element offsets (relative to the element at the mins)
 * that a shape touches. Returns false for a shape with no elements. */
inline bool element_span(const halide_dimension_t *dim, int dims, ptrdiff_t *lo, ptrdiff_t *hi) {
    ptrdiff_t low = 0, high = 0;
    for (int i = 0; i < dims; i++) {
        if (dim[i].extent <= 0) {
            *lo = *hi = 0;
            return false;
        }
        ptrdiff_t reach = (ptrdiff_t)dim[i].stride * (dim[i].extent - 1);
        if (reach < 0) {
            low += reach;
        } else {
            high += reach;
        }
    }
    *lo = low;
    *hi = high;
    return true;
}

/* One loop level for for_each_value over N buffers. */
template <int N> struct ValueLoop {
    int extent;
    ptrdiff_t stride[N];
};

/* Builds the loop nest for for_each_value: checks that every buffer has the
 * same shape as the first, orders loops by the first buffer's stride
 * (smallest innermost), and fuses loops that are contiguous in every buffer.
 * Returns the number of loop levels; loops[0] is the innermost. */
template <int N> int plan_value_loops(const halide_buffer_t *const *buffers, ValueLoop<N> *loops) {
    const int dims = buffers[0]->dimensions;
    for (int i = 0; i < dims; i++) {
        ValueLoop<N> l;
        l.extent = buffers[0]->dim[i].extent;
        for (int j = 0; j < N; j++) {
            assert(buffers[j]->dimensions == dims && "for_each_value: buffers differ in dimensionality");
            assert(buffers[j]->dim[i].extent == l.extent && buffers[j]->dim[i].min == buffers[0]->dim[i].min &&
                   "for_each_value: buffers differ in shape");
            l.stride[j] = buffers[j]->dim[i].stride;
        }
        // Insertion sort on |stride| of the first buffer.
        int k = i;
        auto mag = [](ptrdiff_t s) { return s < 0 ? -s : s; };
        while (k > 0 && mag(loops[k - 1].stride[0]) > mag(l.stride[0])) {
            loops[k] = loops[k - 1];
            k--;
        }
        loops[k] = l;
    }
    int n = dims;
    for (int i = 1; i < n;) {
        bool contiguous = true;
        for (int j = 0; j < N; j++) {
            contiguous = contiguous && loops[i - 1].stride[j] * loops[i - 1].extent == loops[i].stride[j];
        }
        if (contiguous) {
            loops[i - 1].extent *= loops[i].extent;
            for (int k = i; k + 1 < n; k++) {
                loops[k] = loops[k + 1];
            }
            n--;
        } else {
            i++;
        }
    }
    return n;
}

template <int N, typename Fn, typename Tuple, size_t... I>
void run_value_loops(Fn &f, const ValueLoop<N> *loops, int level, Tuple ptrs, std::index_sequence<I...> seq) {
    const ValueLoop<N> &l = loops[level];
    if (level == 0) {
        for (int i = 0; i < l.extent; i++) {
            f(*std::get<I>(ptrs)...);
            ((std::get<I>(ptrs) += l.stride[I]), ...);
        }
    } else {
        for (int i = 0; i < l.extent; i++) {
            run_value_loops<N>(f, loops, level - 1, ptrs, seq);
            ((std::get<I>(ptrs) += l.stride[I]), ...);
        }
    }
}

/* Copies elements of `bytes` bytes each between two buffers of the same
 * shape (dims and extents; the mins are ignored), dimension `d` downwards. */
inline void copy_elements(const halide_buffer_t &src, const halide_buffer_t &dst, int d, const uint8_t *from,
                          uint8_t *to, size_t bytes) {
    if (d < 0) {
        std::memmove(to, from, bytes);
        return;
    }
    const int extent = src.dim[d].extent;
    const ptrdiff_t src_step = (ptrdiff_t)src.dim[d].stride * (ptrdiff_t)bytes;
    const ptrdiff_t dst_step = (ptrdiff_t)dst.dim[d].stride * (ptrdiff_t)bytes;
    if (d == 0 && src_step == (ptrdiff_t)bytes && dst_step == (ptrdiff_t)bytes) {
        std::memmove(to, from, bytes * (size_t)extent);
        return;
    }
    for (int i = 0; i < extent; i++) {
        copy_elements(src, dst, d - 1, from, to, bytes);
        from += src_step;
        to += dst_step;
    }
}

} // namespace Internal

template <typename T = void, int Dims = AnyDims, int InClassDimStorage = (Dims == AnyDims ? 4 : (Dims > 1 ? Dims : 1))>
class Buffer {
    static_assert(Dims == AnyDims || Dims >= 0, "Dims must be AnyDims or a non-negative count");
    static_assert(InClassDimStorage >= 1, "InClassDimStorage must be at least 1");

    template <typename T2, int D2, int S2> friend class Buffer;

    /* The halide_buffer_t this object manages. buf.dim points either at
     * `shape` or at a heap array owned by this object. */
    halide_buffer_t buf = {};

    /* Non-null when this Buffer shares ownership of its host memory. */
    AllocationHeader *alloc = nullptr;

    /* Shared count of the device allocation, if any is tracked. Mutable
     * because copying from a const Buffer may need to create it. */
    mutable DeviceRefCount *dev_ref_count = nullptr;

    /* Last, so that every instantiation has the same layout up to here:
     * Halide::Buffer<T, Dims> views one shared Buffer<void> object as a
     * Buffer<T, Dims> (the shape storage is chosen and freed by comparing
     * buf.dim with `shape`, never by InClassDimStorage alone). */
    halide_dimension_t shape[InClassDimStorage];

    static constexpr bool T_is_void = std::is_void<T>::value;

    template <typename U>
    using add_const_if_T_is_const = typename std::conditional<std::is_const<T>::value, const U, U>::type;

    /* T, with void replaced by (possibly const) uint8_t: the type used for
     * byte arithmetic and for T-independent helpers. */
    using not_void_T = typename std::conditional<T_is_void, add_const_if_T_is_const<uint8_t>, T>::type;
    using not_const_T = typename std::remove_const<T>::type;

    static constexpr size_t kHostAlignment = 128;

public:
    using ElemType = T;

    static constexpr bool has_static_halide_type = !T_is_void;
    static constexpr bool has_static_dimensions = (Dims != AnyDims);

    /* The element type implied by T (uint8 when T is void). */
    static constexpr halide_type_t static_halide_type() {
        return halide_type_of<typename std::remove_cv<not_void_T>::type>();
    }

    static constexpr int static_dimensions() { return Dims; }

private:
    /* ------------------------------------------------------------------
     * Shape storage
     * ---------------------------------------------------------------- */

    void free_shape_storage() {
        if (buf.dim != nullptr && buf.dim != shape) {
            delete[] buf.dim;
        }
        buf.dim = shape;
    }

    /* Points buf.dim at storage for `d` dimensions (the in-class array when
     * it fits) and sets buf.dimensions. Any heap shape must already be freed. */
    void make_shape_storage(int d) {
        assert(d >= 0);
        assert((Dims == AnyDims || d == Dims) && "Dimensionality does not match the Buffer's static Dims");
        buf.dimensions = d;
        buf.dim = d <= InClassDimStorage ? shape : new halide_dimension_t[d];
        for (int i = 0; i < d; i++) {
            buf.dim[i] = halide_dimension_t();
        }
    }

    void copy_shape_from(const halide_buffer_t &other) {
        // `other` may be our own buf (after a struct copy), so read it first.
        const int d = other.dimensions;
        const halide_dimension_t *src = other.dim;
        std::vector<halide_dimension_t> saved;
        if (src == buf.dim && src != nullptr) {
            saved.assign(src, src + d);
            src = saved.data();
        }
        free_shape_storage();
        make_shape_storage(d);
        for (int i = 0; i < d; i++) {
            buf.dim[i] = src[i];
        }
    }

    /* Sets a dense shape: dim i has min 0 and the given extent, with dim 0
     * innermost. */
    void init_dense_shape(halide_type_t t, const int *sizes, int d) {
        buf.type = t;
        free_shape_storage();
        make_shape_storage(d);
        int stride = 1;
        for (int i = 0; i < d; i++) {
            assert(sizes[i] >= 0 && "Buffer extents must not be negative");
            buf.dim[i] = halide_dimension_t(0, sizes[i], stride);
            stride *= sizes[i];
        }
    }

    void init_dense_and_allocate(halide_type_t t, const int *sizes, int d) {
        init_dense_shape(t, sizes, d);
        if (!Internal::any_zero(sizes, d)) {
            check_overflow();
            allocate();
        }
    }

    void init_borrowed(halide_type_t t, const void *data, const int *sizes, int d) {
        init_dense_shape(t, sizes, d);
        buf.host = (uint8_t *)const_cast<void *>(data);
    }

    void init_borrowed_shape(halide_type_t t, const void *data, int d, const halide_dimension_t *dims) {
        buf.type = t;
        free_shape_storage();
        make_shape_storage(d);
        for (int i = 0; i < d; i++) {
            buf.dim[i] = dims[i];
        }
        buf.host = (uint8_t *)const_cast<void *>(data);
    }

    /* ------------------------------------------------------------------
     * Reference counting
     * ---------------------------------------------------------------- */

    void incref() const {
        if (alloc) {
            alloc->ref_count.fetch_add(1, std::memory_order_relaxed);
        }
        if (buf.device) {
            if (!dev_ref_count) {
                // A device allocation nobody tracks yet (a pipeline or a
                // device_malloc put it there): this buffer owns it alone.
                dev_ref_count = new DeviceRefCount;
            }
            dev_ref_count->count.fetch_add(1, std::memory_order_relaxed);
        }
    }

    /* Releases this object's share of the device allocation and forgets it. */
    void release_device() {
        bool last = true;
        if (dev_ref_count) {
            last = dev_ref_count->count.fetch_sub(1, std::memory_order_acq_rel) == 1;
        }
        if (last) {
            const BufferDeviceOwnership ownership =
                dev_ref_count ? dev_ref_count->ownership : BufferDeviceOwnership::Allocated;
            const halide_device_interface_t *iface = buf.device_interface;
            if (buf.device && iface) {
                int result = 0;
                switch (ownership) {
                case BufferDeviceOwnership::Allocated: result = iface->device_free(nullptr, &buf); break;
                case BufferDeviceOwnership::WrappedNative: result = iface->detach_native(nullptr, &buf); break;
                case BufferDeviceOwnership::AllocatedDeviceAndHost:
                    result = iface->device_and_host_free(nullptr, &buf);
                    break;
                case BufferDeviceOwnership::Cropped: result = iface->device_release_crop(nullptr, &buf); break;
                case BufferDeviceOwnership::Unmanaged: break;
                }
                assert(result == 0 && "Releasing a device allocation failed");
                (void)result;
            }
            if (dev_ref_count) {
                if (dev_ref_count->drop_parent) {
                    dev_ref_count->drop_parent(dev_ref_count->parent);
                }
                delete dev_ref_count;
            }
        }
        dev_ref_count = nullptr;
        buf.device = 0;
        buf.device_interface = nullptr;
    }

    /* Drops this object's references to its host memory (unless
     * device_only) and device memory, freeing whatever was last. */
    void decref(bool device_only = false) {
        if (alloc && !device_only) {
            if (alloc->ref_count.fetch_sub(1, std::memory_order_acq_rel) == 1) {
                void (*fn)(void *) = alloc->deallocate_fn;
                alloc->~AllocationHeader();
                fn(alloc);
            }
            alloc = nullptr;
            buf.host = nullptr;
            buf.set_host_dirty(false);
        }
        if (buf.device || dev_ref_count) {
            release_device();
        }
    }

    /* Becomes another reference to other's memory with a copy of its shape.
     * This object must hold no references. */
    template <typename T2, int D2, int S2> void share_from(const Buffer<T2, D2, S2> &other) {
        other.incref();
        const halide_buffer_t &o = other.buf;
        buf.device = o.device;
        buf.device_interface = o.device_interface;
        buf.host = o.host;
        buf.flags = o.flags;
        buf.type = o.type;
        buf.padding = o.padding;
        copy_shape_from(o);
        alloc = other.alloc;
        dev_ref_count = other.dev_ref_count;
    }

    /* Takes over other's references and shape, leaving it empty. This object
     * must hold no references. */
    template <typename T2, int D2, int S2> void take_from(Buffer<T2, D2, S2> &&other) {
        halide_buffer_t &o = other.buf;
        buf.device = o.device;
        buf.device_interface = o.device_interface;
        buf.host = o.host;
        buf.flags = o.flags;
        buf.type = o.type;
        buf.padding = o.padding;
        if (o.dim != other.shape && o.dim != nullptr) {
            // Steal the heap shape.
            assert((Dims == AnyDims || o.dimensions == Dims) && "Dimensionality does not match");
            free_shape_storage();
            buf.dim = o.dim;
            buf.dimensions = o.dimensions;
            o.dim = other.shape;
        } else {
            copy_shape_from(o);
        }
        alloc = other.alloc;
        dev_ref_count = other.dev_ref_count;
        other.alloc = nullptr;
        other.dev_ref_count = nullptr;
        other.make_empty();
    }

    /* Leaves this object with no memory and an all-zero shape. */
    void make_empty() {
        buf.device = 0;
        buf.device_interface = nullptr;
        buf.host = nullptr;
        buf.flags = 0;
        free_shape_storage();
        make_shape_storage(Dims == AnyDims ? 0 : Dims);
    }

    /* ------------------------------------------------------------------
     * View helpers that only touch the host side
     * ---------------------------------------------------------------- */

    void crop_host(int d, int min, int extent) {
        assert(d >= 0 && d < dimensions());
        assert(extent >= 0);
        assert(min >= buf.dim[d].min && min + extent - 1 <= buf.dim[d].min + buf.dim[d].extent - 1 &&
               "crop: the new region must lie inside the old one");
        const ptrdiff_t shift = (ptrdiff_t)(min - buf.dim[d].min) * buf.dim[d].stride;
        if (buf.host) {
            buf.host += shift * type().bytes();
        }
        buf.dim[d].min = min;
        buf.dim[d].extent = extent;
    }

    void slice_host(int d, int pos) {
        static_assert(Dims == AnyDims, "slice() changes the dimensionality; use sliced() on a static-Dims Buffer");
        assert(d >= 0 && d < dimensions());
        assert(pos >= buf.dim[d].min && pos < buf.dim[d].min + buf.dim[d].extent && "slice position out of range");
        const ptrdiff_t shift = (ptrdiff_t)(pos - buf.dim[d].min) * buf.dim[d].stride;
        if (buf.host) {
            buf.host += shift * type().bytes();
        }
        for (int i = d; i + 1 < buf.dimensions; i++) {
            buf.dim[i] = buf.dim[i + 1];
        }
        buf.dimensions--;
        buf.dim[buf.dimensions] = halide_dimension_t();
    }

    /* `view` was copied from *this and so shares its device allocation.
     * Swap that for a device-side view made by `make_view` (device_crop or
     * device_slice), which stays valid while a copy of *this lives. */
    template <typename View, typename MakeView> void attach_device_view(View &view, MakeView &&make_view) const {
        view.decref(true);
        if (make_view(&view.buf) == 0) {
            auto *rc = new DeviceRefCount;
            rc->ownership = BufferDeviceOwnership::Cropped;
            rc->parent = new Buffer<T, Dims, InClassDimStorage>(*this);
            rc->drop_parent = [](void *p) { delete static_cast<Buffer<T, Dims, InClassDimStorage> *>(p); };
            view.dev_ref_count = rc;
        } else {
            view.buf.device = 0;
            view.buf.device_interface = nullptr;
        }
    }

    template <typename View> void complete_device_crop(View &view) const {
        const halide_device_interface_t *iface = buf.device_interface;
        attach_device_view(view, [&](halide_buffer_t *dst) { return iface->device_crop(nullptr, &buf, dst); });
    }

    template <typename View> void complete_device_slice(View &view, int d, int pos) const {
        const halide_device_interface_t *iface = buf.device_interface;
        attach_device_view(view, [&](halide_buffer_t *dst) { return iface->device_slice(nullptr, &buf, d, pos, dst); });
    }

    /* ------------------------------------------------------------------
     * Addressing
     * ---------------------------------------------------------------- */

    HALIDE_ALWAYS_INLINE ptrdiff_t offset_of(int) const { return 0; }

    template <typename... Args> HALIDE_ALWAYS_INLINE ptrdiff_t offset_of(int d, int first, Args... rest) const {
#if HALIDE_RUNTIME_BUFFER_CHECK_INDICES
        assert(first >= buf.dim[d].min && first < buf.dim[d].min + buf.dim[d].extent);
#endif
        return (ptrdiff_t)buf.dim[d].stride * (first - buf.dim[d].min) + offset_of(d + 1, rest...);
    }

    HALIDE_ALWAYS_INLINE ptrdiff_t offset_of_pos(const int *pos) const {
        ptrdiff_t offset = 0;
        for (int i = 0; i < dimensions(); i++) {
#if HALIDE_RUNTIME_BUFFER_CHECK_INDICES
            assert(pos[i] >= buf.dim[i].min && pos[i] < buf.dim[i].min + buf.dim[i].extent);
#endif
            offset += (ptrdiff_t)buf.dim[i].stride * (pos[i] - buf.dim[i].min);
        }
        return offset;
    }

    template <typename... Args> HALIDE_ALWAYS_INLINE not_void_T *address_of(Args... args) const {
        static_assert(Dims == AnyDims || (int)sizeof...(Args) <= Dims, "Too many coordinates for this Buffer");
        if constexpr (T_is_void) {
            return (not_void_T *)buf.host + offset_of(0, args...) * type().bytes();
        } else {
            return (not_void_T *)buf.host + offset_of(0, args...);
        }
    }

    HALIDE_ALWAYS_INLINE not_void_T *address_of_pos(const int *pos) const {
        if constexpr (T_is_void) {
            return (not_void_T *)buf.host + offset_of_pos(pos) * type().bytes();
        } else {
            return (not_void_T *)buf.host + offset_of_pos(pos);
        }
    }

    /* Dense shape for `dims` dimensions laid out so that dimension order[0]
     * is innermost, order[1] next, and so on; mins and extents from src. */
    static std::vector<halide_dimension_t> dense_shape_in_order(const halide_dimension_t *src, int dims,
                                                                const std::vector<int> &order) {
        std::vector<halide_dimension_t> out(dims);
        int stride = 1;
        for (int k = 0; k < dims; k++) {
            const int i = order[k];
            out[i] = halide_dimension_t(src[i].min, src[i].extent, stride);
            stride *= src[i].extent;
        }
        return out;
    }

    /* Walks every position of the buffer (last dimension outermost) and
     * calls visit(pos). */
    // Visits every position of the first `iterated` dimensions (all when
    // negative; the others are not iterated over), dimension 0 fastest. The
    // position array has at least `width` entries, zero past the iterated ones.
    template <typename Visit> void visit_positions(Visit &&visit, int iterated = -1, int width = 0) const {
        const int d = iterated < 0 || iterated > dimensions() ? dimensions() : iterated;
        std::vector<int> pos(std::max(std::max(d, width), 1), 0);
        for (int i = 0; i < d; i++) {
            if (buf.dim[i].extent <= 0) {
                return;
            }
            pos[i] = buf.dim[i].min;
        }
        for (;;) {
            visit((const int *)pos.data());
            int i = 0;
            for (; i < d; i++) {
                if (++pos[i] < buf.dim[i].min + buf.dim[i].extent) {
                    break;
                }
                pos[i] = buf.dim[i].min;
            }
            if (i == d) {
                return;
            }
        }
    }

    template <typename Fn, typename... Others> void for_each_value_impl(Fn &&f, Others &&...others) const {
        constexpr int N = 1 + (int)sizeof...(Others);
        const halide_buffer_t *buffers[N] = {&buf, others.raw_buffer()...};
        for (int i = 0; i < N; i++) {
            assert(buffers[i]->host && "for_each_value on a buffer with no host memory");
            assert(!buffers[i]->device_dirty() && "for_each_value on a device-dirty buffer: call copy_to_host first");
        }
        auto ptrs = std::make_tuple(data(), others.data()...);
        if (dimensions() == 0) {
            std::apply([&](auto... p) { f(*p...); }, ptrs);
            return;
        }
        std::vector<Internal::ValueLoop<N>> loops((size_t)dimensions());
        const int levels = Internal::plan_value_loops<N>(buffers, loops.data());
        for (int i = 0; i < levels; i++) {
            if (loops[i].extent <= 0) {
                return;
            }
        }
        Internal::run_value_loops<N>(f, loops.data(), levels - 1, ptrs, std::make_index_sequence<(size_t)N>());
    }

    template <typename Fn> void for_each_element_impl(Fn &&f) const {
        constexpr int arity = Internal::element_callback_arity<typename std::remove_reference<Fn>::type>();
        static_assert(arity != -1, "for_each_element needs a callable taking a const int * or one int per dimension");
        // As upstream's: a callback of fewer coordinates than dimensions
        // iterates over the first ones only; one of more gets zeros for the rest.
        const int iterated = arity >= 0 ? arity : -1;
        visit_positions([&](const int *pos) { Internal::call_at(f, pos); }, iterated, iterated);
    }

public:
    /* ------------------------------------------------------------------
     * Dimensions
     * ---------------------------------------------------------------- */

    /* Read-only view of one dimension. Iterating over it yields every
     * coordinate from min() to max(). */
    class Dimension {
        const halide_dimension_t &d;

    public:
        explicit Dimension(const halide_dimension_t &dim) : d(dim) {}

        HALIDE_ALWAYS_INLINE int min() const { return d.min; }
        HALIDE_ALWAYS_INLINE int extent() const { return d.extent; }
        HALIDE_ALWAYS_INLINE int stride() const { return d.stride; }
        HALIDE_ALWAYS_INLINE int max() const { return d.min + d.extent - 1; }

        struct iterator {
            int val;
            int operator*() const { return val; }
            bool operator!=(const iterator &other) const { return val != other.val; }
            bool operator==(const iterator &other) const { return val == other.val; }
            iterator &operator++() {
                val++;
                return *this;
            }
        };

        HALIDE_ALWAYS_INLINE iterator begin() const { return {min()}; }
        HALIDE_ALWAYS_INLINE iterator end() const { return {min() + extent()}; }
    };

    HALIDE_ALWAYS_INLINE Dimension dim(int i) const {
        assert(i >= 0 && i < dimensions());
        return Dimension(buf.dim[i]);
    }

    int min(int i) const {
        return dim(i).min();
    }
    int extent(int i) const {
        return dim(i).extent();
    }
    int stride(int i) const {
        return dim(i).stride();
    }

    HALIDE_ALWAYS_INLINE int dimensions() const {
        if constexpr (has_static_dimensions) {
            return Dims;
        } else {
            return buf.dimensions;
        }
    }

    halide_type_t type() const {
        return buf.type;
    }

    /* Product of the extents. */
    size_t number_of_elements() const {
        return buf.number_of_elements();
    }

    /* Bytes between the lowest and one past the highest address touched. */
    size_t size_in_bytes() const {
        ptrdiff_t lo, hi;
        if (!Internal::element_span(buf.dim, buf.dimensions, &lo, &hi)) {
            return 0;
        }
        return (size_t)(hi - lo + 1) * (size_t)type().bytes();
    }

    /* Lowest and one-past-highest element addresses. */
    T *begin() const {
        assert(buf.host && "begin() on a Buffer with no host memory");
        return (T *)buf.begin();
    }
    T *end() const {
        assert(buf.host && "end() on a Buffer with no host memory");
        return (T *)buf.end();
    }

    /* Address of the element at the mins. */
    T *data() const {
        return (T *)buf.host;
    }

    bool owns_host_memory() const {
        return alloc != nullptr;
    }

    halide_buffer_t *raw_buffer() {
        return &buf;
    }
    const halide_buffer_t *raw_buffer() const {
        return &buf;
    }

    /* Lets a Buffer be passed straight to an AOT kernel. */
    operator halide_buffer_t *() {
        return &buf;
    }

    /* Image-style names for the first three dimensions. */
    int width() const {
        return dimensions() > 0 ? dim(0).extent() : 1;
    }
    int height() const {
        return dimensions() > 1 ? dim(1).extent() : 1;
    }
    int channels() const {
        return dimensions() > 2 ? dim(2).extent() : 1;
    }
    int left() const {
        return dim(0).min();
    }
    int right() const {
        return dim(0).max();
    }
    int top() const {
        return dim(1).min();
    }
    int bottom() const {
        return dim(1).max();
    }

    bool is_bounds_query() const {
        return buf.is_bounds_query();
    }

    /* ------------------------------------------------------------------
     * Conversion rules between Buffer types
     * ---------------------------------------------------------------- */

    template <typename T2, int D2, int S2> static constexpr void static_assert_can_convert_from() {
        static_assert(!std::is_const<T2>::value || std::is_const<T>::value,
                      "Cannot convert a Buffer of const elements to a Buffer of non-const elements");
        static_assert(std::is_same<typename std::remove_const<T>::type, typename std::remove_const<T2>::type>::value ||
                          T_is_void || Buffer<T2, D2, S2>::T_is_void,
                      "Buffers of different element types convert only through void");
        static_assert(Dims == AnyDims || D2 == AnyDims || Dims == D2,
                      "Buffers of different static dimensionality cannot be converted");
    }

    /* Whether `other` may be viewed as this Buffer type (checks the run-time
     * type and dimensionality where they are not static). */
    template <typename T2, int D2, int S2> static bool can_convert_from(const Buffer<T2, D2, S2> &other) {
        static_assert_can_convert_from<T2, D2, S2>();
        if (Buffer<T2, D2, S2>::T_is_void && !T_is_void && other.type() != static_halide_type()) {
            return false;
        }
        if (Dims != AnyDims && other.dimensions() != Dims) {
            return false;
        }
        return true;
    }

    template <typename T2, int D2, int S2> static void assert_can_convert_from(const Buffer<T2, D2, S2> &other) {
        (void)other;
        assert(can_convert_from(other) && "Buffer conversion with mismatched type or dimensions");
    }

    /* ------------------------------------------------------------------
     * Construction
     * ---------------------------------------------------------------- */

    /* An empty buffer: no memory, zero extents. */
    Buffer() {
        buf.type = static_halide_type();
        buf.dim = shape;
        make_shape_storage(Dims == AnyDims ? 0 : Dims);
    }

    /* Wraps an existing halide_buffer_t (copying its shape). The host memory
     * is borrowed; `ownership` says what happens to a device allocation. */
    explicit Buffer(const halide_buffer_t &b, BufferDeviceOwnership ownership = BufferDeviceOwnership::Unmanaged) {
        assert((T_is_void || b.type == static_halide_type()) && "halide_buffer_t has the wrong type");
        buf.dim = shape;
        buf.device = b.device;
        buf.device_interface = b.device_interface;
        buf.host = b.host;
        buf.flags = b.flags;
        buf.type = b.type;
        buf.padding = b.padding;
        copy_shape_from(b);
        if (b.device) {
            dev_ref_count = new DeviceRefCount;
            dev_ref_count->ownership = ownership;
        }
    }

    /* Allocates a dense buffer of the given type and extents. */
    template <typename... Args, typename = typename std::enable_if<Internal::AllInts<Args...>::value>::type>
    Buffer(halide_type_t t, int first, Args... rest) {
        static_assert(Dims == AnyDims || Dims == 1 + (int)sizeof...(rest), "Wrong number of extents for Dims");
        assert((T_is_void || t == static_halide_type()) && "Type does not match the Buffer's element type");
        const int sizes[] = {first, (int)rest...};
        buf.dim = shape;
        init_dense_and_allocate(t, sizes, 1 + (int)sizeof...(rest));
    }

    /* Allocates a dense one-dimensional buffer. */
    explicit Buffer(int first) {
        static_assert(!T_is_void, "A Buffer<void> needs a halide_type_t as its first argument");
        static_assert(Dims == AnyDims || Dims == 1, "Wrong number of extents for Dims");
        buf.dim = shape;
        init_dense_and_allocate(static_halide_type(), &first, 1);
    }

    /* Allocates a dense buffer: Buffer<float> im(width, height, channels). */
    template <typename... Args, typename = typename std::enable_if<Internal::AllInts<Args...>::value>::type>
    Buffer(int first, int second, Args... rest) {
        static_assert(!T_is_void, "A Buffer<void> needs a halide_type_t as its first argument");
        static_assert(Dims == AnyDims || Dims == 2 + (int)sizeof...(rest), "Wrong number of extents for Dims");
        const int sizes[] = {first, second, (int)rest...};
        buf.dim = shape;
        init_dense_and_allocate(static_halide_type(), sizes, 2 + (int)sizeof...(rest));
    }

    Buffer(halide_type_t t, const std::vector<int> &sizes) {
        assert((T_is_void || t == static_halide_type()) && "Type does not match the Buffer's element type");
        buf.dim = shape;
        init_dense_and_allocate(t, sizes.data(), (int)sizes.size());
    }

    explicit Buffer(const std::vector<int> &sizes) : Buffer(static_halide_type(), sizes) {}

    /* Allocates with a chosen memory order: storage_order[0] is the index of
     * the innermost dimension, storage_order[1] the next, and so on. For an
     * interleaved RGB image pass sizes {w, h, 3} and order {2, 0, 1}. */
    Buffer(halide_type_t t, const std::vector<int> &sizes, const std::vector<int> &storage_order)
        : Buffer(t, reorder(sizes, storage_order)) {
        transpose(storage_order);
    }

    Buffer(const std::vector<int> &sizes, const std::vector<int> &storage_order)
        : Buffer(static_halide_type(), sizes, storage_order) {}

    /* Borrows a C array; dimension 0 is the last (fastest-varying) index:
     * int a[4][3] gives a 3 x 4 buffer. */
    template <typename Array, size_t N> explicit Buffer(Array (&vals)[N]) {
        using ArrayType = Array[N];
        using Elem = typename std::remove_all_extents<ArrayType>::type;
        constexpr int rank = (int)std::rank<ArrayType>::value;
        static_assert(Dims == AnyDims || Dims == rank, "Array rank does not match Dims");
        const halide_type_t t = halide_type_of<typename std::remove_cv<Elem>::type>();
        assert((T_is_void || t == static_halide_type()) && "Array element type does not match");
        int sizes[rank];
        fill_array_extents<ArrayType>(sizes, std::make_index_sequence<(size_t)rank>());
        buf.dim = shape;
        init_borrowed(t, (const void *)&vals, sizes, rank);
    }

    /* Borrows memory of a run-time type with dense extents. */
    template <typename... Args, typename = typename std::enable_if<Internal::AllInts<Args...>::value>::type>
    explicit Buffer(halide_type_t t, add_const_if_T_is_const<void> *data, int first, Args &&...rest) {
        static_assert(Dims == AnyDims || Dims == 1 + (int)sizeof...(rest), "Wrong number of extents for Dims");
        assert((T_is_void || t == static_halide_type()) && "Type does not match the Buffer's element type");
        const int sizes[] = {first, (int)rest...};
        buf.dim = shape;
        init_borrowed(t, data, sizes, 1 + (int)sizeof...(rest));
    }

    /* Borrows memory with dense extents: Buffer<float> im(ptr, w, h). */
    template <typename... Args, typename = typename std::enable_if<Internal::AllInts<Args...>::value>::type>
    explicit Buffer(T *data, int first, Args &&...rest) {
        static_assert(Dims == AnyDims || Dims == 1 + (int)sizeof...(rest), "Wrong number of extents for Dims");
        const int sizes[] = {first, (int)rest...};
        buf.dim = shape;
        init_borrowed(static_halide_type(), data, sizes, 1 + (int)sizeof...(rest));
    }

    explicit Buffer(T *data, const std::vector<int> &sizes) {
        buf.dim = shape;
        init_borrowed(static_halide_type(), data, sizes.data(), (int)sizes.size());
    }

    explicit Buffer(halide_type_t t, add_const_if_T_is_const<void> *data, const std::vector<int> &sizes) {
        assert((T_is_void || t == static_halide_type()) && "Type does not match the Buffer's element type");
        buf.dim = shape;
        init_borrowed(t, data, sizes.data(), (int)sizes.size());
    }

    /* Borrows memory with an arbitrary shape (mins and strides given). */
    explicit Buffer(halide_type_t t, add_const_if_T_is_const<void> *data, int d, const halide_dimension_t *dims) {
        assert((T_is_void || t == static_halide_type()) && "Type does not match the Buffer's element type");
        buf.dim = shape;
        init_borrowed_shape(t, data, d, dims);
    }

    explicit Buffer(halide_type_t t, add_const_if_T_is_const<void> *data, const std::vector<halide_dimension_t> &dims)
        : Buffer(t, data, (int)dims.size(), dims.data()) {}

    explicit Buffer(T *data, int d, const halide_dimension_t *dims) {
        buf.dim = shape;
        init_borrowed_shape(static_halide_type(), data, d, dims);
    }

    explicit Buffer(T *data, const std::vector<halide_dimension_t> &dims)
        : Buffer(data, (int)dims.size(), dims.data()) {}

    /* Copies share the memory (and the device allocation). */
    Buffer(const Buffer &other) {
        buf.dim = shape;
        share_from(other);
    }

    /* Implicit conversion from another Buffer type; checked at run time
     * when either side's type or dimensionality is dynamic. */
    template <typename T2, int D2, int S2> Buffer(const Buffer<T2, D2, S2> &other) {
        assert_can_convert_from(other);
        buf.dim = shape;
        share_from(other);
    }

    Buffer(Buffer &&other) noexcept {
        buf.dim = shape;
        take_from(std::move(other));
    }

    template <typename T2, int D2, int S2> Buffer(Buffer<T2, D2, S2> &&other) {
        assert_can_convert_from(other);
        buf.dim = shape;
        take_from(std::move(other));
    }

    Buffer &operator=(const Buffer &other) {
        if (this != &other) {
            decref();
            share_from(other);
        }
        return *this;
    }

    template <typename T2, int D2, int S2> Buffer &operator=(const Buffer<T2, D2, S2> &other) {
        assert_can_convert_from(other);
        if ((const void *)this != (const void *)&other) {
            decref();
            share_from(other);
        }
        return *this;
    }

    Buffer &operator=(Buffer &&other) noexcept {
        if (this != &other) {
            decref();
            take_from(std::move(other));
        }
        return *this;
    }

    template <typename T2, int D2, int S2> Buffer &operator=(Buffer<T2, D2, S2> &&other) {
        assert_can_convert_from(other);
        if ((const void *)this != (const void *)&other) {
            decref();
            take_from(std::move(other));
        }
        return *this;
    }

    ~Buffer() {
        decref();
        free_shape_storage();
    }

    /* Back to the state of a default-constructed Buffer. */
    void reset() {
        *this = Buffer();
    }

    /* Asserts that the memory the shape spans can be addressed. */
    void check_overflow() {
        uint64_t span = 1; // elements from the lowest to the highest address
        bool overflow = false;
        for (int i = 0; i < dimensions(); i++) {
            const int64_t s = buf.dim[i].stride;
            const uint64_t magnitude = (uint64_t)(s < 0 ? -s : s);
            const uint64_t steps = (uint64_t)(buf.dim[i].extent > 0 ? buf.dim[i].extent - 1 : 0);
            uint64_t reach = 0;
            overflow = overflow || __builtin_mul_overflow(magnitude, steps, &reach);
            overflow = overflow || __builtin_add_overflow(span, reach, &span);
        }
        uint64_t bytes = 0;
        overflow = overflow || __builtin_mul_overflow(span, (uint64_t)type().bytes(), &bytes);
        assert(!overflow && bytes <= (uint64_t)std::numeric_limits<ptrdiff_t>::max() &&
               "Buffer is too large to address");
        (void)overflow;
        (void)bytes;
    }

    /* Allocates host memory for the current shape, aligned to 128 bytes,
     * dropping any memory held before. Uses malloc/free unless given other
     * functions. */
    void allocate(void *(*allocate_fn)(size_t) = nullptr, void (*deallocate_fn)(void *) = nullptr) {
        if (!allocate_fn) {
            allocate_fn = std::malloc;
        }
        if (!deallocate_fn) {
            deallocate_fn = std::free;
        }
        deallocate();
        ptrdiff_t lo = 0, hi = 0;
        const bool has_elements = Internal::element_span(buf.dim, buf.dimensions, &lo, &hi);
        const size_t bytes = has_elements ? (size_t)(hi - lo + 1) * (size_t)type().bytes() : 0;
        const size_t rounded = (bytes + kHostAlignment - 1) & ~(kHostAlignment - 1);
        // [header][padding to the alignment][elements]
        void *storage = allocate_fn(sizeof(AllocationHeader) + kHostAlignment - 1 + rounded);
        assert(storage && "Buffer allocation failed");
        if (!storage) {
            return;
        }
        alloc = new (storage) AllocationHeader(deallocate_fn);
        const uintptr_t after_header = (uintptr_t)storage + sizeof(AllocationHeader);
        uint8_t *base = (uint8_t *)((after_header + kHostAlignment - 1) & ~(uintptr_t)(kHostAlignment - 1));
        // host addresses the element at the mins, which sits above the
        // lowest address when some stride is negative.
        buf.host = base + (-lo) * type().bytes();
    }

    /* Drops this Buffer's reference to owned host and device memory; the
     * shape is kept. Borrowed memory is left alone. */
    void deallocate() {
        decref();
    }

    /* Ours, not upstream's: ties the borrowed host memory this Buffer views
     * to its owner. `release(context)` runs once, when the last Buffer sharing
     * the memory (this one, its copies, crops and slices) lets go of it: a
     * binding uses it to keep a NumPy array alive for as long as any C++ copy
     * of a Buffer over it lives. Returns false, changing nothing, if the
     * Buffer already owns its memory or the record can't be allocated. */
    bool set_host_owner(void (*release)(void *context), void *context) {
        if (alloc || !release) {
            return false;
        }
        void *storage = std::malloc(sizeof(HostOwnerRecord));
        if (!storage) {
            return false;
        }
        HostOwnerRecord *record = static_cast<HostOwnerRecord *>(storage);
        new (&record->header) AllocationHeader(&HostOwnerRecord::release_and_free);
        record->release = release;
        record->context = context;
        alloc = &record->header;
        return true;
    }

    /* Drops only the reference to the device allocation. */
    void device_deallocate() {
        decref(true);
    }

    /* ------------------------------------------------------------------
     * Static constructors
     * ---------------------------------------------------------------- */

    /* A width x height x channels buffer whose channels are adjacent in
     * memory (stride 1 in dimension 2, stride channels in dimension 0). */
    static Buffer<add_const_if_T_is_const<void>, Dims, InClassDimStorage> make_interleaved(halide_type_t t, int width,
                                                                                           int height, int channels) {
        static_assert(Dims == AnyDims || Dims == 3, "make_interleaved needs a 3-dimensional Buffer");
        Buffer<add_const_if_T_is_const<void>, Dims, InClassDimStorage> im(t, channels, width, height);
        im.transpose(0, 1); // (width, channels, height)
        im.transpose(1, 2); // (width, height, channels)
        return im;
    }

    static Buffer make_interleaved(int width, int height, int channels) {
        return Buffer(make_interleaved(static_halide_type(), width, height, channels));
    }

    static Buffer<add_const_if_T_is_const<void>, Dims, InClassDimStorage>
    make_interleaved(halide_type_t t, T *data, int width, int height, int channels) {
        static_assert(Dims == AnyDims || Dims == 3, "make_interleaved needs a 3-dimensional Buffer");
        Buffer<add_const_if_T_is_const<void>, Dims, InClassDimStorage> im(t, data, channels, width, height);
        im.transpose(0, 1);
        im.transpose(1, 2);
        return im;
    }

    static Buffer make_interleaved(T *data, int width, int height, int channels) {
        return Buffer(make_interleaved(static_halide_type(), data, width, height, channels));
    }

    /* A zero-dimensional buffer holding one element. */
    static Buffer<add_const_if_T_is_const<void>, Dims, InClassDimStorage> make_scalar(halide_type_t t) {
        static_assert(Dims == AnyDims || Dims == 0, "make_scalar needs a 0-dimensional Buffer");
        Buffer<add_const_if_T_is_const<void>, AnyDims, InClassDimStorage> im(t, 1);
        im.slice(0, 0);
        return Buffer<add_const_if_T_is_const<void>, Dims, InClassDimStorage>(std::move(im));
    }

    static Buffer make_scalar() {
        static_assert(!T_is_void, "make_scalar() without a type needs a non-void T");
        return Buffer(make_scalar(static_halide_type()));
    }

    static Buffer make_scalar(T *data) {
        static_assert(Dims == AnyDims || Dims == 0, "make_scalar needs a 0-dimensional Buffer");
        Buffer<T, AnyDims, InClassDimStorage> im(data, 1);
        im.slice(0, 0);
        return Buffer(std::move(im));
    }

    /* A new dense buffer with src's mins and extents, whose dimensions are
     * ordered in memory the same way src's are (so an interleaved source
     * gives an interleaved result). */
    template <typename T2, int D2, int S2>
    static Buffer make_with_shape_of(Buffer<T2, D2, S2> src, void *(*allocate_fn)(size_t) = nullptr,
                                     void (*deallocate_fn)(void *) = nullptr) {
        static_assert(Dims == AnyDims || D2 == AnyDims || Dims == D2, "Dimensionality mismatch");
        const halide_type_t t = T_is_void ? src.type() : static_halide_type();
        const int dims = src.dimensions();
        const halide_dimension_t *sd = src.raw_buffer()->dim;
        std::vector<int> order(dims);
        for (int i = 0; i < dims; i++) {
            order[i] = i;
        }
        std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
            const int64_t sa = sd[a].stride < 0 ? -(int64_t)sd[a].stride : sd[a].stride;
            const int64_t sb = sd[b].stride < 0 ? -(int64_t)sd[b].stride : sd[b].stride;
            return sa < sb;
        });
        const std::vector<halide_dimension_t> dense = dense_shape_in_order(sd, dims, order);
        Buffer dst(t, nullptr, dims, dense.data());
        dst.allocate(allocate_fn, deallocate_fn);
        return dst;
    }

    /* ------------------------------------------------------------------
     * Type views
     * ---------------------------------------------------------------- */

    /* This Buffer seen as another element type / dimensionality (no copy).
     * Checked at run time where T or Dims is dynamic. */
    template <typename T2, int D2 = Dims> HALIDE_ALWAYS_INLINE Buffer<T2, D2, InClassDimStorage> &as() & {
        Buffer<T2, D2, InClassDimStorage>::assert_can_convert_from(*this);
        return *reinterpret_cast<Buffer<T2, D2, InClassDimStorage> *>(this);
    }

    template <typename T2, int D2 = Dims> HALIDE_ALWAYS_INLINE const Buffer<T2, D2, InClassDimStorage> &as() const & {
        Buffer<T2, D2, InClassDimStorage>::assert_can_convert_from(*this);
        return *reinterpret_cast<const Buffer<T2, D2, InClassDimStorage> *>(this);
    }

    template <typename T2, int D2 = Dims> Buffer<T2, D2, InClassDimStorage> as() && {
        return Buffer<T2, D2, InClassDimStorage>(std::move(*this));
    }

    Buffer<typename std::add_const<T>::type, Dims, InClassDimStorage> &as_const() & {
        return as<typename std::add_const<T>::type, Dims>();
    }
    const Buffer<typename std::add_const<T>::type, Dims, InClassDimStorage> &as_const() const & {
        return as<typename std::add_const<T>::type, Dims>();
    }
    Buffer<typename std::add_const<T>::type, Dims, InClassDimStorage> as_const() && {
        return std::move(*this).template as<typename std::add_const<T>::type, Dims>();
    }

    /* ------------------------------------------------------------------
     * Copies of the data
     * ---------------------------------------------------------------- */

    /* A new buffer with the same shape and memory order, holding a copy of
     * the elements. */
    Buffer<not_const_T, Dims, InClassDimStorage> copy(void *(*allocate_fn)(size_t) = nullptr,
                                                      void (*deallocate_fn)(void *) = nullptr) const {
        Buffer<not_const_T, Dims, InClassDimStorage> dst =
            Buffer<not_const_T, Dims, InClassDimStorage>::make_with_shape_of(*this, allocate_fn, deallocate_fn);
        dst.copy_from(*this);
        return dst;
    }

    /* A copy of a 3-dimensional buffer with dimension 2 innermost. */
    Buffer<not_const_T, Dims, InClassDimStorage> copy_to_interleaved(void *(*allocate_fn)(size_t) = nullptr,
                                                                     void (*deallocate_fn)(void *) = nullptr) const {
        static_assert(Dims == AnyDims || Dims == 3, "copy_to_interleaved needs a 3-dimensional Buffer");
        assert(dimensions() == 3);
        return copy_in_order({2, 0, 1}, allocate_fn, deallocate_fn);
    }

    /* A copy with dimension 0 innermost, then 1, and so on. */
    Buffer<not_const_T, Dims, InClassDimStorage> copy_to_planar(void *(*allocate_fn)(size_t) = nullptr,
                                                                void (*deallocate_fn)(void *) = nullptr) const {
        std::vector<int> order(dimensions());
        for (int i = 0; i < dimensions(); i++) {
            order[i] = i;
        }
        return copy_in_order(order, allocate_fn, deallocate_fn);
    }

    /* Another reference to the same memory. */
    Buffer alias() const {
        return *this;
    }

    /* Copies the elements where this buffer and src overlap (in absolute
     * coordinates); the rest of this buffer is untouched. */
    template <typename T2, int D2, int S2> void copy_from(Buffer<T2, D2, S2> src) {
        static_assert(!std::is_const<T>::value, "copy_from into a Buffer of const elements");
        static_assert(std::is_same<typename std::remove_const<T>::type, typename std::remove_const<T2>::type>::value ||
                          T_is_void || Buffer<T2, D2, S2>::T_is_void,
                      "copy_from between different element types");
        static_assert(Dims == AnyDims || D2 == AnyDims || Dims == D2, "copy_from between different dimensionality");
        assert(!device_dirty() && "copy_from into a device-dirty buffer");
        assert(!src.device_dirty() && "copy_from out of a device-dirty buffer");
        assert(src.dimensions() == dimensions() && "copy_from between different dimensionality");
        assert(src.type() == type() && "copy_from between different element types");

        Buffer<T, AnyDims, InClassDimStorage> dst(*this);
        Buffer<T2, AnyDims, S2> from(src);
        const int d = dimensions();
        for (int i = 0; i < d; i++) {
            const int lo = std::max(dst.buf.dim[i].min, from.buf.dim[i].min);
            const int hi =
                std::min(dst.buf.dim[i].min + dst.buf.dim[i].extent, from.buf.dim[i].min + from.buf.dim[i].extent) - 1;
            if (hi < lo) {
                return;
            }
            dst.crop_host(i, lo, hi - lo + 1);
            from.crop_host(i, lo, hi - lo + 1);
        }
        assert(dst.buf.host && from.buf.host && "copy_from needs host memory on both sides");
        Internal::copy_elements(from.buf, dst.buf, d - 1, from.buf.host, dst.buf.host, (size_t)type().bytes());
        set_host_dirty();
    }

    /* ------------------------------------------------------------------
     * Views: crop, translate, transpose, slice, embed
     * ---------------------------------------------------------------- */

    /* The sub-region [min, min + extent) of dimension d. */
    Buffer cropped(int d, int min, int extent) const {
        Buffer im(*this);
        im.crop_host(d, min, extent);
        if (buf.device_interface) {
            complete_device_crop(im);
        }
        return im;
    }

    void crop(int d, int min, int extent) {
        if (buf.device_interface) {
            *this = cropped(d, min, extent);
        } else {
            crop_host(d, min, extent);
        }
    }

    /* Crops the first rect.size() dimensions to {min, extent} pairs. */
    Buffer cropped(const std::vector<std::pair<int, int>> &rect) const {
        assert((int)rect.size() <= dimensions());
        Buffer im(*this);
        for (size_t i = 0; i < rect.size(); i++) {
            im.crop_host((int)i, rect[i].first, rect[i].second);
        }
        if (buf.device_interface) {
            complete_device_crop(im);
        }
        return im;
    }

    void crop(const std::vector<std::pair<int, int>> &rect) {
        if (buf.device_interface) {
            *this = cropped(rect);
        } else {
            assert((int)rect.size() <= dimensions());
            for (size_t i = 0; i < rect.size(); i++) {
                crop_host((int)i, rect[i].first, rect[i].second);
            }
        }
    }

    /* Shifts the coordinates of dimension d by dx: the element that was at
     * x is now at x + dx. No memory moves. */
    Buffer translated(int d, int dx) const {
        Buffer im(*this);
        im.translate(d, dx);
        return im;
    }

    void translate(int d, int delta) {
        assert(d >= 0 && d < dimensions());
        buf.dim[d].min += delta;
    }

    Buffer translated(const std::vector<int> &delta) const {
        Buffer im(*this);
        im.translate(delta);
        return im;
    }

    void translate(const std::vector<int> &delta) {
        assert((int)delta.size() <= dimensions());
        for (size_t i = 0; i < delta.size(); i++) {
            translate((int)i, delta[i]);
        }
    }

    /* Sets the mins of the first mins.size() dimensions. */
    void set_min(const std::vector<int> &mins) {
        assert((int)mins.size() <= dimensions());
        for (size_t i = 0; i < mins.size(); i++) {
            buf.dim[i].min = mins[i];
        }
    }

    template <typename... Args, typename = typename std::enable_if<Internal::AllInts<Args...>::value>::type>
    void set_min(Args... args) {
        set_min(std::vector<int>{(int)args...});
    }

    /* Whether the coordinates (of the first coords.size() dimensions) lie
     * inside the buffer. */
    bool contains(const std::vector<int> &coords) const {
        assert((int)coords.size() <= dimensions());
        for (size_t i = 0; i < coords.size(); i++) {
            const halide_dimension_t &d = buf.dim[i];
            if (coords[i] < d.min || coords[i] >= d.min + d.extent) {
                return false;
            }
        }
        return true;
    }

    template <typename... Args, typename = typename std::enable_if<Internal::AllInts<Args...>::value>::type>
    bool contains(Args... args) const {
        return contains(std::vector<int>{(int)args...});
    }

    /* Swaps how two dimensions are indexed: A = B.transposed(0, 1) gives
     * &A(i, j) == &B(j, i). */
    Buffer transposed(int d1, int d2) const {
        Buffer im(*this);
        im.transpose(d1, d2);
        return im;
    }

    void transpose(int d1, int d2) {
        assert(d1 >= 0 && d1 < dimensions() && d2 >= 0 && d2 < dimensions());
        std::swap(buf.dim[d1], buf.dim[d2]);
    }

    /* General permutation: old dimension i becomes dimension order[i]. */
    void transpose(const std::vector<int> &order) {
        const int d = dimensions();
        assert((int)order.size() == d && "transpose needs one entry per dimension");
        std::vector<halide_dimension_t> old(buf.dim, buf.dim + d);
        std::vector<bool> seen(d, false);
        for (int i = 0; i < d; i++) {
            assert(order[i] >= 0 && order[i] < d && !seen[order[i]] && "transpose order must be a permutation");
            seen[order[i]] = true;
            buf.dim[order[i]] = old[i];
        }
    }

    Buffer transposed(const std::vector<int> &order) const {
        Buffer im(*this);
        im.transpose(order);
        return im;
    }

    /* The (dimensions - 1)-dimensional buffer at coordinate pos of
     * dimension d. */
    Buffer<T, (Dims == AnyDims ? AnyDims : Dims - 1)> sliced(int d, int pos) const {
        static_assert(Dims == AnyDims || Dims > 0, "Cannot slice a 0-dimensional Buffer");
        assert(dimensions() > 0);
        Buffer<T, AnyDims, InClassDimStorage> im(*this);
        im.slice_host(d, pos);
        if (buf.device_interface) {
            complete_device_slice(im, d, pos);
        }
        return Buffer<T, (Dims == AnyDims ? AnyDims : Dims - 1)>(std::move(im));
    }

    /* Slice at the min of dimension d. */
    Buffer<T, (Dims == AnyDims ? AnyDims : Dims - 1)> sliced(int d) const {
        return sliced(d, dim(d).min());
    }

    void slice(int d, int pos) {
        static_assert(Dims == AnyDims, "slice() changes the dimensionality; use sliced() on a static-Dims Buffer");
        assert(dimensions() > 0);
        if (buf.device_interface) {
            *this = sliced(d, pos);
        } else {
            slice_host(d, pos);
        }
    }

    void slice(int d) {
        slice(d, dim(d).min());
    }

    /* The opposite of slice: inserts a dimension of extent one at index d
     * whose single coordinate is pos. */
    Buffer<T, (Dims == AnyDims ? AnyDims : Dims + 1)> embedded(int d, int pos = 0) const {
        Buffer<T, AnyDims, InClassDimStorage> im(*this);
        im.embed(d, pos);
        return Buffer<T, (Dims == AnyDims ? AnyDims : Dims + 1)>(std::move(im));
    }

    void embed(int d, int pos = 0) {
        static_assert(Dims == AnyDims, "embed() changes the dimensionality; use embedded() on a static-Dims Buffer");
        assert(d >= 0 && d <= dimensions());
        add_dimension();
        translate(dimensions() - 1, pos);
        for (int i = dimensions() - 1; i > d; i--) {
            transpose(i, i - 1);
        }
    }

    /* Appends a dimension with min 0, extent 1 and a stride just past the
     * current last dimension. */
    void add_dimension() {
        static_assert(Dims == AnyDims, "add_dimension() changes the dimensionality of a static-Dims Buffer");
        const int d = buf.dimensions;
        std::vector<halide_dimension_t> old(buf.dim, buf.dim + d);
        free_shape_storage();
        make_shape_storage(d + 1);
        for (int i = 0; i < d; i++) {
            buf.dim[i] = old[i];
        }
        const int stride = d == 0 ? 1 : old[d - 1].stride * old[d - 1].extent;
        buf.dim[d] = halide_dimension_t(0, 1, stride);
    }

    void add_dimension_with_stride(int s) {
        add_dimension();
        buf.dim[buf.dimensions - 1].stride = s;
    }

    /* ------------------------------------------------------------------
     * Element access. With fewer coordinates than dimensions the rest are
     * taken at their mins. The non-const forms mark the host dirty.
     * ---------------------------------------------------------------- */

    template <typename... Args, typename = typename std::enable_if<Internal::AllInts<Args...>::value>::type>
    HALIDE_ALWAYS_INLINE const not_void_T &operator()(int first, Args... rest) const {
        static_assert(!T_is_void, "Element access needs a typed Buffer; use as<T>() first");
        return *address_of(first, (int)rest...);
    }

    HALIDE_ALWAYS_INLINE const not_void_T &operator()() const {
        static_assert(!T_is_void, "Element access needs a typed Buffer; use as<T>() first");
        return *address_of();
    }

    HALIDE_ALWAYS_INLINE const not_void_T &operator()(const int *pos) const {
        static_assert(!T_is_void, "Element access needs a typed Buffer; use as<T>() first");
        return *address_of_pos(pos);
    }

    template <typename... Args, typename = typename std::enable_if<Internal::AllInts<Args...>::value>::type>
    HALIDE_ALWAYS_INLINE not_void_T &operator()(int first, Args... rest) {
        static_assert(!T_is_void, "Element access needs a typed Buffer; use as<T>() first");
        mark_written();
        return *address_of(first, (int)rest...);
    }

    HALIDE_ALWAYS_INLINE not_void_T &operator()() {
        static_assert(!T_is_void, "Element access needs a typed Buffer; use as<T>() first");
        mark_written();
        return *address_of();
    }

    HALIDE_ALWAYS_INLINE not_void_T &operator()(const int *pos) {
        static_assert(!T_is_void, "Element access needs a typed Buffer; use as<T>() first");
        mark_written();
        return *address_of_pos(pos);
    }

    /* ------------------------------------------------------------------
     * Whole-buffer operations
     * ---------------------------------------------------------------- */

    /* Calls f(value, other values...) for every element, with the elements
     * at the same coordinates of the other buffers (which must have the same
     * shape). f takes references, so it may modify. Order is unspecified. */
    template <typename Fn, typename... Others> const Buffer &for_each_value(Fn &&f, Others &&...other_buffers) const {
        for_each_value_impl(f, std::forward<Others>(other_buffers)...);
        return *this;
    }

    template <typename Fn, typename... Others> Buffer &for_each_value(Fn &&f, Others &&...other_buffers) {
        for_each_value_impl(f, std::forward<Others>(other_buffers)...);
        return *this;
    }

    /* Calls f at every coordinate, dimension 0 varying fastest. f takes
     * either one int per dimension, f(x, y, ...), or a const int *. With
     * fewer ints than dimensions, the last dimensions are not iterated over;
     * with more, the extra ones are 0 (as upstream's). */
    template <typename Fn> const Buffer &for_each_element(Fn &&f) const {
        for_each_element_impl(f);
        return *this;
    }

    template <typename Fn> Buffer &for_each_element(Fn &&f) {
        for_each_element_impl(f);
        return *this;
    }

    /* Sets every element to val. */
    Buffer &fill(not_void_T val) {
        static_assert(!T_is_void, "fill needs a typed Buffer");
        mark_written();
        for_each_value([&](not_void_T &v) { v = val; });
        return *this;
    }

    /* Sets every element to f(coordinates), f taking ints or a const int *. */
    template <typename Fn,
              typename = typename std::enable_if<!std::is_arithmetic<typename std::decay<Fn>::type>::value>::type>
    Buffer &fill(Fn &&f) {
        static_assert(!T_is_void, "fill needs a typed Buffer");
        mark_written();
        constexpr int arity = Internal::element_callback_arity<typename std::remove_reference<Fn>::type>();
        if constexpr (arity >= 0) {
            assert(arity == dimensions() && "fill callback takes the wrong number of coordinates");
        }
        visit_positions([&](const int *pos) { *address_of_pos(pos) = Internal::call_at(f, pos); });
        return *this;
    }

    /* Whether every element equals val. */
    bool all_equal(not_void_T val) const {
        static_assert(!T_is_void, "all_equal needs a typed Buffer");
        bool equal = true;
        for_each_value([&](const not_void_T &v) { equal = equal && (v == val); });
        return equal;
    }

    /* ------------------------------------------------------------------
     * Dirty bits and device memory. Without a device allocation these are
     * no-ops that succeed; with one they go through the buffer's
     * device_interface.
     * ---------------------------------------------------------------- */

    HALIDE_ALWAYS_INLINE void set_host_dirty(bool v = true) {
        assert((!v || !device_dirty()) && "Cannot set host dirty while the device is dirty: call copy_to_host()");
        buf.set_host_dirty(v);
    }

    HALIDE_ALWAYS_INLINE bool host_dirty() const {
        return buf.host_dirty();
    }
    HALIDE_ALWAYS_INLINE bool device_dirty() const {
        return buf.device_dirty();
    }

    void set_device_dirty(bool v = true) {
        assert((!v || !host_dirty()) && "Cannot set device dirty while the host is dirty");
        buf.set_device_dirty(v);
    }

    /* Brings the host copy up to date if the device copy is newer. */
    int copy_to_host(void *ctx = nullptr) {
        if (!device_dirty()) {
            return halide_error_code_success;
        }
        if (!buf.device_interface) {
            return halide_error_code_no_device_interface;
        }
        return buf.device_interface->copy_to_host(ctx, &buf);
    }

    /* Makes the device copy current (allocating it if needed). */
    int copy_to_device(const halide_device_interface_t *device_interface, void *ctx = nullptr) {
        if (!device_interface) {
            return halide_error_code_no_device_interface;
        }
        if (host_dirty() || buf.device == 0) {
            return device_interface->copy_to_device(ctx, &buf, device_interface);
        }
        return halide_error_code_success;
    }

    int device_malloc(const halide_device_interface_t *device_interface, void *ctx = nullptr) {
        if (!device_interface) {
            return halide_error_code_no_device_interface;
        }
        return device_interface->device_malloc(ctx, &buf, device_interface);
    }

    /* Frees a device allocation this Buffer owns alone; returns 0 when there
     * is none. */
    int device_free(void *ctx = nullptr) {
        if (dev_ref_count) {
            assert(dev_ref_count->ownership == BufferDeviceOwnership::Allocated &&
                   "device_free on a device allocation this Buffer did not allocate");
            assert(dev_ref_count->count == 1 && "device_free on a device allocation shared with other Buffers");
        }
        int result = halide_error_code_success;
        if (buf.device_interface) {
            result = buf.device_interface->device_free(ctx, &buf);
        }
        if (dev_ref_count) {
            delete dev_ref_count;
            dev_ref_count = nullptr;
        }
        return result;
    }

    int device_wrap_native(const halide_device_interface_t *device_interface, uint64_t handle, void *ctx = nullptr) {
        assert(device_interface && "device_wrap_native needs a device interface");
        assert(!buf.device && "device_wrap_native on a buffer that already has a device allocation");
        if (!device_interface) {
            return halide_error_code_no_device_interface;
        }
        const int result = device_interface->wrap_native(ctx, &buf, handle, device_interface);
        if (result == 0) {
            dev_ref_count = new DeviceRefCount;
            dev_ref_count->ownership = BufferDeviceOwnership::WrappedNative;
        }
        return result;
    }

    int device_detach_native(void *ctx = nullptr) {
        int result = halide_error_code_success;
        if (buf.device_interface) {
            result = buf.device_interface->detach_native(ctx, &buf);
        }
        if (dev_ref_count) {
            delete dev_ref_count;
            dev_ref_count = nullptr;
        }
        return result;
    }

    int device_and_host_malloc(const halide_device_interface_t *device_interface, void *ctx = nullptr) {
        if (!device_interface) {
            return halide_error_code_no_device_interface;
        }
        const int result = device_interface->device_and_host_malloc(ctx, &buf, device_interface);
        if (result == 0) {
            dev_ref_count = new DeviceRefCount;
            dev_ref_count->ownership = BufferDeviceOwnership::AllocatedDeviceAndHost;
        }
        return result;
    }

    int device_and_host_free(const halide_device_interface_t *device_interface, void *ctx = nullptr) {
        int result = halide_error_code_success;
        const halide_device_interface_t *iface = device_interface ? device_interface : buf.device_interface;
        if (iface) {
            result = iface->device_and_host_free(ctx, &buf);
        }
        if (dev_ref_count) {
            delete dev_ref_count;
            dev_ref_count = nullptr;
        }
        return result;
    }

    /* Waits for outstanding device work on this buffer. */
    int device_sync(void *ctx = nullptr) {
        if (!buf.device_interface) {
            return halide_error_code_success;
        }
        return buf.device_interface->device_sync(ctx, &buf);
    }

    bool has_device_allocation() const {
        return buf.device != 0;
    }

    BufferDeviceOwnership device_ownership() const {
        return dev_ref_count ? dev_ref_count->ownership : BufferDeviceOwnership::Allocated;
    }

    /* Kept for source compatibility; this runtime is not built with MSan
     * hooks, so there is nothing to check. */
    void msan_check_mem_is_initialized(bool entire = false) const {
        (void)entire;
    }

private:
    /* Non-const element access marks the host copy as the newest. */
    HALIDE_ALWAYS_INLINE void mark_written() {
        if constexpr (!std::is_const<T>::value) {
            set_host_dirty();
        }
    }

    static std::vector<int> reorder(const std::vector<int> &sizes, const std::vector<int> &order) {
        assert(sizes.size() == order.size() && "storage order needs one entry per dimension");
        std::vector<int> out(sizes.size());
        for (size_t i = 0; i < sizes.size(); i++) {
            out[i] = sizes[(size_t)order[i]];
        }
        return out;
    }

    template <typename ArrayType, size_t... I> static void fill_array_extents(int *sizes, std::index_sequence<I...>) {
        constexpr int rank = (int)sizeof...(I);
        const int extents[] = {(int)std::extent<ArrayType, I>::value...};
        for (int i = 0; i < rank; i++) {
            sizes[i] = extents[rank - 1 - i];
        }
    }

    Buffer<not_const_T, Dims, InClassDimStorage>
    copy_in_order(const std::vector<int> &order, void *(*allocate_fn)(size_t), void (*deallocate_fn)(void *)) const {
        const std::vector<halide_dimension_t> dense = dense_shape_in_order(buf.dim, dimensions(), order);
        Buffer<not_const_T, Dims, InClassDimStorage> dst(type(), nullptr, dimensions(), dense.data());
        dst.allocate(allocate_fn, deallocate_fn);
        dst.copy_from(*this);
        return dst;
    }
};

} // namespace Runtime
} // namespace Halide

#endif /* HALIDE_RUNTIME_BUFFER_H */
