"""The journal under attack (issue 30): its last line, its lock, and every line checked.

The reproductions: a finished game whose newline was lost must neither vanish nor be replayed;
two managers on one journal must not both play; a duplicated or foreign game line, a bad
score, player or id must be one clear error naming the line (``report``, the resume), never a
traceback nor a silent count.  Real manager processes where the race is between processes.
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest
from click.testing import CliRunner

from tournaments.cli import main
from tournaments.results.journal import Journal
from support.tournament import games_of, ours, run, tournament_command

HEADER = {"type": "tournament", "settings": {"game": "english", "rules": {}, "kind": "match", "games": 4,
                                             "engines": [{"name": "A"}, {"name": "B"}]}}


def game(i: int, **changes) -> dict:
    """A sound game line of the header's match (game ``i`` of pair ``i // 2``)."""
    first, second = ("A", "B") if i % 2 == 0 else ("B", "A")
    record = {"type": "game", "id": i, "pair": i // 2, "game": "english", "rules": {}, "players": [first, second],
              "score_first": 1.0, "reason": "first player wins by the rules", "start_fen": "x", "moves": ["9-13"]}
    record.update(changes)
    return record


def write(path, records, end: bytes = b"\n") -> None:
    """``records`` as JSON lines, the last ended by ``end``."""
    lines = [json.dumps(r).encode() for r in records]
    path.write_bytes(b"\n".join(lines) + end)


def match_args(journal, games: int = 6) -> list[str]:
    return ["match", "--game", "english", "--engine", ours("A", "Agent=random", "Seed=1"), "--engine",
            ours("B", "Agent=random", "Seed=2"), "--games", str(games), "--concurrency", "1", "--nodes", "1",
            "--journal", str(journal), "--quiet"]


# --- the last line ------------------------------------------------------------------------------

@pytest.mark.parametrize("tail, counted, repaired", [
    (b"", 2, b""),                                              # ends with its newline: nothing to do
    (json.dumps(game(2)).encode(), 3, b"\n"),                   # whole, newline lost: counts, newline added
    (json.dumps(game(2)).encode()[:-1], 2, None),               # cut short by a kill: skipped, cut
    (b'{"type": "game", "id": 2, "mov', 2, None),
    (b"\xff\xfe", 2, None),                                     # garbage bytes of a torn write
])
def test_the_last_line_counts_the_same_for_every_reader_and_after_the_repair(tmp_path, tail, counted, repaired):
    path = tmp_path / "j.jsonl"
    body = b"\n".join(json.dumps(r).encode() for r in (HEADER, game(0), game(1))) + b"\n"
    path.write_bytes(body + tail)
    from mcts_engine.journal_format import read_journal
    assert len(read_journal(str(path)).games) == counted                      # the watcher's reader
    assert len(Journal(str(path)).load()[1]) == counted                       # the resume's and report's
    Journal(str(path)).repair_tail()
    expected = body + tail + repaired if repaired is not None else body
    assert path.read_bytes() == expected
    assert len(Journal(str(path)).load()[1]) == counted                       # the same after the repair


def test_tail_repair_of_a_file_without_any_newline():
    from mcts_engine.journal_format import tail_repair
    assert tail_repair(b'{"type": "tourn').keep == 0
    assert tail_repair(json.dumps(HEADER).encode()).add_newline
    assert tail_repair(b"") == tail_repair(b"{}\n")


def test_a_finished_game_whose_newline_was_lost_is_neither_lost_nor_replayed(tmp_path):
    """On main the rerun counted the game, then its first write cut it: report showed one game
    fewer and the next rerun replayed it with another result."""
    journal = tmp_path / "j.jsonl"
    run(*match_args(journal, 6), timeout=180)
    lines = journal.read_bytes().split(b"\n")[:-1]            # header + 6 games
    kept = lines[:5]                                           # header + games 0..3, game 3's newline lost
    journal.write_bytes(b"\n".join(kept))
    before = sorted(games_of(journal), key=lambda g: g["id"])
    assert [g["id"] for g in before] == [0, 1, 2, 3]
    out = CliRunner().invoke(main, ["report", str(journal), "--json"])
    assert out.exit_code == 0 and json.loads(out.output)["games"] == 4
    run(*match_args(journal, 6), timeout=180)                  # plays games 4 and 5 only
    after = sorted(games_of(journal), key=lambda g: g["id"])
    assert [g["id"] for g in after] == list(range(6))
    assert after[:4] == before                                  # game 3 kept as it was, not replayed
    assert journal.read_bytes().count(b"\n") == 7


# --- one writer -----------------------------------------------------------------------------------

def test_a_second_manager_on_the_same_journal_is_refused_with_the_first_ones_pid(tmp_path):
    """On main the same command started twice wrote two results for every game id."""
    journal = tmp_path / "j.jsonl"
    args = match_args(journal, 6)
    args[args.index("--nodes") + 1] = "300"                    # slow enough to still be running
    first = subprocess.Popen(tournament_command() + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.time() + 60
        while time.time() < deadline and not (journal.exists() and journal.stat().st_size):
            time.sleep(0.05)
        assert journal.exists()
        second = run(*args, check=False, timeout=60)
        assert second.returncode == 2, second.stderr
        assert f"pid {first.pid}" in second.stderr and "Traceback" not in second.stderr
        out, err = first.communicate(timeout=300)
        assert first.returncode == 0, err
    finally:
        if first.poll() is None:
            first.kill()
    ids = [g["id"] for g in games_of(journal)]
    assert sorted(ids) == list(range(6))
    assert not os.path.exists(str(journal) + ".lock")            # released at the end


def test_the_lock_is_counted_in_one_process_and_released_by_a_killed_holder(tmp_path):
    from tournaments.results import lock
    path = str(tmp_path / "j.jsonl")
    journal = Journal(path)
    journal.acquire()
    journal.acquire()                          # a tune's iteration inside its tune: the same holder
    journal.append(HEADER)                     # its own appends go through
    journal.release()
    assert lock.held(path)
    journal.release()
    assert not lock.held(path) and not os.path.exists(lock.lock_path(path))
    holder = subprocess.Popen([sys.executable, "-c", "import sys, time; from tournaments.results.journal import "
                               "Journal; Journal(sys.argv[1]).acquire(); print('held', flush=True); time.sleep(60)",
                               path], stdout=subprocess.PIPE, text=True, env={**os.environ})
    try:
        assert holder.stdout.readline().strip() == "held"
        with pytest.raises(lock.JournalBusy, match=f"pid {holder.pid}"):
            journal.append(game(0))
        os.kill(holder.pid, signal.SIGKILL)    # a manager killed at any moment leaves no lock behind
        holder.wait(10)
    finally:
        if holder.poll() is None:
            holder.kill()
    journal.append(game(0))
    assert [g["id"] for g in journal.load()[1]] == [0]


# --- every line checked ----------------------------------------------------------------------------

BAD_LINES = [
    ("a duplicated game line", [HEADER, game(0), game(1), game(1)], "line 4: game 1 again (first at line 3)"),
    ("a score of 7", [HEADER, game(0, score_first=7)], "line 2: game 0 scores 7"),
    ("a score of null", [HEADER, game(0, score_first=None)], "line 2: game 0 scores null"),
    ("a score of true", [HEADER, game(0, score_first=True)], "line 2: game 0 scores true"),
    ("an unknown player", [HEADER, game(0, players=["A", "C"])], "line 2: game 0 is played by 'C'"),
    ("one player twice", [HEADER, game(0, players=["A", "A"])], "line 2: game 0 has players"),
    ("a non-integer id", [HEADER, game(0, id="x")], 'line 2: game id "x" is not a whole number'),
    ("a negative id", [HEADER, game(0, id=-1)], "line 2: game id -1"),
    ("a game of another game", [HEADER, game(0), game(1, game="russian")],
     "line 3: game 1 is of game \"russian\"; the tournament plays 'english'"),
    ("other rule options", [HEADER, game(0, rules={"flying": True})], "line 2: game 0 has rule options"),
    ("a third game in a pair", [HEADER, game(0), game(1), game(2, pair=0)], "line 4: game 2 is a third game of pair 0"),
    ("moves that are not texts", [HEADER, game(0, moves=[1, 2])], "line 2: game 0 has moves"),
    ("a game before any header", [game(0), HEADER], "line 1: a game line before any tournament header"),
    ("a header without its game", [{"type": "tournament", "settings": {"engines": [{"name": "A"}, {"name": "B"}]}}],
     "line 1: a tournament header without its game"),
    ("a record of an unknown type", [HEADER, {"type": "gmae", "id": 0}], "line 2: a record of unknown type"),
    ("a JSON array", [HEADER, [1, 2], game(0)], "line 2 is not a JSON object"),
]


@pytest.mark.parametrize("lines, words", [case[1:] for case in BAD_LINES], ids=[case[0] for case in BAD_LINES])
def test_a_bad_journal_is_one_clear_error_naming_the_line_in_report_and_resume(tmp_path, lines, words):
    journal = tmp_path / "j.jsonl"
    write(journal, lines)
    with pytest.raises(ValueError) as caught:                     # a JournalError
        Journal(str(journal)).load()
    assert words in str(caught.value) and str(journal) in str(caught.value)
    out = CliRunner().invoke(main, ["report", str(journal)])
    assert out.exit_code == 2 and words in out.output and "Traceback" not in out.output, out.output
    resume = CliRunner().invoke(main, match_args(journal, 4))     # the match refuses it before any game
    assert resume.exit_code == 2 and words in resume.output, resume.output


def test_a_broken_line_that_is_not_the_last_is_an_error_and_garbage_text_too(tmp_path):
    from mcts_engine.journal_format import JournalError, parse_records
    data = json.dumps(HEADER).encode() + b"\n" + b'{"type": "game", "id' + b"\n" + json.dumps(game(0)).encode() + b"\n"
    with pytest.raises(JournalError, match="line 2 is not JSON"):
        parse_records(data, "j")
    with pytest.raises(JournalError, match="line 2 is not UTF-8"):
        parse_records(json.dumps(HEADER).encode() + b"\n\xff\xfe\n{}\n", "j")


def test_a_tune_journal_checks_each_game_against_its_own_iteration_header(tmp_path):
    from mcts_engine.journal_format import JournalError, parse_records
    plus = {"type": "tournament", "iteration": 1, "settings": {**HEADER["settings"],
                                                               "engines": [{"name": "plus"}, {"name": "minus"}]}}
    second = {**plus, "iteration": 2}
    lines = [{"type": "tune", "settings": {}}, plus, game(0, players=["plus", "minus"], iteration=1),
             {"type": "iteration", "iteration": 1}, second, game(1, players=["minus", "plus"], iteration=2)]
    data = b"\n".join(json.dumps(r).encode() for r in lines) + b"\n"
    assert [r["type"] for r in parse_records(data, "t")] == ["tune", "tournament", "game", "iteration", "tournament",
                                                             "game"]
    lines[-1] = game(1, players=["minus", "A"], iteration=2)
    with pytest.raises(JournalError, match="line 6: game 1 is played by 'A'"):
        parse_records(b"\n".join(json.dumps(r).encode() for r in lines) + b"\n", "t")
