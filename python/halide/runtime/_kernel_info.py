"""Plain-data descriptions of kernels and their arguments."""

from __future__ import annotations

from typing import Any, NamedTuple


class Argument(NamedTuple):
    """One argument of a kernel, from its metadata (or its manifest)."""

    name: str  #: keyword name in Python ("g_0")
    raw_name: str  #: name in the kernel's metadata ("g.0")
    kind: str  #: "input_scalar", "input_buffer" or "output_buffer"
    type: str  #: "uint8", "float32", "bool", "handle", ...
    dimensions: int  #: 0 for scalars
    default: Any = None
    min: Any = None
    max: Any = None
    estimate: Any = None

    @property
    def is_buffer(self) -> bool:
        return self.kind != "input_scalar"

    @property
    def is_output(self) -> bool:
        return self.kind == "output_buffer"

    def describe(self) -> str:
        if self.is_buffer:
            role = "output" if self.is_output else "input"
            return f"{role} buffer of {self.type}, {self.dimensions}-D"
        text = f"{self.type} scalar"
        limits = []
        if self.min is not None:
            limits.append(f"min {self.min}")
        if self.max is not None:
            limits.append(f"max {self.max}")
        if limits:
            text += f" ({', '.join(limits)})"
        return text
