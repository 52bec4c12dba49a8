"""What a running tournament prints, and what it logs: cutechess's per-game lines, the Elo
every --rating-interval games, plain lines (no bar) off a terminal, --log of every engine
line, --version."""
from __future__ import annotations

import re

from support.tournament import games_of, ours, run
from tournaments.play.progress import score_line
from tournaments.results.elo import WDL
from tournaments.results.report import llr_line, sprt_between
from tournaments.results.sprt import SPRT


def test_each_game_a_finished_line_and_the_running_score(tmp_path):
    journal = tmp_path / "j.jsonl"
    out = run("match", "--game", "english", "--engine", ours("A", "Agent=random", "Seed=1"), "--engine",
              ours("B", "Agent=greedy", "Seed=2"), "--games", "6", "--nodes", "1", "--concurrency", "1",
              "--rating-interval", "2", "--journal", str(journal))
    lines = out.stdout.splitlines()
    scores = [line for line in lines if line.startswith("Score of A vs B: ")]
    assert len(scores) == 6
    games = sorted(games_of(journal), key=lambda g: g["id"])
    wdl = WDL()
    for line, g in zip(scores, games):
        wdl = wdl + WDL.of(g["score_first"] if g["players"][0] == "A" else 1.0 - g["score_first"])
        assert line == score_line("A", "B", wdl)
        assert re.fullmatch(r"Score of A vs B: \d+ - \d+ - \d+ \[\d\.\d{3}\] \d+", line)
    finished = [line for line in lines if line.startswith("Finished game ")]
    assert finished[0].startswith("Finished game 1 (A vs B): ") and len(finished) == 6
    # each names its game from 1, its first and second player, and the winner in words (PDN's
    # 2-0 / 0-2, from White's side, would read the other way round when the first player is Black)
    by_number = {g["id"] + 1: g for g in games}
    for line in finished:
        number, first, second, result, why = re.fullmatch(
            r"Finished game (\d+) \((\w+) vs (\w+)\): (draw|\w+ wins) \{(.*)\}", line).groups()
        g = by_number[int(number)]
        assert [first, second] == g["players"] and why == g["reason"]
        assert result == {1.0: f"{first} wins", 0.0: f"{second} wins", 0.5: "draw"}[g["score_first"]]
    assert len([line for line in lines if line.startswith("Elo difference: ")]) == 3
    # not a terminal: no progress bar (its carriage returns would make one endless line), but
    # a plain progress line at each rating interval
    assert "\r" not in out.stderr and "\r" not in out.stdout
    assert len([line for line in lines if line.startswith("Progress: ")]) == 3
    assert lines[-1].startswith("Final results")


def test_quiet_and_a_round_robin_rating_table(tmp_path):
    quiet = run("match", "--game", "english", "--engine", ours("A", "Agent=random"), "--engine",
                ours("B", "Agent=random"), "--games", "2", "--nodes", "1", "--journal", str(tmp_path / "q.jsonl"),
                "--quiet").stdout
    assert "Score of" not in quiet and "Finished game" not in quiet
    rr = run("round-robin", "--game", "english", "--engine", ours("A", "Agent=random"), "--engine",
             ours("B", "Agent=random"), "--engine", ours("C", "Agent=random"), "--games", "2", "--nodes", "1",
             "--rating-interval", "3", "--journal", str(tmp_path / "r.jsonl")).stdout
    assert rr.count("Rank  Name") == 1 + 2        # every 3 games of 6, then the final report
    assert {line.split(":")[0] for line in rr.splitlines() if line.startswith("Score of")} == {
        "Score of A vs B", "Score of A vs C", "Score of B vs C"}


def test_log_every_line_to_and_from_each_engine(tmp_path):
    log = tmp_path / "engines.log"
    run("match", "--game", "english", "--engine", ours("A", "Agent=random"), "--engine", ours("B", "Agent=random"),
        "--games", "2", "--nodes", "1", "--concurrency", "1", "--journal", str(tmp_path / "j.jsonl"), "--quiet",
        "--log", str(log))
    lines = log.read_text().splitlines()
    pattern = re.compile(r"\d+\.\d{3} (A|B) ([<>!]) (.*)")
    parsed = [pattern.fullmatch(line) for line in lines]
    assert all(parsed), [line for line, m in zip(lines, parsed) if not m][:3]
    for name in "AB":
        sent = [m.group(3) for m in parsed if m.group(1) == name and m.group(2) == ">"]
        heard = [m.group(3) for m in parsed if m.group(1) == name and m.group(2) == "<"]
        assert sent[0] == "uci" and "uciok" in heard and any(s.startswith("go nodes 1") for s in sent)
        assert any(h.startswith("bestmove ") for h in heard) and "quit" in sent


def test_version_on_both_commands():
    from mcts_engine import __version__
    assert run("--version").stdout.strip() == f"mcts-tournament, version {__version__}"
    from click.testing import CliRunner
    from mcts_engine.cli import main
    assert CliRunner().invoke(main, ["--version"]).output.strip() == f"mcts-engine, version {__version__}"


def test_every_rating_interval_prints_the_sprt_s_llr_and_bounds(tmp_path):
    """As fastchess: ``LLR: 0.27 (9.1%) (-2.94, 2.94) [0.00, 50.00]`` at every rating interval,
    the LLR of the games journaled so far, not only in the final report."""
    journal = tmp_path / "j.jsonl"
    out = run("match", "--game", "english", "--engine", ours("A", "Agent=random", "Seed=1"), "--engine",
              ours("B", "Agent=greedy", "Seed=2"), "--games", "6", "--nodes", "1", "--concurrency", "1",
              "--rating-interval", "2", "--sprt", "0", "50", "0.05", "0.05", "--journal", str(journal)).stdout
    lines = out.splitlines()
    llrs = [line for line in lines if line.startswith("LLR: ")]
    assert len(llrs) == 3
    games = sorted(games_of(journal), key=lambda g: g["id"])      # one game at a time: in id order
    for k, line in enumerate(llrs, 1):
        assert line == llr_line(sprt_between(games[:2 * k], "A", "B", SPRT(0, 50, 0.05, 0.05)))
        assert re.fullmatch(r"LLR: -?\d+\.\d\d \(-?\d+\.\d%\) \(-2\.94, 2\.94\) \[0\.00, 50\.00\]", line)
        assert lines[lines.index(line) - 1].startswith("Elo difference: ")
