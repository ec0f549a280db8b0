// A local Laplacian filter with the shape of upstream's local_laplacian app
// (issue 12): Gaussian and Laplacian pyramids of the image remapped around
// several intensity levels, a lookup table for the detail curve, levels
// picked per pixel by the input's own Gaussian pyramid, the pyramid
// collapsed. The expected output is computed here in plain C++ from the
// algorithm's description, never by our compiler.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <vector>

#include "Halide.h"

using namespace Halide;

namespace {

Var x("x"), y("y"), c("c"), k("k");

// [1 3 3 1] / 8 along x then y, keeping every other sample. `rest` are the
// Func's other dimensions.
Func downsample(const Func &f, const std::vector<Var> &rest) {
    auto args = [&](const Expr &a, const Expr &b) {
        std::vector<Expr> v{a, b};
        v.insert(v.end(), rest.begin(), rest.end());
        return v;
    };
    std::vector<Var> lhs{x, y};
    lhs.insert(lhs.end(), rest.begin(), rest.end());
    Func dx("dx"), dy("dy");
    dx(lhs) =
        (f(args(2 * x - 1, y)) + 3.0f * (f(args(2 * x, y)) + f(args(2 * x + 1, y))) + f(args(2 * x + 2, y))) / 8.0f;
    dy(lhs) =
        (dx(args(x, 2 * y - 1)) + 3.0f * (dx(args(x, 2 * y)) + dx(args(x, 2 * y + 1))) + dx(args(x, 2 * y + 2))) / 8.0f;
    return dy;
}

// Linear interpolation to twice the size, along x then y.
Func upsample(const Func &f, const std::vector<Var> &rest) {
    auto args = [&](const Expr &a, const Expr &b) {
        std::vector<Expr> v{a, b};
        v.insert(v.end(), rest.begin(), rest.end());
        return v;
    };
    std::vector<Var> lhs{x, y};
    lhs.insert(lhs.end(), rest.begin(), rest.end());
    Func ux("ux"), uy("uy");
    ux(lhs) = 0.25f * f(args((x / 2) - 1 + 2 * (x % 2), y)) + 0.75f * f(args(x / 2, y));
    uy(lhs) = 0.25f * ux(args(x, (y / 2) - 1 + 2 * (y % 2))) + 0.75f * ux(args(x, y / 2));
    return uy;
}

Func local_laplacian(ImageParam input, Param<int> levels, Param<float> alpha, Param<float> beta, int J, bool schedule) {
    Func remap("remap");
    Expr t = cast<float>(x) / 256.0f;
    remap(x) = alpha * t * exp(-t * t / 2.0f);

    Func clamped = BoundaryConditions::repeat_edge(input);
    Func floating("floating"), gray("gray");
    floating(x, y, c) = cast<float>(clamped(x, y, c)) / 65535.0f;
    gray(x, y) = 0.299f * floating(x, y, 0) + 0.587f * floating(x, y, 1) + 0.114f * floating(x, y, 2);

    std::vector<Func> g(J), l(J), in_g(J), out_l(J), out_g(J);
    Expr level = cast<float>(k) * (1.0f / cast<float>(levels - 1));
    Expr idx = clamp(cast<int>(gray(x, y) * cast<float>(levels - 1) * 256.0f), 0, (levels - 1) * 256);
    g[0](x, y, k) = beta * (gray(x, y) - level) + level + remap(idx - 256 * k);
    for (int j = 1; j < J; j++) {
        g[j](x, y, k) = downsample(g[j - 1], {k})(x, y, k);
    }
    l[J - 1](x, y, k) = g[J - 1](x, y, k);
    for (int j = J - 2; j >= 0; j--) {
        l[j](x, y, k) = g[j](x, y, k) - upsample(g[j + 1], {k})(x, y, k);
    }
    in_g[0](x, y) = gray(x, y);
    for (int j = 1; j < J; j++) {
        in_g[j](x, y) = downsample(in_g[j - 1], {})(x, y);
    }
    for (int j = 0; j < J; j++) {
        Expr lv = in_g[j](x, y) * cast<float>(levels - 1);
        Expr li = clamp(cast<int>(lv), 0, levels - 2);
        Expr lf = lv - cast<float>(li);
        out_l[j](x, y) = (1.0f - lf) * l[j](x, y, li) + lf * l[j](x, y, li + 1);
    }
    out_g[J - 1](x, y) = out_l[J - 1](x, y);
    for (int j = J - 2; j >= 0; j--) {
        out_g[j](x, y) = upsample(out_g[j + 1], {})(x, y) + out_l[j](x, y);
    }
    Func color("color"), output("output");
    color(x, y, c) = out_g[0](x, y) * (floating(x, y, c) + 0.01f) / (gray(x, y) + 0.01f);
    output(x, y, c) = cast<uint16_t>(clamp(color(x, y, c), 0.0f, 1.0f) * 65535.0f);

    if (schedule) { // upstream's CPU schedule, with smaller strips
        Var yo("yo"), yi("yi");
        remap.compute_root();
        output.reorder(c, x, y).split(y, yo, yi, 16).parallel(yo).vectorize(x, 8);
        gray.compute_root().parallel(y, 16).vectorize(x, 8);
        for (int j = 0; j < J; j++) {
            if (j > 0) {
                in_g[j].compute_root().parallel(y, 16).vectorize(x, 8);
            }
            g[j].compute_root().reorder_storage(x, k, y).reorder(k, y).parallel(y, 8).vectorize(x, 8);
            out_g[j].compute_root().parallel(y, 16).vectorize(x, 8);
        }
    } else { // every level at the root, serial (inlined, the pyramid is recomputed per pixel)
        remap.compute_root();
        gray.compute_root();
        for (int j = 0; j < J; j++) {
            g[j].compute_root();
            l[j].compute_root();
            in_g[j].compute_root();
            out_g[j].compute_root();
        }
    }
    return output;
}

// ---- The plain C++ reference ----

// One pyramid level: planes of samples covering [x0, x0 + w) x [y0, y0 + h).
struct Level {
    int x0 = 0, y0 = 0, w = 0, h = 0, planes = 1;
    std::vector<double> v;
    double &at(int i, int j, int p = 0) { return v[((size_t)p * h + (j - y0)) * w + (i - x0)]; }
    double at(int i, int j, int p = 0) const { return v[((size_t)p * h + (j - y0)) * w + (i - x0)]; }
    bool covers(int i, int j) const { return i >= x0 && i < x0 + w && j >= y0 && j < y0 + h; }
};

Level make_level(int x0, int y0, int x1, int y1, int planes) {
    Level r;
    r.x0 = x0, r.y0 = y0, r.w = std::max(0, x1 - x0), r.h = std::max(0, y1 - y0), r.planes = planes;
    r.v.assign((size_t)r.w * r.h * planes, 0.0);
    return r;
}

int floor_div2(int a) {
    return a >= 0 ? a / 2 : -((-a + 1) / 2);
}

// Every X whose four samples 2X-1 .. 2X+2 are inside [lo, hi).
Level down(const Level &a) {
    int x0 = floor_div2(a.x0 + 2), x1 = floor_div2(a.x0 + a.w - 3) + 1;
    int y0 = floor_div2(a.y0 + 2), y1 = floor_div2(a.y0 + a.h - 3) + 1;
    Level r = make_level(x0, y0, x1, y1, a.planes);
    for (int p = 0; p < a.planes; p++) {
        for (int j = y0; j < y1; j++) {
            for (int i = x0; i < x1; i++) {
                auto dx = [&](int jj) {
                    return (a.at(2 * i - 1, jj, p) + 3 * (a.at(2 * i, jj, p) + a.at(2 * i + 1, jj, p)) +
                            a.at(2 * i + 2, jj, p)) /
                           8;
                };
                r.at(i, j, p) = (dx(2 * j - 1) + 3 * (dx(2 * j) + dx(2 * j + 1)) + dx(2 * j + 2)) / 8;
            }
        }
    }
    return r;
}

// Every X whose samples X/2 - 1 .. X/2 + 1 are inside the level.
Level up(const Level &a) {
    int x0 = 2 * (a.x0 + 1), x1 = 2 * (a.x0 + a.w - 2) + 2;
    int y0 = 2 * (a.y0 + 1), y1 = 2 * (a.y0 + a.h - 2) + 2;
    Level r = make_level(x0, y0, x1, y1, a.planes);
    auto near = [](int i) { return floor_div2(i) - 1 + 2 * (i & 1); };
    for (int p = 0; p < a.planes; p++) {
        for (int j = y0; j < y1; j++) {
            for (int i = x0; i < x1; i++) {
                auto ux = [&](int jj) { return 0.25 * a.at(near(i), jj, p) + 0.75 * a.at(floor_div2(i), jj, p); };
                r.at(i, j, p) = 0.25 * ux(near(j)) + 0.75 * ux(floor_div2(j));
            }
        }
    }
    return r;
}

// f(a, b, i, j, p) on the points both a and b cover.
Level combine(const Level &a, const Level &b, int planes,
              const std::function<double(const Level &, const Level &, int, int, int)> &f) {
    Level r = make_level(std::max(a.x0, b.x0), std::max(a.y0, b.y0), std::min(a.x0 + a.w, b.x0 + b.w),
                         std::min(a.y0 + a.h, b.y0 + b.h), planes);
    for (int p = 0; p < planes; p++) {
        for (int j = r.y0; j < r.y0 + r.h; j++) {
            for (int i = r.x0; i < r.x0 + r.w; i++) {
                r.at(i, j, p) = f(a, b, i, j, p);
            }
        }
    }
    return r;
}

Buffer<uint16_t> reference(const Buffer<uint16_t> &in, int levels, double alpha, double beta, int J) {
    const int W = in.width(), H = in.height(), pad = 3 * (1 << J) + 8;
    auto floating = [&](int i, int j, int ch) {
        return in(std::clamp(i, 0, W - 1), std::clamp(j, 0, H - 1), ch) / 65535.0;
    };
    auto gray_at = [&](int i, int j) {
        return 0.299f * floating(i, j, 0) + 0.587f * floating(i, j, 1) + 0.114f * floating(i, j, 2);
    };
    Level gray = make_level(-pad, -pad, W + pad, H + pad, 1);
    Level g0 = make_level(-pad, -pad, W + pad, H + pad, levels);
    for (int j = -pad; j < H + pad; j++) {
        for (int i = -pad; i < W + pad; i++) {
            double gv = gray.at(i, j) = gray_at(i, j);
            int idx = std::clamp((int)(gv * (levels - 1) * 256.0), 0, (levels - 1) * 256);
            for (int p = 0; p < levels; p++) {
                double level = p * (1.0 / (levels - 1));
                double t = (idx - 256 * p) / 256.0;
                g0.at(i, j, p) = beta * (gv - level) + level + alpha * t * std::exp(-t * t / 2);
            }
        }
    }
    std::vector<Level> g{g0}, in_g{gray};
    for (int j = 1; j < J; j++) {
        g.push_back(down(g.back()));
        in_g.push_back(down(in_g.back()));
    }
    std::vector<Level> out_l;
    for (int j = 0; j < J; j++) {
        Level lap = j == J - 1
                        ? g[j]
                        : combine(g[j], up(g[j + 1]), levels, [](const Level &a, const Level &b, int i, int jj, int p) {
                              return a.at(i, jj, p) - b.at(i, jj, p);
                          });
        out_l.push_back(combine(lap, in_g[j], 1, [levels](const Level &a, const Level &b, int i, int jj, int) {
            double lv = b.at(i, jj) * (levels - 1);
            int li = std::clamp((int)lv, 0, levels - 2);
            double lf = lv - li;
            return (1 - lf) * a.at(i, jj, li) + lf * a.at(i, jj, li + 1);
        }));
    }
    Level out_g = out_l[J - 1];
    for (int j = J - 2; j >= 0; j--) {
        out_g = combine(up(out_g), out_l[j], 1,
                        [](const Level &a, const Level &b, int i, int jj, int) { return a.at(i, jj) + b.at(i, jj); });
    }
    Buffer<uint16_t> out(W, H, 3);
    for (int ch = 0; ch < 3; ch++) {
        for (int j = 0; j < H; j++) {
            for (int i = 0; i < W; i++) {
                EXPECT_TRUE(out_g.covers(i, j)) << "reference pad too small at " << i << "," << j;
                double col = out_g.at(i, j) * (floating(i, j, ch) + 0.01) / (gray.at(i, j) + 0.01);
                out(i, j, ch) = (uint16_t)(std::clamp(col, 0.0, 1.0) * 65535.0);
            }
        }
    }
    return out;
}

Buffer<uint16_t> test_image(int w, int h) {
    Buffer<uint16_t> img(w, h, 3);
    for (int ch = 0; ch < 3; ch++) {
        for (int j = 0; j < h; j++) {
            for (int i = 0; i < w; i++) {
                double base = ch == 0 ? (double)i / w : ch == 1 ? (double)j / h : (double)(i + j) / (w + h);
                double dx = i - w / 2.0, dy = j - h / 2.0;
                bool disc = dx * dx + dy * dy < (std::min(w, h) / 3.0) * (std::min(w, h) / 3.0);
                double v = 0.2 + 0.6 * base + (disc ? 0.1 * std::sin(i * 1.7) * std::cos(j * 1.3) : 0.0);
                img(i, j, ch) = (uint16_t)(std::clamp(v, 0.0, 1.0) * 65535);
            }
        }
    }
    return img;
}

void expect_close(const Buffer<uint16_t> &got, const Buffer<uint16_t> &want, int tolerance) {
    int worst = 0;
    for (int ch = 0; ch < 3; ch++) {
        for (int j = 0; j < want.height(); j++) {
            for (int i = 0; i < want.width(); i++) {
                worst = std::max(worst, std::abs((int)got(i, j, ch) - (int)want(i, j, ch)));
            }
        }
    }
    EXPECT_LE(worst, tolerance);
}

} // namespace

TEST(LocalLaplacian, MatchesPlainCppAcrossParamsAndSizes) {
    const int J = 4;
    ImageParam input(UInt(16), 3, "input");
    Param<int> levels("levels");
    Param<float> alpha("alpha"), beta("beta");
    Func out = local_laplacian(input, levels, alpha, beta, J, true);
    // One compilation; sizes and parameters change at run time.
    struct Case {
        int w, h, levels;
        float alpha, beta;
    };
    for (Case cs : {Case{37, 29, 8, 1.0f, 1.0f}, Case{20, 45, 4, 2.0f, 0.5f}, Case{9, 7, 6, 0.5f, 1.5f}}) {
        Buffer<uint16_t> img = test_image(cs.w, cs.h);
        input.set(img);
        levels.set(cs.levels);
        alpha.set(cs.alpha);
        beta.set(cs.beta);
        Buffer<uint16_t> got = out.realize({cs.w, cs.h, 3});
        Buffer<uint16_t> want = reference(img, cs.levels, cs.alpha, cs.beta, J);
        expect_close(got, want, 2);
        // The filter does something: the output is not the input.
        bool changed = false;
        for (int j = 0; j < cs.h && !changed; j++) {
            for (int i = 0; i < cs.w && !changed; i++) {
                changed = std::abs((int)got(i, j, 1) - (int)img(i, j, 1)) > 100;
            }
        }
        EXPECT_TRUE(changed) << cs.w << "x" << cs.h;
    }
}

TEST(LocalLaplacian, SerialRootScheduleAndMoreLevelsMatchPlainCpp) {
    ImageParam input(UInt(16), 3, "input");
    Param<int> levels("levels");
    Param<float> alpha("alpha"), beta("beta");
    Func out = local_laplacian(input, levels, alpha, beta, 5, false);
    Buffer<uint16_t> img = test_image(24, 19);
    input.set(img);
    levels.set(5);
    alpha.set(1.0f);
    beta.set(1.0f);
    expect_close(out.realize({24, 19, 3}), reference(img, 5, 1.0, 1.0, 5), 2);
}
