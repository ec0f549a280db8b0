// The region of an input buffer an extern stage reads is what the stage
// answers when asked (its bounds query), over every region of it computed,
// as upstream's extern_bounds_inference finds it; the stage is asked with a
// copy of the input, so the input itself keeps its shape. Expected regions
// and values are worked out here in plain C++.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "Halide.h"

using namespace Halide;

extern "C" {

// out(x, y) = in(x + dx, y + dy): asks for its output's region shifted.
HALIDE_EXPORT_SYMBOL int extern_input_bounds_shift(halide_buffer_t *in, int dx, int dy, halide_buffer_t *out) {
    if (in->is_bounds_query() || out->is_bounds_query()) {
        for (int d = 0; d < 2; d++) {
            in->dim[d].min = out->dim[d].min + (d == 0 ? dx : dy);
            in->dim[d].extent = out->dim[d].extent;
        }
        return 0;
    }
    for (int y = out->dim[1].min; y < out->dim[1].min + out->dim[1].extent; y++) {
        for (int x = out->dim[0].min; x < out->dim[0].min + out->dim[0].extent; x++) {
            const halide_dimension_t *i = in->dim, *o = out->dim;
            int src = (x + dx - i[0].min) * i[0].stride + (y + dy - i[1].min) * i[1].stride;
            int dst = (x - o[0].min) * o[0].stride + (y - o[1].min) * o[1].stride;
            out->host[dst] = in->host[src];
        }
    }
    return 0;
}

} // extern "C"

namespace {

Func shifted(ImageParam input, int dx, int dy, const std::string &name) {
    Func f(name);
    f.define_extern("extern_input_bounds_shift", {input, Expr(dx), Expr(dy)}, UInt(8), 2);
    return f;
}

void expect_region(ImageParam input, int x, int w, int y, int h) {
    Buffer<uint8_t> b = input.get();
    ASSERT_TRUE(b.defined() && b.data()) << "no bounds were inferred";
    EXPECT_EQ(b.min(0), x);
    EXPECT_EQ(b.extent(0), w);
    EXPECT_EQ(b.min(1), y);
    EXPECT_EQ(b.extent(1), h);
}

TEST(ExternInputBounds, InferredFromTheStagesAnswer) {
    const int W = 30, H = 20;
    {
        ImageParam input(UInt(8), 2, "input");
        Func f = shifted(input, 3, 7, "f");
        f.infer_input_bounds({W, H});
        expect_region(input, 3, W, 7, H);
    }
    {
        // Two stages, one computed at each row tile of the consumer.
        ImageParam input(UInt(8), 2, "input");
        Func f1 = shifted(input, 3, 7, "f1"), f2 = shifted(input, 8, 17, "f2"), g("g");
        Var x("x"), y("y"), xi("xi"), yi("yi");
        g(x, y) = f1(x, y) + f2(x, y);
        f1.compute_root();
        f2.compute_at(g, y);
        g.tile(x, y, xi, yi, 2, 4);
        g.infer_input_bounds({W, H});
        expect_region(input, 3, W + 5, 7, H + 10);
    }
    {
        // An extern stage and a Func stage reading the same input.
        ImageParam input(UInt(8), 2, "input");
        Func f1 = shifted(input, 3, 7, "f1"), f2("f2"), g("g");
        Var x("x"), y("y");
        f2(x, y) = input(x + 8, y + 17);
        g(x, y) = f1(x, y);
        g(x, y) += f2(x, y);
        f1.compute_at(g, y);
        f2.compute_at(g, x);
        g.reorder(y, x).vectorize(y, 4);
        g.update().unscheduled();
        g.infer_input_bounds({W, H});
        expect_region(input, 3, W + 5, 7, H + 10);
    }
}

TEST(ExternInputBounds, RealizedInsideALoopReadsTheRightPointsAndLeavesTheInputAlone) {
    ImageParam input(UInt(8), 2, "input");
    Func f = shifted(input, 2, 5, "f"), g("g");
    Var x("x"), y("y");
    g(x, y) = f(x, y) * 2;
    f.compute_at(g, y);
    Buffer<uint8_t> data(40, 40);
    data.for_each_element([&](int i, int j) { data(i, j) = (uint8_t)(i + 3 * j); });
    input.set(data);
    Buffer<uint8_t> out = g.realize({16, 12});
    EXPECT_EQ(data.min(0), 0); // the stage was asked with a copy of the input
    EXPECT_EQ(data.min(1), 0);
    EXPECT_EQ(data.extent(0), 40);
    for (int j = 0; j < 12; j++) {
        for (int i = 0; i < 16; i++) {
            EXPECT_EQ(out(i, j), (uint8_t)(2 * (i + 2 + 3 * (j + 5)))) << i << ", " << j;
        }
    }
    // Reading past the input is the pipeline's error, found from the answer.
    input.set(Buffer<uint8_t>(17, 17));
    try {
        g.realize({16, 12});
        FAIL() << "expected an out-of-bounds error";
    } catch (const RuntimeError &e) {
        EXPECT_NE(std::string(e.what()).find("Input buffer input"), std::string::npos) << e.what();
    }
}

} // namespace
