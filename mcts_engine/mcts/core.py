"""The native search core, as the agents build it: one ``SearchTree`` per searcher.

A game whose rules run in the native kernel (``game.native``) gets a tree over the kernel's
own positions, searched entirely in C with the GIL released; any other game a tree over its
Python ``State`` objects, the same core calling the rules contract back.  ``new_tree`` turns
the engine's ``Settings`` into the core's parameters; ``TableFeed`` hands the endgame tables
to a tree (natively as buffers, or as the Python probe).
"""
from __future__ import annotations

import random
import sys
from .. import native
from ..rules.base import Game, State
from ..rules.draughts.evaluation import EvalTerms
from ..tables import TableSet
from .settings import Settings

NODE_BYTES = 64           # one node of the arena (search.h): Hash MB hold Hash * 16,384 nodes
MB = 1 << 20
QUIESCENCE = 16           # at most this many capture plies after a cut-off before evaluate()
POLICY_CODES = {"random": 0, "capture": 1, "greedy-eps": 2, "mast": 3}
FINAL_CODES = {"robust": 0, "max": 1}


def core_parameters(settings: Settings) -> dict:
    """The search settings as the core reads them."""
    return {"uct_c": settings.uct_c, "prior_weight": settings.prior_weight,
            "minimax_weight": settings.minimax_weight, "widening": settings.widening, "epsilon": settings.epsilon,
            "policy": POLICY_CODES[settings.playout], "playout_depth": settings.playout_depth,
            "solver": int(settings.solver), "final_move": FINAL_CODES[settings.final_move],
            "quiescence": QUIESCENCE, "qsearch": int(settings.qsearch)}


def move_bytes(move) -> int:
    """The memory a move object takes (a tuple with its items, or a single object): what a node
    of a tree over Python states holds beside its own ``NODE_BYTES``."""
    if isinstance(move, tuple):
        return sys.getsizeof(move) + sum(sys.getsizeof(item) for item in move)
    return sys.getsizeof(move)


def capacity(hash_mb: float, per_move: int = 0) -> int:
    """The nodes ``Hash`` megabytes hold, each ``NODE_BYTES`` and ``per_move`` bytes of move object."""
    return max(1, int(hash_mb * MB) // (NODE_BYTES + per_move))


def eval_terms(settings: Settings) -> EvalTerms:
    """The draughts evaluation's positional terms the ``Eval*`` options weigh."""
    return EvalTerms(mobility=settings.eval_mobility, tempo=settings.eval_tempo, back_rank=settings.eval_back_rank,
                     centre=settings.eval_centre, runaway=settings.eval_runaway)


def new_tree(game: Game, settings: Settings, seed: int, rng: random.Random, tables: TableSet | None):
    """A search tree for ``game``: native where its rules are, else over its Python states
    (``rng`` draws their playouts; ``tables``' probe is their oracle)."""
    core = native.require_core()
    parameters = core_parameters(settings)
    if game.native:
        kernel = game.kernel_with(eval_terms(settings))
        return core.SearchTree(parameters, capacity(settings.hash_mb), seed, kernel=kernel)
    start = game.new_state()
    moves = start.legal_moves()
    per_move = move_bytes(moves[0]) if moves else 0
    oracle = tables.probe if tables is not None else None
    return core.SearchTree(parameters, capacity(settings.hash_mb, per_move), seed, rng=rng, oracle=oracle,
                                  compulsory_captures=start.compulsory_captures)


def feed_tables(tree, game: Game, tables: TableSet | None, state: State) -> None:
    """Load the endgame tables before the clock starts once ``state`` nears them
    (``TableSet.warm``) and give a native tree every loaded table, read natively from their
    buffers (a Python-rules tree probes through ``TableSet.probe``, its oracle)."""
    if tables is None:
        return
    tables.warm(state)
    if game.native:
        tree.set_tables([((t.material.own_kings, t.material.own_men, t.material.opp_kings, t.material.opp_men),
                          t.material.turn, t.values, -1 if t.count is None else t.count, t.exact)
                         for t in tables.loaded()], tables.max_pieces)
