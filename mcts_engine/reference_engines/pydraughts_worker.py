"""Worker process: py-draughts' alpha-beta engines (``TurboEngine``, ``SimpleEngine``).

Run by the ``pydraughts-*`` adapters as ``<py-draughts venv>/bin/python -I pydraughts_worker.py``:
it imports only py-draughts (import name ``draughts``, which is why it lives in a virtual
environment of its own: pydraughts, our test dependency, has the same import name) and
the standard library, knows nothing of our rules, and speaks the JSON-lines protocol of
``bridge.py``.  A request's ``variant`` names py-draughts' board class (``StandardBoard``,
``RussianBoard``, ...: the adapter's table says which board plays which of our games).
Squares are py-draughts' numbers as strings (``"1"`` .. ``"50"``), in its own numbering
(every board row by row from the far left corner as its White sees it; White moves first).

Positions are replayed from the start with the moves, never loaded from a FEN unless the
game started from one (so that its engines see the game's history: repetitions and
its draw counts).  Each MOVE is matched against ``board.legal_moves`` by start, end and
captured squares.  ``stop`` ends a search at once (the engines check their clock every few
hundred nodes: TurboEngine's deadline, SimpleEngine's time limit are cut to now).  Where
py-draughts' own rules have drawn the game (``board.is_draw``; its English board after 40
plies of king moves, where ours play 80) its engines answer their first legal move without a
search, so the worker answers ``own_rules_end`` instead (the adapter notes it and plays its
fallback).

Beside the protocol's ops, ``{"op": "legal", "variant": ..., "start": ..., "moves": [...]}``
answers ``{"ok": true, "legal": [[MOVE, ...], ...], "drawn": [bool, ...]}``: py-draughts'
legal moves, and whether its rules have drawn, before each move and after the last (no
search; the tests compare them with our rules'), or the first move py-draughts does not have.
"""
import copy
import json
import sys
import threading
import time

INFINITE_SECONDS = 1e7
write_lock = threading.Lock()


def write(message):
    """One answer as a JSON line, flushed (the search thread and the main thread both write)."""
    with write_lock:
        sys.stdout.write(json.dumps(message, separators=(",", ":")) + "\n")
        sys.stdout.flush()


def key(move):
    """A py-draughts Move as [start, end, [captured...]] in its 1-based numbers."""
    return [str(move.square_list[0] + 1), str(move.square_list[-1] + 1),
            sorted((str(c + 1) for c in move.captured_list), key=int)]


class PyDraughtsEngines:
    """The boards and engines of py-draughts; one engine object per kind and variant, kept
    between the moves of a game (their transposition tables) and dropped at ``new``."""

    def __init__(self, draughts):
        self.draughts = draughts
        self.boards = {name: cls for name, cls in vars(draughts).items()
                       if name.endswith("Board") and isinstance(cls, type)
                       and issubclass(cls, draughts.BaseBoard) and cls is not draughts.BaseBoard}
        self.engines = {}
        self.running = None
        self.last = None          # ((variant, start), moves, board): the last replay, continued when extended

    def board(self, variant, start, moves, seen=None):
        """The board (py-draughts' class ``variant``) after ``moves`` (MOVEs) from the start or
        ``start`` (a FEN); a replay that extends the last one continues it.  ValueError names a
        move py-draughts does not have.  ``seen(ply, board)``, if given, is called before each
        move and after the last (a full replay then)."""
        if variant not in self.boards:
            raise ValueError(f"py-draughts has the boards {', '.join(sorted(self.boards))}, not {variant!r}")
        cls = self.boards[variant]
        moves = [[m[0], m[1], sorted(m[2], key=int)] for m in moves]
        last = self.last
        if seen is None and last and last[0] == (variant, start) and last[1] == moves[:len(last[1])]:
            done, board = len(last[1]), copy.deepcopy(last[2])
        else:
            done, board = 0, cls() if start is None else cls.from_fen(start)
        for ply, wanted in enumerate(moves[done:], start=done):
            if seen is not None:
                seen(ply, board)
            legal = board.legal_moves
            match = [m for m in legal if key(m) == wanted]
            if not match:
                raise ValueError(f"ply {ply + 1}: py-draughts has no move {wanted} here; its moves: "
                                 f"{[str(m) for m in legal]}")
            board.push(match[0])
        if seen is not None:
            seen(len(moves), board)
        self.last = ((variant, start), moves, copy.deepcopy(board))
        return board

    def legal(self, request):
        """The answer to a ``legal`` request: py-draughts' legal moves at every ply of the game."""
        lists, drawn = [], []

        def seen(ply, board):
            lists.append([key(m) for m in board.legal_moves])
            drawn.append(bool(board.is_draw))
        self.board(request["variant"], request.get("start"), request.get("moves", []), seen=seen)
        return {"ok": True, "legal": lists, "drawn": drawn}

    def engine(self, kind, variant):
        """The engine object of that kind for that variant, made on first use."""
        if (kind, variant) not in self.engines:
            if kind == "turbo":
                if variant != "StandardBoard":
                    raise ValueError("TurboEngine plays International draughts (10x10, StandardBoard) only")
                self.engines[kind, variant] = self.draughts.TurboEngine()
            elif kind == "simple":
                self.engines[kind, variant] = self.draughts.SimpleEngine()
            else:
                raise ValueError(f"unknown engine {kind!r}: turbo or simple")
        return self.engines[kind, variant]

    def search(self, request):
        """The answer to a ``search`` request: the engine's move, the legal moves, its report."""
        params, limits = request.get("params", {}), request["limits"]
        kind, variant = params.get("engine", "turbo"), request["variant"]
        board = self.board(variant, request.get("start"), request.get("moves", []))
        legal = board.legal_moves
        if not legal:
            return {"ok": False, "error": "py-draughts lists no legal move here"}
        if board.is_draw:       # its engines would answer their first legal move, unsearched
            return {"ok": False, "own_rules_end": True,
                    "error": f"py-draughts' {variant} draws the game here by its own rules (ours go on)"}
        engine = self.engine(kind, variant)
        notes = []
        seconds, depth = limits.get("seconds"), limits.get("depth") or params.get("depth") or None
        if limits.get("infinite"):
            seconds, depth = INFINITE_SECONDS, depth or 64
        engine.time_limit = seconds
        engine.depth_limit = depth or (12 if kind == "turbo" else 6)
        if seconds is None and depth is None:
            notes.append(f"no time limit: searched to depth {engine.depth_limit}")
        self.running = engine
        start = time.perf_counter()
        try:
            if len(legal) == 1:             # as the engines play a forced move: at once, no score
                move, score = engine.get_best_move(board), None
            else:
                move, score = engine.get_best_move(board, with_evaluation=True)
        finally:
            self.running = None
        elapsed = time.perf_counter() - start
        answer = {"ok": True, "move": key(move), "legal": [key(m) for m in legal],
                  "nodes": getattr(engine, "nodes", None), "seconds": elapsed, "notes": notes}
        if kind == "turbo" and getattr(engine, "completed_depth", 0):
            answer["depth"] = engine.completed_depth
        if score is not None and abs(score) < 1e6:
            answer["cp"] = round(score * 100)
        return answer

    def stop(self):
        """Make the running search end at its next clock check."""
        engine = self.running
        if engine is None:
            return
        if hasattr(engine, "_deadline"):          # TurboEngine: a deadline read every 128 nodes
            engine._deadline = time.perf_counter() - 1.0
        engine.time_limit = 1e-9                  # SimpleEngine: compared every 2048 nodes


def main():
    """Answer requests until ``quit`` or the end of input; searches run in a thread of their own."""
    try:
        import draughts
        problem = None if hasattr(draughts, "TurboEngine") else \
            f"the 'draughts' module at {draughts.__file__} is not py-draughts (pip install py-draughts)"
    except ImportError as err:
        draughts, problem = None, f"cannot import draughts (pip install py-draughts): {err}"
    engines = PyDraughtsEngines(draughts) if problem is None else None
    search_thread = None
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            request = json.loads(line)
            op = request.get("op")
        except (ValueError, AttributeError):
            write({"ok": False, "error": f"not a JSON request: {line[:200]!r}"})
            continue
        if op == "quit":
            break
        if op == "stop":
            if engines is not None:
                engines.stop()
            continue
        if problem is not None:
            write({"ok": False, "error": problem})
            continue
        if search_thread is not None:
            search_thread.join()
        if op == "hello":
            write({"ok": True, "engine": f"py-draughts {draughts.__version__}"})
        elif op == "new":
            engines.engines.clear()
            write({"ok": True})
        elif op == "legal":
            try:
                write(engines.legal(request))
            except Exception as err:
                write({"ok": False, "error": f"{type(err).__name__}: {err}"})
        elif op == "search":
            def run(request=request):
                try:
                    write(engines.search(request))
                except Exception as err:   # the adapter reports it and plays its fallback
                    write({"ok": False, "error": f"{type(err).__name__}: {err}"})
            search_thread = threading.Thread(target=run, daemon=True)
            search_thread.start()
        else:
            write({"ok": False, "error": f"unknown op {op!r}"})
    return 0


if __name__ == "__main__":
    sys.exit(main())
