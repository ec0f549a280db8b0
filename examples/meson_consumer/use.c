#include <stdio.h>
#include <string.h>

#include "invert_nort.h"

int main(void) {
    uint8_t in[2][20], out[2][20];
    for (int i = 0; i < 40; i++) {
        in[i / 20][i % 20] = (uint8_t)(i * 3);
    }
    halide_dimension_t din[2] = {{0, 20, 1, 0}, {0, 2, 20, 0}}, dout[2] = {{0, 20, 1, 0}, {0, 2, 20, 0}};
    halide_buffer_t bin, bout;
    memset(&bin, 0, sizeof bin);
    bin.host = &in[0][0];
    bin.type.code = halide_type_uint;
    bin.type.bits = 8;
    bin.type.lanes = 1;
    bin.dimensions = 2;
    bin.dim = din;
    bout = bin;
    bout.host = &out[0][0];
    bout.dim = dout;
    int rc = invert_nort(&bin, &bout), bad = 0;
    for (int i = 0; i < 40; i++) {
        bad += out[i / 20][i % 20] != 255 - in[i / 20][i % 20];
    }
    printf("rc %d, %d wrong\n", rc, bad);
    return rc || bad;
}
