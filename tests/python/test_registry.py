"""The kernel registry: plugins found through entry points and manifests.

Each test builds a throwaway site folder of installed-looking distributions
(dist-info with entry_points.txt, a package holding a manifest and copies of
the fixture kernel libraries) and puts it on sys.path.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest
from conftest import fixture_path, run_python


def kernel_entry(name: str, library: str, symbol: str | None = None, target: str = "x86-64-linux", **extra):
    entry = {"name": name, "library": library, "symbol": symbol or name, "target": target,
             "metadata_version": 1, "halide_version": "0.1.0", "doc": f"{name} kernel"}
    entry.update(extra)
    return entry


BRIGHTEN_ARGS = [
    {"name": "input", "kind": "input_buffer", "type": "uint8", "dimensions": 2},
    {"name": "offset", "kind": "input_scalar", "type": "int32", "dimensions": 0},
    {"name": "output", "kind": "output_buffer", "type": "uint8", "dimensions": 2},
]


class Site:
    """A folder of fake installed distributions."""

    def __init__(self, root: Path):
        self.root = root
        root.mkdir(parents=True, exist_ok=True)

    def add(self, dist: str, plugins: dict[str, dict | str], libs=("brighten",), version="1.0", package=None):
        package = package or dist.replace("-", "_")
        pkg_dir = self.root / package
        pkg_dir.mkdir(exist_ok=True)
        for lib in libs:
            shutil.copy(fixture_path(lib), pkg_dir / f"lib{lib}.so")
        lines = ["[halide.kernels]"]
        for plugin, manifest in plugins.items():
            file = f"{plugin}.json"
            text = manifest if isinstance(manifest, str) else json.dumps(manifest)
            (pkg_dir / file).write_text(text)
            lines.append(f"{plugin} = {package}:{file}")
        info = self.root / f"{dist.replace('-', '_')}-{version}.dist-info"
        info.mkdir(exist_ok=True)
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: {version}\n")
        (info / "entry_points.txt").write_text("\n".join(lines) + "\n")
        return pkg_dir


def manifest(*kernels, abi_version=1, fmt=1):
    return {"format": fmt, "abi_version": abi_version, "kernels": list(kernels)}


@pytest.fixture
def site(tmp_path, monkeypatch, hlr):
    s = Site(tmp_path / "site")
    monkeypatch.syspath_prepend(str(s.root))
    monkeypatch.delenv("HALIDE_KERNELS_DISABLE_AUTOLOAD", raising=False)
    monkeypatch.delenv("HALIDE_KERNELS_ALLOW", raising=False)
    hlr.refresh()
    yield s
    hlr.refresh()


def mapped(path: Path) -> bool:
    return str(path) in Path("/proc/self/maps").read_text()


def test_lists_from_manifests_without_opening_libraries(site, hlr):
    pkg = site.add("imaging-kernels", {"imaging": manifest(kernel_entry("brighten", "libbrighten.so",
                                                                         arguments=BRIGHTEN_ARGS))})
    registry = hlr.kernels()
    assert "imaging.brighten" in list(registry)
    info = registry.info("imaging.brighten")
    assert info.distribution == "imaging-kernels" and info.plugin == "imaging"
    assert info.library == (pkg / "libbrighten.so").resolve()
    assert not mapped(info.library), "listing kernels must not dlopen them"
    k = hlr.kernel("imaging.brighten")
    assert mapped(info.library)
    a = np.arange(12, dtype=np.uint8).reshape(3, 4)
    np.testing.assert_array_equal(k(a, 2, output_shape=a.shape), a + 2)
    assert registry["brighten"] is k  # short name, same cached Kernel
    assert "brighten kernel" in k.__doc__
    assert hlr.kernels() is registry  # cached until refresh()


def test_import_does_not_scan(site):
    site.add("imaging-kernels", {"imaging": "{not json"})
    code = "import warnings, halide.runtime; warnings.simplefilter('error'); print('ok')"
    proc = run_python(code, env={"PYTHONPATH": f"{site.root}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"})
    assert proc.stdout.strip() == "ok"  # a broken plugin would have warned (and raised) if scanned


def test_ambiguous_short_names_list_candidates(site, hlr):
    site.add("alpha-kernels", {"alpha": manifest(kernel_entry("brighten", "libbrighten.so"))})
    site.add("beta-kernels", {"beta": manifest(kernel_entry("brighten", "libbrighten.so"))})
    with pytest.raises(hlr.AmbiguousKernelError, match=r"'brighten' is ambiguous: it matches "
                       r"alpha-kernels:alpha.brighten, beta-kernels:beta.brighten"):
        hlr.kernel("brighten")
    assert "brighten" not in hlr.kernels()
    assert hlr.kernel("beta.brighten").name == "brighten"


def test_same_plugin_name_from_two_distributions_is_never_resolved_by_order(site, hlr):
    site.add("first-dist", {"imaging": manifest(kernel_entry("brighten", "libbrighten.so"))})
    site.add("second-dist", {"imaging": manifest(kernel_entry("brighten", "libbrighten.so"))})
    with pytest.raises(hlr.AmbiguousKernelError, match="first-dist:imaging.brighten, second-dist:imaging.brighten"):
        hlr.kernel("imaging.brighten")
    assert hlr.kernels().info("second-dist:imaging.brighten").distribution == "second-dist"


def test_unknown_name_suggests_close_matches(site, hlr):
    site.add("imaging-kernels", {"imaging": manifest(kernel_entry("brighten", "libbrighten.so"))})
    with pytest.raises(hlr.KernelNotFoundError, match=r"no installed Halide kernel is named 'imaging.brigten' "
                       r"\(did you mean 'imaging.brighten'.*\?\). Installed kernels: imaging.brighten"):
        hlr.kernel("imaging.brigten")
    with pytest.raises(KeyError):  # a Mapping: KeyError for missing names
        hlr.kernels()["nothing"]


def test_same_distribution_seen_twice_is_one_plugin(site, hlr, tmp_path, monkeypatch):
    site.add("imaging-kernels", {"imaging": manifest(kernel_entry("brighten", "libbrighten.so"))})
    alias = tmp_path / "lib64"
    alias.symlink_to(site.root)  # like a venv's lib64 -> lib
    monkeypatch.syspath_prepend(str(alias))
    hlr.refresh()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        registry = hlr.kernels()
    assert list(registry) == ["imaging.brighten"]
    assert hlr.kernel("brighten").name == "brighten"


@pytest.mark.parametrize(
    "bad,why",
    [
        ("{not json", "cannot read manifest"),
        (manifest(kernel_entry("brighten", "libbrighten.so"), abi_version=2), "ABI version 2 is not supported"),
        (manifest(kernel_entry("brighten", "libbrighten.so"), fmt=7), "manifest format 7 is not supported"),
        (manifest(kernel_entry("brighten", "libmissing.so")), "libmissing.so' does not exist"),
        (manifest(kernel_entry("brighten", "libbrighten.so", target="arm-64-linux")),
         "is for arm-64-linux, this machine is x86-64-linux"),
        (manifest(kernel_entry("brighten", "libbrighten.so", metadata_version=0)), "metadata version 0"),
        (manifest({"name": "brighten"}), "has no 'library'"),
        ({"format": 1, "abi_version": 1, "kernels": []}, "lists no kernels"),
    ],
)
def test_broken_plugins_are_left_out_with_a_warning(site, hlr, bad, why):
    site.add("broken-kernels", {"broken": bad})
    site.add("good-kernels", {"good": manifest(kernel_entry("brighten", "libbrighten.so"))})
    with pytest.warns(hlr.HalideKernelWarning) as record:
        registry = hlr.kernels()
    messages = [str(w.message) for w in record]
    assert any("'broken'" in m and "broken-kernels" in m and why in m for m in messages), messages
    assert list(registry) == ["good.brighten"]
    assert hlr.kernel("brighten").name == "brighten"


def test_cpu_feature_the_machine_lacks(site, hlr, monkeypatch):
    from halide.runtime import _targets

    site.add("fast-kernels", {"fast": manifest(kernel_entry("brighten", "libbrighten.so",
                                                            target="x86-64-linux-avx-avx2-sse41"))})
    monkeypatch.setattr(_targets, "_host_features", lambda: frozenset({"sse41", "avx"}))
    with pytest.warns(hlr.HalideKernelWarning, match=r"needs CPU features this machine lacks: avx2"):
        assert list(hlr.kernels()) == []


def test_first_runnable_variant_wins(site, hlr):
    site.add("multi-kernels", {"multi": manifest(
        kernel_entry("brighten", "libbrighten.so", target="arm-64-linux"),
        kernel_entry("brighten", "libbrighten.so", target="x86-64-linux"),
    )})
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a usable variant exists: no warning
        info = hlr.kernels().info("multi.brighten")
    assert info.target == "x86-64-linux"


def test_host_feature_mask_hides_features():
    proc = run_python(
        "import halide.runtime as h; print(','.join(h.host_cpu_features()))",
        env={"HL_HOST_FEATURES_MASK": "avx2,fma"},
    )
    features = proc.stdout.strip().split(",")
    assert "avx2" not in features and "fma" not in features


def test_manifest_that_disagrees_with_the_library(site, hlr):
    wrong = [dict(a) for a in BRIGHTEN_ARGS]
    wrong[1]["type"] = "float32"
    site.add("liar-kernels", {"liar": manifest(kernel_entry("brighten", "libbrighten.so", arguments=wrong))})
    with pytest.raises(ValueError, match=r"the library's metadata .* does not match the manifest's arguments"):
        hlr.kernel("liar.brighten")


def test_disable_autoload_and_allow_list(site, hlr, monkeypatch, tmp_path):
    site.add("a-kernels", {"a": manifest(kernel_entry("brighten", "libbrighten.so"))})
    site.add("b-kernels", {"b": manifest(kernel_entry("brighten", "libbrighten.so"))})
    monkeypatch.setenv("HALIDE_KERNELS_ALLOW", "b")
    hlr.refresh()
    assert list(hlr.kernels()) == ["b.brighten"]
    monkeypatch.setenv("HALIDE_KERNELS_DISABLE_AUTOLOAD", "1")
    hlr.refresh()
    assert list(hlr.kernels()) == []
    # Plugins can still be added by hand.
    pkg = site.root / "a_kernels"
    hlr.add_plugin("manual", pkg / "a.json")
    try:
        assert list(hlr.kernels()) == ["manual.brighten"]
    finally:
        from halide.runtime import _registry

        _registry._manual.clear()


def test_refresh_sees_new_plugins(site, hlr):
    site.add("a-kernels", {"a": manifest(kernel_entry("brighten", "libbrighten.so"))})
    assert list(hlr.kernels()) == ["a.brighten"]
    site.add("b-kernels", {"b": manifest(kernel_entry("add_one", "libtwo_kernels.so"))}, libs=("two_kernels",))
    assert list(hlr.kernels()) == ["a.brighten"]  # cached
    hlr.refresh()
    assert list(hlr.kernels()) == ["a.brighten", "b.add_one"]


def test_command_line(site):
    site.add("imaging-kernels", {"imaging": manifest(kernel_entry("brighten", "libbrighten.so",
                                                                  arguments=BRIGHTEN_ARGS))})
    env = {"PYTHONPATH": f"{site.root}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    out = run_python("import sys, runpy; sys.argv = ['x', 'list', '-v']; runpy.run_module('halide.runtime', "
                     "run_name='__main__')", env=env, check=False)
    assert out.returncode == 0, out.stderr
    assert "imaging.brighten  imaging-kernels 1.0  x86-64-linux" in out.stdout
    assert "brighten(input: uint8[2-D], offset: int32, output: uint8[2-D]->)" in out.stdout
    info = run_python("import sys, runpy; sys.argv = ['x', 'info', 'brighten']; runpy.run_module('halide.runtime', "
                      "run_name='__main__')", env=env, check=False)
    assert info.returncode == 0 and "library:" in info.stdout and "offset: input_scalar, int32" in info.stdout
    missing = run_python("import sys, runpy; sys.argv = ['x', 'info', 'nope']; runpy.run_module('halide.runtime', "
                         "run_name='__main__')", env=env, check=False)
    assert missing.returncode != 0 and "no installed Halide kernel is named 'nope'" in missing.stderr
    assert sys.executable  # the subprocesses above used this interpreter
