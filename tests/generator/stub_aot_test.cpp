// Runs the kernel the driver built from stub_user_generator.cpp (generator
// B, which builds generator A through A's C++ stub) and compares each
// output with the formula of stub_generators.cpp computed in plain C++.
#include <cstdint>
#include <cstdio>
#include <string>

#include "HalideBuffer.h"
#include "stub_user.h"
#include "test_check.h"

using Halide::Runtime::Buffer;

namespace {

// Generator A's output at (x, y) for the value v read there.
int32_t stub_scale(int32_t v, int32_t bias, bool mul, bool wrap_u8, int32_t offset_and_terms, int32_t label_size,
                   float scale, float factor) {
    int32_t mixed = mul ? v * bias : v + bias;
    int32_t combined = mixed + offset_and_terms;
    if (wrap_u8) {
        combined = (uint8_t)combined;
    }
    return (int32_t)((float)(combined + label_size) * scale * factor);
}

} // namespace

int main() {
    const int w = 13, h = 11; // square inputs are read transposed (flip)
    const float gain = 3.0f;
    Buffer<uint8_t> input(w, w);
    for (int y = 0; y < w; y++) {
        for (int x = 0; x < w; x++) {
            input(x, y) = (uint8_t)((x * 37 + y * 11) % 256);
        }
    }
    Buffer<int32_t> output(w, h), doubled(w, h), embedded(4, 4);
    check(stub_user(input, gain, output, doubled, embedded) == 0, "stub_user returned nonzero");
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            // offset 5, terms 1 + 2, factor 0.25, mode mul, uint8, flip, label "xy".
            int32_t a = stub_scale(input(y, x), x - y, true, true, 5 + 1 + 2, 2, gain, 0.25f);
            std::string at = "(" + std::to_string(x) + ", " + std::to_string(y) + ")";
            check(output(x, y) == a + 1,
                  "output" + at + " = " + std::to_string(output(x, y)) + ", want " + std::to_string(a + 1));
            check(doubled(x, y) == a * 2,
                  "doubled" + at + " = " + std::to_string(doubled(x, y)) + ", want " + std::to_string(a * 2));
        }
    }
    for (int y = 0; y < 4; y++) {
        for (int x = 0; x < 4; x++) {
            // The defaults: offset 3, factor 0.5, add, int32, no flip, the 16-character label; terms {7}.
            int32_t a = stub_scale(x * 10 + y, x - y, false, false, 3 + 7, 16, 2.0f, 0.5f);
            check(embedded(x, y) == a * 2, "embedded(" + std::to_string(x) + ", " + std::to_string(y) + ") = " +
                                               std::to_string(embedded(x, y)) + ", want " + std::to_string(a * 2));
        }
    }
    return finish("Success!");
}
