"""Halide for Python.

This package is lazy (PEP 562): ``import halide.runtime`` loads only the
standalone runtime, never the compiler, even when the compiler is installed.
The compiler API (``halide.Func``, ``halide.Var``, ...) is loaded on first
use from the ``halide`` distribution; in an install that has only
``halide-runtime`` it raises an ImportError that says so.
"""

from __future__ import annotations

import importlib
from typing import Any

# This module's own imports: not part of halide's API, so not in dir().
_IMPORTED = frozenset(globals())

_SUBMODULES = frozenset({"imageio", "runtime"})

# Provided by the `halide` distribution (the compiler bindings).
_COMPILER_MODULE = "halide._compiler"

# Python generators (halide/_generator.py, also part of the compiler).
_GENERATOR_MODULE = "halide._generator"
_GENERATOR_NAMES = frozenset(
    {
        "AutoschedulerParams",
        "Generator",
        "GeneratorContext",
        "GeneratorParam",
        "InputBuffer",
        "InputScalar",
        "OutputBuffer",
        "OutputScalar",
        "active_generator_context",
        "alias",
        "create_callable_from_generator",
        "funcs",
        "generator",
        "main",
        "vars",
    }
)


def install_dir() -> str:
    """The directory this package is installed in (as upstream's)."""
    from pathlib import Path

    return str(Path(__file__).parent)


def _load_halide_bin() -> None:
    """Load the halide-bin wheel's libhalide by its absolute path first.

    halide._compiler needs libhalide.so; once this copy is loaded, the dynamic
    loader gives the extension this one (it matches loaded libraries by name),
    so none found earlier on LD_LIBRARY_PATH can take its place. Only for the
    halide-bin beside this package: a development build keeps its own.
    """
    from pathlib import Path

    try:
        import halide_bin
    except ImportError:
        return
    if Path(halide_bin.__file__).parent.parent == Path(__file__).parent.parent:
        halide_bin.load()


def _load_compiler() -> Any:
    """The compiler module, or None in a runtime-only install. It is also
    halide.halide_ (halide/halide_.py), upstream's name for it."""
    try:
        _load_halide_bin()
        return importlib.import_module(_COMPILER_MODULE)
    except ModuleNotFoundError as e:
        if e.name != _COMPILER_MODULE:
            raise
        return None


def __getattr__(name: str) -> Any:
    if name in _SUBMODULES:
        return importlib.import_module(f"{__name__}.{name}")
    if name == "__all__":
        return _star_names()
    if name.startswith("__"):
        raise AttributeError(name)
    compiler = _load_compiler()
    if compiler is None:
        raise ImportError(
            f"halide.{name} belongs to the Halide compiler, which is not installed: "
            "this environment has only the standalone runtime (halide-runtime). "
            "Install the compiler with `pip install halide`, or use halide.runtime "
            "to load precompiled kernels.",
            name=__name__,
        )
    if name in _GENERATOR_NAMES:
        value = getattr(importlib.import_module(_GENERATOR_MODULE), name)
    elif name == "halide_":
        value = importlib.import_module(f"{__name__}.halide_")
    else:
        value = getattr(compiler, name)
    globals()[name] = value
    return value


def _star_names() -> list[str]:
    """What `from halide import *` binds: the public names dir() lists, as
    upstream's module (which star-imports its extension) gives them. The
    submodules stay out, so a star import loads neither imageio nor runtime."""
    return [n for n in __dir__() if n not in _SUBMODULES]


def __dir__() -> list[str]:
    """Every public name, the compiler's too when it is installed (loading it).

    dir() and tab completion should show what ``halide.<name>`` gives, as
    upstream's module does; in a runtime-only install that is the runtime.
    """
    names = {n for n in globals() if n not in _IMPORTED and not n.startswith("_")} | _SUBMODULES
    compiler = _load_compiler()
    if compiler is not None:
        names |= {n for n in dir(compiler) if not n.startswith("_")} | _GENERATOR_NAMES | {"halide_"}
    return sorted(names)
