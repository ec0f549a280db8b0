#!/usr/bin/python3
"""Build small AOT kernels with upstream Halide 14 for cross-checking our runtime.

Usage:
    /usr/bin/python3 tests/upstream/build_upstream_kernels.py OUTDIR

Run it with Debian's /usr/bin/python3: python3-halide is installed for that
interpreter only. For each kernel NAME the script:

  1. defines the pipeline with the Halide 14 Python bindings;
  2. compiles it with Func.compile_to_static_library for target "host", with
     the runtime embedded (no `no_runtime`), giving NAME.a in a scratch dir;
  3. links it into OUTDIR/libNAME.so with
         cc -shared -o OUTDIR/libNAME.so \
            -Wl,--whole-archive NAME.a -Wl,--no-whole-archive -lpthread -ldl
     so the library exports NAME, NAME_argv, NAME_metadata and the weak
     halide_* runtime (docs: ABI.md sections 4 and 5).

Then it writes OUTDIR/upstream_kernels.json describing every kernel: name,
absolute library path and the arguments in ABI order (inputs in the order
given to compile_to_static_library, then the output).

A library that is newer than this script is not rebuilt, so running the script
again is cheap. Outputs are written to temporary names and renamed into place,
so concurrent runs with the same OUTDIR do not see half-written files.

Environment: CC overrides the linker driver (default `cc`).
"""

import json
import os
import shlex
import subprocess
import sys
import tempfile
import time

try:
    import halide as hl
except ImportError as e:  # pragma: no cover - depends on the machine
    sys.stderr.write(
        f"error: cannot import the upstream Halide Python bindings ({e}).\n"
        "Run this script with Debian's /usr/bin/python3 and install the\n"
        "python3-halide package (Halide 14).\n")
    sys.exit(2)

SCRIPT = os.path.abspath(__file__)
TARGET = "host"
MANIFEST = "upstream_kernels.json"

KIND_NAMES = {0: "input_scalar", 1: "input_buffer", 2: "output_buffer"}


# --------------------------------------------------------------------------
# Pipelines. Each returns (output Func, [input Params/ImageParams in ABI order]).
# The output Func is named after the kernel, so the output buffer argument in
# the metadata carries the kernel name too.
# --------------------------------------------------------------------------

def up_brighten():
    """out(x, y) = u8_sat(i32(input(x, y)) + offset), offset in [-255, 255]."""
    inp = hl.ImageParam(hl.UInt(8), 2, "input")
    offset = hl.Param(hl.Int(32), "offset")
    offset.set_range(-255, 255)
    x, y = hl.Var("x"), hl.Var("y")
    out = hl.Func("up_brighten")
    out[x, y] = hl.u8_sat(hl.i32(inp[x, y]) + offset)
    out.parallel(y).vectorize(x, 16)
    return out, [inp, offset]


def up_blur():
    """Separable 3x3 box blur in uint16, no boundary condition (tutorial style)."""
    inp = hl.ImageParam(hl.UInt(16), 2, "input")
    x, y = hl.Var("x"), hl.Var("y")
    xo, yo, xi, yi, tile = (hl.Var(n) for n in ("xo", "yo", "xi", "yi", "tile"))
    blur_x = hl.Func("blur_x")
    out = hl.Func("up_blur")
    blur_x[x, y] = (inp[x - 1, y] + inp[x, y] + inp[x + 1, y]) / 3
    out[x, y] = (blur_x[x, y - 1] + blur_x[x, y] + blur_x[x, y + 1]) / 3
    out.tile(x, y, xo, yo, xi, yi, 64, 32) \
       .fuse(xo, yo, tile).parallel(tile) \
       .vectorize(xi, 8)
    blur_x.compute_at(out, tile).vectorize(x, 8)
    return out, [inp]


def up_scale_f32():
    """out(x, y, c) = input(x, y, c) * scale."""
    inp = hl.ImageParam(hl.Float(32), 3, "input")
    scale = hl.Param(hl.Float(32), "scale")
    x, y, c = hl.Var("x"), hl.Var("y"), hl.Var("c")
    out = hl.Func("up_scale_f32")
    out[x, y, c] = inp[x, y, c] * scale
    return out, [inp, scale]


KERNELS = [up_brighten, up_blur, up_scale_f32]


# --------------------------------------------------------------------------

def type_name(t):
    if t.is_float():
        prefix = "float"
    elif t.is_uint():
        prefix = "bool" if t.bits() == 1 else "uint"
    elif t.is_int():
        prefix = "int"
    elif t.is_handle():
        return "handle"
    else:
        prefix = str(t)
    return prefix if prefix == "bool" else f"{prefix}{t.bits()}"


def type_code(t):
    if t.is_int():
        return 0
    if t.is_uint():
        return 1
    if t.is_float():
        return 2
    if t.is_handle():
        return 3
    return 4  # bfloat


def describe_arg(name, kind, t, dims):
    return {
        "name": name,
        "kind": KIND_NAMES[kind],
        "kind_code": kind,
        "type": type_name(t),
        "type_code": type_code(t),
        "type_bits": t.bits(),
        "dimensions": dims,
    }


def describe(out, inputs):
    args = []
    for p in inputs:
        if isinstance(p, hl.ImageParam):
            args.append(describe_arg(p.name(), 1, p.type(), p.dimensions()))
        else:
            args.append(describe_arg(p.name(), 0, p.type(), 0))
    for t in out.output_types():
        args.append(describe_arg(out.name(), 2, t, out.dimensions()))
    return args


def run(cmd):
    res = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         text=True)
    if res.returncode != 0:
        command = " ".join(shlex.quote(c) for c in cmd)
        sys.stderr.write(f"error: command failed ({res.returncode}): {command}\n{res.stdout}")
        sys.exit(1)


def build(name, out, inputs, target, outdir, lib):
    cc = shlex.split(os.environ.get("CC", "cc"))
    with tempfile.TemporaryDirectory(prefix=f"up_{name}_", dir=outdir) as tmp:
        prefix = os.path.join(tmp, name)
        out.compile_to_static_library(prefix, inputs, name, target)
        tmp_lib = os.path.join(tmp, f"lib{name}.so")
        run(cc + ["-shared", "-o", tmp_lib,
                  "-Wl,--whole-archive", prefix + ".a", "-Wl,--no-whole-archive",
                  "-lpthread", "-ldl"])
        os.replace(tmp_lib, lib)


def main(argv):
    if len(argv) != 2 or argv[1] in ("-h", "--help"):
        sys.stderr.write(f"usage: /usr/bin/python3 {argv[0]} OUTDIR\n")
        return 2
    outdir = os.path.abspath(argv[1])
    os.makedirs(outdir, exist_ok=True)
    script_mtime = os.stat(SCRIPT).st_mtime
    target = hl.Target(TARGET)

    t_start = time.monotonic()
    kernels = []
    for make in KERNELS:
        name = make.__name__
        out, inputs = make()
        assert out.name() == name
        lib = os.path.join(outdir, f"lib{name}.so")
        fresh = os.path.exists(lib) and os.stat(lib).st_mtime > script_mtime
        t0 = time.monotonic()
        if not fresh:
            build(name, out, inputs, target, outdir, lib)
        status = "up to date" if fresh else f"built in {time.monotonic() - t0:.2f}s"
        print(f"{name:<14} {lib} ({status})")
        kernels.append({
            "name": name,
            "library": lib,
            "target": target.to_string(),
            "halide_version": "14",
            "arguments": describe(out, inputs),
        })

    manifest = {
        "generator": SCRIPT,
        "target": target.to_string(),
        "kernels": kernels,
    }
    path = os.path.join(outdir, MANIFEST)
    fd, tmp = tempfile.mkstemp(prefix=f".{MANIFEST}.", dir=outdir)
    with os.fdopen(fd, "w") as f:
        json.dump(manifest, f, indent=2, sort_keys=True)
        f.write("\n")
    os.chmod(tmp, 0o644)
    os.replace(tmp, path)
    print(f"wrote {path} ({len(kernels)} kernels, {time.monotonic() - t_start:.2f}s)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
