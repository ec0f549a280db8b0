// Lesson 2: processing an image. A Buffer holding an input image can be
// called like a Func inside a definition. Brightening multiplies each
// channel by 1.5 in floating point, clamps to 255 and converts back to
// 8 bits. (Upstream loads a PNG from disk; the image here is made in code.)
#include "Halide.h"
#include "tutorial_check.h"

using namespace Halide;

int main() {
    Buffer<uint8_t> input(320, 240, 3);
    tutorial::fill_test_image(input);

    Func brighter;
    Var x, y, c;

    // Build the value one step at a time, each step a new Expr.
    Expr value = input(x, y, c);
    value = cast<float>(value);
    value = value * 1.5f;
    value = min(value, 255.0f);
    value = cast<uint8_t>(value);
    brighter(x, y, c) = value;

    // The same definition written in one line gives the same image.
    Func brighter_one_line;
    brighter_one_line(x, y, c) = cast<uint8_t>(min(input(x, y, c) * 1.5f, 255));

    // The output has the input's size; asking for more would read outside
    // the input, which Halide reports as an error before running.
    Buffer<uint8_t> output = brighter.realize({input.width(), input.height(), input.channels()});
    Buffer<uint8_t> output2 = brighter_one_line.realize({input.width(), input.height(), input.channels()});

    auto reference = [&](int x, int y, int c) {
        float v = (float)input(x, y, c) * 1.5f;
        return (uint8_t)std::min(v, 255.0f);
    };
    tutorial::check_image("brighter", output, reference);
    tutorial::check_image("brighter_one_line", output2, reference);

    // Realizing beyond the input is refused with a run-time error.
    bool threw = false;
    try {
        brighter.realize({input.width() + 1, input.height(), input.channels()});
    } catch (const RuntimeError &) {
        threw = true;
    }
    tutorial::check(threw, "reading past the input's edge is a RuntimeError");

    return tutorial::finish("lesson_02_input_image");
}
