// Lesson 1: the three basic objects. A Var names a coordinate, an Expr is
// arithmetic over Vars, and a Func maps coordinates to values. Defining a
// Func computes nothing; realize() JIT-compiles it and evaluates it over a
// rectangle, returning a Buffer.
#include "Halide.h"
#include "tutorial_check.h"

using namespace Halide;

int main() {
    Func gradient;
    Var x, y;

    // Expressions are built with ordinary C++ operators on Vars.
    Expr e = x + y;
    gradient(x, y) = e;

    // The default type of x + y is a 32-bit signed integer.
    tutorial::check(gradient.type() == Int(32), "x + y is Int(32)");

    // Evaluate over 800 x 600 pixels, x from 0 to 799 and y from 0 to 599.
    Buffer<int32_t> output = gradient.realize({800, 600});
    tutorial::check(output.width() == 800 && output.height() == 600, "output size");

    // The plain C++ version of the same thing.
    tutorial::check_image("gradient", output, [](int x, int y, int) { return x + y; });

    return tutorial::finish("lesson_01_basics");
}
