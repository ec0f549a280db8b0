/* A kernel compiled with no_runtime, linked with the runtime compiled on its
 * own (compile_standalone_runtime) and nothing else from this project. */
#include "test_check.h"
#include <stdio.h>
#include <string.h>

#include "brighter_nort.h"

int main(void) {
    uint8_t in[3][17], out[3][17];
    for (int y = 0; y < 3; y++) {
        for (int x = 0; x < 17; x++) {
            in[y][x] = (uint8_t)(x * 15 + y);
        }
    }
    halide_dimension_t din[2] = {{0, 17, 1, 0}, {0, 3, 17, 0}}, dout[2] = {{0, 17, 1, 0}, {0, 3, 17, 0}};
    halide_buffer_t bin = make_buffer(&in[0][0], halide_type_uint, 8, din, 2);
    halide_buffer_t bout = make_buffer(&out[0][0], halide_type_uint, 8, dout, 2);
    int rc = brighter_nort(&bin, 0.5f, 100, &bout);
    int bad = rc != 0;
    for (int y = 0; y < 3; y++) {
        for (int x = 0; x < 17; x++) {
            float v = (float)in[y][x] * 0.5f + 100.0f;
            bad += out[y][x] != (uint8_t)(v >= 255 ? 255 : v);
        }
    }
    printf("rc %d, %d problems\n", rc, bad);
    return bad ? 1 : 0;
}
