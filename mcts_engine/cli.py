"""The ``mcts-engine`` command: the protocol loop, DXP, perft, bench, play and the list of games.

With no subcommand it speaks the engine protocol on stdin/stdout (the ``protocol`` package).

Every subcommand reports bad input (unknown game, bad FEN, bad rule option) as
one clear error line and exit status 2, never as a traceback.
"""
from __future__ import annotations

import json
import sys
import time
from importlib import import_module

import click

from . import __version__
from . import bench as bench_mod
from . import native
from .rules import get_game, list_games, parse_rule_options
from .rules.base import RulesError
from .rules.base import divide as divide_moves
from .agents import AGENTS
from .mcts.limits import Limits

NODES = click.IntRange(1, Limits.MAX_NODES)                       # the search's bounds (issue 37)
MILLISECONDS = click.IntRange(1, int(Limits.MAX_SECONDS * 1000))


def _game(name: str, rules: str | None):
    """The game with the ``--rules key=value,...`` options, or a click error naming the problem."""
    try:
        return get_game(name, **(parse_rule_options(rules) if rules else {}))
    except RulesError as err:
        raise click.UsageError(str(err)) from None


class LazyGroup(click.Group):
    """A command group whose larger subcommands live in their own packages and are imported
    only when run or listed (``--help``): the engine's start loads neither."""

    LAZY = {"reference-engine": ("mcts_engine.reference_engines.cli", "reference_engine"),
            "train-eval": ("mcts_engine.training.cli", "train_eval")}

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted([*super().list_commands(ctx), *self.LAZY])

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name in self.LAZY:
            module, attribute = self.LAZY[name]
            return getattr(import_module(module), attribute)
        return super().get_command(ctx, name)


@click.group(cls=LazyGroup, invoke_without_command=True, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "-V", "--version", prog_name="mcts-engine")
@click.pass_context
def main(ctx: click.Context) -> None:
    """Monte Carlo tree search engine for draughts and other old board games."""
    if ctx.invoked_subcommand is None:
        from . import protocol
        ctx.exit(protocol.run())


@main.command(context_settings={"ignore_unknown_options": True, "allow_extra_args": True})
@click.option("--option", "options", multiple=True, metavar="NAME=VALUE",
              help="a parameter, as the client's set-param (repeatable), e.g. --option Threads=2")
@click.pass_context
def hub(ctx: click.Context, options: tuple[str, ...]) -> None:
    """Speak the Hub protocol on stdin/stdout from the start, as Scan does when started as
    ``scan hub`` (the lidraughts bot bridge starts engines so).  Parameters may also come as
    ``--NAME=VALUE`` (the bridge's engine_options); names the engine does not have are
    ignored, as Hub asks."""
    from . import protocol
    params = {}
    for text in list(options) + [arg[2:] for arg in ctx.args if arg.startswith("--")]:
        name, sep, value = text.partition("=")
        if not sep or not name:
            raise click.UsageError(f"parameter {text!r} is not NAME=VALUE")
        params[name] = value
    stray = [arg for arg in ctx.args if not arg.startswith("--")]
    if stray:
        raise click.UsageError(f"unexpected argument {stray[0]!r} (parameters are --NAME=VALUE)")
    try:
        _check_hub_params(params)
    except ValueError as err:
        raise click.UsageError(str(err)) from None
    ctx.exit(protocol.run(hub=True, params=params))


def _check_hub_params(params: dict[str, str]) -> None:
    """ValueError naming a parameter of ours whose value the engine would refuse."""
    from .protocol.hub import HUB_VARIANTS
    from .protocol.options import OptionValues
    values = OptionValues()
    for name, value in params.items():
        if name.lower() == "variant":
            name, value = "UCI_Variant", HUB_VARIANTS.get(value.lower(), value)
        if values.declared(name) is not None:
            values.check(name, value)


@main.command()
@click.option("--port", type=click.IntRange(0, 65535), default=27531, show_default=True,
              help="TCP port to listen on (0: any free port, printed on the first line)")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="address to listen on (0.0.0.0 for every network interface)")
@click.option("--game", default="international", show_default=True,
              help="the game to play (a draughts variant; DXP carries no variant)")
@click.option("--rules", help="rule options as key=value,key=value")
@click.option("--nodes", type=NODES, help="UCT iterations a move, instead of the requested clock")
@click.option("--movetime", type=MILLISECONDS, help="ms a move, instead of the requested clock")
@click.option("--option", "options", multiple=True, metavar="NAME=VALUE",
              help="an engine option, as the protocol's setoption (repeatable), e.g. --option Threads=2")
@click.option("--idle-timeout", type=click.FloatRange(0.1, 86400), default=120.0, show_default=True,
              help="seconds an initiator may stay silent (in a game: beyond its clock) before it is disconnected")
def dxp(port: int, host: str, game: str, rules: str | None, nodes: int | None, movetime: int | None,
        options: tuple[str, ...], idle_timeout: float) -> None:
    """Play DXP (DamExchange) games as the follower: wait for an initiator (a GUI, pydraughts,
    mcts-tournament) on HOST:PORT and play the games it requests, one initiator at a time (the
    others get GAMEACC 3, no games); a dropped connection waits for the next one.  Ctrl-C
    ends it."""
    from .protocol.dxp import DxpSettings, serve_dxp
    from .protocol.options import OptionError, OptionValues
    g = _game(game, rules)
    if not 0 < g.hub_squares < 100:
        raise click.UsageError(f"{g.name} has no numbered squares that DXP's two-digit fields can carry")
    values = OptionValues()
    engine_options = {"Rules": rules} if rules else {}
    for text in options:
        name, sep, value = text.partition("=")
        try:
            if not sep:
                raise OptionError(f"--option {text!r} is not NAME=VALUE")
            values.check(name, value)
        except OptionError as err:
            raise click.UsageError(str(err)) from None
        engine_options[name] = value
    settings = DxpSettings(g.name, engine_options, nodes, movetime / 1000 if movetime else None, idle_timeout)
    try:
        sys.exit(serve_dxp(settings, host, port))
    except OSError as err:
        raise click.UsageError(f"cannot listen on {host}:{port}: {err}") from None


@main.command()
def games() -> None:
    """List the registered games and variants."""
    for name in list_games():
        click.echo(name)


@main.command()
@click.argument("game")
@click.argument("depth", type=click.IntRange(0, 64))
@click.option("--fen", help="start from this position instead of the start position")
@click.option("--divide", is_flag=True, help="one line per root move with its leaf count")
@click.option("--rules", help="rule options as key=value,key=value (e.g. promotion=pass)")
def perft(game: str, depth: int, fen: str | None, divide: bool, rules: str | None) -> None:
    """Count the leaves of the legal-move tree DEPTH plies deep (draw rules ignored).

    The last line is always ``nodes N``; the line before gives the time and leaves per second.
    """
    g = _game(game, rules)
    try:
        state = g.parse_fen(fen) if fen else g.new_state()
    except RulesError as err:
        raise click.UsageError(str(err)) from None
    start = time.process_time()
    if divide and depth > 0:
        total = 0
        for move, count in divide_moves(g, state, depth):
            click.echo(f"{move} {count}")
            total += count
    else:
        total = g.perft(state, depth)
    elapsed = time.process_time() - start
    rate = total / elapsed if elapsed > 0 else 0.0
    click.echo(f"time {elapsed:.3f} s, {rate:,.0f} leaves/s")
    click.echo(f"nodes {total}")


@main.command()
@click.argument("game")
@click.option("--material", "materials", multiple=True, metavar="MATERIAL",
              help="an ending to solve: the side to move's pieces, a dash, the other side's, e.g. "
                   "3K-1K or 2K-1M (with men: /0 or /1 names the player to move; both when not "
                   "given); repeatable; default: every ending of --pieces pieces and 3K-1K")
@click.option("--pieces", type=click.IntRange(2, 6), default=3, show_default=True,
              help="without --material: every ending of up to this many pieces (English: 4 in "
                   "15 s, 5 in about 9 minutes and a few GB of memory; of 6 the kings' endings in minutes, "
                   "those with men on both sides need tens of GB and are refused where memory lacks; "
                   "docs/tables.md)")
@click.option("--path", type=click.Path(file_okay=False), help="the tables' directory "
              "(default: the user's cache, as the engine option TablePath)")
@click.option("--list", "list_only", is_flag=True, help="list the tables on disk, build nothing")
@click.option("--rules", help="rule options as key=value,key=value")
def tables(game: str, materials: tuple[str, ...], pieces: int, path: str | None, list_only: bool,
           rules: str | None) -> None:
    """Build the endgame tables of GAME (a draughts variant): small endings solved exactly,
    which the engine probes with EndgameTables true.  A table built once stays on disk; an
    unreadable one on disk (empty, damaged, swapped) is built again."""
    from . import tables as tb
    g = _game(game, rules)
    if not g.endgame_tables:
        raise click.UsageError(f"{g.name} has no endgame tables (draughts variants where a side "
                               "without a move loses, apart from Frisian)")
    store = tb.TableSet(g, path or tb.default_directory())
    if list_only:
        for material in store.on_disk():
            table = store.table(material)
            click.echo(tb.describe(table) if table is not None else
                       f"{material.name}: unreadable ({store.broken.get(material, 'no such file')}); "
                       f"`mcts-engine tables {g.name} --material {material.name}` builds it again")
        return
    try:
        wanted = [m for text in materials for m in tb.materials_named(text)] or tb.default_materials(pieces)
    except ValueError as err:
        raise click.BadParameter(str(err), param_hint="--material") from None
    broken = [m for m in store.on_disk() if store.table(m) is None]     # rebuilt too, whatever was asked
    for material in broken:
        click.echo(f"unreadable, built again: {store.broken.get(material, material.name)}")
    wanted += [m for m in broken if m not in wanted]
    start = time.monotonic()
    too_large = []
    for material in wanted:
        try:
            store.build(material, lambda line: click.echo(f"{time.monotonic() - start:7.1f} s  {line}"))
        except tb.TableTooLarge as err:      # said at once, and the other endings still built
            too_large.append(material.name)
            click.echo(f"{time.monotonic() - start:7.1f} s  {err}", err=True)
    click.echo(f"{len(store.on_disk())} tables in {store.folder}")
    if too_large:
        raise click.ClickException(f"not built for lack of memory: {', '.join(too_large)}")


@main.command()
@click.option("--game", "games_", multiple=True,
              help=f"game to bench (repeatable; default: {bench_mod.QUICK_GAME}, on the native core alone)")
@click.option("--all", "every", is_flag=True, help="every game, on both cores: the whole table (minutes)")
@click.option("--seconds", type=click.FloatRange(0.01, 3600), default=1.0, show_default=True,
              help="CPU seconds per measurement")
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--reference", is_flag=True,
              help="also measure OpenSpiel's C++ checkers (and pydraughts) in the same run, if installed")
@click.option("--threads", "threads", type=click.IntRange(1, 64), multiple=True,
              help="instead: UCT iterations per WALL-second with this many searchers (repeatable, "
                   "e.g. --threads 1 --threads 2)")
@click.option("--memory", is_flag=True,
              help="instead: the search tree's nodes, bytes per node and resident memory per node")
@click.option("--endgames", is_flag=True,
              help="instead: play the endgame suite out, the winning side against the engine defending "
                   "(--game filters it, --ending names rows, --movetime/--nodes/--option set the engine)")
@click.option("--ending", "endings", multiple=True, help="--endgames: only this row of the suite (repeatable)")
@click.option("--movetime", type=MILLISECONDS, help="--endgames: ms a move (default 200)")
@click.option("--nodes", type=NODES, help="--endgames: UCT iterations a move, instead of --movetime")
@click.option("--option", "options", multiple=True, metavar="NAME=VALUE",
              help="an engine option (repeatable), e.g. --option Playout=mast: for the UCT searches "
                   "(UCT it/s, --threads, --memory: plain UCT unless Defaults=game) and --endgames "
                   "(each game's defaults unless Defaults=plain)")
@click.option("--core", "cores", type=click.Choice(bench_mod.CORES), multiple=True,
              help="the rules' core to measure (repeatable; default: both with --game or --all, native "
                   "where the game has it)")
@click.option("--json", "as_json", is_flag=True, help="machine-readable output")
def bench(games_: tuple[str, ...], every: bool, seconds: float, seed: int, reference: bool, threads: tuple[int, ...],
          memory: bool, endgames: bool, endings: tuple[str, ...], movetime: int | None,
          nodes: int | None, options: tuple[str, ...], cores: tuple[str, ...], as_json: bool) -> None:
    """Random playouts/s, plies/s and perft leaves/s per game, in process CPU time.

    Alone it measures English on the native core in a few seconds; --game names games, --all
    measures every game on both cores (minutes).

    With --threads: UCT iterations per wall-second for each thread count (parallel search).
    With --memory: the search tree's nodes and memory after a 30,000-iteration search from the start.
    With --endgames: how many won endings of the suite the engine converts (win, draw, loss).
    """
    if every and (games_ or endgames):
        raise click.UsageError("--all measures every game's speed: leave out --game and --endgames")
    if endgames:
        _bench_endgames(list(games_), list(endings), movetime, nodes, options, as_json)
        return
    chosen = bench_mod.selection(list(games_), every, cores, list_games())
    names = chosen.games
    for name in names:
        _game(name, None)  # fail early on an unknown name
    try:
        for name in names:       # fail early on a bad option
            bench_mod.search_settings(options, seed, name)
    except ValueError as err:
        raise click.BadParameter(str(err), param_hint="--option") from None
    if memory:
        rows = [{"game": name, "memory": bench_mod.memory_per_node(
            get_game(name), seed=seed, settings=bench_mod.search_settings(options, seed, name))} for name in names]
        click.echo(json.dumps({"seed": seed, "options": list(options), "memory": rows}, indent=2) if as_json
                   else bench_mod.memory_table(rows))
        return
    if threads:
        rows = bench_mod.run_parallel(names, list(threads), seconds, seed, options)
        refs = None
        if reference:
            from . import reference as ref
            mcts = ref.openspiel_checkers_mcts(seconds, seed)
            refs = {"openspiel checkers MCTS (C++)": mcts and mcts["cpp"]}
        if as_json:
            click.echo(json.dumps({"seconds": seconds, "seed": seed, "options": list(options), "parallel": rows,
                                   "reference": refs},
                                  indent=2))
        else:
            click.echo(bench_mod.parallel_table(rows, refs))
        return
    rows = bench_mod.run(names, seconds, seed, options, chosen.cores)
    refs = None
    if reference:
        from . import reference as ref
        refs = {"openspiel checkers (C++)": ref.openspiel_checkers_playouts(seconds, seed)}
    if as_json:
        click.echo(json.dumps({"seconds": seconds, "seed": seed, "options": list(options), "games": rows,
                               "rules": native.status(), "reference": refs}, indent=2))
    else:
        click.echo(f"rules: {native.status()}")
        click.echo(bench_mod.table(rows, refs))


def _bench_endgames(games_: list[str], endings: list[str], movetime: int | None, nodes: int | None,
                    options: tuple[str, ...], as_json: bool) -> None:
    """``bench --endgames``: play the suite's rows out and print the table (or JSON)."""
    from . import endgames as eg
    from .mcts.limits import Limits
    try:
        rows = eg.select(endings, games_)
    except ValueError as err:
        raise click.UsageError(str(err)) from None

    def settings_for(game: str):
        return bench_mod.search_settings(options, None, game, defaults="game")

    try:
        for game in {row.game for row in rows}:   # a bad option is an error before any game
            settings_for(game)
    except ValueError as err:
        raise click.BadParameter(str(err), param_hint="--option") from None
    limits = Limits(nodes=nodes) if nodes and not movetime else Limits(movetime=(movetime or 200) / 1000)
    eg.build_tables(rows, settings_for, None if as_json else lambda line: click.echo(f"table built: {line}"))
    done = eg.run_suite(rows, settings_for, limits,
                        None if as_json else lambda c: click.echo(eg.row_text(c)))
    if as_json:
        click.echo(json.dumps({"movetime_ms": None if limits.movetime is None else movetime or 200,
                               "nodes": limits.nodes, "options": list(options),
                               "summary": eg.summary(done),
                               "endings": [{"name": c.endgame.name, "game": c.endgame.game, "result": c.result,
                                            "plies": c.plies, "seconds": round(c.seconds, 2),
                                            "moves": list(c.moves)} for c in done]}, indent=2))
    else:
        click.echo(eg.suite_table(done).splitlines()[-1])


@main.command()
@click.argument("game")
@click.option("--human-first/--engine-first", default=True, show_default=True,
              help="who makes the first move of the game")
@click.option("--movetime", type=click.IntRange(1, 3_600_000), default=1000, show_default=True,
              help="the engine's thinking time per move, in milliseconds")
@click.option("--agent", type=click.Choice(AGENTS), default="uct", show_default=True)
@click.option("--rules", help="rule options as key=value,key=value")
@click.option("--seed", type=click.IntRange(0, 2**31 - 1), default=0, help="random seed (0 = fresh)")
def play(game: str, human_first: bool, movetime: int, agent: str, rules: str | None, seed: int) -> None:
    """Play GAME against the engine in the terminal (type a move, 'moves', 'help' or 'quit')."""
    from . import play as play_mod
    g = _game(game, rules)
    sys.exit(play_mod.play(g, human_first=human_first, movetime=movetime / 1000.0, agent=agent, seed=seed))


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help="address to listen on (another than 127.0.0.1 lets other machines drive the engines)")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True)
@click.option("--open", "open_browser", is_flag=True, help="open the page in the default browser")
@click.option("--engine", "engines", multiple=True,
              help='an engine the page may run: "name=X cmd=PROGRAM option.Name=value" (repeatable; '
                   "default: this engine, mcts-engine)")
@click.option("--engines-file", type=click.Path(exists=True, dir_okay=False),
              help="engines from a TOML or JSON file (as mcts-tournament's)")
@click.option("--journal", type=click.Path(dir_okay=False), help="a tournament journal to watch (/watch)")
@click.option("--game", default="english", show_default=True, help="the game a new board starts with")
def gui(host: str, port: int, open_browser: bool, engines: tuple[str, ...], engines_file: str | None,
        journal: str | None, game: str) -> None:
    """A web GUI: play, analyse and watch tournaments in the browser (needs the gui extra)."""
    try:
        from .gui.app import serve
        from .gui.board import GuiConfig
    except ImportError as err:
        raise click.UsageError(f"the GUI needs its extra: pip install -e '.[gui]' ({err})") from None
    from .client import EngineSpecError, load_engines_file, parse_engine_arg
    _game(game, None)
    try:
        specs = dict(load_engines_file(engines_file)) if engines_file else {}
        for text in engines:
            spec = parse_engine_arg(text)
            specs[spec.name] = spec
    except (EngineSpecError, OSError, ValueError) as err:
        raise click.UsageError(str(err)) from None
    foreign = [f"{name} (protocol={spec.protocol})" for name, spec in specs.items() if spec.protocol != "uci"]
    if foreign:
        raise click.UsageError("the GUI hosts engines of our protocol only (protocol=hub and protocol=dxp "
                               "are for mcts-tournament): " + ", ".join(foreign))
    if not specs:
        spec = parse_engine_arg("name=mcts-engine cmd=mcts-engine")
        specs[spec.name] = spec
    serve(GuiConfig(engines=specs, game=game, journal=journal), host=host, port=port, open_browser=open_browser)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
