"""Per-game option values: the search settings measured best for each game.

Under ``Defaults game`` (the default) an option the client has not set takes its value
from this table when the current game has a row for it, else the option table's default;
``Defaults plain`` ignores the table (plain UCT with random playouts everywhere).  An
option the client sets always wins.  Each row's figures (Elo against plain UCT, the
tuning and confirmation matches) are in docs/strength.md.
"""
from __future__ import annotations

from types import MappingProxyType
from typing import Mapping

DEFAULTS_MODES = ("game", "plain")

# game name -> {option name: value as a client would send it}
GAME_DEFAULTS: Mapping[str, Mapping[str, str]] = MappingProxyType({
    # each: SPSA at 50 ms a move on the Python core (English 192 games from PlayoutDepth 12,
    # MinimaxWeight 0.2; International 160 games from English's answer), confirmed against plain UCT
    # at 200 ms; tuned again on the native core (English self-play; International against
    # TurboEngine), where no answer beat these.  Fanorona's row (PlayoutDepth 1, MinimaxWeight 0.31)
    # was dropped once its rules were native (issue 35): 96 games against plain UCT, -18 [-56, +22]
    # UCT_C 0.5 (issue 36): with leaves scored by an evaluation, not played out to the end, the
    # values a child gets differ less, and UCB1's default 1.0 spread the tree too wide; against
    # the independent opponents at 100 ms (GuiCheckers held to 10 ms; Scan 2.0 at depth 4), 0.5
    # beat 1.0 in both variants (docs/strength.md#the-exploration-constant)
    # English's evaluation terms (issue 36): men on the back rank, runaways and quiet moves, against
    # GuiCheckers at 100 ms over 80 ballots (160 games): 14.1% where the row without them scored
    # 9.4%, the paired difference +4.7 points [+0.2, +9.2] (docs/strength.md#the-evaluation-terms-in-english-and-forced-moves-in-the-alpha-beta)
    # Men on the side files (issue 36): ours stood three on the edges where GuiCheckers stood one;
    # EvalEdge -0.15 against GuiCheckers at 100 ms over 80 ballots (160 games): 14.1% where the row
    # without it scored 9.7%, the paired difference +4.4 points [-0.5, +9.2], +5.0 [+0.3, +9.7]
    # with the screen at 10 ms (docs/strength.md#what-guicheckers-evaluation-is-worth-and-men-on-the-edges)
    # The back-rank guard (issue 36): EvalGuard 0.15 against GuiCheckers at 100 ms over 80 ballots
    # (160 games): 17.2% where the row without it scored 11.6%, the paired difference +5.6 points
    # [+0.6, +10.6]; +12.5 [+1.0, +24.0] with the screen at 10 ms (docs/strength.md#the-back-rank-guard)
    "english": MappingProxyType({"PlayoutDepth": "6", "MinimaxWeight": "0.37", "EndgameTables": "true",
                                 "UCT_C": "0.5", "EvalBackRank": "0.1", "EvalRunaway": "0.3",
                                 "EvalMobility": "0.02", "EvalEdge": "-0.15",
                                 "EvalGuard": "0.15"}),
    "international": MappingProxyType({"PlayoutDepth": "4", "MinimaxWeight": "0.49", "EndgameTables": "true",
                                       "Evaluation": "learned", "UCT_C": "0.5"}),
    # SPSA on the native core (self-play, 240 games at 50 ms from PlayoutDepth 1, MinimaxWeight 0.63),
    # then 80 games of the answer against those values: +57 Elo [+6, +106]
    "russian": MappingProxyType({"PlayoutDepth": "4", "MinimaxWeight": "0.2", "EndgameTables": "true"}),
    # not tuned: the values of the nearest tuned variant (International's for the 10x10 and 12x12
    # boards and Pool, Russian's earlier 1 and 0.63 for Greek and Turkish), each confirmed against
    # plain UCT at 100 ms on the native core (16 or 32 games, the 95% interval above 0)
    "canadian": MappingProxyType({"PlayoutDepth": "4", "MinimaxWeight": "0.49"}),
    "frisian": MappingProxyType({"PlayoutDepth": "4", "MinimaxWeight": "0.49"}),
    "frysk": MappingProxyType({"PlayoutDepth": "4", "MinimaxWeight": "0.49"}),
    "killer": MappingProxyType({"PlayoutDepth": "4", "MinimaxWeight": "0.49"}),
    "pool": MappingProxyType({"PlayoutDepth": "4", "MinimaxWeight": "0.49"}),
    "greek": MappingProxyType({"PlayoutDepth": "1", "MinimaxWeight": "0.63"}),
    "turkish": MappingProxyType({"PlayoutDepth": "1", "MinimaxWeight": "0.63"}),
    # not tuned: a first guess from the draughts tunes, confirmed against plain UCT at 200 ms
    "rithmomachia": MappingProxyType({"PlayoutDepth": "4", "MinimaxWeight": "0.4"}),
    # not tuned: a first guess from the draughts rows, once Dablot's rules were native (issue 35);
    # 32 games against plain UCT at 100 ms on the native core: 20-10-2, +221 [+92, +338]
    "dablot": MappingProxyType({"PlayoutDepth": "4", "MinimaxWeight": "0.3"}),
    # not tuned: PlayoutDepth 4 alone beat Eval 200-0 at 200 iterations a move and plain UCT
    # 20-0 at 200 ms (docs/benchmarks.md#life-uct-against-eval-issue-17); on the native rules
    # (issue 35) 8 plies beat 4, 64 games at 100 ms: +89 [+16, +159]
    "life": MappingProxyType({"PlayoutDepth": "8"}),
    # not tuned: Dablot's first guess, on the native rules (issue 35), against plain UCT at 100 ms:
    # Zamma 32 games 30-2-0 (+470), Alquerque 64 games +55 [+11, +88], Harbagh 64 games +66 [+4, +132]
    "alquerque": MappingProxyType({"PlayoutDepth": "4", "MinimaxWeight": "0.3"}),
    "zamma": MappingProxyType({"PlayoutDepth": "4", "MinimaxWeight": "0.3"}),
    "harbagh": MappingProxyType({"PlayoutDepth": "4", "MinimaxWeight": "0.3"}),
})


def game_defaults(game_name: str) -> Mapping[str, str]:
    """The option values measured best for ``game_name`` (empty when it has none)."""
    return GAME_DEFAULTS.get(game_name, MappingProxyType({}))
