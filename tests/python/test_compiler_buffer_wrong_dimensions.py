"""An hl.Buffer indexed with the wrong number of coordinates, as upstream 21
(observed): integer coordinates (element access) raise ValueError
"Incorrect number of dimensions"; Expr coordinates (a call in a definition)
raise hl.HalideError "Dimensionality mismatch accessing Buffer bb. There
were 1 arguments, but the Buffer has 2 dimensions:\\n  bb(x)"."""

from __future__ import annotations

import pytest

pytest.importorskip("halide._compiler", reason="the compiler module is not built (runtime-only build)")
import halide as hl  # noqa: E402

x = hl.Var("x")


@pytest.mark.parametrize("index", [1, (1, 2, 3), (), [1]])
def test_integer_coordinates_raise_value_error(index):
    b = hl.Buffer(hl.Int(32), [3, 4])
    with pytest.raises(ValueError, match="Incorrect number of dimensions"):
        b[index]
    with pytest.raises(ValueError, match="Incorrect number of dimensions"):
        b[index] = 5
    assert b[1, 2] == b[1, 2]  # the right number still works


def test_expr_coordinates_raise_halide_error():
    b = hl.Buffer(hl.Int(32), [3, 4], "wd_bb")
    with pytest.raises(hl.HalideError) as info:
        b[x]
    assert "Dimensionality mismatch accessing Buffer wd_bb. There were 1 arguments, but the Buffer has 2 " in str(
        info.value
    )
    assert "dimensions:\n  wd_bb(x)" in str(info.value)
    with pytest.raises(
        hl.HalideError, match=r"There were 3 arguments, but the Buffer has 2 dimensions:\n  wd_bb\(1, x, 3\)"
    ):
        b[1, x, 3]
    with pytest.raises(hl.HalideError, match="There were 1 arguments"):
        b[hl.Expr(1)]
