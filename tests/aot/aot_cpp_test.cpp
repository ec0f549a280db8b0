// The generated headers compile as C++ too; calls a kernel with
// Halide::Runtime::Buffer, as C++ users of upstream's AOT kernels do.
#include <cstdio>

#include "HalideBuffer.h"
#include "blur.h"
#include "brighter.h"
#include "offset_uc.h"

int main() {
    Halide::Runtime::Buffer<uint8_t> in(40, 3), out(40, 3);
    in.for_each_element([&](int x, int y) { in(x, y) = uint8_t(x * 5 + y); });
    int rc = brighter(in.raw_buffer(), 2.0f, 1, out.raw_buffer());
    if (rc != 0) {
        std::printf("brighter returned %d\n", rc);
        return 1;
    }
    int bad = 0;
    out.for_each_element([&](int x, int y) {
        int want = in(x, y) * 2 + 1;
        want = want > 255 ? 255 : want;
        bad += out(x, y) != want;
    });
    std::printf("%d wrong values\n", bad);
    return bad ? 1 : 0;
}
