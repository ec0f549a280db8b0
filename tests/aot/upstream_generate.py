#!/usr/bin/python3
"""Builds, with upstream Halide 14 (Debian's python3-halide), the same two
pipelines aot_generate builds as brighter_ours and blur_ours: brighter_up
and blur_up, as static libraries with headers, for the same target. The
no_runtime kernels then run on our runtime in aot_compare_test.c.

    /usr/bin/python3 upstream_generate.py OUTDIR TARGET
"""

import sys

import halide as hl


def brighter():
    inp = hl.ImageParam(hl.UInt(8), 2, "input")
    scale = hl.Param(hl.Float(32), "scale")
    offset = hl.Param(hl.Int(32), "offset")
    scale.set_range(0.0, 10.0)
    x, y = hl.Var("x"), hl.Var("y")
    f = hl.Func("brighter")
    f[x, y] = hl.u8_sat(hl.cast(hl.Float(32), inp[x, y]) * scale + offset)
    f.vectorize(x, 16).parallel(y)
    inp.set_estimates([hl.Range(0, 1024), hl.Range(0, 768)])
    f.set_estimates([hl.Range(0, 1024), hl.Range(0, 768)])
    return f, [inp, scale, offset]


def blur():
    image = hl.ImageParam(hl.UInt(16), 2, "image")
    x, y, xi, yi = hl.Var("x"), hl.Var("y"), hl.Var("xi"), hl.Var("yi")
    blur_x, blur_y = hl.Func("blur_x"), hl.Func("blur_y")
    blur_x[x, y] = (image[x - 1, y] + image[x, y] + image[x + 1, y]) / 3
    blur_y[x, y] = (blur_x[x, y - 1] + blur_x[x, y] + blur_x[x, y + 1]) / 3
    blur_y.tile(x, y, xi, yi, 32, 8).vectorize(xi, 8).parallel(y)
    blur_x.compute_at(blur_y, x).vectorize(x, 8)
    return blur_y, [image]


def main():
    out, target = sys.argv[1], hl.Target(sys.argv[2])
    for name, build in (("brighter_up", brighter), ("blur_up", blur)):
        f, args = build()
        f.compile_to_static_library(f"{out}/{name}", args, name, target)


if __name__ == "__main__":
    main()
