"""The repository as a newcomer meets it: every link in the README and docs stays inside it
and leads somewhere, the LICENSE is the MIT licence pyproject.toml names, and nothing stray
(a built wheel) lies at its root."""
from __future__ import annotations

import re

from support import ROOT

LINK = re.compile(r"\]\(([^)\s]+)\)|(?:src|href)=\"([^\"]+)\"")


def documents():
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def test_every_link_stays_in_the_repository_and_leads_somewhere():
    wrong = []
    for path in documents():
        text = path.read_text(encoding="utf-8")
        if "../shared" in text:
            wrong.append(f"{path.name}: mentions ../shared, which is not in the repository")
        for found in LINK.finditer(text):
            target = found.group(1) or found.group(2)
            if target.startswith("#"):
                continue
            if re.match(r"[a-zA-Z][a-zA-Z+.-]*:", target):
                wrong.append(f"{path.name}: link outside the repository: {target}")
                continue
            file = (path.parent / target.split("#", 1)[0]).resolve()
            if ROOT.resolve() not in file.parents or not file.exists():
                wrong.append(f"{path.name}: link to {target}, which is not a file of the repository")
    assert not wrong, "\n".join(wrong)


def test_the_license_is_the_mit_license_pyproject_names():
    assert 'license = {text = "MIT"}' in (ROOT / "pyproject.toml").read_text()
    text = (ROOT / "LICENSE").read_text()
    assert text.startswith("MIT License") and "Permission is hereby granted, free of charge" in text


def test_nothing_stray_at_the_root():
    stray = [p.name for p in ROOT.iterdir() if p.suffix in (".whl", ".zip") or p.name.endswith(".tar.gz")]
    assert not stray, stray
