"""hl.ArgInfo, hl.ArgInfoDirection and hl.ArgInfoKind: a Python generator's
_get_arginfos() describes its Inputs and Outputs as upstream Halide 21's
does (each Input, then each Output; types and dimensions filled in from
GeneratorParams), checked against upstream's answers for the same
generator."""

from __future__ import annotations

import pytest

pytest.importorskip("halide._compiler", reason="the compiler module is not built (runtime-only build)")
import halide as hl  # noqa: E402
from upstream_api import UPSTREAM_PY, probe_both  # noqa: E402

PROBE = """
import json, halide as hl

@hl.generator(name="arginfo_probe")
class ArgInfoProbe:
    scale = hl.GeneratorParam(2)
    inp = hl.InputBuffer(None, 2)
    offset = hl.InputScalar(hl.Int(32))
    out = hl.OutputBuffer(None, None)
    count = hl.OutputScalar(hl.Float(32))

    def configure(self):
        self.add_input("extra", hl.InputBuffer(hl.UInt(8), 1))
        self.add_output("pair", hl.OutputBuffer([hl.UInt(8), hl.Float(64)], 1))

    def generate(self):
        x, y = hl.Var("x"), hl.Var("y")
        self.out[x, y] = hl.cast(hl.UInt(16), self.inp[x, y] * self.scale + self.offset)
        self.count[()] = hl.f32(1)
        self.pair[x] = (self.extra[x], hl.f64(x))

out = {}
with hl.GeneratorContext(hl.Target("host")):
    g = ArgInfoProbe({"inp.type": hl.UInt(16), "out.type": hl.UInt(16), "out.dim": 2})
    infos = g._get_arginfos()
out["infos"] = [[a.name, a.dir.name, a.kind.name, [str(t) for t in a.types], a.dimensions] for a in infos]
out["list"] = type(infos).__name__
a = hl.ArgInfo("f", hl.ArgInfoDirection.Output, hl.ArgInfoKind.Function, [hl.Int(8)], 3)
out["made"] = [a.name, a.dir.name, a.kind.name, [str(t) for t in a.types], a.dimensions]
d = hl.ArgInfo()
out["default"] = [d.name, d.dir.name, d.kind.name, list(d.types), d.dimensions]
out["values"] = {k: int(v) for e in (hl.ArgInfoDirection, hl.ArgInfoKind) for k, v in e.__members__.items()}
try:
    a.name = "g"
    out["settable"] = True
except AttributeError:
    out["settable"] = False
print(json.dumps(out))
"""


@pytest.mark.skipif(not UPSTREAM_PY.exists(), reason="upstream Halide 21 is not built")
def test_arginfos_match_upstream():
    ours, theirs = probe_both(PROBE)
    assert ours == theirs


def test_arginfos_of_a_generator():
    @hl.generator(name="arginfo_local")
    class Local:
        t = hl.GeneratorParam(hl.UInt(8))
        inp = hl.InputBuffer(hl.UInt(8), 3)
        k = hl.InputScalar(hl.Float(32))
        out = hl.OutputBuffer(None, 3)

        def generate(self):
            x, y, c = hl.Var("x"), hl.Var("y"), hl.Var("c")
            self.out[x, y, c] = hl.cast(self.t, self.inp[x, y, c] * self.k)

    with hl.GeneratorContext(hl.Target("host")):
        infos = Local({"out.type": "uint8"})._get_arginfos()
    got = [(a.name, a.dir, a.kind, [str(t) for t in a.types], a.dimensions) for a in infos]
    assert got == [
        ("inp", hl.ArgInfoDirection.Input, hl.ArgInfoKind.Buffer, ["uint8"], 3),
        ("k", hl.ArgInfoDirection.Input, hl.ArgInfoKind.Scalar, ["float32"], 0),
        ("out", hl.ArgInfoDirection.Output, hl.ArgInfoKind.Buffer, ["uint8"], 3),
    ]
    assert "'inp'" in repr(infos[0])


def test_arginfos_need_types_and_dimensions():
    @hl.generator(name="arginfo_untyped")
    class Untyped:
        inp = hl.InputBuffer(None, 2)
        out = hl.OutputBuffer(hl.UInt(8), 2)

        def generate(self):
            x, y = hl.Var("x"), hl.Var("y")
            self.out[x, y] = hl.u8(self.inp[x, y])

    with hl.GeneratorContext(hl.Target("host")):
        g = Untyped()
        with pytest.raises(hl.HalideError, match="No type has been specified for inp"):
            g._get_arginfos()
