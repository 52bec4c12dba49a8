"""Worker process: OpenSpiel's C++ MCTS (``pyspiel.MCTSBot``) on OpenSpiel's ``checkers``.

Run by the ``openspiel-mcts`` adapter as ``python -I openspiel_worker.py``; it imports only
``pyspiel`` and the standard library, knows nothing of our rules, and speaks the JSON-lines
protocol of ``bridge.py`` on stdin/stdout.  Squares are OpenSpiel's names (``a3``, ``b4``:
file and rank seen from its player 0, who moves first).

OpenSpiel writes each single jump of a multi-capture as an action of its own (the same
player moves again), so a whole move is the action sequence up to the change of player.
Replaying a game, each MOVE ``[start, end, [captured...]]`` is matched against the whole
moves of the position; a search plays the search's best action and continues a capture
with the most visited continuation of the same tree (one action left: that action; a
continuation the tree never expanded: a new search with a quarter of the budget).

OpenSpiel's own rules end a game after 40 plies (actions) without a capture; a position
past that is answered ``{"ok": false, "own_rules_end": true}`` (the adapter plays on by our
rules).  ``go infinite`` searches in rounds of growing length (0.1 s, 0.2 s, ...), reading
``stop`` between rounds, and answers with the last finished round.
"""
import json
import math
import os
import select
import sys
import time

NO_CAPTURE_LIMIT = 40           # OpenSpiel checkers' kMaxMovesWithoutCapture
DEFAULT_SECONDS = 1.0           # a search with neither time nor simulations
MAX_SIMULATIONS = 2**31 - 1


class Input:
    """Lines from fd 0, with a non-blocking look for a ``stop`` between search rounds."""

    def __init__(self):
        self.buffer = b""
        self.eof = False

    def _fill(self, timeout):
        if self.eof:
            return
        ready, _, _ = select.select([0], [], [], timeout)
        if ready:
            data = os.read(0, 65536)
            if data:
                self.buffer += data
            else:
                self.eof = True

    def readline(self):
        """The next line (blocking), or None at end of input."""
        while b"\n" not in self.buffer:
            if self.eof:
                if self.buffer:
                    line, self.buffer = self.buffer, b""
                    return line.decode("utf-8", "replace")
                return None
            self._fill(None)
        line, self.buffer = self.buffer.split(b"\n", 1)
        return line.decode("utf-8", "replace")

    def stop_waiting(self):
        """Whether a ``stop`` (or ``quit``, or the end of input) has arrived; other lines stay queued."""
        self._fill(0)
        if self.eof:
            return True
        for raw in self.buffer.split(b"\n")[:-1]:
            try:
                if json.loads(raw).get("op") in ("stop", "quit"):
                    return True
            except ValueError:
                pass
        return False


def write(message):
    """One answer as a JSON line, flushed."""
    sys.stdout.write(json.dumps(message, separators=(",", ":")) + "\n")
    sys.stdout.flush()


class Checkers:
    """OpenSpiel's checkers: whole moves from actions, replay and search."""

    def __init__(self, pyspiel):
        self.pyspiel = pyspiel
        self.game = pyspiel.load_game("checkers")
        self._last = ([], self.game.new_initial_state(), 0)     # the last replay, continued when extended

    def action_squares(self, state, action):
        """(from, to) of an action, in OpenSpiel's square names."""
        text = state.action_to_string(state.current_player(), action)
        return text[:2], text[2:]

    @staticmethod
    def jumped(frm, to):
        """The square between the two ends of a jump, or None for a step."""
        df, dr = ord(to[0]) - ord(frm[0]), int(to[1:]) - int(frm[1:])
        if abs(df) != 2:
            return None
        return f"{chr(ord(frm[0]) + df // 2)}{int(frm[1:]) + dr // 2}"

    def whole_moves(self, state):
        """{(start, end, frozenset(captured)): [actions]} for the player to move."""
        player = state.current_player()
        out = {}

        def walk(st, start, captured, actions):
            for action in st.legal_actions():
                frm, to = self.action_squares(st, action)
                mid = self.jumped(frm, to)
                caps = captured | {mid} if mid else captured
                child = st.clone()
                child.apply_action(action)
                origin = start or frm
                if not child.is_terminal() and child.current_player() == player:
                    walk(child, origin, caps, actions + [action])
                else:
                    out.setdefault((origin, to, frozenset(caps)), actions + [action])

        walk(state, None, frozenset(), [])
        return out

    def replay(self, moves):
        """(state, plies without a capture) after the MOVEs; raises ValueError naming a move it lacks.

        Past OpenSpiel's own draw (40 plies without a capture) its state has no legal actions,
        but our game goes on: such moves (checked by our rules) are applied square by square,
        and a capture brings OpenSpiel's game back to life."""
        done, state, quiet = self._last
        if done != [tuple(map(tuple, m)) for m in moves[:len(done)]] or len(done) > len(moves):
            done, state, quiet = [], self.game.new_initial_state(), 0
        state = state.clone()
        for ply, (start, end, caps) in enumerate(moves[len(done):], start=len(done)):
            key = (start, end, frozenset(caps))
            if state.is_terminal() and quiet >= NO_CAPTURE_LIMIT:
                for frm, to in self.route(start, end, frozenset(caps)):
                    state.apply_action(self.action_ids[frm + to])
            else:
                table = self.whole_moves(state) if not state.is_terminal() else {}
                if key not in table:
                    raise ValueError(f"ply {ply + 1}: OpenSpiel's checkers has no move {start}-{end} "
                                     f"taking {sorted(caps)} here; its moves: "
                                     f"{sorted((s, e, sorted(c)) for s, e, c in table)}")
                for action in table[key]:
                    state.apply_action(action)
            quiet = 0 if caps else quiet + 1
        self._last = ([tuple(map(tuple, m)) for m in moves], state.clone(), quiet)
        return state, quiet

    @property
    def action_ids(self):
        """Action id by its text (``a3b4``); the text of an id does not depend on the state."""
        if not hasattr(self, "_ids"):
            state = self.game.new_initial_state()
            self._ids = {state.action_to_string(0, a): a for a in range(self.game.num_distinct_actions())}
        return self._ids

    @staticmethod
    def route(start, end, caps):
        """The single steps or jumps of a move given by its key: [(from, to), ...]."""
        if not caps:
            return [(start, end)]

        def walk(cur, left):
            if not left:
                return [] if cur == end else None
            for c in left:
                df, dr = ord(c[0]) - ord(cur[0]), int(c[1:]) - int(cur[1:])
                if abs(df) == 1 and abs(dr) == 1:
                    land = f"{chr(ord(c[0]) + df)}{int(c[1:]) + dr}"
                    if land[0] in "abcdefgh" and 1 <= int(land[1:]) <= 8:
                        rest = walk(land, left - {c})
                        if rest is not None:
                            return [(cur, land)] + rest
            return None

        steps = walk(start, caps)
        if steps is None:
            raise ValueError(f"no jump route from {start} to {end} taking {sorted(caps)}")
        return steps


def run_search(checkers, state, seconds, nodes, params, seed):
    """One MCTSBot search from ``state`` (by wall-clock seconds, else simulations); its root node."""
    pyspiel = checkers.pyspiel
    evaluator = pyspiel.RandomRolloutEvaluator(int(params.get("rollouts", 1)), seed)
    bot = pyspiel.MCTSBot(checkers.game, evaluator, float(params.get("uct_c", 2.0)),
                          int(nodes) if nodes else MAX_SIMULATIONS, int(params.get("max_memory_mb", 1000)),
                          bool(params.get("solve", True)), seed, False,
                          pyspiel.ChildSelectionPolicy.UCT, float(seconds) if seconds else -1.0)
    return bot.mcts_search(state)


def search(checkers, request, inp):
    """The answer to a ``search`` request: the whole move, the legal moves, the report."""
    limits, params, seed = request["limits"], request.get("params", {}), int(request.get("seed", 0))
    notes = []
    state, quiet = checkers.replay(request.get("moves", []))
    if state.is_terminal():
        if quiet >= NO_CAPTURE_LIMIT:
            return {"ok": False, "own_rules_end": True,
                    "error": f"OpenSpiel's checkers is drawn here by its own rule ({quiet} plies without a "
                             "capture; it ends the game at 40); our rules play on"}
        return {"ok": False, "error": "OpenSpiel's checkers has no legal move here (its game is over: "
                                      f"returns {list(state.returns())})"}
    legal = checkers.whole_moves(state)
    seconds, nodes = limits.get("seconds"), limits.get("nodes")
    if seconds and nodes:
        notes.append("OpenSpiel's MCTS takes a time or a simulation count, not both: searched by time")
        nodes = None
    if not seconds and not nodes and not limits.get("infinite"):
        seconds = DEFAULT_SECONDS
        if limits.get("depth"):
            notes.append(f"depth is no limit of OpenSpiel's MCTS: searched {DEFAULT_SECONDS:g} s")
    start = time.perf_counter()
    if limits.get("infinite"):
        root, length = None, 0.1
        while root is None or not inp.stop_waiting():
            root = run_search(checkers, state, length, None, params, seed)
            length = min(length * 2, 5.0)
    else:
        root = run_search(checkers, state, seconds, nodes, params, seed)
    player = state.current_player()
    best = root.best_child()
    actions, node = [best.action], best
    line = state.clone()
    line.apply_action(best.action)
    while not line.is_terminal() and line.current_player() == player:
        options = line.legal_actions()
        if len(options) == 1:
            action, node = options[0], None
        elif node is not None and node.children and node.explore_count >= len(node.children):
            node = node.best_child()
            action = node.action
        else:
            sub = run_search(checkers, line, seconds / 4 if seconds else None,
                             max(100, nodes // 4) if nodes else None if seconds else 1000, params, seed + 1)
            node = sub.best_child()
            action = node.action
            notes.append("a capture's continuation the tree had not expanded was searched anew")
        actions.append(action)
        line.apply_action(action)
    first_from, _ = checkers.action_squares(state, actions[0])
    probe, caps, end = state.clone(), [], None
    for action in actions:
        frm, end = checkers.action_squares(probe, action)
        mid = checkers.jumped(frm, end)
        if mid:
            caps.append(mid)
        probe.apply_action(action)
    value = best.total_reward / best.explore_count if best.explore_count else 0.0
    if len(best.outcome):
        value = best.outcome[player]
    p = min(0.999, max(0.001, (value + 1) / 2))
    return {"ok": True, "move": [first_from, end, sorted(caps)],
            "legal": [[s, e, sorted(c)] for s, e, c in legal],
            "cp": round(400 * math.log10(p / (1 - p))), "nodes": int(root.explore_count),
            "seconds": time.perf_counter() - start, "notes": notes}


def main():
    """Answer requests until ``quit`` or the end of input."""
    inp = Input()
    try:
        import pyspiel
    except ImportError as err:
        pyspiel, problem = None, f"cannot import pyspiel (pip install open_spiel): {err}"
    checkers = None
    while True:
        line = inp.readline()
        if line is None:
            return 0
        if not line.strip():
            continue
        try:
            request = json.loads(line)
            op = request.get("op")
        except (ValueError, AttributeError):
            write({"ok": False, "error": f"not a JSON request: {line[:200]!r}"})
            continue
        if op == "quit":
            return 0
        if op == "stop":
            continue                   # a stop after the search it meant has already answered
        if pyspiel is None:
            write({"ok": False, "error": problem})
            continue
        if checkers is None:
            checkers = Checkers(pyspiel)
        try:
            if op == "hello":
                from importlib.metadata import version
                write({"ok": True, "engine": f"OpenSpiel {version('open_spiel')} C++ MCTS, checkers"})
            elif op == "new":
                write({"ok": True})
            elif op == "search":
                write(search(checkers, request, inp))
            else:
                write({"ok": False, "error": f"unknown op {op!r}"})
        except Exception as err:   # the adapter reports it and plays its fallback
            write({"ok": False, "error": f"{type(err).__name__}: {err}"})


if __name__ == "__main__":
    sys.exit(main())
