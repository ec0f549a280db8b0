// Target: parsing and printing target strings, host detection, and the
// implied-feature table. See ABI.md §6 for the grammar.
#include <algorithm>
#include <cstdlib>
#include <sstream>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "Halide/Error.h"
#include "Halide/Target.h"
#include "codegen/LLVMTarget.h"

namespace Halide {

namespace {

struct OSName {
    Target::OS value;
    const char *name;
};
struct ArchName {
    Target::Arch value;
    const char *name;
};
struct FeatureName {
    Target::Feature value;
    const char *name;
};

const OSName os_names[] = {
    {Target::OSUnknown, "os_unknown"},
    {Target::Linux, "linux"},
    {Target::Windows, "windows"},
    {Target::OSX, "osx"},
    {Target::Android, "android"},
    {Target::IOS, "ios"},
    {Target::QuRT, "qurt"},
    {Target::NoOS, "noos"},
    {Target::Fuchsia, "fuchsia"},
    {Target::WebAssemblyRuntime, "wasmrt"},
};

const ArchName arch_names[] = {
    {Target::ArchUnknown, "arch_unknown"},
    {Target::X86, "x86"},
    {Target::ARM, "arm"},
    {Target::Hexagon, "hexagon"},
    {Target::POWERPC, "powerpc"},
    {Target::WebAssembly, "wasm"},
    {Target::RISCV, "riscv"},
};

struct ProcessorName {
    Target::Processor value;
    const char *name;
};

const ProcessorName processor_names[] = {
    {Target::ProcessorGeneric, "tune_generic"},
    {Target::K8, "tune_k8"},
    {Target::K8_SSE3, "tune_k8_sse3"},
    {Target::AMDFam10, "tune_amdfam10"},
    {Target::BtVer1, "tune_btver1"},
    {Target::BdVer1, "tune_bdver1"},
    {Target::BdVer2, "tune_bdver2"},
    {Target::BdVer3, "tune_bdver3"},
    {Target::BdVer4, "tune_bdver4"},
    {Target::BtVer2, "tune_btver2"},
    {Target::ZnVer1, "tune_znver1"},
    {Target::ZnVer2, "tune_znver2"},
    {Target::ZnVer3, "tune_znver3"},
    {Target::ZnVer4, "tune_znver4"},
    {Target::ZnVer5, "tune_znver5"},
};

// One name per feature, used both ways. Aliases accepted only when parsing
// are in feature_aliases below.
const FeatureName feature_names[] = {
    {Target::JIT, "jit"},
    {Target::Debug, "debug"},
    {Target::NoAsserts, "no_asserts"},
    {Target::NoBoundsQuery, "no_bounds_query"},
    {Target::SSE41, "sse41"},
    {Target::AVX, "avx"},
    {Target::AVX2, "avx2"},
    {Target::FMA, "fma"},
    {Target::FMA4, "fma4"},
    {Target::F16C, "f16c"},
    {Target::ARMv7s, "armv7s"},
    {Target::NoNEON, "no_neon"},
    {Target::VSX, "vsx"},
    {Target::POWER_ARCH_2_07, "power_arch_2_07"},
    {Target::CUDA, "cuda"},
    {Target::CUDACapability30, "cuda_capability_30"},
    {Target::CUDACapability32, "cuda_capability_32"},
    {Target::CUDACapability35, "cuda_capability_35"},
    {Target::CUDACapability50, "cuda_capability_50"},
    {Target::CUDACapability61, "cuda_capability_61"},
    {Target::CUDACapability70, "cuda_capability_70"},
    {Target::CUDACapability75, "cuda_capability_75"},
    {Target::CUDACapability80, "cuda_capability_80"},
    {Target::CUDACapability86, "cuda_capability_86"},
    {Target::OpenCL, "opencl"},
    {Target::CLDoubles, "cl_doubles"},
    {Target::CLAtomics64, "cl_atomics64"},
    {Target::OpenGLCompute, "openglcompute"},
    {Target::UserContext, "user_context"},
    {Target::Matlab, "matlab"},
    {Target::Profile, "profile"},
    {Target::NoRuntime, "no_runtime"},
    {Target::Metal, "metal"},
    {Target::CPlusPlusMangling, "c_plus_plus_name_mangling"},
    {Target::LargeBuffers, "large_buffers"},
    {Target::HVX_128, "hvx_128"},
    {Target::HVX_v62, "hvx_v62"},
    {Target::FuzzFloatStores, "fuzz_float_stores"},
    {Target::SoftFloatABI, "soft_float_abi"},
    {Target::MSAN, "msan"},
    {Target::AVX512, "avx512"},
    {Target::AVX512_KNL, "avx512_knl"},
    {Target::AVX512_Skylake, "avx512_skylake"},
    {Target::AVX512_Cannonlake, "avx512_cannonlake"},
    {Target::AVX512_SapphireRapids, "avx512_sapphirerapids"},
    {Target::HVX_shared_object, "hvx_shared_object"},
    {Target::TraceLoads, "trace_loads"},
    {Target::TraceStores, "trace_stores"},
    {Target::TraceRealizations, "trace_realizations"},
    {Target::TracePipeline, "trace_pipeline"},
    {Target::HVX_v65, "hvx_v65"},
    {Target::HVX_v66, "hvx_v66"},
    {Target::CLHalf, "cl_half"},
    {Target::StrictFloat, "strict_float"},
    {Target::TSAN, "tsan"},
    {Target::ASAN, "asan"},
    {Target::D3D12Compute, "d3d12compute"},
    {Target::CheckUnsafePromises, "check_unsafe_promises"},
    {Target::HexagonDma, "hexagon_dma"},
    {Target::EmbedBitcode, "embed_bitcode"},
    {Target::EnableLLVMLoopOpt, "enable_llvm_loop_opt"},
    {Target::DisableLLVMLoopOpt, "disable_llvm_loop_opt"},
    {Target::WasmSimd128, "wasm_simd128"},
    {Target::WasmSignExt, "wasm_signext"},
    {Target::WasmSatFloatToInt, "wasm_sat_float_to_int"},
    {Target::WasmThreads, "wasm_threads"},
    {Target::WasmBulkMemory, "wasm_bulk_memory"},
    {Target::SVE, "sve"},
    {Target::SVE2, "sve2"},
    {Target::EGL, "egl"},
    {Target::ARMDotProd, "arm_dot_prod"},
    {Target::ARMFp16, "arm_fp16"},
    {Target::LLVMLargeCodeModel, "llvm_large_code_model"},
    {Target::RVV, "rvv"},
    {Target::ARMv81a, "armv81a"},
    {Target::SanitizerCoverage, "sanitizer_coverage"},
    {Target::ProfileByTimer, "profile_by_timer"},
    {Target::EnableBacktraces, "enable_backtraces"},
    {Target::AVXVNNI, "avxvnni"},
    {Target::HVX_v68, "hvx_v68"},
    {Target::AVX512_Zen4, "avx512_zen4"},
    {Target::AVX512_Zen5, "avx512_zen5"},
    {Target::WasmMvpOnly, "wasm_mvponly"},
    {Target::WebGPU, "webgpu"},
    {Target::ARMv8a, "armv8a"},
    {Target::ARMv82a, "armv82a"},
    {Target::ARMv83a, "armv83a"},
    {Target::ARMv84a, "armv84a"},
    {Target::ARMv85a, "armv85a"},
    {Target::ARMv86a, "armv86a"},
    {Target::ARMv87a, "armv87a"},
    {Target::ARMv88a, "armv88a"},
    {Target::ARMv89a, "armv89a"},
    {Target::SPIRV, "spirv"},
    {Target::Vulkan, "vulkan"},
    {Target::VulkanInt8, "vk_int8"},
    {Target::VulkanInt16, "vk_int16"},
    {Target::VulkanInt64, "vk_int64"},
    {Target::VulkanFloat16, "vk_float16"},
    {Target::VulkanFloat64, "vk_float64"},
    {Target::VulkanV10, "vk_v10"},
    {Target::VulkanV12, "vk_v12"},
    {Target::VulkanV13, "vk_v13"},
    {Target::Semihosting, "semihosting"},
    {Target::AVX10_1, "avx10_1"},
    {Target::X86APX, "x86apx"},
    {Target::Simulator, "simulator"},
};
static_assert(sizeof(feature_names) / sizeof(feature_names[0]) == Target::FeatureEnd,
              "every feature needs exactly one name");

const FeatureName feature_aliases[] = {
    {Target::HVX_128, "hvx"},
};

template <typename Row, size_t N> std::string join_names(const Row (&rows)[N]) {
    std::vector<std::string> names;
    for (const Row &r : rows) {
        names.push_back(r.name);
    }
    std::sort(names.begin(), names.end());
    std::string out;
    for (const std::string &n : names) {
        out += (out.empty() ? "" : ", ") + n;
    }
    return out;
}

std::string valid_tokens_message() {
    std::vector<std::string> features;
    for (const FeatureName &f : feature_names) {
        features.push_back(f.name);
    }
    for (const FeatureName &f : feature_aliases) {
        features.push_back(f.name);
    }
    features.push_back("trace_all");
    std::sort(features.begin(), features.end());
    std::string fs;
    for (const std::string &n : features) {
        fs += (fs.empty() ? "" : ", ") + n;
    }
    return "Expected \"host[-feature...]\" or arch, bits and os (each exactly once, in any order) plus features, "
           "separated by '-'.\n  arch: " +
           join_names(arch_names) + "\n  bits: 32, 64 (0 only with arch_unknown)\n  os: " + join_names(os_names) +
           "\n  features: " + fs;
}

bool lookup_os(const std::string &tok, Target::OS &out) {
    for (const OSName &o : os_names) {
        if (tok == o.name) {
            out = o.value;
            return true;
        }
    }
    return false;
}

bool lookup_arch(const std::string &tok, Target::Arch &out) {
    for (const ArchName &a : arch_names) {
        if (tok == a.name) {
            out = a.value;
            return true;
        }
    }
    return false;
}

bool lookup_processor(const std::string &tok, Target::Processor &out) {
    for (const ProcessorName &p : processor_names) {
        if (tok == p.name) {
            out = p.value;
            return true;
        }
    }
    return false;
}

// "vector_bits_N", N decimal digits (leading zeros too, as upstream 21's;
// "vector_bits_" alone, on which upstream's std::stoi throws, is invalid).
bool lookup_vector_bits(const std::string &tok, int &out) {
    const std::string prefix = "vector_bits_";
    if (tok.compare(0, prefix.size(), prefix) != 0 || tok.size() == prefix.size() || tok.size() > prefix.size() + 9) {
        return false;
    }
    int n = 0;
    for (size_t i = prefix.size(); i < tok.size(); i++) {
        if (tok[i] < '0' || tok[i] > '9') {
            return false;
        }
        n = n * 10 + (tok[i] - '0');
    }
    out = n;
    return true;
}

bool lookup_bits(const std::string &tok, int &out) {
    if (tok == "0" || tok == "32" || tok == "64") {
        out = std::atoi(tok.c_str());
        return true;
    }
    return false;
}

// Parses `s` into `t`. On failure returns false and sets `error`.
bool parse_target_string(const std::string &s, Target &t, std::string &error) {
    if (s.empty()) {
        t = get_host_target();
        return true;
    }
    std::vector<std::string> tokens;
    size_t start = 0;
    while (true) {
        size_t dash = s.find('-', start);
        tokens.push_back(s.substr(start, dash == std::string::npos ? std::string::npos : dash - start));
        if (dash == std::string::npos) {
            break;
        }
        start = dash + 1;
    }

    Target result;
    bool is_host = false, arch_seen = false, bits_seen = false, os_seen = false, tune_seen = false;
    auto fail = [&](const std::string &why) {
        error = "Invalid target string \"" + s + "\": " + why + "\n" + valid_tokens_message();
        return false;
    };
    for (size_t i = 0; i < tokens.size(); i++) {
        const std::string &tok = tokens[i];
        Target::OS os = Target::OSUnknown;
        Target::Arch arch = Target::ArchUnknown;
        int bits = 0;
        Target::Feature f = Target::FeatureEnd;
        Target::Processor tune = Target::ProcessorGeneric;
        int vector_bits = 0;
        if (tok == "host") {
            if (i != 0) {
                return fail("\"host\" may only be the first token");
            }
            result = get_host_target();
            is_host = true;
        } else if (lookup_arch(tok, arch)) {
            if (is_host) {
                return fail("arch token \"" + tok + "\" after \"host\"");
            }
            if (arch_seen) {
                return fail("arch given twice (\"" + tok + "\")");
            }
            result.arch = arch;
            arch_seen = true;
        } else if (lookup_bits(tok, bits)) {
            if (is_host) {
                return fail("bits token \"" + tok + "\" after \"host\"");
            }
            if (bits_seen) {
                return fail("bits given twice (\"" + tok + "\")");
            }
            result.bits = bits;
            bits_seen = true;
        } else if (lookup_os(tok, os)) {
            if (is_host) {
                return fail("os token \"" + tok + "\" after \"host\"");
            }
            if (os_seen) {
                return fail("os given twice (\"" + tok + "\")");
            }
            result.os = os;
            os_seen = true;
        } else if (lookup_processor(tok, tune)) {
            if (tune_seen) {
                return fail("processor tune given twice (\"" + tok + "\")");
            }
            result.processor_tune = tune;
            tune_seen = true;
        } else if (lookup_vector_bits(tok, vector_bits)) {
            result.vector_bits = vector_bits; // the last one wins, as upstream's
        } else if (tok == "trace_all") {
            result.set_features({Target::TraceLoads, Target::TraceStores, Target::TraceRealizations});
        } else if ((f = Target::feature_from_name(tok)) != Target::FeatureEnd) {
            result.set_feature(f);
        } else {
            return fail("unknown token \"" + tok + "\"");
        }
    }
    if (!is_host) {
        if (arch_seen && !bits_seen) {
            return fail("arch given without bits");
        }
        if (!arch_seen || !bits_seen || !os_seen) {
            return fail(std::string("missing ") + (!arch_seen ? "arch" : !bits_seen ? "bits" : "os"));
        }
        if (result.bits == 0 && result.arch != Target::ArchUnknown) {
            return fail("bits 0 is only valid with arch_unknown");
        }
    }
    t = result; // the features named only, as upstream's (codegen adds the implied ones)
    return true;
}

} // namespace

Target::Target(OS o, Arch a, int b, const std::vector<Feature> &initial_features) : os(o), arch(a), bits(b) {
    set_features(initial_features);
}

Target::Target(OS o, Arch a, int b, Processor pt, const std::vector<Feature> &initial_features, int vb)
    : Target(o, a, b, initial_features) {
    processor_tune = pt;
    vector_bits = vb;
}

bool Target::supported() const {
    bool gpu_or_dsp = has_gpu_feature() || features_any_of({HVX_128, HVX_v62, HVX_v65, HVX_v66, HVX_v68});
    return os == Linux && bits == 64 && (arch == X86 || arch == ARM) && !gpu_or_dsp;
}

Target::Target(const std::string &s) {
    std::string error;
    if (!parse_target_string(s, *this, error)) {
        user_error << error;
    }
}

Target::Target(const char *s) : Target(std::string(s ? s : "")) {}

bool Target::validate_target_string(const std::string &s) {
    Target t;
    std::string error;
    // As upstream's: a string that leaves the arch, bits or OS unknown
    // ("arch_unknown-0-os_unknown", what Target() prints) parses but is
    // not a valid target.
    return parse_target_string(s, t, error) && !t.has_unknowns();
}

std::string Target::feature_to_name(Feature f) {
    for (const FeatureName &n : feature_names) {
        if (n.value == f) {
            return n.name;
        }
    }
    internal_error << "no name for target feature " << (int)f;
}

Target::Feature Target::feature_from_name(const std::string &name) {
    for (const FeatureName &n : feature_names) {
        if (name == n.name) {
            return n.value;
        }
    }
    for (const FeatureName &n : feature_aliases) {
        if (name == n.name) {
            return n.value;
        }
    }
    return FeatureEnd;
}

void Target::set_feature(Feature f, bool value) {
    if (f == FeatureEnd) {
        return;
    }
    internal_assert((int)f >= 0 && (int)f < (int)FeatureEnd) << "bad target feature " << (int)f;
    features.set(f, value);
}

void Target::set_features(const std::vector<Feature> &fs, bool value) {
    for (Feature f : fs) {
        set_feature(f, value);
    }
}

bool Target::has_feature(Feature f) const {
    if (f == FeatureEnd) {
        return true; // every target has the sentinel, as in the runtime
    }
    internal_assert((int)f >= 0 && (int)f < (int)FeatureEnd) << "bad target feature " << (int)f;
    return features.test(f);
}

bool Target::features_any_of(const std::vector<Feature> &fs) const {
    for (Feature f : fs) {
        if (has_feature(f)) {
            return true;
        }
    }
    return false;
}

bool Target::features_all_of(const std::vector<Feature> &fs) const {
    for (Feature f : fs) {
        if (!has_feature(f)) {
            return false;
        }
    }
    return true;
}

Target Target::with_feature(Feature f) const {
    Target t = *this;
    t.set_feature(f, true);
    return t;
}

Target Target::without_feature(Feature f) const {
    Target t = *this;
    t.set_feature(f, false);
    return t;
}

bool Target::has_gpu_feature() const {
    return features_any_of({CUDA, OpenCL, Metal, D3D12Compute, OpenGLCompute, Vulkan, WebGPU});
}

DeviceAPI Target::get_required_device_api() const {
    const std::pair<Feature, DeviceAPI> order[] = {
        {Metal, DeviceAPI::Metal},   {OpenCL, DeviceAPI::OpenCL},
        {CUDA, DeviceAPI::CUDA},     {D3D12Compute, DeviceAPI::D3D12Compute},
        {Vulkan, DeviceAPI::Vulkan}, {WebGPU, DeviceAPI::WebGPU},
    };
    for (const auto &[f, api] : order) {
        if (has_feature(f)) {
            return api;
        }
    }
    return DeviceAPI::None;
}

DeviceAPI get_default_device_api_for_target(const Target &t) {
    DeviceAPI d = t.get_required_device_api();
    return d == DeviceAPI::None ? DeviceAPI::Host : d;
}

Target::Feature target_feature_for_device_api(DeviceAPI api) {
    switch (api) {
    case DeviceAPI::CUDA: return Target::CUDA;
    case DeviceAPI::OpenCL: return Target::OpenCL;
    case DeviceAPI::Metal: return Target::Metal;
    case DeviceAPI::Hexagon: return Target::HVX;
    case DeviceAPI::D3D12Compute: return Target::D3D12Compute;
    case DeviceAPI::Vulkan: return Target::Vulkan;
    case DeviceAPI::WebGPU: return Target::WebGPU;
    default: return Target::FeatureEnd;
    }
}

bool host_supports_target_device(const Target &t) {
    // No device backend: only a target without a GPU API or HVX runs here.
    return !t.has_gpu_feature() && !t.has_feature(Target::HVX);
}

bool Target::supports_device_api(DeviceAPI api) const {
    switch (api) {
    case DeviceAPI::None:
    case DeviceAPI::Host: return true;
    case DeviceAPI::Default_GPU: return has_gpu_feature();
    case DeviceAPI::CUDA: return has_feature(CUDA);
    case DeviceAPI::OpenCL: return has_feature(OpenCL);
    case DeviceAPI::Metal: return has_feature(Metal);
    case DeviceAPI::Hexagon: return has_feature(HVX) || arch == Hexagon;
    case DeviceAPI::HexagonDma: return has_feature(HexagonDma);
    case DeviceAPI::D3D12Compute: return has_feature(D3D12Compute);
    case DeviceAPI::Vulkan: return has_feature(Vulkan);
    case DeviceAPI::WebGPU: return has_feature(WebGPU);
    }
    return false;
}

bool Target::supports_type(const Type &t) const {
    if (t.bits() != 64) {
        return true;
    }
    if (features_any_of({Metal, D3D12Compute, WebGPU})) {
        return false;
    }
    if (t.is_float()) {
        return (!has_feature(OpenCL) || has_feature(CLDoubles)) && (!has_feature(Vulkan) || has_feature(VulkanFloat64));
    }
    return !has_feature(Vulkan) || has_feature(VulkanInt64);
}

bool Target::supports_type(const Type &t, DeviceAPI device) const {
    if (device == DeviceAPI::Default_GPU) {
        device = get_default_device_api_for_target(*this);
    }
    switch (device) {
    case DeviceAPI::Metal:
    case DeviceAPI::D3D12Compute:
    case DeviceAPI::WebGPU: return t.bits() < 64;
    case DeviceAPI::OpenCL: return !(t.is_float() && t.bits() == 64) || has_feature(CLDoubles);
    case DeviceAPI::Vulkan:
        if (!has_feature(Vulkan)) {
            return false;
        }
        if (t.is_float()) {
            return t.bits() == 16 ? has_feature(VulkanFloat16) : t.bits() == 64 ? has_feature(VulkanFloat64) : true;
        }
        switch (t.bits()) {
        case 8: return has_feature(VulkanInt8);
        case 16: return has_feature(VulkanInt16);
        case 64: return has_feature(VulkanInt64);
        default: return true;
        }
    default: return true;
    }
}

std::string Target::to_string() const {
    std::string out;
    for (const ArchName &a : arch_names) {
        if (a.value == arch) {
            out += a.name;
        }
    }
    out += "-" + std::to_string(bits) + "-";
    for (const OSName &o : os_names) {
        if (o.value == os) {
            out += o.name;
        }
    }
    for (const ProcessorName &p : processor_names) {
        if (p.value == processor_tune && processor_tune != ProcessorGeneric) {
            out += std::string("-") + p.name;
        }
    }
    // As upstream 21: the three are written trace_all only where they would
    // stand together in the sorted list, so not next to trace_pipeline.
    bool trace_all = features_all_of({TraceLoads, TraceStores, TraceRealizations}) && !has_feature(TracePipeline);
    std::vector<std::string> names;
    for (const FeatureName &n : feature_names) {
        if (trace_all && (n.value == TraceLoads || n.value == TraceStores || n.value == TraceRealizations)) {
            continue;
        }
        if (has_feature(n.value)) {
            names.push_back(n.name);
        }
    }
    if (trace_all) {
        names.push_back("trace_all");
    }
    std::sort(names.begin(), names.end());
    for (const std::string &n : names) {
        out += "-" + n;
    }
    if (vector_bits != 0) {
        out += "-vector_bits_" + std::to_string(vector_bits);
    }
    return out;
}

int Target::natural_vector_size(const Type &t) const {
    int vector_bytes = 16;
    if (arch == ARM && features_any_of({SVE, SVE2}) && vector_bits != 0) {
        vector_bytes = vector_bits / 8; // as upstream 21; x86 ignores vector_bits
    } else if (arch == X86) {
        // As upstream 21: floats use 64-byte vectors with any AVX-512,
        // integers only where AVX-512BW is (skylake and later, Zen 4/5);
        // AVX's 32-byte vectors are for floats, AVX2's for everything.
        const bool avx512bw =
            features_any_of({AVX512_Skylake, AVX512_Cannonlake, AVX512_SapphireRapids, AVX512_Zen4, AVX512_Zen5});
        const bool avx512 = avx512bw || features_any_of({AVX512, AVX512_KNL});
        if (t.is_float() ? avx512 : avx512bw) {
            vector_bytes = 64;
        } else if (avx512 || has_feature(AVX2) || (t.is_float() && has_feature(AVX))) {
            vector_bytes = 32;
        }
    }
    int element_bytes = std::max(1, t.bytes());
    return std::max(1, vector_bytes / element_bytes);
}

namespace {

#if defined(__x86_64__) || defined(__i386__)
// The AMD core family this processor belongs to, as upstream 21's host
// target names it (tune_znver3...): from CPUID's family and model numbers,
// per AMD's published family tables. Other vendors stay generic.
Target::Processor host_processor_tune() {
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    if (!__get_cpuid(0, &eax, &ebx, &ecx, &edx)) {
        return Target::ProcessorGeneric;
    }
    const bool amd = ebx == 0x68747541 && edx == 0x69746e65 && ecx == 0x444d4163; // "AuthenticAMD"
    if (!amd || !__get_cpuid(1, &eax, &ebx, &ecx, &edx)) {
        return Target::ProcessorGeneric;
    }
    const bool sse3 = ecx & 1;
    unsigned family = (eax >> 8) & 0xf, model = (eax >> 4) & 0xf;
    if (family == 0xf) {
        family += (eax >> 20) & 0xff;
        model |= ((eax >> 16) & 0xf) << 4;
    }
    auto in = [&](unsigned lo, unsigned hi) { return model >= lo && model <= hi; };
    switch (family) {
    case 0x0f: return sse3 ? Target::K8_SSE3 : Target::K8;
    case 0x10: return Target::AMDFam10;
    case 0x14: return Target::BtVer1;
    case 0x15:
        if (in(0x60, 0x7f)) {
            return Target::BdVer4;
        }
        if (in(0x30, 0x3f)) {
            return Target::BdVer3;
        }
        return model == 0x02 || in(0x10, 0x1f) ? Target::BdVer2 : Target::BdVer1;
    case 0x16: return Target::BtVer2;
    case 0x17: return model >= 0x30 ? Target::ZnVer2 : Target::ZnVer1;
    case 0x19: return in(0x10, 0x1f) || in(0x60, 0x7f) || in(0xa0, 0xaf) ? Target::ZnVer4 : Target::ZnVer3;
    case 0x1a: return Target::ZnVer5;
    default: return Target::ProcessorGeneric;
    }
}
#endif

// The machine does not change while the process runs: detected once (CPUID
// is a trap to the hypervisor in a VM, and realize() asks for the host).
Target detect_host_target() {
    Target t;
#if defined(__linux__)
    t.os = Target::Linux;
#elif defined(__APPLE__)
    t.os = Target::OSX;
#elif defined(_WIN32)
    t.os = Target::Windows;
#endif
#if defined(__x86_64__) || defined(__i386__)
    t.arch = Target::X86;
#elif defined(__aarch64__) || defined(__arm__)
    t.arch = Target::ARM;
#elif defined(__powerpc__)
    t.arch = Target::POWERPC;
#elif defined(__riscv)
    t.arch = Target::RISCV;
#endif
    t.bits = (int)sizeof(void *) * 8;

#if defined(__x86_64__) || defined(__i386__)
    __builtin_cpu_init();
    t.set_feature(Target::SSE41, __builtin_cpu_supports("sse4.1"));
    t.set_feature(Target::AVX, __builtin_cpu_supports("avx"));
    t.set_feature(Target::AVX2, __builtin_cpu_supports("avx2"));
    t.set_feature(Target::FMA, __builtin_cpu_supports("fma"));
    t.set_feature(Target::F16C, __builtin_cpu_supports("f16c"));
    bool avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512cd");
    bool skylake = avx512 && __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq") &&
                   __builtin_cpu_supports("avx512vl");
    t.set_feature(Target::AVX512, avx512);
    t.set_feature(Target::AVX512_Skylake, skylake);
    t.set_feature(Target::AVX512_Cannonlake,
                  skylake && __builtin_cpu_supports("avx512ifma") && __builtin_cpu_supports("avx512vbmi"));
    t.set_feature(Target::AVX512_KNL,
                  avx512 && __builtin_cpu_supports("avx512pf") && __builtin_cpu_supports("avx512er"));
    t.processor_tune = host_processor_tune();
    // As upstream 21 names them: avx512_zen4 on AMD's Zen 4 and later with
    // Zen 4's AVX-512 (Zen 5 adds avx512_zen5), avx512_sapphirerapids only
    // where AVX512-FP16 is too (code for it may use FP16, which Zen 4 and 5,
    // with BF16 and VNNI, lack), avxvnni wherever the CPU has it.
    const bool cannonlake = t.has_feature(Target::AVX512_Cannonlake);
    const bool vnni_bf16 = skylake && __builtin_cpu_supports("avx512bf16") && __builtin_cpu_supports("avx512vnni");
    const bool zen4 = cannonlake && vnni_bf16 && __builtin_cpu_supports("avx512vbmi2") &&
                      __builtin_cpu_supports("avx512bitalg") && __builtin_cpu_supports("avx512vpopcntdq") &&
                      (t.processor_tune == Target::ZnVer4 || t.processor_tune == Target::ZnVer5);
    t.set_feature(Target::AVXVNNI, __builtin_cpu_supports("avxvnni"));
    t.set_feature(Target::AVX512_Zen4, zen4);
    t.set_feature(Target::AVX512_Zen5, zen4 && t.processor_tune == Target::ZnVer5 &&
                                           __builtin_cpu_supports("avxvnni") &&
                                           __builtin_cpu_supports("avx512vp2intersect"));
    t.set_feature(Target::AVX512_SapphireRapids, vnni_bf16 && __builtin_cpu_supports("avx512fp16"));
#endif
    return Internal::with_implied_features(t);
}

} // namespace

Target get_host_target() {
    static const Target host = detect_host_target();
    return host;
}

Target get_target_from_environment() {
    const char *s = std::getenv("HL_TARGET");
    return Target(s ? std::string(s) : std::string());
}

Target get_jit_target_from_environment() {
    Target host = get_host_target();
    const char *s = std::getenv("HL_JIT_TARGET");
    if (!s || !*s) {
        return host.with_feature(Target::JIT);
    }
    Target t(s);
    user_assert(t.arch == host.arch && t.bits == host.bits && t.os == host.os)
        << "HL_JIT_TARGET=" << s << " must have the host's arch, bits and os (host is " << host.to_string() << ")";
    return t.with_feature(Target::JIT);
}

} // namespace Halide
