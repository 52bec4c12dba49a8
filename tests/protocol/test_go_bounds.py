"""Every integer of ``go`` (and of Hub's ``level``) is range-checked where it is parsed (issue 37).

A number above its bound (``Limits.MAX_*``: more than any search can use) is clamped to the
bound with one ``info string`` note naming it; a negative count or movetime is refused with
the usual error line and left out.  Before issue 37 ``go nodes 9223372036854775808
movetime 200`` failed inside the search (the native core counts in a C long long) and
played the first legal move, and ``go movetime 1e400`` gave no bestmove at all.
"""
from __future__ import annotations

import pytest

from support.drivers import InProcessEngine, hub_fields
from mcts_engine.mcts.limits import Limits
from mcts_engine.protocol.hub import parse_level
from mcts_engine.protocol.uci import parse_go

HUGE = "9" * 400                      # more than a float holds
TOO_MANY = str(1 << 63)               # one more than a C long long holds
MAX_MS = int(Limits.MAX_SECONDS * 1000)


@pytest.fixture
def engine():
    eng = InProcessEngine()
    yield eng
    eng.close()


@pytest.mark.parametrize("word, bound, read", [
    ("nodes", Limits.MAX_NODES, lambda go: go.limits.nodes),
    ("depth", Limits.MAX_DEPTH, lambda go: go.limits.depth),
    ("movestogo", Limits.MAX_MOVESTOGO, lambda go: go.limits.movestogo),
    ("movetime", MAX_MS, lambda go: round(go.limits.movetime * 1000)),
    ("wtime", MAX_MS, lambda go: round(go.limits.time_left * 1000)),
    ("p1time", MAX_MS, lambda go: round(go.limits.time_left * 1000)),
])
@pytest.mark.parametrize("text", [TOO_MANY, HUGE])
def test_a_go_number_above_its_bound_is_clamped_and_named(word, bound, read, text):
    go = parse_go([word, text, "btime", "1000"], ("W", "B"), 0)
    assert read(go) == bound
    assert go.problems == []
    assert len(go.clamped) == 1 and f"go {word}" in go.clamped[0] and str(bound) in go.clamped[0]


def test_an_increment_above_its_bound_is_clamped():
    go = parse_go(["wtime", "1000", "winc", HUGE], ("W", "B"), 0)
    assert go.limits.increment == Limits.MAX_SECONDS and "go winc" in go.clamped[0]


@pytest.mark.parametrize("word", ["nodes", "depth", "movetime", "movestogo"])
def test_a_negative_count_or_movetime_is_still_refused(word):
    go = parse_go([word, "-" + HUGE], (), 0)
    assert go.limits == Limits() and go.clamped == [] and "is negative" in go.problems[0]


def test_numbers_within_their_bounds_are_kept_as_given():
    go = parse_go(["nodes", str(Limits.MAX_NODES), "depth", str(Limits.MAX_DEPTH), "movetime", str(MAX_MS)], (), 0)
    assert (go.limits.nodes, go.limits.depth, go.limits.movetime) == (Limits.MAX_NODES, Limits.MAX_DEPTH,
                                                                        Limits.MAX_SECONDS)
    assert go.clamped == [] and go.problems == []


def test_a_huge_node_count_with_a_movetime_searches_for_the_movetime(engine):
    """The issue's case: the node count is clamped, the search runs and is not the fallback."""
    engine.send(f"go nodes {TOO_MANY} movetime 200")
    lines = engine.until("bestmove")
    assert [s for s in lines if s.startswith("info string") and "endgame tables" not in s] == [
        f"info string go nodes {TOO_MANY} is above the maximum {Limits.MAX_NODES}: searching with the maximum"]
    infos = [s for s in lines if s.startswith("info depth")]
    assert infos and int(infos[-1].split()[infos[-1].split().index("nodes") + 1]) > 0, lines
    assert not any("error" in s for s in lines), lines
    assert lines[-1].split()[1] in engine.query("moves").split()


@pytest.mark.parametrize("line", [f"go movetime {HUGE}", f"go wtime {HUGE} btime {HUGE} winc {HUGE}",
                                  f"go depth {HUGE}", f"go movestogo {HUGE} wtime 300 btime 300"])
def test_a_go_with_a_number_too_big_for_a_float_answers_one_bestmove(engine, line):
    engine.send(line)
    engine.read_until(lambda s: s.startswith("info string go"))      # the clamp note comes first
    engine.send("stop")
    lines = engine.until("bestmove")
    assert not any("error" in s for s in lines), lines
    assert not any(s.startswith("bestmove") for s in engine.sync())


# --- Hub's level ---------------------------------------------------------------------------------

@pytest.mark.parametrize("key, value, read, bound", [
    ("nodes", TOO_MANY, lambda lim: lim.nodes, Limits.MAX_NODES),
    ("depth", HUGE, lambda lim: lim.depth, Limits.MAX_DEPTH),
    ("move-time", "1e300", lambda lim: lim.movetime, Limits.MAX_SECONDS),
    ("time", "1e300", lambda lim: lim.time_left, Limits.MAX_SECONDS),
])
def test_a_hub_level_number_above_its_bound_is_clamped_and_named(key, value, read, bound):
    level = parse_level({key: value, "time": "60"} if key != "time" else {key: value})
    assert read(level.limits) == bound
    assert len(level.clamped) == 1 and f"level {key}=" in level.clamped[0]


def test_a_hub_level_with_a_huge_node_count_searches_with_its_time():
    hub = InProcessEngine()
    try:
        hub.send("hub")
        hub.until("wait")
        hub.send(f"level nodes={TOO_MANY} move-time=0.2")
        note = hub.read()
        assert note.startswith("info message=") and "level nodes=" in note, note
        hub.send("go think")
        lines = hub.until("done")
        assert not any(s.startswith("error") for s in lines), lines
        infos = [hub_fields(s) for s in lines if s.startswith("info depth")]
        assert infos and int(infos[-1]["nodes"]) > 0, lines
    finally:
        hub.close()
