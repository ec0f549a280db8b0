"""Generators written in Python: ``@hl.generator``, its fields and ``hl.main()``.

A generator class declares ``GeneratorParam``, ``InputBuffer``,
``InputScalar``, ``OutputBuffer`` and ``OutputScalar`` fields; an instance
turns them into ``Param``/``ImageParam``/``Func`` objects named after the
fields, runs ``configure()`` and ``generate()`` and yields a ``Pipeline``,
which is JIT-compiled (``compile_to_callable``), used inside other code
(``call``) or compiled ahead of time by ``hl.main()``, whose command line is
the C++ generator driver's (libhalide/src/generator/GeneratorMain.cpp).
Instances are single-use: each builds one pipeline.
"""

from __future__ import annotations

import gc
import os
import sys
import warnings
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Sequence
from contextvars import ContextVar, Token
from typing import Any, ClassVar, TypeVar

from halide import _GENERATOR_NAMES
from halide._compiler import (
    ArgInfo,
    ArgInfoDirection,
    ArgInfoKind,
    Argument,
    Bool,
    Buffer,
    Float,
    Func,
    HalideError,
    ImageParam,
    Int,
    OutputFileType,
    Param,
    Pipeline,
    Target,
    TargetFeature,
    Type,
    UInt,
    Var,
    _compile_generator,
    compile_standalone_runtime,
    get_jit_target_from_environment,
)

# The names halide/__init__.py forwards here: one list, kept there.
__all__ = sorted(_GENERATOR_NAMES)

_C = TypeVar("_C", bound=type)


def _fail(message: str) -> None:
    raise HalideError(message)


# ---------------------------------------------------------------- contexts


class AutoschedulerParams:
    """An autoscheduler's name and its options (upstream's
    ``hl.AutoschedulerParams``), for ``Pipeline.apply_autoscheduler`` and
    generators, which apply it when compiled ahead of time."""

    __slots__ = ("extra", "name")

    def __init__(self, name: str = "", extra: dict[str, str] | None = None) -> None:
        if not isinstance(name, str):
            raise TypeError(f"AutoschedulerParams() takes a str name, got {type(name).__name__}")
        self.name = name
        self.extra: dict[str, str] = dict(extra or {})

    def _copy(self) -> AutoschedulerParams:
        return AutoschedulerParams(self.name, self.extra)

    def __repr__(self) -> str:
        return f"<halide.AutoschedulerParams name={self.name!r} extra={self.extra!r}>"


class GeneratorContext:
    """The target a generator compiles for and its autoscheduler; ``with
    ctx:`` makes it the one new generators take (upstream's
    ``hl.GeneratorContext``)."""

    def __init__(
        self, target: Target | str | None = None, autoscheduler_params: AutoschedulerParams | None = None
    ) -> None:
        if target is None:
            target = get_jit_target_from_environment()
        elif isinstance(target, str):
            target = Target(target)
        if not isinstance(target, Target):
            raise TypeError(f"GeneratorContext() takes a halide.Target, got {type(target).__name__}")
        if autoscheduler_params is None:
            autoscheduler_params = AutoschedulerParams()
        if not isinstance(autoscheduler_params, AutoschedulerParams):
            raise TypeError(
                f"GeneratorContext() takes a halide.AutoschedulerParams, got {type(autoscheduler_params).__name__}"
            )
        self._target = target
        self._autoscheduler_params = autoscheduler_params
        self._tokens: list[Token[GeneratorContext | None]] = []

    def target(self) -> Target:
        return self._target

    def autoscheduler_params(self) -> AutoschedulerParams:
        return self._autoscheduler_params

    def __enter__(self) -> GeneratorContext:
        self._tokens.append(_active_context.set(self))
        return self

    def __exit__(self, *exc: object) -> None:
        _active_context.reset(self._tokens.pop())

    def __repr__(self) -> str:
        return f"<halide.GeneratorContext target({self._target})>"


_active_context: ContextVar[GeneratorContext | None] = ContextVar("halide_generator_context", default=None)


def active_generator_context() -> GeneratorContext:
    """The innermost ``with GeneratorContext(...)``; without one, a context for
    the JIT target (``HL_JIT_TARGET`` or this machine), as upstream documents
    (upstream 21 itself raises "There is no active GeneratorContext")."""
    context = _active_context.get()
    return context if context is not None else GeneratorContext(get_jit_target_from_environment())


# ---------------------------------------------------------------- types and names

# Upstream's names for types in GeneratorParams (`NAME.type=uint8`), plus the
# 64-bit integers the C++ generators also take.
_TYPE_NAMES: dict[str, Type] = {
    "bool": Bool(),
    "int8": Int(8),
    "int16": Int(16),
    "int32": Int(32),
    "int64": Int(64),
    "uint8": UInt(8),
    "uint16": UInt(16),
    "uint32": UInt(32),
    "uint64": UInt(64),
    "float16": Float(16),
    "float32": Float(32),
    "float64": Float(64),
}


def _as_type(t: object) -> Type:
    # Python's own types are accepted where they are unambiguous.
    if t is bool:
        return Bool()
    if t is int:
        return Int(32)
    if t is float:
        return Float(32)
    if not isinstance(t, Type):
        _fail(f"Expected a Halide Type, but saw: {t}")
    assert isinstance(t, Type)
    return t


def _as_types(types: object) -> list[Type]:
    """A declaration's types: [] when left open (None)."""
    if types is None:
        return []
    if isinstance(types, (list, tuple)):
        return [_as_type(t) for t in types]
    return [_as_type(types)]


def _parse_types(text: str) -> list[Type]:
    result = []
    for name in text.split(","):
        if name not in _TYPE_NAMES:
            _fail(f"The value {name} cannot be parsed as a Type.")
        result.append(_TYPE_NAMES[name])
    return result


def _is_valid_name(name: str) -> bool:
    # A C identifier that does not start with '_' and has no '__' (names of
    # C++ generators obey the same rule); `generator_params` is call()'s.
    if not name or not name.isascii() or name == "generator_params":
        return False
    return name[0] != "_" and "__" not in name and name.replace("_", "a").isalnum()


def _check_valid_name(name: str) -> str:
    if not _is_valid_name(name):
        _fail(f"The name '{name}' is not valid for a GeneratorParam, Input, or Output.")
    return name


# ---------------------------------------------------------------- declarations


class GeneratorParam:
    """A compile-time parameter: its default's type (bool, int, float, str or
    hl.Type) is the type of the values it accepts. In the instance, the field
    is the value itself."""

    _KINDS: ClassVar[tuple[type, ...]] = (bool, int, float, str, Type)

    def __init__(self, value: Any) -> None:
        self._value = value

    def _kind(self, name: str) -> type:
        value = self._value
        if isinstance(value, list) and value and all(isinstance(t, Type) for t in value):
            return Type  # a list of types, for Tuple outputs
        for kind in self._KINDS:
            if type(value) is kind or (kind is Type and isinstance(value, Type)):
                return kind
        _fail(f"GeneratorParam {name} has unsupported type {type(value)}")
        raise AssertionError  # unreachable

    def _parse(self, name: str, value: Any) -> Any:
        """`value` (a Python value or command-line text) as this parameter's type."""
        kind = self._kind(name)
        if kind is str:
            return str(value)
        if kind is bool:
            if isinstance(value, str):
                if value not in ("true", "false"):
                    raise ValueError(f"GeneratorParam '{name}' is a bool: give true or false, not '{value}'")
                return value == "true"
            return bool(value)
        if kind is int:
            return int(value)  # ValueError for text that is not a number, as upstream
        if kind is float:
            return float(value)
        if isinstance(value, str):
            parsed = _parse_types(value)
            return parsed[0] if len(parsed) == 1 else parsed
        types = _as_types(value)
        if not types:
            _fail(f"The value {value} cannot be parsed as a Type.")
        return types[0] if len(types) == 1 else types

    def __repr__(self) -> str:
        return f"GeneratorParam({self._value!r})"


class _IO:
    """What an Input or Output declares: types ([] = open), dimensions (-1 = open)."""

    _is_input: ClassVar[bool]
    _is_buffer: ClassVar[bool]

    def __init__(self, types: object, dimensions: int | None) -> None:
        self._types = _as_types(types)
        self._dimensions = -1 if dimensions is None else int(dimensions)

    def __repr__(self) -> str:
        types = ",".join(str(t) for t in self._types) or "None"
        dims = "None" if self._dimensions < 0 else str(self._dimensions)
        return f"{type(self).__name__}({types}, {dims})"


# The declarations derive from the class their instance field becomes (as
# upstream's do), so dir(), help() and isinstance() show that class's API.
# The declaration itself is an undefined placeholder: generate() sees the
# real ImageParam, Param or Func made for each instance.


class InputBuffer(_IO, ImageParam):
    """An input buffer: the instance's field is an ``hl.ImageParam``."""

    _is_input = True
    _is_buffer = True

    def __init__(self, type: Type | type | None, dimensions: int | None) -> None:
        ImageParam.__init__(self)
        _IO.__init__(self, type, dimensions)


class InputScalar(_IO, Param):
    """A scalar input: the instance's field is an ``hl.Param``."""

    _is_input = True
    _is_buffer = False

    def __init__(self, type: Type | type | None) -> None:
        _IO.__init__(self, type, 0)
        Param.__init__(self, self._types[0] if self._types else Int(32))


class OutputBuffer(_IO, Func):
    """An output: the instance's field is an ``hl.Func`` to define in generate()."""

    _is_input = False
    _is_buffer = True

    def __init__(self, types: Type | type | Sequence[Type | type] | None, dimensions: int | None) -> None:
        Func.__init__(self)
        _IO.__init__(self, types, dimensions)


class OutputScalar(OutputBuffer):
    """An output of zero dimensions (``f[()] = ...``)."""

    _is_buffer = False

    def __init__(self, types: Type | type | Sequence[Type | type] | None) -> None:
        OutputBuffer.__init__(self, types, 0)


class _Requirement:
    """An Input's or Output's final name, types and dimensions."""

    def __init__(self, name: str, types: list[Type], dimensions: int) -> None:
        self.name = name
        self.types = types
        self.dimensions = dimensions
        if not types:
            _fail(
                f"No type has been specified for {name}. Try specifying one in code, "
                f"or by setting '{name}.type' as a GeneratorParam."
            )
        if dimensions < 0:
            _fail(
                f"No dimensionality has been specified for {name}. Try specifying one in code, "
                f"or by setting '{name}.dim' as a GeneratorParam."
            )

    def check(self, types: list[Type], dimensions: int) -> None:
        if len(types) != len(self.types):
            _fail(f"Type mismatch for {self.name}: expected {len(self.types)} types but saw {len(types)}")
        for i, (want, got) in enumerate(zip(self.types, types, strict=True)):
            if want != got:
                _fail(f"Type mismatch for {self.name}:{i}: expected {want} saw {got}")
        if dimensions != self.dimensions:
            _fail(f"Dimensions mismatch for {self.name}: expected {self.dimensions} saw {dimensions}")


def _declared(cls: type) -> dict[str, Any]:
    """The class's fields in declaration order, base classes first."""
    fields: dict[str, Any] = {}
    for klass in reversed(cls.__mro__):
        fields.update(klass.__dict__)
    return fields


# ---------------------------------------------------------------- the generator


class _State:
    """An instance's bookkeeping, kept out of the user's namespace."""

    def __init__(self, target: Target, autoscheduler: AutoschedulerParams) -> None:
        self.target = target
        self.autoscheduler = autoscheduler
        self.params: dict[str, GeneratorParam] = {}
        self.unknown_params: dict[str, Any] = {}  # NAME.type/NAME.dim until the IO exists
        self.inputs: dict[str, _IO] = {}
        self.outputs: dict[str, _IO] = {}
        self.requirements: dict[str, _Requirement] = {}
        self.bound: dict[str, Any] = {}  # inputs given to call()
        self.configured = False
        self.in_configure = False
        self.in_generate = False
        self.built = False
        self.input_objects: dict[str, Param | ImageParam] = {}
        self.output_funcs: dict[str, Func] = {}
        self.pipeline_requirements: list[tuple[Any, list[Any]]] = []  # add_requirement()


class Generator(ABC):
    """Base of every ``@hl.generator`` class (the decorator adds it if the
    class does not derive from it already)."""

    _halide_registered_name: ClassVar[str] = ""
    _halide_alias_generator_params: ClassVar[dict[str, Any]] = {}
    _halide_state: _State  # set in __init__ (object.__setattr__: fields are read-only)

    def __init__(self, generator_params: dict[str, Any] | None = None) -> None:
        context = active_generator_context()
        state = _State(context.target(), context.autoscheduler_params()._copy())
        object.__setattr__(self, "_halide_state", state)
        for name, value in _declared(type(self)).items():
            if isinstance(value, GeneratorParam):
                self._add_name(name)
                value._kind(name)  # the default must have a supported type
                state.params[name] = value
        if generator_params is not None and not isinstance(generator_params, dict):
            _fail("generator_params must be a dict")
        for key, value in {**self._halide_alias_generator_params, **(generator_params or {})}.items():
            self._set_generator_param(key, value)
        for name, gp in state.params.items():
            object.__setattr__(self, name, gp._value)

    # -- what generate() uses

    def target(self) -> Target:
        return self._halide_state.target

    def context(self) -> GeneratorContext:
        return GeneratorContext(self._halide_state.target, self._halide_state.autoscheduler._copy())

    def autoscheduler(self) -> AutoschedulerParams:
        return self._halide_state.autoscheduler

    def natural_vector_size(self, type: Type | type) -> int:
        return int(self._halide_state.target.natural_vector_size(_as_type(type)))

    def using_autoscheduler(self) -> bool:
        """Whether an autoscheduler was named (``autoscheduler=NAME`` or the
        context's); generate() may then leave the schedule to it."""
        return bool(self._halide_state.autoscheduler.name)

    def allow_out_of_order_inputs_and_outputs(self) -> bool:
        return False

    def configure(self) -> None:  # noqa: B027 (optional hook)
        """Optional: add Inputs and Outputs with add_input/add_output."""

    @abstractmethod
    def generate(self) -> None:
        """Define every Output."""

    def add_input(self, name: str, io: InputBuffer | InputScalar) -> None:
        if not self._halide_state.in_configure:
            _fail("Can only call add_input() from the configure() method.")
        if hasattr(self, name):
            _fail(f"Cannot call add_input('{name}') because the class already has a member of that name.")
        if not isinstance(io, (InputBuffer, InputScalar)):
            _fail(f"Cannot call add_input() with an object of type '{type(io)}'.")
        self._add_io(name, io)

    def add_output(self, name: str, io: OutputBuffer | OutputScalar) -> None:
        if not self._halide_state.in_configure:
            _fail("Can only call add_output() from the configure() method.")
        if hasattr(self, name):
            _fail(f"Cannot call add_output('{name}') because the class already has a member of that name.")
        if not isinstance(io, OutputBuffer):
            _fail(f"Cannot call add_output() with an object of type '{type(io)}'.")
        self._add_io(name, io)

    # -- using the generator

    @classmethod
    def call(cls, *args: Any, **kwargs: Any) -> Any:
        """Run the generator inside other Halide code: inputs (Buffers,
        ImageParams, Params or numbers) positionally or by name,
        ``generator_params={...}``; returns the output Func, or a tuple of
        them."""
        params = kwargs.pop("generator_params", {})
        if not isinstance(params, dict):
            _fail("generator_params must be a dict")
        g = cls(params)
        state = g._halide_state
        g._configure()
        names = list(state.inputs)
        gen = cls._halide_registered_name
        if len(args) > len(names):
            _fail(f"Generator '{gen}' allows at most {len(names)} positional args, but {len(args)} were specified.")
        for name, value in zip(names, args, strict=False):
            g._bind_input(name, value)
        for name, value in kwargs.items():
            if name not in state.inputs:
                _fail(f"Unknown input '{name}' specified via keyword argument.")
            if name in state.bound:
                _fail(f"Input {name} specified multiple times.")
            g._bind_input(name, value)
        if len(state.bound) != len(names):
            _fail(f"Generator '{gen}' requires {len(names)} args, but {len(state.bound)} were specified.")
        g._build_pipeline()
        outputs = tuple(state.output_funcs.values())
        return outputs[0] if len(outputs) == 1 else outputs

    def add_requirement(self, condition: Any, *args: Any) -> None:
        """A condition checked when the pipeline runs (Pipeline.add_requirement),
        failing with `args` as the message; call it in generate()."""
        if self._halide_state.built and not self._halide_state.in_generate:
            _fail("add_requirement() must be called before the Generator's pipeline is built (in generate()).")
        self._halide_state.pipeline_requirements.append((condition, list(args)))

    def compile_to_callable(self) -> Any:
        """The pipeline JIT-compiled for the generator's target: an
        ``hl.Callable`` taking the inputs, then the outputs (by position, or
        by the fields' names)."""
        pipeline = self._build_pipeline()
        callable_ = pipeline.compile_to_callable(self._arguments(), self._halide_state.target)
        state = self._halide_state
        objects = {**state.input_objects, **state.output_funcs}
        renames = {field: obj.name() for field, obj in objects.items() if obj.name() != field}
        return _RenamedCallable(callable_, renames) if renames else callable_

    # -- the lifecycle

    def __setattr__(self, name: str, value: Any) -> None:
        state: _State | None = getattr(self, "_halide_state", None)
        if state is not None and (name in state.params or name in state.requirements):
            raise AttributeError(f"Invalid write to field '{name}'")
        super().__setattr__(name, value)

    def _add_name(self, name: str) -> None:
        state = self._halide_state
        _check_valid_name(name)
        if name in state.params or name in state.requirements:
            _fail(f"The name '{name}' is used more than once in Generator {self._halide_registered_name}.")

    def _set_generator_param(self, name: str, value: Any) -> None:
        state = self._halide_state
        if name == "target":
            _fail(f"The GeneratorParam named {name} cannot be set by set_generatorparam_value.")
        if state.configured:
            _fail(f"Generator {self._halide_registered_name}: GeneratorParams cannot change once it is configured.")
        if name in state.params:
            # A new object: the declaration is shared by every instance.
            state.params[name] = GeneratorParam(state.params[name]._parse(name, value))
        elif name == "autoscheduler":
            if state.autoscheduler.name:
                _fail(f"The GeneratorParam {name} cannot be set more than once")
            state.autoscheduler.name = str(value)
        elif name.startswith("autoscheduler."):
            key = name[len("autoscheduler.") :]
            if key in state.autoscheduler.extra:
                _fail(f"The GeneratorParam {name} cannot be set more than once")
            state.autoscheduler.extra[key] = str(value)
        else:
            state.unknown_params[name] = value

    def _add_io(self, name: str, io: _IO) -> None:
        state = self._halide_state
        gen = self._halide_registered_name
        self._add_name(name)
        types, dims = io._types, io._dimensions
        if f"{name}.type" in state.unknown_params:
            text = state.unknown_params.pop(f"{name}.type")
            if types:
                _fail(
                    f"Cannot set the GeneratorParam {name}.type for {gen} because the value "
                    "is explicitly specified in the Python source."
                )
            types = _parse_types(text) if isinstance(text, str) else _as_types(text)
        if f"{name}.dim" in state.unknown_params:
            value = state.unknown_params.pop(f"{name}.dim")
            if dims != -1:
                _fail(
                    f"Cannot set the GeneratorParam {name}.dim for {gen} because the value "
                    "is explicitly specified in the Python source."
                )
            dims = int(value)
        if io._is_input and len(types) > 1:
            _fail(f"Input {name} takes one type, not {len(types)}")
        state.requirements[name] = _Requirement(name, types, dims)
        (state.inputs if io._is_input else state.outputs)[name] = io

    def _configure(self) -> None:
        state = self._halide_state
        if state.configured:
            return
        outputs_seen = False
        for name, value in _declared(type(self)).items():
            if not isinstance(value, _IO):
                continue
            if value._is_input and outputs_seen and not self.allow_out_of_order_inputs_and_outputs():
                warnings.warn(
                    f"Generator {self._halide_registered_name} declares Input '{name}' after an Output; "
                    "the compiled code takes every Input before every Output, so its calling convention "
                    "differs from the declaration order. Declare Inputs first (or override "
                    "allow_out_of_order_inputs_and_outputs()).",
                    stacklevel=3,
                )
            outputs_seen = outputs_seen or not value._is_input
            self._add_io(name, value)
        if state.unknown_params:
            _fail(
                f"Generator {self._halide_registered_name} has no GeneratorParam(s) named: {list(state.unknown_params)}"
            )
        state.in_configure = True
        try:
            self.configure()
        finally:
            state.in_configure = False
        if not state.outputs:
            _fail(f"Generator '{self._halide_registered_name}' must declare at least one output.")
        state.configured = True

    def _bind_input(self, name: str, value: Any) -> None:
        state = self._halide_state
        r = state.requirements[name]
        if name in state.bound:
            _fail(f"Input {name} was specified multiple times.")
        if state.inputs[name]._is_buffer:
            if not isinstance(value, (Buffer, ImageParam)):
                _fail(f"Input {name} requires an ImageParam or Buffer argument when using call(), but saw {value}")
            if not value.defined():
                _fail(f"Cannot set the value for {name} to an undefined value.")
            if isinstance(value, Buffer):
                image = ImageParam(value.type(), value.dimensions(), name)
                image.set(value)
                value = image
            r.check([value.type()], value.dimensions())
        elif isinstance(value, (bool, int, float)):
            value = Param(r.types[0], name, value)
        else:
            if not isinstance(value, Param):
                _fail(f"Input {name} requires a Param (or scalar literal) argument when using call(), but saw {value}.")
            r.check([value.type()], 0)
        state.bound[name] = value

    def _build_pipeline(self) -> Pipeline:
        state = self._halide_state
        gen = self._halide_registered_name
        if state.built:
            _fail(
                f"Generator '{gen}' has already built its pipeline: a Generator instance is single-use "
                "(create a new instance to build again)."
            )
        state.built = True
        self._configure()
        for name in state.inputs:
            r = state.requirements[name]
            obj = state.bound.get(name)
            if obj is None:
                if state.inputs[name]._is_buffer:
                    obj = ImageParam(r.types[0], r.dimensions, name)
                else:
                    obj = Param(r.types[0], name)
            state.input_objects[name] = obj
            object.__setattr__(self, name, obj)
        for name in state.outputs:
            # Typed (as upstream's): generate() may ask self.output.type()
            # and .dimensions() before defining it, e.g. to cast to it.
            r = state.requirements[name]
            f = Func(r.types if len(r.types) > 1 else r.types[0], r.dimensions, name)
            state.output_funcs[name] = f
            object.__setattr__(self, name, f)
        state.in_generate = True
        try:
            with self.context():
                self.generate()
        finally:
            state.in_generate = False
        for name, f in state.output_funcs.items():
            if not f.defined():
                _fail(f"Output '{name}' was not defined.")
            state.requirements[name].check(list(f.types()), f.dimensions())
        pipeline = Pipeline(list(state.output_funcs.values()))
        for condition, args in state.pipeline_requirements:
            pipeline.add_requirement(condition, *args)
        return pipeline

    def _arguments(self) -> list[Argument]:
        return [Argument(p) for p in self._halide_state.input_objects.values()]

    def _get_arginfos(self) -> list[ArgInfo]:
        """Upstream's introspection of a generator's arguments: each Input
        (declared, then added in configure()), then each Output, with its
        name, direction, kind (an Output is a Buffer, even an OutputScalar,
        as upstream's), types and dimensions, once GeneratorParams filled
        them in. Configures the generator (its GeneratorParams are fixed
        from then on)."""
        self._configure()
        state = self._halide_state
        infos = []
        for ios, direction in ((state.inputs, ArgInfoDirection.Input), (state.outputs, ArgInfoDirection.Output)):
            for name, io in ios.items():
                kind = ArgInfoKind.Buffer if io._is_buffer or not io._is_input else ArgInfoKind.Scalar
                r = state.requirements[name]
                infos.append(ArgInfo(name, direction, kind, list(r.types), r.dimensions))
        return infos

    def _output_names(self) -> dict[str, str]:
        # Outputs keep their field names even when the Func was renamed
        # (another live Func already had the name).
        return {f.name(): name for name, f in self._halide_state.output_funcs.items()}


class _RenamedCallable:
    """A Callable whose arguments are also known by the generator's field names.

    The compiler keeps the names of live Params, ImageParams and Funcs unique
    (a second live ``Param(t, "mask")`` is ``mask$1``), so a generator built
    while another instance's pipeline is alive gets such names; keywords use
    the field names all the same."""

    def __init__(self, callable_: Any, renames: dict[str, str]) -> None:
        self._callable = callable_
        self._renames = renames

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if kwargs:
            kwargs = {self._renames.get(k, k): v for k, v in kwargs.items()}
        return self._callable(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._callable, name)

    def __repr__(self) -> str:
        return repr(self._callable)


# ---------------------------------------------------------------- registration

_generators: dict[str, type[Generator]] = {}


def _check_name_free(name: str) -> None:
    # Interactive sessions (Jupyter, the REPL) redefine generators freely.
    if name in _generators and not hasattr(sys, "ps1"):
        _fail(f"The Generator name {name} is already in use.")


def generator(name: str = "") -> Callable[[type], type[Generator]]:
    """Registers a class as a Generator named `name` (default: ``module.Class``,
    or ``Class`` in ``__main__``)."""

    def register(cls: type) -> type[Generator]:
        if not isinstance(cls, type):
            _fail("@generator can only be used on classes.")
        registered = name or (
            cls.__qualname__ if cls.__module__ == "__main__" else f"{cls.__module__}.{cls.__qualname__}"
        )
        _check_name_free(registered)
        bases = (cls,) if issubclass(cls, Generator) else (cls, Generator)
        new_cls: type[Generator] = type(cls.__name__, bases, {"_halide_registered_name": registered})
        new_cls.__qualname__ = cls.__qualname__
        new_cls.__module__ = cls.__module__
        new_cls.__doc__ = cls.__doc__
        _generators[registered] = new_cls
        return new_cls

    return register


def create_callable_from_generator(
    context: GeneratorContext | Target, name: str, generator_params: dict[str, Any] | None = None
) -> Any:
    """The registered generator `name`, made in `context` (or for a Target)
    with `generator_params` set, compiled to an ``hl.Callable`` (upstream's
    function; the generators are those of ``@hl.generator``)."""
    if isinstance(context, Target):
        context = GeneratorContext(context)
    if not isinstance(context, GeneratorContext):
        raise TypeError(f"create_callable_from_generator() takes a GeneratorContext or Target, got {type(context)}")
    cls = _generators.get(name)
    if cls is None:
        raise HalideError(f"There is no Generator with the name '{name}' currently available.")
    with context:
        g = cls(dict(generator_params or {}))
    return g.compile_to_callable()


def alias(**aliases: dict[str, Any]) -> Callable[[_C], _C]:
    """``@hl.alias(name={"param": value}, ...)`` above ``@hl.generator``: more
    registered names, each with its GeneratorParams set."""

    def register(cls: _C) -> _C:
        for name, params in aliases.items():
            _check_valid_name(name)
            if not getattr(cls, "_halide_registered_name", ""):
                _fail("@alias can only be used in conjunction with @generator.")
            _check_name_free(name)
            if type(params) is not dict:
                _fail(f"The Generator alias {name} specifies something other than a dict.")
            _generators[name] = type(
                name, (cls,), {"_halide_registered_name": name, "_halide_alias_generator_params": params}
            )
        return cls

    return register


def funcs(names: str) -> tuple[Func, ...]:
    """One Func per space-separated name."""
    return tuple(Func(n) for n in names.split(" "))


def vars(names: str) -> tuple[Var, ...]:
    """One Var per space-separated name."""
    return tuple(Var(n) for n in names.split(" "))


# ---------------------------------------------------------------- hl.main()

_USAGE = """\
usage: {prog} -g GENERATOR -o OUTPUT_DIR [-e EMIT,...] [-f FUNCTION] [-n FILE_BASE] target=TARGET [param=value ...]
       {prog} -r RUNTIME_NAME -o OUTPUT_DIR [-e o|static_library] target=TARGET

  -g  the registered generator to run
  -o  directory to write the files into
  -e  what to write (default c_header,static_library,registration): static_library, object (o),
      c_header (h), assembly, bitcode, llvm_assembly, stmt, stmt_html (html), conceptual_stmt,
      conceptual_stmt_html, function_info_header, schedule, featurization, python_extension (py.c),
      registration, shared_library (a .so linked by the compiler itself)
  -f  the function name (default: the generator name); ns::name needs c_plus_plus_name_mangling
  -n  the file base name (default: the function name)
  -r  write a standalone runtime named RUNTIME_NAME instead
  target=  the target string (host, x86-64-linux-avx2, ...)
  param=value  GeneratorParams (and NAME.type, NAME.dim of Inputs and Outputs)

generators: {generators}
"""

# The C++ driver's emit kinds: name -> (OutputFileType, file suffix).
_EMITS: dict[str, tuple[Any, str]] = {
    "static_library": (OutputFileType.static_library, ".a"),
    "object": (OutputFileType.object, ".o"),
    "o": (OutputFileType.object, ".o"),
    "c_header": (OutputFileType.c_header, ".h"),
    "h": (OutputFileType.c_header, ".h"),
    "assembly": (OutputFileType.assembly, ".s"),
    "bitcode": (OutputFileType.bitcode, ".bc"),
    "llvm_assembly": (OutputFileType.llvm_assembly, ".ll"),
    "stmt": (OutputFileType.stmt, ".stmt"),
    "python_extension": (OutputFileType.python_extension, ".py.cpp"),
    "py.c": (OutputFileType.python_extension, ".py.cpp"),
    "shared_library": (OutputFileType.shared_library, ".so"),  # ours: upstream has no such emit kind
    "stmt_html": (OutputFileType.stmt_html, ".stmt.html"),
    "html": (OutputFileType.stmt_html, ".stmt.html"),
    "conceptual_stmt": (OutputFileType.conceptual_stmt, ".conceptual.stmt"),
    "conceptual_stmt_html": (OutputFileType.conceptual_stmt_html, ".conceptual.stmt.html"),
    "function_info_header": (OutputFileType.function_info_header, ".function_info.h"),
    "schedule": (OutputFileType.schedule, ".schedule.h"),
    "featurization": (OutputFileType.featurization, ".featurization"),
    "c_source": (OutputFileType.c_source, ".halide_generated.cpp"),
}
# Upstream's emit kinds this compiler does not write (yet).
_UNSUPPORTED_EMITS = frozenset("cpp cpp_stub pytorch_wrapper compiler_log hlpipe device_code".split())
_FLAGS = "goefnrpdtsv"  # -p -d -t -s -v are accepted and ignored, as in the C++ driver


class _UsageError(Exception):
    pass


def _join(names: Iterator[str] | Sequence[str]) -> str:
    text = ", ".join(names)
    return text or "(none)"


def _registration_source(namespaces: list[str], name: str, cplusplus: bool) -> str:
    # The same file the C++ driver writes for `-e registration`.
    opening = "".join(f"namespace {ns} {{\n" for ns in namespaces)
    closing = "".join(f"}} // namespace {ns}\n" for ns in reversed(namespaces))
    qualified = "::" + "".join(f"{ns}::" for ns in namespaces) + name
    declarations = f"int {name}_argv(void **args);\nconst struct halide_filter_metadata_t *{name}_metadata();\n"
    declared = opening + declarations + closing if cplusplus else 'extern "C" {\n' + declarations + "}\n"
    return (
        f"// Registers {qualified[2:]} with the host program (upstream's emit kind `registration`).\n"
        '#include "HalideRuntime.h"\n\n'
        + declared
        + 'extern "C" void halide_register_argv_and_metadata(int (*filter_argv_call)(void **),\n'
        "                                       const struct halide_filter_metadata_t *filter_metadata,\n"
        "                                       const char *const *extra_key_value_pairs);\n\n"
        "namespace {\n"
        "struct Registerer {\n"
        "    Registerer() {\n"
        "        static const char *const extra[] = {nullptr};\n"
        f"        halide_register_argv_and_metadata({qualified}_argv, {qualified}_metadata(), extra);\n"
        "    }\n"
        "} registerer;\n"
        "} // namespace\n"
    )


def _run(argv: list[str]) -> int:
    prog = argv[0] if argv else "generator"
    flags: dict[str, str] = {}
    params: dict[str, str] = {}
    i = 1
    while i < len(argv):
        a = argv[i]
        if a in ("-help", "--help", "-h"):
            print(_USAGE.format(prog=prog, generators=_join(sorted(_generators))), end="")
            return 0
        if len(a) == 2 and a[0] == "-":
            if a[1] not in _FLAGS:
                raise _UsageError(f"unknown flag '{a}' (run with -help for the usage)")
            if i + 1 >= len(argv):
                raise _UsageError(f"flag {a} needs a value")
            flags[a] = argv[i + 1]
            i += 2
            continue
        key, eq, value = a.partition("=")
        if not eq or not key:
            raise _UsageError(f"unexpected argument '{a}': expected a flag (-g, -o, ...) or key=value")
        params[key] = value
        i += 1
    if "-o" not in flags:
        raise _UsageError("no output directory: give -o DIR")
    out_dir = flags["-o"]
    if "target" not in params:
        raise _UsageError("no target: give target=host or a target string such as x86-64-linux-avx2")
    targets = [Target(t) for t in params.pop("target").split(",")]
    target = targets[-1]

    emits = flags.get("-e", "c_header,static_library,registration").split(",")
    registration = "registration" in emits
    known = [*sorted(_EMITS), "registration"]

    def files_for(base: str) -> dict[Any, str]:
        files = {}
        for e in emits:
            if not e or e == "registration":
                continue
            if e not in _EMITS:
                if e in _UNSUPPORTED_EMITS:
                    raise _UsageError(f"emit kind '{e}' is not supported by this compiler; it writes: {_join(known)}")
                raise _UsageError(f"unknown emit kind '{e}'; known: {_join(known)}")
            kind, suffix = _EMITS[e]
            files[kind] = os.path.join(out_dir, base + suffix)
        return files

    os.makedirs(out_dir, exist_ok=True)
    if "-r" in flags:
        for kind, path in files_for(flags["-r"]).items():
            if kind not in (OutputFileType.object, OutputFileType.static_library):
                raise _UsageError("-r writes a runtime: emit o or static_library")
            compile_standalone_runtime(path, target)
        return 0

    if "-g" not in flags:
        raise _UsageError(f"no generator: give -g NAME (generators: {_join(sorted(_generators))})")
    name = flags["-g"]
    cls = _generators.get(name)
    if cls is None:
        registered = "; registered: " + ", ".join(sorted(_generators)) if _generators else "; none is registered"
        raise _UsageError(f"There is no generator named '{name}'{registered}")
    function = flags.get("-f", name)
    *namespaces, fn_name = function.split("::")
    base = flags.get("-n", fn_name)
    files = files_for(base)

    def build(t: Target) -> tuple[Pipeline, list[Argument], dict[str, str]]:
        # A fresh instance per target: its code may depend on the target. The
        # previous one must be gone, or its Params would keep the names.
        gc.collect()
        with GeneratorContext(t):
            g = cls(dict(params))
        pipeline = g._build_pipeline()
        if g.using_autoscheduler():
            # Ahead-of-time compilation applies it (a Callable does not, as upstream).
            pipeline.apply_autoscheduler(t, g.autoscheduler())
        for field, obj in g._halide_state.input_objects.items():
            if obj.name() != field:
                _fail(f"Input '{field}' is named '{obj.name()}': another live Param or ImageParam has its name")
        return pipeline, g._arguments(), g._output_names()

    if files:
        _compile_generator(files, function, targets, build)
    else:
        build(target)  # still check that the generator builds
    if registration:
        cplusplus = target.has_feature(TargetFeature.CPlusPlusMangling)
        with open(os.path.join(out_dir, base + ".registration.cpp"), "w") as f:
            f.write(_registration_source(namespaces, fn_name, cplusplus))
    return 0


def main(argv: list[str] | None = None) -> None:
    """The generator command line (the C++ driver's): ``-g NAME -o DIR
    [-e KINDS] [-f FUNCTION] [-n BASE] target=T [param=value ...]`` or
    ``-r RUNTIME -o DIR target=T``. Errors are printed to stderr and exit
    with status 1."""
    args = list(sys.argv if argv is None else argv)
    try:
        code = _run(args)
    except (_UsageError, HalideError, ValueError, TypeError, OSError) as e:
        message = str(e).rstrip("\n")  # a compiler error's text ends with one ("Error: ...\n")
        print(f"{args[0] if args else 'generator'}: {message}", file=sys.stderr)
        code = 1
    if code:
        sys.exit(code)
