"""The search's parameters, as the engine options set them, and each choice's allowed values."""
from __future__ import annotations

from dataclasses import dataclass

PLAYOUTS = ("random", "capture", "greedy-eps", "mast")
FINAL_MOVES = ("robust", "max")
SELECTION_RULES = ("ucb1", "rave", "grave")
AMAF_RULES = ("rave", "grave")        # the rules that keep all-moves-as-first statistics
PARALLEL_MODES = ("root", "tree")
MERGES = ("visits", "vote")


@dataclass(frozen=True)
class Settings:
    """Agent parameters, set from engine options (frozen: an agent is rebuilt when they change)."""

    agent: str = "uct"                # uct | random | greedy
    uct_c: float = 1.0                # UCB1 exploration constant (values in [0, 1])
    selection: str = "ucb1"           # ucb1 | rave | grave (all-moves-as-first statistics)
    rave_bias: float = 1e-5           # RAVE/GRAVE: the bias in beta = m / (m + n + bias * m * n)
    grave_ref: int = 50               # GRAVE: visits a node needs to lend its AMAF table below
    prior_weight: float = 0.0         # progressive bias from heuristic(move); 0 = off (every rule)
    minimax_weight: float = 0.0       # implicit minimax of evaluate() mixed into the mean; 0 = off (every rule)
    widening: float = 0.0             # progressive widening: a node considers ceil(w * sqrt(visits)) moves; 0 = off
    playout: str = "random"           # random | capture | greedy-eps | mast | nst | decisive
    playout_depth: int = 0            # 0 = to the end; N = cut off after N plies and evaluate
    epsilon: float = 0.1              # exploration rate of greedy-eps, mast and nst playouts
    keep_stats: bool = False          # mast/nst: keep the move statistics across games (always across moves)
    tree_reuse: bool = True
    hash_mb: int = 256                # the search tree's memory budget, MB per search process
    solver: bool = True
    final_move: str = "robust"        # robust (most visits) | max (best mean)
    progress_weight: float = 0.0      # share of the leaf's progress() in each iteration's result; 0 = off
    endgame_tables: str = ""          # the endgame tables' directory; "" = no tables
    seed: int = 0                     # 0 = a fresh random seed per game
    move_overhead: float = 0.03       # seconds kept back per move for I/O
    threads: int = 1                  # searchers: this process + threads-1 worker processes
    parallel: str = "root"            # root (merge separate trees) | tree (one tree, shared playouts)
    merge: str = "visits"             # root mode: visits (summed) | vote (majority of the searchers)

    def check(self) -> None:
        """Raise ValueError naming a setting the native core no longer has (docs/strength.md:
        RAVE/GRAVE, NST and decisive playouts, ProgressWeight and tree-parallel search lost
        their matches and were removed)."""
        if self.selection != "ucb1":
            raise ValueError(f"Selection {self.selection} was removed (it lost every match): use ucb1")
        if self.playout not in PLAYOUTS:
            raise ValueError(f"Playout {self.playout} was removed (it lost every match); playouts: "
                             + ", ".join(PLAYOUTS))
        if self.progress_weight:
            raise ValueError("ProgressWeight was removed: the endgame tables convert won endings")
