"""The learned evaluation's weights files: one text file per variant and version, shipped in
the package (``weights/<variant>.v<N>.weights``), written by ``mcts-engine train-eval``.

The format (version 2), line by line::

    # the provenance: the command that made the file, the games it learned from, its losses
    format 2
    variant english
    layout dark-8x8-9x4x4-...            (learned.PatternLayout.signature: the board it reads)
    unit 1000                            (weights per unit of logit)
    scalar to_move <full> <empty>        (one line per learned.SCALARS, in order)
    kings <lines>
    <bit> <full> <empty>                 (one line per king square with a weight, the rest are 0)
    patterns <regions> <lines>
    <region> <index> <full> <empty>      (one line per pattern with a weight, the rest are 0)
    checksum <crc32 of every line above, hex>

Version 1 (the files from before the balance and the king squares: ``english.v1``,
``international.v5``) has neither the ``scalar balance`` line nor the ``kings`` lines; it is read
with those weights 0, so it scores every position as it always did.

Plain text so that a reader can see what a file holds and where it came from; read once per
game, on the first search that asks for it (``DraughtsGame.search_rules``).  A missing or damaged
file raises ``WeightsError`` naming the file and what is wrong with it.
"""
from __future__ import annotations

import zlib
from pathlib import Path

import numpy as np

from ..errors import RulesError
from .learned import KING_BITS, MAX_WEIGHT, PATTERN_SIZE, SCALARS, LearnedWeights

FORMAT = 2
SCALARS_OF_FORMAT = {1: SCALARS[:5], 2: SCALARS}     # the scalar lines a file of each format holds
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
    kings = np.asarray(weights.kings, dtype=np.int64)
    bits = np.nonzero(np.any(kings != 0, axis=1))[0].tolist()
    lines.append(f"kings {len(bits)}")
    lines += [f"{b} {kings[b, 0]} {kings[b, 1]}" for b in bits]
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
    version = {str(v): v for v in SCALARS_OF_FORMAT}.get(fields["format"])
    if version is None:
        raise ValueError(f"format {fields['format']}, this engine reads formats 1 and {FORMAT}")
    unit = int(fields["unit"])
    if not 0 < unit <= MAX_WEIGHT:
        raise ValueError(f"unit {unit} out of range")
    scalars = []
    for name in SCALARS_OF_FORMAT[version]:
        row = rows.pop(0).split()
        if len(row) != 4 or row[:2] != ["scalar", name]:
            raise ValueError(f"expected a line `scalar {name} <full> <empty>`, found {' '.join(row)!r}")
        scalars.append((_weight(row[2]), _weight(row[3])))
    scalars += [(0, 0)] * (len(SCALARS) - len(scalars))
    kings = _king_squares(rows) if version >= 2 else np.zeros((KING_BITS, 2), dtype=np.int32)
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
    return LearnedWeights(fields["variant"], fields["layout"], unit, tuple(scalars), patterns, header, kings)


def _king_squares(rows: list[str]) -> np.ndarray:
    """The ``kings`` section at the head of ``rows`` (taken off them) as a (KING_BITS, 2) table."""
    head = rows.pop(0).split()
    if len(head) != 2 or head[0] != "kings":
        raise ValueError(f"expected a line `kings <lines>`, found {' '.join(head)!r}")
    kings = np.zeros((KING_BITS, 2), dtype=np.int32)
    for _ in range(int(head[1])):
        row = rows.pop(0).split() if rows else []
        if len(row) != 3 or not all(x.lstrip("-").isdigit() for x in row):
            raise ValueError(f"expected a line `<bit> <full> <empty>` of the kings, found {' '.join(row)!r}")
        bit = int(row[0])
        if not 0 <= bit < KING_BITS:
            raise ValueError(f"a king square's bit {bit} out of range")
        kings[bit] = (_weight(row[1]), _weight(row[2]))
    return kings


def _weight(text: str) -> int:
    value = int(text)
    if abs(value) > MAX_WEIGHT:
        raise ValueError(f"weight {value} beyond {MAX_WEIGHT}")
    return value
