"""Kernels built by upstream Halide 21 with a memoized Func run under our
runtime's memoization cache (halide_memoization_cache_lookup, _store,
_release, _evict, _set_size, _cleanup).

The memoized Func prints a line per point it computes (hl.print); the C
driver counts the lines through halide_set_custom_print across calls with
the same and other Param values, regions, a small cache size and an
eviction, and checks every output. The counts must be the ones the cache's
contract implies and the same as with upstream's own runtime embedded in
the kernel. The same kernel built by our compiler gives the same counts
under our runtime.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from c_link import C_INT32_BUFFER, NEEDS_UPSTREAM_AND_CC, link_driver
from conftest import REPO
from upstream_api import UPSTREAM_PY, upstream_env

pytestmark = NEEDS_UPSTREAM_AND_CC

GENERATE = """
import sys
import halide as hl
x, y = hl.Var("x"), hl.Var("y")
p = hl.Param(hl.Int(32), "p")
k = hl.Param(hl.UInt(64), "k")
f, g = hl.Func("f"), hl.Func("g")
f[x, y] = hl.print(x + 10 * y + p)
g[x, y] = 2 * f[x, y]
f.compute_root().memoize(hl.EvictionKey(k))
t = hl.get_host_target()
if sys.argv[2] == "no_runtime":
    t = t.with_feature(hl.TargetFeature.NoRuntime)
out = sys.argv[1]
g.compile_to({hl.OutputFileType.object: out + "/memo.o", hl.OutputFileType.c_header: out + "/memo.h"},
             [p, k], "memo", t)
"""

DRIVER = r"""
#include <stdio.h>
#include <string.h>
#include "HalideRuntime.h"
#include "memo.h"
/* buffer helper */

static int printed = 0;
static void count_print(void *user_context, const char *message) {
    (void)user_context;
    (void)message;
    printed++;
}

/* g over w x 4 with p and eviction key k; checked against 2 * (x + 10 y + p). */
static int run(int p, int w) {
    int data[4][8];
    halide_dimension_t dims[2] = {{0, w, 1, 0}, {0, 4, 8, 0}};
    halide_buffer_t out = int32_buffer(&data[0][0], dims);
    int r = memo(p, 7, &out);
    if (r != 0) {
        return r;
    }
    for (int y = 0; y < 4; y++) {
        for (int x = 0; x < w; x++) {
            if (data[y][x] != 2 * (x + 10 * y + p)) {
                printf("wrong value at %d, %d\n", x, y);
                return 1;
            }
        }
    }
    printf("%d ", printed);
    return 0;
}

int main(void) {
    halide_set_custom_print(count_print);
    int r = 0;
    /* Same values hit, new ones miss, both stay (the default size is 1 MiB). */
    r |= run(1, 8);
    r |= run(1, 8);
    r |= run(2, 8);
    r |= run(1, 8);
    r |= run(2, 8);
    /* Another region. */
    r |= run(2, 4);
    /* Room for one 8 x 4 result (128 bytes): each new value pushes out the last. */
    halide_memoization_cache_set_size(200);
    r |= run(3, 8);
    r |= run(1, 8);
    r |= run(3, 8);
    r |= run(3, 8);
    /* Evicting the Func's key (7) drops its entries. */
    halide_memoization_cache_evict(NULL, 8);
    r |= run(3, 8);
    halide_memoization_cache_evict(NULL, 7);
    r |= run(3, 8);
    halide_memoization_cache_cleanup();
    r |= run(3, 8);
    printf("\n");
    return r;
}
"""

EXPECTED = "32 32 64 64 64 80 112 144 176 176 176 208 240"


def build(tmp: Path, kind: str, include: Path, runtime: bool, python: str = str(UPSTREAM_PY)) -> Path:
    out = tmp / kind
    out.mkdir()
    env = upstream_env() if python == str(UPSTREAM_PY) else None
    subprocess.run([python, "-c", GENERATE, str(out), kind], check=True, env=env)
    (out / "driver.c").write_text(DRIVER.replace("/* buffer helper */", C_INT32_BUFFER))
    return link_driver(out / "driver", [out / "driver.c", out / "memo.o"], [out, include], [], runtime)


def test_upstream_memoized_kernel_under_our_runtime(tmp_path):
    exe = build(tmp_path, "no_runtime", REPO / "runtime" / "include", True)
    result = subprocess.run([str(exe)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip() == EXPECTED


def test_same_counts_as_upstreams_own_runtime(tmp_path):
    upstream_include = UPSTREAM_PY.parents[1] / "lib" / "python3.11" / "site-packages" / "halide" / "include"
    exe = build(tmp_path, "embedded", upstream_include, False)
    result = subprocess.run([str(exe)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip() == EXPECTED


def test_our_memoized_kernel_under_our_runtime(tmp_path):
    pytest.importorskip("halide._compiler", reason="the compiler module is not built (runtime-only build)")
    exe = build(tmp_path, "no_runtime", REPO / "runtime" / "include", True, python=sys.executable)
    result = subprocess.run([str(exe)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip() == EXPECTED
