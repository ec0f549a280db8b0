// Halide::Target: the machine a pipeline is compiled for (architecture, word
// size, operating system) plus a set of feature flags, and its text form
// ("x86-64-linux-avx-avx2-sse41"). Grammar and canonical form: ABI.md §6.
#ifndef HALIDE_TARGET_H
#define HALIDE_TARGET_H

#include <bitset>
#include <cstdint>
#include <string>
#include <vector>

#include "Halide/Type.h"

namespace Halide {

struct Target {
    enum OS { OSUnknown = 0, Linux, Windows, OSX, Android, IOS, QuRT, NoOS, Fuchsia, WebAssemblyRuntime };
    enum Arch { ArchUnknown = 0, X86, ARM, Hexagon, POWERPC, WebAssembly, RISCV };

    // The numbers are those of Halide 14's halide_target_feature_t (ABI.md
    // §0 H3), so feature bitsets agree with 14 kernels and wrappers.
    enum Feature {
        JIT = 0,
        Debug = 1,
        NoAsserts = 2,
        NoBoundsQuery = 3,
        SSE41 = 4,
        AVX = 5,
        AVX2 = 6,
        FMA = 7,
        FMA4 = 8,
        F16C = 9,
        ARMv7s = 10,
        NoNEON = 11,
        VSX = 12,
        POWER_ARCH_2_07 = 13,
        CUDA = 14,
        CUDACapability30 = 15,
        CUDACapability32 = 16,
        CUDACapability35 = 17,
        CUDACapability50 = 18,
        CUDACapability61 = 19,
        CUDACapability70 = 20,
        CUDACapability75 = 21,
        CUDACapability80 = 22,
        CUDACapability86 = 23,
        OpenCL = 24,
        CLDoubles = 25,
        CLAtomics64 = 26,
        OpenGLCompute = 27,
        UserContext = 28,
        Matlab = 29,
        Profile = 30,
        NoRuntime = 31,
        Metal = 32,
        CPlusPlusMangling = 33,
        LargeBuffers = 34,
        HVX_128 = 35,
        HVX = HVX_128,
        HVX_v62 = 36,
        FuzzFloatStores = 37,
        SoftFloatABI = 38,
        MSAN = 39,
        AVX512 = 40,
        AVX512_KNL = 41,
        AVX512_Skylake = 42,
        AVX512_Cannonlake = 43,
        AVX512_SapphireRapids = 44,
        HVX_shared_object = 45,
        TraceLoads = 46,
        TraceStores = 47,
        TraceRealizations = 48,
        TracePipeline = 49,
        HVX_v65 = 50,
        HVX_v66 = 51,
        CLHalf = 52,
        StrictFloat = 53,
        TSAN = 54,
        ASAN = 55,
        D3D12Compute = 56,
        CheckUnsafePromises = 57,
        HexagonDma = 58,
        EmbedBitcode = 59,
        EnableLLVMLoopOpt = 60,
        DisableLLVMLoopOpt = 61,
        WasmSimd128 = 62,
        WasmSignExt = 63,
        WasmSatFloatToInt = 64,
        WasmThreads = 65,
        WasmBulkMemory = 66,
        SVE = 67,
        SVE2 = 68,
        EGL = 69,
        ARMDotProd = 70,
        ARMFp16 = 71,
        LLVMLargeCodeModel = 72,
        RVV = 73,
        ARMv81a = 74,
        SanitizerCoverage = 75,
        ProfileByTimer = 76,
        FeatureEnd = 77
    };

    OS os = OSUnknown;
    Arch arch = ArchUnknown;
    int bits = 0;

    Target() = default;
    Target(OS o, Arch a, int b, const std::vector<Feature> &initial_features = {});
    // Parses a target string (ABI.md §6); "" is the host. Throws CompileError
    // on a malformed string. Implied features (see Target.cpp) are added.
    explicit Target(const std::string &s);
    explicit Target(const char *s);

    // Whether `s` parses; never throws.
    static bool validate_target_string(const std::string &s);

    // "sse41" for SSE41, ...; feature_from_name returns FeatureEnd if unknown.
    static std::string feature_to_name(Feature f);
    static Feature feature_from_name(const std::string &name);

    bool has_unknowns() const { return os == OSUnknown || arch == ArchUnknown || bits == 0; }

    // These change exactly the named flags (no implied features are added).
    void set_feature(Feature f, bool value = true);
    void set_features(const std::vector<Feature> &fs, bool value = true);
    bool has_feature(Feature f) const;
    bool features_any_of(const std::vector<Feature> &fs) const;
    bool features_all_of(const std::vector<Feature> &fs) const;
    Target with_feature(Feature f) const;
    Target without_feature(Feature f) const;
    bool has_gpu_feature() const;

    bool operator==(const Target &o) const {
        return os == o.os && arch == o.arch && bits == o.bits && features == o.features;
    }
    bool operator!=(const Target &o) const { return !(*this == o); }

    // Canonical form: arch-bits-os, then the features' names sorted
    // alphabetically; the three per-Func trace flags together print as
    // "trace_all".
    std::string to_string() const;

    // Lanes of `t` that fill the widest enabled vector register.
    int natural_vector_size(const Type &t) const;
    template <typename T> int natural_vector_size() const { return natural_vector_size(type_of<T>()); }

    bool has_large_buffers() const { return bits == 64 && has_feature(LargeBuffers); }
    int64_t maximum_buffer_size() const {
        return has_large_buffers() ? (int64_t)((((uint64_t)1) << 63) - 1) : (int64_t)((((uint64_t)1) << 31) - 1);
    }

    const std::bitset<FeatureEnd> &get_features_bitset() const { return features; }

private:
    std::bitset<FeatureEnd> features;
};

// The machine this process runs on, with the CPU features it has.
Target get_host_target();
// HL_TARGET, or the host if unset or empty.
Target get_target_from_environment();
// HL_JIT_TARGET (arch, bits and os must be the host's), or the host; plus JIT.
Target get_jit_target_from_environment();

} // namespace Halide

#endif
