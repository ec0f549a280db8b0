"""Async kernels across runtimes: a kernel with async producers (a folded
line buffer and a ring buffer) calls halide_do_parallel_tasks and the
semaphore functions. Built by our compiler it runs under upstream Halide
21's standalone runtime and under ours. The C driver checks every output on
one and on four threads. Built by upstream, it runs under ours too."""

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
p, q, c = hl.Func("p"), hl.Func("q"), hl.Func("c")
p[x, y] = x * 3 + y * 5
q[x, y] = x - y
c[x, y] = p[x, y - 1] + p[x, y + 1] + q[x, y]
p.store_root().compute_at(c, y).async_()
q.compute_at(c, y).hoist_storage_root().ring_buffer(2).async_()
t = hl.get_host_target().with_feature(hl.TargetFeature.NoRuntime)
out = sys.argv[1]
c.compile_to({hl.OutputFileType.object: out + "/asy.o", hl.OutputFileType.c_header: out + "/asy.h"}, [], "asy", t)
if len(sys.argv) > 2:
    hl.compile_standalone_runtime(out + "/runtime.o", hl.get_host_target())
"""

DRIVER = r"""
#include <stdio.h>
#include <string.h>
#include "HalideRuntime.h"
#include "asy.h"
/* buffer helper */

static int run(int threads) {
    static int data[29][37];
    halide_dimension_t dims[2] = {{0, 37, 1, 0}, {0, 29, 37, 0}};
    halide_buffer_t out = int32_buffer(&data[0][0], dims);
    halide_set_num_threads(threads);
    int r = asy(&out);
    if (r != 0) {
        printf("asy returned %d on %d threads\n", r, threads);
        return 1;
    }
    for (int y = 0; y < 29; y++) {
        for (int x = 0; x < 37; x++) {
            int expected = (x * 3 + (y - 1) * 5) + (x * 3 + (y + 1) * 5) + (x - y);
            if (data[y][x] != expected) {
                printf("wrong value at %d, %d on %d threads\n", x, y, threads);
                return 1;
            }
        }
    }
    return 0;
}

int main(void) {
    int r = run(1) | run(4) | run(1);
    printf(r ? "failed\n" : "ok\n");
    return r;
}
"""


def build(tmp: Path, python: str, ours_runtime: bool) -> Path:
    out = tmp / "kernel"
    out.mkdir()
    env = upstream_env() if python == str(UPSTREAM_PY) else None
    args = [python, "-c", GENERATE, str(out)]
    standalone = [] if ours_runtime else ["standalone"]
    if not ours_runtime:
        # upstream's standalone runtime, from upstream's interpreter
        subprocess.run([str(UPSTREAM_PY), "-c", GENERATE, str(tmp), *standalone], check=True, env=upstream_env())
    subprocess.run(args, check=True, env=env)
    (out / "driver.c").write_text(DRIVER.replace("/* buffer helper */", C_INT32_BUFFER))
    objects = [out / "driver.c", out / "asy.o"] + ([] if ours_runtime else [tmp / "runtime.o"])
    return link_driver(out / "driver", objects, [out, REPO / "runtime" / "include"], [], ours_runtime)


def check(exe: Path) -> None:
    result = subprocess.run([str(exe)], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip() == "ok"


def test_upstream_async_kernel_under_our_runtime(tmp_path):
    # Upstream's kernels wait on semaphores inside tasks (nested
    # halide_do_parallel_tasks calls) and ask for threads through min_threads.
    check(build(tmp_path, str(UPSTREAM_PY), True))


def test_our_async_kernel_under_our_runtime(tmp_path):
    pytest.importorskip("halide._compiler", reason="the compiler module is not built (runtime-only build)")
    check(build(tmp_path, sys.executable, True))


def test_our_async_kernel_under_upstreams_runtime(tmp_path):
    pytest.importorskip("halide._compiler", reason="the compiler module is not built (runtime-only build)")
    check(build(tmp_path, sys.executable, False))
