"""Tutorial, multi-stage pipelines and where producers are computed (upstream's lessons 7 and 8,
written for this project).

A Func can call other Funcs. By default a producer is inlined (recomputed
for each use); compute_root computes it once over the whole region the
consumer needs; compute_at computes it per iteration of a consumer loop;
store_root + compute_at keeps it in one buffer and reuses what is already
computed. The values never change; the number of producer evaluations
(counted with hl.print) does, and is checked against what each schedule
implies.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("halide._compiler", reason="the compiler module is not built (runtime-only build)")
import halide as hl  # noqa: E402

x, y, c = hl.Var("x"), hl.Var("y"), hl.Var("c")


def blur_reference(image: np.ndarray) -> np.ndarray:
    """A 3x3 box blur of (C, H, W) uint8, in two passes of uint16 sums: the output is 2 pixels smaller."""
    wide = image.astype(np.uint16)
    horizontal = wide[:, :, :-2] + wide[:, :, 1:-1] + wide[:, :, 2:]
    vertical = horizontal[:, :-2, :] + horizontal[:, 1:-1, :] + horizontal[:, 2:, :]
    return (vertical // 9).astype(np.uint8)


def two_pass_blur(input: hl.Buffer) -> tuple[hl.Func, hl.Func]:
    blur_x, blur_y = hl.Func("blur_x"), hl.Func("blur_y")
    wide = hl.Func("wide")
    wide[x, y, c] = hl.u16(input[x, y, c])
    blur_x[x, y, c] = wide[x, y, c] + wide[x + 1, y, c] + wide[x + 2, y, c]
    blur_y[x, y, c] = hl.u8((blur_x[x, y, c] + blur_x[x, y + 1, c] + blur_x[x, y + 2, c]) // 9)
    return blur_x, blur_y


@pytest.mark.parametrize("schedule", ["inline", "root", "at_y", "tiled"])
def test_two_pass_blur(schedule: str) -> None:
    rng = np.random.default_rng(7)
    image = rng.integers(0, 256, size=(3, 40, 50), dtype=np.uint8)
    input = hl.Buffer(image)
    blur_x, blur_y = two_pass_blur(input)
    if schedule == "root":
        blur_x.compute_root()
    elif schedule == "at_y":
        blur_x.compute_at(blur_y, y)
    elif schedule == "tiled":
        tx, ty, txi, tyi = hl.Var("tx"), hl.Var("ty"), hl.Var("txi"), hl.Var("tyi")
        blur_y.tile(x, y, tx, ty, txi, tyi, 16, 8).parallel(ty).vectorize(txi, 8)
        blur_x.compute_at(blur_y, tx).vectorize(x, 8)
    # Over the region whose 3x3 neighbourhood is inside the input.
    out = blur_y.realize([48, 38, 3])
    np.testing.assert_array_equal(np.asarray(out), blur_reference(image))


def test_boundary_condition_with_clamp() -> None:
    image = np.arange(5 * 7, dtype=np.uint8).reshape(5, 7)
    input = hl.Buffer(image)
    clamped = hl.Func("clamped")
    clamped[x, y] = input[hl.clamp(x, 0, 6), hl.clamp(y, 0, 4)]
    shifted = hl.Func("shifted")
    shifted[x, y] = clamped[x - 1, y + 1]
    out = np.asarray(shifted.realize([7, 5]))  # reads outside the input on two edges
    rows = np.clip(np.arange(5) + 1, 0, 4)
    cols = np.clip(np.arange(7) - 1, 0, 6)
    np.testing.assert_array_equal(out, image[np.ix_(rows, cols)])


def counted(capfd: pytest.CaptureFixture[str], schedule: str, width: int = 4, height: int = 4) -> int:
    """Realizes a consumer of a 2x2-neighbourhood producer; returns how often the producer ran."""
    producer, consumer = hl.Func("producer_" + schedule), hl.Func("consumer_" + schedule)
    producer[x, y] = hl.print(x * y, "producer")
    consumer[x, y] = producer[x, y] + producer[x, y + 1] + producer[x + 1, y] + producer[x + 1, y + 1]
    if schedule == "root":
        producer.compute_root()
    elif schedule == "at_y":
        producer.compute_at(consumer, y)
    elif schedule == "store_root_at_y":
        producer.store_root().compute_at(consumer, y)
    elif schedule == "at_x":
        producer.compute_at(consumer, x)
    capfd.readouterr()
    out = np.asarray(consumer.realize([width, height]))
    ys, xs = np.mgrid[0:height, 0:width]
    np.testing.assert_array_equal(out, xs * ys + xs * (ys + 1) + (xs + 1) * ys + (xs + 1) * (ys + 1))
    return sum(1 for line in capfd.readouterr().out.splitlines() if line.endswith("producer"))


def test_where_the_producer_is_computed_sets_how_often(capfd: pytest.CaptureFixture[str]) -> None:
    assert counted(capfd, "inline") == 4 * 4 * 4  # four calls per consumer point
    assert counted(capfd, "root") == 5 * 5  # once per point of the region needed
    assert counted(capfd, "at_y") == 4 * 2 * 5  # two rows of five, per consumer row
    assert counted(capfd, "at_x") == 4 * 4 * 4  # a 2x2 region per consumer point
    # Stored for the whole image and computed per row: with upstream's sliding window each row
    # computes only the line it adds (5 * 5 in all); without it (this compiler until issue 14's
    # sliding window lands) two lines per row, as compute_at.
    assert counted(capfd, "store_root_at_y") in (5 * 5, 4 * 2 * 5)
