"""The native search core, as the agents build it: one ``Search`` per agent.

``new_search`` turns the engine's ``Settings`` into the core's parameters and builds a
``Search`` of one tree per searcher over the game's native rules (``Game.search_rules``, with
the game's own search parameters), searched entirely in C with the GIL released, or, where
the game runs its Python rules, one tree over its ``State`` objects, the same core calling the
rules contract back.  ``feed_tables`` hands the endgame tables to a search (natively as
buffers, or as the Python probe).
"""
from __future__ import annotations

import random
import sys

from .. import native
from ..rules.base import Game, State
from ..tables import TableSet
from .report import RootChild
from .settings import Settings

NODE_BYTES = 64           # one node of the arena (search.h): Hash MB hold Hash * 16,384 nodes
MB = 1 << 20
QUIESCENCE = 16           # at most this many capture plies after a cut-off before evaluate()
POLICY_CODES = {"random": 0, "capture": 1, "greedy-eps": 2, "mast": 3}
FINAL_CODES = {"robust": 0, "max": 1}
MERGE_CODES = {"visits": 0, "vote": 1}


def core_parameters(settings: Settings) -> dict:
    """The search settings as the core reads them."""
    return {"uct_c": settings.uct_c, "prior_weight": settings.prior_weight,
            "minimax_weight": settings.minimax_weight, "widening": settings.widening, "epsilon": settings.epsilon,
            "policy": POLICY_CODES[settings.playout], "playout_depth": settings.playout_depth,
            "solver": int(settings.solver), "final_move": FINAL_CODES[settings.final_move],
            "quiescence": QUIESCENCE, "qsearch": int(settings.qsearch), "merge": MERGE_CODES[settings.merge],
            "leaf_depth": settings.leaf_depth, "root_check": settings.root_check,
            "root_margin": settings.root_margin, "root_share": settings.root_share,
            "ab_prune": settings.ab_prune}


def move_bytes(move) -> int:
    """The memory a move object takes (a tuple with its items, or a single object): what a node
    of a tree over Python states holds beside its own ``NODE_BYTES``."""
    if isinstance(move, tuple):
        return sys.getsizeof(move) + sum(sys.getsizeof(item) for item in move)
    return sys.getsizeof(move)


def capacity(hash_mb: float, per_move: int = 0) -> int:
    """The nodes ``Hash`` megabytes hold, each ``NODE_BYTES`` and ``per_move`` bytes of move object."""
    return max(1, int(hash_mb * MB) // (NODE_BYTES + per_move))


def game_parameters(game: Game, settings: Settings):
    """The game's own search parameters in ``settings`` (its declared defaults where none are set)."""
    return settings.game_parameters if settings.game_parameters is not None else game.search_parameters()


def new_search(game: Game, settings: Settings, seeds: list[int], rng: random.Random, tables: TableSet | None):
    """A search of ``len(seeds)`` trees for ``game``: native where its rules are, else one tree
    over its Python states (``rng`` draws their playouts; ``tables``' probe is their oracle)."""
    core = native.require_core()
    parameters = core_parameters(settings)
    rules = game.search_rules(game_parameters(game, settings))
    if rules is not None:
        return core.Search(parameters, capacity(settings.hash_mb), seeds, rules=rules)
    start = game.new_state()
    moves = start.legal_moves()
    per_move = move_bytes(moves[0]) if moves else 0
    oracle = tables.probe if tables is not None else None
    return core.Search(parameters, capacity(settings.hash_mb, per_move), seeds, rng=rng, oracle=oracle,
                       compulsory_captures=start.compulsory_captures)


def position(search, state: State):
    """``state`` as ``search`` takes a position: its ``raw()`` for native rules, the State itself
    for a search over Python states."""
    return state if search.python_states else state.raw()


def feed_tables(search, game: Game, tables: TableSet | None, state: State) -> None:
    """Have the endgame tables read once ``state`` nears them (``TableSet.warm``: in the
    background, never waited for) and give a native search every table loaded so far, read
    natively from their buffers (a Python-rules search probes through ``TableSet.probe``, its
    oracle)."""
    if tables is None:
        return
    tables.warm(state)
    if game.native:
        search.set_tables([((t.material.own_kings, t.material.own_men, t.material.opp_kings, t.material.opp_men),
                            t.material.turn, t.values, -1 if t.count is None else t.count, t.exact)
                           for t in tables.loaded()], tables.max_pieces)


def merged_choice(settings: Settings, reports: list[list[RootChild]],
                  votes: list | None = None) -> tuple[list[RootChild], RootChild | None]:
    """Several searchers' root statistics (worker processes' reports) summed by move, and the
    child to play: the core's one final choice (``native/src/final.c``), or with ``votes``
    (each searcher's own choice) their majority, as ``ParallelMerge vote`` asks."""
    merged, best = native.require_core().merge_roots(
        FINAL_CODES[settings.final_move], [[child.as_tuple() for child in report] for report in reports], votes)
    children = [RootChild(*child) for child in merged]
    return children, None if best is None else children[best]


def root_children(search) -> list[RootChild]:
    """A search's root moves' statistics, summed over its trees."""
    return [RootChild(*child) for child in search.root_children()]
