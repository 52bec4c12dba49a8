"""The lidraughts bot bridge hosts ``mcts-engine hub``: the configuration docs/protocol.md
gives, driven exactly as the bridge's ``engine_wrapper.py`` drives a Hub engine (with
pydraughts' ``HubEngine``): the command ``<dir>/<name> <engine_arguement>`` with each of
``engine_options`` as ``--NAME=VALUE``; ``set-param`` for ``hub_options``, the variant as the
bridge names it and ``initial-time``; ``init``; the first move on ``level move-time``, the
others on the clock; and the Hub ``variant`` list names every variant pydraughts knows."""
from __future__ import annotations

import logging
import re
import sys
from pathlib import Path

import pytest

from support import ROOT, require
from support.drivers import engine_command

# lidraughts' variant -> the name the bridge sends (its parse_variant), and pydraughts' board
BRIDGE = {"standard": "normal", "frisian": "frisian", "frysk!": "frisian", "antidraughts": "losing",
          "breakthrough": "bt", "russian": "russian", "brazilian": "brazilian"}
QUICK = ("standard", "frysk!", "russian")
PYDRAUGHTS_NAMES = ("standard", "english", "italian", "russian", "brazilian", "turkish", "frisian", "frysk!",
                    "antidraughts", "breakthrough")


def documented_engine_section() -> dict:
    """The ``engine:`` section of the configuration docs/protocol.md gives for the bridge."""
    yaml = require("yaml", "PyYAML reads the bridge's configuration")
    text = (ROOT / "docs" / "protocol.md").read_text()
    section = text[text.index("### On lidraughts, through lidraughts-bot"):]
    block = re.search(r"```yaml\n(.*?)```", section, re.S).group(1)
    return yaml.safe_load(block)["engine"]


def bridge_command(cfg: dict) -> list[str]:
    """``[<dir>/<name>, engine_arguement, --k=v ...]`` as the bridge builds it; ``dir`` is this
    install's (the console script next to the interpreter, else ``python -m mcts_engine``)."""
    script = Path(sys.executable).parent / cfg["name"]
    program = [str(script)] if script.exists() else engine_command()
    return program + [cfg["engine_arguement"]] + [f"--{k}={v}" for k, v in (cfg.get("engine_options") or {}).items()]


@pytest.mark.parametrize("variant", [v if v in QUICK else pytest.param(v, marks=pytest.mark.slow) for v in BRIDGE])
def test_the_bridge_plays_our_engine_in_every_lidraughts_variant(variant, caplog):
    draughts = require("draughts", "pydraughts is not installed (pip install pydraughts)", attribute="Board")
    from draughts.engine import HubEngine, Limit
    cfg = documented_engine_section()
    assert cfg["protocol"] == "hub" and cfg["engine_arguement"] == "hub" and cfg["name"] == "mcts-engine"
    caplog.set_level(logging.WARNING, logger="pydraughts")
    engine = HubEngine(bridge_command(cfg))
    try:
        assert engine.id["name"] == "mcts-engine" and BRIDGE[variant] in engine.variants
        options = dict(cfg.get("hub_options") or {})
        options.update(variant=BRIDGE[variant], **{"initial-time": 60})
        for name, value in options.items():
            engine.setoption(name, value)
        engine.init()
        board = draughts.Board(variant)
        first = engine.play(board, Limit(movetime=1), ponder=False)     # the bridge's search_for
        board.push(first.move)
        for _ in range(5):
            if board.is_over():
                break
            result = engine.play(board, Limit(time=3.0, inc=0.1), ponder=False)   # search_with_ponder
            board.push(result.move)
        engine.quit()
        assert engine.p.wait(10) == 0
    finally:
        close(engine)
    assert [r.getMessage() for r in caplog.records] == []          # no line pydraughts did not expect


def test_the_variant_list_names_every_pydraughts_variant():
    """pydraughts (and its RoundRobin) reads the variants an engine plays from the ``variant``
    param's values: pydraughts' own names (``frysk!`` too) and the bridge's are all there."""
    require("draughts", "pydraughts is not installed (pip install pydraughts)", attribute="Board")
    from draughts.engine import HubEngine
    engine = HubEngine(engine_command() + ["hub"])
    try:
        assert set(PYDRAUGHTS_NAMES) | set(BRIDGE.values()) <= engine.variants
        engine.quit()
        engine.p.wait(10)
    finally:
        close(engine)


def close(engine) -> None:
    """Kill the engine if it still runs, and close pydraughts' pipes to it."""
    if engine.p.poll() is None:
        engine.kill_process()
    for stream in (engine.p.stdin, engine.p.stdout):
        stream.close()


def test_hub_command_line_parameters_are_checked_before_the_session(tmp_path):
    import subprocess
    from support.drivers import engine_env
    bad = subprocess.run(engine_command() + ["hub", "--Threads=0"], input="hub\n", capture_output=True, text=True,
                         env=engine_env(), timeout=60)
    assert bad.returncode == 2 and "Threads" in bad.stderr and bad.stdout == ""
    good = subprocess.run(engine_command() + ["hub", "--bb-size=3", "--option", "Seed=5"], input="hub\nquit\n",
                          capture_output=True, text=True, env=engine_env(), timeout=60)
    assert good.returncode == 0 and "param name=Seed value=5 " in good.stdout and "error" not in good.stdout
