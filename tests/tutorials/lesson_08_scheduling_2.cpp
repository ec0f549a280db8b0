// Lesson 8: scheduling a producer for its consumer. A producer sin(x * y)
// read by a consumer that averages 2x2 neighbourhoods, under each way of
// placing the producer: inlined, computed in full first (compute_root), per
// row or per pixel of the consumer (compute_at), with its storage hoisted
// out of those loops (store_root: values reused between iterations, a
// sliding window), per tile, and a fast mix of tiles, vectors and threads.
// The values are the same every time; how many producer values are computed
// (counted by tracing its stores) is the trade-off each schedule makes.
#include <cmath>

#include "Halide.h"
#include "tutorial_check.h"

using namespace Halide;

namespace {

int producer_stores = 0;

int32_t count(JITUserContext *, const halide_trace_event_t *e) {
    if (e->event == halide_trace_store && std::string(e->func).find("producer") == 0) {
        producer_stores += e->type.lanes;
    }
    return 0;
}

float producer_ref(int x, int y) {
    return std::sin((float)(x * y));
}
float consumer_ref(int x, int y) {
    return (producer_ref(x, y) + producer_ref(x, y + 1) + producer_ref(x + 1, y) + producer_ref(x + 1, y + 1)) / 4;
}

// Builds the two-stage pipeline, applies `schedule`, realizes w x h and
// returns how many producer values were stored (-1 if not traced).
template <typename S> int run(const char *name, int w, int h, S schedule, bool trace = true) {
    Func producer("producer"), consumer("consumer");
    Var x("x"), y("y");
    producer(x, y) = sin(x * y);
    consumer(x, y) = (producer(x, y) + producer(x, y + 1) + producer(x + 1, y) + producer(x + 1, y + 1)) / 4;
    schedule(producer, consumer, x, y);
    if (trace) {
        producer.trace_stores();
        consumer.jit_handlers().custom_trace = count;
    }
    producer_stores = 0;
    Buffer<float> out = consumer.realize({w, h});
    tutorial::check_image(
        name, out, [](int x, int y, int) { return consumer_ref(x, y); }, 1e-5);
    return trace ? producer_stores : -1;
}

void expect_count(const char *name, int got, int want) {
    if (got != want)
        tutorial::fail("%s: the producer stored %d values, expected %d", name, got, want);
}

} // namespace

int main() {
    // Inlined: the producer is never stored; its expression is substituted
    // into the consumer (4 x 4 x 4 = 64 evaluations of sin).
    expect_count("inline", run("inline", 4, 4, [](Func &, Func &, Var &, Var &) {}), 0);

    // compute_root: all of the producer (5 x 5) before the consumer.
    expect_count("compute_root", run("compute_root", 4, 4, [](Func &p, Func &, Var &, Var &) { p.compute_root(); }),
                 25);

    // compute_at(consumer, y): two rows of five per consumer row.
    expect_count("compute_at y", run("compute_at y", 4, 4, [](Func &p, Func &c, Var &, Var &y) { p.compute_at(c, y); }),
                 4 * 2 * 5);

    // compute_at(consumer, x): a 2x2 block per consumer pixel.
    expect_count("compute_at x", run("compute_at x", 4, 4, [](Func &p, Func &c, Var &x, Var &) { p.compute_at(c, x); }),
                 4 * 4 * 4);

    // store_root + compute_at(consumer, y): rows are kept between
    // iterations of y, so each producer row is computed once.
    expect_count(
        "store_root compute_at y",
        run("store_root compute_at y", 4, 4, [](Func &p, Func &c, Var &, Var &y) { p.store_root().compute_at(c, y); }),
        25);

    // store_root + compute_at(consumer, x): values are reused along y; the
    // count is between compute_root's and compute_at x's.
    {
        int n = run("store_root compute_at x", 4, 4,
                    [](Func &p, Func &c, Var &x, Var &) { p.store_root().compute_at(c, x); });
        if (n < 25 || n > 64)
            tutorial::fail("store_root compute_at x stored %d values", n);
    }

    // Tiles: the producer is computed per 4x4 tile of the consumer,
    // (4 + 1) x (4 + 1) values for each of the 4 tiles of an 8 x 8 output.
    expect_count("tiles",
                 run("tiles", 8, 8,
                     [](Func &p, Func &c, Var &x, Var &y) {
                         Var x_outer, y_outer, x_inner, y_inner;
                         c.tile(x, y, x_outer, y_outer, x_inner, y_inner, 4, 4);
                         p.compute_at(c, x_outer);
                     }),
                 4 * 25);

    // A fast schedule: parallel strips of 16 rows, the producer computed
    // per strip and vectorized, the consumer vectorized.
    run(
        "mixed", 160, 160,
        [](Func &p, Func &c, Var &x, Var &y) {
            Var yo, yi;
            c.split(y, yo, yi, 16);
            c.parallel(yo);
            c.vectorize(x, 4);
            p.store_at(c, yo);
            p.compute_at(c, yi);
            p.vectorize(x, 4);
        },
        false);

    return tutorial::finish("lesson_08_scheduling_2");
}
