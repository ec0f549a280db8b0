"""python -m halide_bin --cmakedir|--pkgconfigdir|--prefix|--includedir|--libdir|--library"""

from __future__ import annotations

import argparse

import halide_bin


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m halide_bin", description=halide_bin.__doc__.splitlines()[0])
    places = {
        "prefix": halide_bin.get_prefix,
        "includedir": halide_bin.get_include,
        "libdir": halide_bin.get_libdir,
        "library": halide_bin.get_library,
        "pkgconfigdir": halide_bin.get_pkgconfig_dir,
        "cmakedir": halide_bin.get_cmake_dir,
    }
    group = parser.add_mutually_exclusive_group(required=True)
    for name in places:
        group.add_argument(f"--{name}", action="store_true", help=f"print the {name} folder or file")
    args = parser.parse_args()
    for name, where in places.items():
        if getattr(args, name):
            print(where())


if __name__ == "__main__":
    main()
