// Lesson 10, part 2: calling the ahead-of-time compiled pipeline. Only the
// generated header, the runtime's HalideBuffer.h and the static library are
// needed. The function returns 0 on success, or an error code, e.g. when
// the output asks for pixels the input does not have (after reporting it
// through halide_error, whose default handler aborts; the test installs
// its own).
#include "HalideBuffer.h"
#include "lesson_10_halide.h"
#include "tutorial_check.h"

int main() {
    tutorial::capture_errors();
    Halide::Runtime::Buffer<uint8_t> input(640, 480), output(640, 480);
    tutorial::fill_test_image(input);
    const uint8_t offset = 60;

    int error = lesson_10_brighter(input, offset, output);
    tutorial::check(error == 0, "the pipeline ran without error");
    tutorial::check_image("brighter", output, [&](int x, int y, int) { return std::min(input(x, y) + offset, 255); });

    // An output larger than the input: the pipeline refuses to read out of
    // bounds and returns an error code instead.
    Halide::Runtime::Buffer<uint8_t> too_big(641, 480);
    tutorial::check(lesson_10_brighter(input, offset, too_big) != 0, "reading past the input is an error");
    tutorial::check(std::strstr(tutorial::last_error(), "beyond") != nullptr, "the error says the access is beyond");

    return tutorial::finish("lesson_10_aot_compilation");
}
