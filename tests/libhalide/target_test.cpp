// Tests of Halide::Target: parsing, canonical printing, implied features,
// host detection, natural vector sizes and the environment variables.
#include <cstdio>
#include <cstdlib>
#include <string>

#include <gtest/gtest.h>

#include "Halide.h"
#include "codegen/LLVMTarget.h"

using namespace Halide;

namespace {

// The CompileError message for parsing `s` ("" if it parsed).
std::string parse_error(const std::string &s) {
    try {
        Target t(s);
    } catch (const CompileError &e) {
        return e.what();
    }
    return "";
}

// Sets or clears an environment variable for one scope.
class EnvVar {
public:
    EnvVar(const char *name, const char *value) : name_(name) {
        if (const char *old = std::getenv(name)) {
            had_old_ = true;
            old_ = old;
        }
        if (value) {
            setenv(name, value, 1);
        } else {
            unsetenv(name);
        }
    }
    ~EnvVar() {
        if (had_old_) {
            setenv(name_, old_.c_str(), 1);
        } else {
            unsetenv(name_);
        }
    }

private:
    const char *name_;
    bool had_old_ = false;
    std::string old_;
};

} // namespace

TEST(Target, DefaultIsUnknown) {
    Target t;
    EXPECT_EQ(t.os, Target::OSUnknown);
    EXPECT_EQ(t.arch, Target::ArchUnknown);
    EXPECT_EQ(t.bits, 0);
    EXPECT_TRUE(t.has_unknowns());
    EXPECT_EQ(t.to_string(), "arch_unknown-0-os_unknown");
    EXPECT_EQ(Target("arch_unknown-0-os_unknown"), t);
}

TEST(Target, ParseBasic) {
    Target t("x86-64-linux");
    EXPECT_EQ(t.arch, Target::X86);
    EXPECT_EQ(t.bits, 64);
    EXPECT_EQ(t.os, Target::Linux);
    EXPECT_FALSE(t.has_unknowns());
    EXPECT_EQ(t, Target(Target::Linux, Target::X86, 64));
    EXPECT_EQ(t.to_string(), "x86-64-linux");

    // arch, bits and os may come in any order.
    EXPECT_EQ(Target("linux-64-x86"), t);
    EXPECT_EQ(Target("arm-32-android").to_string(), "arm-32-android");
    EXPECT_EQ(Target("wasm-32-wasmrt-wasm_simd128").to_string(), "wasm-32-wasmrt-wasm_simd128");
    EXPECT_EQ(Target("riscv-64-noos").to_string(), "riscv-64-noos");
    EXPECT_EQ(Target("hexagon-32-qurt-hvx").to_string(), "hexagon-32-qurt-hvx_128");
    EXPECT_EQ(Target(std::string("x86-32-windows")).to_string(), "x86-32-windows");
    const char *cs = "powerpc-64-linux-vsx";
    EXPECT_EQ(Target(cs).to_string(), "powerpc-64-linux-vsx");
}

TEST(Target, RoundTrips) {
    for (const char *s : {
             "x86-64-linux",
             "x86-64-linux-no_runtime",
             "x86-64-linux-no_asserts-no_bounds_query-user_context",
             "x86-64-linux-c_plus_plus_name_mangling-large_buffers",
             "x86-64-linux-avx-avx2-fma-sse41",
             "x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_sapphirerapids-avx512_skylake-f16c-fma-sse41",
             "x86-64-osx-cuda-cuda_capability_61",
             "arm-64-ios-metal",
             "x86-64-windows-d3d12compute-opencl",
             "x86-64-linux-asan-msan-profile-strict_float-trace_pipeline",
             "x86-64-linux-trace_all",
             "x86-64-linux-trace_loads-trace_stores",
             "arm-64-fuchsia-arm_dot_prod-sve2",
         }) {
        SCOPED_TRACE(s);
        ASSERT_TRUE(Target::validate_target_string(s));
        Target t(s);
        EXPECT_EQ(t.to_string(), s);
        EXPECT_EQ(Target(t.to_string()), t);
    }
}

TEST(Target, CanonicalOrdering) {
    EXPECT_EQ(Target("x86-64-linux-sse41-avx").to_string(), "x86-64-linux-avx-sse41");
    EXPECT_EQ(Target("no_runtime-linux-x86-user_context-64").to_string(), "x86-64-linux-no_runtime-user_context");
    // Repeated features are harmless.
    EXPECT_EQ(Target("x86-64-linux-debug-debug").to_string(), "x86-64-linux-debug");
}

TEST(Target, TraceAll) {
    Target t("x86-64-linux-trace_all");
    EXPECT_TRUE(t.features_all_of({Target::TraceLoads, Target::TraceStores, Target::TraceRealizations}));
    EXPECT_FALSE(t.has_feature(Target::TracePipeline));
    EXPECT_EQ(Target("x86-64-linux-trace_realizations-trace_loads-trace_stores").to_string(), "x86-64-linux-trace_all");
    // Upstream 21 spells them out next to trace_pipeline (which sorts between them).
    EXPECT_EQ(Target("x86-64-linux-trace_loads-trace_stores-trace_realizations-trace_pipeline-avx").to_string(),
              "x86-64-linux-avx-trace_loads-trace_pipeline-trace_realizations-trace_stores");
    EXPECT_EQ(Target("x86-64-linux-trace_all-trace_pipeline").to_string(),
              "x86-64-linux-trace_loads-trace_pipeline-trace_realizations-trace_stores");
    EXPECT_EQ(Target("x86-64-linux-trace_all-trace_loads").to_string(), "x86-64-linux-trace_all");
    EXPECT_EQ(t.without_feature(Target::TraceStores).to_string(), "x86-64-linux-trace_loads-trace_realizations");
}

TEST(Target, ImpliedFeatures) {
    // As upstream 21: a Target holds the features named, nothing more...
    Target avx2("x86-64-linux-avx2-fma");
    EXPECT_EQ(avx2.to_string(), "x86-64-linux-avx2-fma");
    EXPECT_FALSE(avx2.has_feature(Target::AVX));
    EXPECT_FALSE(avx2.has_feature(Target::SSE41));
    EXPECT_EQ(Target("x86-64-linux-avx512_skylake").to_string(), "x86-64-linux-avx512_skylake");
    // ...but wide vectors follow from any of the AVX features,
    EXPECT_EQ(avx2.natural_vector_size(Float(32)), 8);
    EXPECT_EQ(Target("x86-64-linux-avx512_skylake").natural_vector_size(Float(32)), 16);
    // and code generation and the metadata use the implied ones too
    // (ABI.md section 6: what a Halide 14 generator stores).
    EXPECT_EQ(Internal::with_implied_features(avx2).to_string(), "x86-64-linux-avx-avx2-fma-sse41");
    EXPECT_EQ(Internal::with_implied_features(Target("x86-64-linux-avx")).to_string(), "x86-64-linux-avx-sse41");
    EXPECT_EQ(Internal::with_implied_features(Target("x86-64-linux-avx512")).to_string(),
              "x86-64-linux-avx-avx2-avx512-sse41");
    EXPECT_EQ(Internal::with_implied_features(Target("x86-64-linux-avx512_skylake")).to_string(),
              "x86-64-linux-avx-avx2-avx512-avx512_skylake-sse41");
    EXPECT_EQ(Internal::with_implied_features(Target("x86-64-linux-avx512_knl")).to_string(),
              "x86-64-linux-avx-avx2-avx512-avx512_knl-sse41");
    EXPECT_EQ(Internal::with_implied_features(Target("x86-64-linux-avx512_cannonlake")).to_string(),
              "x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-sse41");
    EXPECT_EQ(Internal::with_implied_features(Target("x86-64-linux-avx512_sapphirerapids")).to_string(),
              "x86-64-linux-avx-avx2-avx512-avx512_sapphirerapids-avx512_skylake-sse41");
    // Zen 4's AVX-512 is Cannon Lake's and more; Zen 5's is Zen 4's and more.
    EXPECT_EQ(Internal::with_implied_features(Target("x86-64-linux-avx512_zen4")).to_string(),
              "x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-avx512_zen4-sse41");
    EXPECT_EQ(Internal::with_implied_features(Target("x86-64-linux-avx512_zen5")).to_string(),
              "x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-avx512_zen4-avx512_zen5-sse41");
    // Conservative: these imply nothing.
    for (const char *s : {"x86-64-linux-fma", "x86-64-linux-f16c", "x86-64-linux-sse41"}) {
        EXPECT_EQ(Internal::with_implied_features(Target(s)).to_string(), s);
    }

    // set_feature and friends change only the flag named.
    Target t(Target::Linux, Target::X86, 64, {Target::AVX2});
    EXPECT_EQ(t.to_string(), "x86-64-linux-avx2");
    EXPECT_EQ(t.with_feature(Target::AVX512).to_string(), "x86-64-linux-avx2-avx512");
}

// What LLVM is told for each AVX-512 generation: as upstream 21, a Zen 4
// target gets Zen 4's instructions (and a Zen 5 one AVX-VNNI and
// VP2INTERSECT on top), not the baseline x86-64 that a target naming only
// avx512_zen4 used to get.
TEST(Target, LLVMFeaturesOfZenTargets) {
    auto features = [](const char *s) { return "," + Internal::llvm_target_for(Target(s)).features + ","; };
    const std::string zen4 = features("x86-64-linux-avx512_zen4");
    for (const char *f : {"+avx2", "+fma", "+avx512f", "+avx512bw", "+avx512vl", "+avx512ifma", "+avx512vbmi",
                          "+avx512vnni", "+avx512bf16", "+avx512vbmi2", "+avx512bitalg", "+avx512vpopcntdq"}) {
        EXPECT_NE(zen4.find(std::string(",") + f + ","), std::string::npos) << f << " in " << zen4;
    }
    EXPECT_EQ(zen4.find("+avxvnni"), std::string::npos) << zen4;
    const std::string zen5 = features("x86-64-linux-avx512_zen5");
    for (const char *f : {"+avx512vnni", "+avx512vbmi2", "+avxvnni", "+avx512vp2intersect"}) {
        EXPECT_NE(zen5.find(std::string(",") + f + ","), std::string::npos) << f << " in " << zen5;
    }
    EXPECT_EQ(Internal::llvm_target_for(Target("x86-64-linux-avx512_zen4")).cpu, "x86-64-v4");
}

// A target naming only avx512_zen4 (or _zen5) vectorizes floats 16 wide in
// zmm registers, as upstream 21's does.
TEST(Target, ZenTargetsCompileToAVX512) {
    ImageParam in(Float(32), 1, "in");
    Var x("x");
    Func f("f");
    f(x) = in(x)*2.0f + 1.0f;
    f.vectorize(x, 16);
    for (const char *s : {"x86-64-linux-avx512_zen4", "x86-64-linux-avx512_zen5"}) {
        const std::string path = ::testing::TempDir() + "zen_target.s";
        f.compile_to_assembly(path, {in}, "f", Target(s));
        FILE *file = std::fopen(path.c_str(), "r");
        ASSERT_NE(file, nullptr);
        std::string text;
        char buf[4096];
        size_t n;
        while ((n = std::fread(buf, 1, sizeof buf, file)) > 0) {
            text.append(buf, n);
        }
        std::fclose(file);
        EXPECT_NE(text.find("%zmm"), std::string::npos) << s;
    }
}

TEST(Target, FeatureSetters) {
    Target t("x86-64-linux");
    EXPECT_FALSE(t.has_feature(Target::NoAsserts));
    t.set_feature(Target::NoAsserts);
    EXPECT_TRUE(t.has_feature(Target::NoAsserts));
    t.set_feature(Target::NoAsserts, false);
    EXPECT_FALSE(t.has_feature(Target::NoAsserts));
    t.set_features({Target::Debug, Target::JIT});
    EXPECT_TRUE(t.features_all_of({Target::Debug, Target::JIT}));
    EXPECT_FALSE(t.features_all_of({Target::Debug, Target::CUDA}));
    EXPECT_TRUE(t.features_any_of({Target::Debug, Target::CUDA}));
    EXPECT_FALSE(t.features_any_of({Target::CUDA, Target::Metal}));
    EXPECT_TRUE(t.features_all_of({}));
    EXPECT_FALSE(t.features_any_of({}));
    EXPECT_FALSE(t.has_gpu_feature());
    EXPECT_TRUE(t.with_feature(Target::CUDA).has_gpu_feature());

    Target a = t.with_feature(Target::Profile);
    EXPECT_NE(a, t);
    EXPECT_EQ(a.without_feature(Target::Profile), t);
    EXPECT_FALSE(t.has_feature(Target::Profile)); // with_feature copies

    EXPECT_EQ(Target::feature_to_name(Target::CPlusPlusMangling), "c_plus_plus_name_mangling");
    EXPECT_EQ(Target::feature_from_name("large_buffers"), Target::LargeBuffers);
    EXPECT_EQ(Target::feature_from_name("hvx"), Target::HVX_128);
    EXPECT_EQ(Target::feature_from_name("nonsense"), Target::FeatureEnd);

    EXPECT_FALSE(t.has_large_buffers());
    EXPECT_EQ(t.maximum_buffer_size(), (int64_t)0x7fffffff);
    EXPECT_TRUE(t.with_feature(Target::LargeBuffers).has_large_buffers());
    EXPECT_FALSE(Target("x86-32-linux-large_buffers").has_large_buffers());
}

TEST(Target, FeatureNumbersMatchUpstream21) {
    // Upstream 21's halide_target_feature_t values, read with a C program
    // compiled against its HalideRuntime.h (ABI.md §0 H3).
    EXPECT_EQ((int)halide_target_feature_jit, 0);
    EXPECT_EQ((int)halide_target_feature_sse41, 5);
    EXPECT_EQ((int)halide_target_feature_avx2, 7);
    EXPECT_EQ((int)halide_target_feature_user_context, 29);
    EXPECT_EQ((int)halide_target_feature_no_runtime, 31);
    EXPECT_EQ((int)halide_target_feature_avx512_skylake, 42);
    EXPECT_EQ((int)halide_target_feature_avx512_sapphirerapids, 46);
    EXPECT_EQ((int)halide_llvm_large_code_model, 73);
    EXPECT_EQ((int)halide_target_feature_vulkan_version13, 96);
    EXPECT_EQ((int)halide_target_feature_simulator, 100);
    EXPECT_EQ((int)halide_target_feature_end, 101);
    // Target::Feature has the runtime's numbers.
    EXPECT_EQ((int)Target::SSE41, 5);
    EXPECT_EQ((int)Target::AVX2, (int)halide_target_feature_avx2);
    EXPECT_EQ((int)Target::UserContext, 29);
    EXPECT_EQ((int)Target::AVX512_SapphireRapids, 46);
    EXPECT_EQ((int)Target::LLVMLargeCodeModel, 73);
    EXPECT_EQ((int)Target::Simulator, 100);
    // Halide 14's features that upstream 21 dropped come after its end; the
    // bitsets of halide_can_use_target_features still fit in two 64-bit words.
    EXPECT_GE((int)Target::Matlab, 101);
    EXPECT_LE((int)Target::FeatureEnd, 128);
    Target t("x86-64-linux-avx2-no_runtime");
    EXPECT_TRUE(t.has_feature(halide_target_feature_avx2));
    EXPECT_TRUE(t.has_feature(halide_target_feature_no_runtime));
    EXPECT_FALSE(t.has_feature(halide_target_feature_avx512));
    EXPECT_FALSE(t.has_feature(halide_target_feature_user_context));
}

// "vector_bits_N", as upstream 21: sets vector_bits (printed last), the
// last one wins; x86's vector size ignores it, ARM SVE's follows it.
TEST(Target, VectorBits) {
    Target t("x86-64-linux-avx2-vector_bits_256");
    EXPECT_EQ(t.vector_bits, 256);
    EXPECT_EQ(t.to_string(), "x86-64-linux-avx2-vector_bits_256");
    EXPECT_EQ(t.natural_vector_size(Float(32)), 8);
    EXPECT_EQ(Target("x86-64-linux-vector_bits_512").natural_vector_size(Float(32)), 4);
    EXPECT_TRUE(t == Target("x86-64-linux-avx2")); // upstream's == ignores it
    EXPECT_EQ(Target("x86-64-vector_bits_128-linux-avx").to_string(), "x86-64-linux-avx-vector_bits_128");
    EXPECT_EQ(Target("x86-64-linux-vector_bits_128-vector_bits_256").vector_bits, 256);
    EXPECT_EQ(Target("x86-64-linux-vector_bits_07").to_string(), "x86-64-linux-vector_bits_7");
    EXPECT_EQ(Target("x86-64-linux-vector_bits_0").to_string(), "x86-64-linux");
    EXPECT_EQ(Target("arm-64-linux-sve2-vector_bits_512").natural_vector_size(Float(32)), 16);
    EXPECT_EQ(Target("arm-64-linux-sve2-vector_bits_512").natural_vector_size(UInt(8)), 64);
    EXPECT_EQ(Target("arm-64-linux-sve2").natural_vector_size(Float(32)), 4);
    EXPECT_FALSE(Target::validate_target_string("x86-64-linux-vector_bits_"));
    EXPECT_FALSE(Target::validate_target_string("x86-64-linux-vector_bits_256x"));
    Target c(Target::Linux, Target::X86, 64, Target::ProcessorGeneric, {Target::AVX2}, 512);
    EXPECT_EQ(c.to_string(), "x86-64-linux-avx2-vector_bits_512");
}

TEST(Target, Host) {
    Target host = get_host_target();
    EXPECT_EQ(host.arch, Target::X86);
    EXPECT_EQ(host.bits, 64);
    EXPECT_EQ(host.os, Target::Linux);
    EXPECT_FALSE(host.has_feature(Target::JIT));
    std::string s = host.to_string();
    EXPECT_EQ(s.rfind("x86-64-linux", 0), 0u) << s;
    EXPECT_TRUE(Target::validate_target_string(s)) << s;
    EXPECT_EQ(Target(s), host);
    EXPECT_EQ(Target("host"), host);
    EXPECT_EQ(Target(""), host);
    EXPECT_EQ(Target("host-debug"), host.with_feature(Target::Debug));
    EXPECT_EQ(Target("host-trace_all").to_string().find("trace_all") != std::string::npos, true);
    // The host carries its implied features.
    if (host.has_feature(Target::AVX2)) {
        EXPECT_TRUE(host.features_all_of({Target::AVX, Target::SSE41}));
    }
    if (host.has_feature(Target::AVX512_Skylake)) {
        EXPECT_TRUE(host.features_all_of({Target::AVX512, Target::AVX2}));
    }
}

TEST(Target, Errors) {
    for (const char *bad : {
             "x86-linux",           // arch without bits
             "x86-64-64-linux",     // bits twice
             "x86-arm-64-linux",    // arch twice
             "x86-64-linux-osx",    // os twice
             "host-x86",            // arch after host
             "host-64",             // bits after host
             "host-linux",          // os after host
             "x86-64-linux-host",   // host not first
             "x86-64",              // no os
             "64-linux",            // no arch
             "linux",               // no arch or bits
             "avx",                 // only a feature
             "x86-16-linux",        // bad bits
             "x86-0-linux",         // bits 0 with a real arch
             "x86--64-linux",       // empty token
             "x86-64-linux-",       // trailing dash
             "x86-64-linux-bogus",  // unknown feature
             "X86-64-linux",        // names are case sensitive
             "x86-64-linux-mips",   // 14-only arch, not supported
             "host-avx-not_a_flag", // unknown feature after host
         }) {
        SCOPED_TRACE(bad);
        EXPECT_FALSE(Target::validate_target_string(bad));
        EXPECT_THROW(Target t(bad), CompileError);
    }
    EXPECT_TRUE(Target::validate_target_string(""));
    EXPECT_TRUE(Target::validate_target_string("host"));
    EXPECT_TRUE(Target::validate_target_string("host-avx-no_runtime"));
    // Unknown arch, bits or OS: parsed (Target() prints it), not valid, as upstream's.
    EXPECT_EQ(Target().to_string(), "arch_unknown-0-os_unknown");
    EXPECT_FALSE(Target::validate_target_string("arch_unknown-0-os_unknown"));
    EXPECT_FALSE(Target::validate_target_string("0-arch_unknown-os_unknown-sse41"));

    std::string msg = parse_error("x86-64-linux-bogus_feature");
    EXPECT_NE(msg.find("\"bogus_feature\""), std::string::npos) << msg;
    EXPECT_NE(msg.find("x86-64-linux-bogus_feature"), std::string::npos) << msg;
    // ... and lists what would have been valid.
    EXPECT_NE(msg.find("avx512_skylake"), std::string::npos) << msg;
    EXPECT_NE(msg.find("trace_all"), std::string::npos) << msg;
    EXPECT_NE(msg.find("wasmrt"), std::string::npos) << msg;
    EXPECT_NE(msg.find("riscv"), std::string::npos) << msg;

    msg = parse_error("x86-linux");
    EXPECT_NE(msg.find("bits"), std::string::npos) << msg;
    msg = parse_error("host-x86");
    EXPECT_NE(msg.find("\"x86\""), std::string::npos) << msg;
    msg = parse_error("x86-64-64-linux");
    EXPECT_NE(msg.find("twice"), std::string::npos) << msg;
}

TEST(Target, NaturalVectorSize) {
    Target sse("x86-64-linux-sse41");
    EXPECT_EQ(sse.natural_vector_size(UInt(8)), 16);
    EXPECT_EQ(sse.natural_vector_size(Float(32)), 4);
    EXPECT_EQ(sse.natural_vector_size(Float(64)), 2);
    EXPECT_EQ(Target("x86-64-linux").natural_vector_size(Int(16)), 8);

    // As upstream 21: AVX's 32-byte vectors are for floats only, AVX2's for
    // everything; plain AVX-512 has no 64-byte integer vectors (no AVX-512BW).
    Target avx("x86-64-linux-avx");
    EXPECT_EQ(avx.natural_vector_size(Float(32)), 8);
    EXPECT_EQ(avx.natural_vector_size<uint8_t>(), 16);
    EXPECT_EQ(Target("x86-64-linux-avx2").natural_vector_size(Int(32)), 8);

    Target avx512("x86-64-linux-avx512_skylake");
    EXPECT_EQ(avx512.natural_vector_size(UInt(8)), 64);
    EXPECT_EQ(avx512.natural_vector_size(Float(32)), 16);
    EXPECT_EQ(avx512.natural_vector_size<double>(), 8);
    EXPECT_EQ(Target("x86-64-linux-avx512").natural_vector_size(Int(32)), 8);
    EXPECT_EQ(Target("x86-64-linux-avx512").natural_vector_size(Float(32)), 16);
    EXPECT_EQ(Target("x86-64-linux-avx512_zen4").natural_vector_size(UInt(8)), 64);
    EXPECT_EQ(Target("x86-64-linux-avx512_zen5").natural_vector_size(Float(32)), 16);

    Target arm("arm-64-linux");
    EXPECT_EQ(arm.natural_vector_size(Float(64)), 2);
    EXPECT_EQ(arm.natural_vector_size(UInt(8)), 16);
    EXPECT_EQ(arm.natural_vector_size(Bool()), 16);
}

TEST(Target, Environment) {
    Target host = get_host_target();
    {
        EnvVar v("HL_TARGET", nullptr);
        EXPECT_EQ(get_target_from_environment(), host);
    }
    {
        EnvVar v("HL_TARGET", "");
        EXPECT_EQ(get_target_from_environment(), host);
    }
    {
        EnvVar v("HL_TARGET", "arm-64-android-no_asserts");
        EXPECT_EQ(get_target_from_environment().to_string(), "arm-64-android-no_asserts");
    }
    {
        EnvVar v("HL_TARGET", "x86-64-linux-nope");
        EXPECT_THROW(get_target_from_environment(), CompileError);
    }
    {
        EnvVar v("HL_JIT_TARGET", nullptr);
        EXPECT_EQ(get_jit_target_from_environment(), host.with_feature(Target::JIT));
    }
    {
        EnvVar v("HL_JIT_TARGET", "x86-64-linux-avx");
        Target t = get_jit_target_from_environment();
        EXPECT_EQ(t.to_string(), "x86-64-linux-avx-jit"); // the features named only, as upstream 21
    }
    {
        EnvVar v("HL_JIT_TARGET", "host-debug");
        EXPECT_EQ(get_jit_target_from_environment(), host.with_feature(Target::Debug).with_feature(Target::JIT));
    }
    {
        // Not the host's arch/os: the JIT cannot run it.
        EnvVar v("HL_JIT_TARGET", "arm-64-android");
        EXPECT_THROW(get_jit_target_from_environment(), CompileError);
    }
}

TEST(Target, ProcessorTuneParsesAndPrintsAsUpstream) {
    Target t("x86-64-linux-tune_znver4-large_buffers");
    EXPECT_EQ(t.processor_tune, Target::ZnVer4);
    EXPECT_EQ(t.to_string(), "x86-64-linux-tune_znver4-large_buffers");
    t.processor_tune = Target::K8;
    EXPECT_EQ(t.to_string(), "x86-64-linux-tune_k8-large_buffers");
    EXPECT_EQ(Target("x86-64-linux-avx2").processor_tune, Target::ProcessorGeneric);
    EXPECT_EQ(Target("x86-64-linux-tune_generic-avx2"), Target("x86-64-linux-avx2"));
    EXPECT_EQ(Target(Target::Linux, Target::X86, 64, Target::ZnVer2).to_string(), "x86-64-linux-tune_znver2");
    EXPECT_NE(Target("x86-64-linux-tune_znver2"), Target("x86-64-linux"));
    EXPECT_NE(parse_error("x86-64-linux-tune_k8-tune_znver1"), "");
}

TEST(Target, LargeBuffersAndSupport) {
    Target small("x86-64-linux"), large("x86-64-linux-large_buffers");
    EXPECT_FALSE(small.has_large_buffers());
    EXPECT_EQ(small.maximum_buffer_size(), 2147483647);
    EXPECT_TRUE(large.has_large_buffers());
    EXPECT_EQ(large.maximum_buffer_size(), INT64_MAX);
    EXPECT_TRUE(small.supported());
    EXPECT_TRUE(Target("arm-64-linux").supported());
    EXPECT_FALSE(Target("x86-64-linux-cuda").supported());
    EXPECT_FALSE(Target("hexagon-32-qurt").supported());
}

// Expected values: what upstream 21's libHalide answers for the same targets.
TEST(Target, CapabilityLowerBoundsAsUpstream) {
    EXPECT_EQ(Target("x86-64-linux").get_cuda_capability_lower_bound(), -1);
    EXPECT_EQ(Target("x86-64-linux-cuda").get_cuda_capability_lower_bound(), 20);
    EXPECT_EQ(Target("x86-64-linux-cuda-cuda_capability_50").get_cuda_capability_lower_bound(), 50);
    EXPECT_EQ(Target("x86-64-linux-cuda_capability_61-cuda_capability_35").get_cuda_capability_lower_bound(), -1);
    EXPECT_EQ(Target("x86-64-linux-cuda-cuda_capability_61-cuda_capability_35").get_cuda_capability_lower_bound(), 35);
    EXPECT_EQ(Target("arm-64-linux-armv81a-armv84a").get_arm_v8_lower_bound(), 81);
    EXPECT_EQ(Target("arm-64-linux").get_arm_v8_lower_bound(), -1);
    EXPECT_EQ(Target("x86-64-linux-vulkan").get_vulkan_capability_lower_bound(), 10);
    EXPECT_EQ(Target("x86-64-linux-vulkan-vk_v12").get_vulkan_capability_lower_bound(), 12);
    EXPECT_EQ(Target("x86-64-linux-vk_v12").get_vulkan_capability_lower_bound(), -1);
}

TEST(Target, RuntimeCompatibleTargetAsUpstream) {
    struct Case {
        const char *a, *b, *result; // result nullptr: no compatible target
    };
    const Case cases[] = {
        {"x86-64-linux-avx-avx2-sse41-debug", "x86-64-linux-sse41-debug-cuda", "x86-64-linux-cuda-debug-sse41"},
        {"x86-64-linux-avx2-avx-sse41", "x86-64-linux-sse41-debug", nullptr},
        {"x86-64-linux-sse41", "arm-64-linux", nullptr},
        {"x86-64-linux-tune_znver3-avx-sse41-cuda-cuda_capability_61",
         "x86-64-linux-avx-cuda-cuda_capability_35-no_asserts", "x86-64-linux-tune_znver3-avx-cuda-cuda_capability_35"},
        {"arm-64-linux-armv84a", "arm-64-linux-armv81a", "arm-64-linux-armv81a"},
        {"x86-64-linux-avx-sse41-vulkan-vk_v13", "x86-64-linux-sse41-vulkan-vk_v10-jit",
         "x86-64-linux-sse41-vk_v10-vulkan"},
    };
    for (const Case &c : cases) {
        Target a(c.a), b(c.b), result("x86-32-windows");
        bool ok = a.get_runtime_compatible_target(b, result);
        EXPECT_EQ(ok, c.result != nullptr) << c.a << " + " << c.b;
        EXPECT_EQ(result.to_string(), c.result ? c.result : "x86-32-windows") << c.a << " + " << c.b;
    }
}

TEST(Target, ExceptionsAreEnabled) {
    EXPECT_TRUE(exceptions_enabled());
    EXPECT_THROW(Target("x86-64-linux-not_a_feature"), CompileError);
}
