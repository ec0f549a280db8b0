"""python -m halide.runtime list | info NAME: the installed kernels, for people."""

from __future__ import annotations

import argparse
import sys

from . import HALIDE_VERSION, KernelNotFoundError, kernels


def _list(args: argparse.Namespace) -> int:
    registry = kernels()
    infos = registry.infos()
    if not infos:
        print("No Halide kernel plugins are installed.")
        return 0
    width = max(len(i.name) for i in infos)
    for info in infos:
        line = f"{info.name:<{width}}  {info.distribution} {info.source.version}  {info.target}"
        if args.verbose:
            line += f"\n{'':<{width}}  {info.signature_text()}"
        print(line)
    return 0


def _info(args: argparse.Namespace) -> int:
    try:
        info = kernels().info(args.name)
    except KernelNotFoundError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    print(f"name:         {info.name}")
    print(f"plugin:       {info.plugin} ({info.distribution} {info.source.version})")
    print(f"library:      {info.library}")
    print(f"symbol:       {info.symbol}")
    print(f"target:       {info.target}")
    print(f"built with:   Halide {info.halide_version or '?'} (metadata version {info.metadata_version})")
    print(f"manifest:     {info.source.manifest}")
    if info.doc:
        print(f"doc:          {info.doc}")
    print("arguments:")
    for a in info.arguments:
        shape = "" if a["kind"] == "input_scalar" else f", {a['dimensions']}-D"
        print(f"  {a['name']}: {a['kind']}, {a['type']}{shape}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m halide.runtime", description=f"halide.runtime {HALIDE_VERSION}")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("list", help="list installed kernels")
    p.add_argument("-v", "--verbose", action="store_true", help="show each kernel's arguments")
    p.set_defaults(run=_list)
    p = sub.add_parser("info", help="describe one kernel")
    p.add_argument("name")
    p.set_defaults(run=_info)
    args = parser.parse_args(argv)
    return int(args.run(args))


if __name__ == "__main__":
    sys.exit(main())
