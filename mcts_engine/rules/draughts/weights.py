"""The learned evaluation's weights files: one text file per variant and version, shipped in
the package (``weights/<variant>.v<N>.weights``), written by ``mcts-engine train-eval``.

The format (version 1), line by line::

    # the provenance: the command that made the file, the games it learned from, its losses
    format 1
    variant english
    layout dark-8x8-9x4x4-...            (learned.PatternLayout.signature: the board it reads)
    unit 1000                            (weights per unit of logit)
    scalar to_move <full> <empty>        (one line per learned.SCALARS, in order)
    patterns <regions> <lines>
    <region> <index> <full> <empty>      (one line per pattern with a weight, the rest are 0)
    checksum <crc32 of every line above, hex>

Plain text so that a reader can see what a file holds and where it came from; read once per
game, on the first search that asks for it (``DraughtsGame.search_rules``).  A missing or damaged
file raises ``WeightsError`` naming the file and what is wrong with it.
"""
from __future__ import annotations

import zlib
from pathlib import Path

import numpy as np

from ..errors import RulesError
from .learned import MAX_WEIGHT, PATTERN_SIZE, SCALARS, LearnedWeights

FORMAT = 1
WEIGHTS_DIR = Path(__file__).parent / "weights"
SHIPPED_VERSIONS = {"english": 1, "international": 5}   # the weights each variant plays with


class WeightsError(RulesError):
    """A learned evaluation's weights file that is missing or cannot be read; the message
    names the file and what is wrong."""


def weights_path(variant: str, version: int | None = None) -> Path:
    """The package's weights file of ``variant``: ``<variant>.v<version>.weights``, by default
    the version it plays with (``SHIPPED_VERSIONS``; 1 for a variant with none shipped yet)."""
    return WEIGHTS_DIR / f"{variant}.v{version or SHIPPED_VERSIONS.get(variant, 1)}.weights"


def format_weights(weights: LearnedWeights) -> str:
    """The text of a weights file (``weights.header`` as its comment lines)."""
    lines = [f"# {line}" if line else "#" for line in weights.header]
    lines += [f"format {FORMAT}", f"variant {weights.variant}", f"layout {weights.layout}", f"unit {weights.unit}"]
    lines += [f"scalar {name} {full} {empty}" for name, (full, empty) in zip(SCALARS, weights.scalars)]
    patterns = np.asarray(weights.patterns, dtype=np.int64)
    regions, indices = np.nonzero(np.any(patterns != 0, axis=2))
    lines.append(f"patterns {patterns.shape[0]} {len(regions)}")
    lines += [f"{r} {i} {patterns[r, i, 0]} {patterns[r, i, 1]}" for r, i in zip(regions.tolist(), indices.tolist())]
    body = "\n".join(lines) + "\n"
    return body + f"checksum {zlib.crc32(body.encode()):08x}\n"


def write_weights(path: str | Path, weights: LearnedWeights) -> None:
    """Write ``weights`` to ``path`` (whole, then renamed into place)."""
    path = Path(path)
    temporary = path.with_name(path.name + ".partial")
    temporary.write_text(format_weights(weights), encoding="utf-8")
    temporary.replace(path)


def shipped_or_path(path: str | Path) -> Path:
    """``path``, or the package's file of that name when ``path`` is a bare file name with no
    such file here (``EvalWeights english.v1.weights`` names a shipped file on any machine, so a
    training command that plays with an older version stays the same text everywhere)."""
    path = Path(path)
    if path.parent == Path(".") and not path.exists() and (WEIGHTS_DIR / path.name).is_file():
        return WEIGHTS_DIR / path.name
    return path


def _read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise WeightsError(f"learned evaluation weights {path}: no such file (`mcts-engine train-eval` makes "
                           "one; the hand-set evaluation needs none)") from None
    except (OSError, UnicodeDecodeError) as err:
        raise WeightsError(f"learned evaluation weights {path}: cannot be read: {err}") from None


def read_weights(path: str | Path) -> LearnedWeights:
    """The weights in ``path`` (or the shipped file of that bare name, ``shipped_or_path``);
    raises WeightsError naming the file and the fault."""
    path = shipped_or_path(path)
    text = _read_text(path)
    try:
        return parse_weights(text)
    except (ValueError, IndexError) as err:
        raise WeightsError(f"learned evaluation weights {path}: {err}") from None


def weights_identity(path: str | Path) -> str:
    """Which weights file ``path`` is (or the shipped file of that bare name): its name and its
    checksum line, ``english.v1.weights, checksum 56b75206``; WeightsError as ``read_weights``."""
    path = shipped_or_path(path)
    try:
        _, checksum = _check_sum(_read_text(path))
    except ValueError as err:
        raise WeightsError(f"learned evaluation weights {path}: {err}") from None
    return f"{path.name}, {checksum}"


def _check_sum(text: str) -> tuple[list[str], str]:
    """A file's lines above its checksum line, and that line; ValueError where they disagree."""
    body, _, last = text.rstrip("\n").rpartition("\n")
    if not last.startswith("checksum "):
        raise ValueError("no checksum line at the end (a truncated file?)")
    if f"{zlib.crc32((body + chr(10)).encode()):08x}" != last.split()[1]:
        raise ValueError("the checksum does not match (a damaged or edited file)")
    return body.split("\n"), last


def parse_weights(text: str) -> LearnedWeights:
    """The weights a file's text holds; ValueError on any fault."""
    lines, _ = _check_sum(text)
    header = tuple(line[2:] if line.startswith("# ") else line[1:] for line in lines if line.startswith("#"))
    rows = [line for line in lines if line and not line.startswith("#")]
    fields = {}
    for key in ("format", "variant", "layout", "unit"):
        row = rows.pop(0).split()
        if len(row) != 2 or row[0] != key:
            raise ValueError(f"expected a line `{key} ...`, found {' '.join(row)!r}")
        fields[key] = row[1]
    if fields["format"] != str(FORMAT):
        raise ValueError(f"format {fields['format']}, this engine reads format {FORMAT}")
    unit = int(fields["unit"])
    if not 0 < unit <= MAX_WEIGHT:
        raise ValueError(f"unit {unit} out of range")
    scalars = []
    for name in SCALARS:
        row = rows.pop(0).split()
        if len(row) != 4 or row[:2] != ["scalar", name]:
            raise ValueError(f"expected a line `scalar {name} <full> <empty>`, found {' '.join(row)!r}")
        scalars.append((_weight(row[2]), _weight(row[3])))
    head = rows.pop(0).split()
    if len(head) != 3 or head[0] != "patterns":
        raise ValueError(f"expected a line `patterns <regions> <lines>`, found {' '.join(head)!r}")
    n_regions, n_lines = int(head[1]), int(head[2])
    if len(rows) != n_lines:
        raise ValueError(f"{len(rows)} pattern lines, the file says {n_lines}")
    patterns = np.zeros((n_regions, PATTERN_SIZE, 2), dtype=np.int32)
    if n_lines:
        table = np.array(" ".join(rows).split(), dtype=np.int64)
        if table.size != 4 * n_lines:
            raise ValueError("a pattern line without its four numbers")
        table = table.reshape(n_lines, 4)
        if (table[:, 0] < 0).any() or (table[:, 0] >= n_regions).any() or (table[:, 1] < 0).any() \
                or (table[:, 1] >= PATTERN_SIZE).any():
            raise ValueError("a pattern line names a region or index out of range")
        if (np.abs(table[:, 2:]) > MAX_WEIGHT).any():
            raise ValueError(f"a pattern weight beyond {MAX_WEIGHT}")
        patterns[table[:, 0], table[:, 1]] = table[:, 2:]
    return LearnedWeights(fields["variant"], fields["layout"], unit, tuple(scalars), patterns, header)


def _weight(text: str) -> int:
    value = int(text)
    if abs(value) > MAX_WEIGHT:
        raise ValueError(f"weight {value} beyond {MAX_WEIGHT}")
    return value
