// Halide::Target: the machine a pipeline is compiled for (architecture, word
// size, operating system) plus a set of feature flags, and its text form
// ("x86-64-linux-avx-avx2-sse41"). Grammar and canonical form: ABI.md §6.
#ifndef HALIDE_TARGET_H
#define HALIDE_TARGET_H

#include <bitset>
#include <cstdint>
#include <string>
#include <vector>

#include "Halide/DeviceAPI.h"
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
        // Upstream 21's features, after ours (names as upstream's target strings).
        EnableBacktraces = 77,
        AVXVNNI = 78,
        HVX_v68 = 79,
        AVX512_Zen4 = 80,
        AVX512_Zen5 = 81,
        WasmMvpOnly = 82,
        WebGPU = 83,
        ARMv8a = 84,
        ARMv82a = 85,
        ARMv83a = 86,
        ARMv84a = 87,
        ARMv85a = 88,
        ARMv86a = 89,
        ARMv87a = 90,
        ARMv88a = 91,
        ARMv89a = 92,
        SPIRV = 93,
        Vulkan = 94,
        VulkanInt8 = 95,
        VulkanInt16 = 96,
        VulkanInt64 = 97,
        VulkanFloat16 = 98,
        VulkanFloat64 = 99,
        VulkanV10 = 100,
        VulkanV12 = 101,
        VulkanV13 = 102,
        Semihosting = 103,
        AVX10_1 = 104,
        X86APX = 105,
        Simulator = 106,
        FeatureEnd = 107
    };

    OS os = OSUnknown;
    Arch arch = ArchUnknown;
    int bits = 0;
    // The CPU to tune for ("tune_znver4" in a target string), values as
    // upstream's. Parsed and printed; ahead-of-time code is scheduled for
    // it (the features alone decide which instructions are used).
    enum Processor {
        ProcessorGeneric = 0,
        K8,
        K8_SSE3,
        AMDFam10,
        BtVer1,
        BdVer1,
        BdVer2,
        BdVer3,
        BdVer4,
        BtVer2,
        ZnVer1,
        ZnVer2,
        ZnVer3,
        ZnVer4,
        ZnVer5,
    } processor_tune = ProcessorGeneric;

    Target() = default;
    Target(OS o, Arch a, int b, const std::vector<Feature> &initial_features = {});
    Target(OS o, Arch a, int b, Processor pt, const std::vector<Feature> &initial_features = {});
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
    // Whether code for the target (or for `device` of it) can use values of
    // type t: GPU APIs lack some (Metal, D3D12 and WebGPU have no 64-bit
    // types, OpenCL's doubles need cl_doubles, Vulkan's small and wide types
    // need the vk_* features), as upstream's.
    bool supports_type(const Type &t) const;
    bool supports_type(const Type &t, DeviceAPI device) const;
    // Whether the target has the feature that `api` needs (Host and None:
    // always; Default_GPU: any GPU feature).
    bool supports_device_api(DeviceAPI api) const;
    // The GPU API the target's features name (Metal, OpenCL, CUDA,
    // D3D12Compute, Vulkan, WebGPU, in that order of preference), or None.
    DeviceAPI get_required_device_api() const;

    bool operator==(const Target &o) const {
        return os == o.os && arch == o.arch && bits == o.bits && processor_tune == o.processor_tune &&
               features == o.features;
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

    // Whether this compiler can generate code for the target: 64-bit x86 or
    // ARM Linux without GPU or Hexagon features (upstream: whichever LLVM
    // backends its build has).
    bool supported() const;

    const std::bitset<FeatureEnd> &get_features_bitset() const { return features; }

    // The target of a runtime that can serve code built for this target and
    // for `other` (as upstream's, TargetRuntimeCompatibility.cpp): same
    // arch, bits and os, and the same sanitizer/debug/ABI features, else
    // false and `result` unchanged; GPU APIs are united, instruction sets
    // intersected, and capability ladders (CUDA, Vulkan, ARMv8.x) lowered
    // to the lower of the two.
    bool get_runtime_compatible_target(const Target &other, Target &result);
    // The lowest capability named, as a number (cuda_capability_61 -> 61;
    // CUDA or Vulkan alone: 20 or 10; armv81a -> 81), or -1 without the API
    // (CUDA, Vulkan) or without any ARMv8.x feature.
    int get_cuda_capability_lower_bound() const;
    int get_vulkan_capability_lower_bound() const;
    int get_arm_v8_lower_bound() const;

private:
    std::bitset<FeatureEnd> features;
};

// The target's default device API for Default_GPU (Host when it has no GPU feature).
DeviceAPI get_default_device_api_for_target(const Target &t);
// The feature a target needs for `api` (HVX for Hexagon); FeatureEnd for
// None, Host, Default_GPU and HexagonDma.
Target::Feature target_feature_for_device_api(DeviceAPI api);
// Whether this machine can run t's device code: true only when t asks for
// no GPU API nor HVX, as this compiler has no device backend.
bool host_supports_target_device(const Target &t);

namespace Internal {
// The LLVM this compiler was built with, as major * 10 + minor (190 for 19.0).
int get_llvm_version();
} // namespace Internal

// The machine this process runs on, with the CPU features it has.
Target get_host_target();
// HL_TARGET, or the host if unset or empty.
Target get_target_from_environment();
// HL_JIT_TARGET (arch, bits and os must be the host's), or the host; plus JIT.
Target get_jit_target_from_environment();

} // namespace Halide

#endif
