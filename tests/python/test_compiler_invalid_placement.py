"""compute_at a level that is no loop around the Func's uses: upstream 21's
HalideError (observed with the same programs) names the placement, lists the
legal locations, outermost first, and where the Func is used."""

from __future__ import annotations

import pytest

pytest.importorskip("halide._compiler", reason="the compiler module is not built (runtime-only build)")
import halide as hl  # noqa: E402

x, y, z = hl.Var("x"), hl.Var("y"), hl.Var("z")


def _error(out):
    with pytest.raises(hl.HalideError) as info:
        out.realize([4, 4])
    return str(info.value)


def test_var_that_is_no_loop_of_the_consumer():
    g, f = hl.Func("pl_g"), hl.Func("pl_f")
    g[x, y] = x + y
    f[x, y] = g[x, y] + 1
    g.compute_at(f, z)
    assert _error(f) == (
        'Error: Func "pl_g" is computed at the following invalid location:\n'
        "  pl_g.compute_at(pl_f, z);\n"
        "Legal locations for this function are:\n"
        "  pl_g.compute_root();\n"
        "  pl_g.compute_at(pl_f, Var::outermost());\n"
        "  pl_g.compute_at(pl_f, y);\n"
        "  pl_g.compute_at(pl_f, x);\n"
        '"pl_g" is used in the following places:\n'
        " for pl_f.s0.y:\n"
        "  for pl_f.s0.x:\n"
        "   pl_f uses pl_g\n"
        " ...\n"
    )


def test_each_distinct_call_is_a_use():
    # As upstream 21 lists them: g(x, y) and g(x + 1, y) are two uses.
    g, f, h = hl.Func("pl_g4"), hl.Func("pl_f4"), hl.Func("pl_h4")
    g[x, y] = x + y
    f[x, y] = g[x, y] + g[x + 1, y]
    h[x, y] = f[x, y] * 2
    g.compute_at(h, x)
    f.compute_root()
    m = _error(h)
    assert m.endswith(
        '"pl_g4" is used in the following places:\n'
        " for pl_f4.s0.y:\n"
        "  for pl_f4.s0.x:\n"
        "   pl_f4 uses pl_g4\n"
        "   pl_f4 uses pl_g4\n"
        " ...\n"
    ), m


def test_rvar_loop_of_an_update_is_listed():
    r = hl.RDom([(0, 3)], "pl_r")
    g, f = hl.Func("pl_g2"), hl.Func("pl_f2")
    g[x, y] = x + y
    f[x, y] = 0
    f[x, y] += g[x + r.x, y]
    g.compute_at(f, z)
    m = _error(f)
    assert m.startswith(
        'Error: Func "pl_g2" is computed at the following invalid location:\n  pl_g2.compute_at(pl_f2, z);\n'
    )
    legal = m[m.index("Legal locations") : m.index('"pl_g2" is used')]
    lines = legal.splitlines()
    # Upstream names the RVar's loop pl_r$x; the rest is the same.
    assert lines[:5] == [
        "Legal locations for this function are:",
        "  pl_g2.compute_root();",
        "  pl_g2.compute_at(pl_f2, Var::outermost());",
        "  pl_g2.compute_at(pl_f2, y);",
        "  pl_g2.compute_at(pl_f2, x);",
    ]
    assert len(lines) == 6 and lines[5].startswith("  pl_g2.compute_at(pl_f2, pl_r")


def test_two_consumers_leave_only_compute_root():
    g, f, h, o = hl.Func("pl_g3"), hl.Func("pl_f3"), hl.Func("pl_h3"), hl.Func("pl_o3")
    g[x, y] = x + y
    f[x, y] = g[x, y]
    h[x, y] = g[x, y] * 2
    o[x, y] = f[x, y] + h[x, y]
    f.compute_root()
    h.compute_root()
    g.compute_at(f, x)
    m = _error(o)
    assert "  pl_g3.compute_at(pl_f3, x);\nLegal locations for this function are:\n  pl_g3.compute_root();\n" in m
    assert '"pl_g3" is used in the following places:\n' in m
    assert "pl_f3 uses pl_g3\n" in m and "pl_h3 uses pl_g3\n" in m
