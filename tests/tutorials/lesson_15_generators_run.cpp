// Lesson 15, the caller: the kernels the lesson 15 generator produced with
// different GeneratorParams, called like any C function and checked
// against C++.
#include <algorithm>
#include <cmath>

#include "HalideBuffer.h"
#include "lesson_15_brighten.h"
#include "lesson_15_scale_rotate_ccw.h"
#include "lesson_15_scale_rotate_cw_u16.h"
#include "lesson_15_scale_rotate_default.h"
#include "tutorial_check.h"

using Halide::Runtime::Buffer;

namespace {

int sat(float v, int hi) {
    return (int)std::min(std::max(v, 0.0f), (float)hi);
}

} // namespace

int main() {
    const int W = 64, H = 48;
    Buffer<uint8_t> gray(W, H);
    tutorial::fill_test_image(gray);
    Buffer<uint8_t> rgb(W, H, 3);
    tutorial::fill_test_image(rgb);

    {
        Buffer<uint8_t> out(W, H);
        tutorial::check(lesson_15_brighten(100, gray, out) == 0, "lesson_15_brighten ran");
        tutorial::check_image("brighten", out, [&](int x, int y, int) { return std::min(gray(x, y) + 100, 255); });
    }
    // Defaults: no rotation, scale 1, uint8 output.
    {
        Buffer<uint8_t> out(W, H, 3);
        tutorial::check(lesson_15_scale_rotate_default(rgb, out) == 0, "default variant ran");
        tutorial::check_image("default", out, [&](int x, int y, int c) { return rgb(x, y, c); });
    }
    // rotation=cw scale=3.0 output_type=uint16 parallel=false.
    {
        Buffer<uint16_t> out(H, W, 3);
        tutorial::check(lesson_15_scale_rotate_cw_u16(rgb, out) == 0, "cw/uint16 variant ran");
        tutorial::check_image("cw_u16", out,
                              [&](int x, int y, int c) { return sat(rgb(y, H - x - 1, c) * 3.0f, 65535); });
    }
    // rotation=ccw scale=1.5 (saturating in uint8).
    {
        Buffer<uint8_t> out(H, W, 3);
        tutorial::check(lesson_15_scale_rotate_ccw(rgb, out) == 0, "ccw variant ran");
        tutorial::check_image("ccw", out, [&](int x, int y, int c) { return sat(rgb(W - y - 1, x, c) * 1.5f, 255); });
    }
    return tutorial::finish("lesson_15_generators");
}
