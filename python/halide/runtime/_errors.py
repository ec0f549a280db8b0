"""Exceptions and warnings of halide.runtime."""

from __future__ import annotations


class HalideError(RuntimeError):
    """A Halide kernel (or a runtime call) failed.

    ``code`` is the kernel's return value, one of the runtime's error codes
    (e.g. -4 for an access out of bounds); ``runtime_message`` is what the
    runtime reported; ``kernel`` names the kernel.
    """

    code: int = 0
    kernel: str = ""
    runtime_message: str = ""


class HalideKernelWarning(UserWarning):
    """An installed kernel plugin could not be used and was left out."""


class KernelNotFoundError(KeyError):
    """No installed kernel has the requested name, or several do."""

    def __str__(self) -> str:  # KeyError would print the repr of the message
        return str(self.args[0]) if self.args else ""


class AmbiguousKernelError(KernelNotFoundError):
    """A kernel name matches kernels of several plugins; qualify it."""


# Shown as halide.runtime.X in tracebacks and help().
for _cls in (HalideError, HalideKernelWarning, KernelNotFoundError, AmbiguousKernelError):
    _cls.__module__ = "halide.runtime"
del _cls
