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
#include "HalideRuntime.h"

namespace Halide {

struct Target {
    enum OS { OSUnknown = 0, Linux, Windows, OSX, Android, IOS, QuRT, NoOS, Fuchsia, WebAssemblyRuntime };
    enum Arch { ArchUnknown = 0, X86, ARM, Hexagon, POWERPC, WebAssembly, RISCV };

    // The numbers are upstream 21's halide_target_feature_t (HalideRuntime.h),
    // as upstream's Target::Feature: the bits of halide_can_use_target_features.
    // Halide 14's target strings also name features upstream 21 dropped:
    // they come after halide_target_feature_end.
    enum Feature {
        JIT = halide_target_feature_jit,
        Debug = halide_target_feature_debug,
        NoAsserts = halide_target_feature_no_asserts,
        NoBoundsQuery = halide_target_feature_no_bounds_query,
        SSE41 = halide_target_feature_sse41,
        AVX = halide_target_feature_avx,
        AVX2 = halide_target_feature_avx2,
        FMA = halide_target_feature_fma,
        FMA4 = halide_target_feature_fma4,
        F16C = halide_target_feature_f16c,
        ARMv7s = halide_target_feature_armv7s,
        NoNEON = halide_target_feature_no_neon,
        VSX = halide_target_feature_vsx,
        POWER_ARCH_2_07 = halide_target_feature_power_arch_2_07,
        CUDA = halide_target_feature_cuda,
        CUDACapability30 = halide_target_feature_cuda_capability30,
        CUDACapability32 = halide_target_feature_cuda_capability32,
        CUDACapability35 = halide_target_feature_cuda_capability35,
        CUDACapability50 = halide_target_feature_cuda_capability50,
        CUDACapability61 = halide_target_feature_cuda_capability61,
        CUDACapability70 = halide_target_feature_cuda_capability70,
        CUDACapability75 = halide_target_feature_cuda_capability75,
        CUDACapability80 = halide_target_feature_cuda_capability80,
        CUDACapability86 = halide_target_feature_cuda_capability86,
        OpenCL = halide_target_feature_opencl,
        CLDoubles = halide_target_feature_cl_doubles,
        CLAtomics64 = halide_target_feature_cl_atomic64,
        UserContext = halide_target_feature_user_context,
        Profile = halide_target_feature_profile,
        NoRuntime = halide_target_feature_no_runtime,
        Metal = halide_target_feature_metal,
        CPlusPlusMangling = halide_target_feature_c_plus_plus_mangling,
        LargeBuffers = halide_target_feature_large_buffers,
        HVX_128 = halide_target_feature_hvx_128,
        HVX = HVX_128,
        HVX_v62 = halide_target_feature_hvx_v62,
        FuzzFloatStores = halide_target_feature_fuzz_float_stores,
        SoftFloatABI = halide_target_feature_soft_float_abi,
        MSAN = halide_target_feature_msan,
        AVX512 = halide_target_feature_avx512,
        AVX512_KNL = halide_target_feature_avx512_knl,
        AVX512_Skylake = halide_target_feature_avx512_skylake,
        AVX512_Cannonlake = halide_target_feature_avx512_cannonlake,
        AVX512_SapphireRapids = halide_target_feature_avx512_sapphirerapids,
        TraceLoads = halide_target_feature_trace_loads,
        TraceStores = halide_target_feature_trace_stores,
        TraceRealizations = halide_target_feature_trace_realizations,
        TracePipeline = halide_target_feature_trace_pipeline,
        HVX_v65 = halide_target_feature_hvx_v65,
        HVX_v66 = halide_target_feature_hvx_v66,
        CLHalf = halide_target_feature_cl_half,
        StrictFloat = halide_target_feature_strict_float,
        TSAN = halide_target_feature_tsan,
        ASAN = halide_target_feature_asan,
        D3D12Compute = halide_target_feature_d3d12compute,
        CheckUnsafePromises = halide_target_feature_check_unsafe_promises,
        HexagonDma = halide_target_feature_hexagon_dma,
        EmbedBitcode = halide_target_feature_embed_bitcode,
        EnableLLVMLoopOpt = halide_target_feature_enable_llvm_loop_opt,
        WasmSimd128 = halide_target_feature_wasm_simd128,
        WasmThreads = halide_target_feature_wasm_threads,
        WasmBulkMemory = halide_target_feature_wasm_bulk_memory,
        SVE = halide_target_feature_sve,
        SVE2 = halide_target_feature_sve2,
        EGL = halide_target_feature_egl,
        ARMDotProd = halide_target_feature_arm_dot_prod,
        ARMFp16 = halide_target_feature_arm_fp16,
        LLVMLargeCodeModel = halide_llvm_large_code_model,
        RVV = halide_target_feature_rvv,
        ARMv81a = halide_target_feature_armv81a,
        SanitizerCoverage = halide_target_feature_sanitizer_coverage,
        ProfileByTimer = halide_target_feature_profile_by_timer,
        EnableBacktraces = halide_target_feature_enable_backtraces,
        AVXVNNI = halide_target_feature_avxvnni,
        HVX_v68 = halide_target_feature_hvx_v68,
        AVX512_Zen4 = halide_target_feature_avx512_zen4,
        AVX512_Zen5 = halide_target_feature_avx512_zen5,
        WasmMvpOnly = halide_target_feature_wasm_mvponly,
        WebGPU = halide_target_feature_webgpu,
        ARMv8a = halide_target_feature_armv8a,
        ARMv82a = halide_target_feature_armv82a,
        ARMv83a = halide_target_feature_armv83a,
        ARMv84a = halide_target_feature_armv84a,
        ARMv85a = halide_target_feature_armv85a,
        ARMv86a = halide_target_feature_armv86a,
        ARMv87a = halide_target_feature_armv87a,
        ARMv88a = halide_target_feature_armv88a,
        ARMv89a = halide_target_feature_armv89a,
        SPIRV = halide_target_feature_spirv,
        Vulkan = halide_target_feature_vulkan,
        VulkanInt8 = halide_target_feature_vulkan_int8,
        VulkanInt16 = halide_target_feature_vulkan_int16,
        VulkanInt64 = halide_target_feature_vulkan_int64,
        VulkanFloat16 = halide_target_feature_vulkan_float16,
        VulkanFloat64 = halide_target_feature_vulkan_float64,
        VulkanV10 = halide_target_feature_vulkan_version10,
        VulkanV12 = halide_target_feature_vulkan_version12,
        VulkanV13 = halide_target_feature_vulkan_version13,
        Semihosting = halide_target_feature_semihosting,
        AVX10_1 = halide_target_feature_avx10_1,
        X86APX = halide_target_feature_x86_apx,
        Simulator = halide_target_feature_simulator,
        // Halide 14 only (upstream 21 refuses their names).
        OpenGLCompute = halide_target_feature_end + 0,
        Matlab = halide_target_feature_end + 1,
        HVX_shared_object = halide_target_feature_end + 2,
        DisableLLVMLoopOpt = halide_target_feature_end + 3,
        WasmSignExt = halide_target_feature_end + 4,
        WasmSatFloatToInt = halide_target_feature_end + 5,
        FeatureEnd = halide_target_feature_end + 6
    };

    OS os = OSUnknown;
    Arch arch = ArchUnknown;
    int bits = 0;
    // The width of a vector register in bits, for targets where it can be
    // chosen ("vector_bits_512" in a target string); 0: not fixed. As
    // upstream 21, x86 ignores it.
    int vector_bits = 0;
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
    Target(OS o, Arch a, int b, Processor pt, const std::vector<Feature> &initial_features = {}, int vb = 0);
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
    // The runtime's numbers are Feature's (HalideRuntime.h).
    bool has_feature(halide_target_feature_t f) const { return has_feature((Feature)f); }
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
