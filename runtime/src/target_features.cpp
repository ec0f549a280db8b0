// halide_can_use_target_features: called by multitarget kernels (ABI.md 5)
// to pick the variant this CPU can run. `features` is a bitset of
// halide_target_feature_t numbers, upstream 21's (bit k is
// features[k >> 6] >> (k & 63); Halide 14 numbered them otherwise); only the
// x86 instruction-set features are checked, the others (no_runtime,
// user_context, ...) say nothing about the CPU.
//
// HL_DISABLE_FEATURES=avx2,avx512_skylake (comma-separated feature names)
// makes features count as absent: a way to run, and test, the variants a
// weaker CPU would get.
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <initializer_list>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "HalideRuntime.h"

namespace {

struct Cpuid;

struct CpuFeature {
    int number; // halide_target_feature_t
    const char *name;
    bool (*present)(const Cpuid &);
};

// CPU features from cpuid (not __builtin_cpu_supports: its data lives in
// libgcc's static part, which kernels linked without gcc do not have).
struct Cpuid {
    unsigned leaf1_ecx = 0, leaf7_ebx = 0, leaf7_ecx = 0, leaf7_edx = 0, leaf7_1_eax = 0, ext_ecx = 0;
    unsigned long long xcr0 = 0;
    Cpuid() {
#if defined(__x86_64__) || defined(__i386__)
        unsigned a, b, c, d;
        if (__get_cpuid(1, &a, &b, &c, &d)) {
            leaf1_ecx = c;
        }
        if (__get_cpuid_count(7, 0, &a, &b, &c, &d)) {
            leaf7_ebx = b;
            leaf7_ecx = c;
            leaf7_edx = d;
        }
        if (__get_cpuid_count(7, 1, &a, &b, &c, &d)) {
            leaf7_1_eax = a;
        }
        if (__get_cpuid(0x80000001u, &a, &b, &c, &d)) {
            ext_ecx = c;
        }
        if (leaf1_ecx & (1u << 27)) { // OSXSAVE: the OS says which register state it saves
            unsigned lo, hi;
            __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
            xcr0 = ((unsigned long long)hi << 32) | lo;
        }
#endif
    }
};

bool has(const Cpuid &cpu, const char *what) {
    const bool ymm = (cpu.xcr0 & 0x6) == 0x6, zmm = ymm && (cpu.xcr0 & 0xe0) == 0xe0;
    struct Bit {
        const char *name;
        unsigned word;
        int bit;
        bool state;
    };
    const Bit bits[] = {
        {"sse4.1", cpu.leaf1_ecx, 19, true},
        {"avx", cpu.leaf1_ecx, 28, ymm},
        {"fma", cpu.leaf1_ecx, 12, ymm},
        {"f16c", cpu.leaf1_ecx, 29, ymm},
        {"fma4", cpu.ext_ecx, 16, ymm},
        {"avx2", cpu.leaf7_ebx, 5, ymm},
        {"avx512f", cpu.leaf7_ebx, 16, zmm},
        {"avx512dq", cpu.leaf7_ebx, 17, zmm},
        {"avx512ifma", cpu.leaf7_ebx, 21, zmm},
        {"avx512pf", cpu.leaf7_ebx, 26, zmm},
        {"avx512er", cpu.leaf7_ebx, 27, zmm},
        {"avx512cd", cpu.leaf7_ebx, 28, zmm},
        {"avx512bw", cpu.leaf7_ebx, 30, zmm},
        {"avx512vl", cpu.leaf7_ebx, 31, zmm},
        {"avx512vbmi", cpu.leaf7_ecx, 1, zmm},
        {"avx512vnni", cpu.leaf7_ecx, 11, zmm},
        {"avx512bf16", cpu.leaf7_1_eax, 5, zmm},
        {"avxvnni", cpu.leaf7_1_eax, 4, ymm},
        {"avx512vbmi2", cpu.leaf7_ecx, 6, zmm},
        {"avx512bitalg", cpu.leaf7_ecx, 12, zmm},
        {"avx512vpopcntdq", cpu.leaf7_ecx, 14, zmm},
        {"avx512vp2intersect", cpu.leaf7_edx, 8, zmm},
        {"avx512fp16", cpu.leaf7_edx, 23, zmm},
    };
    for (const Bit &b : bits) {
        if (!std::strcmp(b.name, what)) {
            return b.state && ((b.word >> b.bit) & 1);
        }
    }
    return false;
}

bool all(const Cpuid &cpu, std::initializer_list<const char *> what) {
    for (const char *w : what) {
        if (!has(cpu, w)) {
            return false;
        }
    }
    return true;
}

// Each feature's instructions, by feature bits whatever the vendor. Upstream
// 21 compiles avx512_sapphirerapids code for LLVM's sapphirerapids, which may
// use AVX512-FP16 and AVX-VNNI: both are required, so a Zen 4 or 5 (BF16 and
// VNNI, no FP16) does not take such a kernel and die on its first FP16
// instruction. The compiler's host detection (Target.cpp) names features as
// upstream 21 does, by vendor and family too, so it may name fewer.
const CpuFeature kFeatures[] = {
    {halide_target_feature_sse41, "sse41", [](const Cpuid &cpu) { return has(cpu, "sse4.1"); }},
    {halide_target_feature_avx, "avx", [](const Cpuid &cpu) { return has(cpu, "avx"); }},
    {halide_target_feature_avx2, "avx2", [](const Cpuid &cpu) { return has(cpu, "avx2"); }},
    {halide_target_feature_fma, "fma", [](const Cpuid &cpu) { return has(cpu, "fma"); }},
    {halide_target_feature_fma4, "fma4", [](const Cpuid &cpu) { return has(cpu, "fma4"); }},
    {halide_target_feature_f16c, "f16c", [](const Cpuid &cpu) { return has(cpu, "f16c"); }},
    {halide_target_feature_avx512, "avx512",
     [](const Cpuid &cpu) {
         return all(cpu, {"avx512f", "avx512cd"});
     }},
    {halide_target_feature_avx512_knl, "avx512_knl",
     [](const Cpuid &cpu) {
         return all(cpu, {"avx512f", "avx512cd", "avx512pf", "avx512er"});
     }},
    {halide_target_feature_avx512_skylake, "avx512_skylake",
     [](const Cpuid &cpu) {
         return all(cpu, {"avx512f", "avx512cd", "avx512bw", "avx512dq", "avx512vl"});
     }},
    {halide_target_feature_avx512_cannonlake, "avx512_cannonlake",
     [](const Cpuid &cpu) {
         return all(cpu, {"avx512f", "avx512cd", "avx512bw", "avx512dq", "avx512vl", "avx512ifma", "avx512vbmi"});
     }},
    {halide_target_feature_avx512_sapphirerapids, "avx512_sapphirerapids",
     [](const Cpuid &cpu) {
         return all(cpu, {"avx512f", "avx512cd", "avx512bw", "avx512dq", "avx512vl", "avx512bf16", "avx512vnni",
                          "avx512fp16", "avxvnni"});
     }},
    {halide_target_feature_avxvnni, "avxvnni", [](const Cpuid &cpu) { return has(cpu, "avxvnni"); }},
    // Zen 4's AVX-512: Cannon Lake's plus VNNI, BF16, VBMI2, BITALG and
    // VPOPCNTDQ. Zen 5 adds AVX-VNNI and VP2INTERSECT. Checked by feature
    // bits, so another vendor's CPU with those instructions runs the code.
    {halide_target_feature_avx512_zen4, "avx512_zen4",
     [](const Cpuid &cpu) {
         return all(cpu, {"avx512f", "avx512cd", "avx512bw", "avx512dq", "avx512vl", "avx512ifma", "avx512vbmi",
                          "avx512vnni", "avx512bf16", "avx512vbmi2", "avx512bitalg", "avx512vpopcntdq"});
     }},
    {halide_target_feature_avx512_zen5, "avx512_zen5",
     [](const Cpuid &cpu) {
         return all(cpu, {"avx512f", "avx512cd", "avx512bw", "avx512dq", "avx512vl", "avx512ifma", "avx512vbmi",
                          "avx512vnni", "avx512bf16", "avx512vbmi2", "avx512bitalg", "avx512vpopcntdq", "avxvnni",
                          "avx512vp2intersect"});
     }},
};

bool disabled(const char *name) {
    const char *list = std::getenv("HL_DISABLE_FEATURES");
    if (!list) {
        return false;
    }
    size_t n = std::strlen(name);
    for (const char *p = list; *p;) {
        const char *end = std::strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : std::strlen(p);
        if (len == n && !std::strncmp(p, name, n)) {
            return true;
        }
        p += len + (end ? 1 : 0);
    }
    return false;
}

constexpr int kNumFeatures = sizeof(kFeatures) / sizeof(kFeatures[0]);
constexpr uint32_t kKnown = 1u << 31;

// Bit i: kFeatures[i] is present; kKnown once cpuid has been read. An atomic
// rather than a function-local static, which would need libstdc++'s guards:
// threads that race here all compute and store the same value.
std::atomic<uint32_t> present_bits{0};

uint32_t present_features() {
    uint32_t bits = present_bits.load(std::memory_order_acquire);
    if (!(bits & kKnown)) {
        const Cpuid cpu;
        bits = kKnown;
        for (int i = 0; i < kNumFeatures; i++) {
            bits |= kFeatures[i].present(cpu) ? 1u << i : 0u;
        }
        present_bits.store(bits, std::memory_order_release);
    }
    return bits;
}

} // namespace

extern "C" int halide_can_use_target_features(int count, const uint64_t *features) {
    const uint32_t present = present_features();
    for (int i = 0; i < kNumFeatures; i++) {
        const CpuFeature &f = kFeatures[i];
        int word = f.number >> 6;
        if (word >= count || !features || !((features[word] >> (f.number & 63)) & 1)) {
            continue;
        }
        if (!((present >> i) & 1) || disabled(f.name)) {
            return 0;
        }
    }
    return 1;
}
