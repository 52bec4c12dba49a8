"""The ``mcts-tournament`` command: match, round-robin, gauntlet, report, replay.

Bad input (an unknown game, a malformed ``--engine``, a journal of another
tournament, a bad openings file) is one error line naming it and exit status 2.
"""
from __future__ import annotations

import json
import os
import sys

import click

from mcts_engine.rules import RulesError, get_game, parse_rule_options

from . import records, report, stats
from .engine import EngineSpec, load_engines_file, parse_engine_arg
from .cluster import ClusterError, ClusterTarget, open_executor
from .executors import ExecutorError
from .runner import Settings, TimeControl, Tournament, random_openings, read_openings


@click.group(invoke_without_command=True, context_settings={"help_option_names": ["-h", "--help"]})
@click.pass_context
def main(ctx: click.Context) -> None:
    """Play engines against each other with our rules validating every move."""
    if ctx.invoked_subcommand is None:
        click.echo(ctx.get_help())


def _cluster_target(ctx: click.Context, param: click.Parameter, value: str | None) -> ClusterTarget | None:
    if value is None:
        return None
    try:
        return ClusterTarget.parse(value)
    except ValueError as err:
        raise click.BadParameter(str(err), ctx=ctx, param=param) from None


def cluster_option(f):
    """``--cluster ADDRESS|local:N``: play the games on a Dask cluster (a ``ClusterTarget``).

    Shared by every command that plays games (match, round-robin, gauntlet; ``tune`` takes
    it the same way): the command opens ``cluster.open_executor(o["cluster"], concurrency)``
    once, in a ``with``, and passes it to each ``Tournament(..., executor=...)``.
    """
    return click.option(
        "--cluster", callback=_cluster_target, metavar="ADDRESS|local:N", default=None,
        help="play the games on a Dask cluster: a scheduler address (tcp://host:8786) or local:N "
             "(N worker processes here); needs mcts-engine[cluster], see docs/cluster.md")(f)


def tournament_options(f):
    """The options every tournament command shares."""
    options = [
        click.option("--game", required=True, help="game or variant (see mcts-engine games)"),
        click.option("--rules", help="rule options as key=value,key=value"),
        click.option("--engine", "engines", multiple=True, required=True,
                     help='"name=N cmd=COMMAND option.X=V ..." (repeatable), or a name from --engines-file'),
        click.option("--engines-file", type=click.Path(exists=True, dir_okay=False),
                     help="JSON or TOML file of engines: {engines: [{name, cmd, options}]}"),
        click.option("--games", type=click.IntRange(1), default=2, show_default=True,
                     help="games per pair of engines (played in colour-swapped pairs)"),
        click.option("--concurrency", type=click.IntRange(1), default=None,
                     help="games at once (default: the number of CPUs, at most 8)"),
        click.option("--movetime", type=click.IntRange(1), help="ms per move (default 100)"),
        click.option("--nodes", type=click.IntRange(1), help="UCT iterations per move"),
        click.option("--tc", help="clock: [moves/]seconds[+increment], e.g. 60+0.6 or 40/120"),
        click.option("--margin", type=click.IntRange(0), default=1000, show_default=True,
                     help="ms past the time limit before a silent engine forfeits"),
        click.option("--game-timeout", type=click.FloatRange(0, min_open=True), default=None,
                     help="wall seconds a game may last before the side to move forfeits "
                          "(default: what the time control allows at most)"),
        click.option("--openings", "openings_file", type=click.Path(exists=True, dir_okay=False),
                     help="file of openings: a FEN, a move list, or 'FEN | moves' per line"),
        click.option("--opening-plies", type=click.IntRange(0), default=0, show_default=True,
                     help="random openings of this many plies (seeded by --seed)"),
        click.option("--seed", type=int, default=1, show_default=True),
        click.option("--max-plies", type=click.IntRange(1), default=1000, show_default=True,
                     help="adjudicate a draw after this many plies"),
        click.option("--resign", "resign_score", type=click.IntRange(1), default=None,
                     help="adjudicate a loss when an engine scores below -CP for 3 moves"),
        click.option("--draw", "draw_score", type=click.IntRange(0), default=None,
                     help="adjudicate a draw when both engines score within +-CP for 8 moves each (after 40 plies)"),
        click.option("--sprt", nargs=4, type=float, default=None, metavar="ELO0 ELO1 ALPHA BETA",
                     help="sequential test on the first pair; stops early when decided"),
        click.option("--journal", type=click.Path(dir_okay=False), default="tournament.jsonl",
                     show_default=True, help="append-only results file; rerunning continues it"),
        click.option("--resume", is_flag=True, help="continue the journal (it must exist)"),
        click.option("--pdn", "pdn_file", type=click.Path(dir_okay=False),
                     help="write every game of the journal as PDN / PGN-like records here"),
        click.option("--json", "as_json", is_flag=True, help="print the final report as JSON"),
        click.option("--quiet", is_flag=True, help="no progress bar"),
        cluster_option,
    ]
    for option in reversed(options):
        f = option(f)
    return f


def _engines(args: tuple[str, ...], engines_file: str | None) -> list[EngineSpec]:
    known = load_engines_file(engines_file) if engines_file else {}
    out = []
    for text in args:
        bare = text.strip()
        name = bare[5:] if bare.startswith("name=") and " " not in bare else bare
        if name in known and "cmd=" not in text:
            out.append(known[name])
        elif known and "=" not in bare:
            raise ValueError(f"engine {bare!r} is not in {engines_file} ({', '.join(known)})")
        else:
            out.append(parse_engine_arg(text))
    return out


def _sprt(args: tuple[float, float, float, float] | None) -> stats.SPRT | None:
    """The ``--sprt ELO0 ELO1 ALPHA BETA`` test, or None; bad bounds are a usage error (before any game)."""
    if not args:
        return None
    try:
        return stats.SPRT(*args)
    except ValueError as err:
        raise click.UsageError(f"--sprt {' '.join(f'{x:g}' for x in args)}: {err}") from None


def _run(kind: str, **o) -> None:
    try:
        rules = parse_rule_options(o["rules"]) if o["rules"] else {}
        get_game(o["game"], **rules)
        engines = _engines(o["engines"], o["engines_file"])
        tc = TimeControl.parse(o["movetime"], o["nodes"], o["tc"], o["margin"])
        if o["openings_file"]:
            openings = read_openings(o["openings_file"], o["game"], rules)
        elif o["opening_plies"]:
            openings = random_openings(o["game"], rules, o["opening_plies"], max(1, (o["games"] + 1) // 2), o["seed"])
        else:
            openings = [(None, [])]
        if o["cluster"] is not None and o["concurrency"] is not None:
            raise ValueError("--concurrency is for local runs: with --cluster each worker plays as many "
                             "games at once as it has threads (dask worker --nthreads)")
        concurrency = o["concurrency"] or max(1, min(8, os.cpu_count() or 1))
        settings = Settings(game=o["game"], engines=engines, kind=kind, games=o["games"], rules=rules, tc=tc,
                            openings=openings, concurrency=concurrency, max_plies=o["max_plies"],
                            resign_score=o["resign_score"], draw_score=o["draw_score"],
                            game_timeout=o["game_timeout"])
        if o["resume"] and not os.path.exists(o["journal"]):
            raise ValueError(f"--resume: journal {o['journal']} does not exist")
        sprt = _sprt(o["sprt"])
        journal = records.Journal(o["journal"])
        tournament = Tournament(settings, journal)
        todo, done = tournament.prepare()
    except (ValueError, RulesError, OSError) as err:
        raise click.UsageError(str(err)) from None
    bar = None
    if not o["quiet"] and not o["as_json"]:
        from tqdm import tqdm
        bar = tqdm(total=len(todo) + len(done), initial=len(done), unit="game", file=sys.stderr)

    def on_game(record: dict) -> None:
        if bar is not None:
            bar.update(1)
            bar.set_postfix_str(f"{record['players'][0]} vs {record['players'][1]}: {record['score_first']}")

    header, _ = journal.load()

    def should_stop(games: list[dict]) -> bool:
        return sprt is not None and report.build(games, header, sprt)["sprt"]["status"] is not None

    tournament.on_game, tournament.should_stop = on_game, should_stop
    try:
        with open_executor(o["cluster"], concurrency) as executor:
            tournament.executor = executor
            results = tournament.run(todo, done)
    except KeyboardInterrupt:
        _stopped(bar, "interrupted", o["journal"], 130)
    except ClusterError as err:          # the cluster's set-up: unreachable, no workers, a worker lacking an engine
        _stopped(bar, f"Error: {err}", o["journal"], 2)
    except ExecutorError as err:
        _stopped(bar, f"Error: {err}", o["journal"], 1)
    if bar is not None:
        bar.close()
    _finish(results, header, sprt, o["as_json"], o["pdn_file"])


def _stopped(bar, message: str, journal: str, status: int) -> None:
    """End a run that could not finish: the message, where the finished games are, the exit status."""
    if bar is not None:
        bar.close()
    click.echo(f"{message}\nfinished games are in {journal} (rerun to continue)", err=True)
    sys.exit(status)


def _finish(results: list[dict], header: dict | None, sprt, as_json: bool, pdn_file: str | None) -> None:
    rep = report.build(sorted(results, key=lambda r: r["id"]), header, sprt)
    if pdn_file:
        with open(pdn_file, "w", encoding="utf-8") as f:
            for r in sorted(results, key=lambda r: r["id"]):
                f.write(records.game_record_text(r) + "\n")
    if as_json:
        click.echo(json.dumps(report.as_json(rep), indent=2, allow_nan=False))
    else:
        click.echo(report.as_text(rep))


@main.command()
@tournament_options
def match(**o) -> None:
    """Two engines, --games games with colours swapped in pairs."""
    _run("match", **o)


@main.command("round-robin")
@tournament_options
def round_robin(**o) -> None:
    """Every engine against every other, --games games per pair."""
    _run("round-robin", **o)


@main.command()
@tournament_options
def gauntlet(**o) -> None:
    """The first engine against each of the others, --games games per pair."""
    _run("gauntlet", **o)


@main.command("report")
@click.argument("journal", type=click.Path(exists=True, dir_okay=False))
@click.option("--sprt", nargs=4, type=float, default=None, metavar="ELO0 ELO1 ALPHA BETA")
@click.option("--pdn", "pdn_file", type=click.Path(dir_okay=False), help="also write the games as PDN here")
@click.option("--json", "as_json", is_flag=True)
def report_cmd(journal: str, sprt, pdn_file: str | None, as_json: bool) -> None:
    """Recompute every statistic from a journal."""
    try:
        header, games = records.Journal(journal).load()
    except (ValueError, OSError) as err:
        raise click.UsageError(str(err)) from None
    if not games:
        raise click.UsageError(f"journal {journal} has no finished game")
    _finish(games, header, _sprt(sprt), as_json, pdn_file)


@main.command("replay")
@click.argument("records_file", type=click.Path(exists=True, dir_okay=False))
@click.option("--board", is_flag=True, help="show the final board of each game")
def replay_cmd(records_file: str, board: bool) -> None:
    """Read PDN / PGN-like game records, replay every move through our rules, report each game."""
    with open(records_file, encoding="utf-8") as f:
        games = records.parse_records(f.read())
    bad = 0
    for i, parsed in enumerate(games, 1):
        title = f"game {i}: {parsed.tags.get('White', '?')} - {parsed.tags.get('Black', '?')} {parsed.result}"
        try:
            state = records.replay(parsed)
        except (RulesError, ValueError) as err:
            bad += 1
            click.echo(f"{title}: INVALID: {err}")
            continue
        outcome = state.outcome()
        ended = {None: "unfinished", 1.0: "first player won", 0.0: "second player won", 0.5: "draw"}[outcome]
        click.echo(f"{title}: {len(parsed.moves)} moves replayed, final position {state.fen()} ({ended})")
        if board:
            click.echo(state.board_text())
    click.echo(f"{len(games)} game(s), {bad} invalid")
    if bad:
        sys.exit(1)
