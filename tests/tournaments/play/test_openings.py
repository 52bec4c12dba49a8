"""Openings: files of move lines, FENs or PDN games; zero-padded squares; order and start;
the shipped sets (the English 3-move ballots, the FMJD table of Russian openings, the
International two-move openings), and a match that plays them."""
from __future__ import annotations

import json
import re

import pytest

from mcts_engine.rules import get_game
from support import require
from support.tournament import games_of, ours, run
from tournaments.play.conditions import Opening
from tournaments.play.openings import OpeningsSpec, load_openings, read_openings, shipped_sets

# the 18 ballots held to lose, as Richard Pask's "The Golden Dozen" (2005) lists them
PASK_BARRED = {"9-13 21-17 10-14", "9-13 23-18 10-14", "9-13 24-19 10-15", "9-13 24-20 12-16",
               "9-14 22-18 12-16", "9-14 22-18 14-17", "9-14 23-19 10-15", "9-14 24-19 10-15",
               "10-14 24-19 11-15", "10-15 21-17 9-14", "10-15 22-17 9-14", "10-15 24-20 11-16",
               "11-15 21-17 10-14", "11-16 21-17 10-14", "11-16 22-18 10-15", "11-16 24-19 10-15",
               "12-16 23-18 9-14", "12-16 23-19 16x23"}


def positions(game: str, openings) -> set[str]:
    out = set()
    for o in openings:
        state = get_game(game).parse_fen(o.fen) if o.fen else get_game(game).new_state()
        for text in o.moves:
            state.play(state.parse_move(text))
        out.add(state.fen())
    return out


def test_the_shipped_sets_and_their_counts():
    assert set(shipped_sets()) == {"english-3move", "russian-fmjd", "international-2move"}
    for name, game, count, plies in (("english-3move", "english", 156, {3}), ("russian-fmjd", "russian", 163, {2, 3, 4, 5, 6}),
                                     ("international-2move", "international", 81, {2})):
        openings = load_openings(OpeningsSpec(name), game, {}, seed=1)
        assert len(openings) == count and len(positions(game, openings)) == count, name
        assert {len(o.moves) for o in openings} <= plies and all(o.fen is None for o in openings)
        text = shipped_sets()[name].read_text()
        assert "Source" in text or "source" in text or "FMJD" in text      # each names where it comes from


def test_the_english_ballots_are_the_deck_less_the_18_barred():
    text = shipped_sets()["english-3move"].read_text()
    barred = {line.split(":", 1)[1].strip() for line in text.splitlines() if line.startswith("# barred:")}
    assert barred == PASK_BARRED
    playing = {" ".join(o.moves) for o in read_openings(shipped_sets()["english-3move"], "english", {})}
    assert not playing & barred and len(playing | barred) == 174


def test_the_english_ballots_agree_with_pydraughts_list():
    """pydraughts ships the same 174 ballots (zero-padded, captures written 13-22); it files
    one of Pask's 18 (9-13 24-19 10-15) among the playable ones and lists another twice."""
    require("draughts", "pydraughts is not installed", attribute="Board")
    from draughts.ballots import Ballots
    listed = Ballots("english").positions
    theirs = {" ".join(str(int(a)) + "-" + str(int(b)) for a, b in (m.split("-") for m in key.split()[1:]))
              for key in listed}
    text = shipped_sets()["english-3move"].read_text()
    ours = {line.replace("# barred:", "").strip().replace("x", "-") for line in text.splitlines()
            if line and (not line.startswith("#") or line.startswith("# barred:"))}
    assert ours == theirs


def test_file_formats_padding_and_errors(tmp_path):
    moves = tmp_path / "ballots.txt"
    moves.write_text("# KingsRow style\n09-13 21-17 05-09\n1. 11-15 23-19 2. 8-11\nB:W21,22,23:B1,2,3 | 1-5\n")
    assert read_openings(moves, "english", {}) == (Opening(None, ("9-13", "21-17", "5-9")),
                                                  Opening(None, ("11-15", "23-19", "8-11")),
                                                  Opening("B:W21,22,23:B1,2,3", ("1-5",)))
    fens = tmp_path / "positions.epd"
    fens.write_text("W:W31,32:B1,2\nB:W21,22,23:B1,2,3\n")
    assert read_openings(fens, "international", {}, "fen")[0] == Opening("W:W31,32:B1,2")
    pdn = tmp_path / "games.pdn"
    pdn.write_text('[GameType "21,B,8,8,N1,0"]\n1. 09-13! {good} 22-18 *\n\n[FEN "B:W21,22,23:B1,2,3"]\n1... 1-5 *\n')
    assert read_openings(pdn, "english", {}) == (Opening(None, ("9-13", "22-18")), Opening("B:W21,22,23:B1,2,3", ("1-5",)))
    bad = tmp_path / "bad.txt"
    bad.write_text("11-15\n11-15 11-15\n")
    with pytest.raises(ValueError, match="bad.txt:2"):
        read_openings(bad, "english", {})
    for text, words in (("file=x.txt order=shuffle", "order=shuffle"), ("file=x.txt start=0", "start=0"),
                        ("order=random", "file= is missing"), ("file=x.txt plies=two", "plies=two"),
                        ("file=x.txt depth=3", "'depth=3'")):
        with pytest.raises(ValueError, match=re.escape(words)):
            OpeningsSpec.parse(text)
    with pytest.raises(ValueError, match="no shipped set"):
        OpeningsSpec("nosuch-set").path()


def test_start_and_random_order():
    spec = OpeningsSpec.parse("file=english-3move start=3")
    plain = load_openings(OpeningsSpec("english-3move"), "english", {}, seed=1)
    assert load_openings(spec, "english", {}, seed=1) == plain[2:] + plain[:2]
    one, again, other = (load_openings(OpeningsSpec.parse("file=english-3move order=random"), "english", {}, seed=s)
                         for s in (1, 1, 2))
    assert one == again and one != other and sorted(one, key=repr) == sorted(plain, key=repr) and one[:5] != plain[:5]


def test_plies_cuts_every_opening_to_its_first_plies():
    """cutechess's ``plies=N``: only the first N plies of each opening's moves; a FEN stays."""
    assert OpeningsSpec.parse("file=english-3move plies=2 order=random").plies == 2
    whole = load_openings(OpeningsSpec("english-3move"), "english", {}, seed=1)
    cut = load_openings(OpeningsSpec.parse("file=english-3move plies=2"), "english", {}, seed=1)
    assert [o.moves for o in cut] == [o.moves[:2] for o in whole] and {len(o.moves) for o in cut} == {2}
    assert load_openings(OpeningsSpec.parse("file=english-3move plies=0"), "english", {}, seed=1)[0] == Opening(None)
    assert load_openings(OpeningsSpec.parse("file=english-3move plies=9"), "english", {}, seed=1) == whole


def test_a_ballot_match_in_random_order_plays_distinct_ballots_in_pairs(tmp_path):
    journal = tmp_path / "j.jsonl"
    run("match", "--game", "english", "--engine", ours("A", "Agent=random", "Seed=1"), "--engine",
        ours("B", "Agent=random", "Seed=2"), "--games", "12", "--nodes", "1", "--concurrency", "2",
        "--openings", "file=english-3move order=random", "--journal", str(journal), "--quiet")
    games = sorted(games_of(journal), key=lambda g: g["id"])
    ballots = [tuple(g["opening"]["moves"]) for g in games]
    assert ballots[::2] == ballots[1::2] and len(set(ballots)) == 6          # 6 pairs, 6 ballots
    assert all(g["players"] == h["players"][::-1] for g, h in zip(games[::2], games[1::2]))
    first_six = [tuple(o.moves) for o in read_openings(shipped_sets()["english-3move"], "english", {})[:6]]
    assert ballots[::2] != first_six
    header = json.loads(journal.read_text().splitlines()[0])
    assert len(header["settings"]["openings"]) == 156
