"""Thousands of seeded random and malformed lines to ONE engine process: it must never die.

Every line gets nothing, one ``info string error: ...`` line, or the documented answer of its
command; afterwards the engine still plays a normal search.  After every line the test sends
``stop`` and ``isready`` and reads up to ``readyok``, so each line's answer is checked on its
own and searches never pile up.
"""
from __future__ import annotations

import random
import re
import time

from mcts_engine.rules import get_game, list_games
from support.drivers import EngineProcess

SEED = 20240611
LINES = 3000
MAX_ERROR_LEN = 2000

COMMANDS = {"uci", "ugi", "isready", "debug", "setoption", "ucinewgame", "uginewgame", "position", "go",
            "stop", "ponderhit", "quit", "query", "d", "perft", "hub"}
OPTION_NAMES = ["UCI_Variant", "Threads", "ParallelMerge", "Seed", "Agent", "UCT_C", "PriorWeight",
                "MinimaxWeight", "Widening", "Playout", "PlayoutDepth", "Epsilon", "KeepStats",
                "TreeReuse", "Solver", "FinalMove", "MoveOverhead", "Ponder", "Rules"]
GOOD_VALUES = {
    "UCI_Variant": ["english", "international", "russian", "turkish", "frisian", "thai", "canadian"],
    "Threads": ["1"], "ParallelMerge": ["visits", "vote"],
    "Seed": ["0", "1", "99"], "Agent": ["uct", "random", "greedy"],
    "UCT_C": ["0", "0.5", "2"], "PriorWeight": ["0", "1.5"], "MinimaxWeight": ["0", "0.3", "1"],
    "Playout": ["random", "capture", "greedy-eps", "mast"],
    "Widening": ["0", "0.5"], "KeepStats": ["true", "false"],
    "PlayoutDepth": ["0", "4", "10000"], "Epsilon": ["0", "0.3", "1"], "TreeReuse": ["true", "false"],
    "Solver": ["true", "false"], "FinalMove": ["robust", "max"], "MoveOverhead": ["0", "30", "5000"],
    "Ponder": ["true", "false"], "Rules": ["", "no_progress=0", "men_rows=2", "promotion=pass"],
}
BAD_VALUES = ["-1", "2147483648", "1e999", "nan", "-inf", "", "true", "maybe", "3.5", "x" * 50,
              "10001", "5001", "0x10", "promotion=sideways", "key", "=", ",,,=", "men_rows=99", "é",
              "\u202e", "9" * 5000]
FINISHED = ["B:W18:B", "W:W29:B25,22", "B:WK1:B"]
GO_LIMITS = ["nodes 50", "movetime 10", "nodes 50 movetime 10", "infinite", "ponder", "depth 2",
             "wtime 100 btime 100", "p1time 50 p2time 50 p1inc 0 p2inc 0", "movestogo 1 wtime 30 btime 30",
             "searchmoves 11-15", "searchmoves 9-13 10-14 nodes 50", "ponder movetime 10", "nodes 1",
             "movetime 0", "wtime -100 btime -100"]
GO_JUNK = ["nodes", "nodes -5", "nodes ten", "movetime", "fast", "searchmoves", "searchmoves zz",
           "depth 99999999999999999999999", "wtime x", "infinite extra", "mate", "nodes 1.5"]


def random_word(rng: random.Random, alphabet: str = "abcdefghijklmnopqrstuvwxyz0123456789-x:=,._/") -> str:
    return "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 12)))


def random_unicode(rng: random.Random, n: int) -> str:
    ranges = [(0x20, 0x7e), (0xa0, 0x24f), (0x370, 0x3ff), (0x400, 0x4ff), (0x2000, 0x206f),
              (0x3040, 0x30ff), (0x4e00, 0x4fff), (0x1f300, 0x1f64f), (0x0, 0x1f), (0xfff0, 0xffff)]
    out = []
    for _ in range(n):
        lo, hi = rng.choice(ranges)
        c = chr(rng.randint(lo, hi))
        out.append(" " if c == "\n" else c)
    return "".join(out)


def garbage_line(rng: random.Random) -> str:
    while True:
        line = " ".join(random_word(rng) for _ in range(rng.randint(1, 6)))
        if line.split()[0].lower() not in COMMANDS:
            return line


def mutate(rng: random.Random, text: str) -> str:
    chars = list(text)
    for _ in range(rng.randint(1, 4)):
        op = rng.random()
        i = rng.randrange(len(chars) + 1)
        if op < 0.4 and chars:
            del chars[min(i, len(chars) - 1)]
        elif op < 0.8:
            chars.insert(i, rng.choice("WBK:,-0123456789x "))
        else:
            chars.insert(i, random_unicode(rng, 1))
    return "".join(chars)


def legal_line(rng: random.Random) -> list[str]:
    """A legal English game prefix (the engine may be on another variant: then it is an error)."""
    game = get_game("english")
    state = game.new_state()
    moves = []
    for _ in range(rng.randint(0, 30)):
        if state.outcome() is not None:
            break
        move = state.random_move(rng)
        moves.append(state.move_str(move))
        state.play(move)
    return ["position startpos" + (" moves " + " ".join(moves) if moves else "")]


def make_lines(rng: random.Random):
    """One fuzz case: a list of lines (bytes or str); the first token of each decides its check."""
    kind = rng.randrange(20)
    if kind == 0:
        return [garbage_line(rng)]
    if kind == 1:
        return [random_unicode(rng, rng.randint(1, 40))]
    if kind == 2:
        return [bytes(rng.choice([b for b in range(256) if b != 10]) for _ in range(rng.randint(1, 40)))]
    if kind == 3:
        fen = mutate(rng, rng.choice(["B:W21,22,23:B1,2,3", "W:W31-50:B1-20", "W:Wa1,c1:Bh8", "B:WK5:BK28"]))
        return [f"position fen {fen}" + rng.choice(["", " moves 11-15", " moves"])]
    if kind == 4:
        junk = [rng.choice(["11-15", "11-15 11-15", "99x1", "a-b", "0000", "1-1", "15x24x31", "x", "-",
                            "32-28", random_word(rng), random_unicode(rng, 3)]) for _ in range(rng.randint(1, 4))]
        return ["position startpos moves " + " ".join(junk)]
    if kind == 5:
        return legal_line(rng)
    if kind == 6:
        name = rng.choice(OPTION_NAMES)
        value = rng.choice(BAD_VALUES) if rng.random() < 0.7 else rng.choice(GOOD_VALUES[name])
        return [f"setoption name {name} value {value}"]
    if kind == 7:
        name = rng.choice([random_word(rng), random_unicode(rng, 5), "Threads Count", "UCI Variant", "value"])
        return [f"setoption name {name} value {random_word(rng)}",
                rng.choice(["setoption", "setoption value 3", "setoption name", f"setoption name {name}"])]
    if kind == 8:
        return ["setoption name UCI_Variant value english", f"position fen {rng.choice(FINISHED)}",
                f"go {rng.choice(GO_LIMITS[:3])}"]
    if kind == 9:
        return [rng.choice(["stop", "ponderhit", "stop now", "ponderhit please"])]
    if kind == 10:
        return [rng.choice(["position", "position fen", "position startpos moves", "position startpos x",
                            "position moves 11-15", "position fen moves", "position " + random_word(rng),
                            "position startpos fen B:W1:B2", "POSITION STARTPOS MOVES 11-15"])]
    if kind == 11:
        return [rng.choice(["query", "query " + random_word(rng), "query fen fen", "query gameover",
                            "query p1turn", "query result", "query fen", "query moves", "query rules",
                            "query " + random_unicode(rng, 4)])]
    if kind == 12:
        return [rng.choice(["perft", "perft -1", "perft x", "perft 1 2", "perft 99999", "perft 3.0",
                            "perft " + random_unicode(rng, 3), f"perft {rng.randint(0, 3)}"])]
    if kind == 13:
        return [rng.choice(["", " ", "\t", "  \t  ", "\r", "\x00", "\x0b\x0c"])]
    if kind == 14:
        n = rng.choice([1000, 20000, 100000])
        return [rng.choice(["position fen ", "setoption name Rules value ", "go ", "query ", "perft ",
                            "", "position startpos moves "]) + random_unicode(rng, n)]
    if kind == 15:
        return [f"go {rng.choice(GO_LIMITS)}"]
    if kind == 16:
        return [f"go {rng.choice(GO_JUNK)}"]
    if kind == 17:
        return [rng.choice(["uci", "ugi", "d", "isready", "ucinewgame", "uginewgame", "debug on", "debug",
                            "UCI", "Isready"])]
    if kind == 18:
        return [rng.choice(["go", "go nodes 50 searchmoves", "go movetime 10 movetime 20"]), "go nodes 10 nodes"]
    return [garbage_line(rng) + " " + random_unicode(rng, 10)]


BESTMOVE = re.compile(r"bestmove \S+( ponder \S+)?")


def check_answer(line: str, out: list[str], stats: dict) -> None:
    """The output of one fuzz line (with its stop/isready sync lines removed)."""
    tokens = line.split()
    errors = [s for s in out if s.startswith("info string error: ")]
    stats["errors"] += len(errors)
    for s in errors:
        assert len(s) < MAX_ERROR_LEN, f"error line of {len(s)} characters"
    if not tokens:
        assert out == [], (line, out)
        return
    cmd = tokens[0].lower()
    if cmd not in COMMANDS:
        assert len(out) == 1 and errors == out, (line[:100], out)
        return
    if errors and cmd != "go":   # a rejected command prints only its one error line
        assert errors == out and len(out) == 1, (line[:100], out)
        return
    if cmd in ("uci", "ugi"):
        assert out[-1] == ("uciok" if cmd == "uci" else "ugiok") and out[0].startswith("id name"), out
        assert all(s.startswith(("id ", "option name ")) for s in out[:-1]), out
    elif cmd == "isready":
        assert out == ["readyok"], out
    elif cmd in ("debug", "setoption", "ucinewgame", "uginewgame", "position", "stop", "ponderhit"):
        assert out == [], (line[:100], out)
    elif cmd == "go":            # a malformed go: its error line, then its bestmove all the same
        best = [s for s in out if s.startswith("bestmove")]
        assert len(best) == 1 and out[-1] == best[0] and BESTMOVE.fullmatch(best[0]), (line, out)
        assert all(s.startswith("info ") for s in out[:-1]), (line, out)
        stats["bestmoves"] += 1
        if best[0] == "bestmove 0000":
            stats["finished"] += 1
            assert any(s.startswith("info string ") and ("over" in s or "cannot be searched" in s) for s in out), out
    elif cmd == "query":
        assert len(out) == 1 and out[0].split()[:1] == ["response"], (line, out)
    elif cmd == "d":
        assert out[-1].startswith("side to move: ") and any(s.startswith("fen ") for s in out), out
    elif cmd == "perft":
        assert out[-1].startswith("nodes ") and all(re.fullmatch(r"\S+ \d+", s) for s in out), (line, out)
        total = int(out[-1].split()[1])
        assert total == sum(int(s.split()[1]) for s in out[:-1]) or (len(out) == 1 and total in (0, 1))
    else:
        raise AssertionError(f"unexpected command in the fuzz: {line!r}")


def test_fuzz_one_engine_never_dies():
    rng = random.Random(SEED)
    engine = EngineProcess()
    stats = {"errors": 0, "bestmoves": 0, "finished": 0, "lines": 0}
    start = time.perf_counter()
    try:
        engine.send("uci")
        engine.until("uciok")
        while stats["lines"] < LINES:
            for item in make_lines(rng):
                stats["lines"] += 1
                raw = item if isinstance(item, bytes) else item.encode("utf-8")
                text = raw.decode("utf-8", errors="replace")
                engine.send(raw)
                engine.send("stop")
                engine.send("isready")
                expected_ready = 2 if text.split()[:1] and text.split()[0].lower() == "isready" else 1
                out, seen = [], 0
                while seen < expected_ready:
                    s = engine.read()
                    if s == "readyok":
                        seen += 1
                        if seen == expected_ready:
                            break
                    out.append(s)
                check_answer(text, out, stats)
                assert engine.proc.poll() is None, f"the engine died after {text[:100]!r}"
        elapsed = time.perf_counter() - start
        print(f"fuzz: {stats} in {elapsed:.1f} s")
        # the fuzz reached every kind of answer
        assert stats["errors"] > LINES // 4 and stats["bestmoves"] > 50 and stats["finished"] > 10, stats
        # afterwards: still alive and playing
        assert engine.sync() == []
        for line in ("setoption name UCI_Variant value english", "setoption name Rules value",
                     "setoption name Agent value uct", "setoption name PlayoutDepth value 0",
                     "setoption name MoveOverhead value 30", "ucinewgame", "position startpos"):
            assert engine.ask(line) == [], line
        legal = engine.query("moves").split()
        _, move = engine.go("nodes 100")
        assert move in legal
        _, move = engine.go("movetime 50")
        assert move in legal
        assert engine.close() == 0          # (its time is printed above: the machine's speed, not asserted)
    finally:
        engine.kill()


def test_every_variant_plays_a_move():
    """Each registered game: position startpos, a short search, a legal bestmove."""
    engine = EngineProcess()
    try:
        for name in list_games():
            assert engine.ask(f"setoption name UCI_Variant value {name}") == [], name
            legal = engine.query("moves").split()
            assert sorted(legal) == sorted(s.move_str(m) for s in [get_game(name).new_state()]
                                           for m in s.legal_moves())
            _, move = engine.go("nodes 30")
            assert move in legal, (name, move)
        assert engine.close() == 0
    finally:
        engine.kill()
