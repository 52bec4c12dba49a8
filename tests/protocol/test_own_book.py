"""The opening book: the OwnBook option plays a book move without a search, found by the
position's key; a missing or broken book is an error line naming it, and the engine searches
as usual; the books that ship are sound (every entry's key, FEN and moves)."""
from __future__ import annotations

import json

import pytest

from support.drivers import InProcessEngine
from mcts_engine.book import (BOOK_VERSION, BookEntry, BookError, load_book, position_key, shipped_book,
                              write_book)
from mcts_engine.rules import get_game

AFTER_BALLOT = ["11-15", "23-19", "8-11"]                 # an English three-move ballot


@pytest.fixture
def engine():
    eng = InProcessEngine()
    yield eng
    eng.close()


def book_of(tmp_path, game: str, lines: list[list[str]], move_for=None, name="book.json") -> tuple:
    """A book of the positions at the end of ``lines``: the move ``move_for(state)`` (default the
    last legal move, which a search would rarely choose) and its expected reply."""
    g = get_game(game)
    entries = []
    for moves in lines:
        state = g.new_state()
        for text in moves:
            state.play(state.parse_move(text))
        move = move_for(state) if move_for else state.legal_moves()[-1]
        after = state.copy()
        after.play(move)
        entries.append(BookEntry(position_key(state), state.fen(), 0, state.move_str(move),
                                 after.move_str(after.legal_moves()[0]), 0.625, 89, (500, 250, 250), 1000))
    path = tmp_path / name
    write_book(path, {"game": game, "rules": {}, "command": "test"}, entries)
    return path, entries


def go_lines(engine, position: str, limits: str = "nodes 200") -> tuple[list[str], str]:
    engine.ask(position)
    return engine.go(limits)


def test_the_book_move_is_played_without_a_search_with_its_score_and_ponder_move(engine, tmp_path):
    path, (entry,) = book_of(tmp_path, "english", [AFTER_BALLOT])
    engine.ask("setoption name OwnBook value true")
    engine.ask(f"setoption name BookFile value {path}")
    engine.ask("position startpos moves " + " ".join(AFTER_BALLOT))
    engine.send("go movetime 5000")
    *lines, last = engine.until("bestmove")
    assert last == f"bestmove {entry.move} ponder {entry.ponder}"
    assert "info string book move" in lines
    final = [s for s in lines if s.startswith("info depth")][-1]
    assert " nodes 0 " in final and " score cp 89 wdl 500 250 250 " in final
    assert final.endswith(f"pv {entry.move} {entry.ponder}")


def test_the_book_is_found_by_the_position_not_by_the_moves_that_led_there(engine, tmp_path):
    """The same position set up from its FEN (no move text at all) finds the entry."""
    path, (entry,) = book_of(tmp_path, "english", [AFTER_BALLOT])
    engine.ask("setoption name OwnBook value true")
    engine.ask(f"setoption name BookFile value {path}")
    _, move = go_lines(engine, f"position fen {entry.fen}")
    assert move == entry.move


def test_a_position_out_of_the_book_and_ownbook_off_are_searched(engine, tmp_path):
    path, (entry,) = book_of(tmp_path, "english", [AFTER_BALLOT])
    engine.ask(f"setoption name BookFile value {path}")
    lines, _ = go_lines(engine, "position startpos moves " + " ".join(AFTER_BALLOT))
    assert "info string book move" not in lines                        # OwnBook is off by default
    engine.ask("setoption name OwnBook value true")
    lines, _ = go_lines(engine, "position startpos moves 11-15")
    assert "info string book move" not in lines and any(" nodes 200 " in s for s in lines)


def test_searchmoves_outranks_the_book(engine, tmp_path):
    path, (entry,) = book_of(tmp_path, "english", [AFTER_BALLOT])
    engine.ask("setoption name OwnBook value true")
    engine.ask(f"setoption name BookFile value {path}")
    engine.ask("position startpos moves " + " ".join(AFTER_BALLOT))
    other = next(m for m in engine.query("moves").split() if m != entry.move)
    _, move = engine.go(f"nodes 100 searchmoves {other}")
    assert move == other


@pytest.mark.parametrize("broken, why", [
    (None, "cannot read the book"),
    ("{not json", "not valid JSON"),
    (json.dumps({"format": "mcts-engine book", "version": BOOK_VERSION + 1, "game": "english", "entries": []}),
     f"book version {BOOK_VERSION + 1}"),
    (json.dumps({"format": "mcts-engine book", "version": BOOK_VERSION, "game": "english",
                 "entries": [{"key": "x"}]}), "entry 0: no 'fen'"),
])
def test_a_missing_or_broken_book_is_an_error_naming_it_and_the_engine_searches(engine, tmp_path, broken, why):
    path = tmp_path / "broken.json"
    if broken is not None:
        path.write_text(broken)
    engine.ask("setoption name OwnBook value true")
    engine.ask(f"setoption name BookFile value {path}")
    lines, move = go_lines(engine, "position startpos moves " + " ".join(AFTER_BALLOT))
    errors = [s for s in lines if s.startswith("info string error")]
    assert len(errors) == 1 and str(path) in errors[0] and why in errors[0] and "searching as usual" in errors[0]
    assert any(" nodes 200 " in s for s in lines) and move != "0000"
    lines, _ = go_lines(engine, "position startpos")                   # reported once, not at every go
    assert not [s for s in lines if s.startswith("info string error")]


def test_a_book_whose_move_the_rules_refuse_is_an_error_and_a_search(engine, tmp_path):
    path, (entry,) = book_of(tmp_path, "english", [AFTER_BALLOT])
    data = json.loads(path.read_text())
    data["entries"][0]["move"] = "1-5"
    path.write_text(json.dumps(data))
    engine.ask("setoption name OwnBook value true")
    engine.ask(f"setoption name BookFile value {path}")
    lines, move = go_lines(engine, "position startpos moves " + " ".join(AFTER_BALLOT))
    assert any("error" in s and str(path) in s and "refuse" in s for s in lines)
    assert move in engine.query("moves").split()


def test_a_book_of_another_game_is_refused_by_name(engine, tmp_path):
    path, _ = book_of(tmp_path, "english", [AFTER_BALLOT])
    engine.ask("setoption name UCI_Variant value russian")
    engine.ask("setoption name OwnBook value true")
    engine.ask(f"setoption name BookFile value {path}")
    lines, _ = go_lines(engine, "position startpos")
    assert any("the book is for english, not russian" in s for s in lines)


def test_a_game_with_no_shipped_book_names_the_file_it_looked_for(engine):
    engine.ask("setoption name UCI_Variant value russian")
    engine.ask("setoption name OwnBook value true")
    lines, move = go_lines(engine, "position startpos")
    assert any(str(shipped_book("russian")) in s and "cannot read" in s for s in lines)
    assert move != "0000"


def test_load_book_refuses_a_position_twice(tmp_path):
    path, _ = book_of(tmp_path, "english", [AFTER_BALLOT, AFTER_BALLOT])
    with pytest.raises(BookError, match="entry 1: the position .* is in the book twice"):
        load_book(path)


@pytest.mark.parametrize("game", ["english", "international"])
def test_the_shipped_books_are_sound(game):
    """Every entry: its key is its FEN's, its move and reply legal there; the header names the
    command that made it and the openings."""
    book = load_book(shipped_book(game))
    g = get_game(game)
    assert book.game == game and book.header["command"].startswith(f"mcts-tournament book build --game {game} ")
    assert book.header["positions"] == len(book.entries) > 100
    for entry in book.entries.values():
        state = g.parse_fen(entry.fen)
        assert position_key(state) == entry.key
        found = book.lookup(state)
        assert state.move_str(found.move) == entry.move
