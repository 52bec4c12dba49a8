"""The endgame tables (``mcts_engine/tables``): materials and their numbering, the solved
values against a brute-force search over real states (draw rules and all), the probe's
respect for the draw rules, files on disk, the search playing a won ending by the table,
the options that turn them on and the ``mcts-engine tables`` command."""
from __future__ import annotations

import random

import pytest
from click.testing import CliRunner

from mcts_engine.native import StopSignal
from mcts_engine.agents import make_agent
from mcts_engine.cli import main
from mcts_engine.endgame_suite import SUITE
from mcts_engine.endgames import convert
from mcts_engine.mcts.limits import Limits
from mcts_engine.mcts.settings import Settings
from mcts_engine.mcts.uct import open_tables
from mcts_engine.protocol.options import OptionValues
from mcts_engine.rules import get_game
from mcts_engine.rules.draughts import DraughtsState
from mcts_engine.tables import (Material, Numbering, TableSet, TableTooLarge, default_directory, default_materials,
                                 materials_named)
from mcts_engine.tables.solve import plies_of

TWO_KINGS, KING_MAN = Material(2, 0, 1, 0), Material(2, 0, 0, 1, turn=0)


@pytest.fixture(scope="module")
def english(tmp_path_factory) -> TableSet:
    """English two kings against a king, and against a man, with the tables they lead to."""
    tables = TableSet(get_game("english"), tmp_path_factory.mktemp("tables"))
    for material in (TWO_KINGS, KING_MAN):
        tables.build(material)
    return tables


def test_material_names_read_back_and_bad_names_are_refused():
    for material in default_materials():
        assert Material.parse(material.name) == material
    assert Material.parse("2k1m-1k/1") == Material(2, 1, 1, 0, 1)
    assert materials_named("2K-1M") == [Material(2, 0, 0, 1, 0), Material(2, 0, 0, 1, 1)]
    assert materials_named("3K-1K") == [Material(3, 0, 1, 0)]
    for bad in ("", "3K", "K-K", "3K-1K/1", "2Q-1K", "-"):
        with pytest.raises(ValueError, match="material"):
            Material.parse(bad)


def test_material_of_a_position_and_after_a_quiet_move():
    game = get_game("international")
    state = game.parse_fen("B:WK2:BK5,K30,35")
    assert Material.of(state.own, state.opp, state.kings, state.turn) == Material(2, 1, 1, 0, turn=1)
    assert Material(2, 1, 1, 0, turn=1).after_quiet_move() == Material(1, 0, 2, 1, turn=0)
    assert TWO_KINGS.after_quiet_move() == Material(1, 0, 2, 0) and not TWO_KINGS.has_men


def test_default_materials_are_every_ending_of_three_pieces_and_three_kings_against_one():
    found = default_materials()
    assert len(found) == len(set(found)) == 30
    assert all(2 <= m.pieces <= 3 for m in found[:-1]) and found[-1] == Material(3, 0, 1, 0)
    assert all(min(m.own_kings + m.own_men, m.opp_kings + m.opp_men) >= 1 for m in found)


def test_more_pieces_are_every_ending_up_to_that_many_pieces_once():
    """Four pieces: 25 materials (own 1, 2 or 3 pieces, each side any split into kings and
    men), the 22 with men once for each player to move: 47, beside the 29 of up to three."""
    three, four = default_materials(), default_materials(4)
    assert len(four) == len(set(four)) == 29 + 47 and set(three) < set(four)
    assert sum(m.pieces == 4 for m in four) == 47 and max(m.pieces for m in four) == 4
    assert Material.parse("2K-1K1M/1") in four and Material.parse("1M-3M/0") in four


@pytest.mark.parametrize("game_name, material", [("english", KING_MAN), ("international", Material(1, 0, 1, 0)),
                                                 ("russian", Material(1, 1, 0, 1, turn=1))])
def test_numbering_gives_every_placement_its_own_slot(game_name, material):
    game = get_game(game_name)
    numbering = Numbering(game, material)
    seen = set()
    for index, own, opp, kings in numbering.positions():
        assert 0 <= index < numbering.size and index not in seen
        assert numbering.index(own, opp, kings) == index
        assert Material.of(own, opp, kings, material.turn) == material
        assert not own & opp and not (own & ~kings) & game.promo[material.turn]
        seen.add(index)
    assert len(seen) > numbering.size // 2


def _negamax(state: DraughtsState, depth: int) -> int | None:
    """What a plain search over real states (draw rules included, independent of the
    tables) proves within ``depth`` plies for the side to move: n > 0 it wins in n plies,
    -n it loses in n (0: it has lost), None nothing."""
    outcome = state.outcome()
    if outcome is not None:
        return None if outcome == 0.5 else 0      # decided: the side to move has no move and lost
    if depth == 0:
        return None
    wins, losses = [], []
    for move in state.legal_moves():
        child = state.copy()
        child.play(move)
        reply = _negamax(child, depth - 1)
        if reply is None:
            continue
        (wins if reply <= 0 else losses).append(1 - reply if reply <= 0 else reply + 1)
    if wins:
        return min(wins)
    return -max(losses) if len(losses) == len(state.legal_moves()) else None


@pytest.mark.parametrize("material", [TWO_KINGS, TWO_KINGS.after_quiet_move(), KING_MAN,
                                      KING_MAN.after_quiet_move()])
def test_tables_agree_with_a_brute_force_search(english, material):
    """A sample of positions, half of them decided within 3 plies by the table, against a
    plain search 3 plies deep: the same result in the same number of plies, and nothing
    where the table has nothing that short."""
    game, table = english.game, english.table(material)
    short, rest = [], []
    for index, own, opp, kings in table.numbering.positions():
        v = int(table.values[index])
        found = plies_of(v) if v > 0 else -plies_of(v) if v < 0 else None
        (short if found is not None and abs(found) <= 3 else rest).append((found, own, opp, kings))
    rng = random.Random(7)
    sample = rng.sample(short, min(60, len(short))) + rng.sample(rest, 60)
    assert len(sample) > 100
    for found, own, opp, kings in sample:
        state = DraughtsState(game, own, opp, kings, material.turn)
        expected = found if found is not None and abs(found) <= 3 else None
        assert _negamax(state, 3) == expected, state.fen()


def test_a_won_position_has_a_move_one_ply_shorter_and_a_lost_one_only_longer_ones(english):
    """The tables' own consistency over every position of two kings against one: a win in n
    has a move into a loss in n - 1 and none shorter; a loss in n has only moves into wins
    of at most n - 1, one of them n - 1."""
    game = english.game
    for material in (TWO_KINGS, TWO_KINGS.after_quiet_move()):
        table = english.table(material)
        for index, own, opp, kings in table.numbering.positions():
            v = int(table.values[index])
            if v == 0:
                continue
            state = DraughtsState(game, own, opp, kings, 0)
            after = []
            for move in state.legal_moves():
                child = state.copy()
                child.play(move)
                if child.outcome() is not None:           # took the last piece: lost there
                    after.append((False, 0))
                    continue
                hit = english.probe(child)
                mover_wins = None if hit is None or hit.result == 0.5 else hit.result == (child.turn == 0)
                after.append(None if mover_wins is None else (mover_wins, hit.plies))
            if v > 0:
                losses = [p for r in after if r is not None and not r[0] for p in [r[1]]]
                assert min(losses) == plies_of(v) - 1, state.fen()
            else:
                assert all(r is not None and r[0] for r in after), state.fen()
                assert max((r[1] for r in after), default=-1) == plies_of(v) - 1, state.fen()


def test_the_probe_keeps_to_the_draw_rules(english, tmp_path):
    game = english.game
    won = game.parse_fen("W:WK12,K32:BK15")                       # the suite's en-2k1k-d: 31 plies
    assert english.probe(won).plies == 31 and english.probe(won).result == 0.0   # White (player 1) wins
    late = won.copy()
    late.ply = late.capture_ply = 60                             # 60 of the 80 quiet plies gone
    assert english.probe(late) is None
    drawn = game.parse_fen("B:WK1:BK32")                          # one king each, far apart: exact
    assert english.probe(drawn).result == 0.5
    assert english.probe(game.parse_fen("B:WK1,K3,K5:BK32")) is None        # no 3K-1K table here
    russian = TableSet(get_game("russian"), tmp_path)
    table = russian.build(KING_MAN)
    assert not table.exact                                        # a crowning into a counted ending
    unknown = next(DraughtsState(russian.game, own, opp, kings, 0)
                   for index, own, opp, kings in table.numbering.positions() if table.values[index] == 0)
    assert russian.probe(unknown) is None


def test_tables_on_disk_are_found_again_and_a_broken_one_is_built_again(english, tmp_path):
    again = TableSet(english.game, english.folder.parent)
    assert set(again.on_disk()) >= {TWO_KINGS, KING_MAN, Material(1, 0, 1, 0)} and again.max_pieces == 3
    assert (again.table(TWO_KINGS).values == english.table(TWO_KINGS).values).all()
    fresh = TableSet(english.game, tmp_path)
    fresh.build(Material(1, 0, 1, 0))
    fresh.path(Material(1, 0, 1, 0)).write_bytes(b"not a table")
    broken = TableSet(english.game, tmp_path)
    assert broken.table(Material(1, 0, 1, 0)) is None and Material(1, 0, 1, 0) in broken.broken
    assert broken.build(Material(1, 0, 1, 0)).values.any()
    assert TableSet(english.game, tmp_path).table(Material(1, 0, 1, 0)) is not None
    with pytest.raises(ValueError, match="antidraughts"):
        TableSet(get_game("antidraughts"), tmp_path)


def all_read(tables: TableSet) -> bool:
    """Wait (at most a minute) until every table on disk is in memory; whether they all are."""
    import time
    deadline = time.monotonic() + 60
    while len(tables.loaded()) < len(tables.on_disk()) and time.monotonic() < deadline:
        time.sleep(0.01)
    return {t.material for t in tables.loaded()} == set(tables.on_disk())


def test_tables_are_warmed_once_an_ending_is_a_capture_away(tmp_path):
    """``warm`` has every table on disk read (so that the probes of an ending read no file), and
    only near an ending."""
    game = get_game("english")
    TableSet(game, tmp_path).build(TWO_KINGS)
    cold, warm = TableSet(game, tmp_path), TableSet(game, tmp_path)
    cold.warm(game.new_state())                                   # the start: nothing read
    warm.warm(game.parse_fen("W:WK12,K32,K1:BK15"))               # four pieces: a capture away
    assert all_read(warm)
    for file in warm.folder.glob("*.npz"):
        file.unlink()
    won = game.parse_fen("W:WK12,K32:BK15")
    assert warm.probe(won).plies == 31 and cold.probe(won) is None and not cold.loaded()


def test_the_search_plays_the_tables_shortest_win_and_longest_defence(english):
    settings = Settings(seed=1, endgame_tables=str(english.folder.parent))
    row = next(r for r in SUITE if r.name == "en-2k1k-d")
    conversion = convert(row, settings, Limits(nodes=200))
    assert conversion.result == "win" and conversion.plies == row.plies == 31
    agent = make_agent(english.game, settings)
    state = english.game.parse_fen(row.fen)
    found = agent.search(state.copy(), Limits(nodes=10_000), StopSignal())
    assert found.info.mate == 16 and found.info.nodes < 200        # proven: every root move tried, then stop
    child = state.copy()
    child.play(found.move)
    assert english.probe(child).plies == 30


def test_the_alpha_beta_takes_the_tables_verdict_below_its_root(english):
    """The alpha-beta (RootCheck, LeafDepth, train-eval's deeper labels) takes the tables' verdict
    for every position below its root: one ply values two kings against one a win, where the
    evaluation alone values it short of one."""
    row = next(r for r in SUITE if r.name == "en-2k1k-d")
    state = english.game.parse_fen(row.fen)
    values = []
    for directory in (str(english.folder.parent), ""):
        agent = make_agent(english.game, Settings(seed=1, endgame_tables=directory))
        agent.start_search(state.copy(), Limits(nodes=1), ())
        values.append(agent.core.alphabeta(1))
    assert values[0] == 1.0 and 0.5 < values[1] < 0.99


def test_a_search_without_tables_pays_nothing(tmp_path):
    assert open_tables(get_game("english"), "") is None
    assert open_tables(get_game("english"), str(tmp_path)) is None          # none built
    assert open_tables(get_game("life"), str(tmp_path)) is None


def test_endgame_tables_follow_the_game_defaults_and_table_path(tmp_path):
    values = OptionValues()
    values.apply(values.check("UCI_Variant", "russian"))
    assert values.settings().endgame_tables == str(default_directory())
    values.apply(values.check("TablePath", str(tmp_path)))
    assert values.settings().endgame_tables == str(tmp_path)
    values.apply(values.check("Defaults", "plain"))
    assert values.settings().endgame_tables == ""
    values.apply(values.check("EndgameTables", "true"))
    assert values.settings().endgame_tables == str(tmp_path)
    values.apply(values.check("UCI_Variant", "fanorona"))
    assert values.settings().endgame_tables == str(tmp_path)            # no tables: the agent opens none


def test_tables_command_builds_lists_and_refuses_bad_input(tmp_path):
    runner = CliRunner()
    built = runner.invoke(main, ["tables", "english", "--material", "2K-1K", "--path", str(tmp_path)])
    assert built.exit_code == 0, built.output
    assert "2K-1K: 14,846 won, 0 lost to move, the rest drawn, longest 33 plies" in built.output
    assert built.output.strip().splitlines()[-1].startswith("3 tables in ")
    listed = runner.invoke(main, ["tables", "english", "--list", "--path", str(tmp_path)])
    assert listed.exit_code == 0 and len(listed.output.strip().splitlines()) == 3
    bad = runner.invoke(main, ["tables", "english", "--material", "2Q-1K", "--path", str(tmp_path)])
    assert bad.exit_code == 2 and "2Q-1K" in bad.output
    other = runner.invoke(main, ["tables", "fanorona", "--path", str(tmp_path)])
    assert other.exit_code == 2 and "fanorona has no endgame tables" in other.output


def test_tables_command_builds_every_ending_up_to_pieces(tmp_path):
    runner = CliRunner()
    built = runner.invoke(main, ["tables", "english", "--pieces", "2", "--path", str(tmp_path)])
    assert built.exit_code == 0, built.output
    names = {line.split()[2].rstrip(":") for line in built.output.splitlines()[:-1]}
    assert {"1M-1M/0", "1M-1M/1", "1K-1M/1", "3K-1K"} <= names and "2K-1M/0" not in names
    refused = runner.invoke(main, ["tables", "english", "--pieces", "7", "--path", str(tmp_path)])
    assert refused.exit_code == 2 and "--pieces" in refused.output


def test_a_search_agent_reads_its_tables_in_the_background_from_its_start(english):
    """Five pieces of English take seconds to read: an agent starts reading them when it is
    made, so that the first search of an ending does not spend its move's time on it."""
    tables = open_tables(get_game("english"), str(english.folder.parent))
    assert all_read(tables) and tables.loaded()     # no search, no warm(): only the preloader read them
    tables.warm(get_game("english").parse_fen("W:WK18:BK9,12"))     # an ending: nothing left to read
    assert len(tables.loaded()) == len(tables.on_disk())


def test_the_first_search_of_an_ending_never_waits_for_the_preloader(english, monkeypatch):
    """A game set up in an ending as the engine starts: its first search reads its root's table
    and goes on while the preloader is still reading the rest (it once waited for the whole set,
    seconds for five pieces, and lost on time at 100 ms a move)."""
    import threading
    from mcts_engine.tables import store
    reading, release = threading.Event(), threading.Event()
    real = store.read_table

    def slow_read(path, game, material):
        if threading.current_thread().name == "endgame tables":   # the preloader's reads only
            reading.set()
            release.wait(60)
        return real(path, game, material)

    monkeypatch.setattr(store, "read_table", slow_read)
    game = english.game
    row = next(r for r in SUITE if r.name == "en-2k1k-d")
    agent = make_agent(game, Settings(seed=1, endgame_tables=str(english.folder.parent)))
    try:
        assert reading.wait(60)                       # the preloader is inside its first file
        found: list = []
        searcher = threading.Thread(target=lambda: found.append(
            agent.search(game.parse_fen(row.fen), Limits(nodes=300), StopSignal())))
        searcher.start()
        searcher.join(30)
        assert found and found[0].info.mate == 16     # its root's table read at once: the win proven
        assert len(agent.tables.loaded()) < len(agent.tables.on_disk())
    finally:
        release.set()
    assert all_read(agent.tables)


def test_a_search_never_waits_for_the_file_the_preloader_is_reading(english, monkeypatch):
    """The preloader reads a file without holding the tables' lock: a search starting meanwhile
    gets the tables read so far at once (it once waited for every file of the set)."""
    import threading
    from mcts_engine.tables import store
    reading, release = threading.Event(), threading.Event()
    real = store.read_table

    def slow_read(path, game, material):
        reading.set()
        release.wait(60)
        return real(path, game, material)

    monkeypatch.setattr(store, "read_table", slow_read)
    tables = open_tables(get_game("english"), str(english.folder.parent))
    try:
        assert reading.wait(60)                       # the preloader is inside its first file
        answer: list = []
        searcher = threading.Thread(target=lambda: answer.append(tables.loaded()))
        searcher.start()
        searcher.join(30)
        assert answer == [[]]                         # at once, with nothing read yet
    finally:
        release.set()
    tables.warm(get_game("english").parse_fen("W:WK18:BK9,12"))
    assert all_read(tables)


def test_an_ending_too_large_for_the_memory_is_refused_before_any_work_and_the_rest_built(tmp_path, monkeypatch):
    """English 2K1M-2K1M needed 24 GB and was killed by the system 14 minutes in: the solver
    now says up front what a material needs against what the machine has, and the command
    builds the endings that fit."""
    from mcts_engine.tables import solve
    tables = TableSet(get_game("english"), tmp_path)
    monkeypatch.setattr(solve, "available_memory", lambda: 10_000_000)     # 10 MB: its positions alone need 11
    with pytest.raises(TableTooLarge, match=r"3K-1K of english needs at least 11 MB .*317,440 positions.* 10 MB"):
        tables.build(Material(3, 0, 1, 0))
    monkeypatch.setattr(solve, "available_memory", lambda: 20_000_000)     # 20 MB: with its moves, 28
    with pytest.raises(TableTooLarge, match=r"3K-1K of english needs about \d+ MB .*317,440 positions.*"
                                            r"moves among them.* 20 MB available"):
        tables.build(Material(3, 0, 1, 0))
    assert not tables.on_disk()                                            # refused before any work
    result = CliRunner().invoke(main, ["tables", "english", "--material", "3K-1K", "--material", "2K-1K",
                                       "--path", str(tmp_path)])
    assert result.exit_code == 1
    assert "3K-1K of english needs about" in result.output and "not built for lack of memory: 3K-1K" in result.output
    assert "2K-1K: 14,846 won" in result.output and {m.name for m in TableSet(get_game("english"), tmp_path).on_disk()} \
        == {"1K-1K", "2K-1K", "1K-2K"}


def test_the_memory_check_counts_the_moves_of_flying_kings(tmp_path, monkeypatch):
    """International 1K3M-1K was let through and killed by the system at 24 GB (2026-11-30): the
    check counted 100 bytes a position, measured on English's short kings, where International's
    flying kings make two or three times the moves.  It now counts the moves first (the kernel's
    first pass): International 3K-1K, 1.96 M positions, needs 0.37 GB where positions alone said
    0.20, so 0.3 GB is refused."""
    from mcts_engine.tables import solve
    international = get_game("international")
    monkeypatch.setattr(solve, "available_memory", lambda: 300_000_000)
    # the kernel counts them; the Python walk (no kernel) assumes WALK_MOVES_PER_POSITION a position
    needed, moves = ("367", "24,666,472") if international.kernel is not None else ("447", "31,360,000")
    with pytest.raises(TableTooLarge, match=rf"3K-1K of international needs about {needed} MB .*1,960,000 "
                                            rf"positions.*{moves} moves.* 300 MB available"):
        TableSet(international, tmp_path).build(Material(3, 0, 1, 0))


def test_a_refused_ending_is_not_counted_again_until_the_memory_is_there(tmp_path, monkeypatch):
    """International 2K2M-1K was counted (40 s) and refused four times in one command, once for
    each larger ending asked for that crowns into it: a refusal is remembered, and tried again
    only once the memory it needs is available."""
    from mcts_engine.tables import solve
    checked = []
    real_check = solve.check_memory
    monkeypatch.setattr(solve, "check_memory", lambda *a: checked.append(a[3]) or real_check(*a))
    monkeypatch.setattr(solve, "available_memory", lambda: 20_000_000)     # 3K-1K needs 28 MB with its moves
    tables = TableSet(get_game("english"), tmp_path)
    with pytest.raises(TableTooLarge, match=r"3K-1K of english needs about \d+ MB"):
        tables.build(Material(3, 0, 1, 0))
    first = list(checked)                                                  # the positions, then with the moves
    with pytest.raises(TableTooLarge, match=r"3K-1K of english needs about \d+ MB"):
        tables.build(Material(3, 0, 1, 0))
    assert len(first) == 2 and first[0] is None and checked == first     # the second refusal at once
    monkeypatch.setattr(solve, "available_memory", lambda: 10 ** 10)
    assert tables.build(Material(3, 0, 1, 0)).material == Material(3, 0, 1, 0)      # tried again, and built


def test_the_memory_estimate_is_what_the_solver_was_measured_to_need():
    """Fitted to what three builds' peaks added to the process, about 0.3 GB before the solving
    (Python, numpy, the smaller tables; docs/tables.md): English 3K-3K (24.6 M positions, 91.0 M
    moves) 1.8 GB, International 4K-1K (23.0 M, 299.7 M) 4.0 GB, International 3K1M-1K/0 (98.0 M,
    961.9 M) 13.8 GB.  The estimate stays above each, by less than 15%."""
    from mcts_engine.tables.solve import memory_needed
    for positions, moves, added in [(24_601_600, 91_020_724, 1.81e9), (23_030_000, 299_728_396, 4.05e9),
                                    (98_000_000, 961_861_596, 13.78e9)]:
        assert added < memory_needed(positions, moves) < added * 1.15


def test_the_first_search_leaves_a_large_table_to_the_preloader(english, monkeypatch):
    """Six pieces' tables are 20 to 25 MB and took a first search 5 to 8 s to read (a game lost on
    time at 100 ms a move): while the preloader is still reading, a search reads only the files
    of at most WARM_FILE_BYTES itself, and probes the large ones once the preloader has them."""
    import threading
    from mcts_engine.tables import store
    reading, release = threading.Event(), threading.Event()
    real, read_by_search = store.read_table, []

    def slow_read(path, game, material):
        if threading.current_thread().name == "endgame tables":   # the preloader's reads
            reading.set()
            release.wait(60)
        else:
            read_by_search.append(material)
        return real(path, game, material)

    monkeypatch.setattr(store, "read_table", slow_read)
    monkeypatch.setattr(store, "WARM_FILE_BYTES", 0)             # every file "large"
    tables = open_tables(english.game, str(english.folder.parent))
    try:
        assert reading.wait(60)
        tables.warm(english.game.parse_fen("W:WK18:BK9,12"))      # 2K-1K: its files are left to the preloader
        assert read_by_search == []
    finally:
        release.set()
    tables.warm(english.game.parse_fen("W:WK18:BK9,12"))
    assert all_read(tables) and read_by_search == []


def test_the_agents_of_a_process_share_their_tables_and_find_one_built_since(tmp_path):
    """Training's self-play makes an agent per game: each read International's 94 tables again
    (243 MB), 95% of its time. The process's agents now share one set, which still finds a
    table built after it was opened."""
    game = get_game("english")
    TableSet(game, tmp_path).build(Material(1, 0, 1, 0))
    first = make_agent(game, Settings(seed=1, endgame_tables=str(tmp_path)))
    second = make_agent(game, Settings(seed=2, endgame_tables=str(tmp_path)))
    assert first.tables is second.tables and first.tables.max_pieces == 2
    TableSet(game, tmp_path).build(TWO_KINGS)
    third = make_agent(game, Settings(seed=3, endgame_tables=str(tmp_path)))
    assert third.tables is first.tables and third.tables.max_pieces == 3
    assert third.tables.probe(game.parse_fen("W:WK12,K32:BK15")).plies == 31
