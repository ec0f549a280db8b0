// Lesson 4: watching a pipeline run. trace_stores() reports every value a
// Func stores (upstream prints them; here a custom trace handler collects
// them so the program can check them), and print() / print_when() print a
// value, with context, each time it is evaluated and pass it through.
#include <string>
#include <vector>

#include "Halide.h"
#include "tutorial_check.h"

using namespace Halide;

namespace {

struct Store {
    std::string func;
    int x, y, value;
};
std::vector<Store> stores;

int32_t collect_stores(JITUserContext *, const halide_trace_event_t *e) {
    if (e->event == halide_trace_store && e->type.code == halide_type_int && e->type.bits == 32) {
        const int lanes = e->type.lanes;
        for (int lane = 0; lane < lanes; lane++) {
            // Coordinates: one vector of `lanes` values per dimension.
            stores.push_back(
                {e->func, e->coordinates[lane], e->coordinates[lanes + lane], ((const int32_t *)e->value)[lane]});
        }
    }
    return 0;
}

} // namespace

int main() {
    Var x("x"), y("y");

    // Tracing every store of a 4 x 4 gradient, in the default order: y
    // outside, x inside.
    {
        Func gradient("gradient");
        gradient(x, y) = x + y;
        gradient.trace_stores();
        gradient.jit_handlers().custom_trace = collect_stores;
        stores.clear();
        Buffer<int> out = gradient.realize({4, 4});
        tutorial::check(stores.size() == 16, "16 stores traced");
        size_t i = 0;
        for (int yy = 0; yy < 4; yy++) {
            for (int xx = 0; xx < 4; xx++, i++) {
                if (i < stores.size() && (stores[i].func != "gradient" || stores[i].x != xx || stores[i].y != yy ||
                                          stores[i].value != xx + yy)) {
                    tutorial::fail("store %d is %s(%d, %d) = %d, expected gradient(%d, %d) = %d", (int)i,
                                   stores[i].func.c_str(), stores[i].x, stores[i].y, stores[i].value, xx, yy, xx + yy);
                }
            }
        }
        tutorial::check_image("gradient", out, [](int x, int y, int) { return x + y; });
    }

    // A parallel schedule stores the same values, rows in any order.
    {
        Func parallel_gradient("parallel_gradient");
        parallel_gradient(x, y) = x + y;
        parallel_gradient.trace_stores();
        parallel_gradient.parallel(y);
        parallel_gradient.jit_handlers().custom_trace = collect_stores;
        stores.clear();
        Buffer<int> out = parallel_gradient.realize({8, 8});
        std::vector<int> seen(64, 0);
        for (const Store &s : stores) {
            if (s.x >= 0 && s.x < 8 && s.y >= 0 && s.y < 8 && s.value == s.x + s.y) {
                seen[s.y * 8 + s.x]++;
            } else {
                tutorial::fail("unexpected store parallel_gradient(%d, %d) = %d", s.x, s.y, s.value);
            }
        }
        for (int k = 0; k < 64; k++) {
            if (seen[k] != 1)
                tutorial::fail("point %d stored %d times", k, seen[k]);
        }
        tutorial::check_image("parallel_gradient", out, [](int x, int y, int) { return x + y; });
    }

    // print() prints its arguments (to stderr, through the runtime's
    // halide_print) and returns the first one; print_when() prints only
    // when its condition holds. Either way the values are unchanged.
    {
        Func f("f");
        Expr s = sin(cast<float>(x)), c = cos(cast<float>(y));
        f(x, y) = s + print_when(x == 2 && y == 1, c, "<- cos(y) at x = 2, y =", y);
        Buffer<float> out = f.realize({4, 4});
        tutorial::check_image(
            "f", out, [](int x, int y, int) { return std::sin((float)x) + std::cos((float)y); }, 1e-5);

        Func g("g");
        g(x) = print(x * 3, "is three times", x);
        Buffer<int> gout = g.realize({3});
        for (int i = 0; i < 3; i++) {
            if (gout(i) != 3 * i)
                tutorial::fail("g(%d) = %d", i, gout(i));
        }
    }

    return tutorial::finish("lesson_04_debugging_2");
}
