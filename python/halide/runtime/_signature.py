"""Python-facing signatures and docstrings for Kernel objects."""

from __future__ import annotations

import inspect
from typing import Any

from ._kernel_info import Argument

_NO_DEFAULT = inspect.Parameter.empty


def _annotation(arg: Argument) -> str:
    if arg.is_buffer:
        return f"ndarray[{arg.type}, {arg.dimensions}-D]"
    if arg.type == "bool":
        return "bool"
    if arg.type.startswith("float"):
        return "float"
    if arg.type == "handle":
        return "int | None"
    return "int"


def signature(arguments: list[Argument]) -> inspect.Signature:
    """The call signature: arguments in metadata order, outputs optional."""
    defaults: list[Any] = []
    for arg in arguments:
        if arg.is_output:
            defaults.append(None)
        elif not arg.is_buffer and arg.default is not None:
            defaults.append(arg.default)
        else:
            defaults.append(_NO_DEFAULT)
    # A parameter may keep its default only if every later one has one.
    for i in range(len(defaults) - 1, -1, -1):
        if defaults[i] is _NO_DEFAULT:
            defaults[:i] = [_NO_DEFAULT] * i
            break
    params = [
        inspect.Parameter(
            a.name, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=d, annotation=_annotation(a)
        )
        for a, d in zip(arguments, defaults, strict=True)
    ]
    if any(a.is_output for a in arguments):
        params.append(
            inspect.Parameter(
                "output_shape", inspect.Parameter.KEYWORD_ONLY, default=None, annotation="tuple | dict | None"
            )
        )
    return inspect.Signature(params)


def docstring(name: str, target: str, arguments: list[Argument], doc: str = "") -> str:
    lines = [f"Halide kernel {name!r} (target {target})."]
    if doc:
        lines += ["", doc.strip()]
    lines += ["", "Arguments:"]
    for a in arguments:
        lines.append(f"    {a.name}: {a.describe()}")
    outputs = [a.name for a in arguments if a.is_output]
    if outputs:
        lines += [
            "",
            "Outputs may be omitted when output_shape= gives their NumPy shape (one",
            "tuple for all, or a dict by name); they are then allocated and returned.",
            "Array axes are reversed: NumPy's last axis is Halide's dimension 0.",
            "Raises halide.runtime.HalideError if the kernel fails.",
        ]
    return "\n".join(lines)


def decorate(kernel: Any, doc: str = "") -> None:
    """Gives a Kernel instance its own __signature__ and __doc__ (for help())."""
    arguments = kernel.arguments
    kernel.__signature__ = signature(arguments)
    kernel.__doc__ = docstring(kernel.name, kernel.target, arguments, doc)
    kernel.__name__ = kernel.name
    kernel.__qualname__ = kernel.name
