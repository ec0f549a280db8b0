"""dir() of the halide module and of its classes against upstream Halide 21's
(issue 10: scripts and tab completion written for upstream find the same
names). The names upstream has and ours lacks may only be the ones listed
below, each a documented gap (docs/language.md); a name that goes missing
anywhere else fails the test."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("halide._compiler", reason="the compiler module is not built (runtime-only build)")
import halide as hl  # noqa: E402
from upstream_api import probe_both  # noqa: E402

PROBE = """
import json, halide as hl
out = {"": sorted(n for n in dir(hl) if not n.startswith("_"))}
for name in out[""]:
    obj = getattr(hl, name)
    if isinstance(obj, type):
        out[name] = sorted(n for n in dir(obj) if not n.startswith("_"))
print(json.dumps(out))
"""

# Upstream's names ours does not have yet ("" is the module itself). Either
# not there yet (docs/language.md, "Not there yet") or upstream internals.
KNOWN_GAPS: dict[str, set[str]] = {
    "": set(),
}


@pytest.fixture(scope="module")
def names() -> tuple[dict, dict]:
    return probe_both(PROBE)


def test_only_the_known_gaps_are_missing(names):
    ours, theirs = names
    problems = []
    for scope, upstream_names in theirs.items():
        if scope and scope not in ours:
            if scope not in KNOWN_GAPS[""]:
                problems.append(f"class hl.{scope} is missing")
            continue
        missing = set(upstream_names) - set(ours[scope]) - KNOWN_GAPS.get(scope, set())
        if missing:
            problems.append(f"hl.{scope or '<module>'} lacks {sorted(missing)}")
    assert not problems, "\n".join(problems)


def test_small_upstream_names():
    # install_dir(): the package's directory; wasmrt: upstream's Python name of
    # the WebAssembly runtime OS; RDom.domain(): a TypeError, as upstream's.
    assert Path(hl.install_dir()) == Path(hl.__file__).parent
    assert hl.TargetOS.wasmrt == hl.TargetOS.WebAssemblyRuntime
    assert hl.Target("wasm-32-wasmrt").os == hl.TargetOS.wasmrt
    with pytest.raises(TypeError):
        hl.RDom([(0, 3)]).domain()


def test_every_listed_name_is_there():
    for name in dir(hl):
        assert hasattr(hl, name), name


def test_module_imports_are_not_listed():
    assert not {"Any", "annotations", "importlib"} & set(dir(hl))


@pytest.mark.parametrize(
    ("declaration", "becomes"),
    [
        (lambda: hl.InputBuffer(hl.UInt(8), 2), hl.ImageParam),
        (lambda: hl.InputScalar(hl.Float(32)), hl.Param),
        (lambda: hl.OutputBuffer(hl.UInt(8), 2), hl.Func),
        (lambda: hl.OutputScalar(hl.Int(32)), hl.Func),
    ],
)
def test_generator_declarations_are_what_their_fields_become(declaration, becomes):
    # As upstream's: an InputBuffer is an ImageParam, an OutputBuffer a Func.
    assert isinstance(declaration(), becomes)
