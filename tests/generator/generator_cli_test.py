"""The generator command line: each bad invocation fails (exit code 1) with
a message that names what was wrong; -help and -r work; -f/-n name the
function and the files. With FORMS_GENERATOR (upstream_forms_generator),
also the array sizes, implicit GeneratorParams and C++ names.

    generator_cli_test.py GENERATOR_EXECUTABLE SCRATCH_DIR [FORMS_GENERATOR]
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
    # Objects for several targets, as upstream's: one per target, the wrapper that picks one, the runtime.
    r = run("-g", "brighten", "-o", out, "-e", "o", "target=x86-64-linux-avx2,x86-64-linux")
    objects = ["brighten-x86-64-linux-avx2.o", "brighten-x86-64-linux.o", "brighten_wrapper.o", "brighten_runtime.o"]
    missing = [o for o in objects if not (scratch / o).is_file()]
    if r.returncode != 0 or missing:
        problems.append(f"-e o with two targets: exit {r.returncode}, missing {missing}:\n{r.stderr}")
    fails(["-g", "brighten", *base, "-x", "1"], "unknown flag '-x'")
    fails(["-g", "add_buffers", *base], "Input 'a' has no type", "a.type")
    fails(["-g", "brighten", "-o", out, "target=sparc-64-linux"], "sparc")
    fails(["-g", "brighten", *base, "autoscheduler=NoSuch", "autoscheduler.parallelism=8"],
          "Unknown autoscheduler name 'NoSuch'; known names are:")
    fails(["-g", "brighten", "-o", out, "-e", "h,static_library", "autoscheduler=NoSuch2",
           "target=x86-64-linux-avx2,x86-64-linux"], "Unknown autoscheduler name 'NoSuch2'")

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

    if len(sys.argv) > 3:
        problems += forms_problems(sys.argv[3], scratch)

    if problems:
        raise SystemExit("\n".join(problems))
    print("generator command line as expected")


def forms_problems(exe: str, scratch: Path) -> list[str]:
    """upstream_forms_generator: sizes, implicit GeneratorParams, namespaces."""
    problems: list[str] = []
    sizes = ["images.size=3", "extras.size=2", "diffs.size=2"]
    base = ["-g", "upstream_forms", "-o", str(scratch), "-e", "h"]

    def fails(args: list[str], *needles: str) -> None:
        r = subprocess.run([exe, *base, *args], capture_output=True, text=True, timeout=120)
        if r.returncode != 1 or not all(n in r.stderr for n in needles):
            problems.append(f"{args}: exit code {r.returncode}, expected 1 and {needles}:\n{r.stderr}")

    fails(["target=host", "extras.size=2", "diffs.size=2"],
          "ArraySize is unspecified for Input 'images'", "'images.size'")
    fails(["target=host", "images.size=3", "extras.size=2"],
          "ArraySize is unspecified for Output 'diffs'", "resize()", "'diffs.size'")
    fails(["target=host", *sizes, "gains.size=3"],
          "Cannot set the GeneratorParam gains.size for upstream_forms because the value is explicitly specified")
    fails(["target=host", *sizes, "bias.type=int32"], "Cannot set the GeneratorParam bias.type")
    fails(["target=host", *sizes, "scaled.size=2"], "You may only call scaled.resize() when the size is undefined")
    fails(["target=host", *sizes, "images.size=0"], "'images.size' must be at least 1")
    fails(["target=host", *sizes, "op=min"], "'op' can't be 'min'", "add, max")
    fails(["-f", "ns::f", "target=host", *sizes], "Namespace qualifiers not allowed on function name",
          "c_plus_plus_name_mangling")
    fails(["-f", "ns::f", "-e", "py.c", "target=host-c_plus_plus_name_mangling", *sizes],
          "c_plus_plus_name_mangling", "f.py.cpp")

    # A multitarget library with C++ names: the wrapper's three entry points.
    r = subprocess.run([exe, "-g", "upstream_forms", "-f", "a::b::uf", "-o", str(scratch), "-e", "static_library,h",
                        "target=x86-64-linux-sse41-c_plus_plus_name_mangling,x86-64-linux-c_plus_plus_name_mangling",
                        *sizes], capture_output=True, text=True, timeout=300)
    if r.returncode != 0:
        problems.append(f"multitarget with a namespace failed:\n{r.stderr}")
    else:
        symbols = subprocess.run(["nm", "--defined-only", str(scratch / "uf.a")], capture_output=True,
                                 text=True).stdout
        for mangled in ("_ZN1a1b2ufEP15halide_buffer_tS2_", "_ZN1a1b7uf_argvEPPv", "_ZN1a1b11uf_metadataEv"):
            if mangled not in symbols:
                problems.append(f"multitarget uf.a lacks {mangled}")
        if "namespace b {" not in (scratch / "uf.h").read_text():
            problems.append("multitarget uf.h does not declare uf in namespace a::b")
    return problems


if __name__ == "__main__":
    main()
