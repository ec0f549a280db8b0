"""python -m halide.runtime list | info NAME | run NAME IN OUT [name=value...]:
the installed kernels, for people."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from . import HALIDE_VERSION, KernelNotFoundError, kernels
from ._errors import AmbiguousKernelError, HalideError
from ._targets import CPU_LEVEL_ENV, host_cpu_level


def _list(args: argparse.Namespace) -> int:
    registry = kernels()
    infos = registry.infos()
    if not infos:
        print("No Halide kernel plugins are installed.")
        return 0
    width = max(len(i.name) for i in infos)
    if args.verbose:
        print(f"CPU level: {host_cpu_level()} (this machine; {CPU_LEVEL_ENV} caps it)")
    for info in infos:
        line = f"{info.name:<{width}}  {info.distribution} {info.source.version}  {info.target}"
        if args.verbose:
            line += f"\n{'':<{width}}  {info.signature_text()}"
            levels = [f"[{v.cpu_level}]" if v is info else v.cpu_level for v, _ in info.variants or [(info, None)]]
            line += f"\n{'':<{width}}  CPU variants: {', '.join(levels)}"
        print(line)
    return 0


def _info(args: argparse.Namespace) -> int:
    try:
        info = kernels().info(args.name)
    except (KernelNotFoundError, AmbiguousKernelError) as e:
        print(f"error: {e.args[0]}", file=sys.stderr)
        return 1
    print(f"name:         {info.name}")
    print(f"plugin:       {info.plugin} ({info.distribution} {info.source.version})")
    print(f"library:      {info.library}")
    print(f"symbol:       {info.symbol}")
    print(f"target:       {info.target}")
    print(f"CPU level:    {info.cpu_level} (this machine runs up to {host_cpu_level()})")
    print(f"built with:   Halide {info.halide_version or '?'} (metadata version {info.metadata_version})")
    print(f"manifest:     {info.source.manifest}")
    if info.doc:
        print(f"doc:          {info.doc}")
    print("arguments:")
    for a in info.arguments:
        shape = "" if a["kind"] == "input_scalar" else f", {a['dimensions']}-D"
        print(f"  {a['name']}: {a['kind']}, {a['type']}{shape}")
    print("variants:")
    for variant, why in info.variants or [(info, None)]:
        mark = "*" if variant is info else " "
        reason = "" if why is None else f"  ({why})"
        print(f"  {mark} {variant.cpu_level:<8} {variant.target}  {variant.library.name}{reason}")
    return 0


def _scalar(text: str) -> Any:
    low = text.strip().lower()
    if low in ("true", "false"):
        return low == "true"
    try:
        return int(text, 0)
    except ValueError:
        return float(text)


def _run(args: argparse.Namespace) -> int:
    """Applies an image kernel to a file (see docs/runtime.md, "Command line")."""
    import numpy as np

    from .. import imageio

    try:
        kernel = kernels()[args.name]
    except (KernelNotFoundError, AmbiguousKernelError) as e:
        print(f"error: {e.args[0]}", file=sys.stderr)
        return 1
    scalars: dict[str, Any] = {}
    for item in args.params:
        name, eq, value = item.partition("=")
        if not eq:
            print(f"error: {item!r} is not name=value", file=sys.stderr)
            return 2
        scalars[name.strip()] = _scalar(value)
    arguments = kernel.arguments
    names = {a.name for a in arguments if a["kind"] == "input_scalar"}
    unknown = sorted(set(scalars) - names)
    if unknown:
        print(f"error: {kernel.name} has no scalar argument {', '.join(unknown)} "
              f"(its scalars: {', '.join(sorted(names)) or 'none'})", file=sys.stderr)
        return 2
    inputs = [a for a in arguments if a["kind"] == "input_buffer"]
    outputs = [a for a in arguments if a["kind"] == "output_buffer"]
    if len(inputs) > 1 or len(outputs) != 1:
        print(f"error: {kernel.name} is not an image kernel (one image in, one out): "
              f"it has {len(inputs)} input and {len(outputs)} output buffers", file=sys.stderr)
        return 2
    image = imageio.imread(args.input)
    source_dtype = image.dtype
    out_dims = outputs[0]["dimensions"]
    # A 2-D kernel runs on each colour plane of a colour image.
    planes = [image] if image.ndim == out_dims else list(image)
    results = []
    try:
        for plane in planes:
            results.append(_apply(kernel, inputs[0] if inputs else None, plane, scalars))
    except (HalideError, TypeError, ValueError) as e:
        print(f"error: {kernel.name} failed on {args.input}: {e}", file=sys.stderr)
        return 1
    out = results[0] if len(planes) == 1 and image.ndim == out_dims else np.stack(results)
    if out.dtype != source_dtype:
        info = np.iinfo(source_dtype)
        out = np.clip(np.rint(out), info.min, info.max).astype(source_dtype)
    imageio.imwrite(args.output, out)
    print(f"{kernel.name}: {args.input} {image.shape} -> {args.output} {out.shape}")
    return 0


def _apply(kernel: Any, input_arg: Any, plane: Any, scalars: dict[str, Any]) -> Any:
    """One call of `kernel` producing an output of plane's shape. The input
    is converted to the kernel's type and, when the kernel reads past the
    output's edges, padded by repeating its border pixels."""
    import numpy as np

    from . import Buffer

    shape = plane.shape
    if input_arg is None:
        return kernel(**scalars, output_shape=shape)
    data = plane.astype(input_arg["type"], copy=False)
    region = kernel.bounds(**scalars, output_shape=shape)[input_arg.name]
    pad = [(-lo, lo + extent - n) for (lo, extent), n in zip(region, shape, strict=True)]
    if any(before > 0 or after > 0 for before, after in pad):
        data = np.pad(data, [(max(b, 0), max(a, 0)) for b, a in pad], mode="edge")
        source = Buffer(data, input_arg.name)
        for axis, (before, _) in enumerate(pad):
            source.translate(data.ndim - 1 - axis, -max(before, 0))
        data = source
    return kernel(data, **scalars, output_shape=shape)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m halide.runtime", description=f"halide.runtime {HALIDE_VERSION}")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("list", help="list installed kernels")
    p.add_argument("-v", "--verbose", action="store_true", help="show each kernel's arguments and variants")
    p.set_defaults(run=_list)
    p = sub.add_parser("info", help="describe one kernel: arguments and CPU variants")
    p.add_argument("name")
    p.set_defaults(run=_info)
    p = sub.add_parser("run", help="apply an image kernel to an image file (PNG or JPEG)")
    p.add_argument("name", help="the kernel, e.g. imaging.box_blur")
    p.add_argument("input", help="the input image")
    p.add_argument("output", help="where to write the result (PNG)")
    p.add_argument("params", nargs="*", metavar="name=value", help="the kernel's scalar arguments")
    p.set_defaults(run=_run)
    args = parser.parse_args(argv)
    return int(args.run(args))


if __name__ == "__main__":
    sys.exit(main())
