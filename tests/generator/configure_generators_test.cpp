// Calls the kernels the generator driver built from configure_generators.cpp
// (tests/generator/meson.build gives their GeneratorParams) and compares
// each output with a plain C++ computation of the same values.
#include <cstdint>
#include <cstdio>
#include <string>

#include "HalideBuffer.h"
#include "at_level_root.h"
#include "autosched.h"
#include "configure_sum.h"
#include "configure_sum_f.h"
#include "dynamic_scale.h"
#include "reduce.h"
#include "test_check.h"

using Halide::Runtime::Buffer;

namespace {

// configure_sum n=2 t=int32: out = in * k + extra_0 + extra_1.
void test_configure_sum() {
    const int n = 37;
    Buffer<int32_t> in(n), e0(n), e1(n), out(n);
    for (int x = 0; x < n; x++) {
        in(x) = x * 7 - 100;
        e0(x) = 3 * x;
        e1(x) = 1000 - x * x;
    }
    check(configure_sum(in, e0, e1, -4, out) == 0, "configure_sum returned nonzero");
    for (int x = 0; x < n; x++) {
        int32_t want = (x * 7 - 100) * -4 + 3 * x + (1000 - x * x);
        check(out(x) == want, "configure_sum out(" + std::to_string(x) + ")");
    }
}

// configure_sum n=1 t=float32 (-f configure_sum_f): out = in * k + extra_0.
void test_configure_sum_float() {
    const int n = 20;
    Buffer<float> in(n), e0(n), out(n);
    for (int x = 0; x < n; x++) {
        in(x) = 0.25f * x;
        e0(x) = 10.0f - x;
    }
    check(configure_sum_f(in, e0, 1.5f, out) == 0, "configure_sum_f returned nonzero");
    for (int x = 0; x < n; x++) {
        float want = 0.25f * x * 1.5f + (10.0f - x);
        check(out(x) == want, "configure_sum_f out(" + std::to_string(x) + ")");
    }
}

// dynamic_scale k.type=int16: out = in * k + 16 (k's bits).
void test_dynamic_scale() {
    Buffer<int16_t> in(9, 5);
    Buffer<int32_t> out(9, 5);
    in.for_each_element([&](int x, int y) { in(x, y) = (int16_t)(x * 300 - y * 1000); });
    check(dynamic_scale(in, (int16_t)-7, out) == 0, "dynamic_scale returned nonzero");
    out.for_each_element([&](int x, int y) {
        int32_t want = (int32_t)(int16_t)(x * 300 - y * 1000) * -7 + 16;
        check(out(x, y) == want, "dynamic_scale out(" + std::to_string(x) + ", " + std::to_string(y) + ")");
    });
}

// reduce: zero-dimensional outputs total, count, extremes_0, extremes_1.
void test_reduce() {
    const int n = 50;
    Buffer<float> in(n);
    float total = 0, lo = 1e30f, hi = -1e30f;
    for (int x = 0; x < n; x++) {
        in(x) = (float)((x * 37) % 23) - 11.5f;
        total += in(x);
        lo = in(x) < lo ? in(x) : lo;
        hi = in(x) > hi ? in(x) : hi;
    }
    auto t = Buffer<float>::make_scalar();
    auto c = Buffer<int32_t>::make_scalar();
    auto mn = Buffer<float>::make_scalar();
    auto mx = Buffer<float>::make_scalar();
    check(reduce(in, t, c, mn, mx) == 0, "reduce returned nonzero");
    check(t() == total, "reduce total " + std::to_string(t()) + " vs " + std::to_string(total));
    check(c() == n, "reduce count " + std::to_string(c()));
    check(mn() == lo && mx() == hi, "reduce extremes");
}

// at_level inner_at=root: out = inner(x, y) + inner(x, y + 1), inner = in * 3 + 1.
void test_at_level() {
    Buffer<int32_t> in(8, 7), out(8, 6);
    in.for_each_element([&](int x, int y) { in(x, y) = x - 2 * y; });
    check(at_level_root(in, out) == 0, "at_level_root returned nonzero");
    out.for_each_element([&](int x, int y) {
        int32_t want = (in(x, y) * 3 + 1) + (in(x, y + 1) * 3 + 1);
        check(out(x, y) == want, "at_level_root out(" + std::to_string(x) + ", " + std::to_string(y) + ")");
    });
}

// autosched without an autoscheduler: using_autoscheduler() was false.
void test_autosched() {
    Buffer<int32_t> in(16), out(16);
    for (int x = 0; x < 16; x++) {
        in(x) = x * x;
    }
    check(autosched(in, out) == 0, "autosched returned nonzero");
    for (int x = 0; x < 16; x++) {
        check(out(x) == x * x, "autosched out(" + std::to_string(x) + ")");
    }
}

} // namespace

int main() {
    test_configure_sum();
    test_configure_sum_float();
    test_dynamic_scale();
    test_reduce();
    test_at_level();
    test_autosched();
    return finish("configure_generators_test: ok");
}
