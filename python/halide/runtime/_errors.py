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


class KernelArgumentError(TypeError, RuntimeError):
    """The arguments of a kernel call do not fit the kernel's signature.

    Raised for an unknown, repeated or missing argument, too many positional
    arguments, a scalar of the wrong kind or a buffer of the wrong element
    type. A TypeError, as for a Python function; also a RuntimeError, which
    is what upstream Halide's ``halide.runtime`` raises for these.
    """


class ScalarRangeError(ValueError, RuntimeError):
    """A scalar argument lies outside its type's range or the kernel's.

    A ValueError; also a RuntimeError, as upstream's conversion error is.
    """


class ReadOnlyBufferError(BufferError, ValueError):
    """A read-only array was given for an output buffer.

    A BufferError, as the buffer protocol reports a writable view that cannot
    be had; also a ValueError, which is what NumPy raises for it.
    """


class HalideKernelWarning(UserWarning):
    """An installed kernel plugin could not be used and was left out."""


class KernelNotFoundError(KeyError):
    """No installed kernel has the requested name, or several do."""

    def __str__(self) -> str:  # KeyError would print the repr of the message
        return str(self.args[0]) if self.args else ""


class AmbiguousKernelError(KernelNotFoundError):
    """A kernel name matches kernels of several plugins; qualify it."""


# Shown as halide.runtime.X in tracebacks and help().
for _cls in (
    HalideError,
    KernelArgumentError,
    ScalarRangeError,
    ReadOnlyBufferError,
    HalideKernelWarning,
    KernelNotFoundError,
    AmbiguousKernelError,
):
    _cls.__module__ = "halide.runtime"
del _cls
