"""Pickling kernels by registry name, so multiprocessing, concurrent.futures
and Dask can send them to other processes and machines.

A kernel from the registry pickles as (distribution, "plugin.kernel",
plugin version): no path, no code. Unpickling looks the name up in the
receiving process's registry, which picks the CPU variant that machine runs
best, and refuses a different installed version of the plugin (the kernel
could have other arguments or compute something else).
"""

from __future__ import annotations

import pickle
from typing import Any


def reduce_kernel(kernel: Any) -> tuple[Any, tuple[str, str, str]]:
    key = getattr(kernel, "_registry_key", None)
    if key is None:
        raise TypeError(
            f"cannot pickle Halide kernel {kernel.name!r}: it was loaded from a file with "
            "halide.runtime.load(), and only installed kernels (halide.runtime.kernel(name)) pickle, by name; "
            "send the library's path and load it on the other side instead"
        )
    return unpickle_kernel, key


def unpickle_kernel(distribution: str, name: str, version: str) -> Any:
    from ._errors import KernelNotFoundError
    from ._registry import registry

    try:
        info = registry().info(f"{distribution}:{name}")
    except KernelNotFoundError:
        raise pickle.UnpicklingError(
            f"Halide kernel {name!r} ({distribution} {version}) was pickled, but this process has no such "
            f"installed kernel: install {distribution}=={version} here"
        ) from None
    if info.source.version != version:
        raise pickle.UnpicklingError(
            f"Halide kernel {name!r} was pickled from {distribution} {version}, but this process has "
            f"{distribution} {info.source.version}: install the same version on every machine"
        )
    return info.load()
