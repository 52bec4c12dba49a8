"""Turn journaled games into the tournament's statistics, as text and as JSON.

One source for both the end of a live run and ``mcts-tournament report``: the
statistics are always recomputed from the game records.  Every Elo here is
``elo.match_estimate``'s over colour-swapped game pairs: a pairing's (the match line) and
each engine's against the field (the rating table), which in a two-engine match are the
same games, so both say the same estimate and interval.
"""
from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass

from mcts_engine.records import game_number, record_result, winner_of

from .elo import WDL, EloEstimate, match_estimate
from .pairs import pair_counts, pair_report
from .sprt import SPRT
from .tables import crosstable, rating_table, summary_line

__all__ = ["engine_names", "score_for", "Standing", "standings", "build", "sprt_verdict", "sprt_between",
           "llr_line", "rating", "game_results", "repeated_games", "as_json", "ending_kinds", "as_text"]


def engine_names(records: list[dict], header: dict | None = None) -> list[str]:
    """Engine names in tournament order (from the header if there is one)."""
    if header is not None:
        return [e["name"] for e in header["settings"]["engines"]]
    names: list[str] = []
    for r in records:
        for n in r["players"]:
            if n not in names:
                names.append(n)
    return names


def score_for(record: dict, name: str) -> float:
    """The game's score for engine ``name``."""
    first = record["score_first"]
    return first if record["players"][0] == name else 1.0 - first


@dataclass(frozen=True)
class Standing:
    """One engine against the field: its W/D/L and its Elo with the 95% interval
    (``elo.match_estimate`` over its colour-swapped game pairs, else its games)."""

    wdl: WDL
    estimate: EloEstimate


def standings(records: list[dict], names: list[str]) -> dict[str, Standing]:
    """Each engine of ``names`` against the field in ``records``: the two games of a pair are its
    pairing's games with one pair id (a pair index is told apart by its two players)."""
    out = {}
    for name in names:
        games = sorted((g for g in records if name in g["players"]), key=lambda g: g["id"])
        counts = pair_counts([((frozenset(g["players"]), g["pair"]) if g.get("pair") is not None else None,
                               score_for(g, name)) for g in games])
        wdl = WDL(*counts.wdl)
        out[name] = Standing(wdl, match_estimate(wdl, counts.pentanomial))
    return out


def build(records: list[dict], header: dict | None = None, sprt: SPRT | None = None) -> dict:
    """Everything a report shows: per pair W/D/L, Elo, LOS, pentanomial; ratings; SPRT."""
    names = engine_names(records, header)
    kind = header["settings"]["kind"] if header else ("match" if len(names) == 2 else "round-robin")
    pairs: dict[tuple[str, str], list[dict]] = {}
    for r in records:
        a, b = r["players"]
        key = (a, b) if names.index(a) < names.index(b) else (b, a)
        pairs.setdefault(key, []).append(r)
    pair_reports = []
    cross: dict[tuple[str, str], WDL] = {}
    for (a, b), games in pairs.items():
        results = [(g.get("pair"), score_for(g, a)) for g in sorted(games, key=lambda g: g["id"])]
        ps = pair_report(a, b, results)
        pair_reports.append(ps)
        cross[(a, b)] = ps.wdl
        cross[(b, a)] = ps.wdl.mirrored()
    table = standings(records, names)
    reasons = Counter(r.get("reason", "") for r in records)
    # games played on a Dask cluster name their worker; local games name none
    workers = {r["worker"] for r in records if r.get("worker") is not None}
    out = {"kind": kind, "games": len(records), "engines": names, "pairs": [vars(p) for p in pair_reports],
           "ratings": {n: rating(table[n]) for n in names},
           "crosstable": {a: {b: {"points": wdl.points, "games": wdl.games} for (a2, b), wdl in cross.items() if a2 == a}
                          for a in names},
           "reasons": dict(reasons), "warnings": repeated_games(pairs), "workers": len(workers),
           "results": game_results(records)}
    out["_pair_objects"] = pair_reports
    out["_standings"] = table
    out["_cross"] = cross
    if sprt is not None and pair_reports:
        out["sprt"] = sprt_verdict(records, header, sprt)
    return out


def sprt_verdict(records: list[dict], header: dict | None, sprt: SPRT) -> dict:
    """The SPRT of the first pairing (engine 1 against engine 2) alone, cheap enough to ask
    after every game: ``sprt_between`` the tournament's first two engines."""
    names = engine_names(records, header)
    return sprt_between(records, names[0], names[1] if len(names) > 1 else "", sprt)


def sprt_between(records: list[dict], a: str, b: str, sprt: SPRT) -> dict:
    """The SPRT of ``a`` against ``b`` over their games in ``records``: on pair scores
    (pentanomial) once there are complete pairs, else on games; its LLR, bounds and status."""
    games = sorted((r for r in records if set(r["players"]) == {a, b}), key=lambda g: g["id"])
    ps = pair_counts([(g.get("pair"), score_for(g, a)) for g in games])
    llr = sprt.llr_pentanomial(ps.pentanomial) if sum(ps.pentanomial) else sprt.llr(*ps.wdl)
    return {"elo0": sprt.elo0, "elo1": sprt.elo1, "alpha": sprt.alpha, "beta": sprt.beta,
            "llr": llr, "lower": sprt.lower, "upper": sprt.upper, "status": sprt.status(llr)}


def llr_line(verdict: dict) -> str:
    """fastchess's progress line of an SPRT: ``LLR: 1.71 (57.9%) (-2.94, 2.94) [0.00, 10.00]``, the
    LLR, how far it went towards the bound it leans to, the bounds, and elo0 and elo1."""
    llr, lower, upper = verdict["llr"], verdict["lower"], verdict["upper"]
    share = 100 * (llr / upper if llr >= 0 else llr / lower)
    return (f"LLR: {llr:.2f} ({share:.1f}%) ({lower:.2f}, {upper:.2f}) "
            f"[{verdict['elo0']:.2f}, {verdict['elo1']:.2f}]")


def rating(standing: Standing) -> dict:
    """One engine's line of the ratings: W/D/L against the field, games, points, score, and
    its Elo with a 95% interval (``Standing.estimate``)."""
    wdl, estimate = standing.wdl, standing.estimate
    return {"wins": wdl.wins, "draws": wdl.draws, "losses": wdl.losses, "games": wdl.games, "points": wdl.points,
            "score": wdl.score, "elo": estimate.elo, "elo_low": estimate.low, "elo_high": estimate.high}


def game_results(records: list[dict]) -> list[dict]:
    """Every game as people and the GUI read it, in journal order: its ``number`` (from 1, as
    ``Finished game N`` and PDN's ``Round``), its journal ``id``, the ``players`` (first,
    second), ``white`` and ``black``, the PDN ``result`` (White's score first: ``2-0``, ``1-1``,
    ``0-2`` in draughts, ``1-0`` ... elsewhere), the ``winner``'s name (None for a draw) and the
    ``reason``; a record naming no game (not a journal's) has no colours nor PDN result."""
    out = []
    for r in sorted(records, key=lambda g: g["id"]):
        result = record_result(r) if "game" in r else None
        out.append({"number": game_number(r), "id": r["id"], "players": list(r["players"]),
                    "white": result and result.white, "black": result and result.black,
                    "result": result and result.text, "winner": winner_of(r), "reason": r.get("reason", "")})
    return out


REPEATS_ADVICE = ("deterministic engines (a fixed Seed, node limits) replay the same game from the same "
                  "opening, so these games count the same result again and the statistics mean nothing; "
                  "give each pair its own opening (--opening-plies N or --openings FILE) or let the engines "
                  "vary (Seed 0)")


def repeated_games(pairs: dict[tuple[str, str], list[dict]]) -> list[str]:
    """One warning per pairing whose games repeat an earlier game of it move for move (same
    colours, same start, same moves), the games by their numbers (from 1)."""
    warnings = []
    for (a, b), games in pairs.items():
        seen: dict[tuple, int] = {}
        repeats = []
        for g in sorted(games, key=lambda g: g["id"]):
            key = (tuple(g["players"]), g.get("start_fen"), tuple(g.get("moves", ())))
            if key in seen:
                repeats.append(f"{game_number(g)} = {seen[key]}")
            else:
                seen[key] = game_number(g)
        if repeats:
            warnings.append(f"{a} vs {b}: {len(repeats)} of {len(games)} games repeat an earlier one move for "
                            f"move (game {', '.join(repeats[:5])}{', ...' if len(repeats) > 5 else ''}): "
                            + REPEATS_ADVICE)
    return warnings


def as_json(report: dict) -> dict:
    """The report without its internal objects, infinite numbers as null (strict JSON)."""
    def clean(x):
        if isinstance(x, float) and not math.isfinite(x):
            return None
        if isinstance(x, dict):
            return {k: clean(v) for k, v in x.items()}
        if isinstance(x, (list, tuple)):
            return [clean(v) for v in x]
        return x
    return clean({k: v for k, v in report.items() if not k.startswith("_")})


def ending_kind(reason: str) -> str:
    """A reason without its particulars (numbers become N, parenthesised details go), so that
    one line counts, say, every game adjudicated at some ply by some material."""
    return re.sub(r"\d+(\.\d+)?", "N", re.sub(r"\s*\([^()]*\)", "", reason)).strip()


def ending_kinds(reasons: dict[str, int]) -> list[tuple[str, int]]:
    """The reasons' counts by ``ending_kind``, most frequent first (the report's ``endings`` line;
    the JSON report keeps every reason as written)."""
    kinds: Counter = Counter()
    for why, n in reasons.items():
        kinds[ending_kind(why)] += n
    return sorted(kinds.items(), key=lambda x: (-x[1], x[0]))


def as_text(report: dict) -> str:
    """The report for people: pairs, rating table, crosstable (round robin), summary line (match)."""
    lines = []
    for ps in report["_pair_objects"]:
        lines.append(f"{ps.name_a} vs {ps.name_b}: +{ps.wins} ={ps.draws} -{ps.losses}  "
                     f"score {100 * ps.score:.1f}%  Elo {ps.estimate.text()}  "
                     f"LOS {100 * ps.los:.1f}%  draws {100 * ps.draw_ratio:.1f}%  "
                     f"pentanomial {ps.pentanomial}")
    if "sprt" in report:
        s = report["sprt"]
        status = {"H1": "H1 accepted", "H0": "H0 accepted", None: "continue"}[s["status"]]
        lines.append(f"SPRT elo0={s['elo0']} elo1={s['elo1']} alpha={s['alpha']} beta={s['beta']}: "
                     f"LLR {s['llr']:.3f} [{s['lower']:.3f}, {s['upper']:.3f}] {status}")
    if report["reasons"]:
        lines.append("endings: " + "; ".join(f"{n} x {why}" for why, n in ending_kinds(report["reasons"])))
    if report["workers"]:
        lines.append(f"played on {report['workers']} cluster worker(s)")
    for warning in report.get("warnings", []):
        lines.append(f"warning: {warning}")
    lines.append("")
    table = report["_standings"]
    lines.append(rating_table({n: st.wdl for n, st in table.items()}, {n: st.estimate for n, st in table.items()}))
    if report["kind"] == "round-robin" and len(report["engines"]) > 2:
        lines.append("")
        lines.append(crosstable(report["engines"], report["_cross"]))
    if len(report["engines"]) == 2 and report["_pair_objects"]:
        ps = report["_pair_objects"][0]
        lines.append("")
        lines.append(summary_line(ps.name_a, ps.name_b, ps.wins, ps.losses, ps.draws))
    return "\n".join(lines)
