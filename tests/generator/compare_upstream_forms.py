"""Compares the upstream_forms kernels two compilers built from one
generator source (tests/generator/upstream_forms_generator.cpp): the test
programs (upstream_forms_test.cpp, one per compiler) must print the same
metadata and outputs, and each compiler's header for
`-f ns1::ns2::upstream_forms` must declare the three entry points inside
namespace ns1 { namespace ns2 { ... } }.

    compare_upstream_forms.py OUR_TEST OUR_NS_HEADER [HALIDE14_TEST HALIDE14_NS_HEADER]

Without the Halide 14 pair (libhalide14-0-dev not installed) it checks our
header only and exits 77, which Meson reports as a skip.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

NAMESPACE_BLOCK = re.compile(
    r"namespace ns1 \{\s*namespace ns2 \{(.*?)\}\s*//\s*namespace ns2\s*\}\s*//\s*namespace ns1", re.DOTALL
)
DECLARATIONS = [r"\bint upstream_forms\(", r"\bint upstream_forms_argv\(void \*\*", r"upstream_forms_metadata\("]


def header_problems(path: str) -> list[str]:
    text = Path(path).read_text()
    block = NAMESPACE_BLOCK.search(text)
    if not block:
        return [f"{path}: no namespace ns1 {{ namespace ns2 {{ ... }} }} block"]
    problems = [f"{path}: {d} is not declared inside ns1::ns2" for d in DECLARATIONS if not re.search(d, block[1])]
    outside = text[: block.start()] + text[block.end():]
    problems += [f"{path}: {d} is also declared outside ns1::ns2" for d in DECLARATIONS if re.search(d, outside)]
    return problems


def run(test: str) -> str:
    proc = subprocess.run([test], capture_output=True, text=True, timeout=120)
    if proc.returncode != 0:
        raise SystemExit(f"{test} failed ({proc.returncode}):\n{proc.stderr}")
    return proc.stdout


def main() -> int:
    args = sys.argv[1:]
    if len(args) not in (2, 4):
        raise SystemExit(__doc__)
    problems = header_problems(args[1])
    ours = run(args[0])
    if len(args) == 2:
        print("\n".join(problems) or "our header declares ns1::ns2::upstream_forms")
        print("upstream Halide 14 is not installed: nothing to compare against")
        return 1 if problems else 77
    problems += header_problems(args[3])
    theirs = run(args[2])
    if ours != theirs:
        for n, (a, b) in enumerate(zip(ours.splitlines(), theirs.splitlines(), strict=False)):
            if a != b:
                problems.append(f"line {n + 1} differs:\n  ours:      {a[:200]}\n  Halide 14: {b[:200]}")
                break
        else:
            problems.append(f"outputs differ in length: {len(ours)} vs {len(theirs)} characters")
    if problems:
        print("\n".join(problems))
        return 1
    print(f"same metadata and outputs from both compilers ({len(ours.splitlines())} lines); headers declare "
          "ns1::ns2::upstream_forms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
