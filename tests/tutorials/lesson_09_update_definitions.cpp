// Lesson 9: definitions after the first. A Func can be redefined at some
// points: at constant points, along a row or column (pure Vars on the
// left), or over a reduction domain (an RDom, a loop the update walks in
// order). Update stages are scheduled separately from the pure
// definition. Inline reductions (sum, product, minimum, maximum, argmin,
// argmax) are a reduction over an RDom written as one expression.
#include <algorithm>
#include <cmath>
#include <vector>

#include "Halide.h"
#include "tutorial_check.h"

using namespace Halide;

int main() {
    Var x("x"), y("y");
    const int W = 64, H = 48;
    Buffer<uint8_t> input(W, H);
    tutorial::fill_test_image(input);

    // Updates at points, rows and columns.
    {
        Func f("f");
        f(x, y) = x + y;        // pure definition
        f(2, 1) = 42;           // one point
        f(x, 0) = f(x, 1) * 2;  // row 0 from row 1
        f(0, y) = f(0, y) + 10; // column 0
        Buffer<int> out = f.realize({5, 4});
        std::vector<int> ref(5 * 4);
        for (int yy = 0; yy < 4; yy++)
            for (int xx = 0; xx < 5; xx++)
                ref[yy * 5 + xx] = xx + yy;
        ref[1 * 5 + 2] = 42;
        for (int xx = 0; xx < 5; xx++)
            ref[0 * 5 + xx] = ref[1 * 5 + xx] * 2;
        for (int yy = 0; yy < 4; yy++)
            ref[yy * 5 + 0] += 10;
        tutorial::check_image("point/row/column updates", out, [&](int x, int y, int) { return ref[y * 5 + x]; });
        tutorial::check(f.num_update_definitions() == 3, "three update definitions");
    }

    // An RDom: the update runs r.x over [0, 50) (within a 100-wide row).
    {
        Func g("g");
        RDom r(0, 50);
        g(x) = x * x;
        g(r) = g(r) + 1;
        g(r + 50) = g(r) * 2; // reads values the loop already updated
        Buffer<int> out = g.realize({100});
        for (int i = 0; i < 100; i++) {
            int want = i < 50 ? i * i + 1 : ((i - 50) * (i - 50) + 1) * 2;
            if (out(i) != want)
                tutorial::fail("g(%d) = %d instead of %d", i, out(i), want);
        }
    }

    // A histogram of the image: a 2-D RDom over the input's extent.
    {
        Func histogram("histogram");
        histogram(x) = 0;
        RDom r(0, input.width(), 0, input.height());
        histogram(input(r.x, r.y)) += 1;
        Buffer<int> out = histogram.realize({256});
        std::vector<int> ref(256, 0);
        for (int yy = 0; yy < H; yy++)
            for (int xx = 0; xx < W; xx++)
                ref[input(xx, yy)]++;
        for (int i = 0; i < 256; i++) {
            if (out(i) != ref[i])
                tutorial::fail("histogram(%d) = %d instead of %d", i, out(i), ref[i]);
        }
    }

    // Scheduling update stages: the pure definition vectorized, the update
    // (over a row of an RDom) parallel over its pure Var y.
    {
        Func f("f_sched");
        f(x, y) = x * y;
        RDom r(0, 32);
        f(r, y) = f(r, y) + f(r + 1, y);
        f.vectorize(x, 4);
        f.update(0).parallel(y);
        Buffer<int> out = f.realize({64, 16});
        tutorial::check_image("scheduled update", out, [](int x, int y, int) {
            // Each f(r, y) reads f(r + 1, y) before r + 1 is updated.
            return x < 32 ? x * y + (x + 1) * y : x * y;
        });
    }

    // A producer computed inside a reduction: the producer is needed per
    // step of r, so compute_at(consumer, r.x) computes it there.
    {
        Func producer("producer"), consumer("consumer");
        producer(x) = x * 2;
        consumer(x) = x + 10;
        RDom r(0, 20);
        consumer(r) = consumer(r) * producer(r);
        producer.compute_at(consumer, r.x);
        Buffer<int> out = consumer.realize({30});
        for (int i = 0; i < 30; i++) {
            int want = i < 20 ? (i + 10) * (i * 2) : i + 10;
            if (out(i) != want)
                tutorial::fail("consumer(%d) = %d instead of %d", i, out(i), want);
        }
    }

    // A 3x3 box sum over the clamped input, by inline reduction and by an
    // explicit update; they must agree with each other and with C++.
    {
        Func clamped("clamped");
        clamped(x, y) = cast<int>(input(clamp(x, 0, W - 1), clamp(y, 0, H - 1)));
        RDom box(-1, 3, -1, 3);
        Func inline_sum("inline_sum"), update_sum("update_sum");
        inline_sum(x, y) = sum(clamped(x + box.x, y + box.y));
        update_sum(x, y) = 0;
        update_sum(x, y) += clamped(x + box.x, y + box.y);
        auto ref = [&](int x, int y, int) {
            int s = 0;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++)
                    s += input(std::clamp(x + dx, 0, W - 1), std::clamp(y + dy, 0, H - 1));
            return s;
        };
        Buffer<int> a = inline_sum.realize({W, H});
        Buffer<int> b = update_sum.realize({W, H});
        tutorial::check_image("inline sum", a, ref);
        tutorial::check_image("update sum", b, ref);
    }

    // The other inline reductions over a row of the input.
    {
        RDom r(0, W);
        Func mn("mn"), mx("mx"), prod("prod"), amin("amin"), amax("amax");
        mn(y) = minimum(input(r, y));
        mx(y) = maximum(input(r, y));
        RDom r10(0, 10); // a short row: the product stays within int32
        prod(y) = product(cast<int>(input(r10, y) % 3 + 1));
        Tuple am = argmin(input(r, y)), ax = argmax(input(r, y));
        amin(y) = am[0];
        amax(y) = ax[0];
        Buffer<uint8_t> bmn = mn.realize({H}), bmx = mx.realize({H});
        Buffer<int> bprod = prod.realize({H}), bamin = amin.realize({H}), bamax = amax.realize({H});
        for (int yy = 0; yy < H; yy++) {
            int lo = 255, hi = 0, lo_at = 0, hi_at = 0, p = 1;
            for (int xx = 0; xx < W; xx++) {
                int v = input(xx, yy);
                if (v < lo)
                    lo = v, lo_at = xx;
                if (v > hi)
                    hi = v, hi_at = xx;
                if (xx < 10)
                    p *= v % 3 + 1;
            }
            if (bmn(yy) != lo || bmx(yy) != hi)
                tutorial::fail("row %d: min/max %d/%d", yy, bmn(yy), bmx(yy));
            if (bprod(yy) != p)
                tutorial::fail("row %d: product %d instead of %d", yy, bprod(yy), p);
            // argmin/argmax report the first position of the extreme value.
            if (bamin(yy) != lo_at || bamax(yy) != hi_at) {
                tutorial::fail("row %d: argmin/argmax %d/%d instead of %d/%d", yy, bamin(yy), bamax(yy), lo_at, hi_at);
            }
        }
    }

    return tutorial::finish("lesson_09_update_definitions");
}
