// See LLVMTarget.h. The CPU is a generic x86-64 microarchitecture level
// (v2/v3/v4) chosen from the features, plus the features themselves, so
// code never uses an instruction the target string did not name (naming a
// concrete CPU such as sapphirerapids would let LLVM use all of its
// extensions).
#include "codegen/LLVMTarget.h"

#include <vector>

#include "Halide/Error.h"

namespace Halide {
namespace Internal {

namespace {

// The vendor-OS-environment part of the triple, as the platform's own
// toolchains spell it (objects: ELF on Linux and Android, COFF on Windows,
// Mach-O on macOS and iOS).
std::string os_triple(const Target &t) {
    switch (t.os) {
    case Target::Linux: return "unknown-linux-gnu";
    case Target::Android: return "unknown-linux-android";
    case Target::Windows: return "pc-windows-msvc";
    case Target::OSX: return "apple-macosx11.0.0";
    case Target::IOS: return "apple-ios14.0.0";
    default: return "";
    }
}

// Implied features: a Target holds the features named (as upstream's);
// code generation, the metadata's target string and host detection add
// these. Each row reads "having <feature> implies having <implied>"; rows
// are applied until nothing changes, so the table is transitive:
//
//   avx                   -> sse41
//   avx2                  -> avx           (so also sse41)
//   avx512                -> avx2          (so also avx, sse41)
//   avx512_knl            -> avx512
//   avx512_skylake        -> avx512
//   avx512_cannonlake     -> avx512_skylake
//   avx512_sapphirerapids -> avx512_skylake
//   avx512_zen4           -> avx512_cannonlake
//   avx512_zen5           -> avx512_zen4
//
// Deliberately conservative, matching what a Halide 14 generator stores
// ("x86-64-linux-avx2-fma" -> "x86-64-linux-avx-avx2-fma-sse41"): fma,
// fma4 and f16c imply nothing and nothing implies them in the target string
// (llvm_target_for still enables fma and f16c for avx2 code, as upstream 21
// does), and sapphirerapids does not imply cannonlake (host detection tests
// the two independently).
struct Implication {
    Target::Feature feature, implied;
};
const Implication implications[] = {
    {Target::AVX, Target::SSE41},
    {Target::AVX2, Target::AVX},
    {Target::AVX512, Target::AVX2},
    {Target::AVX512_KNL, Target::AVX512},
    {Target::AVX512_Skylake, Target::AVX512},
    {Target::AVX512_Cannonlake, Target::AVX512_Skylake},
    {Target::AVX512_SapphireRapids, Target::AVX512_Skylake},
    {Target::AVX512_Zen4, Target::AVX512_Cannonlake},
    {Target::AVX512_Zen5, Target::AVX512_Zen4},
};

// 32-bit ARM, as upstream targets it: ARMv7 (ARMv7s with the feature, as
// Apple's A6 has it) with NEON unless no_neon. Linux uses the hard-float
// calling convention (gnueabihf), Android its soft-float one (androideabi).
void arm32(const Target &t, LLVMTargetSpec &spec, std::vector<std::string> &features) {
    const bool v7s = t.has_feature(Target::ARMv7s);
    std::string os = os_triple(t);
    if (t.os == Target::Linux) {
        os = "unknown-linux-gnueabihf";
    } else if (t.os == Target::Android) {
        os = "unknown-linux-androideabi";
    } else if (t.os == Target::IOS) {
        os = "apple-ios9.0.0"; // the last iOS for 32-bit devices is 10
    }
    spec.triple = (v7s ? "armv7s-" : "armv7-") + os;
    spec.cpu = v7s ? "swift" : "cortex-a9";
    features.push_back(t.has_feature(Target::NoNEON) ? "-neon" : "+neon");
}

// LLVM's processor names for upstream's tune_* values: the code keeps the
// target's instruction set and is only scheduled for that processor.
std::string llvm_tune_name(Target::Processor p) {
    switch (p) {
    case Target::K8: return "k8";
    case Target::K8_SSE3: return "k8-sse3";
    case Target::AMDFam10: return "amdfam10";
    case Target::BtVer1: return "btver1";
    case Target::BdVer1: return "bdver1";
    case Target::BdVer2: return "bdver2";
    case Target::BdVer3: return "bdver3";
    case Target::BdVer4: return "bdver4";
    case Target::BtVer2: return "btver2";
    case Target::ZnVer1: return "znver1";
    case Target::ZnVer2: return "znver2";
    case Target::ZnVer3: return "znver3";
    case Target::ZnVer4: return "znver4";
    case Target::ZnVer5: return "znver5";
    default: return "";
    }
}

} // namespace

Target with_implied_features(Target t) {
    bool changed = true;
    while (changed) {
        changed = false;
        for (const Implication &i : implications) {
            if (t.has_feature(i.feature) && !t.has_feature(i.implied)) {
                t.set_feature(i.implied);
                changed = true;
            }
        }
    }
    return t;
}

LLVMTargetSpec llvm_target_for(const Target &named) {
    const Target t = with_implied_features(named);
    user_assert(!(t.os == Target::Windows && t.arch == Target::ARM && t.bits == 32))
        << "Windows ARM targets must be 64-bit.";
    user_assert((t.bits == 64 || t.bits == 32) && (t.arch == Target::X86 || t.arch == Target::ARM) &&
                !os_triple(t).empty())
        << "Ahead-of-time compilation supports 32- and 64-bit x86 and ARM targets on linux, android, windows, osx "
           "and ios, not "
        << t.to_string();
    LLVMTargetSpec spec;
    std::vector<std::string> features;
    auto add_if = [&](Target::Feature f, std::initializer_list<const char *> llvm) {
        if (t.has_feature(f)) {
            features.insert(features.end(), llvm.begin(), llvm.end());
        }
    };
    if (t.arch == Target::X86) {
        spec.triple = (t.bits == 32 ? "i386-" : "x86_64-") + os_triple(t);
        add_if(Target::SSE41, {"+sse4.1", "+ssse3", "+sse3", "+popcnt"});
        add_if(Target::AVX, {"+avx"});
        // Every AVX2 processor has FMA and F16C, so code for an avx2 target
        // uses them as upstream's does, though the target string does not
        // name them (the implication table above stays Halide 14's).
        add_if(Target::AVX2, {"+avx2", "+fma", "+f16c"});
        if (!t.has_feature(Target::AVX2)) {
            add_if(Target::FMA, {"+fma"});
            add_if(Target::F16C, {"+f16c"});
        }
        add_if(Target::AVX512, {"+avx512f", "+avx512cd"});
        add_if(Target::AVX512_KNL, {"+avx512pf", "+avx512er"});
        add_if(Target::AVX512_Skylake, {"+avx512bw", "+avx512dq", "+avx512vl"});
        add_if(Target::AVX512_Cannonlake, {"+avx512ifma", "+avx512vbmi"});
        add_if(Target::AVX512_SapphireRapids, {"+avx512bf16", "+avx512vnni"});
        add_if(Target::AVX512_Zen4,
               {"+avx512bf16", "+avx512vnni", "+avx512vbmi2", "+avx512bitalg", "+avx512vpopcntdq"});
        add_if(Target::AVX512_Zen5, {"+avxvnni", "+avx512vp2intersect"});
        spec.tune = llvm_tune_name(t.processor_tune);
        if (t.has_feature(Target::AVX512_Skylake)) {
            spec.cpu = "x86-64-v4";
        } else if (t.has_feature(Target::AVX2)) {
            spec.cpu = "x86-64-v3";
        } else if (t.has_feature(Target::SSE41)) {
            spec.cpu = "x86-64-v2";
        } else {
            spec.cpu = "x86-64";
        }
    } else if (t.bits == 32) {
        arm32(t, spec, features);
    } else {
        spec.triple = (t.os == Target::OSX || t.os == Target::IOS ? "arm64-" : "aarch64-") + os_triple(t);
        spec.cpu = "generic";
        features.push_back("+neon");
        add_if(Target::ARMDotProd, {"+dotprod"});
        add_if(Target::ARMFp16, {"+fullfp16"});
    }
    for (size_t i = 0; i < features.size(); i++) {
        spec.features += (i ? "," : "") + features[i];
    }
    return spec;
}

} // namespace Internal
} // namespace Halide
