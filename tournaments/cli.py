"""The ``mcts-tournament`` command: match, round-robin, gauntlet, report, replay.

Bad input (an unknown game, a malformed ``--engine``, a journal of another
tournament, a bad openings file) is one error line naming it and exit status 2.
"""
from __future__ import annotations

import json
import os
import sys

import click

from mcts_engine import __version__, records
from mcts_engine.client import EngineSpec
from mcts_engine.rules import RulesError, get_game, parse_rule_options

from .book.cli import book
from .play.cluster import ClusterError, ClusterTarget, open_executor
from .play.adjudication import Adjudication, parse_draw, parse_resign
from .play.conditions import Opening, PlayConditions, TimeControl, random_openings
from .play.engine_args import engines_of
from .play.openings import OpeningsSpec, load_openings, shipped_sets
from .play.executors import ExecutorError
from .play.iolog import EngineLog
from .play.preflight import EngineCheckError, check_engines
from .play.referee import Lineup
from .play.progress import RunProgress, RunProgressSettings
from .play.runner import Tournament, TournamentSettings
from .results import report
from .results.journal import Journal
from .results.sprt import SPRT
from .tune.defaults import A_RATIO, ALPHA, CONFIRM_SPRT_ARGS, GAMMA, MAX_OPENINGS, OPTIMIZERS, TUNE_HEADER


@click.group(invoke_without_command=True, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "-V", "--version", prog_name="mcts-tournament")
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

    Part of ``play_options``, so every command that plays games takes it (match,
    round-robin, gauntlet, tune): the command opens ``cluster.open_executor(o["cluster"],
    concurrency)`` once, in a ``with``, and passes it to each ``Tournament(..., executor=...)``.
    """
    return click.option(
        "--cluster", callback=_cluster_target, metavar="ADDRESS|local:N", default=None,
        help="play the games on a Dask cluster: a scheduler address (tcp://host:8786) or local:N "
             "(N worker processes here); needs mcts-engine[cluster], see docs/cluster.md")(f)


def _apply(options: list, f):
    for option in reversed(options):
        f = option(f)
    return f


def play_options(f):
    """The options of how games are played, shared by the tournaments and ``tune``."""
    return _apply([
        click.option("--game", required=True, help="game or variant (see mcts-engine games)"),
        click.option("--rules", help="rule options as key=value,key=value"),
        click.option("--engines-file", type=click.Path(exists=True, dir_okay=False),
                     help="JSON or TOML file of engines: ours ({engines: [{name, cmd, options}]}) or cutechess's "
                          "engines.json; --engine NAME or conf=NAME takes an entry (default file with conf=: "
                          "./engines.json)"),
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
        click.option("--openings", "openings_file", metavar="FILE|file=FILE [format=F] [order=O] [start=N] [plies=N]",
                     help="openings: a file of move lines, FENs or PDN games, or a shipped set "
                          f"({', '.join(shipped_sets())}); order=random shuffles them (--seed), start=N "
                          "begins at the Nth, plies=N plays only their first N plies; each is played by a "
                          "colour-swapped game pair"),
        click.option("--opening-plies", type=click.IntRange(0), default=0, show_default=True,
                     help="random openings of this many plies (seeded by --seed)"),
        click.option("--seed", type=int, default=1, show_default=True),
        click.option("--max-plies", type=click.IntRange(1), default=1000, show_default=True,
                     help="adjudicate a draw after this many plies"),
        click.option("--resign", "resign_text", metavar="movecount=N score=CP [twosided=true]", default=None,
                     help="adjudicate a loss when an engine scores CP or more below 0 for N moves in a row "
                          "(N default 3; twosided: only when its opponent agrees); a bare CP works too"),
        click.option("--draw", "draw_text", metavar="movenumber=M movecount=N score=CP", default=None,
                     help="adjudicate a draw once M full moves were played (default 20) when both engines "
                          "scored within CP of 0 for N moves each (default 8); a bare CP works too"),
        click.option("--tb-adjudicate", is_flag=True,
                     help="adjudicate positions our endgame tables settle (build them: mcts-engine tables GAME)"),
        click.option("--tb-path", type=click.Path(file_okay=False),
                     help="the endgame tables' directory (default: where mcts-engine tables puts them)"),
        click.option("--json", "as_json", is_flag=True, help="print the final report as JSON"),
        click.option("--quiet", is_flag=True, help="no progress bar"),
        cluster_option,
    ], f)


def tournament_options(f):
    """The options every tournament command shares."""
    return play_options(_apply([
        click.option("--engine", "engines", multiple=True, required=True,
                     help='"name=N cmd=COMMAND option.X=V ..." (repeatable), or a name from --engines-file, or '
                          'cutechess\'s "conf=NAME [key=value ...]" (the file\'s entry with those keys)'),
        click.option("--each", "each", metavar="KEY=VALUE ...", default=None,
                     help='keys laid over every engine, as cutechess\'s -each: "tc=10+0.1 option.Hash=64 proto=uci"'),
        click.option("--pondering", is_flag=True,
                     help="let every engine think on its opponent's time (cutechess's -pondering; one engine: "
                          "ponder in its SPEC); each pondering engine takes a core of its own"),
        click.option("--event", default=None, help="the PDN records' Event tag (default: mcts-tournament)"),
        click.option("--games", type=click.IntRange(1), default=2, show_default=True,
                     help="games per pair of engines (played in colour-swapped pairs); more than a journal's "
                          "tournament continue it"),
        click.option("--sprt", nargs=4, type=float, default=None, metavar="ELO0 ELO1 ALPHA BETA",
                     help="sequential test on the first pair; stops early when decided"),
        click.option("--journal", type=click.Path(dir_okay=False), default="tournament.jsonl",
                     show_default=True, help="append-only results file; rerunning continues it"),
        click.option("--resume", is_flag=True, help="continue the journal (it must exist)"),
        click.option("--pdn", "pdn_file", type=click.Path(dir_okay=False),
                     help="write every game of the journal as PDN / PGN-like records here"),
        click.option("--recover", is_flag=True,
                     help="restart an engine that crashed or fell silent and go on (default: stop the tournament)"),
        click.option("--rating-interval", type=click.IntRange(0), default=10, show_default=True,
                     help="print the Elo (a match) or the rating table every N games (0: only at the end)"),
        click.option("--log", type=click.Path(dir_okay=False),
                     help="append every line to and from each engine to this file"),
    ], f))


def play_conditions(o: dict, openings: int, seed: int) -> PlayConditions:
    """How the games are played, from the command line's options ``o``: the game and its rules
    (checked by building the game), the time control, ``openings`` openings (seeded by
    ``seed``), the adjudication, the game's time limit and the concurrency."""
    rules = parse_rule_options(o["rules"]) if o["rules"] else {}
    get_game(o["game"], **rules)
    if o["cluster"] is not None and o["concurrency"] is not None:
        raise ValueError("--concurrency is for local runs: with --cluster each worker plays as many "
                         "games at once as it has threads (dask worker --nthreads)")
    tc = TimeControl.parse(o["movetime"], o["nodes"], o["tc"], o["margin"])
    return PlayConditions(o["game"], rules, tc, openings_of(o, rules, openings, seed), adjudication_of(o, rules),
                          o["game_timeout"], o["concurrency"] or max(1, min(8, os.cpu_count() or 1)))


def adjudication_of(o: dict, rules: dict) -> Adjudication:
    """``--max-plies``, ``--resign``, ``--draw`` and ``--tb-adjudicate`` as an Adjudication; with
    the tables, ValueError unless the game has some on disk."""
    fields = {**(parse_resign(o["resign_text"]) if o["resign_text"] else {}),
              **(parse_draw(o["draw_text"]) if o["draw_text"] else {})}
    if o["tb_adjudicate"]:
        from mcts_engine.tables import TableSet, default_directory
        game = get_game(o["game"], **rules)
        if not game.endgame_tables:
            raise ValueError(f"--tb-adjudicate: {game.name} has no endgame tables")
        path = str(o["tb_path"] or default_directory())
        if not TableSet(game, path).on_disk():
            raise ValueError(f"--tb-adjudicate: no endgame tables of {game.name} in {path}: build them with "
                             f"mcts-engine tables {game.name}")
        fields["tablebases"] = path
    elif o["tb_path"]:
        raise ValueError("--tb-path is for --tb-adjudicate")
    return Adjudication(o["max_plies"], **fields)


def openings_of(o: dict, rules: dict, count: int, seed: int) -> tuple[Opening, ...]:
    """The openings of ``--openings FILE``, or ``count`` random ones of ``--opening-plies``, or
    the start position."""
    if o["openings_file"]:
        return load_openings(OpeningsSpec.parse(o["openings_file"]), o["game"], rules, seed)
    if o["opening_plies"]:
        return random_openings(o["game"], rules, o["opening_plies"], count, seed)
    return (Opening(None),)


def _sprt(args: tuple[float, float, float, float] | None) -> SPRT | None:
    """The ``--sprt ELO0 ELO1 ALPHA BETA`` test, or None; bad bounds are a usage error (before any game)."""
    if not args:
        return None
    try:
        return SPRT(*args)
    except ValueError as err:
        raise click.UsageError(f"--sprt {' '.join(f'{x:g}' for x in args)}: {err}") from None


def _run(kind: str, **o) -> None:
    try:
        c = play_conditions(o, max(1, (o["games"] + 1) // 2), o["seed"])
        engines = engines_of(o["engines"], o["engines_file"], o["each"], o["pondering"])
        settings = TournamentSettings(c, tuple(engines), kind=kind, games=o["games"])
        if o["resume"] and not os.path.exists(o["journal"]):
            raise ValueError(f"--resume: journal {o['journal']} does not exist")
        if o["log"] and o["cluster"] is not None:
            raise ValueError("--log is for local runs: with --cluster the engines run on the workers")
        sprt = _sprt(o["sprt"])
        journal = Journal(o["journal"])
        tournament = Tournament(settings, journal, recover=o["recover"])
        tournament.event = o["event"]
        journal.acquire()           # a journal another manager writes is refused before any engine starts
    except (ValueError, RulesError, OSError) as err:
        raise click.UsageError(str(err)) from None
    log = None
    try:
        try:
            todo, done = tournament.check()
        except (ValueError, RulesError, OSError) as err:
            raise click.UsageError(str(err)) from None
        log = EngineLog(o["log"]) if o["log"] else None
        _play(tournament, todo, done, sprt, o, log)
    finally:
        journal.release()
        if log is not None:
            log.close()


def _play(tournament: Tournament, todo: list, done: list[dict], sprt: SPRT | None, o: dict,
          log: EngineLog | None) -> None:
    """Check the engines (before any game), play ``todo``, report; a stop names why."""
    settings = tournament.settings
    if todo and o["cluster"] is None:
        try:
            check_engines(settings.lineup(), io_log=log.line if log else None)
        except EngineCheckError as err:
            click.echo(f"Error: {err}", err=True)
            sys.exit(2)
    todo, done = tournament.prepare()
    header, _ = tournament.journal.load()
    progress = RunProgress(RunProgressSettings(len(todo) + len(done), tuple(e.name for e in settings.engines),
                                               settings.conditions.game, o["rating_interval"],
                                               lines=not (o["quiet"] or o["as_json"]), bar=sys.stderr.isatty(),
                                               sprt=sprt), done)

    def should_stop(games: list[dict]) -> bool:
        return sprt is not None and report.sprt_verdict(games, header, sprt)["status"] is not None

    tournament.on_game, tournament.should_stop = progress.game, should_stop
    try:
        with open_executor(o["cluster"], settings.conditions.concurrency, log.line if log else None) as executor:
            tournament.executor = executor
            results = tournament.run(todo, done)
    except KeyboardInterrupt:
        _stopped(progress, "interrupted", o["journal"], 130)
    except ClusterError as err:          # the cluster's set-up: unreachable, no workers, a worker lacking an engine
        _stopped(progress, f"Error: {err}", o["journal"], 2)
    except ExecutorError as err:
        _stopped(progress, f"Error: {err}", o["journal"], 1)
    progress.close()
    _finish(results, header, sprt, o["as_json"], o["pdn_file"], event=o["event"])
    if tournament.fault is not None:
        fault = tournament.fault
        spec = next(e for e in settings.engines if e.name == fault.engine)
        click.echo(f"Error: engine {fault.engine!r} lost game {records.game_number(fault.record)} by a {fault.kind}: "
                   f"{fault.record['reason']}\n  command: {' '.join(spec.cmd)}\nthe tournament stopped "
                   f"(--recover restarts such an engine and goes on); finished games are in {o['journal']} "
                   "(rerun to continue)", err=True)
        sys.exit(1)


def _stopped(progress, message: str, journal: str, status: int) -> None:
    """End a run that could not finish: the message, where the finished games are, the exit status
    (``progress``: a ``RunProgress`` or a bar, closed first)."""
    if progress is not None:
        progress.close()
    click.echo(f"{message}\nfinished games are in {journal} (rerun to continue)", err=True)
    sys.exit(status)


def _finish(results: list[dict], header: dict | None, sprt, as_json: bool, pdn_file: str | None,
            tuned=None, event: str | None = None) -> None:
    """Print the report of ``results`` (and, for a tune journal, what the tune found: a
    ``tune.report.TuneSummary``); write them as PDN, their ``Event`` ``event`` (default: the
    journal header's)."""
    rep = report.build(sorted(results, key=lambda r: r["id"]), header, sprt)
    event = event or (header or {}).get("event")
    if pdn_file:
        with open(pdn_file, "w", encoding="utf-8") as f:
            for r in sorted(results, key=lambda r: r["id"]):
                f.write(records.game_record_text({**r, "event": event} if event else r) + "\n")
    if as_json:
        out = report.as_json(rep)
        if tuned is not None:
            from .tune import report as tune_report
            out["tune"] = tune_report.as_json(tuned)
        click.echo(json.dumps(out, indent=2, allow_nan=False))
    elif tuned is None:
        click.echo(report.as_text(rep))
    else:
        from .tune import report as tune_report
        click.echo(report.as_text(rep) + "\n\n" + tune_report.as_text(tuned))


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
    """Recompute every statistic from a journal (of a tune too: then also what it found)."""
    try:
        lines = Journal(journal).records()
        header, games = Journal(journal).load()
        summary = _tune_summary(journal) if lines and lines[0].get("type") == TUNE_HEADER else None
    except (ValueError, OSError) as err:
        raise click.UsageError(str(err)) from None
    if not games:
        raise click.UsageError(f"journal {journal} has no finished game")
    _finish(games, header, _sprt(sprt), as_json, pdn_file, summary)


@main.command("ratings")
@click.argument("journals", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False))
@click.option("--anchor", metavar="NAME[=ELO]", help="fix this engine's rating (default 0) instead of the mean")
@click.option("--json", "as_json", is_flag=True)
def ratings_cmd(journals: tuple[str, ...], anchor: str | None, as_json: bool) -> None:
    """One rating list from the games of JOURNALS (matches, round robins, gauntlets, tunes)."""
    from .results.ratings import rate, ratings_text
    try:
        games = [g for path in journals for g in Journal(path).load()[1]]
        name, _, value = (anchor or "").partition("=")
        rating_list = rate(games, name or None, float(value) if value else 0.0)
    except (ValueError, OSError) as err:
        raise click.UsageError(str(err)) from None
    if not games:
        raise click.UsageError(f"no finished game in {', '.join(journals)}")
    if as_json:
        click.echo(json.dumps({"games": rating_list.games, "anchor": rating_list.anchor, "groups": rating_list.groups,
                               "ratings": [{"name": r.name, "elo": r.elo, "error": r.error, "games": r.record.games,
                                            "points": r.record.points, "wins": r.record.wins,
                                            "draws": r.record.draws, "losses": r.record.losses}
                                           for r in rating_list.ratings]}, indent=2))
    else:
        click.echo(ratings_text(rating_list))


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


# --- tune --------------------------------------------------------------------------------------
# (the tuner's modules, numpy among them, load only when a tune command runs)

@main.command()
@play_options
@click.option("--engine", required=True, help='the engine under test: "name=N cmd=COMMAND option.X=V ..."')
@click.option("--opponent", metavar="SPEC", default=None,
              help="play every iteration against this engine (any protocol, never told the tuned options) "
                   "instead of self-play: SPSA's theta+ and theta- each, or each Optuna trial")
@click.option("--params", "params_file", type=click.Path(exists=True, dir_okay=False),
              help="parameters: lines name,start,min,max,c_end,r_end (or with an int/float column), TOML or JSON")
@click.option("--param", "param_lines", multiple=True, help="a parameter line name,start,min,max,c_end,r_end (repeatable)")
@click.option("--iterations", type=click.IntRange(1), required=True, help="SPSA iterations or Optuna trials")
@click.option("--pairs-per-iteration", "pairs", type=click.IntRange(1), default=2, show_default=True,
              help="colour-swapped game pairs per iteration (or trial)")
@click.option("--optimizer", type=click.Choice(OPTIMIZERS), default="spsa", show_default=True)
@click.option("--a-ratio", type=click.FloatRange(0), default=A_RATIO, show_default=True,
              help="SPSA: A as a fraction of the iterations")
@click.option("--alpha", type=click.FloatRange(0), default=ALPHA, show_default=True, help="SPSA: learning-rate decay")
@click.option("--gamma", type=click.FloatRange(0), default=GAMMA, show_default=True, help="SPSA: perturbation decay")
@click.option("--journal", type=click.Path(dir_okay=False), default="tune.jsonl", show_default=True,
              help="the tune's journal; rerunning the same command continues it")
@click.option("--confirm", "confirm_games", type=click.IntRange(2), default=None,
              help="then play the tuned values against the start values for this many games (Elo, SPRT)")
@click.option("--confirm-against", help="the confirmation's baseline engine SPEC instead of the start values "
                                       "(with --opponent, naturally the same SPEC)")
@click.option("--confirm-sprt", nargs=4, type=float, default=CONFIRM_SPRT_ARGS, show_default=True,
              metavar="ELO0 ELO1 ALPHA BETA", help="the confirmation's SPRT (it stops when decided)")
@click.option("--no-plots", is_flag=True, help="do not write the PNG plots next to the journal")
def tune(**o) -> None:
    """Tune numeric engine options by playing the engine against itself or --opponent (SPSA, or Optuna)."""
    from .tune import report as tune_report
    from .tune import run as tune_run
    from .tune.confirm import confirm
    from .tune.iterations import check_engine
    from .tune.journal import TuneJournal
    from .tune.params import load_params, value_text
    from .tune.settings import SpsaKnobs, TuneSettings, paths
    try:
        c = play_conditions(o, min(o["iterations"] * o["pairs"], MAX_OPENINGS), o["seed"])
        [engine] = engines_of((o["engine"],), o["engines_file"])
        params = load_params(o["params_file"], o["param_lines"])
        settings = TuneSettings(engine, params, c, optimizer=o["optimizer"], iterations=o["iterations"],
                                pairs=o["pairs"], seed=o["seed"], spsa=SpsaKnobs(o["a_ratio"], o["alpha"], o["gamma"]),
                                opponent=_opponent(o["opponent"], o["engines_file"]))
        tune_run.check_optimizer(settings)
        settings = check_engine(settings)
        against = engines_of((o["confirm_against"],), o["engines_file"])[0] if o["confirm_against"] else None
        if against is not None and o["cluster"] is None:
            check_engines(Lineup(c, (against,)))     # the baseline starts, or exit 2 before any game
        sprt = _sprt(o["confirm_sprt"])
        journal = TuneJournal(o["journal"])
        files = paths(o["journal"])
        journaled = len(journal.start(settings).games)
        if o["confirm_games"]:
            journaled += len(Journal(files.confirm).load()[1])
    except (ValueError, RulesError, OSError) as err:
        raise click.UsageError(str(err)) from None
    bar, talk = None, not (o["quiet"] or o["as_json"])
    if talk and sys.stderr.isatty():
        from tqdm import tqdm
        bar = tqdm(total=settings.games_per_iteration * o["iterations"] + (o["confirm_games"] or 0),
                   initial=journaled, unit="game", file=sys.stderr)

    def on_game(record: dict) -> None:
        if bar is not None:
            bar.update(1)

    def on_iteration(record: dict) -> None:
        values = record["theta"] if "theta" in record else record["values"]
        where = f"it {record['iteration']}/{o['iterations']} " + " ".join(
            f"{p.name}={value_text(p, x)}" for p, x in zip(settings.params, values))
        if bar is not None:
            bar.set_postfix_str(where)
        elif talk:                    # not a terminal: a plain line an iteration, no bar
            click.echo(f"tune: {where}", err=True)

    try:
        with open_executor(o["cluster"], c.concurrency) as executor:
            tune_run.run(settings, journal, on_game, on_iteration, executor)
            confirmation = None
            if o["confirm_games"]:
                values = tune_report.summarize(journal.load()).values
                openings = openings_of(o, c.rules, max(1, (o["confirm_games"] + 1) // 2), o["seed"] + 1)
                confirmation = confirm(settings, values, o["confirm_games"], files.confirm, openings,
                                       against, sprt, on_game, executor)
    except KeyboardInterrupt:
        _stopped(bar, "interrupted", o["journal"], 130)
    except ClusterError as err:
        _stopped(bar, f"Error: {err}", o["journal"], 2)
    except ExecutorError as err:
        _stopped(bar, f"Error: {err}", o["journal"], 1)
    except (ValueError, OSError) as err:
        raise click.UsageError(str(err)) from None
    if bar is not None:
        bar.close()
    _tune_answer(_tune_summary(o["journal"], confirmation=confirmation), files, o["as_json"], o["no_plots"])


@main.command("tune-report")
@click.argument("journal", type=click.Path(exists=True, dir_okay=False))
@click.option("--confirm-sprt", nargs=4, type=float, default=CONFIRM_SPRT_ARGS, show_default=True,
              metavar="ELO0 ELO1 ALPHA BETA", help="the SPRT of the confirmation match, if there is one")
@click.option("--json", "as_json", is_flag=True)
@click.option("--no-plots", is_flag=True, help="do not write the PNG plots next to the journal")
def tune_report_cmd(journal: str, confirm_sprt, as_json: bool, no_plots: bool) -> None:
    """What a tune found, from its journal: the tuned values as a SPEC fragment, and the plots."""
    from .tune.settings import paths
    try:
        summary = _tune_summary(journal, _sprt(confirm_sprt))
    except (ValueError, OSError) as err:
        raise click.UsageError(str(err)) from None
    _tune_answer(summary, paths(journal), as_json, no_plots)


def _opponent(text: str | None, engines_file: str | None) -> EngineSpec | None:
    """The tune's ``--opponent SPEC`` (or a name from ``--engines-file``), or None without it;
    ValueError naming ``--opponent`` when it says nothing usable."""
    if text is None:
        return None
    if not text.strip():
        raise ValueError('--opponent needs an engine SPEC: "name=N cmd=COMMAND ..." (or a name from --engines-file)')
    try:
        [spec] = engines_of((text,), engines_file)
    except ValueError as err:
        raise ValueError(f"--opponent: {err}") from None
    return spec


def _tune_summary(journal: str, sprt: SPRT | None = None, confirmation=None):
    """What the tune journaled at ``journal`` found, with its confirmation match (read from its
    journal unless given); ValueError if it is not a tune journal."""
    from .tune import report as tune_report
    from .tune.confirm import load_confirmation
    from .tune.journal import TuneJournal
    from .tune.settings import paths
    records_ = TuneJournal(journal).load()
    if records_.header is None:
        raise ValueError(f"journal {journal} is not a tune journal (mcts-tournament report reads match journals)")
    if confirmation is None:
        confirmation = load_confirmation(paths(journal).confirm, sprt or SPRT(*CONFIRM_SPRT_ARGS))
    return tune_report.summarize(records_, confirmation)


def _tune_answer(summary, files, as_json: bool, no_plots: bool) -> None:
    """Write the plots and print what the tune found (a ``tune.report.TuneSummary``; ``files``
    are its ``tune.settings.TunePaths``)."""
    from .tune import report as tune_report
    from .tune.plots import available, write_plots
    plots = [] if no_plots else write_plots(summary, files.params_png, files.elo_png)
    if as_json:
        click.echo(json.dumps({**tune_report.as_json(summary), "plots": plots}, indent=2, allow_nan=False))
        return
    lines = tune_report.as_text(summary).split("\n")
    if plots:
        lines.insert(-1, f"plots: {', '.join(plots)}")
    elif not no_plots and not available():
        lines.insert(-1, "plots need matplotlib: pip install 'mcts-engine[tune]'")
    click.echo("\n".join(lines))


main.add_command(book)
