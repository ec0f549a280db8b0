"""Func names in compiled output, as upstream Halide 21 prints them.

A name already taken by a live Func gets a "$n" suffix (f, f$1, f$2); a
pipeline compiled without a function name is named after its output with
every character that is not a letter or digit made '_' (f$2 -> f_2), while
the statement keeps the Func's own name for its output buffer. The
names checked here are those in upstream 21's statement for this pipeline.
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("halide._compiler", reason="the compiler module is not built (runtime-only build)")
import halide as hl  # noqa: E402


def test_unique_names_and_the_lowered_statement_of_a_renamed_func(tmp_path: Path) -> None:
    x = hl.Var("x")
    f = hl.Func("f")
    f[x] = x
    g = hl.Func("f")
    g[x] = f[x] * 2
    h = hl.Func("f")
    p = hl.Param(hl.Int(32), "p")
    h[x] = g[x] + p
    assert [f.name(), g.name(), h.name()] == ["f", "f$1", "f$2"]
    stmt = tmp_path / "h.stmt"
    h.compile_to_lowered_stmt(str(stmt), [p])
    text = stmt.read_text()
    assert "f_2" in text.splitlines()[0]  # the function's name
    assert 'buffer_argument_is_null' in text and '"f$2")' in text  # the output buffer keeps its name
    assert "f$1" not in text and "f_1" not in text  # inlined

