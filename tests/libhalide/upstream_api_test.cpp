// Upstream API surface (issue 13): the error macros, implicit Vars and the
// placeholder _, lambda, evaluate, undef, float16_t/bfloat16_t, the fast
// math functions, Target::supports_type, the GPU/Hexagon scheduling API
// (accepted, refused when compiling) and Buffer's device methods.
// Expected values come from plain C++ (std::exp, bit patterns of IEEE
// halves) or from upstream Halide 21's observed behaviour (quoted), never
// from our compiler.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "Halide.h"
#include "error_message.h"

using namespace Halide;

namespace {

#define EXPECT_CONTAINS(text, part) EXPECT_NE(std::string(text).find(part), std::string::npos) << "in: " << (text)

// ---------------------------------------------------------------------------
// 1. Error macros

TEST(ErrorMacros, UserAssertThrowsCompileErrorAndOnlyFormatsOnFailure) {
    int formatted = 0;
    auto count = [&]() {
        formatted++;
        return "x";
    };
    _halide_user_assert(1 + 1 == 2) << count();
    user_assert(true) << count();
    EXPECT_EQ(formatted, 0);
    try {
        _halide_user_assert(1 + 1 == 3) << "custom " << 5 << count();
        FAIL() << "no exception";
    } catch (const CompileError &e) {
        EXPECT_CONTAINS(std::string(e.what()), "custom 5x");
    }
    EXPECT_EQ(formatted, 1);
}

TEST(ErrorMacros, EachKindThrowsItsException) {
    EXPECT_THROW({ _halide_user_error << "boom"; }, CompileError);
    EXPECT_THROW({ user_error << "boom"; }, CompileError);
    EXPECT_THROW({ _halide_internal_error << "bug"; }, InternalError);
    EXPECT_THROW({ _halide_internal_assert(false) << "bug"; }, InternalError);
    EXPECT_THROW({ internal_assert(false) << "bug"; }, InternalError);
    EXPECT_THROW({ _halide_runtime_error << "late"; }, RuntimeError);
    EXPECT_THROW({ halide_runtime_error << "late"; }, RuntimeError);
    // All are Halide::Error.
    EXPECT_THROW({ _halide_user_error << "boom"; }, Error);
}

TEST(ErrorMacros, WarningPrintsAndContinues) {
    testing::internal::CaptureStderr();
    _halide_user_warning << "careful " << 3;
    user_warning << "again";
    std::string err = testing::internal::GetCapturedStderr();
    EXPECT_EQ(err, "Warning: careful 3\nWarning: again\n");
}

struct Recorder : CompileTimeErrorReporter {
    std::string warnings;
    void warning(const char *msg) override { warnings += msg; }
    [[noreturn]] void error(const char *msg) override { throw std::runtime_error(std::string("reported: ") + msg); }
};

TEST(ErrorMacros, CustomReporterGetsWarningsAndErrors) {
    Recorder r;
    set_custom_compile_time_error_reporter(&r);
    user_warning << "w1";
    std::string err;
    try {
        user_error << "e1";
    } catch (const std::runtime_error &e) {
        err = e.what();
    }
    set_custom_compile_time_error_reporter(nullptr);
    EXPECT_EQ(r.warnings, "Warning: w1\n");
    EXPECT_EQ(err, "reported: Error: e1\n"); // upstream 21 hands the reporter its "Error: " form
}

// ---------------------------------------------------------------------------
// 2. Implicit Vars, lambda, evaluate, undef

TEST(ImplicitVars, NamesAndPredicates) {
    EXPECT_EQ(Var::outermost().name(), "__outermost");
    EXPECT_EQ(Var::implicit(3).name(), "_3");
    EXPECT_EQ(Var(_0).name(), "_0");
    EXPECT_EQ(Var(_9).name(), "_9");
    EXPECT_EQ(Var(_).name(), "_");
    EXPECT_TRUE(Var::is_implicit("_12"));
    EXPECT_FALSE(Var::is_implicit("_a"));
    EXPECT_TRUE(Var::is_implicit("_")); // as upstream's
    EXPECT_EQ(Var::implicit_index("_"), 0);
    EXPECT_EQ(Var::implicit_index("_7"), 7);
    EXPECT_EQ(Var("x").implicit_index(), -1);
    EXPECT_TRUE(Var(_).is_placeholder());
    EXPECT_FALSE(Var(_1).is_placeholder());
}

TEST(ImplicitVars, PlaceholderExpandsToTheRemainingArguments) {
    Var x("x"), y("y");
    Func g("g");
    g(x, y) = x + 10 * y;
    Func f("f");
    f(x, _) = g(x, _) + 1; // f(x, _0) = g(x, _0) + 1
    ASSERT_EQ(f.dimensions(), 2);
    EXPECT_EQ(f.args()[0].name(), "x");
    EXPECT_EQ(f.args()[1].name(), "_0");
    Func h("h");
    h(_) = g(_) * 2;
    Buffer<int> bf = f.realize({3, 2});
    Buffer<int> bh = h.realize({3, 2});
    for (int j = 0; j < 2; j++) {
        for (int i = 0; i < 3; i++) {
            EXPECT_EQ(bf(i, j), i + 10 * j + 1);
            EXPECT_EQ(bh(i, j), 2 * (i + 10 * j));
        }
    }
    // Implicit Vars on the right without _ on the left: upstream's error.
    std::string msg = message_of([&] {
        Func k("k");
        k(x) = g(x, _0);
    });
    EXPECT_CONTAINS(msg, "uses implicit variables, but the left-hand-side does not contain the placeholder "
                         "symbol '_'");
    // An update definition through _ (u is defined: _ is _0).
    Func u("u");
    u(x, _) = g(x, _) + 1;
    u(x, _) += g(x, _);
    Buffer<int> bu = u.realize({3, 2});
    EXPECT_EQ(bu(2, 1), 2 * (2 + 10) + 1);
}

// f(_) op= e of a Func not defined yet: `_` is the implicit Vars e uses, in
// the pure definition (the identity) as in the update, as upstream's.
TEST(ImplicitVars, CompoundUpdateOfAnUndefinedFuncThroughThePlaceholder) {
    Var x("x"), y("y");
    Func g("g_cu");
    g(x, y) = x + 10 * y;
    Func f("f_cu"), m("m_cu");
    f(_) += g(_);
    m(_) *= g(_) + 1;
    ASSERT_EQ(f.dimensions(), 2);
    Buffer<int> bf = f.realize({3, 2});
    Buffer<int> bm = m.realize({3, 2});
    for (int j = 0; j < 2; j++) {
        for (int i = 0; i < 3; i++) {
            EXPECT_EQ(bf(i, j), i + 10 * j);
            EXPECT_EQ(bm(i, j), i + 10 * j + 1);
        }
    }
}

TEST(Lambda, AnonymousFuncs) {
    Var x("x"), y("y");
    Func l = lambda(x, y, x * y + 1);
    ASSERT_EQ(l.dimensions(), 2);
    Buffer<int> b = l.realize({4, 3});
    EXPECT_EQ(b(3, 2), 7);
    Func c = lambda(Expr(42));
    EXPECT_EQ(c.dimensions(), 0);
    Buffer<int, 0> b0 = c.realize(std::vector<int32_t>{});
    EXPECT_EQ(b0(), 42);
    // Implicit Vars become further arguments.
    Func m = lambda(x, x + _0 * 100);
    ASSERT_EQ(m.dimensions(), 2);
    Buffer<int> bm = m.realize({2, 3});
    EXPECT_EQ(bm(1, 2), 201);
}

TEST(Evaluate, ScalarsAndTuples) {
    EXPECT_EQ(evaluate<int>(Expr(3) + 4), 7);
    EXPECT_FLOAT_EQ(evaluate<float>(sqrt(Expr(2.0f))), std::sqrt(2.0f));
    EXPECT_EQ(evaluate<uint8_t>(cast<uint8_t>(Expr(300))), (uint8_t)44);
    std::string msg = message_of([] { evaluate<int>(Expr(2.5f)); });
    EXPECT_CONTAINS(msg, "Can't evaluate expression");
    EXPECT_CONTAINS(msg, "as a scalar of type int32");
    int a = 0;
    double b = 0;
    evaluate(Tuple(Expr(5) * 3, Expr(0.25) + 1), &a, &b);
    EXPECT_EQ(a, 15);
    EXPECT_EQ(b, 1.25);
}

TEST(Undef, TupleElementLeftUnchanged) {
    Var x("x");
    Func t("t");
    t(x) = Tuple(x, x * 2);
    t(x) = Tuple(undef<int>(), t(x)[1] + 1);
    Realization r = t.realize({3});
    Buffer<int> r0 = r[0], r1 = r[1];
    for (int i = 0; i < 3; i++) {
        EXPECT_EQ(r0(i), i);
        EXPECT_EQ(r1(i), 2 * i + 1);
    }
}

TEST(Undef, PureUndefUpdatesTheOutputInPlace) {
    Var x("x");
    Func f("f");
    f(x) = undef<int>();
    f(x) += 5;
    Buffer<int> out(4);
    for (int i = 0; i < 4; i++) {
        out(i) = 100 * i;
    }
    f.realize(out);
    for (int i = 0; i < 4; i++) {
        EXPECT_EQ(out(i), 100 * i + 5);
    }
    // An expression of undef() is undef() as a whole (upstream 21 accepts
    // it too): the update leaves the output as it is.
    Func g("g");
    g(x) = x;
    g(x) = undef(Int(32)) + 1;
    Buffer<int> kept(4);
    for (int i = 0; i < 4; i++) {
        kept(i) = 7 * i;
    }
    g.update().unscheduled();
    g.realize(kept);
    for (int i = 0; i < 4; i++) {
        EXPECT_EQ(kept(i), i);
    }
    std::string msg = message_of([&] {
        Func h("h");
        h(x) = select(undef(Bool()), 1, 2);
    });
    EXPECT_CONTAINS(msg, "undef() may not be part of a select's condition");
}

// ---------------------------------------------------------------------------
// 3. float16_t / bfloat16_t

TEST(Float16, ConversionsMatchIEEEHalf) {
    EXPECT_EQ(float16_t(1.0f).to_bits(), 0x3c00);
    EXPECT_EQ(float16_t(-2.0f).to_bits(), 0xc000);
    EXPECT_EQ(float16_t(65504.0f).to_bits(), 0x7bff);                         // largest half
    EXPECT_EQ(float16_t(65520.0f).to_bits(), 0x7c00);                         // rounds up to infinity
    EXPECT_EQ(float16_t(std::ldexp(1.0f, -24)).to_bits(), 0x0001);            // smallest subnormal
    EXPECT_EQ(float16_t(std::ldexp(1.0f, -26)).to_bits(), 0x0000);            // below half of it
    EXPECT_EQ(float16_t(1.0f + std::ldexp(1.0f, -11)).to_bits(), 0x3c00);     // tie: to even
    EXPECT_EQ(float16_t(1.0f + 3 * std::ldexp(1.0f, -11)).to_bits(), 0x3c02); // tie: to even (up)
    EXPECT_TRUE(float16_t(NAN).is_nan());
    EXPECT_TRUE(float16_t::make_infinity().is_infinity());
    EXPECT_TRUE(float16_t::make_negative_zero().is_zero());
    EXPECT_TRUE(float16_t::make_negative_zero().is_negative());
    EXPECT_EQ((float)float16_t::make_from_bits(0x3555), 0.333251953125f);
    EXPECT_EQ((float)(float16_t(1.5f) + float16_t(2.25f)), 3.75f);
    EXPECT_EQ(bfloat16_t(1.0f).to_bits(), 0x3f80);
    EXPECT_EQ(bfloat16_t(3.0f).to_bits(), 0x4040);
    EXPECT_EQ((float)bfloat16_t::make_from_bits(0x3f81), 1.0078125f);
    // 1 + 2^-8 is halfway between two bfloat16s: ties to even (down).
    EXPECT_EQ(bfloat16_t(1.0f + std::ldexp(1.0f, -8)).to_bits(), 0x3f80);
    EXPECT_EQ(sizeof(float16_t), 2u);
    EXPECT_EQ(sizeof(bfloat16_t), 2u);
}

// The special values and operators both types share, from IEEE 754's
// encodings (half: 5 exponent bits; bfloat16: float32's 8).
TEST(Float16, SpecialValuesAndOperators) {
    EXPECT_EQ(float16_t::make_nan().to_bits(), 0x7e00);
    EXPECT_EQ(bfloat16_t::make_nan().to_bits(), 0x7fc0);
    EXPECT_EQ(float16_t::make_negative_infinity().to_bits(), 0xfc00);
    EXPECT_EQ(bfloat16_t::make_negative_infinity().to_bits(), 0xff80);
    EXPECT_EQ(bfloat16_t::make_infinity().to_bits(), 0x7f80);
    EXPECT_EQ(float16_t::mantissa_mask, 0x03ff);
    EXPECT_EQ(bfloat16_t::mantissa_mask, 0x007f);
    EXPECT_TRUE(bfloat16_t::make_nan().is_nan());
    EXPECT_FALSE(bfloat16_t::make_infinity().is_nan());
    EXPECT_EQ((-bfloat16_t(2.0f)).to_bits(), 0xc000);
    bfloat16_t b(3.0f);
    b *= bfloat16_t(0.5f);
    EXPECT_EQ((float)b, 1.5f);
    b -= bfloat16_t(2.0f);
    EXPECT_EQ((float)b, -0.5f);
    EXPECT_TRUE(b < bfloat16_t(0.0f) && b.is_negative());
    float16_t h(1.0f);
    h /= float16_t(4.0f);
    EXPECT_EQ((float)h, 0.25f);
    EXPECT_EQ((int)float16_t(7.75f), 7);
    EXPECT_EQ((double)bfloat16_t(0.5f), 0.5);
    EXPECT_TRUE(float16_t::make_nan() != float16_t::make_nan());
    EXPECT_EQ(float16_t::make_from_signed_int(-3).to_bits(), 0xc200);
}

TEST(Float16, TypesAndConstants) {
    EXPECT_EQ(type_of<float16_t>(), Float(16));
    EXPECT_EQ(type_of<bfloat16_t>(), BFloat(16));
    Expr h(float16_t(1.5f));
    EXPECT_EQ(h.type(), Float(16));
    Expr bf(bfloat16_t(1.0078125f));
    EXPECT_EQ(bf.type(), BFloat(16));
    const double *v = Internal::as_const_float(bf);
    ASSERT_NE(v, nullptr);
    EXPECT_EQ(*v, 1.0078125);
    // Float(16) values through a pipeline (computed in float, stored as half).
    EXPECT_EQ(evaluate<float>(cast<float>(h) * 2), 3.0f);
}

// ---------------------------------------------------------------------------
// 4. Fast math, Type, Target

// Relative error allowed: upstream documents "accurate up to the last 5
// bits of the mantissa" (2^-18 of the value).
constexpr double fast_tolerance = 1.0 / (1 << 18);

TEST(FastMath, ExpLogPowAgainstLibm) {
    Var x("x");
    const int n = 1000;
    Func fx("fx");
    fx(x) = -20.0f + x * (40.0f / n); // [-20, 20)
    Func px("px");
    px(x) = 0.001f + x * (100.0f / n); // (0, 100)
    Func e("e"), l("l"), p("p"), inv("inv"), isq("isq");
    e(x) = fast_exp(fx(x));
    l(x) = fast_log(px(x));
    p(x) = fast_pow(px(x), 1.7f);
    inv(x) = fast_inverse(px(x));
    isq(x) = fast_inverse_sqrt(px(x));
    e.vectorize(x, 8);
    l.vectorize(x, 8);
    Buffer<float> be = e.realize({n}), bl = l.realize({n}), bp = p.realize({n}), bi = inv.realize({n}),
                  bs = isq.realize({n});
    for (int i = 0; i < n; i++) {
        float a = -20.0f + i * (40.0f / n);
        float b = 0.001f + i * (100.0f / n);
        EXPECT_NEAR(be(i), std::exp(a), std::exp(a) * fast_tolerance) << "fast_exp(" << a << ")";
        // log near 1 is near 0: absolute error there.
        EXPECT_NEAR(bl(i), std::log(b), std::max(std::fabs(std::log(b)), 1.0f) * fast_tolerance)
            << "fast_log(" << b << ")";
        EXPECT_NEAR(bp(i), std::pow(b, 1.7f), std::pow(b, 1.7f) * 8 * fast_tolerance) << "fast_pow(" << b << ")";
        EXPECT_NEAR(bi(i), 1.0f / b, (1.0f / b) * fast_tolerance);
        EXPECT_NEAR(bs(i), 1.0f / std::sqrt(b), (1.0f / std::sqrt(b)) * fast_tolerance);
    }
    EXPECT_EQ(evaluate<float>(fast_pow(Expr(0.0f), Expr(2.0f))), 0.0f);
    std::string msg = message_of([] { fast_exp(Expr(1.0)); });
    EXPECT_CONTAINS(msg, "fast_exp only works for Float(32)");
}

TEST(TypeApi, MinMax) {
    EXPECT_TRUE(Int(8).is_max((int64_t)127));
    EXPECT_TRUE(Int(8).is_min((int64_t)-128));
    EXPECT_TRUE(UInt(16).is_max((uint64_t)65535));
    EXPECT_FALSE(UInt(16).is_max((uint64_t)65534));
    EXPECT_EQ(evaluate<int16_t>(Int(16).max()), INT16_MAX);
    EXPECT_EQ(evaluate<int16_t>(Int(16).min()), INT16_MIN);
}

TEST(TargetApi, NewFeaturesParseAndPrint) {
    Target t("x86-64-linux-vulkan-vk_int8-vk_float64");
    EXPECT_TRUE(t.has_feature(Target::Vulkan));
    EXPECT_TRUE(t.has_feature(Target::VulkanInt8));
    EXPECT_TRUE(t.has_feature(Target::VulkanFloat64));
    EXPECT_TRUE(t.has_gpu_feature());
    EXPECT_EQ(Target(t.to_string()), t);
    EXPECT_TRUE(Target("x86-64-linux-webgpu").has_feature(Target::WebGPU));
    EXPECT_TRUE(Target::validate_target_string("x86-64-linux-avx512_zen4-avxvnni-spirv"));
    EXPECT_EQ(Target("x86-64-linux").with_feature(Target::VulkanV13).to_string(), "x86-64-linux-vk_v13");
    int v = Internal::get_llvm_version();
    EXPECT_GE(v, 190);
    EXPECT_LT(v, 200);
}

// Upstream 21's answers, one digit per type of `types` (1 = supported),
// observed with its Python module for each target and device API.
TEST(TargetApi, SupportsTypeAsUpstream) {
    const Type types[] = {Int(8), Int(16), Int(64), UInt(64), Float(16), BFloat(16), Float(64)};
    auto row = [&](const Target &t) {
        std::string s;
        for (const Type &ty : types) {
            s += t.supports_type(ty) ? '1' : '0';
        }
        return s;
    };
    auto row_on = [&](const Target &t, DeviceAPI d) {
        std::string s;
        for (const Type &ty : types) {
            s += t.supports_type(ty, d) ? '1' : '0';
        }
        return s;
    };
    Target host("x86-64-linux"), ocl("x86-64-linux-opencl"), metal("x86-64-linux-metal"), vk("x86-64-linux-vulkan"),
        vk_all("x86-64-linux-vulkan-vk_int8-vk_int16-vk_int64-vk_float16-vk_float64"), d3d("x86-64-linux-d3d12compute");
    EXPECT_EQ(row(host), "1111111");
    EXPECT_EQ(row(ocl), "1111110");
    EXPECT_EQ(row(metal), "1100110");
    EXPECT_EQ(row(vk), "1100110");
    EXPECT_EQ(row(vk_all), "1111111");
    EXPECT_EQ(row(d3d), "1100110");
    EXPECT_EQ(row_on(host, DeviceAPI::Host), "1111111");
    EXPECT_EQ(row_on(host, DeviceAPI::Default_GPU), "1111111");
    EXPECT_EQ(row_on(host, DeviceAPI::Metal), "1100110");
    EXPECT_EQ(row_on(host, DeviceAPI::OpenCL), "1111110");
    EXPECT_EQ(row_on(host, DeviceAPI::Vulkan), "0000000");
    EXPECT_EQ(row_on(vk, DeviceAPI::Default_GPU), "0000000");
    EXPECT_EQ(row_on(vk_all, DeviceAPI::Vulkan), "1111111");
    EXPECT_EQ(row_on(Target("x86-64-linux-opencl-cl_doubles"), DeviceAPI::OpenCL), "1111111");
    EXPECT_EQ(row_on(d3d, DeviceAPI::Default_GPU), "1100110");
}

// Upstream 21's answers, observed with its Python module.
TEST(TargetApi, DeviceApiFeaturesAndHostSupport) {
    EXPECT_EQ(target_feature_for_device_api(DeviceAPI::None), Target::FeatureEnd);
    EXPECT_EQ(target_feature_for_device_api(DeviceAPI::Host), Target::FeatureEnd);
    EXPECT_EQ(target_feature_for_device_api(DeviceAPI::Default_GPU), Target::FeatureEnd);
    EXPECT_EQ(target_feature_for_device_api(DeviceAPI::CUDA), Target::CUDA);
    EXPECT_EQ(target_feature_for_device_api(DeviceAPI::OpenCL), Target::OpenCL);
    EXPECT_EQ(target_feature_for_device_api(DeviceAPI::Metal), Target::Metal);
    EXPECT_EQ(target_feature_for_device_api(DeviceAPI::Vulkan), Target::Vulkan);
    EXPECT_EQ(target_feature_for_device_api(DeviceAPI::Hexagon), Target::HVX_128);
    EXPECT_TRUE(host_supports_target_device(Target("x86-64-linux")));
    EXPECT_FALSE(host_supports_target_device(Target("x86-64-linux-cuda")));
    EXPECT_FALSE(host_supports_target_device(Target("x86-64-linux-opencl")));
    EXPECT_FALSE(host_supports_target_device(Target("x86-64-linux-hvx")));
}

// ---------------------------------------------------------------------------
// 5. GPU / Hexagon scheduling and Buffer device methods

std::string realize_message(const std::function<void(Func &, Var &, Var &)> &schedule) {
    Var x("x"), y("y");
    Func f("f");
    f(x, y) = x + y;
    schedule(f, x, y);
    return message_of([&] { f.realize({16, 16}); });
}

TEST(GpuSchedules, RefusedForAHostTargetWithUpstreamsMessage) {
    Var xo("xo"), yo("yo"), xi("xi"), yi("yi");
    const std::string want = "Schedule for Func f requires <Default_GPU> but no compatible target feature is "
                             "enabled in target ";
    EXPECT_CONTAINS(realize_message([&](Func &f, Var &x, Var &y) { f.gpu_tile(x, y, xo, yo, xi, yi, 8, 8); }), want);
    EXPECT_CONTAINS(realize_message([&](Func &f, Var &x, Var &y) { f.gpu_tile(x, y, xi, yi, 8, 8); }), want);
    EXPECT_CONTAINS(realize_message([&](Func &f, Var &x, Var &) { f.gpu_tile(x, xo, xi, 8); }), want);
    EXPECT_CONTAINS(realize_message([&](Func &f, Var &, Var &y) { f.gpu_blocks(y); }), want);
    EXPECT_CONTAINS(realize_message([&](Func &f, Var &x, Var &) { f.gpu_threads(x); }), want);
    EXPECT_CONTAINS(realize_message([&](Func &f, Var &x, Var &y) { f.gpu(y, x); }), want);
    EXPECT_CONTAINS(realize_message([&](Func &f, Var &x, Var &) { f.gpu_lanes(x); }), want);
    EXPECT_CONTAINS(realize_message([&](Func &f, Var &, Var &) { f.gpu_single_thread(); }), want);
    EXPECT_CONTAINS(realize_message([&](Func &f, Var &, Var &y) { f.gpu_blocks(y, DeviceAPI::CUDA); }),
                    "Schedule for Func f requires <CUDA> but no compatible target feature");
    EXPECT_CONTAINS(realize_message([&](Func &f, Var &, Var &) { f.hexagon(); }),
                    "Schedule for Func f requires <Hexagon> but no compatible target feature");
    // On an update stage too.
    EXPECT_CONTAINS(realize_message([&](Func &f, Var &x, Var &y) {
                        f(x, y) += 1;
                        f.update().gpu_tile(x, y, xi, yi, 4, 4);
                    }),
                    want);
}

TEST(GpuSchedules, ATargetWithTheFeatureNamesTheMissingBackend) {
    Var x("x"), y("y"), xi("xi"), yi("yi");
    Func f("f");
    f(x, y) = x + y;
    f.gpu_tile(x, y, xi, yi, 8, 8);
    std::string msg = message_of([&] { f.compile_to_lowered_stmt("/dev/null", {}, Target("x86-64-linux-cuda")); });
    EXPECT_CONTAINS(msg, "Schedule for Func f requires <CUDA>");
    EXPECT_CONTAINS(msg, "no CUDA backend");
}

TEST(BufferDevice, HostOnlyBuffersBehaveAsUpstreams) {
    Buffer<int> b(4, 4);
    EXPECT_FALSE(b.device_dirty());
    EXPECT_FALSE(b.has_device_allocation());
    b.set_host_dirty();
    EXPECT_TRUE(b.host_dirty());
    EXPECT_EQ(b.copy_to_host(), 0);
    b.set_host_dirty(false);
    b.set_device_dirty(true);
    EXPECT_TRUE(b.device_dirty());
    b.set_device_dirty(false);
    EXPECT_EQ(b.device_sync(), 0);
    EXPECT_EQ(b.device_free(), 0);
    EXPECT_THROW(b.copy_to_device(DeviceAPI::Host), CompileError);
    EXPECT_THROW(b.copy_to_device(Target("x86-64-linux")), CompileError);
    std::string msg = message_of([&] { b.copy_to_device(Target("x86-64-linux-cuda")); });
    EXPECT_CONTAINS(msg, "no CUDA backend");
    EXPECT_THROW(b.device_malloc(DeviceAPI::OpenCL), CompileError);
}

} // namespace
