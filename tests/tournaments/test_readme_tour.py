"""The README's tour as a newcomer copies it: the 3-move ballot match between two engine
settings runs as written (the whole 100 games with the slow checks, 6 of them in every run),
plays distinct ballots in colour-swapped pairs and writes PDN from the real start."""
from __future__ import annotations

import re
import shlex
import subprocess

import pytest

from support import ROOT
from support.tournament import games_of, tournament_command


def readme_ballot_command() -> list[str]:
    """The command the README gives for the 3-move ballot match, as a word list."""
    text = (ROOT / "README.md").read_text()
    after = text[text.index("A 100-game English match over the 3-move ballots"):]
    block = re.search(r"```sh\n(.*?)```", after, re.S).group(1)
    words = shlex.split(block.replace("\\\n", " "))
    assert words[:2] == ["mcts-tournament", "match"], words
    return words


@pytest.mark.parametrize("games", [6, pytest.param(100, marks=pytest.mark.slow)])
def test_the_readme_ballot_match_runs_as_written(tmp_path, games):
    words = readme_ballot_command()
    assert words[words.index("--games") + 1] == "100" and "file=english-3move order=random" in words
    words[words.index("--games") + 1] = str(games)
    proc = subprocess.run(tournament_command() + words[1:], cwd=tmp_path, capture_output=True, text=True,
                          timeout=900)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert f"{games} game(s) played" in proc.stdout.splitlines()[-1]
    assert len([line for line in proc.stdout.splitlines() if line.startswith("Score of C07 vs C10: ")]) == games
    played = sorted(games_of(tmp_path / "ballots.jsonl"), key=lambda g: g["id"])
    ballots = [tuple(g["opening"]["moves"]) for g in played]
    assert ballots[::2] == ballots[1::2] and len(set(ballots)) == games // 2
    pdn = (tmp_path / "ballots.pdn").read_text()
    assert pdn.count('[GameType "21"]') == games and "[FEN" not in pdn
    first = pdn.split("\n\n")[1]
    assert first.startswith("1. " + " ".join(ballots[0][:2]) + " 2. " + ballots[0][2])
