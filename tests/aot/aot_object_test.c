/* brighter.o alone (the kernel and the runtime merged into one object by the
 * compiler) links into a C program with nothing else of ours. */
#include "test_check.h"
#include <stdio.h>
#include <string.h>

#include "brighter.h"

int main(void) {
    uint8_t in[3][32], out[3][32];
    for (int i = 0; i < 96; i++) {
        in[i / 32][i % 32] = (uint8_t)(i * 2);
    }
    halide_dimension_t din[2] = {{0, 32, 1, 0}, {0, 3, 32, 0}}, dout[2] = {{0, 32, 1, 0}, {0, 3, 32, 0}};
    halide_buffer_t bin = make_buffer(&in[0][0], halide_type_uint, 8, din, 2);
    halide_buffer_t bout = make_buffer(&out[0][0], halide_type_uint, 8, dout, 2);
    int rc = brighter(&bin, 1.0f, 5, &bout), bad = 0;
    for (int i = 0; i < 96; i++) {
        int want = in[i / 32][i % 32] + 5;
        bad += out[i / 32][i % 32] != (want > 255 ? 255 : want);
    }
    printf("rc %d, %d wrong\n", rc, bad);
    return rc || bad;
}
