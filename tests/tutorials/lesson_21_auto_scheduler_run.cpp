// Lesson 21, the caller: the hand-scheduled and the unscheduled kernels of
// the lesson 21 generator compute the same image as C++ (within float
// rounding); the run times are printed for comparison, not checked.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#include "HalideBuffer.h"
#include "lesson_21_unsharp_hand.h"
#include "lesson_21_unsharp_plain.h"
#include "tutorial_check.h"

using Halide::Runtime::Buffer;

int main() {
    const int W = 300, H = 200;
    const float strength = 0.8f;
    Buffer<float> input(W, H, 3);
    for (int c = 0; c < 3; c++)
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++)
                input(x, y, c) = tutorial::test_pixel(x, y, c) / 255.0f;

    // The reference, stage by stage over the clamped image.
    auto at = [&](int x, int y, int c) { return input(std::clamp(x, 0, W - 1), std::clamp(y, 0, H - 1), c); };
    std::vector<float> gray((W + 8) * (H + 8)), bx((W + 8) * (H + 8));
    auto G = [&](int x, int y) -> float & { return gray[(y + 4) * (W + 8) + x + 4]; };
    auto BX = [&](int x, int y) -> float & { return bx[(y + 4) * (W + 8) + x + 4]; };
    for (int y = -4; y < H + 4; y++)
        for (int x = -4; x < W + 4; x++)
            G(x, y) = 0.299f * at(x, y, 0) + 0.587f * at(x, y, 1) + 0.114f * at(x, y, 2);
    for (int y = -2; y < H + 2; y++)
        for (int x = 0; x < W; x++)
            BX(x, y) = (G(x - 2, y) + 4 * G(x - 1, y) + 6 * G(x, y) + 4 * G(x + 1, y) + G(x + 2, y)) / 16;
    auto ref = [&](int x, int y, int c) {
        float by = (BX(x, y - 2) + 4 * BX(x, y - 1) + 6 * BX(x, y) + 4 * BX(x, y + 1) + BX(x, y + 2)) / 16;
        float sharp = G(x, y) + strength * (G(x, y) - by);
        float ratio = sharp / std::max(G(x, y), 1e-3f);
        return std::clamp(input(x, y, c) * ratio, 0.0f, 1.0f);
    };

    for (int variant = 0; variant < 2; variant++) {
        Buffer<float> out(W, H, 3);
        auto start = std::chrono::steady_clock::now();
        int err =
            variant == 0 ? lesson_21_unsharp_hand(input, strength, out) : lesson_21_unsharp_plain(input, strength, out);
        double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        const char *name = variant == 0 ? "hand-scheduled" : "unscheduled";
        tutorial::check(err == 0, "the kernel ran");
        tutorial::check_image(name, out, ref, 1e-4);
        std::printf("%s: %.2f ms\n", name, ms);
    }
    return tutorial::finish("lesson_21_auto_scheduler");
}
