// Inputs, plain-C++ helpers and lowered-statement text shared by the tests
// that run whole pipelines through a lowering pass and compare with C++.
#ifndef HALIDE_TESTS_PIPELINE_FIXTURES_H
#define HALIDE_TESTS_PIPELINE_FIXTURES_H

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "Halide.h"

// A w x h input whose values differ between neighbours in both directions,
// negative and positive, so a wrong offset or clamp shows in the output.
inline Halide::Buffer<int32_t> ramp_input(int w, int h) {
    Halide::Buffer<int32_t> in(w, h);
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            in(x, y) = (x * 37 + y * 101) % 251 - 60;
        }
    }
    return in;
}

inline int clampi(int v, int lo, int hi) {
    return std::min(std::max(v, lo), hi);
}

// The lowered statement of `f` as compile_to_lowered_stmt writes it.
inline std::string lowered(Halide::Func f, const std::vector<Halide::Argument> &args, const std::string &name) {
    std::string path = ::testing::TempDir() + name + ".stmt";
    f.compile_to_lowered_stmt(path, args);
    std::ifstream file(path);
    std::stringstream text;
    text << file.rdbuf();
    return text.str();
}

#endif
