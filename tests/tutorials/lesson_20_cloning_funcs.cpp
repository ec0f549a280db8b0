// Lesson 20: clones. f.clone_in(g) copies f's whole definition into a new
// Func that only g uses; unlike a wrapper (f.in(g)), the clone does not
// call f, so f and its clone can be computed at different places with
// different schedules, each computing exactly what its consumer needs.
// Tracing counts how many values f and the clone store.
#include <map>
#include <string>

#include "Halide.h"
#include "tutorial_check.h"

using namespace Halide;

namespace {

std::map<std::string, int> stores;

int32_t count(JITUserContext *, const halide_trace_event_t *e) {
    if (e->event == halide_trace_store)
        stores[e->func] += e->type.lanes;
    return 0;
}

} // namespace

int main() {
    Var x("x"), y("y");

    // f is read by g and h; h gets a clone of f computed inside h's rows,
    // while g reads f computed at the root.
    {
        Func f("f"), g("g"), h("h"), out("out");
        f(x, y) = x + 2 * y;
        g(x, y) = f(x, y) + 1;
        h(x, y) = f(x, y) * 3;
        out(x, y) = g(x, y) + h(x, y);
        g.compute_root();
        h.compute_root();
        f.compute_root();
        Func f_clone = f.clone_in(h);
        tutorial::check(f_clone.name() != f.name(), "the clone is a Func of its own");
        f_clone.compute_at(h, y);
        f.trace_stores();
        f_clone.trace_stores();
        out.jit_handlers().custom_trace = count;
        stores.clear();
        Buffer<int> result = out.realize({10, 6});
        tutorial::check_image("clone", result, [](int x, int y, int) { return (x + 2 * y + 1) + (x + 2 * y) * 3; });
        if (stores[f.name()] != 60 || stores[f_clone.name()] != 60) {
            tutorial::fail("f stored %d and its clone %d values, expected 60 each", stores[f.name()],
                           stores[f_clone.name()]);
        }
    }

    // A clone keeps f's update definitions.
    {
        Func f("f_upd"), g("g_upd"), h("h_upd"), out("out_upd");
        RDom r(0, 5);
        f(x) = x;
        f(r) = f(r) * 10;
        g(x) = f(x) + 1;
        h(x) = f(x) - 1;
        out(x) = g(x) * h(x);
        f.compute_root();
        Func clone = f.clone_in(g);
        clone.compute_root();
        Buffer<int> result = out.realize({8});
        for (int i = 0; i < 8; i++) {
            int fv = i < 5 ? i * 10 : i;
            if (result(i) != (fv + 1) * (fv - 1))
                tutorial::fail("out_upd(%d) = %d", i, result(i));
        }
    }

    return tutorial::finish("lesson_20_cloning_funcs");
}
