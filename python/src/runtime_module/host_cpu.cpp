// See host_cpu.h.
#include "host_cpu.h"

#include <cstdlib>
#include <set>
#include <sstream>

namespace halide_python {

std::vector<std::string> host_cpu_features() {
    std::vector<std::string> found;
#if defined(__x86_64__) || defined(__i386__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("sse4.1"))
        found.push_back("sse41");
    if (__builtin_cpu_supports("avx"))
        found.push_back("avx");
    if (__builtin_cpu_supports("avx2"))
        found.push_back("avx2");
    if (__builtin_cpu_supports("fma"))
        found.push_back("fma");
    if (__builtin_cpu_supports("f16c"))
        found.push_back("f16c");
    bool skylake = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512cd") &&
                   __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq") &&
                   __builtin_cpu_supports("avx512vl");
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512cd"))
        found.push_back("avx512");
    if (skylake)
        found.push_back("avx512_skylake");
    if (skylake && __builtin_cpu_supports("avx512ifma") && __builtin_cpu_supports("avx512vbmi")) {
        found.push_back("avx512_cannonlake");
    }
    if (__builtin_cpu_supports("avx512pf") && __builtin_cpu_supports("avx512er"))
        found.push_back("avx512_knl");
    if (skylake && __builtin_cpu_supports("avx512bf16") && __builtin_cpu_supports("avx512vnni")) {
        found.push_back("avx512_sapphirerapids");
    }
#endif
    std::set<std::string> masked;
    if (const char *mask = std::getenv("HL_HOST_FEATURES_MASK")) {
        std::stringstream ss(mask);
        std::string item;
        while (std::getline(ss, item, ',')) {
            masked.insert(item);
        }
    }
    std::vector<std::string> out;
    for (const auto &f : found) {
        if (!masked.count(f)) {
            out.push_back(f);
        }
    }
    return out;
}

} // namespace halide_python
