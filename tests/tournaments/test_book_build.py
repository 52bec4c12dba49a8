"""``mcts-tournament book build``: which positions a book holds, and that the same command
builds the same book, which the engine then reads."""
from __future__ import annotations

from mcts_engine.book import load_book, position_key
from mcts_engine.rules import get_game
from support.tournament import run
from tournaments.book.build import BookSettings, book_positions, build_book, default_openings


def after(state, *texts):
    state = state.copy()
    for text in texts:
        state.play(state.parse_move(text))
    return state


def children(state):
    return [after(state, state.move_str(move)) for move in state.legal_moves()]


def test_the_positions_are_the_ends_every_reply_then_the_replies_to_the_books_moves():
    """From one English opening end E: ply 1 is every position one move past E (the book's
    side plays second there), ply 2 every reply to the book's move at E, ply 3 every reply
    to the book's moves at ply 1; each position once."""
    game = get_game("english")
    end = after(game.new_state(), "11-15", "23-19", "8-11")

    def first(state):                                              # the "book's" move
        return state.legal_moves()[0]

    def booked(state):
        return after(state, state.move_str(first(state)))

    found = list(book_positions([end, end.copy()], 3, first))
    keys = {p: [position_key(s) for q, s in found if q == p] for p in range(4)}
    assert keys[0] == [position_key(end)]                          # once, though given twice
    assert keys[1] == [position_key(s) for s in children(end)]
    assert keys[2] == [position_key(s) for s in children(booked(end))]
    ply_3 = {position_key(s) for p in children(end) for s in children(booked(p))}
    assert set(keys[3]) == ply_3 - set(keys[0] + keys[1] + keys[2])
    assert len({position_key(s) for _, s in found}) == len(found)


def test_the_default_openings_are_the_games_shipped_set():
    assert default_openings("english") == "english-3move"
    assert default_openings("international") == "international-2move"


def test_the_same_settings_build_the_same_book(tmp_path):
    openings = tmp_path / "openings.txt"
    openings.write_text("11-15 23-19 8-11\n9-13 22-18 10-14\n")
    settings = BookSettings("english", {}, str(openings), plies=1, nodes=300, seed=3)
    one, two = build_book(settings, "cmd"), build_book(settings, "cmd")
    assert one.entries == two.entries
    assert [e.ply for e in one.entries].count(0) == 2 and len(one.entries) > 2
    assert one.header["per_ply"] == [2, len(one.entries) - 2]


def test_the_command_writes_a_book_the_engine_reads(tmp_path):
    openings, out = tmp_path / "openings.txt", tmp_path / "book.json"
    openings.write_text("# two ballots\n11-15 23-19 8-11\n9-13 22-18 10-14\n")
    proc = run("book", "build", "--game", "checkers", "--openings", str(openings), "--plies", "0",
               "--nodes", "200", "--out", str(out))
    assert proc.stdout.strip().startswith(f"2 positions in {out}")
    book = load_book(out)
    assert book.game == "english" and len(book.entries) == 2
    assert book.header["command"] == (f"mcts-tournament book build --game english --openings {openings} "
                                      f"--plies 0 --nodes 200 --seed 1 --out {out}")
    assert book.header["openings"] == "openings.txt" and len(book.header["openings_sha256"]) == 64
    bad = run("book", "build", "--game", "russian", "--openings", "nowhere", "--out", str(out), check=False)
    assert bad.returncode == 2 and "no file 'nowhere'" in bad.stderr
