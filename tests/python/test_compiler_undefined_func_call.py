"""Calling a Func not yet defined in another Func's definition: upstream 21
(observed) raises hl.HalideError when the definition is made, naming the
Func called: "Can't call Func "g" because it has not yet been defined.", or,
for g[x] + e (taken as an update of g, as upstream's Python does), "Cannot
use an unevaluated reference to 'g' to define an update at a different
location." Nothing is left to realize."""

from __future__ import annotations

import pytest

pytest.importorskip("halide._compiler", reason="the compiler module is not built (runtime-only build)")
import halide as hl  # noqa: E402

x = hl.Var("x")


@pytest.mark.parametrize(
    ("define", "words"),
    [
        (
            lambda f, g: f.__setitem__(x, g[x] + 1),
            r"unevaluated reference to 'ud_g(\$\d+)?' to define an update at a different",
        ),
        (
            lambda f, g: f.__setitem__(x, g[x] * x),
            r"unevaluated reference to 'ud_g(\$\d+)?' to define an update at a different",
        ),
        (
            lambda f, g: f.__setitem__(x, 1 + g[x]),
            r'Can\'t call Func "ud_g(\$\d+)?" because it has not yet been defined',
        ),
        (
            lambda f, g: f.__setitem__(x, g[x]),
            r'Can\'t call Func "ud_g(\$\d+)?" because it has not yet been defined',
        ),
        (
            lambda f, g: f.__setitem__(x, hl.Expr(g[x])),
            r'Can\'t call Func "ud_g(\$\d+)?" because it has not yet been defined',
        ),
    ],
)
def test_definition_calling_an_undefined_func_raises(define, words):
    g, f = hl.Func("ud_g"), hl.Func("ud_f")
    with pytest.raises(hl.HalideError, match=words):
        define(f, g)
    assert not f.defined()
    with pytest.raises(hl.HalideError):
        f.realize([4])


def test_typed_undefined_func_is_no_exception():
    # Types and dimensions declared, still no definition: the same errors.
    g, f = hl.Func(hl.Int(32), 1, "ud_typed_g"), hl.Func("ud_typed_f")
    with pytest.raises(hl.HalideError, match="unevaluated reference to 'ud_typed_g' to define an update"):
        f[x] = g[x] + 1
    with pytest.raises(hl.HalideError, match='Can\'t call Func "ud_typed_g" because it has not yet been defined'):
        f[x] = hl.Expr(g[x]) * 2


def test_unevaluated_reference_names_its_own_func():
    f = hl.Func("ud_ref_f")
    ref = f[x]
    ref += 1
    other = hl.Func("ud_other")
    with pytest.raises(hl.HalideError, match="'ud_ref_f' to define an update at a different location"):
        other[x] = ref
