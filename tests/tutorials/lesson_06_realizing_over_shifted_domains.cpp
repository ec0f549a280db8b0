// Lesson 6: realizing over a domain that does not start at zero. A Buffer
// whose mins are moved with set_min() can be realized into: the Func is
// evaluated over exactly that region, in the Buffer's coordinates.
#include "Halide.h"
#include "tutorial_check.h"

using namespace Halide;

int main() {
    Func gradient("gradient");
    Var x("x"), y("y");
    gradient(x, y) = x * y;

    // Realize over 8 x 8 starting at the origin.
    Buffer<int> result(8, 8);
    gradient.realize(result);
    tutorial::check_image("origin", result, [](int x, int y, int) { return x * y; });

    // A 5 x 7 buffer covering x in [100, 104] and y in [50, 56].
    Buffer<int> shifted(5, 7);
    shifted.set_min(100, 50);
    tutorial::check(shifted.min(0) == 100 && shifted.min(1) == 50, "set_min moved the mins");
    tutorial::check(shifted.extent(0) == 5 && shifted.extent(1) == 7, "set_min keeps the extents");
    gradient.realize(shifted);
    // check_image walks the buffer's own coordinates.
    tutorial::check_image("shifted", shifted, [](int x, int y, int) { return x * y; });
    tutorial::check(shifted(100, 50) == 5000 && shifted(104, 56) == 104 * 56, "corners of the shifted region");

    // A negative origin works the same.
    Buffer<int> negative(3, 4);
    negative.set_min(-2, -10);
    gradient.realize(negative);
    tutorial::check_image("negative", negative, [](int x, int y, int) { return x * y; });

    return tutorial::finish("lesson_06_realizing_over_shifted_domains");
}
