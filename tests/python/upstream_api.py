"""Running a probe script under upstream Halide 21's Python and under ours,
for the tests that check our names and argument names against upstream's."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

UPSTREAM_PY = Path(__file__).resolve().parents[2] / "build" / "upstream21" / "bin" / "python"


_SIGNATURE_PROBE = r"""
import json, re, halide as hl
names = json.loads(NAMES_JSON); methods = json.loads(METHODS_JSON); enums = json.loads(ENUMS_JSON)
out = {}
def params(doc):
    # Every overload's parameter names, in order, without self.
    sigs = re.findall(r"\((self[^)]*)\)", doc or "")
    return sorted({",".join(re.findall(r"(?:^|, )(\w+): ", s)[1:]) for s in sigs})
for cls, ms in methods.items():
    for m in ms:
        out[cls + "." + m] = params(getattr(getattr(hl, cls), m).__doc__)
out["names"] = [n for n in names if hasattr(hl, n)]
for e in enums:
    out[e] = sorted(getattr(hl, e).__members__)
print(json.dumps(out))
"""


def signature_probe(names: list[str], methods: dict[str, list[str]], enums: list[str]) -> str:
    """A probe script for probe_both: which of `names` the module has, the
    argument names of every overload of each class's `methods`, and the
    members of each enum in `enums` (each under its own key)."""
    return (
        _SIGNATURE_PROBE.replace("NAMES_JSON", repr(json.dumps(names)))
        .replace("METHODS_JSON", repr(json.dumps(methods)))
        .replace("ENUMS_JSON", repr(json.dumps(enums)))
    )


def upstream_env() -> dict[str, str]:
    """The environment for upstream's interpreter: none of ours (PYTHONPATH
    would import our halide package, LD_PRELOAD the sanitizers' runtimes)."""
    return {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "LD_LIBRARY_PATH", "LD_PRELOAD")}


def probe_both(code: str) -> tuple[dict, dict]:
    """(ours, upstream's): what `code` prints as JSON on its last line, run by
    upstream's interpreter in a child process and by this one in-process (its
    `print(json.dumps(out))` read back as `out`)."""
    up = subprocess.run([str(UPSTREAM_PY), "-c", code], capture_output=True, text=True, env=upstream_env(), timeout=300)
    assert up.returncode == 0, up.stderr
    theirs = json.loads(up.stdout)
    ns: dict = {}
    exec(compile(code.replace("print(json.dumps(out))", "RESULT = out"), "probe", "exec"), ns)
    return ns["RESULT"], theirs


def signature_problems(ours: dict, theirs: dict, skip: tuple[str, ...]) -> list[str]:
    """Each of upstream's overloads (keys other than `skip`, values lists of
    comma-joined argument names) exists here with the same argument names;
    upstream's unnamed arg0, arg1... only count."""
    problems = []
    for key, their_sigs in theirs.items():
        if key in skip:
            continue
        for sig in their_sigs:
            names = sig.split(",") if sig else []
            if all(n.startswith("arg") for n in names):
                ok = any(len(o.split(",") if o else []) == len(names) for o in ours[key])
            else:
                ok = sig in ours[key]
            if not ok:
                problems.append(f"{key}: upstream ({sig}), ours {ours[key]}")
    return problems
