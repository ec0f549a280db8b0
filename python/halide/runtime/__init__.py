"""halide.runtime: load and call precompiled Halide kernels.

Needs neither the Halide compiler nor LLVM. One runtime (thread pool, error
and print hooks, allocator) is shared by every kernel in the process::

    import numpy as np
    import halide.runtime as hlr

    blur = hlr.load("libblur.so")            # or hlr.kernel("imaging.blur")
    out = blur(np.zeros((480, 640), np.uint16), output_shape=(480, 640))

See docs/runtime.md for the whole API.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from ._errors import (
    AmbiguousKernelError,
    HalideError,
    HalideKernelWarning,
    KernelArgumentError,
    KernelNotFoundError,
    ReadOnlyBufferError,
    ScalarRangeError,
)


def _load_shared_runtime() -> None:
    # Kernels are opened RTLD_LOCAL; their calls to halide_* resolve to a
    # library in the global scope first. Loading ours globally, before any
    # kernel, is what makes every kernel share one thread pool and one set
    # of hooks (see docs/abi.md). The extension links the same library.
    import ctypes

    path = os.path.join(os.path.dirname(__file__), "libhalide_runtime.so")
    ctypes.CDLL(path, mode=os.RTLD_GLOBAL | os.RTLD_NOW)


_load_shared_runtime()

from ._pickle import reduce_kernel as _reduce_kernel  # noqa: E402
from ._runtime import (  # noqa: E402
    HALIDE_VERSION,
    METADATA_VERSION,
    Buffer,
    BufferDimension,
    Kernel,
    Type,
    get_num_threads,
    host_cpu_features,
    set_num_threads,
)

# Installed kernels pickle by name (see _pickle.py).
Kernel.__reduce__ = _reduce_kernel  # type: ignore[method-assign,assignment]

if TYPE_CHECKING:
    from ._registry import KernelRegistry

__all__ = [
    "AmbiguousKernelError",
    "Buffer",
    "BufferDimension",
    "HALIDE_VERSION",
    "HalideError",
    "HalideKernelWarning",
    "Kernel",
    "KernelArgumentError",
    "KernelNotFoundError",
    "METADATA_VERSION",
    "ReadOnlyBufferError",
    "ScalarRangeError",
    "Type",
    "add_plugin",
    "get_include",
    "get_num_threads",
    "host_cpu_features",
    "kernel",
    "kernels",
    "load",
    "refresh",
    "set_num_threads",
]

__version__ = HALIDE_VERSION


def get_include() -> str:
    """Folder holding HalideRuntime.h, HalideBuffer.h and the marshalling header."""
    return os.path.join(os.path.dirname(__file__), "include")


def load(path: str | os.PathLike[str], name: str | None = None) -> Kernel:
    """Loads the kernel `name` from the shared library at `path`.

    With no name, the library must export exactly one kernel (a NAME with both
    NAME_argv and NAME_metadata); otherwise the error lists the names found.
    """
    from ._runtime import _kernel_names, _load
    from ._signature import decorate

    path = os.fspath(path)
    if not isinstance(path, str):
        path = os.fsdecode(path)
    if not os.path.exists(path):
        raise FileNotFoundError(f"kernel library not found: {path!r}")
    try:
        if name is None:
            names = _kernel_names(path)
            if len(names) != 1:
                found = ", ".join(names) if names else "none"
                raise ValueError(
                    f"{path!r} exports {len(names)} Halide kernels ({found}); "
                    "pass name= to choose one"
                    if names
                    else f"{path!r} exports no Halide kernel (no NAME_argv with NAME_metadata)"
                )
            name = names[0]
        kernel = _load(path, name)
    except RuntimeError as e:  # dlopen failures
        raise OSError(str(e)) from None
    decorate(kernel)
    return kernel


def kernels() -> KernelRegistry:
    """Every kernel installed by a kernel-plugin distribution, by name.

    Built from the plugins' manifests alone (no library is opened until a
    kernel is used) and cached; see refresh().
    """
    from ._registry import registry

    return registry()


def kernel(name: str) -> Kernel:
    """The installed kernel `name` ("plugin.kernel", or a unique short name)."""
    return kernels()[name]


def refresh() -> None:
    """Forgets the cached plugin scan, so plugins installed since are seen."""
    from ._registry import refresh as _refresh

    _refresh()


def add_plugin(name: str, manifest: str | os.PathLike[str]) -> None:
    """Registers a plugin from a manifest file by hand (no entry point needed)."""
    from ._registry import add_plugin as _add

    _add(name, manifest)


def __getattr__(name: str) -> Any:
    if name in ("KernelInfo", "KernelRegistry"):
        from . import _registry

        return getattr(_registry, name)
    raise AttributeError(f"module 'halide.runtime' has no attribute {name!r}")
