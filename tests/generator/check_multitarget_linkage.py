"""A multitarget library linked into a shared library: the wrapper NAME is
exported, its per-target variants are not, and the wrapper calls them
directly (no PLT slot or GOT entry), so no other library's symbol of the same
name can stand in for them.

    python3 check_multitarget_linkage.py which_target.a which_target
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path


def readelf(*args: str) -> str:
    return subprocess.run(["readelf", "-W", *args], capture_output=True, text=True, check=True).stdout


def main() -> int:
    archive, name = Path(sys.argv[1]).resolve(), sys.argv[2]
    with tempfile.TemporaryDirectory() as tmp:
        lib = Path(tmp) / f"lib{name}.so"
        subprocess.run(["cc", "-shared", "-o", str(lib), "-Wl,--whole-archive", str(archive),
                        "-Wl,--no-whole-archive", "-lpthread", "-ldl", "-lm"], check=True)
        dynsym = [line.split()[-1].split("@")[0] for line in readelf("--dyn-syms", str(lib)).splitlines()
                  if " FUNC " in line and " UND " not in line]
        relocations = [line for line in readelf("-r", str(lib)).splitlines() if f" {name}_" in line]
        symtab = [line.split()[-1] for line in readelf("-s", str(lib)).splitlines() if " FUNC " in line]
    variants = sorted(s for s in symtab if s.startswith(f"{name}_") and not s.endswith(("_argv", "_metadata")))
    problems = []
    if name not in dynsym:
        problems.append(f"the wrapper {name} is not exported: {sorted(dynsym)}")
    if len(variants) < 2:
        problems.append(f"expected the per-target variants {name}_<target> in the library, found {variants}")
    exported = sorted(set(variants) & set(dynsym))
    if exported:
        problems.append(f"variants are exported (interposable): {exported}")
    if relocations:
        problems.append("the library reaches variants through dynamic relocations (PLT/GOT):\n  "
                        + "\n  ".join(relocations))
    for p in problems:
        print(f"FAIL: {p}")
    if not problems:
        print(f"ok: {name} exported; {len(variants)} variants hidden and called directly: {', '.join(variants)}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
