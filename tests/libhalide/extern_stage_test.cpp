// Func::define_extern (lower/ExternStages.cpp): stages computed by C
// functions defined below (exported: the test links with -rdynamic so the
// JIT finds them in the process). Expected values are computed in plain C++.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <vector>

#include "Halide.h"
#include "error_message.h"

using namespace Halide;

namespace {

// What the extern functions saw, for the tests to check.
struct Seen {
    int queries = 0, calls = 0;
    std::vector<halide_dimension_t> in_dims, out_dims; // of the last real call
    std::set<const void *> in_hosts, out_hosts;        // extern_row_blur's buffers' memory
    int i = 0;
    float f = 0;
    uint8_t u8 = 0;
};
Seen seen;

int32_t *at2(const halide_buffer_t *b, int x, int y) {
    const halide_dimension_t *d = b->dim;
    return (int32_t *)b->host + (x - d[0].min) * d[0].stride + (y - d[1].min) * d[1].stride;
}

} // namespace

extern "C" {

// out(x, y) = k * x + y over the region asked for.
int extern_fill(int k, halide_buffer_t *out) {
    if (out->is_bounds_query()) {
        seen.queries++;
        return 0;
    }
    seen.calls++;
    seen.i = k;
    seen.out_dims.assign(out->dim, out->dim + out->dimensions);
    const halide_dimension_t *d = out->dim;
    for (int y = d[1].min; y < d[1].min + d[1].extent; y++) {
        for (int x = d[0].min; x < d[0].min + d[0].extent; x++) {
            *at2(out, x, y) = k * x + y;
        }
    }
    return 0;
}

// out(x) = in(x - 1) + in(x) + in(x + 1): asks for one more point on each side.
int extern_blur(halide_buffer_t *in, halide_buffer_t *out) {
    if (in->is_bounds_query()) {
        seen.queries++;
        in->dim[0].min = out->dim[0].min - 1;
        in->dim[0].extent = out->dim[0].extent + 2;
        return 0;
    }
    seen.calls++;
    seen.in_dims.assign(in->dim, in->dim + in->dimensions);
    seen.out_dims.assign(out->dim, out->dim + out->dimensions);
    const int32_t *src = (const int32_t *)in->host;
    int32_t *dst = (int32_t *)out->host;
    for (int x = out->dim[0].min; x < out->dim[0].min + out->dim[0].extent; x++) {
        auto v = [&](int p) { return src[(p - in->dim[0].min) * in->dim[0].stride]; };
        dst[(x - out->dim[0].min) * out->dim[0].stride] = v(x - 1) + v(x) + v(x + 1);
    }
    return 0;
}

// out(x, y) = in(x - 1, y) + in(x, y) + in(x + 1, y): asks for one more column on each side.
int extern_row_blur(halide_buffer_t *in, halide_buffer_t *out) {
    if (in->is_bounds_query()) {
        seen.queries++;
        for (int d = 0; d < 2; d++) {
            in->dim[d] = out->dim[d];
        }
        in->dim[0].min = out->dim[0].min - 1;
        in->dim[0].extent = out->dim[0].extent + 2;
        return 0;
    }
    seen.calls++;
    seen.in_dims.assign(in->dim, in->dim + in->dimensions);
    seen.out_dims.assign(out->dim, out->dim + out->dimensions);
    seen.in_hosts.insert(in->host);
    seen.out_hosts.insert(out->host);
    const halide_dimension_t *d = out->dim;
    for (int y = d[1].min; y < d[1].min + d[1].extent; y++) {
        for (int x = d[0].min; x < d[0].min + d[0].extent; x++) {
            *at2(out, x, y) = *at2(in, x - 1, y) + *at2(in, x, y) + *at2(in, x + 1, y);
        }
    }
    return 0;
}

// out(x, y) = x + 1000 * y. Its query rounds the columns asked for out to
// multiples of 10; each real call's region and row stride is recorded.
std::vector<std::vector<int>> rounded_calls;
int extern_rounded(halide_buffer_t *out) {
    halide_dimension_t *d = out->dim;
    if (out->is_bounds_query()) {
        int end = (d[0].min + d[0].extent + 9) / 10 * 10;
        d[0].min = d[0].min / 10 * 10;
        d[0].extent = end - d[0].min;
        return 0;
    }
    rounded_calls.push_back({d[0].min, d[0].extent, d[1].min, d[1].extent, d[1].stride});
    for (int y = d[1].min; y < d[1].min + d[1].extent; y++) {
        for (int x = d[0].min; x < d[0].min + d[0].extent; x++) {
            *at2(out, x, y) = x + 1000 * y;
        }
    }
    return 0;
}

// Records its scalars; out(x) = i + f + u8.
int extern_scalars(int32_t i, float f, uint8_t u8, halide_buffer_t *out) {
    if (out->is_bounds_query()) {
        return 0;
    }
    seen.i = i;
    seen.f = f;
    seen.u8 = u8;
    float *dst = (float *)out->host;
    for (int x = 0; x < out->dim[0].extent; x++) {
        dst[x * out->dim[0].stride] = (float)i + f + (float)u8;
    }
    return 0;
}

// Fails the real call (a bounds query succeeds).
int extern_fails(halide_buffer_t *in, halide_buffer_t *out) {
    if (in->is_bounds_query()) {
        in->dim[0].min = out->dim[0].min;
        in->dim[0].extent = out->dim[0].extent;
        return 0;
    }
    return 42;
}

// Two outputs (a Tuple): sum and difference of a whole input buffer's neighbours.
int extern_two(halide_buffer_t *in, halide_buffer_t *sum, halide_buffer_t *diff) {
    if (sum->is_bounds_query()) {
        // A Buffer input is passed as it is, in the query too.
        EXPECT_FALSE(in->is_bounds_query());
        return 0;
    }
    seen.in_dims.assign(in->dim, in->dim + in->dimensions);
    const int16_t *src = (const int16_t *)in->host;
    for (int x = sum->dim[0].min; x < sum->dim[0].min + sum->dim[0].extent; x++) {
        int a = src[(x - in->dim[0].min) * in->dim[0].stride], b = src[(x + 1 - in->dim[0].min) * in->dim[0].stride];
        ((int16_t *)sum->host)[(x - sum->dim[0].min) * sum->dim[0].stride] = (int16_t)(a + b);
        ((int16_t *)diff->host)[(x - diff->dim[0].min) * diff->dim[0].stride] = (int16_t)(a - b);
    }
    return 0;
}

} // extern "C"

namespace ext_ns {
// Found by its C++ name (NameMangling::CPlusPlus): out(x) = 7 * x + k.
int mangled_fill(int k, halide_buffer_t *out) {
    if (out->is_bounds_query()) {
        return 0;
    }
    for (int x = out->dim[0].min; x < out->dim[0].min + out->dim[0].extent; x++) {
        ((int32_t *)out->host)[(x - out->dim[0].min) * out->dim[0].stride] = 7 * x + k;
    }
    return 0;
}
} // namespace ext_ns

TEST(ExternStage, ProducerConsumedByAFunc) {
    seen = {};
    Var x("x"), y("y");
    Func e("e");
    e.define_extern("extern_fill", {3}, Int(32), {x, y});
    e.compute_root();
    EXPECT_TRUE(e.is_extern());
    EXPECT_EQ(e.extern_function_name(), "extern_fill");
    Func h("h");
    h(x, y) = e(x, y) * 2 + e(x + 1, y);
    Buffer<int32_t> out = h.realize({5, 4});
    for (int yy = 0; yy < 4; yy++) {
        for (int xx = 0; xx < 5; xx++) {
            EXPECT_EQ(out(xx, yy), (3 * xx + yy) * 2 + 3 * (xx + 1) + yy) << xx << "," << yy;
        }
    }
    EXPECT_GE(seen.queries, 1); // asked first, as upstream asks every extern stage
    EXPECT_EQ(seen.calls, 1);
    ASSERT_EQ(seen.out_dims.size(), 2u);
    // The region h reads: x in [0, 5], y in [0, 3].
    EXPECT_EQ(seen.out_dims[0].min, 0);
    EXPECT_EQ(seen.out_dims[0].extent, 6);
    EXPECT_EQ(seen.out_dims[1].min, 0);
    EXPECT_EQ(seen.out_dims[1].extent, 4);
}

TEST(ExternStage, BoundsQuerySetsTheRegionOfItsFuncInput) {
    seen = {};
    Var x("x");
    Func g("g");
    g(x) = x * x + 1;
    g.compute_root();
    Func e("e");
    e.define_extern("extern_blur", {g}, Int(32), 1);
    Buffer<int32_t> out = e.realize({10});
    auto sq = [](int v) { return v * v + 1; };
    for (int i = 0; i < 10; i++) {
        EXPECT_EQ(out(i), sq(i - 1) + sq(i) + sq(i + 1)) << i;
    }
    EXPECT_GE(seen.queries, 1);
    EXPECT_EQ(seen.calls, 1);
    // g was computed over the region the query asked for, wider than the output.
    ASSERT_EQ(seen.in_dims.size(), 1u);
    EXPECT_EQ(seen.in_dims[0].min, -1);
    EXPECT_EQ(seen.in_dims[0].extent, 12);
    EXPECT_EQ(seen.in_dims[0].stride, 1);
    ASSERT_EQ(seen.out_dims.size(), 1u);
    EXPECT_EQ(seen.out_dims[0].min, 0);
    EXPECT_EQ(seen.out_dims[0].extent, 10);
}

TEST(ExternStage, ChainOfExternAndFuncStages) {
    // g -> extern blur (compute_root) -> a Func reading it shifted.
    seen = {};
    Var x("x");
    Func g("g"), e("e"), h("h");
    g(x) = 2 * x;
    g.compute_root();
    e.define_extern("extern_blur", {g}, Int(32), 1);
    e.compute_root();
    h(x) = e(x + 2) - e(x);
    Buffer<int32_t> out = h.realize({6});
    auto blur = [](int v) { return 2 * (v - 1) + 2 * v + 2 * (v + 1); };
    for (int i = 0; i < 6; i++) {
        EXPECT_EQ(out(i), blur(i + 2) - blur(i)) << i;
    }
    ASSERT_EQ(seen.in_dims.size(), 1u);
    EXPECT_EQ(seen.in_dims[0].min, -1);
    EXPECT_EQ(seen.in_dims[0].extent, 10); // e over [0, 7], g over [-1, 8]
}

TEST(ExternStage, ScalarsArePassedByValue) {
    seen = {};
    Param<int32_t> p("p");
    p.set(-17);
    Func e("e");
    e.define_extern("extern_scalars", {p, 2.5f, cast<uint8_t>(200)}, Float(32), 1);
    Buffer<float> out = e.realize({3});
    EXPECT_EQ(seen.i, -17);
    EXPECT_EQ(seen.f, 2.5f);
    EXPECT_EQ(seen.u8, 200);
    for (int i = 0; i < 3; i++) {
        EXPECT_EQ(out(i), -17.0f + 2.5f + 200.0f);
    }
}

TEST(ExternStage, TupleOutputAndBufferInput) {
    seen = {};
    Buffer<int16_t> in(8);
    for (int i = 0; i < 8; i++) {
        in(i) = (int16_t)(i * i - 3);
    }
    Func e("e");
    e.define_extern("extern_two", {in}, {Int(16), Int(16)}, 1);
    Realization r = e.realize({7});
    Buffer<int16_t> sum = r[0], diff = r[1];
    for (int i = 0; i < 7; i++) {
        EXPECT_EQ(sum(i), in(i) + in(i + 1)) << i;
        EXPECT_EQ(diff(i), in(i)-in(i + 1)) << i;
    }
    // The buffer is passed whole.
    ASSERT_EQ(seen.in_dims.size(), 1u);
    EXPECT_EQ(seen.in_dims[0].min, 0);
    EXPECT_EQ(seen.in_dims[0].extent, 8);
}

// Whether the object file at `path` mentions `symbol` (its symbol table does).
bool object_mentions(const std::string &path, const std::string &symbol) {
    std::ifstream f(path, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    return bytes.find(symbol) != std::string::npos;
}

TEST(ExternStage, CPlusPlusNameMangling) {
    Func e("e");
    e.define_extern("ext_ns::mangled_fill", {5}, Int(32), 1, NameMangling::CPlusPlus);
    // As upstream, calling a C++ function needs the target feature, which
    // the JIT target does not have (upstream 21's JIT fails with it).
    std::string message = message_of([&] { e.realize({4}); });
    EXPECT_NE(message.find("Target must specify C++ name mangling (\"c_plus_plus_name_mangling\") in order to call "
                           "C++ externs. (ext_ns::mangled_fill)"),
              std::string::npos)
        << message;
    // Ahead of time, the object calls the C++ name g++ gives ext_ns::mangled_fill (see nm of this test).
    const std::string mangled = "_ZN6ext_ns12mangled_fillEiP15halide_buffer_t";
    Target cplusplus = get_host_target().with_feature(Target::CPlusPlusMangling);
    std::string path = ::testing::TempDir() + "extern_mangled.o";
    e.compile_to_object(path, {}, "extern_mangled", cplusplus);
    EXPECT_TRUE(object_mentions(path, mangled));
    // NameMangling::Default follows the target; C keeps the name.
    Func d("d"), c("c");
    d.define_extern("ext_ns::mangled_fill", {6}, Int(32), 1);
    c.define_extern("extern_fill", {6}, Int(32), 2, NameMangling::C);
    d.compile_to_object(path, {}, "extern_default", cplusplus);
    EXPECT_TRUE(object_mentions(path, mangled));
    c.compile_to_object(path, {}, "extern_c", cplusplus);
    EXPECT_TRUE(object_mentions(path, "extern_fill"));
    EXPECT_FALSE(object_mentions(path, "extern_fillEi"));
}

TEST(ExternStage, NonZeroReturnFailsThePipeline) {
    Var x("x");
    Func g("g"), e("e");
    g(x) = x;
    g.compute_root();
    e.define_extern("extern_fails", {g}, Int(32), 1);
    std::string message = message_of([&] { e.realize({4}); });
    EXPECT_NE(message.find("Call to external stage extern_fails returned non-zero value: 42"), std::string::npos)
        << message;
}

TEST(ExternStage, InlineFuncInputIsRefused) {
    Var x("x");
    Func g("g"), e("e");
    g(x) = x;
    e.define_extern("extern_blur", {g}, Int(32), 1);
    std::string message = message_of([&] { e.realize({4}); });
    EXPECT_NE(message.find("Func g cannot be scheduled to be computed inline, because it is used in the "
                           "externally-computed function e"),
              std::string::npos)
        << message;
}

TEST(ExternStage, DefinedFuncIsRefused) {
    Var x("x");
    Func f("f");
    f(x) = x;
    std::string message = message_of([&] { f.define_extern("extern_fill", {1}, Int(32), 1); });
    EXPECT_NE(message.find("Func with a pure definition cannot have an extern definition"), std::string::npos)
        << message;
}

// h(x, y) = 2 * g(x, y), g the extern row blur of f(x, y) = 3x + 7y: the
// pipeline of the tests below, each scheduling it its own way.
struct RowBlur {
    Var x{"x"}, y{"y"};
    Func f{"f"}, g{"g"}, h{"h"};
    RowBlur() {
        seen = {};
        f(x, y) = x * 3 + y * 7;
        g.define_extern("extern_row_blur", {f}, Int(32), 2);
        h(x, y) = g(x, y) * 2;
    }
};

// out against RowBlur's values, computed in plain C++.
void expect_row_blur(const Buffer<int32_t> &out) {
    auto rf = [](int i, int j) { return i * 3 + j * 7; };
    for (int j = out.dim(1).min(); j <= out.dim(1).max(); j++) {
        for (int i = out.dim(0).min(); i <= out.dim(0).max(); i++) {
            ASSERT_EQ(out(i, j), 2 * (rf(i - 1, j) + rf(i, j) + rf(i + 1, j))) << i << ", " << j;
        }
    }
}

TEST(ExternStage, ComputedPerRowReadingAComputeRootFunc) {
    // An extern stage computed at each row of its consumer, reading a
    // compute_root Func: the Func's region is what the stage's query over
    // every row asks for (as upstream 21's root-level query: columns -1 to
    // 20, all 10 rows). Ours refused: "Can't infer the region of Func 'f' its
    // consumers need: the minimum ... is unbounded".
    RowBlur p;
    Func &f = p.f, &g = p.g, &h = p.h;
    Var &y = p.y;
    f.compute_root();
    g.compute_at(h, y);
    Buffer<int32_t> out = h.realize({20, 10});
    expect_row_blur(out);
    EXPECT_EQ(seen.calls, 10); // one per row, as upstream
    ASSERT_EQ(seen.in_dims.size(), 2u);
    EXPECT_EQ(seen.in_dims[0].min, -1);
    EXPECT_EQ(seen.in_dims[0].extent, 22);
    EXPECT_EQ(seen.in_dims[1].min, 0);
    EXPECT_EQ(seen.in_dims[1].extent, 10);
    ASSERT_EQ(seen.out_dims.size(), 2u);
    EXPECT_EQ(seen.out_dims[1].min, 9); // the last row
    EXPECT_EQ(seen.out_dims[1].extent, 1);
}

TEST(ExternStage, AFuncInputStoredOutsideItsLoopIsCroppedToTheRegionAskedFor) {
    // f stored at the root, computed at each row of h, read by an extern
    // stage computed there too: the stage gets the region of f its query
    // asked for (the row, one more column each side), as upstream 21 passes
    // it, not f's whole storage (columns -1 to 20, rows 0 to 9).
    RowBlur p;
    Func &f = p.f, &g = p.g, &h = p.h;
    Var &y = p.y;
    f.store_root().compute_at(h, y);
    g.compute_at(h, y);
    Buffer<int32_t> out = h.realize({20, 10});
    expect_row_blur(out);
    EXPECT_EQ(seen.calls, 10);
    ASSERT_EQ(seen.in_dims.size(), 2u);
    EXPECT_EQ(seen.in_dims[0].min, -1);
    EXPECT_EQ(seen.in_dims[0].extent, 22);
    EXPECT_EQ(seen.in_dims[1].min, 9); // the last row only
    EXPECT_EQ(seen.in_dims[1].extent, 1);
    EXPECT_EQ(seen.in_dims[1].stride, 22);
}

TEST(ExternStage, ItsOutputFoldsAsFoldStorageAsks) {
    // As upstream's storage_folding test: g, an extern stage stored at the
    // root and computed per row of h, folded to 8 rows. Ours refused it
    // ("not accessed within a single loop"); upstream 21 runs it, g's row y
    // written at row y mod 8 of its storage (8 places in turn).
    RowBlur p;
    Func &f = p.f, &g = p.g, &h = p.h;
    Var &y = p.y;
    f.compute_root();
    g.store_root().compute_at(h, y).fold_storage(g.args()[1], 8);
    h.compute_root();
    Buffer<int32_t> out = h.realize({20, 30});
    expect_row_blur(out);
    EXPECT_EQ(seen.calls, 30);
    EXPECT_EQ(seen.out_hosts.size(), 8u);
    ASSERT_EQ(seen.out_dims.size(), 2u);
    EXPECT_EQ(seen.out_dims[1].min, 29); // its coordinates are the rows', not the fold's
}

TEST(ExternStage, ItsOutputFoldedSmallerThanTheRowsOneIterationWritesFailsAtRunTime) {
    // A fold too small for the rows one iteration writes fails at run time,
    // as upstream's (h split by 8, each iteration computing 8 rows of g).
    seen = {};
    Var x("x"), y("y"), yo("yo"), yi("yi");
    Func f2("f2"), g2("g2"), h2("h2");
    f2(x, y) = x + y;
    g2.define_extern("extern_row_blur", {f2}, Int(32), 2);
    h2(x, y) = g2(x, y);
    f2.compute_root();
    g2.store_root().compute_at(h2, yo).fold_storage(g2.args()[1], 4);
    h2.compute_root().split(y, yo, yi, 8);
    std::string m = message_of([&] { h2.realize({16, 16}); });
    EXPECT_NE(m.find("fold factor (4)"), std::string::npos) << m;
}

TEST(ExternStage, AFuncItReadsFoldsAsFoldStorageAsks) {
    // Upstream's storage_folding test: f stored at the root, computed per
    // row of h and folded to 8 rows, read by an extern stage computed there
    // too. Each row's region is only known from the stage's query at run
    // time; ours refused it ("not accessed within a single loop"), upstream
    // 21 runs it, the stage reading its row of f at 8 places in turn.
    RowBlur p;
    Func &f = p.f, &g = p.g, &h = p.h;
    Var &y = p.y;
    f.store_root().compute_at(h, y).fold_storage(y, 8);
    g.compute_at(h, y);
    h.compute_root();
    Buffer<int32_t> out = h.realize({20, 30});
    expect_row_blur(out);
    EXPECT_EQ(seen.calls, 30);
    EXPECT_EQ(seen.in_hosts.size(), 8u);
    ASSERT_EQ(seen.in_dims.size(), 2u);
    EXPECT_EQ(seen.in_dims[1].min, 29);
    EXPECT_EQ(seen.in_dims[1].extent, 1);
}

TEST(ExternStage, AFuncItReadsFoldedSmallerThanTheRowsOneIterationComputesFailsAtRunTime) {
    // h split by 8: each iteration computes 8 rows of f, more than the fold
    // keeps: upstream's run-time error.
    seen = {};
    Var x("x"), y("y"), yo("yo"), yi("yi");
    Func f2("f2"), g2("g2"), h2("h2");
    f2(x, y) = x + y;
    g2.define_extern("extern_row_blur", {f2}, Int(32), 2);
    h2(x, y) = g2(x, y);
    f2.store_root().compute_at(h2, yo).fold_storage(y, 4);
    g2.compute_at(h2, yo);
    h2.compute_root().split(y, yo, yi, 8);
    std::string m = message_of([&] { h2.realize({16, 16}); });
    // (upstream names the loop h2.s0.y.yo)
    EXPECT_NE(m.find("The fold factor (4) of dimension y of f2 is too small to store the required region accessed by "
                     "loop h2.s0."),
              std::string::npos)
        << m;
    EXPECT_NE(m.find("(8)"), std::string::npos) << m;
}

TEST(ExternStage, ComputesTheRegionItsQueryAnswersForItsOutput) {
    // A stage whose query rounds its columns out to multiples of 10 gets
    // that region to compute (and its storage covers it), as upstream 21
    // passes it; ours passed the region its consumer needs (32 columns where
    // the query answered 40). The calls' (min, extent) of x and y and row
    // stride are upstream 21's, for a 45 x 3 output.
    using Calls = std::vector<std::vector<int>>;
    auto run = [](int mode) {
        Var x("x"), y("y"), xi("xi"), yi("yi");
        Func src("src" + std::to_string(mode)), out("out" + std::to_string(mode));
        src.define_extern("extern_rounded", {}, Int(32), {x, y});
        out(x, y) = src(x, y) * 2;
        if (mode <= 1) {
            if (mode == 0) {
                src.align_storage(x, 32); // rows of 64: 40 columns aligned to 32
            }
            out.tile(x, y, xi, yi, 32, 32);
            src.compute_at(out, x);
        } else if (mode == 2) {
            src.compute_root();
        } else {
            src.compute_at(out, y);
        }
        rounded_calls.clear();
        Buffer<int32_t> o = out.realize({45, 3});
        for (int j = 0; j < 3; j++) {
            for (int i = 0; i < 45; i++) {
                EXPECT_EQ(o(i, j), 2 * (i + 1000 * j)) << mode << ": " << i << ", " << j;
            }
        }
        return rounded_calls;
    };
    EXPECT_EQ(run(0), (Calls{{0, 40, -29, 32, 64}, {10, 40, -29, 32, 64}}));
    EXPECT_EQ(run(1), (Calls{{0, 40, -29, 32, 40}, {10, 40, -29, 32, 40}}));
    EXPECT_EQ(run(2), (Calls{{0, 50, 0, 3, 50}}));
    EXPECT_EQ(run(3), (Calls{{0, 50, 0, 1, 50}, {0, 50, 1, 1, 50}, {0, 50, 2, 1, 50}}));
}
