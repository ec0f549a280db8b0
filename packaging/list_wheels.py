"""Write the size and contents of every wheel in a folder into a Markdown
file, between the lines ``<!-- wheels:begin -->`` and ``<!-- wheels:end -->``
(./run wheels keeps docs/packaging.md's listing current this way).

    python packaging/list_wheels.py DIST_DIR docs/packaging.md
"""

from __future__ import annotations

import sys
import zipfile
from collections import defaultdict
from pathlib import Path, PurePosixPath

BEGIN, END = "<!-- wheels:begin -->", "<!-- wheels:end -->"
# A folder with more files than this is shown as one line (headers, ...).
MAX_FILES_SHOWN = 6


def human(n: int) -> str:
    for unit in ("B", "KB", "MB"):
        if n < 1024 or unit == "MB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    raise AssertionError


def describe(wheel: Path) -> list[str]:
    with zipfile.ZipFile(wheel) as z:
        infos = [i for i in z.infolist() if not i.is_dir()]
    unpacked = sum(i.file_size for i in infos)
    lines = [
        f"### {wheel.name}",
        "",
        f"{human(wheel.stat().st_size)} compressed, {human(unpacked)} installed, {len(infos)} files.",
        "",
        "| size | file |",
        "|---:|---|",
    ]
    by_folder: dict[PurePosixPath, list[zipfile.ZipInfo]] = defaultdict(list)
    for info in infos:
        by_folder[PurePosixPath(info.filename).parent].append(info)
    for folder in sorted(by_folder):
        files = by_folder[folder]
        if len(files) > MAX_FILES_SHOWN:
            size = sum(i.file_size for i in files)
            lines.append(f"| {human(size)} | `{folder}/` ({len(files)} files) |")
        else:
            lines += [f"| {human(i.file_size)} | `{i.filename}` |" for i in sorted(files, key=lambda i: i.filename)]
    return lines + [""]


def main() -> None:
    dist, doc = Path(sys.argv[1]), Path(sys.argv[2])
    listing = [BEGIN, ""]
    for wheel in sorted(dist.glob("*.whl")):
        listing += describe(wheel)
    listing.append(END)
    text = doc.read_text()
    head, _, rest = text.partition(BEGIN)
    _, _, tail = rest.partition(END)
    doc.write_text(head + "\n".join(listing) + tail)


if __name__ == "__main__":
    main()
