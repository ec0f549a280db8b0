"""halide.halide_: upstream's name for its compiler extension module, here
the compiler module itself (halide._compiler), so names upstream's classes
show (halide.halide_._UnevaluatedFuncRefExpr) resolve to ours."""

from __future__ import annotations

import sys

from halide import _load_compiler

_compiler = _load_compiler()
if _compiler is None:
    raise ImportError("halide.halide_ is the Halide compiler, which is not installed (pip install halide)")
sys.modules[__name__] = _compiler
