// Halide::BoundaryConditions (issue 13): each condition on Buffers,
// ImageParams and Funcs with explicit bounds, read far outside the bounds
// and at negative coordinates. Expected values come from plain C++
// (reference_coord below), never from our compiler.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "Halide.h"
#include "error_message.h"

using namespace Halide;
namespace BC = Halide::BoundaryConditions;

namespace {

enum class Mode { Constant, Edge, Wrap, Mirror, MirrorInterior };
const Mode all_modes[] = {Mode::Constant, Mode::Edge, Mode::Wrap, Mode::Mirror, Mode::MirrorInterior};

const char *mode_name(Mode m) {
    switch (m) {
    case Mode::Constant: return "constant_exterior";
    case Mode::Edge: return "repeat_edge";
    case Mode::Wrap: return "repeat_image";
    case Mode::Mirror: return "mirror_image";
    default: return "mirror_interior";
    }
}

int64_t floor_mod(int64_t a, int64_t b) {
    int64_t r = a % b;
    return r < 0 ? r + b : r;
}

// Constant's outside: no coordinate is read.
constexpr int64_t outside = INT64_MIN;

// The coordinate in [min, min + extent) read for x, or `outside`.
int64_t reference_coord(Mode m, int64_t x, int64_t min, int64_t extent) {
    int64_t t = x - min;
    if (t >= 0 && t < extent) {
        return x;
    }
    switch (m) {
    case Mode::Constant: return outside;
    case Mode::Edge: return t < 0 ? min : min + extent - 1;
    case Mode::Wrap: return min + floor_mod(t, extent);
    case Mode::Mirror: {
        int64_t u = floor_mod(t, 2 * extent);
        return min + (u < extent ? u : 2 * extent - 1 - u);
    }
    default: {
        if (extent == 1) {
            return min;
        }
        int64_t period = 2 * (extent - 1);
        int64_t u = floor_mod(t, period);
        return min + (u <= extent - 1 ? u : period - u);
    }
    }
}

// The condition `m` of a Buffer or ImageParam, with its own bounds.
template <typename T> Func apply(Mode m, const T &image, const Expr &exterior) {
    switch (m) {
    case Mode::Constant: return BC::constant_exterior(image, exterior);
    case Mode::Edge: return BC::repeat_edge(image);
    case Mode::Wrap: return BC::repeat_image(image);
    case Mode::Mirror: return BC::mirror_image(image);
    default: return BC::mirror_interior(image);
    }
}

Func apply(Mode m, const Func &f, const Region &bounds, const Expr &exterior) {
    switch (m) {
    case Mode::Constant: return BC::constant_exterior(f, exterior, bounds);
    case Mode::Edge: return BC::repeat_edge(f, bounds);
    case Mode::Wrap: return BC::repeat_image(f, bounds);
    case Mode::Mirror: return BC::mirror_image(f, bounds);
    default: return BC::mirror_interior(f, bounds);
    }
}

// Sample coordinates: x0 + x * step covers far outside on both sides.
constexpr int step = 7, start = -60, samples = 20;

} // namespace

TEST(BoundaryConditions, OneDimensionalBuffer) {
    // min 3, extent 5: elements 3..7 hold 10 * x + 1.
    for (int extent : {5, 1}) {
        Buffer<int32_t> in(extent);
        in->set_min({3});
        for (int x = 3; x < 3 + extent; x++) {
            in(x) = 10 * x + 1;
        }
        for (Mode m : all_modes) {
            Func bc = apply(m, in, -7);
            Var x("x");
            Func out("out");
            out(x) = bc(x * step + start);
            Buffer<int32_t> r = out.realize({samples});
            for (int i = 0; i < samples; i++) {
                int64_t c = reference_coord(m, i * step + start, 3, extent);
                ASSERT_EQ(r(i), c == outside ? -7 : in((int)c)) << mode_name(m) << " extent " << extent << " at " << i;
            }
        }
    }
}

TEST(BoundaryConditions, TwoDimensionalImageParam) {
    ImageParam im(UInt(8), 2, "im");
    Buffer<uint8_t> in(6, 4);
    in->set_min({-2, 5});
    for (int y = 5; y < 9; y++) {
        for (int x = -2; x < 4; x++) {
            in(x, y) = (uint8_t)(x * 17 + y * 5 + 40);
        }
    }
    im.set(in);
    Var x("x"), y("y");
    for (Mode m : all_modes) {
        Func bc = apply(m, im, 255);
        Func out("out");
        out(x, y) = bc(x * 5 - 31, y * 3 - 17);
        // The ImageParam is bound to a buffer of exactly its bounds: any
        // read outside them would fail the pipeline's bounds check.
        Buffer<uint8_t> r = out.realize({16, 14});
        for (int j = 0; j < 14; j++) {
            for (int i = 0; i < 16; i++) {
                int64_t cx = reference_coord(m, i * 5 - 31, -2, 6), cy = reference_coord(m, j * 3 - 17, 5, 4);
                int expected = (cx == outside || cy == outside) ? 255 : in((int)cx, (int)cy);
                ASSERT_EQ(r(i, j), expected) << mode_name(m) << " at " << i << ", " << j;
            }
        }
    }
}

TEST(BoundaryConditions, EveryWidthToFortyAndOvershootsOfThreeExtentsVectorized) {
    // Images 1 to 40 wide (min -3), read from 3 extents (and 5 points)
    // before the image to 3 extents after it: the near band (one period
    // around the image, computed without a division) and the far
    // coordinates beyond it. A five-tap stencil vectorized by 8 and a
    // single tap, scalar and vectorized by 16, against plain C++.
    ImageParam im(Int(32), 1, "im");
    Param<int> first("first");
    Var x("x");
    for (Mode m : all_modes) {
        for (int vec : {1, 8, 16}) {
            Func bc = apply(m, im, -7);
            Func out("out");
            out(x) = Tuple(bc(x + first), bc(x + first - 2) + bc(x + first - 1) * 3 + bc(x + first) * 5 +
                                              bc(x + first + 1) * 7 + bc(x + first + 2) * 11);
            if (vec > 1) {
                out.vectorize(x, vec, TailStrategy::GuardWithIf);
            }
            for (int extent = 1; extent <= 40; extent++) {
                Buffer<int32_t> in(extent);
                in->set_min({-3});
                for (int i = -3; i < extent - 3; i++) {
                    in(i) = i * 1000 + (i * 7919) % 97;
                }
                im.set(in);
                int lo = -3 - 3 * extent - 5, n = 7 * extent + 10;
                first.set(lo);
                Realization r = out.realize({n});
                Buffer<int32_t> one = r[0], five = r[1];
                auto at = [&](int64_t c) {
                    int64_t k = reference_coord(m, c, -3, extent);
                    return k == outside ? -7 : in((int)k);
                };
                for (int i = 0; i < n; i++) {
                    int64_t c = lo + i;
                    ASSERT_EQ(one(i), at(c)) << mode_name(m) << " width " << extent << " vector " << vec << " at " << c;
                    int expected = at(c - 2) + at(c - 1) * 3 + at(c) * 5 + at(c + 1) * 7 + at(c + 2) * 11;
                    ASSERT_EQ(five(i), expected)
                        << mode_name(m) << " width " << extent << " vector " << vec << " five taps at " << c;
                }
            }
        }
    }
}

TEST(BoundaryConditions, TwoDimensionsNearAndFarInBoth) {
    // Small 2-D images read from 3 extents before to 3 after in both
    // dimensions, vectorized along x: the rows beyond the top and bottom
    // and the vectors beyond the sides.
    ImageParam im(UInt(16), 2, "im");
    Var x("x"), y("y");
    for (Mode m : all_modes) {
        Func bc = apply(m, im, 9);
        Func out("out");
        Param<int> fx("fx"), fy("fy");
        out(x, y) = bc(x + fx - 1, y + fy) + bc(x + fx + 1, y + fy - 1) * 2;
        out.vectorize(x, 8, TailStrategy::GuardWithIf);
        for (int w : {1, 2, 3, 5, 17}) {
            for (int h : {1, 2, 4, 9}) {
                Buffer<uint16_t> in(w, h);
                in->set_min({2, -1});
                for (int j = -1; j < h - 1; j++) {
                    for (int i = 2; i < w + 2; i++) {
                        in(i, j) = (uint16_t)(i * 31 + j * 257 + 3);
                    }
                }
                im.set(in);
                int lx = 2 - 3 * w - 2, ly = -1 - 3 * h - 2, nx = 7 * w + 4, ny = 7 * h + 4;
                fx.set(lx);
                fy.set(ly);
                Buffer<uint16_t> r = out.realize({nx, ny});
                auto at = [&](int64_t i, int64_t j) {
                    int64_t cx = reference_coord(m, i, 2, w), cy = reference_coord(m, j, -1, h);
                    return (cx == outside || cy == outside) ? 9 : (int)in((int)cx, (int)cy);
                };
                for (int j = 0; j < ny; j++) {
                    for (int i = 0; i < nx; i++) {
                        int64_t cx = lx + i, cy = ly + j;
                        uint16_t expected = (uint16_t)(at(cx - 1, cy) + at(cx + 1, cy - 1) * 2);
                        ASSERT_EQ(r(i, j), expected)
                            << mode_name(m) << " " << w << "x" << h << " at " << cx << ", " << cy;
                    }
                }
            }
        }
    }
}

TEST(BoundaryConditions, FuncWithBoundsAndAnUnboundedDimension) {
    Var x("x"), y("y");
    Func f("f");
    f(x, y) = x * 100 + y;
    // x bounded to [-4, 5), y unbounded (an undefined Range).
    Region bounds = {{-4, 9}, Range{}};
    for (Mode m : all_modes) {
        Func bc = apply(m, f, bounds, 12345);
        EXPECT_EQ(bc.dimensions(), 2);
        Func out("out");
        out(x, y) = bc(x * 3 - 40, y * 50 - 300);
        out.vectorize(x, 8);
        Buffer<int32_t> r = out.realize({32, 12});
        for (int j = 0; j < 12; j++) {
            for (int i = 0; i < 32; i++) {
                int64_t cx = reference_coord(m, i * 3 - 40, -4, 9);
                int64_t yy = j * 50 - 300;
                int64_t expected = cx == outside ? 12345 : cx * 100 + yy;
                ASSERT_EQ(r(i, j), expected) << mode_name(m) << " at " << i << ", " << j;
            }
        }
    }
}

TEST(BoundaryConditions, FewerBoundsThanDimensionsAndVariadicBounds) {
    Var x("x"), y("y");
    Func f("f");
    f(x, y) = x + y * 10;
    Func edge = BC::repeat_edge(f, {{0, 4}}); // y left unbounded
    Func konst = BC::constant_exterior(f, -1, 0, 4, 0, 3);
    Func out("out");
    out(x, y) = Tuple(edge(x - 5, y - 5), konst(x - 5, y - 5));
    Realization r = out.realize({14, 13});
    Buffer<int32_t> e = r[0], k = r[1];
    for (int j = 0; j < 13; j++) {
        for (int i = 0; i < 14; i++) {
            int cx = (int)reference_coord(Mode::Edge, i - 5, 0, 4);
            ASSERT_EQ(e(i, j), cx + (j - 5) * 10);
            bool inside = i - 5 >= 0 && i - 5 < 4 && j - 5 >= 0 && j - 5 < 3;
            ASSERT_EQ(k(i, j), inside ? (i - 5) + (j - 5) * 10 : -1);
        }
    }
}

TEST(BoundaryConditions, TupleValues) {
    Var x("x");
    Func f("f");
    f(x) = Tuple(x * 2, cast<float>(x) + 0.5f);
    Func konst = BC::constant_exterior(f, Tuple(-1, 9.0f), {{2, 3}});
    Func mirror = BC::mirror_image(f, {{2, 3}});
    EXPECT_EQ(konst.outputs(), 2);
    Func out("out");
    out(x) = Tuple(konst(x - 10)[0], konst(x - 10)[1], mirror(x - 10)[0], mirror(x - 10)[1]);
    Realization r = out.realize({25});
    Buffer<int32_t> k0 = r[0], m0 = r[2];
    Buffer<float> k1 = r[1], m1 = r[3];
    for (int i = 0; i < 25; i++) {
        int64_t c = reference_coord(Mode::Constant, i - 10, 2, 3);
        EXPECT_EQ(k0(i), c == outside ? -1 : c * 2);
        EXPECT_EQ(k1(i), c == outside ? 9.0f : c + 0.5f);
        int mc = (int)reference_coord(Mode::Mirror, i - 10, 2, 3);
        EXPECT_EQ(m0(i), mc * 2);
        EXPECT_EQ(m1(i), mc + 0.5f);
    }
}

TEST(BoundaryConditions, ExteriorValueTakesTheFuncsType) {
    Buffer<uint8_t> in(3);
    for (int i = 0; i < 3; i++) {
        in(i) = (uint8_t)(i + 1);
    }
    Func bc = BC::constant_exterior(in, 300); // an int literal: cast to uint8 (300 wraps to 44), as upstream
    EXPECT_EQ(bc.type(), UInt(8));
    Var x("x");
    Func out("out");
    out(x) = bc(x - 1);
    Buffer<uint8_t> r = out.realize({5});
    EXPECT_EQ(r(0), 44);
    EXPECT_EQ(r(1), 1);
    EXPECT_EQ(r(3), 3);
    EXPECT_EQ(r(4), 44);
}

TEST(BoundaryConditions, ResultsAreNamedAndUseTheSourcesVars) {
    Var x("x"), y("y");
    Func f("f");
    f(x, y) = x + y;
    Func bc = BC::mirror_interior(f, {{0, 4}, {0, 4}});
    EXPECT_EQ(bc.name().rfind("mirror_interior", 0), 0u);
    ASSERT_EQ(bc.args().size(), 2u);
    EXPECT_EQ(bc.args()[0].name(), "x");
    EXPECT_EQ(bc.args()[1].name(), "y");
}

TEST(BoundaryConditions, Errors) {
    Var x("x"), y("y");
    Func f("f");
    f(x, y) = x + y;
    EXPECT_NE(message_of([&] {
                  BC::repeat_edge(f, {{0, 1}, {0, 1}, {0, 1}});
              }).find("repeat_edge called with more bounds (3) than dimensions (2) Func f has"),
              std::string::npos);
    EXPECT_NE(message_of([&] {
                  BC::constant_exterior(f, 0, {{0, 1}, {0, 1}, {0, 1}});
              }).find("constant_exterior called with more bounds (3) than dimensions (2)"),
              std::string::npos);
    EXPECT_NE(message_of([&] {
                  BC::mirror_image(f, {{Expr(), 4}});
              }).find("Partially undefined bounds for dimension x of Func f"),
              std::string::npos);
    EXPECT_NE(message_of([&] {
                  BC::constant_exterior(f, Tuple(1, 2), {{0, 4}});
              }).find("the exterior value has 2 element(s), but the Func has 1 value(s)"),
              std::string::npos);
    EXPECT_NE(message_of([&] {
                  BC::constant_exterior(f, 1.5f, {{0, 4}});
              }).find("has type float32"),
              std::string::npos);
    EXPECT_NE(message_of([&] { BC::constant_exterior(f, Expr(), {{0, 4}}); }).find("is undefined"), std::string::npos);
    Func undefined("u");
    EXPECT_NE(message_of([&] {
                  BC::repeat_image(undefined, {{0, 4}});
              }).find("has not been defined"),
              std::string::npos);
    ImageParam im(Int(32), 2, "im");
    EXPECT_NE(message_of([&] {
                  BC::repeat_edge(im, {{0, 1}, {0, 1}, {0, 1}});
              }).find("more bounds (3)"),
              std::string::npos);
    EXPECT_THROW(BC::repeat_edge(f, {{0, 1}, {0, 1}, {0, 1}}), CompileError);
}
