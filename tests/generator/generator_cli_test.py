"""The generator command line: each bad invocation fails (exit code 1) with
a message that names what was wrong; -help and -r work; -f/-n name the
function and the files.

    generator_cli_test.py GENERATOR_EXECUTABLE SCRATCH_DIR
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def main() -> None:
    exe, scratch = sys.argv[1], Path(sys.argv[2])
    scratch.mkdir(parents=True, exist_ok=True)
    out = str(scratch)
    problems: list[str] = []

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([exe, *args], capture_output=True, text=True, timeout=120)

    def fails(args: list[str], *needles: str) -> None:
        r = run(*args)
        text = r.stderr + r.stdout
        if r.returncode != 1:
            problems.append(f"{args}: exit code {r.returncode}, expected 1")
        for n in needles:
            if n not in text:
                problems.append(f"{args}: message does not contain {n!r}:\n{text}")

    base = ["-o", out, "target=host"]
    fails(["-g", "nope", *base], "no generator named 'nope'", "add_buffers, brighten, brighten_float")
    fails(["-g", "brighten", *base, "bogus=1"], "no GeneratorParam or Input named 'bogus'", "vector_width")
    fails(["-g", "brighten", *base, "vector_width=0"], "'vector_width' is 0 but must be in [1, 64]")
    fails(["-g", "brighten", *base, "rounding=up"], "'rounding' can't be 'up'", "floor, nearest")
    fails(["-g", "brighten", *base, "parallel=yes"], "give true or false")
    fails(["-g", "brighten", *base, "output_type=uint7"], "'uint7' is not a type name")
    fails(["-g", "brighten", *base, "-e", "exe"], "unknown emit kind 'exe'")
    fails(["-g", "brighten", *base, "-e", "pytorch_wrapper"], "'pytorch_wrapper' is not supported")
    fails(["-g", "brighten", "target=host"], "no output directory")
    fails(["-g", "brighten", "-o", out], "no target")
    fails(["-g", "brighten", "-o", out, "target=x86-64-linux-avx2,arm-64-linux"], "must share architecture")
    fails(["-g", "brighten", "-o", out, "-e", "o", "target=x86-64-linux-avx2,x86-64-linux"],
          "static_library and a c_header only")
    fails(["-g", "brighten", *base, "-x", "1"], "unknown flag '-x'")
    fails(["-g", "add_buffers", *base], "Input 'a' has no type", "a.type")
    fails(["-g", "brighten", "-o", out, "target=sparc-64-linux"], "sparc")

    r = run("-help")
    if r.returncode != 0 or "brighten_float" not in r.stdout:
        problems.append(f"-help: exit {r.returncode}, output:\n{r.stdout}")

    r = run("-g", "brighten", "-f", "my_fn", "-n", "my_file", "-e", "h,o,stmt", *base)
    if r.returncode != 0:
        problems.append(f"-f/-n run failed:\n{r.stderr}")
    for name in ("my_file.h", "my_file.o", "my_file.stmt"):
        if not (scratch / name).exists():
            problems.append(f"-n my_file did not write {name}")
    header = (scratch / "my_file.h").read_text() if (scratch / "my_file.h").exists() else ""
    if "int my_fn(" not in header or "my_fn_metadata" not in header:
        problems.append("-f my_fn did not name the function in the header")

    r = run("-r", "my_runtime", "-e", "static_library", *base)
    if r.returncode != 0 or not (scratch / "my_runtime.a").exists():
        problems.append(f"-r did not write my_runtime.a:\n{r.stderr}")

    if problems:
        raise SystemExit("\n".join(problems))
    print("generator command line as expected")


if __name__ == "__main__":
    main()
