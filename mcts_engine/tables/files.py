"""An endgame table's file: what it holds, how it is written, and every check on reading it.

A file (``.npz``, numpy's zip of arrays) holds the table's values and, beside them, what they
are: the file ``format``, the ``material`` and the ``variant`` (the game and its rule options)
they were solved for, the endgame ``count``, whether the table is ``exact``, and a
``checksum`` (SHA-256) of all of these with the values.  ``read_table`` believes none of it
unchecked: an empty, truncated or garbled file, one of another format, one whose material or
variant is not the one asked for (two files swapped, a file copied from another variant's
directory), values of the wrong type or number, or a checksum that does not match, are a
``TableFileError`` naming the file and what is wrong, never a table read wrongly.
"""
from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

import numpy as np

from ..rules.base import Game
from .material import Material, Numbering
from .solve import Table

FORMAT = 2            # the file layout; a table of another format is built again
VALUE_TYPES = (np.int8, np.int16, np.int32)     # what the native search reads (signed, 1, 2 or 4 bytes)
FIELDS = ("format", "material", "variant", "count", "exact", "checksum", "values")


class TableFileError(ValueError):
    """A table file that cannot be used (the text names the file and why)."""


def variant_of(game: Game) -> str:
    """The game and rule options a table is solved for, as its file records them."""
    return f"{game.name} {sorted(game.options.items())!r}"


def checksum(values: np.ndarray, material: str, variant: str, count: int, exact: bool) -> str:
    """The SHA-256 of a table's values and what they are."""
    digest = hashlib.sha256(f"{FORMAT}|{material}|{variant}|{count}|{int(exact)}|{values.dtype.str}|".encode())
    digest.update(np.ascontiguousarray(values).tobytes())
    return digest.hexdigest()


def write_table(table: Table, game: Game, path: Path) -> None:
    """Write ``table`` to ``path`` whole: under a temporary name in its directory, then renamed into
    place, so that a reader never sees half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    count = -1 if table.count is None else table.count
    variant, material = variant_of(game), table.material.name
    handle, temporary = tempfile.mkstemp(dir=path.parent, suffix=".part")
    try:
        with os.fdopen(handle, "wb") as out:
            np.savez_compressed(out, values=table.values, format=FORMAT, exact=table.exact, count=count,
                                material=material, variant=variant,
                                checksum=checksum(table.values, material, variant, count, table.exact))
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise


def read_table(path: Path, game: Game, material: Material) -> Table:
    """The table of ``material`` in ``game`` from ``path``, every field checked; TableFileError
    names the file and what is wrong."""
    fields = _fields(path)
    where = f"{path}:"
    if fields["format"] != FORMAT:
        raise TableFileError(f"{where} file format {fields['format']}, this engine reads format {FORMAT}")
    if fields["material"] != material.name:
        raise TableFileError(f"{where} holds the table of {fields['material']}, not {material.name} "
                             "(a file renamed or swapped)")
    variant = variant_of(game)
    if fields["variant"] != variant:
        raise TableFileError(f"{where} was solved for {fields['variant']}, not {variant}")
    values = fields["values"]
    numbering = Numbering(game, material)
    if values.dtype.type not in VALUE_TYPES or not values.dtype.isnative or values.shape != (numbering.size,):
        raise TableFileError(f"{where} {values.size:,} values of type {values.dtype}, the numbering has "
                             f"{numbering.size:,} signed integers")
    count, exact = fields["count"], fields["exact"]
    if fields["checksum"] != checksum(values, fields["material"], fields["variant"], count, exact):
        raise TableFileError(f"{where} its checksum does not match its contents (a damaged file)")
    return Table(material, numbering, values, None if count < 0 else count, exact)


def _fields(path: Path) -> dict:
    """Every field of the file, read and typed; TableFileError for any file numpy cannot read or
    that lacks a field."""
    try:
        if path.stat().st_size == 0:
            raise TableFileError(f"{path}: an empty file")
        with np.load(path, allow_pickle=False) as data:
            if "format" in data.files and int(data["format"]) != FORMAT:
                return {"format": int(data["format"])}
            missing = [name for name in FIELDS if name not in data.files]
            if missing:
                raise TableFileError(f"{path}: not a table file of this engine (no {', '.join(missing)} in it)")
            return {"format": int(data["format"]), "material": str(data["material"]), "variant": str(data["variant"]),
                    "count": int(data["count"]), "exact": bool(data["exact"]), "checksum": str(data["checksum"]),
                    "values": data["values"]}
    except TableFileError:
        raise
    except Exception as err:      # numpy and zipfile raise many kinds for a damaged file: all mean unreadable
        raise TableFileError(f"{path}: unreadable ({type(err).__name__}: {err})") from None
