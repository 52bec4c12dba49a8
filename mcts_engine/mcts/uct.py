"""UCT in this process: the agent behind ``Agent uct``, on the native search core.

Each search is one call into the core (``Search.run``), which owns the loop: it runs one
tree, or with ``trees`` N (``Threads N`` on a game with native rules, decided by the engine
façade) N trees on N OS threads (root parallel: each in its own arena, their root statistics
merged for the final choice), until the deadline, the node limit, a tree depth, a proof or
the stop signal, calling back only to report.  Python sets the search up (the root with tree
reuse, searchmoves, the endgame tables) and reads the result.  ``TreeMemory`` says which
moves lead from the last root to the new one, and each tree keeps that subtree.
"""
from __future__ import annotations

from typing import Hashable

from ..native import StopSignal
from ..rules.base import Game, State
from ..tables import TableSet, opened_tables
from .agent import Agent, InfoCallback, SearchFailed, SearchResult, one_ply_choice
from .core import feed_tables, new_search, position
from .limits import Limits, now, split_nodes, time_budget
from .report import search_info
from .reuse import TreeMemory
from .settings import Settings

REPORT_SECONDS = 0.5      # info on this beat under a clock; under a pure node limit, at node counts
MIN_REPORT_NODES = 1000   # ... every max(1000, nodes / 8) iterations: equal seeds, identical output


def open_tables(game: Game, directory: str) -> TableSet | None:
    """``game``'s endgame tables under ``directory`` ("" = none), their reading begun in the
    background (``TableSet.preload``), or None where the game has no tables or none is built
    (so a search without them pays nothing). The process's agents share them (``opened_tables``)."""
    if not directory or not game.endgame_tables:
        return None
    tables = opened_tables(game, directory)
    if tables is not None:
        tables.preload()
    return tables


def missing_tables_note(game: Game, directory: str, tables: TableSet | None) -> str | None:
    """What to tell the user when the search was told to probe ``game``'s endgame tables in
    ``directory`` and finds none built there (the search never builds one), else None."""
    if tables is not None or not directory or not game.endgame_tables:
        return None
    return (f"no endgame tables for {game.name} in {directory}: searching without them; "
            f"`mcts-engine tables {game.name}` builds the default set in seconds (docs/tables.md)")


class UctAgent(Agent):
    """UCT with MCTS-Solver, tree reuse and the endgame tables, in this process, on ``trees``
    trees (OS threads; more than one only where the game's rules are native)."""

    def __init__(self, game: Game, settings: Settings, trees: int = 1):
        super().__init__(game, settings)
        self.tables = open_tables(game, settings.endgame_tables)
        self.unread_note = missing_tables_note(game, settings.endgame_tables, self.tables)
        self.memory = TreeMemory(settings.tree_reuse)
        self.check_depth = settings.root_check       # this search's root check (root_check_depth)
        self.core = new_search(game, settings, self.seeds(trees), self.rng, self.tables)

    def seeds(self, trees: int) -> list[int]:
        """A seed per tree, drawn from the agent's generator."""
        return [self.rng.getrandbits(64) for _ in range(trees)]

    def new_game(self) -> None:
        """Forget the trees (and the MAST statistics, unless ``KeepStats``) and reseed (the same
        generator: a tree over Python states draws its playouts from it)."""
        self.rng.seed(self.settings.seed or None)
        self.memory.clear()
        self.core.clear()
        self.core.reseed(self.seeds(self.core.trees))
        if not self.settings.keep_stats:
            self.core.clear_stats()

    def search(self, state: State, limits: Limits, stop: StopSignal,
               on_info: InfoCallback | None = None, history: tuple[Hashable, ...] = ()) -> SearchResult:
        """Search ``state`` within ``limits`` (or until ``stop`` is set) and choose a move."""
        self.start_search(state, limits, history)
        self.check_depth = self.root_check_depth(state)
        start = now()
        try:
            self.run(limits, stop, on_info, start, state.ply // 2)
        except Exception as err:
            found = self.salvage(state, start)       # read the trees before they are dropped
            self.forget_tree()
            raise SearchFailed(err, found) from err
        except BaseException:
            self.forget_tree()
            raise
        result = self.result(state, start)
        self.note_root_check()
        if on_info is not None:
            on_info(result.info)
        return result

    def note_root_check(self) -> None:
        """Say what the root check did (``RootCheck``), where it ran: the depth it finished, the
        moves it dropped and its alpha-beta nodes, so that a user tuning it sees how deep it gets."""
        if not self.check_depth:
            return
        stats = self.core.stats(0)
        if stats["check_depth"]:
            self.note(f"root check: depth {stats['check_depth']} of {self.settings.root_check}, "
                      f"{stats['check_dropped']} moves dropped, {stats['check_nodes']} alpha-beta nodes")

    def root_check_depth(self, state: State) -> int:
        """The root check's depth for a search of ``state``: ``RootCheck``, or 0 where
        ``RootCheckPieces`` keeps it to endings and ``state`` has more pieces on the board."""
        limit = self.settings.root_pieces
        if not self.settings.root_check or not limit:
            return self.settings.root_check
        return self.settings.root_check if len(state.board_view().pieces) <= limit else 0

    def run(self, limits: Limits, stop: StopSignal, on_info: InfoCallback | None, start: float,
            moves_played: int = 0) -> None:
        """One call into the core until a limit (under a clock the time aimed at and the most
        allowed, ``time_budget``, for the mover's ``moves_played`` so far); ``on_info`` on a beat
        (under a clock) or at node counts (under a pure node limit, so that a seeded search
        reports the same every run)."""
        spend = time_budget(limits, self.settings.move_overhead, moves_played)
        gone = now() - limits.received if limits.received is not None else 0.0   # the clock ran since the go
        shares = [-1 if share is None else share for share in split_nodes(limits.nodes, self.core.trees)]
        by_nodes = limits.nodes_only()
        report_nodes = max(MIN_REPORT_NODES, (limits.nodes or 0) // 8) if by_nodes else 0
        report = None if on_info is None else (lambda r: on_info(search_info(r, now() - start)))
        self.core.run(shares, seconds=max(0.001, spend.maximum - gone) if spend else 0.0,
                      soft_seconds=max(0.001, spend.optimum - gone) if spend else 0.0,
                      depth=min(limits.depth or 0, Limits.MAX_DEPTH), report_seconds=0.0 if by_nodes else REPORT_SECONDS,
                      report_nodes=report_nodes, stop=stop.flag, on_report=report, root_check=self.check_depth)

    def salvage(self, state: State, start: float) -> SearchResult | None:
        """After a failed search: the move its finished iterations chose (the root's statistics
        are backed-up results only: a descent cut short never reached them), or None."""
        try:
            result = self.result(state, start)
            return result if result.info.nodes else None
        except Exception:
            return None

    def start_search(self, state: State, limits: Limits, history: tuple) -> None:
        """Root every tree at ``state``: the subtree tree reuse keeps, or a fresh root (restricted
        to ``limits.searchmoves`` when given: such a tree is not kept for reuse); the endgame
        tables read so far handed over (an unreadable one noted once, and searched without; none
        built at all noted at the agent's first search)."""
        walk = None if limits.searchmoves else self.memory.walk(state, history)
        feed_tables(self.core, self.game, self.tables, state)
        self.core.set_root(position(self.core, state), walk)
        if limits.searchmoves:
            self.core.restrict_root(limits.searchmoves)
            self.memory.clear()
        else:
            self.memory.remember(state, history)
        for text in self.tables.reports() if self.tables is not None else ():
            self.note(text)
        if self.unread_note is not None:
            self.note(self.unread_note)
            self.unread_note = None

    def forget_tree(self) -> None:
        """Drop the trees: a search that failed part-way (a rules callback raised between a
        descent and its backup) leaves a node without its visit, which the next search must
        not inherit through tree reuse."""
        self.memory.clear()
        self.core.clear()

    def result(self, state: State, start: float) -> SearchResult:
        """The move the core chose over every tree and the reply to ponder on; if no iteration
        ran (a stop before the first), the best move by one-ply evaluation (it was a random one)."""
        report = self.core.result()
        info = search_info(report, now() - start)
        if report.move is None:
            return SearchResult(one_ply_choice(state, state.legal_moves(), self.rng)[0], None, info)
        return SearchResult(report.move, report.pv[1] if len(report.pv) > 1 else None, info)
