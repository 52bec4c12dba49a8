"""Game records travel: PDN that pydraughts' own reader reads move for move, and pydraughts'
own writer's PDN that we replay, in every variant both of us play; the PDN details writers
add (annotations, comments, zero-padded squares, long GameType) are read."""
from __future__ import annotations

import random

import pytest

from mcts_engine.records import game_record_text, parse_records, replay
from mcts_engine.rules import get_game
from support import require

# pydraughts' variant name -> ours
SHARED = {"standard": "international", "english": "english", "italian": "italian", "russian": "russian",
          "brazilian": "brazilian", "turkish": "turkish", "frisian": "frisian", "frysk!": "frysk",
          "antidraughts": "antidraughts", "breakthrough": "breakthrough"}
# the GameType numbers pydraughts' reader maps to a variant of its own (frysk!, antidraughts and
# breakthrough share Frisian's and International's, whose moves they play)
READ_AS = {"frysk!": "frisian", "antidraughts": "standard", "breakthrough": "standard"}


# a few variants in every run, the rest with the slow checks (pydraughts' Python move generator is slow)
QUICK = ("english", "russian", "standard")
VARIANTS = [v if v in QUICK else pytest.param(v, marks=pytest.mark.slow) for v in sorted(SHARED)]


def pieces(fen: str) -> int:
    """How many pieces a FEN lists."""
    return sum(len([s for s in part[1:].split(",") if s]) for part in fen.split(":")[1:])


def pydraughts():
    return require("draughts", "pydraughts is not installed (pip install pydraughts)", attribute="Board")


def our_game_record(game: str, seed: int, opening_plies: int = 0, plies: int = 60) -> dict:
    """A journal-like record of a seeded random game of ours: ``opening_plies`` as its opening."""
    state, rng, moves = get_game(game).new_state(), random.Random(seed), []
    for _ in range(opening_plies + plies):
        move = state.random_move(rng)
        if move is None:
            break
        moves.append(state.move_str(move))
        state.play(move)
    return {"game": game, "rules": {}, "players": ["A", "B"], "id": seed, "pair": 0, "finished": "2025-06-01T10:00:00",
            "opening": {"fen": None, "moves": moves[:opening_plies]},
            "start_fen": "(after the opening)", "moves": moves[opening_plies:], "score_first": state.outcome(),
            "reason": "a test"}


def pydraughts_replay(draughts, variant: str, moves: list[str], fen: str | None):
    board = draughts.Board(variant, fen or "startpos")
    for text in moves:
        board.push(draughts.Move(board, pdn_move=text))
    return board


@pytest.mark.parametrize("variant", VARIANTS)
def test_pydraughts_reads_our_records_move_for_move(variant):
    """Our records (two random games, the first with a 4-ply opening) as one PDN file:
    pydraughts' reader finds each game, its variant and every move, and its board plays them;
    the opening's moves are in the record from the real start, so no FEN is written."""
    draughts = pydraughts()
    from draughts.PDN import PDNReader
    records = [our_game_record(SHARED[variant], seed, opening_plies=4 if seed == 0 else 0, plies=40) for seed in range(2)]
    text = "\n".join(game_record_text(r) for r in records)
    games = PDNReader(text).games
    assert len(games) == 2
    for game, record in zip(games, records):
        expected = record["opening"]["moves"] + record["moves"]
        assert game.variant == READ_AS.get(variant, variant) and "FEN" not in game.tags
        assert [game.tags[t] for t in ("Event", "Site", "Date", "Round", "White", "Black")] == [
            "mcts-tournament", "?", "2025.06.01", str(record["id"] + 1), *(
                ["A", "B"] if get_game(SHARED[variant]).colours[0] == "W" else ["B", "A"])]
        assert len(game.moves) == len(expected)
        board = pydraughts_replay(draughts, READ_AS.get(variant, variant) if variant != "frysk!" else "frysk!",
                                  game.moves, None)
        assert len(board.move_stack) == len(expected)
        assert replay(parse_records(game_record_text(record))[0]).fen() == replay_ours(SHARED[variant], expected).fen()


def replay_ours(game: str, moves: list[str]):
    state = get_game(game).new_state()
    for text in moves:
        state.play(state.parse_move(text))
    return state


@pytest.mark.parametrize("variant", VARIANTS)
def test_we_replay_pydraughts_records(variant):
    """pydraughts' PDNWriter (its long GameType, a FEN tag, its move numbering) on random
    games of its own (two): we read every game and replay every move with our rules.  (Turkish games
    stop at the first king: pydraughts 0.6.7 lets a Turkish king move through pieces, which
    our rules rightly refuse.)"""
    draughts = pydraughts()
    from draughts.PDN import PDNWriter
    text, finals = "", []
    for seed in range(2):
        board, rng = draughts.Board(variant), random.Random(seed)
        for _ in range(40):
            if board.is_over() or (variant == "turkish" and "K" in board.fen):
                break
            board.push(rng.choice(board.legal_moves()))
        text += PDNWriter("", board=board, tags={"Event": "pydraughts"}, game_ending="*").pdn_text
        finals.append((len(board.move_stack), pieces(board.fen)))
    parsed = parse_records(text)
    assert [len(p.moves) for p in parsed] == [plies for plies, _ in finals]
    game = get_game(SHARED[variant])
    for p, (_, count) in zip(parsed, finals):
        assert p.tags["GameType"].split(",")[1:4] in (["W", "10", "10"], ["W", "8", "8"], ["B", "8", "8"])
        state = game.parse_fen(p.tags["FEN"]) if variant != "english" else game.new_state()
        for text_move in p.moves:
            state.play(state.parse_move(text_move))
        assert pieces(state.fen()) == count


def test_pydraughts_english_record_is_replayed_from_its_fen_tag():
    """pydraughts writes English with a FEN tag and ``1...``: the record replays from it."""
    draughts = pydraughts()
    from draughts.PDN import PDNWriter
    board, rng = draughts.Board("english"), random.Random(4)
    for _ in range(30):
        board.push(rng.choice(board.legal_moves()))
    [parsed] = parse_records(PDNWriter("", board=board, game_ending="*").pdn_text)
    assert parsed.tags["GameType"] == "21,B,8,8,N1,0" and len(parsed.moves) == 30
    assert replay(parsed).to_move == 0                      # 30 plies: Black (the first player) to move


def test_annotations_comments_and_padding_are_read():
    text = ('[Event "annotated"]\n[GameType "21,B,8,8,N1,0"]\n[Termination "a (b) {c}; d"]\n\n'
            "1. 09-13! {a comment} 22-18 (1... 10-14 2. 23-19) 2.10-14?! $1 ; to the line's end\n"
            "18x09 5x14 *\n"
            '[Event "short form"]\n[GameType "20"]\n1. 32-28 19-23 2. 28x19 14x23 1-1\n')
    first, second = parse_records(text)
    assert first.moves == ["9-13", "22-18", "10-14", "18x9", "5x14"] and first.result == "*"
    assert first.tags["Termination"] == "a (b) {c}; d"
    assert replay(first).fen() == replay_ours("english", first.moves).fen()
    assert second.moves == ["32-28", "19-23", "28x19", "14x23"] and second.result == "1-1"
    assert replay(second).fen() == replay_ours("international", second.moves).fen()


def test_a_record_from_a_position_keeps_its_fen_and_russian_captures_use_x():
    record = our_game_record("russian", 7)
    record["opening"] = {"fen": "W:Wc3,e3:Bd4,f6", "moves": []}
    record["moves"] = ["e3:c5", "f6-g5", "c5-d6"]
    text = game_record_text(record)
    assert '[FEN "W:Wc3,e3:Bd4,f6"]' in text and "1. e3xc5 f6-g5 2. c5-d6" in text
    assert replay(parse_records(text)[0]).fen() == get_game("russian").parse_fen("B:Wc3,d6:Bg5").fen()


def test_cutechess_move_comments_are_written_and_read_back():
    """A journal's per-move infos and times become cutechess's ``{+0.25/12 0.51s}`` after each
    engine move (opening moves none, a move the engine said nothing about only its time); our
    reader reads them into notes, and pydraughts' reader (which skips comments) replays the
    record move for move.  A journal written before the infos were kept has no comments."""
    record = our_game_record("english", 3, opening_plies=3, plies=30)
    n = len(record["moves"])
    record["infos"] = [{"cp": 25, "depth": 12}, {"mate": -3, "depth": 4}, {"cp": -140}, {}] * (n // 4 + 1)
    record["times_ms"] = [510, 45, 12000, 3] * (n // 4 + 1)
    text = game_record_text(record)
    assert "{+0.25/12 0.51s}" in text and "{-M3/4 0.045s}" in text and "{-1.40 12s}" in text and "{0.003s}" in text
    [parsed] = parse_records(text)
    assert parsed.moves == [m.replace(":", "x") for m in record["opening"]["moves"] + record["moves"]]
    assert parsed.notes[:3] == [None] * 3
    first, second, third, fourth = parsed.notes[3:7]
    assert (first.cp, first.depth, first.seconds, first.comment) == (25, 12, 0.51, "+0.25/12 0.51s")
    assert (second.mate, second.depth, second.seconds) == (-3, 4, 0.045)
    assert (third.cp, third.depth, third.seconds) == (-140, None, 12.0)
    assert (fourth.cp, fourth.mate, fourth.seconds) == (None, None, 0.003)
    assert replay(parsed).fen() == replay_ours("english", record["opening"]["moves"] + record["moves"]).fen()
    draughts = pydraughts()
    from draughts.PDN import PDNReader
    [theirs] = PDNReader(text).games
    assert len(theirs.moves) == len(parsed.moves)
    assert len(pydraughts_replay(draughts, "english", theirs.moves, None).move_stack) == len(parsed.moves)
    old = {k: v for k, v in record.items() if k not in ("infos", "times_ms")}
    assert "{" not in game_record_text(old) and all(note is None for note in parse_records(game_record_text(old))[0].notes)


def test_other_comments_are_kept_as_written_and_variations_skipped():
    [game] = parse_records('[Game "english"]\n1. 11-15 {a fine move} 23-19 (23-18 {in a variation}) ; the end\n*\n')
    assert game.moves == ["11-15", "23-19"]
    assert [n.comment if n else None for n in game.notes] == ["a fine move", "the end"]
    assert game.notes[0].cp is None and game.notes[0].seconds is None
