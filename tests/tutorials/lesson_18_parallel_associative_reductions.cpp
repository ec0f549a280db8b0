// Lesson 18: making reductions parallel. An update over an RDom runs its
// RDom loops in order, so they cannot simply be parallelized. When the
// update is associative (a sum, a max...), rfactor() splits it into an
// intermediate Func that reduces independent slices (which can run in
// parallel or in vectors) and a final merge. atomic() is the other way:
// the update runs in parallel with atomic read-modify-writes.
#include <vector>

#include "Halide.h"
#include "tutorial_check.h"

using namespace Halide;

int main() {
    const int W = 256, H = 128;
    Buffer<uint8_t> input(W, H);
    tutorial::fill_test_image(input);
    std::vector<int> hist_ref(256, 0);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            hist_ref[input(x, y)]++;
    auto check_hist = [&](const char *name, const Buffer<int> &h) {
        for (int i = 0; i < 256; i++) {
            if (h(i) != hist_ref[i])
                tutorial::fail("%s(%d) = %d instead of %d", name, i, h(i), hist_ref[i]);
        }
    };
    Var x("x"), y("y"), u("u");

    // The serial histogram: each bin is updated once per pixel in order.
    {
        Func histogram("histogram_serial");
        histogram(x) = 0;
        RDom r(0, W, 0, H);
        histogram(input(r.x, r.y)) += 1;
        check_hist("serial", histogram.realize({256}));
    }

    // rfactor over r.y: one partial histogram per row (intermediate(x, u)),
    // computed in parallel over rows, then summed.
    {
        Func histogram("histogram_rows");
        histogram(x) = 0;
        RDom r(0, W, 0, H);
        histogram(input(r.x, r.y)) += 1;
        Func intermediate = histogram.update().rfactor({{r.y, u}});
        intermediate.compute_root().update().parallel(u);
        check_hist("rfactor rows", histogram.realize({256}));
    }

    // Split the rows into strips first, then rfactor over the strip index:
    // fewer, larger parallel tasks. The merge is vectorized over bins.
    {
        Func histogram("histogram_strips");
        histogram(x) = 0;
        RDom r(0, W, 0, H);
        histogram(input(r.x, r.y)) += 1;
        RVar ry_outer("ry_outer"), ry_inner("ry_inner");
        histogram.update().split(r.y, ry_outer, ry_inner, 16);
        Func intermediate = histogram.update().rfactor(ry_outer, u);
        intermediate.compute_root().update().parallel(u);
        histogram.vectorize(x, 8);
        check_hist("rfactor strips", histogram.realize({256}));
    }

    // A sum vectorized with rfactor: split r.x by 8, rfactor the inner
    // part into 8 lanes of partial sums, vectorize over them.
    {
        Func total("total");
        RDom r(0, W, 0, H);
        total() = 0;
        total() += cast<int>(input(r.x, r.y));
        RVar rxo("rxo"), rxi("rxi");
        total.update().split(r.x, rxo, rxi, 8);
        Func lanes = total.update().rfactor(rxi, u);
        lanes.compute_root().vectorize(u).update().vectorize(u);
        Buffer<int> out = total.realize({});
        long want = 0;
        for (int yy = 0; yy < H; yy++)
            for (int xx = 0; xx < W; xx++)
                want += input(xx, yy);
        if (out() != want)
            tutorial::fail("vectorized sum %d instead of %ld", out(), want);
    }

    // A maximum of each row, rfactored over a split of the row: the
    // partial maxima run in parallel.
    {
        Func row_max("row_max");
        RDom r(0, W);
        row_max(y) = cast<uint8_t>(0);
        row_max(y) = max(row_max(y), input(r, y));
        RVar ro("ro"), ri("ri");
        row_max.update().split(r, ro, ri, 32);
        Func partial = row_max.update().rfactor(ro, u);
        partial.compute_root().update().parallel(u);
        Buffer<uint8_t> out = row_max.realize({H});
        for (int yy = 0; yy < H; yy++) {
            int m = 0;
            for (int xx = 0; xx < W; xx++)
                m = std::max(m, (int)input(xx, yy));
            if (out(yy) != m)
                tutorial::fail("row_max(%d) = %d instead of %d", yy, out(yy), m);
        }
    }

    // atomic(): the histogram update run in parallel over rows with atomic
    // increments.
    {
        Func histogram("histogram_atomic");
        histogram(x) = 0;
        RDom r(0, W, 0, H);
        histogram(input(r.x, r.y)) += 1;
        histogram.update().atomic().parallel(r.y);
        check_hist("atomic", histogram.realize({256}));
    }

    return tutorial::finish("lesson_18_parallel_associative_reductions");
}
