"""Installed kernels pickle by registry name and plugin version (never by
path), so multiprocessing and concurrent.futures ship them to workers, which
look the name up in their own registry."""

from __future__ import annotations

import importlib.util
import json
import os
import pickle
import subprocess

import numpy as np
import pytest
from conftest import fixture_path
from test_registry import BRIGHTEN_ARGS, kernel_entry, manifest, site  # noqa: F401 - site is a fixture


def test_pickles_by_name_and_version(site, hlr):  # noqa: F811
    site.add("p-kernels", {"p": manifest(kernel_entry("brighten", "libbrighten.so", arguments=BRIGHTEN_ARGS))},
             version="2.5")
    kernel = hlr.kernel("p.brighten")
    data = pickle.dumps(kernel)
    assert b"libbrighten" not in data and str(site.root).encode() not in data
    assert b"p.brighten" in data and b"2.5" in data
    again = pickle.loads(data)
    image = np.arange(12, dtype=np.uint8).reshape(3, 4) * 20
    want = np.clip(image.astype(int) + 30, 0, 255).astype(np.uint8)
    np.testing.assert_array_equal(again(image, 30, output_shape=image.shape), want)


def test_another_installed_version_is_refused(site, hlr):  # noqa: F811
    from halide.runtime._pickle import unpickle_kernel

    site.add("p-kernels", {"p": manifest(kernel_entry("brighten", "libbrighten.so"))}, version="2.5")
    with pytest.raises(pickle.UnpicklingError, match=r"pickled from p-kernels 2.4, but this process has p-kernels 2.5"):
        unpickle_kernel("p-kernels", "p.brighten", "2.4")
    with pytest.raises(pickle.UnpicklingError, match=r"no such installed kernel: install q-kernels==1.0"):
        unpickle_kernel("q-kernels", "q.brighten", "1.0")


def test_kernel_loaded_from_a_path_does_not_pickle(hlr):
    kernel = hlr.load(fixture_path("brighten"))
    with pytest.raises(TypeError, match=r"loaded from a file with halide.runtime.load\(\).*pickle, by name"):
        pickle.dumps(kernel)


POOL = """
import json
from concurrent.futures import ProcessPoolExecutor
import multiprocessing
import numpy as np
import halide.runtime as hlr

def tiles(image, size):
    return [image[y:y + size, x:x + size] for y in range(0, image.shape[0], size)
            for x in range(0, image.shape[1], size)]

def run(kernel, tile):
    import os
    return os.getpid(), kernel(tile, output_shape=tile.shape)

if __name__ == "__main__":
    invert = hlr.kernel("imaging.invert")
    image = np.random.default_rng(3).integers(0, 256, size=(96, 128), dtype=np.uint8)
    parts = tiles(image, 32)
    # spawn: the workers start from scratch and find the kernel by name.
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn")) as pool:
        results = list(pool.map(run, [invert] * len(parts), parts))
    serial = [invert(t, output_shape=t.shape) for t in parts]
    print(json.dumps({
        "workers": len({pid for pid, _ in results} - {__import__("os").getpid()}),
        "same_as_serial": all(np.array_equal(r, s) for (_, r), s in zip(results, serial)),
        "max_error": max(int(np.abs(r.astype(int) - (255 - t.astype(int))).max()) for (_, r), t in zip(results, parts)),
        "tiles": len(parts),
    }))
"""


@pytest.mark.nosanitize
def test_process_pool_maps_a_kernel_over_tiles(wheel_venv, tmp_path):
    script = tmp_path / "pool.py"
    script.write_text(POOL)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    proc = subprocess.run([str(wheel_venv), str(script)], capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    r = json.loads(proc.stdout)
    assert r["tiles"] == 12 and r["workers"] >= 1
    assert r["same_as_serial"] and r["max_error"] == 0


DASK = """
import json
import numpy as np
import halide.runtime as hlr
from dask.distributed import Client, LocalCluster

def blur_tile(kernel, padded):
    # padded: the tile with its one-pixel border; the output is the tile.
    source = hlr.Buffer(padded, "input")
    source.translate(0, -1)
    source.translate(1, -1)
    h, w = padded.shape[0] - 2, padded.shape[1] - 2
    return kernel(source, output_shape=(h, w))

if __name__ == "__main__":
    blur = hlr.kernel("imaging.box_blur")
    image = np.random.default_rng(5).random((66, 98), dtype=np.float32)  # 64 x 96 and a border
    corners = [(y, x) for y in range(0, 64, 32) for x in range(0, 96, 32)]
    tiles = [np.ascontiguousarray(image[y:y + 34, x:x + 34]) for y, x in corners]
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \\
            Client(cluster) as client:
        futures = client.map(blur_tile, [blur] * len(tiles), tiles, pure=False)
        results = client.gather(futures)
        workers = client.scheduler_info()["workers"]
    mosaic = np.zeros((64, 96), np.float32)
    for (y, x), r in zip(corners, results):
        mosaic[y:y + 32, x:x + 32] = r
    serial = blur_tile(blur, image)
    ref = image.astype(np.float64)
    want = sum(ref[1 + dy:65 + dy, 1 + dx:97 + dx] for dy in (-1, 0, 1) for dx in (-1, 0, 1)) / 9
    print(json.dumps({"workers": len(workers), "same_as_serial": bool(np.array_equal(mosaic, serial)),
                      "max_error": float(np.abs(mosaic - want).max())}))
"""


@pytest.mark.nosanitize
def test_dask_local_cluster_maps_a_kernel_over_tiles(wheel_venv, tmp_path):
    # Looked up, not imported: distributed and its C extensions have no business in this process
    # (the cluster runs in the wheel venv's interpreter); requirements-dev.txt pins it.
    assert importlib.util.find_spec("distributed"), "dask[distributed] is not installed (requirements-dev.txt)"
    script = tmp_path / "dask_tiles.py"
    script.write_text(DASK)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    proc = subprocess.run([str(wheel_venv), str(script)], capture_output=True, text=True, env=env, timeout=180,
                          cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr[-3000:]
    r = json.loads(proc.stdout.strip().splitlines()[-1])
    assert r["workers"] == 2, r
    assert r["same_as_serial"] and r["max_error"] < 1e-5, r
