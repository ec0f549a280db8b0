"""NumPy references and shared inputs for the pipelines in examples/
(test_examples.py); imported by our Python and by upstream Halide's, so it
needs only NumPy and the examples (on sys.path)."""

from __future__ import annotations

import histogram_equalization
import iir_blur
import matrix_multiply
import numpy as np

# ---- NumPy references (written from the algorithms' descriptions) ----


def ref_equalize(img: np.ndarray) -> np.ndarray:
    n = img.size
    hist = np.bincount(img.ravel(), minlength=256).astype(np.int64)
    cdf = np.cumsum(hist)
    cdf_min = int(hist[img.min()])
    span = n - cdf_min
    if span == 0:
        return img.copy()
    lut = (np.maximum(cdf - cdf_min, 0) * 255 + span // 2) // span
    return lut.astype(np.uint8)[img]


def ref_iir_columns(a: np.ndarray, alpha: float) -> np.ndarray:
    alpha32 = np.float32(alpha)
    one = np.float32(1) - alpha32
    down = a.astype(np.float32).copy()
    for y in range(1, a.shape[0]):
        down[y] = one * a[y] + alpha32 * down[y - 1]
    up = down.copy()
    for y in range(a.shape[0] - 2, -1, -1):
        up[y] = one * down[y] + alpha32 * up[y + 1]
    return up


def ref_iir(a: np.ndarray, alpha: float) -> np.ndarray:
    return ref_iir_columns(ref_iir_columns(a, alpha).T.copy(), alpha).T


# ---- Inputs, shared with the upstream run ----


def inputs() -> dict[str, np.ndarray]:
    rng = np.random.default_rng(7)
    return {
        "he_image": histogram_equalization.test_image(53, 37),
        "he_random": rng.integers(30, 90, size=(19, 41), dtype=np.uint8),
        "he_constant": np.full((5, 7), 77, dtype=np.uint8),
        "mm_a": rng.standard_normal((37, 29)).astype(np.float32),
        "mm_b": rng.standard_normal((29, 45)).astype(np.float32),
        "dot_a": rng.standard_normal(203).astype(np.float32),
        "dot_b": rng.standard_normal(203).astype(np.float32),
        "iir": rng.random((27, 45), dtype=np.float32),
    }


def run_examples(data: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Every example on `data`; also run by upstream's Python (UPSTREAM_SCRIPT)."""
    return {
        "he_image": histogram_equalization.equalize(data["he_image"]),
        "he_random": histogram_equalization.equalize(data["he_random"]),
        "he_constant": histogram_equalization.equalize(data["he_constant"]),
        "mm": matrix_multiply.multiply(data["mm_a"], data["mm_b"]),
        "dot": np.array(matrix_multiply.dot_product(data["dot_a"], data["dot_b"])),
        "iir": iir_blur.blur(data["iir"], 0.7),
    }


def check_against_numpy(data: dict[str, np.ndarray], out: dict[str, np.ndarray]) -> None:
    for name in ("he_image", "he_random", "he_constant"):
        np.testing.assert_array_equal(out[name], ref_equalize(data[name]), err_msg=name)
    np.testing.assert_allclose(out["mm"], data["mm_a"].astype(np.float64) @ data["mm_b"], rtol=1e-4, atol=1e-4)
    exact_dot = float(np.dot(data["dot_a"].astype(np.float64), data["dot_b"]))
    np.testing.assert_allclose(float(out["dot"]), exact_dot, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(out["iir"], ref_iir(data["iir"], 0.7), rtol=1e-5, atol=1e-6)
