"""What cutechess-cli and fastchess users reach for: an engines file in cutechess's own
engines.json format with ``conf=``, ``--each``, ``--event`` and ``plies=`` in ``--openings``;
per-move PDN comments ``{+0.25/12 0.51s}`` from the journal; one numbering and one result
wording (games from 1, the winner named where people read, PDN results where PDN is
written); and a finished match that more games continue, as fastchess continues its
schedule."""
from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from mcts_engine.client import EngineSpec
from mcts_engine.records import move_comment, parse_records, replay
from support import require
from support.tournament import games_of, ours, run
from tournaments.cli import main
from tournaments.play.conditions import Opening, PlayConditions
from tournaments.play.runner import TournamentSettings, schedule
from tournaments.results.journal import Journal

# cutechess's engines.json as its GUI writes it (keys sorted, every option with its type,
# default and bounds), the commands replaced by our engine
CUTECHESS_ENGINES = [
    {"command": "mcts-engine", "name": "UCT", "protocol": "uci", "stderrFile": "", "workingDirectory": "",
     "options": [{"alias": "", "default": 1.0, "name": "UCT_C", "type": "text", "value": "0.7"},
                 {"alias": "", "default": 0, "max": 2147483647, "min": 0, "name": "Seed", "type": "spin", "value": 3}]},
    {"command": "mcts-engine", "name": "Eval", "protocol": "uci", "stderrFile": "", "workingDirectory": "",
     "options": [{"alias": "", "choices": ["uct", "random", "greedy"], "default": "uct", "name": "Agent",
                  "type": "combo", "value": "greedy"}]},
]


def test_a_cutechess_command_line_runs_a_match_unchanged_but_for_the_engine_commands(tmp_path):
    """``cutechess-cli -engine conf=UCT -engine conf=Eval -each tc=... option.X=... -event E
    -openings file=F plies=2 order=random -games 4 -pgnout F``, our names for the options: the
    engines come from cutechess's engines.json (found in the current directory, as cutechess
    finds it), --each reaches every engine, the PDN carries the Event and every opening is cut
    to 2 plies."""
    (tmp_path / "engines.json").write_text(json.dumps(CUTECHESS_ENGINES, indent=4, sort_keys=True))
    journal, pdn = tmp_path / "j.jsonl", tmp_path / "g.pdn"
    log = tmp_path / "engines.log"
    import subprocess
    from support.tournament import tournament_command
    proc = subprocess.run(tournament_command() + [
        "match", "--game", "english", "--engine", "conf=UCT", "--engine", "conf=Eval option.Seed=5",
        "--each", "nodes=30 option.Threads=1", "--event", "cutechess habits", "--openings",
        "file=english-3move plies=2 order=random", "--games", "4", "--concurrency", "2",
        "--journal", str(journal), "--pdn", str(pdn), "--log", str(log), "--quiet"],
        cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    games = sorted(games_of(journal), key=lambda g: g["id"])
    assert len(games) == 4 and all(len(g["opening"]["moves"]) == 2 for g in games)
    header = Journal(str(journal)).load()[0]
    engines = {e["name"]: e for e in header["settings"]["engines"]}
    assert engines["UCT"]["options"] == {"UCT_C": "0.7", "Seed": "3", "Threads": "1"}
    assert engines["Eval"]["options"] == {"Agent": "greedy", "Seed": "5", "Threads": "1"}
    assert header["settings"]["tc"]["nodes"] is None and all(e["tc"] == "nodes=30" for e in engines.values())
    assert header["event"] == "cutechess habits"
    sent = log.read_text()
    assert "setoption name UCT_C value 0.7" in sent and "go nodes 30" in sent
    records = parse_records(pdn.read_text())
    assert [r.tags["Event"] for r in records] == ["cutechess habits"] * 4
    # report --pdn later says the same Event (the journal's header keeps it)
    again = tmp_path / "again.pdn"
    assert CliRunner().invoke(main, ["report", str(journal), "--pdn", str(again)]).exit_code == 0
    assert again.read_text() == pdn.read_text()


def test_the_docs_cutechess_example_runs_as_written(tmp_path):
    """docs/tournaments.md's cutechess example: its engines.json and its command, run in the
    file's directory with 4 games instead of 20 (the Elo and LLR every 2)."""
    import shlex
    import subprocess
    from support import ROOT
    from support.tournament import tournament_command
    text = (ROOT / "docs" / "tournaments.md").read_text()
    after = text[text.index("### A cutechess command line"):]
    (tmp_path / "engines.json").write_text(re.search(r"```json\n(.*?)```", after, re.S).group(1))
    words = shlex.split(re.search(r"```sh\n(.*?)```", after, re.S).group(1).replace("\\\n", " "))
    assert words[:2] == ["mcts-tournament", "match"] and {"--each", "--event", "conf=UCT"} <= set(words)
    assert any("plies=2" in w for w in words)
    words[words.index("--games") + 1] = "4"
    words[words.index("--rating-interval") + 1] = "2"
    proc = subprocess.run(tournament_command() + words[1:], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.splitlines()[-1].endswith("4 game(s) played") and "LLR: " in proc.stdout
    records = parse_records((tmp_path / "games.pdn").read_text())
    assert {r.tags["Event"] for r in records} == {"UCT against Eval"} and len(records) == 4
    assert all(len(g["opening"]["moves"]) == 2 for g in games_of(tmp_path / "games.jsonl"))


@pytest.mark.parametrize("entry, words", [
    ({"name": "x", "command": "x", "protocol": "xboard"}, 'protocol "xboard"'),
    ({"name": "x", "command": "x"}, "missing protocol"),
    ({"name": "x", "command": "x", "protocol": "uci", "ponder": "yes"}, 'ponder must be true or false, not "yes"'),
    ({"name": "x", "command": "x", "protocol": "dxp", "ponder": True}, "DXP has no pondering"),
    ({"name": "x", "command": "x", "protocol": "uci", "whitepov": True}, "whitepov true cannot be honoured"),
    ({"name": "x", "command": "x", "protocol": "uci", "initStrings": ["a"]}, "initStrings"),
    ({"name": "x", "command": "x", "protocol": "uci", "stderrFile": "e.txt"}, "--log FILE"),
    ({"name": "x", "command": "x", "protocol": "uci", "restart": "on"}, 'restart "on" cannot be honoured'),
    ({"name": "x", "command": "x", "protocol": "uci", "options": [{"name": "Clear Hash", "type": "button"}]},
     "is a button"),
    ({"name": "x", "command": "x", "protocol": "uci", "options": [{"name": "Hash"}]}, "has no value"),
    ({"name": "x", "command": "x", "protocol": "uci", "book": "b.bin"}, "unknown keys ['book']"),
    ({"name": "x", "protocol": "uci"}, "command must be"),
])
def test_what_a_cutechess_engines_file_asks_that_cannot_be_honoured_is_an_error(tmp_path, entry, words):
    from mcts_engine.client import EngineSpecError, load_engines_file
    path = tmp_path / "engines.json"
    path.write_text(json.dumps([entry]))
    with pytest.raises(EngineSpecError) as info:
        load_engines_file(path)
    assert words in str(info.value) and str(path) in str(info.value)


def test_cutechess_engines_file_reads_what_it_can(tmp_path):
    from mcts_engine.client import load_engines_file
    from mcts_engine.client.specs import resolve_cmd
    (tmp_path / "scan").mkdir()
    path = tmp_path / "engines.json"
    path.write_text(json.dumps(CUTECHESS_ENGINES + [
        {"name": "Scan", "command": "scan hub", "protocol": "hub", "workingDirectory": "scan", "restart": "off",
         "validateClaims": False, "variants": ["standard"], "whitepov": False, "ponder": False, "initStrings": [],
         "options": {"variant": "normal", "threads": 2, "book": False}}]))
    specs = load_engines_file(path)
    assert specs["UCT"] == EngineSpec("UCT", resolve_cmd(["mcts-engine"]), {"UCT_C": "0.7", "Seed": "3"})
    assert specs["Scan"].cwd == str((tmp_path / "scan").resolve()) and specs["Scan"].protocol == "hub"
    assert specs["Scan"].options == {"variant": "normal", "threads": "2", "book": "false"}
    assert not specs["Scan"].ponder
    path.write_text(json.dumps([{"name": "P", "command": "mcts-engine", "protocol": "uci", "ponder": True}]))
    assert load_engines_file(path)["P"].ponder


def test_each_and_conf_keys_lie_over_an_engine_as_cutechess_lays_them(tmp_path):
    from tournaments.play.engine_args import engines_of
    path = tmp_path / "engines.json"
    path.write_text(json.dumps(CUTECHESS_ENGINES))
    a, b = engines_of(("conf=UCT tc=10+0.1 option.uct_c=0.5", "name=R cmd=mcts-engine option.Agent=random"),
                    str(path), "proto=uci dir=/tmp option.Hash=64 st=0.2")
    assert a.options == {"Seed": "3", "uct_c": "0.5", "Hash": "64"} and a.tc == "st=0.2" and a.cwd == "/tmp"
    assert b.options == {"Agent": "random", "Hash": "64"} and b.protocol == "uci"
    assert not a.ponder and not b.ponder
    assert [e.ponder for e in engines_of((ours("A"), ours("B") + " ponder=false"), None, None)] == [False, False]
    assert [e.ponder for e in engines_of((ours("A") + " ponder", ours("B")), None, None)] == [True, False]
    assert [e.ponder for e in engines_of((ours("A"), ours("B")), None, "ponder")] == [True, True]
    for args, each, words in (((ours("A"), ours("B")), "name=X", "name one engine, not every engine"),
                              ((ours("A"), ours("B")), "conf=UCT", "name one engine, not every engine"),
                              (("conf=Nobody", ours("B")), None, "no engine 'Nobody'"),
                              ((ours("A"), ours("B")), "timemargin=50", "--margin MS"),
                              ((ours("A"), ours("B")), "ponder=maybe", "ponder='maybe' is not true or false"),
                              ((ours("A"), "name=D protocol=dxp port=5000"), "ponder", "DXP has no pondering")):
        with pytest.raises(ValueError, match=re.escape(words)):
            engines_of(args, str(path), each)


def test_conf_without_an_engines_file_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["match", "--game", "english", "--engine", "conf=A", "--engine", "conf=B",
                                       "--journal", str(tmp_path / "j.jsonl")])
    assert result.exit_code == 2 and "--engines-file" in result.output and "engines.json" in result.output


def test_a_match_s_pdn_carries_cutechess_s_move_comments_that_both_readers_take(tmp_path):
    """Each engine move of the PDN has ``{score/depth time}`` from the journal (opening moves
    none); our reader reads them back as the journal has them, and pydraughts' reader, which
    skips comments, replays every move."""
    journal, pdn = tmp_path / "j.jsonl", tmp_path / "g.pdn"
    run("match", "--game", "english", "--engine", ours("A", "Seed=1"), "--engine", ours("B", "Agent=greedy"),
        "--games", "2", "--nodes", "20", "--openings", "file=english-3move", "--journal", str(journal),
        "--pdn", str(pdn), "--quiet")
    games = sorted(games_of(journal), key=lambda g: g["id"])
    text = pdn.read_text()
    assert re.search(r"\{[+-]?\d+\.\d\d/\d+ \d+(\.\d+)?s\}", text)
    parsed = parse_records(text)
    for record, game in zip(parsed, games):
        assert record.tags["Round"] == str(game["id"] + 1)
        assert record.notes[:3] == [None, None, None]                  # the ballot's moves
        notes = record.notes[3:]
        assert len(notes) == len(game["moves"])
        for note, info, ms in zip(notes, game["infos"], game["times_ms"]):
            assert note.comment == move_comment(info, ms)
            assert (note.cp, note.mate, note.depth) == (info.get("cp"), info.get("mate"), info.get("depth"))
            decimals = 3 if ms < 100 else 2 if ms < 1000 else 1 if ms < 10000 else 0
            assert note.seconds == pytest.approx(ms / 1000, abs=0.51 * 10 ** -decimals)
        replay(record)
    draughts = require("draughts", "pydraughts is not installed (pip install pydraughts)", attribute="Board")
    from draughts.PDN import PDNReader
    read = PDNReader(text).games
    assert len(read) == 2
    for theirs, game in zip(read, games):
        assert len(theirs.moves) == 3 + len(game["moves"])
        board = draughts.Board("english")
        for move in theirs.moves:
            board.push(draughts.Move(board, pdn_move=move))


def test_results_are_numbered_from_1_and_read_the_same_way_everywhere(tmp_path):
    """PDN's Round is the game's number (``Finished game N``); ``report --json`` (what the GUI
    reads) lists every game with that number, its PDN result and its winner by name."""
    journal, pdn = tmp_path / "j.jsonl", tmp_path / "g.pdn"
    out = run("match", "--game", "english", "--engine", ours("UCT", "Seed=2"), "--engine",
              ours("Eval", "Agent=greedy"), "--games", "4", "--nodes", "30", "--concurrency", "1",
              "--journal", str(journal), "--pdn", str(pdn)).stdout
    games = sorted(games_of(journal), key=lambda g: g["id"])
    results = json.loads(run("report", str(journal), "--json").stdout)["results"]
    records = parse_records(pdn.read_text())
    for game, listed, record in zip(games, results, records):
        first, second = game["players"]
        winner = {1.0: first, 0.0: second, 0.5: None}[game["score_first"]]
        white, black = (second, first)                                # English: the first player is Black
        pdn_result = {first: "0-2", second: "2-0", None: "1-1"}[winner]
        assert listed == {"number": game["id"] + 1, "id": game["id"], "players": [first, second], "white": white,
                          "black": black, "result": pdn_result, "winner": winner, "reason": game["reason"]}
        assert (record.tags["Round"], record.tags["White"], record.tags["Result"]) == (
            str(listed["number"]), white, pdn_result)
        said = f"{winner} wins" if winner else "draw"
        assert f"Finished game {listed['number']} ({first} vs {second}): {said} {{{game['reason']}}}" in out


def match_args(journal, games: int, *extra: str) -> list[str]:
    return ["match", "--game", "english", "--engine", ours("A", "Agent=random", "Seed=1"), "--engine",
            ours("B", "Agent=random", "Seed=2"), "--games", str(games), "--nodes", "1", "--concurrency", "1",
            "--journal", str(journal), "--quiet", *extra]


def test_more_games_continue_a_finished_match_and_fewer_are_refused(tmp_path):
    """As fastchess: --games 4 after --games 2 plays games 3 and 4 (the journal's two kept as they
    were, the schedule's next opening); --games 2 afterwards continues nothing and says why."""
    journal = tmp_path / "j.jsonl"
    run(*match_args(journal, 2, "--opening-plies", "2"))
    before = games_of(journal)
    run(*match_args(journal, 4, "--opening-plies", "2"))
    after = sorted(games_of(journal), key=lambda g: g["id"])
    assert [g["id"] for g in after] == [0, 1, 2, 3] and after[:2] == sorted(before, key=lambda g: g["id"])
    assert [g["pair"] for g in after] == [0, 0, 1, 1] and after[2]["opening"] != after[0]["opening"]
    assert Journal(str(journal)).load()[0]["settings"]["games"] == 4
    again = run(*match_args(journal, 4, "--opening-plies", "2"))         # the same: nothing left to play
    assert "4 game(s) played" in again.stdout and len(games_of(journal)) == 4
    fewer = run(*match_args(journal, 2, "--opening-plies", "2"), check=False)
    assert fewer.returncode == 2 and "4 games per pair (4 played)" in fewer.stderr and "--games 2 is fewer" in fewer.stderr
    other = run(*match_args(journal, 6, "--opening-plies", "3"), check=False)
    assert other.returncode == 2 and "different tournament" in other.stderr


def test_an_extended_round_robin_keeps_every_game_s_id_pair_and_opening():
    engines = tuple(EngineSpec(n, ["x"], {}) for n in "abc")
    conditions = PlayConditions("english", openings=(Opening(None, ("9-13",)), Opening(None, ("10-14",))))
    two = schedule(TournamentSettings(conditions, engines, kind="round-robin", games=3))
    grown = schedule(TournamentSettings(conditions, engines, kind="round-robin", games=6, extended_from=(3,)))
    assert grown[:len(two)] == two and len(grown) == 18 and [g.id for g in grown] == list(range(18))
    # the third game of each pairing (a pair's first) gets its partner in the extension
    for g in two[2::3]:
        partner = next(h for h in grown[9:] if h.pair == g.pair)
        assert (partner.first, partner.second, partner.opening) == (g.second, g.first, g.opening)
    assert len({g.pair for g in grown}) == 9
