// Lesson 7: pipelines of several Funcs. A 3x3 blur as a horizontal then a
// vertical pass over a 16-bit copy of the input. Without a boundary
// condition the output must be smaller than the input (and shifted by one
// pixel); with a clamped input, or BoundaryConditions::repeat_edge, it can
// cover the whole image.
#include <algorithm>

#include "Halide.h"
#include "tutorial_check.h"

using namespace Halide;

int main() {
    const int W = 96, H = 64;
    Buffer<uint8_t> input(W, H, 3);
    tutorial::fill_test_image(input);
    Var x("x"), y("y"), c("c");

    // Reference: the same blur in C++, reading the input at (cx(x), cy(y)).
    auto blur_ref = [&](int x, int y, int c, bool clamp) {
        auto in = [&](int xx, int yy) {
            if (clamp) {
                xx = std::min(std::max(xx, 0), W - 1);
                yy = std::min(std::max(yy, 0), H - 1);
            }
            return (int)input(xx, yy, c);
        };
        auto bx = [&](int xx, int yy) { return (in(xx - 1, yy) + 2 * in(xx, yy) + in(xx + 1, yy)) / 4; };
        return (bx(x, y - 1) + 2 * bx(x, y) + bx(x, y + 1)) / 4;
    };

    // Part 1: no boundary condition; the output skips a one-pixel border.
    {
        Func input_16("input_16"), blur_x("blur_x"), blur_y("blur_y"), output("output");
        input_16(x, y, c) = cast<uint16_t>(input(x, y, c));
        blur_x(x, y, c) = (input_16(x - 1, y, c) + 2 * input_16(x, y, c) + input_16(x + 1, y, c)) / 4;
        blur_y(x, y, c) = (blur_x(x, y - 1, c) + 2 * blur_x(x, y, c) + blur_x(x, y + 1, c)) / 4;
        output(x, y, c) = cast<uint8_t>(blur_y(x, y, c));

        Buffer<uint8_t> result(W - 2, H - 2, 3);
        result.set_min(1, 1);
        output.realize(result);
        tutorial::check_image("blur (interior)", result, [&](int x, int y, int c) { return blur_ref(x, y, c, false); });
    }

    // Part 2: clamp the coordinates of every input read to the image.
    {
        Func clamped("clamped"), input_16("input_16"), blur_x("blur_x"), blur_y("blur_y"), output("output");
        Expr cx = clamp(x, 0, input.width() - 1);
        Expr cy = clamp(y, 0, input.height() - 1);
        clamped(x, y, c) = input(cx, cy, c);
        input_16(x, y, c) = cast<uint16_t>(clamped(x, y, c));
        blur_x(x, y, c) = (input_16(x - 1, y, c) + 2 * input_16(x, y, c) + input_16(x + 1, y, c)) / 4;
        blur_y(x, y, c) = (blur_x(x, y - 1, c) + 2 * blur_x(x, y, c) + blur_x(x, y + 1, c)) / 4;
        output(x, y, c) = cast<uint8_t>(blur_y(x, y, c));

        Buffer<uint8_t> result = output.realize({W, H, 3});
        tutorial::check_image("blur (clamped)", result, [&](int x, int y, int c) { return blur_ref(x, y, c, true); });

        // The same pipeline with the library's boundary condition.
        Func edge = BoundaryConditions::repeat_edge(input);
        Func in16("in16"), bx("bx"), by("by"), out2("out2");
        in16(x, y, c) = cast<uint16_t>(edge(x, y, c));
        bx(x, y, c) = (in16(x - 1, y, c) + 2 * in16(x, y, c) + in16(x + 1, y, c)) / 4;
        by(x, y, c) = (bx(x, y - 1, c) + 2 * bx(x, y, c) + bx(x, y + 1, c)) / 4;
        out2(x, y, c) = cast<uint8_t>(by(x, y, c));
        Buffer<uint8_t> result2 = out2.realize({W, H, 3});
        tutorial::check_image("blur (repeat_edge)", result2,
                              [&](int x, int y, int c) { return blur_ref(x, y, c, true); });
    }

    return tutorial::finish("lesson_07_multi_stage_pipelines");
}
