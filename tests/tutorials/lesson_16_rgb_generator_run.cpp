// Lesson 16, the caller: each layout variant of the lesson 16 generator on
// planar and interleaved images. A variant compiled for one layout refuses
// the other with an error code (its stride constraint fails); `either` and
// `specialized` accept both.
#include <algorithm>

#include "HalideBuffer.h"
#include "lesson_16_brighten_either.h"
#include "lesson_16_brighten_interleaved.h"
#include "lesson_16_brighten_planar.h"
#include "lesson_16_brighten_specialized.h"
#include "tutorial_check.h"

using Halide::Runtime::Buffer;

namespace {

using Kernel = int (*)(halide_buffer_t *, uint8_t, halide_buffer_t *);

// Runs `kernel` on a planar or interleaved copy of the test image; returns
// its error code, checking the output when it is 0.
int run(const char *name, Kernel kernel, bool interleaved) {
    const int W = 80, H = 40;
    Buffer<uint8_t> in = interleaved ? Buffer<uint8_t>::make_interleaved(W, H, 3) : Buffer<uint8_t>(W, H, 3);
    Buffer<uint8_t> out = interleaved ? Buffer<uint8_t>::make_interleaved(W, H, 3) : Buffer<uint8_t>(W, H, 3);
    tutorial::fill_test_image(in);
    int err = kernel(in, 70, out);
    if (err == 0) {
        tutorial::check_image(name, out, [&](int x, int y, int c) { return std::min(in(x, y, c) + 70, 255); });
    }
    return err;
}

} // namespace

int main() {
    tutorial::capture_errors();
    tutorial::check(run("planar/planar", lesson_16_brighten_planar, false) == 0, "planar kernel, planar image");
    tutorial::check(run("planar/interleaved", lesson_16_brighten_planar, true) != 0,
                    "the planar kernel refuses an interleaved image");
    tutorial::check(std::strstr(tutorial::last_error(), "Constraint violated: input.stride.0 (3) == 1 (1)") != nullptr,
                    "the error names the stride constraint");
    tutorial::check(run("interleaved/interleaved", lesson_16_brighten_interleaved, true) == 0,
                    "interleaved kernel, interleaved image");
    tutorial::check(run("interleaved/planar", lesson_16_brighten_interleaved, false) != 0,
                    "the interleaved kernel refuses a planar image");
    tutorial::check(run("either/planar", lesson_16_brighten_either, false) == 0, "either kernel, planar image");
    tutorial::check(run("either/interleaved", lesson_16_brighten_either, true) == 0, "either kernel, interleaved");
    tutorial::check(run("specialized/planar", lesson_16_brighten_specialized, false) == 0, "specialized, planar");
    tutorial::check(run("specialized/interleaved", lesson_16_brighten_specialized, true) == 0,
                    "specialized, interleaved");
    return tutorial::finish("lesson_16_rgb_generator");
}
