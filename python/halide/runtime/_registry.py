"""The kernel registry: kernels installed by plugin distributions.

A kernel plugin is a distribution with an entry point in the group
``halide.kernels``. The entry point's name is the plugin's name (kernels are
called ``plugin.kernel``); its value names the manifest, a JSON file inside
an installed package, as ``package:file.json`` (``package`` alone means
``package:halide_kernels.json``). The scan reads manifests only: no module
is imported and no library is opened until a kernel is used.

Manifest (format 1)::

    {
      "format": 1,
      "abi_version": 1,
      "kernels": [
        {"name": "blur", "library": "libblur.so", "symbol": "blur",
         "target": "x86-64-linux-avx2", "metadata_version": 1,
         "halide_version": "0.1.0",
         "arguments": [{"name": "input", "kind": "input_buffer",
                        "type": "uint16", "dimensions": 2}, ...],
         "doc": "3x3 box blur"}
      ]
    }

``library`` is relative to the manifest's folder. A plugin may list the same
kernel name several times for different targets (CPU variants): the registry
uses the one of the highest CPU level (baseline, avx2, avx512) that this
machine can run, the first listed among equals. HALIDE_RUNTIME_CPU_LEVEL
caps the level (to test or compare the variants).
"""

from __future__ import annotations

import json
import os
import re
import sys
import threading
import warnings
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ._errors import AmbiguousKernelError, HalideKernelWarning, KernelNotFoundError
from ._targets import (
    CPU_LEVEL_ENV,
    CPU_LEVELS,
    host_cpu_level,
    parse_cpu_level,
    target_cpu_level,
    why_cannot_run,
)

ENTRY_POINT_GROUP = "halide.kernels"
DEFAULT_MANIFEST = "halide_kernels.json"
MANIFEST_FORMAT = 1
ABI_VERSION = 1  # halide_buffer_t / metadata layout (docs/abi.md)
DISABLE_ENV = "HALIDE_KERNELS_DISABLE_AUTOLOAD"
ALLOW_ENV = "HALIDE_KERNELS_ALLOW"

_NAME_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_KINDS = ("input_scalar", "input_buffer", "output_buffer")


class ManifestError(ValueError):
    """A plugin's manifest cannot be used."""


@dataclass(frozen=True)
class PluginSource:
    """Where a plugin came from."""

    plugin: str
    distribution: str
    version: str
    manifest: Path


@dataclass
class KernelInfo:
    """An installed kernel, known from its plugin's manifest."""

    name: str  #: qualified name, "plugin.kernel"
    short_name: str
    source: PluginSource
    library: Path
    symbol: str
    target: str
    metadata_version: int
    halide_version: str
    arguments: tuple[dict[str, Any], ...]
    doc: str = ""
    #: Every variant of this kernel in its plugin's manifest, in manifest
    #: order, each with the reason it was not chosen (None for this one).
    variants: list[tuple[KernelInfo, str | None]] = field(default_factory=list, repr=False)
    _kernel: Any = field(default=None, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @property
    def plugin(self) -> str:
        return self.source.plugin

    @property
    def distribution(self) -> str:
        return self.source.distribution

    @property
    def cpu_level(self) -> str:
        """The CPU level of this variant: baseline, avx2 or avx512."""
        return target_cpu_level(self.target)

    @property
    def qualified_name(self) -> str:
        """Unique even when two distributions ship a plugin of the same name."""
        return f"{self.source.distribution}:{self.name}"

    def signature_text(self) -> str:
        parts = []
        for a in self.arguments:
            if a["kind"] == "input_scalar":
                parts.append(f"{a['name']}: {a['type']}")
            else:
                arrow = "->" if a["kind"] == "output_buffer" else ""
                parts.append(f"{a['name']}: {a['type']}[{a['dimensions']}-D]{arrow}")
        return f"{self.name}({', '.join(parts)})"

    def load(self) -> Any:
        """The ready Kernel (the library is opened on first use, then cached)."""
        with self._lock:
            if self._kernel is None:
                self._kernel = self._open()
            return self._kernel

    def _open(self) -> Any:
        from . import load
        from ._signature import decorate

        kernel = load(self.library, self.symbol)
        actual = [(a.raw_name, a.kind, a.type, a.dimensions) for a in kernel.arguments]
        expected = [(a["name"], a["kind"], a["type"], a["dimensions"]) for a in self.arguments]
        if expected and actual != expected:
            raise ManifestError(
                f"kernel {self.name!r} of plugin {self.plugin!r} ({self.distribution}): the library's "
                f"metadata {actual} does not match the manifest's arguments {expected}"
            )
        decorate(kernel, self.doc)
        # What pickling sends instead of the library (see _pickle.py).
        kernel._registry_key = (self.distribution, self.name, self.source.version)  # type: ignore[attr-defined]
        return kernel


def _warn(source: PluginSource | str, why: str) -> None:
    where = (
        f"plugin {source.plugin!r} from {source.distribution} {source.version} ({source.manifest})"
        if isinstance(source, PluginSource)
        else source
    )
    # stacklevel: _warn, _collect, registry, kernels(), the caller.
    warnings.warn(f"Halide kernel {where} left out: {why}", HalideKernelWarning, stacklevel=5)


def _require(entry: Mapping[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if key not in entry:
        raise ManifestError(f"{where} has no {key!r}")
    value = entry[key]
    if not isinstance(value, kind) or isinstance(value, bool) and kind is int:
        raise ManifestError(f"{where}: {key!r} should be {getattr(kind, '__name__', kind)}, got {value!r}")
    return value


def _parse_arguments(raw: Any, where: str) -> tuple[dict[str, Any], ...]:
    if not isinstance(raw, list):
        raise ManifestError(f"{where}: 'arguments' should be a list")
    out = []
    for i, a in enumerate(raw):
        w = f"{where} argument {i}"
        if not isinstance(a, dict):
            raise ManifestError(f"{w} should be an object")
        name = _require(a, "name", str, w)
        kind = _require(a, "kind", str, w)
        if kind not in _KINDS:
            raise ManifestError(f"{w}: kind {kind!r} is not one of {', '.join(_KINDS)}")
        out.append(
            {
                "name": name,
                "kind": kind,
                "type": _require(a, "type", str, w),
                "dimensions": _require(a, "dimensions", int, w),
            }
        )
    return tuple(out)


def parse_manifest(source: PluginSource) -> list[KernelInfo]:
    """Reads a manifest into KernelInfos; raises ManifestError for the plugin."""
    try:
        data = json.loads(source.manifest.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ManifestError(f"manifest file {str(source.manifest)!r} does not exist") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ManifestError(f"cannot read manifest: {e}") from None
    if not isinstance(data, dict):
        raise ManifestError("manifest should be a JSON object")
    fmt = data.get("format")
    if fmt != MANIFEST_FORMAT:
        raise ManifestError(f"manifest format {fmt!r} is not supported (this halide.runtime reads {MANIFEST_FORMAT})")
    abi = data.get("abi_version")
    if abi != ABI_VERSION:
        raise ManifestError(f"ABI version {abi!r} is not supported (this halide.runtime implements {ABI_VERSION})")
    entries = data.get("kernels")
    if not isinstance(entries, list) or not entries:
        raise ManifestError("manifest lists no kernels")
    infos = []
    for i, entry in enumerate(entries):
        where = f"kernel {i}"
        if not isinstance(entry, dict):
            raise ManifestError(f"{where} should be an object")
        short = _require(entry, "name", str, where)
        if not _NAME_RE.match(short):
            raise ManifestError(f"{where}: name {short!r} is not an identifier")
        where = f"kernel {short!r}"
        library = _require(entry, "library", str, where)
        infos.append(
            KernelInfo(
                name=f"{source.plugin}.{short}",
                short_name=short,
                source=source,
                library=(source.manifest.parent / library).resolve(),
                symbol=str(entry.get("symbol", short)),
                target=_require(entry, "target", str, where),
                metadata_version=_require(entry, "metadata_version", int, where),
                halide_version=str(entry.get("halide_version", "")),
                arguments=_parse_arguments(entry.get("arguments", []), where),
                doc=str(entry.get("doc", "")),
            )
        )
    return infos


def _why_unusable(info: KernelInfo) -> str | None:
    from ._runtime import METADATA_VERSION

    if info.metadata_version != METADATA_VERSION:
        return f"metadata version {info.metadata_version} is not supported (this runtime reads {METADATA_VERSION})"
    if not info.library.is_file():
        return f"its library {str(info.library)!r} does not exist"
    return why_cannot_run(info.target)


def _manifest_path(site: str, value: str) -> Path:
    module, _, file = value.partition(":")
    module, file = module.strip(), (file.strip() or DEFAULT_MANIFEST)
    located = Path(site, *module.split("."), file)
    if located.exists():
        return located
    # Editable installs keep the package elsewhere: find it without importing it.
    import importlib.util

    top, _, rest = module.partition(".")
    spec = importlib.util.find_spec(top)
    if spec and spec.submodule_search_locations:
        for base in spec.submodule_search_locations:
            candidate = Path(base, *rest.split(".") if rest else (), file)
            if candidate.exists():
                return candidate
    return located


def _normalize(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _entry_points(text: str) -> list[tuple[str, str]]:
    """(name, value) pairs of the [halide.kernels] section of entry_points.txt."""
    found, in_group = [], False
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line[0] in "#;":
            continue
        if line.startswith("["):
            in_group = line == f"[{ENTRY_POINT_GROUP}]"
            continue
        if in_group and "=" in line:
            name, _, value = line.partition("=")
            found.append((name.strip(), value.strip()))
    return found


def _installed_plugins() -> Iterator[tuple[str, str, str, list[tuple[str, str]]]]:
    """(site folder, distribution name, version, entry points) for every
    distribution on sys.path with entry points in our group.

    A direct scan of the *.dist-info folders on sys.path, in sys.path order:
    importlib.metadata finds the same distributions but costs tens of
    milliseconds to import and to parse every METADATA file.
    """
    for site in sys.path:
        try:
            entries = sorted(e.name for e in os.scandir(site or ".") if e.name.endswith(".dist-info"))
        except OSError:
            continue
        for folder in entries:
            try:
                with open(os.path.join(site or ".", folder, "entry_points.txt"), encoding="utf-8") as f:
                    text = f.read()
            except OSError:
                continue
            if f"[{ENTRY_POINT_GROUP}]" not in text:
                continue
            name, _, version = folder[: -len(".dist-info")].partition("-")
            yield site or ".", name.replace("_", "-"), version, _entry_points(text)


def discover() -> list[PluginSource]:
    """Plugin manifests announced by installed distributions (no imports)."""
    if os.environ.get(DISABLE_ENV, "").strip() not in ("", "0"):
        return []
    allow = {p.strip() for p in os.environ.get(ALLOW_ENV, "").split(",") if p.strip()}
    sources: list[PluginSource] = []
    seen: dict[str, str] = {}  # normalized distribution name -> real location
    for site, dist_name, version, eps in _installed_plugins():
        key = _normalize(dist_name)
        location = os.path.realpath(site)
        if key in seen:
            if seen[key] != location:
                _warn(
                    f"distribution {dist_name} at {location}",
                    f"{dist_name} is also installed at {seen[key]}, which comes first on sys.path",
                )
            continue  # the same distribution seen again (symlinked lib64, .pth): one plugin
        seen[key] = location
        for ep_name, value in eps:
            if allow and ep_name not in allow:
                continue
            sources.append(PluginSource(ep_name, dist_name, version or "?", _manifest_path(site, value)))
    return sources


class KernelRegistry(Mapping[str, Any]):
    """Installed kernels by qualified name ("plugin.kernel").

    ``registry[name]`` returns a ready Kernel (opening its library on first
    use) and accepts a qualified name, a short name that only one plugin
    provides, or "distribution:plugin.kernel". ``info(name)`` returns the
    KernelInfo without opening anything.
    """

    def __init__(self, infos: list[KernelInfo]):
        self._by_name: dict[str, list[KernelInfo]] = {}
        for info in infos:
            self._by_name.setdefault(info.name, []).append(info)

    def _candidates(self, name: str) -> list[KernelInfo]:
        if ":" in name:
            dist, _, qualified = name.partition(":")
            return [i for i in self._by_name.get(qualified, []) if _normalize(i.distribution) == _normalize(dist)]
        if name in self._by_name:
            return self._by_name[name]
        return [i for infos in self._by_name.values() for i in infos if i.short_name == name]

    def info(self, name: str) -> KernelInfo:
        if not isinstance(name, str):
            raise TypeError(f"kernel names are strings, got {type(name).__name__}")
        found = self._candidates(name)
        if len(found) == 1:
            return found[0]
        if found:
            names = ", ".join(sorted(i.qualified_name for i in found))
            raise AmbiguousKernelError(
                f"kernel name {name!r} is ambiguous: it matches {names}; use one of these names"
            )
        import difflib

        known = sorted(self._by_name)
        close = difflib.get_close_matches(name, known + [i.short_name for v in self._by_name.values() for i in v])
        hint = f" (did you mean {', '.join(repr(c) for c in dict.fromkeys(close))}?)" if close else ""
        listing = ", ".join(known) if known else "none (no kernel plugin is installed)"
        raise KernelNotFoundError(f"no installed Halide kernel is named {name!r}{hint}. Installed kernels: {listing}")

    def __getitem__(self, name: str) -> Any:
        return self.info(name).load()

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and len(self._candidates(name)) == 1

    def __iter__(self) -> Iterator[str]:
        return iter(sorted(self._by_name))

    def __len__(self) -> int:
        return len(self._by_name)

    def infos(self) -> list[KernelInfo]:
        return [i for name in sorted(self._by_name) for i in self._by_name[name]]

    def __repr__(self) -> str:
        return f"<halide.runtime.KernelRegistry of {len(self)} kernels: {', '.join(self)}>"


_lock = threading.Lock()
_cache: KernelRegistry | None = None
_manual: list[PluginSource] = []


def _level_cap() -> int:
    """The index in CPU_LEVELS of the highest level to use: the host's, or
    lower if HALIDE_RUNTIME_CPU_LEVEL says so."""
    host = CPU_LEVELS.index(host_cpu_level())
    value = os.environ.get(CPU_LEVEL_ENV, "").strip()
    if not value:
        return host
    try:
        forced = CPU_LEVELS.index(parse_cpu_level(value))
    except ValueError as e:
        _warn(f"setting {CPU_LEVEL_ENV}", f"{e}; ignored")
        return host
    if forced > host:
        _warn(
            f"setting {CPU_LEVEL_ENV}={value}",
            f"this CPU runs up to {CPU_LEVELS[host]}, so {CPU_LEVELS[host]} variants are used",
        )
        return host
    return forced


def _choose(variants: list[KernelInfo], cap: int) -> tuple[KernelInfo | None, list[str]]:
    """The variant to use (highest usable CPU level up to `cap`, first listed
    among equals) and, for every variant, why it was not chosen."""
    reasons: list[str | None] = []
    for info in variants:
        why = _why_unusable(info)
        if why is None and CPU_LEVELS.index(info.cpu_level) > cap:
            why = f"its CPU level {info.cpu_level} is above {CPU_LEVEL_ENV}={CPU_LEVELS[cap]}"
        reasons.append(why)
    usable = [i for i, why in enumerate(reasons) if why is None]
    if not usable:
        return None, [str(r) for r in reasons]
    best = max(usable, key=lambda i: (CPU_LEVELS.index(variants[i].cpu_level), -i))
    chosen = variants[best]
    for i in range(len(variants)):
        if i != best and reasons[i] is None:
            reasons[i] = f"{chosen.cpu_level} variant ({chosen.target}) preferred"
    chosen.variants = list(zip(variants, reasons, strict=True))
    return chosen, []


def _collect(sources: list[PluginSource]) -> list[KernelInfo]:
    chosen: list[KernelInfo] = []
    cap = _level_cap() if sources else 0
    for source in sources:
        try:
            infos = parse_manifest(source)
        except ManifestError as e:
            _warn(source, str(e))
            continue
        by_name: dict[str, list[KernelInfo]] = {}
        for info in infos:
            by_name.setdefault(info.short_name, []).append(info)
        for short, variants in by_name.items():
            best, reasons = _choose(variants, cap)
            if best is None:
                _warn(source, f"kernel {short!r}: {'; '.join(reasons)}")
            else:
                chosen.append(best)
    return chosen


def registry() -> KernelRegistry:
    global _cache
    with _lock:
        if _cache is None:
            _cache = KernelRegistry(_collect(discover() + _manual))
        return _cache


def refresh() -> None:
    global _cache
    with _lock:
        _cache = None
    import importlib

    importlib.invalidate_caches()


def add_plugin(name: str, manifest: str | os.PathLike[str]) -> None:
    if not _NAME_RE.match(name):
        raise ValueError(f"plugin name {name!r} is not an identifier")
    path = Path(manifest).resolve()
    with _lock:
        _manual.append(PluginSource(name, "<added by hand>", "", path))
    refresh()
