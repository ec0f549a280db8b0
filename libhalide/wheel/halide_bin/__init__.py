"""The Halide compiler as a library (the halide-bin wheel): libhalide, its
headers, the generator driver, pkg-config and CMake files.

This folder is an install prefix::

    lib/libhalide.so  lib/libhalide_gengen.a  lib/libhalide_runtime.a
    lib/pkgconfig/    lib/cmake/Halide/       include/

``python -m halide_bin --cmakedir`` (or ``--pkgconfigdir``, ``--prefix``,
``--includedir``, ``--libdir``) prints where to point a build system.
"""

from __future__ import annotations

import ctypes
from pathlib import Path

__all__ = ["get_cmake_dir", "get_include", "get_library", "get_libdir", "get_pkgconfig_dir", "get_prefix", "load"]

_PREFIX = Path(__file__).resolve().parent
_library: ctypes.CDLL | None = None


def get_prefix() -> Path:
    return _PREFIX


def get_include() -> Path:
    return _PREFIX / "include"


def get_libdir() -> Path:
    return _PREFIX / "lib"


def get_library() -> Path:
    """The absolute path of this wheel's libhalide.so."""
    return get_libdir() / "libhalide.so"


def get_pkgconfig_dir() -> Path:
    return get_libdir() / "pkgconfig"


def get_cmake_dir() -> Path:
    return get_libdir() / "cmake" / "Halide"


def load() -> ctypes.CDLL:
    """Load this wheel's libhalide.so by its absolute path.

    The halide package calls this before importing its extension, so the
    extension's dependency on libhalide.so is met by this copy (the dynamic
    loader matches it by name), never by another one on LD_LIBRARY_PATH.
    """
    global _library
    if _library is None:
        _library = ctypes.CDLL(str(get_library()))
    return _library
