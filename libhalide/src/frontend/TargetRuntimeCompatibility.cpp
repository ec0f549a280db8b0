// Target::get_runtime_compatible_target and the capability lower bounds it
// uses: which target a shared runtime must have to serve code built for two
// targets (upstream's rules; see Target.h).
#include <algorithm>
#include <utility>
#include <vector>

#include "Halide/Target.h"

namespace Halide {

namespace {

// A ladder of capability features, lowest first, with the number each
// stands for.
using Ladder = std::vector<std::pair<int, Target::Feature>>;

const Ladder &cuda_ladder() {
    static const Ladder l = {
        {30, Target::CUDACapability30}, {32, Target::CUDACapability32}, {35, Target::CUDACapability35},
        {50, Target::CUDACapability50}, {61, Target::CUDACapability61}, {70, Target::CUDACapability70},
        {75, Target::CUDACapability75}, {80, Target::CUDACapability80}, {86, Target::CUDACapability86},
    };
    return l;
}

const Ladder &vulkan_ladder() {
    static const Ladder l = {{10, Target::VulkanV10}, {12, Target::VulkanV12}, {13, Target::VulkanV13}};
    return l;
}

const Ladder &arm_v8_ladder() {
    static const Ladder l = {
        {80, Target::ARMv8a},  {81, Target::ARMv81a}, {82, Target::ARMv82a}, {83, Target::ARMv83a},
        {84, Target::ARMv84a}, {85, Target::ARMv85a}, {86, Target::ARMv86a}, {87, Target::ARMv87a},
        {88, Target::ARMv88a}, {89, Target::ARMv89a},
    };
    return l;
}

const Ladder &hvx_ladder() {
    static const Ladder l = {
        {62, Target::HVX_v62}, {65, Target::HVX_v65}, {66, Target::HVX_v66}, {68, Target::HVX_v68}};
    return l;
}

// The lowest rung `t` has, or `none`.
int lowest(const Target &t, const Ladder &ladder, int none) {
    for (const auto &[number, feature] : ladder) {
        if (t.has_feature(feature)) {
            return number;
        }
    }
    return none;
}

// Clears every rung above `bound` (-1, "not used", counts as above all).
void keep_up_to(Target &t, const Ladder &ladder, int a, int b) {
    const unsigned bound = std::min((unsigned)a, (unsigned)b);
    for (const auto &[number, feature] : ladder) {
        if ((unsigned)number > bound) {
            t.set_feature(feature, false);
        }
    }
}

// In the result if either target has them: GPU APIs, and the ladders, which
// are then cut down to the lower bound of the two.
const std::vector<Target::Feature> &union_features() {
    static const std::vector<Target::Feature> f = [] {
        std::vector<Target::Feature> v = {Target::CUDA,   Target::D3D12Compute, Target::Metal, Target::NoNEON,
                                          Target::OpenCL, Target::Vulkan,       Target::WebGPU};
        for (const Ladder *l : {&cuda_ladder(), &vulkan_ladder(), &arm_v8_ladder(), &hvx_ladder()}) {
            for (const auto &rung : *l) {
                v.push_back(rung.second);
            }
        }
        return v;
    }();
    return f;
}

// In the result if both targets have them: instruction sets.
const std::vector<Target::Feature> intersection_features = {
    Target::ARMv7s,
    Target::AVX,
    Target::AVX2,
    Target::AVXVNNI,
    Target::AVX512,
    Target::AVX512_Cannonlake,
    Target::AVX512_KNL,
    Target::AVX512_SapphireRapids,
    Target::AVX512_Skylake,
    Target::AVX512_Zen4,
    Target::AVX512_Zen5,
    Target::F16C,
    Target::FMA,
    Target::FMA4,
    Target::SSE41,
    Target::VSX,
};

// Both targets must agree on these (sanitizers, debug runtime, ABI).
const std::vector<Target::Feature> matching_features = {
    Target::ASAN,
    Target::Debug,
    Target::EnableBacktraces,
    Target::HexagonDma,
    Target::HVX,
    Target::MSAN,
    Target::SoftFloatABI,
    Target::TSAN,
    Target::WasmThreads,
    Target::SanitizerCoverage,
    Target::Simulator,
};

} // namespace

int Target::get_cuda_capability_lower_bound() const {
    return has_feature(CUDA) ? lowest(*this, cuda_ladder(), 20) : -1;
}

int Target::get_vulkan_capability_lower_bound() const {
    return has_feature(Vulkan) ? lowest(*this, vulkan_ladder(), 10) : -1;
}

int Target::get_arm_v8_lower_bound() const {
    return lowest(*this, arm_v8_ladder(), -1);
}

bool Target::get_runtime_compatible_target(const Target &other, Target &result) {
    if (arch != other.arch || bits != other.bits || os != other.os) {
        return false;
    }
    for (Feature f : matching_features) {
        if (has_feature(f) != other.has_feature(f)) {
            return false;
        }
    }
    Target out(os, arch, bits, processor_tune);
    for (Feature f : union_features()) {
        out.set_feature(f, has_feature(f) || other.has_feature(f));
    }
    for (Feature f : matching_features) {
        out.set_feature(f, has_feature(f));
    }
    for (Feature f : intersection_features) {
        out.set_feature(f, has_feature(f) && other.has_feature(f));
    }
    keep_up_to(out, cuda_ladder(), get_cuda_capability_lower_bound(), other.get_cuda_capability_lower_bound());
    keep_up_to(out, vulkan_ladder(), get_vulkan_capability_lower_bound(), other.get_vulkan_capability_lower_bound());
    keep_up_to(out, arm_v8_ladder(), get_arm_v8_lower_bound(), other.get_arm_v8_lower_bound());
    keep_up_to(out, hvx_ladder(), lowest(*this, hvx_ladder(), -1), lowest(other, hvx_ladder(), -1));
    result = out;
    return true;
}

} // namespace Halide
