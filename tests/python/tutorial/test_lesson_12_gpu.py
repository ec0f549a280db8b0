"""Tutorial, GPU schedules (upstream's lesson 12, written for this project).

The lesson looks for a GPU feature the host supports; this compiler has no
GPU backend, so none is found, the lesson falls back to its CPU schedule,
and a GPU schedule compiled for the host target is refused with upstream's
error ("... requires <Default_GPU> but no compatible target feature is
enabled in target ...").
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("halide._compiler", reason="the compiler module is not built (runtime-only build)")
import halide as hl  # noqa: E402

x, y, c, i = hl.Var("x"), hl.Var("y"), hl.Var("c"), hl.Var("i")
# The lesson's float constant 1.2 is a float32 in Halide; upstream warns about that too.
pytestmark = pytest.mark.filterwarnings("ignore:The floating-point value 1.2:RuntimeWarning")

xo, yo, xi, yi = hl.Var("xo"), hl.Var("yo"), hl.Var("xi"), hl.Var("yi")


def find_gpu_target() -> hl.Target:
    target = hl.get_host_target()
    for f in (hl.TargetFeature.OpenCL, hl.TargetFeature.CUDA, hl.TargetFeature.Vulkan, hl.TargetFeature.Metal):
        new_target = target.with_feature(f)
        if hl.host_supports_target_device(new_target):
            return new_target
    return target


class MyPipeline:
    def __init__(self, input: hl.Buffer) -> None:
        self.lut, self.padded, self.padded16 = hl.Func("lut"), hl.Func("padded"), hl.Func("padded16")
        self.sharpen, self.curved = hl.Func("sharpen"), hl.Func("curved")
        self.input = input
        self.lut[i] = hl.cast(hl.UInt(8), hl.clamp(hl.pow(i / 255.0, 1.2) * 255.0, 0, 255))
        self.padded[x, y, c] = input[hl.clamp(x, 0, input.width() - 1), hl.clamp(y, 0, input.height() - 1), c]
        self.padded16[x, y, c] = hl.cast(hl.UInt(16), self.padded[x, y, c])
        p = self.padded16
        self.sharpen[x, y, c] = p[x, y, c] * 2 - (p[x - 1, y, c] + p[x, y - 1, c] + p[x + 1, y, c] + p[x, y + 1, c]) / 4
        self.curved[x, y, c] = self.lut[self.sharpen[x, y, c]]

    def schedule_for_cpu(self) -> None:
        self.lut.compute_root()
        self.curved.reorder(c, x, y).bound(c, 0, 3).unroll(c)
        self.curved.split(y, yo, yi, 16).parallel(yo)
        self.sharpen.compute_at(self.curved, yi)
        self.sharpen.vectorize(x, 8)
        self.padded.store_at(self.curved, yo).compute_at(self.curved, yi)
        self.padded.vectorize(x, 16)

    def schedule_for_gpu(self) -> None:
        block, thread = hl.Var("block"), hl.Var("thread")
        self.lut.compute_root()
        self.lut.split(i, block, thread, 16).gpu_blocks(block).gpu_threads(thread)
        self.curved.reorder(c, x, y).bound(c, 0, 3).unroll(c)
        self.curved.gpu_tile(x, y, xo, yo, xi, yi, 8, 8)
        self.padded.compute_at(self.curved, xo)
        self.padded.gpu_threads(x, y)

    def realize(self, target: hl.Target | None = None) -> np.ndarray:
        size = [self.input.width(), self.input.height(), self.input.channels()]
        out = self.curved.realize(size, target) if target is not None else self.curved.realize(size)
        return np.asarray(out)


def reference(arr: np.ndarray) -> np.ndarray:
    p = np.pad(arr.astype(np.int64), ((0, 0), (1, 1), (1, 1)), mode="edge")  # (c, y, x), clamped edges
    centre = p[:, 1:-1, 1:-1]
    neighbours = p[:, 1:-1, :-2] + p[:, :-2, 1:-1] + p[:, 1:-1, 2:] + p[:, 2:, 1:-1]
    sharpen = ((centre * 2 - neighbours // 4) % 65536).astype(np.float32)  # uint16 arithmetic wraps
    curve = np.power(sharpen / np.float32(255.0), np.float32(1.2)) * np.float32(255.0)
    return np.clip(curve, 0, 255).astype(np.uint8)


@pytest.fixture(scope="module")
def image() -> hl.Buffer:
    arr = np.random.default_rng(12).integers(0, 256, size=(3, 24, 37), dtype=np.uint8)
    return hl.Buffer(arr)


def test_no_gpu_is_found_so_the_host_target_is_used() -> None:
    target = find_gpu_target()
    assert not target.has_gpu_feature()
    assert target == hl.get_host_target()


def test_cpu_schedule_matches_numpy(image: hl.Buffer) -> None:
    p = MyPipeline(image)
    p.schedule_for_cpu()
    out = p.realize()
    ref = reference(np.asarray(image))
    assert out.shape == ref.shape
    # float32 pow may differ from NumPy's in the last bit: at most one step, rarely.
    diff = np.abs(out.astype(np.int32) - ref)
    assert diff.max() <= 1 and np.count_nonzero(diff) <= out.size // 100
    plain = MyPipeline(image)  # the default schedule computes the same bytes
    np.testing.assert_array_equal(plain.realize(), out)


def test_gpu_schedule_on_the_host_target_is_refused(image: hl.Buffer) -> None:
    p = MyPipeline(image)
    p.schedule_for_gpu()
    with pytest.raises(hl.HalideError, match=r"requires <Default_GPU> but no compatible target feature is enabled"):
        p.realize(hl.get_host_target())
