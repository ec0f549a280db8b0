// Lesson 19: wrappers. f.in(g) makes a new Func that just calls f and
// replaces f in g's definition only; f.in() does so for every consumer.
// A wrapper is scheduled like any Func, which allows: computing f once and
// copying the part one consumer needs into a small local buffer (staging),
// giving one consumer a differently scheduled copy of the values, or
// reorganizing memory (a transposed copy) between producer and consumer.
// Each case is checked against C++, and the wrapper's work is counted by
// tracing its stores.
#include <string>

#include "Halide.h"
#include "tutorial_check.h"

using namespace Halide;

namespace {

std::string traced;
int traced_stores = 0;

int32_t count(JITUserContext *, const halide_trace_event_t *e) {
    if (e->event == halide_trace_store && traced == e->func)
        traced_stores += e->type.lanes;
    return 0;
}

} // namespace

int main() {
    Var x("x"), y("y"), xo("xo"), yo("yo"), xi("xi"), yi("yi");

    // A global wrapper: every consumer of f now reads f_global, which is
    // computed per 4x4 tile of g from f computed once at the root.
    {
        Func f("f"), g("g");
        f(x, y) = x + y;
        g(x, y) = 2 * f(x, y) + 3;
        Func wrapper = f.in();
        f.compute_root();
        g.tile(x, y, xo, yo, xi, yi, 4, 4);
        wrapper.compute_at(g, xo);
        tutorial::check(wrapper.name() != f.name(), "the wrapper is a Func of its own");
        wrapper.trace_stores();
        g.jit_handlers().custom_trace = count;
        traced = wrapper.name();
        traced_stores = 0;
        Buffer<int> out = g.realize({8, 8});
        tutorial::check_image("global wrapper", out, [](int x, int y, int) { return 2 * (x + y) + 3; });
        if (traced_stores != 64)
            tutorial::fail("the wrapper stored %d values, expected 4 tiles of 16", traced_stores);
        // Asking again returns the same wrapper.
        tutorial::check(f.in().name() == wrapper.name(), "f.in() twice is one wrapper");
    }

    // A wrapper for one consumer: g reads f through a wrapper computed per
    // row of g; h reads f itself (computed at the root).
    {
        Func f("f2"), g("g2"), h("h2"), out("out2");
        f(x, y) = x * y;
        g(x, y) = f(x, y) + 1;
        h(x, y) = f(y, x) - 1;
        out(x, y) = g(x, y) + h(x, y);
        f.compute_root();
        g.compute_root();
        h.compute_root();
        Func f_in_g = f.in(g);
        f_in_g.compute_at(g, y).vectorize(x, 4);
        f_in_g.trace_stores();
        out.jit_handlers().custom_trace = count;
        traced = f_in_g.name();
        traced_stores = 0;
        Buffer<int> result = out.realize({16, 12});
        tutorial::check_image("per-consumer wrapper", result,
                              [](int x, int y, int) { return (x * y + 1) + (y * x - 1); });
        if (traced_stores != 16 * 12)
            tutorial::fail("f_in_g stored %d values, expected %d", traced_stores, 16 * 12);
    }

    // Staging an input: a blur reads its input through a wrapper computed
    // per tile, so each tile's input (with its 1-pixel border) is copied
    // to a small buffer first.
    {
        Buffer<uint8_t> image(70, 50);
        tutorial::fill_test_image(image);
        Func input("input"), blur("blur");
        input(x, y) = cast<uint16_t>(image(clamp(x, 0, 69), clamp(y, 0, 49)));
        blur(x, y) = (input(x - 1, y) + input(x, y) + input(x + 1, y) + input(x, y - 1) + input(x, y + 1)) / 5;
        Func staged = input.in(blur);
        blur.tile(x, y, xo, yo, xi, yi, 16, 8).vectorize(xi, 8).parallel(yo);
        staged.compute_at(blur, xo).vectorize(x, 8);
        Buffer<uint16_t> out = blur.realize({64, 48});
        tutorial::check_image("staged blur", out, [&](int x, int y, int) {
            auto in = [&](int a, int b) { return (int)image(std::clamp(a, 0, 69), std::clamp(b, 0, 49)); };
            return (in(x - 1, y) + in(x, y) + in(x + 1, y) + in(x, y - 1) + in(x, y + 1)) / 5;
        });
    }

    // A transposed copy: the consumer reads f down columns; the wrapper
    // stores f's values with y innermost so those reads are contiguous.
    {
        Func f("f4"), g("g4");
        f(x, y) = x * 100 + y;
        g(x, y) = f(y, x) * 2;
        f.compute_root();
        Func transposed = f.in(g);
        transposed.compute_root().reorder_storage(y, x);
        Buffer<int> out = g.realize({20, 30});
        tutorial::check_image("transposed wrapper", out, [](int x, int y, int) { return (y * 100 + x) * 2; });
    }

    return tutorial::finish("lesson_19_wrapper_funcs");
}
