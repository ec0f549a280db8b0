// Lesson 5: the order of evaluation. The same gradient under reorder,
// split, fuse, tile, vectorize, unroll and parallel schedules: the values
// never change, only the order in which points are computed. Each order is
// observed with trace_stores() and compared with the plain C++ loop nest
// the schedule describes.
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "Halide.h"
#include "tutorial_check.h"

using namespace Halide;

namespace {

using Point = std::pair<int, int>;
std::vector<Point> order;

int32_t record(JITUserContext *, const halide_trace_event_t *e) {
    if (e->event == halide_trace_store) {
        const int lanes = e->type.lanes;
        for (int lane = 0; lane < lanes; lane++) {
            int px = e->coordinates[lane], py = e->coordinates[lanes + lane];
            if (((const int32_t *)e->value)[lane] != px + py) {
                tutorial::fail("stored %d at (%d, %d)", ((const int32_t *)e->value)[lane], px, py);
            }
            order.push_back({px, py});
        }
    }
    return 0;
}

// Realizes f over w x h with tracing and compares the order of stores with
// the one `reference` produces.
void check_order(const char *name, Func f, int w, int h, const std::function<void(std::vector<Point> &)> &reference) {
    f.trace_stores();
    f.jit_handlers().custom_trace = record;
    order.clear();
    Buffer<int> out = f.realize({w, h});
    tutorial::check_image(name, out, [](int x, int y, int) { return x + y; });
    std::vector<Point> want;
    reference(want);
    if (order != want) {
        tutorial::fail("%s: %d stores in an unexpected order", name, (int)order.size());
        for (size_t i = 0; i < order.size() && i < want.size(); i++) {
            if (order[i] != want[i]) {
                tutorial::fail("  store %d at (%d, %d), expected (%d, %d)", (int)i, order[i].first, order[i].second,
                               want[i].first, want[i].second);
                break;
            }
        }
    }
}

} // namespace

int main() {
    Var x("x"), y("y");

    // Default: row by row, y outer, x inner.
    {
        Func gradient("gradient");
        gradient(x, y) = x + y;
        check_order("default", gradient, 4, 4, [](auto &o) {
            for (int y = 0; y < 4; y++)
                for (int x = 0; x < 4; x++)
                    o.push_back({x, y});
        });
    }
    // reorder(y, x): column by column (y innermost).
    {
        Func gradient("gradient_col_major");
        gradient(x, y) = x + y;
        gradient.reorder(y, x);
        check_order("reorder", gradient, 4, 4, [](auto &o) {
            for (int x = 0; x < 4; x++)
                for (int y = 0; y < 4; y++)
                    o.push_back({x, y});
        });
    }
    // split(x, x_outer, x_inner, 2): the same order, as two nested loops.
    {
        Func gradient("gradient_split");
        Var x_outer, x_inner;
        gradient(x, y) = x + y;
        gradient.split(x, x_outer, x_inner, 2);
        check_order("split", gradient, 4, 4, [](auto &o) {
            for (int y = 0; y < 4; y++)
                for (int xo = 0; xo < 2; xo++)
                    for (int xi = 0; xi < 2; xi++)
                        o.push_back({xo * 2 + xi, y});
        });
    }
    // fuse(x, y, fused): one loop over all points.
    {
        Func gradient("gradient_fused");
        Var fused;
        gradient(x, y) = x + y;
        gradient.fuse(x, y, fused);
        check_order("fuse", gradient, 4, 4, [](auto &o) {
            for (int f = 0; f < 16; f++)
                o.push_back({f % 4, f / 4});
        });
    }
    // tile: 4 x 4 tiles of an 8 x 8 image, each tile row by row.
    {
        Func gradient("gradient_tiled");
        Var x_outer, x_inner, y_outer, y_inner;
        gradient(x, y) = x + y;
        gradient.split(x, x_outer, x_inner, 4);
        gradient.split(y, y_outer, y_inner, 4);
        gradient.reorder(x_inner, y_inner, x_outer, y_outer);
        check_order("tile", gradient, 8, 8, [](auto &o) {
            for (int yo = 0; yo < 2; yo++)
                for (int xo = 0; xo < 2; xo++)
                    for (int yi = 0; yi < 4; yi++)
                        for (int xi = 0; xi < 4; xi++)
                            o.push_back({xo * 4 + xi, yo * 4 + yi});
        });
        // The shorthand gives the same order.
        Func gradient2("gradient_tiled2");
        gradient2(x, y) = x + y;
        gradient2.tile(x, y, x_outer, y_outer, x_inner, y_inner, 4, 4);
        check_order("tile shorthand", gradient2, 8, 8, [](auto &o) {
            for (int yo = 0; yo < 2; yo++)
                for (int xo = 0; xo < 2; xo++)
                    for (int yi = 0; yi < 4; yi++)
                        for (int xi = 0; xi < 4; xi++)
                            o.push_back({xo * 4 + xi, yo * 4 + yi});
        });
    }
    // vectorize: the inner loop of a split by 4 becomes one vector store
    // of four lanes (traced as one event of four values).
    {
        Func gradient("gradient_in_vectors");
        Var x_outer, x_inner;
        gradient(x, y) = x + y;
        gradient.split(x, x_outer, x_inner, 4);
        gradient.vectorize(x_inner);
        check_order("vectorize", gradient, 8, 4, [](auto &o) {
            for (int y = 0; y < 4; y++)
                for (int x = 0; x < 8; x++)
                    o.push_back({x, y});
        });
    }
    // unroll: the inner loop is written out, same order.
    {
        Func gradient("gradient_unroll");
        Var x_outer, x_inner;
        gradient(x, y) = x + y;
        gradient.split(x, x_outer, x_inner, 2);
        gradient.unroll(x_inner);
        check_order("unroll", gradient, 4, 4, [](auto &o) {
            for (int y = 0; y < 4; y++)
                for (int x = 0; x < 4; x++)
                    o.push_back({x, y});
        });
    }
    // A split that does not divide the extent: 7 wide by 3. The last
    // iteration shifts back to end at the edge, recomputing x = 4 and 5.
    {
        Func gradient("split_uneven");
        Var x_outer, x_inner;
        gradient(x, y) = x + y;
        gradient.split(x, x_outer, x_inner, 3);
        check_order("uneven split", gradient, 7, 2, [](auto &o) {
            for (int y = 0; y < 2; y++)
                for (int xo = 0; xo < 3; xo++)
                    for (int xi = 0; xi < 3; xi++)
                        o.push_back({std::min(xo * 3, 7 - 3) + xi, y});
        });
    }
    // Fusing the tile indices of a tiled Func gives one loop over tiles.
    {
        Func gradient("gradient_fused_tiles");
        Var x_outer, y_outer, x_inner, y_inner, tile_index;
        gradient(x, y) = x + y;
        gradient.tile(x, y, x_outer, y_outer, x_inner, y_inner, 4, 4);
        gradient.fuse(x_outer, y_outer, tile_index);
        check_order("fused tiles", gradient, 8, 8, [](auto &o) {
            for (int t = 0; t < 4; t++)
                for (int yi = 0; yi < 4; yi++)
                    for (int xi = 0; xi < 4; xi++)
                        o.push_back({(t % 2) * 4 + xi, (t / 2) * 4 + yi});
        });
    }
    // Everything at once, in parallel over tiles: the order between tiles
    // is not fixed, so only the values are compared.
    {
        Func gradient("gradient_fast");
        Var x_outer, y_outer, x_inner, y_inner, tile_index, x_inner_outer, y_inner_outer, x_vectors, y_pairs;
        gradient(x, y) = x + y;
        gradient.tile(x, y, x_outer, y_outer, x_inner, y_inner, 64, 64)
            .fuse(x_outer, y_outer, tile_index)
            .parallel(tile_index);
        gradient.tile(x_inner, y_inner, x_inner_outer, y_inner_outer, x_vectors, y_pairs, 4, 2)
            .vectorize(x_vectors)
            .unroll(y_pairs);
        Buffer<int> out = gradient.realize({350, 250});
        tutorial::check_image("gradient_fast", out, [](int x, int y, int) { return x + y; });
    }

    return tutorial::finish("lesson_05_scheduling_1");
}
