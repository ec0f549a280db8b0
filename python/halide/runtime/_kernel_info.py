"""Plain-data descriptions of kernels and their arguments."""

from __future__ import annotations

from typing import Any

#: The keys every entry of ``Kernel.arguments`` has, as upstream's dicts do.
ARGUMENT_KEYS = ("name", "kind", "type", "dimensions")


class Argument(dict):
    """One argument of a kernel, from its metadata.

    As a mapping it is exactly upstream Halide's argument dict:
    ``{"name": raw metadata name ("pair.0"), "kind": "input_scalar" |
    "input_buffer" | "output_buffer", "type": "uint8", "float32", "bool",
    "handle", ..., "dimensions": 0 for scalars}`` -- ``a["name"]``,
    ``dict(a)``, ``a.keys()`` and ``a == {...}`` behave as on a dict.

    Attributes add what the metadata knows beyond that: ``name`` is the
    Python keyword for the argument ("pair_0"; ``raw_name`` is the metadata
    name), and ``default``, ``min``, ``max`` and ``estimate`` the scalar's
    values (None when the metadata has none).
    """

    __slots__ = ("name", "default", "min", "max", "estimate")

    def __init__(
        self,
        name: str,
        raw_name: str,
        kind: str,
        type: str,  # noqa: A002 - the metadata's word
        dimensions: int,
        default: Any = None,
        min: Any = None,  # noqa: A002
        max: Any = None,  # noqa: A002
        estimate: Any = None,
    ) -> None:
        super().__init__(name=raw_name, kind=kind, type=type, dimensions=dimensions)
        self.name = name
        self.default = default
        self.min = min
        self.max = max
        self.estimate = estimate

    # The mapping's entries, also as attributes.
    @property
    def raw_name(self) -> str:
        return self["name"]

    @property
    def kind(self) -> str:
        return self["kind"]

    @property
    def type(self) -> str:
        return self["type"]

    @property
    def dimensions(self) -> int:
        return self["dimensions"]

    @property
    def is_buffer(self) -> bool:
        return self["kind"] != "input_scalar"

    @property
    def is_output(self) -> bool:
        return self["kind"] == "output_buffer"

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

    def __reduce__(self) -> tuple:
        return (
            Argument,
            (self.name, self.raw_name, self.kind, self.type, self.dimensions, self.default, self.min, self.max,
             self.estimate),
        )
