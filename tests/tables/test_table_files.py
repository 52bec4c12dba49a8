"""Endgame table files under attack (issue 30): every way a file can be unreadable, reported once,
searched without, and built again by ``mcts-engine tables``.

The reproductions: a zero-length file made every endgame search fail (``search failed:
EOFError``, then the first legal move) and ``mcts-engine tables english`` print only
``Aborted!``; two files of the same shape swapped were read silently (a won 3K-1K scored as a
draw, the losing side claiming mate).  (What this change added is imported inside the tests that
need it, so that the reproductions fail by their assertions on the code before it.)
"""
from __future__ import annotations

import shutil
import time
import zipfile

import numpy as np
import pytest
from click.testing import CliRunner

from mcts_engine.native import StopSignal
from mcts_engine.agents import make_agent
from mcts_engine.cli import main
from mcts_engine.mcts.core import feed_tables
from mcts_engine.mcts.limits import Limits
from mcts_engine.mcts.settings import Settings
from mcts_engine.rules import get_game
from mcts_engine.tables import Material, TableSet
from support.drivers import EngineProcess

TWO_ONE, ONE_TWO, ONE_ONE = Material(2, 0, 1, 0), Material(1, 0, 2, 0), Material(1, 0, 1, 0)
WON = "W:WK12,K32:BK15"          # English: White's two kings win against one (31 plies)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """English 2K-1K with the tables it leads to, built once: (directory, folder)."""
    root = tmp_path_factory.mktemp("tables")
    tables = TableSet(get_game("english"), root)
    tables.build(TWO_ONE)
    return root, tables.folder


@pytest.fixture
def tables(built, tmp_path):
    """A fresh copy of the built tables to damage: (directory, TableSet's folder)."""
    root, folder = built
    copy = tmp_path / "tables"
    shutil.copytree(root, copy)
    return copy, copy / folder.name


def rewrite(path, **changes):
    """Rewrite the file at ``path`` with some fields changed (the checksum kept unless changed)."""
    with np.load(path) as data:
        fields = {k: data[k] for k in data.files}
    fields.update(changes)
    with open(path, "wb") as out:
        np.savez_compressed(out, **fields)


def truncate(path):
    data = path.read_bytes()
    path.write_bytes(data[:len(data) // 2])


def empty(path):
    path.write_bytes(b"")


def garbage(path):
    path.write_bytes(b"not a table at all" * 100)


def flip_a_value(path):
    with np.load(path) as data:
        values = data["values"].copy()
    values[values.nonzero()[0][0]] *= -1
    rewrite(path, values=values)


def old_format(path):
    with np.load(path) as data:
        values = data["values"]
    with open(path, "wb") as out:
        np.savez_compressed(out, values=values, format=1, exact=True, count=-1)


def floats(path):
    from mcts_engine.tables.files import checksum
    with np.load(path) as data:
        values = data["values"].astype(np.float32)
        fields = {k: data[k] for k in ("material", "variant", "count", "exact")}
    rewrite(path, values=values, checksum=checksum(values, str(fields["material"]), str(fields["variant"]),
                                                   int(fields["count"]), bool(fields["exact"])))


def too_few(path):
    from mcts_engine.tables.files import checksum
    with np.load(path) as data:
        values = data["values"][:-1]
        fields = {k: data[k] for k in ("material", "variant", "count", "exact")}
    rewrite(path, values=values, checksum=checksum(values, str(fields["material"]), str(fields["variant"]),
                                                   int(fields["count"]), bool(fields["exact"])))


def no_checksum(path):
    with np.load(path) as data:
        fields = {k: data[k] for k in data.files if k != "checksum"}
    with open(path, "wb") as out:
        np.savez_compressed(out, **fields)


def zip_member_damaged(path):
    """Flip bytes inside the values member: zip's CRC (or the inflater) notices."""
    with zipfile.ZipFile(path) as z:
        info = z.getinfo("values.npy")
    data = bytearray(path.read_bytes())
    start = info.header_offset + 30 + len(info.filename) + 20
    for i in range(start, start + 40):
        data[i] ^= 0xFF
    path.write_bytes(bytes(data))


DAMAGE = [
    ("empty", empty, "an empty file"),
    ("truncated", truncate, "unreadable"),
    ("garbage", garbage, "unreadable"),
    ("a damaged zip member", zip_member_damaged, "unreadable"),
    ("a flipped value", flip_a_value, "checksum does not match"),
    ("the old format", old_format, "file format 1, this engine reads format 2"),
    ("float values", floats, "of type float32"),
    ("a value missing", too_few, "15,871 values"),
    ("no checksum", no_checksum, "no checksum in it"),
]


@pytest.mark.parametrize("damage, words", [d[1:] for d in DAMAGE], ids=[d[0] for d in DAMAGE])
def test_every_unreadable_file_is_named_ignored_reported_once_and_built_again(tables, damage, words):
    from mcts_engine.tables.files import TableFileError, read_table
    root, folder = tables
    game = get_game("english")
    damage(folder / "2K-1K.npz")
    store = TableSet(game, root)
    with pytest.raises(TableFileError, match=words):
        read_table(folder / "2K-1K.npz", game, TWO_ONE)
    assert store.table(TWO_ONE) is None and words in store.broken[TWO_ONE]
    assert store.probe(game.parse_fen(WON)) is None                    # searched without it
    reports = store.reports()
    assert len(reports) == 1 and "2K-1K" in reports[0] and "mcts-engine tables english" in reports[0]
    assert store.reports() == [] and store.table(TWO_ONE) is None and store.reports() == []   # once
    listed = CliRunner().invoke(main, ["tables", "english", "--list", "--path", str(root)])
    assert listed.exit_code == 0 and "Aborted" not in listed.output, listed.output
    assert "2K-1K: unreadable" in listed.output and words in listed.output
    rebuilt = CliRunner().invoke(main, ["tables", "english", "--material", "2K-1K", "--path", str(root)])
    assert rebuilt.exit_code == 0 and "2K-1K: 14,846 won" in rebuilt.output, rebuilt.output
    assert TableSet(game, root).probe(game.parse_fen(WON)).plies == 31


def test_two_files_of_the_same_shape_swapped_are_refused_not_read_as_each_other(tables):
    """On main a swapped pair was read silently: a won position scored as a draw, the loser claimed mate."""
    root, folder = tables
    game = get_game("english")
    a, b = folder / "2K-1K.npz", folder / "1K-2K.npz"
    a.rename(folder / "swap"), b.rename(a), (folder / "swap").rename(b)
    store = TableSet(game, root)
    assert store.table(TWO_ONE) is None and store.table(ONE_TWO) is None
    assert "holds the table of 1K-2K, not 2K-1K" in store.broken[TWO_ONE]
    assert store.probe(game.parse_fen(WON)) is None
    assert store.table(ONE_ONE) is not None                     # the sound ones still serve


def test_a_file_of_another_variant_is_refused(tables, tmp_path):
    from mcts_engine.tables.files import variant_of
    root, folder = tables
    russian = TableSet(get_game("russian"), tmp_path / "r")
    russian.folder.mkdir(parents=True)
    shutil.copy(folder / "2K-1K.npz", russian.folder / "2K-1K.npz")
    fresh = TableSet(get_game("russian"), tmp_path / "r")
    assert fresh.table(TWO_ONE) is None and "was solved for english" in fresh.broken[TWO_ONE]
    assert variant_of(get_game("russian")) in fresh.broken[TWO_ONE]


def test_the_native_search_gets_only_the_sound_tables_and_searches_on(tables):
    root, folder = tables
    empty(folder / "2K-1K.npz")
    game = get_game("english")
    agent = make_agent(game, Settings(seed=1, endgame_tables=str(root)))
    notes = []
    agent.on_note = notes.append
    state = game.parse_fen(WON)
    first = agent.search(state.copy(), Limits(nodes=300), StopSignal())
    second = agent.search(state.copy(), Limits(nodes=300), StopSignal())
    assert first.move in state.legal_moves() and second.move in state.legal_moves()
    assert len(notes) == 1 and "2K-1K of english is unreadable" in notes[0], notes
    deadline = time.monotonic() + 60
    while ONE_ONE not in {t.material for t in agent.tables.loaded()} and time.monotonic() < deadline:
        time.sleep(0.01)                   # the preloader reads the tables the root does not need
    assert TWO_ONE not in {t.material for t in agent.tables.loaded()}
    assert ONE_ONE in {t.material for t in agent.tables.loaded()}
    feed_tables(agent.core, game, agent.tables, state)           # the loaded ones still go to the core


def two_searches(root) -> tuple[tuple[list[str], str], tuple[list[str], str]]:
    """An engine process with ``TablePath`` ``root`` searches the won 2K-1K twice (400 nodes
    each): each search's lines and move."""
    engine = EngineProcess()
    try:
        engine.ask(f"setoption name TablePath value {root}")
        engine.ask(f"position fen {WON}")
        return engine.go("nodes 400"), engine.go("nodes 400")
    finally:
        engine.close()


def test_a_zero_length_table_no_longer_breaks_the_engines_endgame_search(tables):
    """On main: ``search failed: EOFError`` at every endgame search, then the first legal move."""
    root, folder = tables
    empty(folder / "2K-1K.npz")
    (lines, move), (again, _) = two_searches(root)
    strings = [s for s in lines if s.startswith("info string")]
    assert len(strings) == 1 and "2K-1K of english is unreadable" in strings[0], lines
    assert not any("search failed" in s for s in lines)
    assert not any(s.startswith("info string") for s in again)                # reported once


def test_an_engine_told_to_probe_tables_where_none_is_built_says_so_once(tmp_path):
    """A new machine's empty cache: the search plays without tables, and the user is told
    which command builds them (it once played on silently)."""
    (lines, move), (again, _) = two_searches(tmp_path)
    strings = [s for s in lines if s.startswith("info string")]
    assert len(strings) == 1 and f"no endgame tables for english in {tmp_path}" in strings[0], lines
    assert "`mcts-engine tables english`" in strings[0] and move
    assert not any(s.startswith("info string") for s in again)                # said once


def test_the_tables_command_builds_every_unreadable_table_on_disk_whatever_it_was_asked(tables):
    root, folder = tables
    empty(folder / "1K-1K.npz")                      # a table 2K-1K leads to: not rebuilt by recursion
    out = CliRunner().invoke(main, ["tables", "english", "--material", "2K-1K", "--path", str(root)])
    assert out.exit_code == 0 and "unreadable, built again" in out.output and "1K-1K" in out.output, out.output
    store = TableSet(get_game("english"), root)
    assert all(store.table(m) is not None for m in store.on_disk()) and not store.broken
