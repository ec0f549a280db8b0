// Lesson 17: reduction domains with a condition. RDom::where() restricts
// the points an update visits to those where a condition holds: a disc, a
// triangle, conditions on several dimensions joined, and conditions that
// read another Func. The points outside are left alone (and the bounds
// inferred for the Funcs read shrink to what the condition allows, where
// the condition is simple enough to tell).
#include <vector>

#include "Halide.h"
#include "tutorial_check.h"

using namespace Halide;

int main() {
    Var x("x"), y("y");

    // A disc of radius sqrt(10) around (3, 3) inside a 7 x 7 domain.
    {
        Func circle("circle");
        circle(x, y) = x + y;
        RDom r(0, 7, 0, 7);
        r.where((r.x - 3) * (r.x - 3) + (r.y - 3) * (r.y - 3) <= 10);
        circle(r.x, r.y) *= 2;
        Buffer<int> out = circle.realize({7, 7});
        tutorial::check_image("circle", out, [](int x, int y, int) {
            bool inside = (x - 3) * (x - 3) + (y - 3) * (y - 3) <= 10;
            return inside ? (x + y) * 2 : x + y;
        });
    }

    // A triangle: two conditions, each a where() call (they are ANDed).
    {
        Func triangle("triangle");
        triangle(x, y) = 10;
        RDom r(0, 8, 0, 10);
        r.where(r.x < r.y);
        r.where(r.x + 2 * r.y <= 18);
        triangle(r.x, r.y) += r.x * r.y;
        Buffer<int> out = triangle.realize({10, 10});
        tutorial::check_image("triangle", out, [](int x, int y, int) {
            bool inside = x < 8 && x < y && x + 2 * y <= 18;
            return inside ? 10 + x * y : 10;
        });
    }

    // A condition that reads another Func: sum only the values of f above
    // a threshold.
    {
        Func f("f");
        f(x) = (x * 37) % 23;
        Func total("total");
        RDom r(0, 50);
        r.where(f(r) > 11);
        total() = 0;
        total() += f(r);
        Buffer<int> out = total.realize({});
        int want = 0;
        for (int i = 0; i < 50; i++) {
            if ((i * 37) % 23 > 11)
                want += (i * 37) % 23;
        }
        if (out() != want)
            tutorial::fail("total = %d instead of %d", out(), want);
    }

    // A where() that depends on a pure Var of the update: the RDom walks a
    // different subset per row (points left of the diagonal).
    {
        Func g("g");
        g(x, y) = 0;
        RDom r(0, 16);
        r.where(r <= y);
        g(r, y) = r + 100 * y;
        g.update().parallel(y);
        Buffer<int> out = g.realize({16, 16});
        tutorial::check_image("diagonal", out, [](int x, int y, int) { return x <= y ? x + 100 * y : 0; });
    }

    return tutorial::finish("lesson_17_predicated_rdom");
}
