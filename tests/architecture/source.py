"""Reading Dogtag's own source as syntax trees, for the architecture tests (no import, no database)."""

import ast
from collections.abc import Iterator
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src"
PACKAGE = SRC / "dogtag"


def module_name(path: Path, root: Path = SRC) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def app_of(module: str) -> str:
    """`dogtag.licensing.kennels` -> `licensing`; a top-level module (`dogtag.urls`) is its own."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def modules(root: Path = PACKAGE, *, migrations=False) -> Iterator[tuple[str, Path, ast.Module]]:
    for path in sorted(root.rglob("*.py")):
        if not migrations and "migrations" in path.parts:
            continue
        yield module_name(path, root.parent), path, ast.parse(path.read_text(), str(path))
