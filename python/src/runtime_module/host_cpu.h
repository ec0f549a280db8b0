// What the running CPU can execute, in target-string feature names.
#ifndef HALIDE_PYTHON_HOST_CPU_H
#define HALIDE_PYTHON_HOST_CPU_H

#include <string>
#include <vector>

namespace halide_python {

// e.g. {"sse41", "avx", "avx2", "fma", "f16c", "avx512", ...}. Honours the
// HL_HOST_FEATURES_MASK environment variable (comma-separated names to
// pretend are missing), so tests can check how kernels for newer CPUs are
// refused.
std::vector<std::string> host_cpu_features();

} // namespace halide_python

#endif
