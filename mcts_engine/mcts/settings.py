"""The search's parameters, each declared once as the engine option that sets it.

Every field but ``endgame_tables`` and ``game_parameters`` carries its engine option
(``engine_options.engine_field``: protocol name, type, range or choices, help, whether a
game's measured defaults may set it); the protocol's option table, its parser into ``Settings``, the Hub parameters and the
option table of docs/protocol.md are all derived from these declarations.  Adding an
option is adding a field here (and reading it where the search uses it).  A game's own
parameters (an evaluation's weights) are declared by the game (``Game.search_parameters``),
never here: the search names no game.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..engine_options import EngineOption, engine_field

PLAYOUTS = ("random", "capture", "greedy-eps", "mast")   # the native core's playout policies
MAX_THREADS = 64                      # the Threads option's maximum
MAX_HASH_MB = 262_143                 # the Hash option's maximum (MB): the most 64-byte nodes a 32-bit index reaches
MAX_WEIGHT = 100.0                    # the largest UCT_C, PriorWeight and Widening: far past any useful value
MAX_LEAF_DEPTH = 16                   # the LeafDepth option's maximum (native/src/search.h)
MAX_ROOT_CHECK = 32                   # the RootCheck option's maximum (native/src/search.h)
ENHANCEMENTS = "search.md#enhancements"


@dataclass(frozen=True)
class Settings:
    """Agent parameters, set from engine options (frozen: an agent is rebuilt when they change)."""

    agent: str = engine_field("uct", EngineOption(
        "Agent", "combo", "UCT search, a uniformly random move, or the best one-ply material move",
        choices=("uct", "random", "greedy")))
    uct_c: float = engine_field(1.0, EngineOption(
        "UCT_C", "real", "UCB1 exploration constant", low=0.0, high=MAX_WEIGHT, game_default=True))
    prior_weight: float = engine_field(0.0, EngineOption(
        "PriorWeight", "real", "progressive bias: weight of the move's `heuristic` in "
        f"selection, fading as 1/(visits+1); 0 = off (see [enhancements]({ENHANCEMENTS}))", low=0.0,
        high=MAX_WEIGHT, game_default=True))
    minimax_weight: float = engine_field(0.0, EngineOption(
        "MinimaxWeight", "real", "implicit minimax: share of the backed-up `evaluate()` "
        "minimax in a child's value; 0 = off", low=0.0, high=1.0, game_default=True))
    widening: float = engine_field(0.0, EngineOption(
        "Widening", "real", "progressive widening: a node considers its first `ceil(w * sqrt(visits))` moves "
        "(at least 1), best first by the move's `heuristic`; 0 = off, every move "
        f"([search.md]({ENHANCEMENTS}))", low=0.0, high=MAX_WEIGHT, game_default=True))
    playout: str = engine_field("random", EngineOption(
        "Playout", "combo", "playout policy ([search.md](search.md#playouts-and-agents)): uniformly random, "
        "captures first, the best `heuristic` (epsilon-greedy), or the best average result of the move (MAST)",
        choices=PLAYOUTS, game_default=True))
    qsearch: bool = engine_field(False, EngineOption(
        "QuiescenceSearch", "check", "value a cut-off and each new node by alpha-beta over the pending captures "
        "(the tables where they know), not by random captures (native draughts rules; elsewhere ignored)",
        game_default=True))
    leaf_depth: int = engine_field(0, EngineOption(
        "LeafDepth", "spin", "alpha-beta leaves: value a new leaf by alpha-beta this many plies deep (pending "
        "captures played out after it, best `heuristic` first) over `evaluate()`, instead of a playout; 0 = off "
        f"(see [enhancements]({ENHANCEMENTS}))", low=0, high=MAX_LEAF_DEPTH, game_default=True))
    root_check: int = engine_field(0, EngineOption(
        "RootCheck", "spin", "root check: before the tree searches, an iterative-deepening alpha-beta "
        "(quiescence over the pending captures) searches the root moves up to this many plies, in at most "
        "`RootCheckShare` of the move's time, and drops those it refutes (`RootCheckMargin`); 0 = off "
        f"(see [enhancements]({ENHANCEMENTS}))", low=0, high=MAX_ROOT_CHECK, game_default=True))
    root_margin: float = engine_field(0.05, EngineOption(
        "RootCheckMargin", "real", "the root check drops a move valued below the best one by more than this "
        "(`evaluate()`'s scale, 0 to 1)", low=0.0, high=1.0, game_default=True))
    root_share: float = engine_field(0.3, EngineOption(
        "RootCheckShare", "real", "the root check's share of the time the move aims at (under a clock; under "
        "a node limit it always reaches `RootCheck`)", low=0.01, high=1.0, game_default=True))
    root_pieces: int = engine_field(0, EngineOption(
        "RootCheckPieces", "spin", "the root check runs only where at most this many pieces are on the board "
        "(an ending: there the alpha-beta and the endgame tables it probes judge, the tree among what they keep); "
        f"0 = in every position (see [enhancements]({ENHANCEMENTS}))", low=0, high=1000, game_default=True))
    ab_prune: float = engine_field(0.0, EngineOption(
        "AlphaBetaPrune", "real", "forward pruning in the alpha-beta (`RootCheck`, `LeafDepth`): a position "
        "evaluated below the window by more than this margin is searched 3 plies shallower, and cut off "
        "there when that confirms it; 0 = off, the alpha-beta's values are the negamax's "
        f"(see [enhancements]({ENHANCEMENTS}))", low=0.0, high=1.0, game_default=True))
    playout_depth: int = engine_field(0, EngineOption(
        "PlayoutDepth", "spin", "0 = play out to the end; N = stop after N plies and evaluate",
        low=0, high=10000, game_default=True))
    epsilon: float = engine_field(0.1, EngineOption(
        "Epsilon", "real", "random-move rate of greedy-eps and mast", low=0.0, high=1.0, game_default=True))
    keep_stats: bool = engine_field(False, EngineOption(
        "KeepStats", "check", "mast: keep the move statistics across games too (they always last the moves "
        "of one game); false = forgotten at `ucinewgame`", game_default=True))
    tree_reuse: bool = engine_field(True, EngineOption(
        "TreeReuse", "check", "keep the subtree when the next position extends the last"))
    hash_mb: int = engine_field(256, EngineOption(
        "Hash", "spin", "MB of search tree per searcher (each of `Threads` has its own), 64-byte nodes; a full "
        "tree prunes its least visited subtrees (see [memory](search.md#memory-the-hash-option))",
        low=1, high=MAX_HASH_MB))
    solver: bool = engine_field(True, EngineOption(
        "Solver", "check", "MCTS-Solver: prove wins/losses, report `score mate`", game_default=True))
    final_move: str = engine_field("robust", EngineOption(
        "FinalMove", "combo", "most visited root move, or best mean", choices=("robust", "max"),
        game_default=True))
    # the endgame tables' directory, "" = no tables: set by the options EndgameTables and
    # TablePath (protocol/options.py), so it is no option itself
    endgame_tables: str = ""
    # the game's own search parameters (an instance of Game.search_parameters, from the options
    # that game declares, an evaluation's weights say); None = the game's defaults
    game_parameters: Any = None
    seed: int = engine_field(0, EngineOption(
        "Seed", "spin", "random seed; 0 = fresh; equal seeds + `nodes` limit = identical output",
        low=0, high=2147483647))
    move_overhead: float = engine_field(0.03, EngineOption(
        "MoveOverhead", "spin", "ms kept back per move for communication", low=0, high=5000, per=1000))
    threads: int = engine_field(1, EngineOption(
        "Threads", "spin", "searchers: OS threads where the game's rules are native, else this process plus "
        "Threads-1 worker processes (see [parallel search](search.md#parallel-search))", low=1, high=MAX_THREADS))
    merge: str = engine_field("visits", EngineOption(
        "ParallelMerge", "combo", "Threads > 1: summed root visits, or the move most searchers chose",
        choices=("visits", "vote")))
