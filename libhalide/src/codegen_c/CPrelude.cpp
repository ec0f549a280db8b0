// The fixed text at the top of every C++ source file the C backend writes:
// the includes, and the helpers its code calls for each operation (see
// CPrelude.h). One concept: Halide's semantics spelled out in plain C++17.
#include "codegen_c/CPrelude.h"

namespace Halide {
namespace Internal {

const char *c_source_prelude() {
    return R"PRELUDE(#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <mutex>
#include <type_traits>

#include "HalideRuntime.h"

#pragma GCC diagnostic ignored "-Wunused-variable"
#pragma GCC diagnostic ignored "-Wunused-function"

namespace {

// A vector of N lanes: one value per lane, operated on lane by lane.
template <typename T, int N> struct hv {
    T v[N];
};

template <typename T> struct h_lanes_of {
    static constexpr int n = 1;
};
template <typename T, int N> struct h_lanes_of<hv<T, N>> {
    static constexpr int n = N;
};
template <typename... A> constexpr int h_lanes() {
    int n = 1;
    ((n = h_lanes_of<A>::n > n ? h_lanes_of<A>::n : n), ...);
    return n;
}

// Lane i of a vector; a scalar is the same in every lane.
template <typename T> inline T h_at(const T &x, int) {
    return x;
}
template <typename T, int N> inline T h_at(const hv<T, N> &x, int i) {
    return x.v[i];
}

// f applied lane by lane (to scalars: once).
template <typename F, typename... A> inline auto h_lift(F f, const A &...a) {
    constexpr int n = h_lanes<A...>();
    if constexpr (n == 1) {
        return f(a...);
    } else {
        using R = decltype(f(h_at(a, 0)...));
        hv<R, n> r;
        for (int i = 0; i < n; i++) {
            r.v[i] = f(h_at(a, i)...);
        }
        return r;
    }
}

// Integer arithmetic wraps around: done in an unsigned type at least as wide
// as int, so that no signed overflow (undefined in C++) happens.
template <typename T> using h_wide = std::conditional_t<(sizeof(T) <= 4), uint32_t, uint64_t>;
template <typename T> constexpr bool h_float = std::is_floating_point_v<T>;

template <typename T> inline T h_add_s(T a, T b) {
    if constexpr (h_float<T>) {
        return a + b;
    } else {
        return (T)(h_wide<T>)((h_wide<T>)a + (h_wide<T>)b);
    }
}
template <typename T> inline T h_sub_s(T a, T b) {
    if constexpr (h_float<T>) {
        return a - b;
    } else {
        return (T)(h_wide<T>)((h_wide<T>)a - (h_wide<T>)b);
    }
}
template <typename T> inline T h_mul_s(T a, T b) {
    if constexpr (h_float<T>) {
        return a * b;
    } else {
        return (T)(h_wide<T>)((h_wide<T>)a * (h_wide<T>)b);
    }
}
// Division and modulus never trap: x / 0 == 0 and x % 0 == 0; the most
// negative value / -1 wraps. Signed division is Euclidean: the remainder is
// in [0, |b|).
template <typename T> inline T h_div_s(T a, T b) {
    if constexpr (h_float<T>) {
        return a / b;
    } else if constexpr (std::is_unsigned_v<T>) {
        return b == 0 ? (T)0 : (T)(a / b);
    } else {
        if (b == 0) {
            return 0;
        }
        if (b == -1) {
            return h_sub_s((T)0, a);
        }
        T q = (T)(a / b);
        T r = (T)(a % b);
        if (r < 0) {
            q = b > 0 ? (T)(q - 1) : (T)(q + 1);
        }
        return q;
    }
}
template <typename T> inline T h_mod_s(T a, T b) {
    if constexpr (h_float<T>) {
        return a - b * (T)floor(a / b);
    } else if constexpr (std::is_unsigned_v<T>) {
        return b == 0 ? (T)0 : (T)(a % b);
    } else {
        if (b == 0 || b == -1) {
            return 0;
        }
        T r = (T)(a % b);
        if (r < 0) {
            r = h_add_s(r, b > 0 ? b : h_sub_s((T)0, b));
        }
        return r;
    }
}
template <typename T> inline T h_min_s(T a, T b) {
    return a < b ? a : b;
}
template <typename T> inline T h_max_s(T a, T b) {
    return a > b ? a : b;
}

// Shifts: a negative signed amount shifts the other way; shifting by the
// width or more gives 0 (or the sign, right-shifting a signed value).
template <typename T> inline T h_shift_mag(bool left, T a, uint64_t amount) {
    constexpr uint64_t last = sizeof(T) * 8 - 1;
    using U = std::make_unsigned_t<T>;
    if (amount > last) {
        if (!left && std::is_signed_v<T>) {
            return a < 0 ? (T)-1 : (T)0;
        }
        return 0;
    }
    if (left) {
        return (T)(U)((h_wide<T>)(U)a << amount);
    }
    return (T)(a >> amount);
}
template <typename T, typename S> inline T h_shift_s(bool left, T a, S b) {
    // The amount at a's width, with its own signedness.
    using B = std::conditional_t<std::is_signed_v<S>, std::make_signed_t<T>, std::make_unsigned_t<T>>;
    using U = std::make_unsigned_t<T>;
    B amount = (B)b;
    if (std::is_signed_v<S> && amount < 0) {
        return h_shift_mag(!left, a, (uint64_t)(U)((U)0 - (U)amount));
    }
    return h_shift_mag(left, a, (uint64_t)(U)amount);
}

// Conversions as a Cast node does them: to bool takes the lowest bit (of
// the value truncated towards zero, for floats); integers wrap.
template <typename To, typename From> inline To h_cast_s(From x) {
    if constexpr (std::is_same_v<To, From>) {
        return x;
    } else if constexpr (std::is_pointer_v<To> || std::is_pointer_v<From>) {
        if constexpr (std::is_pointer_v<To> && std::is_pointer_v<From>) {
            return (To)x;
        } else if constexpr (std::is_pointer_v<To>) {
            return (To)(uintptr_t)x;
        } else if constexpr (std::is_same_v<To, bool>) {
            return x != nullptr;
        } else {
            return (To)(uintptr_t)x;
        }
    } else if constexpr (std::is_same_v<To, bool>) {
        if constexpr (h_float<From>) {
            return ((int64_t)x & 1) != 0;
        } else {
            return (x & 1) != 0;
        }
    } else if constexpr (h_float<From> && std::is_integral_v<To> && sizeof(To) < 8) {
        // Through 64 bits, as x86 converts: out-of-range values wrap.
        return (To)(int64_t)x;
    } else {
        return (To)x;
    }
}
// The bits of x read as type To (same size).
template <typename To, typename From> inline To h_reinterpret_s(From x) {
    if constexpr (std::is_pointer_v<To> || std::is_pointer_v<From>) {
        return h_cast_s<To>(x);
    } else {
        static_assert(sizeof(To) == sizeof(From), "reinterpret between types of different sizes");
        To r;
        memcpy(&r, &x, sizeof(To));
        return r;
    }
}

template <typename T> inline auto h_abs_s(T a) {
    if constexpr (h_float<T>) {
        return (T)fabs(a);
    } else if constexpr (std::is_signed_v<T>) {
        using U = std::make_unsigned_t<T>;
        return a < 0 ? (U)((U)0 - (U)a) : (U)a;
    } else {
        return a;
    }
}
template <typename T> inline T h_popcount_s(T a) {
    return (T)__builtin_popcountll((uint64_t)(std::make_unsigned_t<T>)a);
}
template <typename T> inline T h_clz_s(T a) {
    constexpr int w = sizeof(T) * 8;
    uint64_t u = (uint64_t)(std::make_unsigned_t<T>)a;
    return (T)(u == 0 ? w : __builtin_clzll(u) - (64 - w));
}
template <typename T> inline T h_ctz_s(T a) {
    constexpr int w = sizeof(T) * 8;
    uint64_t u = (uint64_t)(std::make_unsigned_t<T>)a;
    return (T)(u == 0 ? w : __builtin_ctzll(u));
}
template <typename T> inline T h_and_s(T a, T b) {
    return (T)(a & b);
}
template <typename T> inline T h_or_s(T a, T b) {
    return (T)(a | b);
}
template <typename T> inline T h_xor_s(T a, T b) {
    return (T)(a ^ b);
}
template <typename T> inline T h_not_s(T a) {
    if constexpr (std::is_same_v<T, bool>) {
        return !a;
    } else {
        return (T)~a;
    }
}

#define H_LIFT1(NAME)                                                                                                 \
    template <typename A> inline auto NAME(const A &a) {                                                              \
        return h_lift([](auto x) { return NAME##_s(x); }, a);                                                         \
    }
#define H_LIFT2(NAME)                                                                                                 \
    template <typename A, typename B> inline auto NAME(const A &a, const B &b) {                                      \
        return h_lift([](auto x, auto y) { return NAME##_s(x, y); }, a, b);                                           \
    }
H_LIFT2(h_add)
H_LIFT2(h_sub)
H_LIFT2(h_mul)
H_LIFT2(h_div)
H_LIFT2(h_mod)
H_LIFT2(h_min)
H_LIFT2(h_max)
H_LIFT2(h_and)
H_LIFT2(h_or)
H_LIFT2(h_xor)
H_LIFT1(h_not)
H_LIFT1(h_abs)
H_LIFT1(h_popcount)
H_LIFT1(h_clz)
H_LIFT1(h_ctz)
#undef H_LIFT1
#undef H_LIFT2

template <typename A, typename B> inline auto h_shl(const A &a, const B &b) {
    return h_lift([](auto x, auto y) { return h_shift_s(true, x, y); }, a, b);
}
template <typename A, typename B> inline auto h_shr(const A &a, const B &b) {
    return h_lift([](auto x, auto y) { return h_shift_s(false, x, y); }, a, b);
}
template <typename To, typename A> inline auto h_cast(const A &a) {
    return h_lift([](auto x) { return h_cast_s<To>(x); }, a);
}
template <typename To, typename A> inline auto h_reinterpret(const A &a) {
    return h_lift([](auto x) { return h_reinterpret_s<To>(x); }, a);
}
template <typename A, typename B> inline auto h_eq(const A &a, const B &b) {
    return h_lift([](auto x, auto y) { return x == y; }, a, b);
}
template <typename A, typename B> inline auto h_ne(const A &a, const B &b) {
    return h_lift([](auto x, auto y) { return x != y; }, a, b);
}
template <typename A, typename B> inline auto h_lt(const A &a, const B &b) {
    return h_lift([](auto x, auto y) { return x < y; }, a, b);
}
template <typename A, typename B> inline auto h_le(const A &a, const B &b) {
    return h_lift([](auto x, auto y) { return x <= y; }, a, b);
}
template <typename A, typename B> inline auto h_gt(const A &a, const B &b) {
    return h_lift([](auto x, auto y) { return x > y; }, a, b);
}
template <typename A, typename B> inline auto h_ge(const A &a, const B &b) {
    return h_lift([](auto x, auto y) { return x >= y; }, a, b);
}
template <typename A, typename B> inline auto h_land(const A &a, const B &b) {
    return h_lift([](bool x, bool y) { return x && y; }, a, b);
}
template <typename A, typename B> inline auto h_lor(const A &a, const B &b) {
    return h_lift([](bool x, bool y) { return x || y; }, a, b);
}
template <typename A> inline auto h_lnot(const A &a) {
    return h_lift([](bool x) { return !x; }, a);
}
template <typename C, typename A> inline auto h_select(const C &c, const A &a, const A &b) {
    return h_lift([](bool k, auto x, auto y) { return k ? x : y; }, c, a, b);
}

template <int N, typename T> inline hv<T, N> h_broadcast(T x) {
    hv<T, N> r;
    for (int i = 0; i < N; i++) {
        r.v[i] = x;
    }
    return r;
}
template <int N, typename T> inline hv<T, N> h_ramp(T base, T stride) {
    hv<T, N> r;
    for (int i = 0; i < N; i++) {
        r.v[i] = h_add_s(base, h_mul_s(stride, (T)i));
    }
    return r;
}

// Memory: elements at base + index * sizeof(T) (a bool is one byte), read
// and written with memcpy so that any buffer may be viewed as any type.
template <typename T> inline T h_load(const void *base, int64_t i) {
    if constexpr (std::is_same_v<T, bool>) {
        return ((const uint8_t *)base)[i] != 0;
    } else {
        T v;
        memcpy(&v, (const uint8_t *)base + i * (int64_t)sizeof(T), sizeof(T));
        return v;
    }
}
template <typename T> inline void h_store(void *base, int64_t i, T v) {
    if constexpr (std::is_same_v<T, bool>) {
        ((uint8_t *)base)[i] = v ? 1 : 0;
    } else {
        memcpy((uint8_t *)base + i * (int64_t)sizeof(T), &v, sizeof(T));
    }
}
// N adjacent elements from index i.
template <typename T, int N> inline hv<T, N> h_load_dense(const void *base, int64_t i) {
    hv<T, N> r;
    if constexpr (std::is_same_v<T, bool>) {
        for (int k = 0; k < N; k++) {
            r.v[k] = h_load<T>(base, i + k);
        }
    } else {
        memcpy(r.v, (const uint8_t *)base + i * (int64_t)sizeof(T), sizeof(T) * N);
    }
    return r;
}
template <typename T, int N> inline void h_store_dense(void *base, int64_t i, const hv<T, N> &v) {
    if constexpr (std::is_same_v<T, bool>) {
        for (int k = 0; k < N; k++) {
            h_store<T>(base, i + k, v.v[k]);
        }
    } else {
        memcpy((uint8_t *)base + i * (int64_t)sizeof(T), v.v, sizeof(T) * N);
    }
}
// One element per lane, at each lane's index; lanes off in the mask read 0
// and are not written. Stores go in lane order (the last lane wins).
template <typename T, typename I, int N> inline hv<T, N> h_gather(const void *base, const hv<I, N> &idx) {
    hv<T, N> r;
    for (int k = 0; k < N; k++) {
        r.v[k] = h_load<T>(base, (int64_t)idx.v[k]);
    }
    return r;
}
template <typename T, typename I, int N>
inline hv<T, N> h_gather_masked(const void *base, const hv<I, N> &idx, const hv<bool, N> &mask) {
    hv<T, N> r;
    for (int k = 0; k < N; k++) {
        r.v[k] = mask.v[k] ? h_load<T>(base, (int64_t)idx.v[k]) : (T)0;
    }
    return r;
}
template <typename T, typename I, int N> inline void h_scatter(void *base, const hv<I, N> &idx, const hv<T, N> &v) {
    for (int k = 0; k < N; k++) {
        h_store<T>(base, (int64_t)idx.v[k], v.v[k]);
    }
}
template <typename T, typename I, int N>
inline void h_scatter_masked(void *base, const hv<I, N> &idx, const hv<T, N> &v, const hv<bool, N> &mask) {
    for (int k = 0; k < N; k++) {
        if (mask.v[k]) {
            h_store<T>(base, (int64_t)idx.v[k], v.v[k]);
        }
    }
}

// interleave_vectors(v0, ..., vm-1): lane i is lane i / m of v(i % m).
template <typename T, int N, typename... R> inline auto h_interleave(const hv<T, N> &first, const R &...rest) {
    constexpr int m = 1 + sizeof...(R);
    const hv<T, N> *parts[m] = {&first, &rest...};
    hv<T, N * m> r;
    for (int i = 0; i < N * m; i++) {
        r.v[i] = parts[i % m]->v[i / m];
    }
    return r;
}
// slice_vector(v, start, stride, lanes).
template <int L, typename T, int N> inline hv<T, L> h_slice(const hv<T, N> &v, int start, int stride) {
    hv<T, L> r;
    for (int i = 0; i < L; i++) {
        r.v[i] = v.v[start + i * stride];
    }
    return r;
}

// A pointer that converts to any pointer type: handles passed to C functions.
struct h_any {
    void *p;
    h_any(const void *q) : p(const_cast<void *>(q)) {}
    template <typename T> operator T *() const {
        return (T *)p;
    }
};

// Frees a heap block when its scope ends, early returns included.
struct h_free_at_exit {
    void *user_context;
    void *block;
    void (*free_fn)(void *, void *);
    ~h_free_at_exit() {
        free_fn(user_context, block);
    }
};

// prefetch (Func::prefetch): every 64-byte line of the region starting at p,
// shape = {extent_0, stride_0, extent_1, stride_1, ...} in elements of
// `elem` bytes, dimension d and those inside it. Only a hint: nothing is read.
inline void h_prefetch_line(const void *p) {
#if defined(__GNUC__) || defined(__clang__)
    __builtin_prefetch(p, 0, 3);
#else
    (void)p;
#endif
}
inline void h_prefetch(const char *p, int64_t elem, int d, const int64_t *shape) {
    const int64_t extent = shape[2 * d], stride = shape[2 * d + 1] * elem;
    if (d > 0 || (extent > 0 && shape[1] != 1)) {
        for (int64_t i = 0; i < extent; i++) {
            d > 0 ? h_prefetch(p + i * stride, elem, d - 1, shape) : h_prefetch_line(p + i * stride);
        }
    } else if (extent > 0) {
        const uintptr_t line = 64, first = (uintptr_t)p & ~(line - 1);
        const uintptr_t last = ((uintptr_t)p + (uintptr_t)(extent * elem - 1)) & ~(line - 1);
        for (uintptr_t a = first; a <= last; a += line) {
            h_prefetch_line((const void *)a);
        }
    }
}

// Stores of atomic() updates: one at a time.
inline std::recursive_mutex &h_atomic_mutex() {
    static std::recursive_mutex m;
    return m;
}

inline halide_scalar_value_t h_scalar_bits(uint64_t bits) {
    halide_scalar_value_t v;
    memcpy(&v, &bits, sizeof(bits));
    return v;
}

} // namespace
)PRELUDE";
}

} // namespace Internal
} // namespace Halide
