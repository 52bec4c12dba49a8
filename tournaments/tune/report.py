"""What a tune found, recomputed from its journal: the tuned values as an engine SPEC
fragment, the trajectory, the estimated Elo gain, the confirmation match; as text and JSON.

One source for the end of a live ``tune`` and for ``tune-report`` (and ``report`` on a tune
journal), which say whom the games were against when the tune had an opponent.  SPSA's
answer is its last theta.  An Optuna tune's answer is the trial with the best smoothed Elo
(``model.smooth_values``) once there are ``MIN_SMOOTHED`` trials, else the trial with the
best score; both are shown.
"""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Sequence

from .confirm import Confirmation
from .journal import TuneRecords, load_header_params
from .model import clamped_elo, elo_noise, path_elo, smooth_values
from .params import Param, spec_fragment, starts, value_text

MIN_SMOOTHED = 5          # trials before an Optuna answer is smoothed


@dataclass(frozen=True)
class TuneSummary:
    """A tune's answer and its history."""

    optimizer: str
    game: str
    engine: str                      # the engine under test's name
    params: tuple[Param, ...]
    iterations: int                  # planned
    pairs: int
    done: int                        # iterations finished
    games: int                       # games journaled
    values: tuple[float, ...]        # the answer
    fragment: str                    # ... as ``option.X=v`` words
    trajectory: tuple[tuple[float, ...], ...]   # the values after each iteration (SPSA) or tried (Optuna)
    elo_path: tuple[float, ...]      # the estimated Elo of each trajectory point over the start
    path_sd: tuple[float, ...]       # ... its standard deviations (SPSA), or ()
    elo_gain: float | None           # the estimated Elo of the answer over the start
    gain_sd: float | None            # ... its standard deviation (SPSA's model), if known
    gain_source: str                 # ... and where that estimate comes from
    note: str                        # how the answer was chosen
    trial_elo: tuple[float, ...] = ()    # Optuna: each trial's measured Elo against the baseline (or opponent)
    best_trial: int | None = None        # Optuna: the iteration of the answer
    confirmation: Confirmation | None = None
    opponent: str | None = None          # the opponent's name, or None (self-play)

    @property
    def trials_against_opponent(self) -> bool:
        """Whether the Elo figures (``elo_gain``, ``elo_path``, ``trial_elo``) are against the
        opponent: Optuna's trials against one (SPSA's model values steps from the start
        whoever the games were against)."""
        return self.opponent is not None and self.optimizer != "spsa"

    @property
    def elo_over(self) -> str:
        """What the Elo figures are relative to, as words: ``over the start values`` or
        ``against OPPONENT``."""
        return f"against {self.opponent}" if self.trials_against_opponent else "over the start values"


def summarize(records: TuneRecords, confirmation: Confirmation | None = None) -> TuneSummary:
    """The summary of a tune journal's records."""
    settings = records.header["settings"]
    params = load_header_params(records.header)
    start = tuple(map(float, starts(params)))
    its = records.iterations
    opponent = settings.get("opponent")
    common = dict(optimizer=settings["optimizer"], game=settings["game"], engine=settings["engine"]["name"],
                  params=params, iterations=settings["iterations"], pairs=settings["pairs"], done=len(its),
                  games=len(records.games), confirmation=confirmation,
                  opponent=opponent["name"] if opponent is not None else None)
    if settings["optimizer"] == "spsa":
        return _spsa(params, start, its, common)
    return _optuna(params, start, its, common)


def _record_elo(r: dict) -> float:
    """The Elo of the W/D/L fields of an iteration record (or of one side's)."""
    return clamped_elo(r["wins"] + 0.5 * r["draws"], r["wins"] + r["draws"] + r["losses"])


def _differences(its: list[dict], opponent: bool) -> tuple[list[float], list[float]]:
    """Each SPSA iteration's measured ``elo(theta+) - elo(theta-)`` and its standard error:
    from theta+ against theta-, or against an opponent the difference of the two sides' Elo
    against it, their errors (from the variance of the pair scores pooled over both sides)
    added in quadrature."""
    if not opponent:
        return [_record_elo(r) for r in its], elo_noise([r["pentanomial"] for r in its])
    sides = [(r["vs_opponent"]["plus"], r["vs_opponent"]["minus"]) for r in its]
    noise = elo_noise([side["pentanomial"] for pair in sides for side in pair])
    return ([_record_elo(plus) - _record_elo(minus) for plus, minus in sides],
            [math.hypot(noise[2 * i], noise[2 * i + 1]) for i in range(len(sides))])


def _spsa(params, start, its, common) -> TuneSummary:
    trajectory = tuple(tuple(r["theta"]) for r in its)
    values = trajectory[-1] if trajectory else start
    estimate = None
    if its:
        elo, noise = _differences(its, common["opponent"] is not None)
        estimate = path_elo(params, [r["plus"] for r in its], [r["minus"] for r in its], elo, noise,
                            (start,) + trajectory)
    return TuneSummary(values=values, fragment=spec_fragment(params, values), trajectory=trajectory,
                       elo_path=estimate.elo if estimate else (), path_sd=estimate.sd if estimate else (),
                       elo_gain=estimate.elo[-1] if estimate else None,
                       gain_sd=estimate.sd[-1] if estimate else None,
                       gain_source="a quadratic Elo model of the iterations' results, cross-fitted",
                       note="SPSA's last theta", **common)


def _optuna(params, start, its, common) -> TuneSummary:
    trajectory = tuple(tuple(r["values"]) for r in its)
    measured = tuple(r["elo"] for r in its)
    if not its:
        return TuneSummary(values=start, fragment=spec_fragment(params, start), trajectory=(), elo_path=(),
                           path_sd=(), elo_gain=None, gain_sd=None, gain_source="", note="no trial yet: the start values",
                           **common)
    raw_best = max(range(len(its)), key=lambda i: measured[i])
    best, path = raw_best, measured
    against = common["opponent"] or "the start"
    note, source = f"the trial with the best score (iteration {raw_best + 1})", f"the trial's score against {against}"
    if len(its) >= MIN_SMOOTHED:
        smoothed = smooth_values(params, trajectory, measured)
        path = smoothed.elo
        best = max(range(len(its)), key=lambda i: path[i])
        note = (f"the trial with the best smoothed Elo (iteration {best + 1}); the best-scoring trial was "
                f"iteration {raw_best + 1}, {_words(params, trajectory[raw_best])}")
        source = f"the trials' Elo against {against}, each averaged with its neighbours within about " \
                 f"{100 * smoothed.bandwidth:g}% of each range and pulled towards the mean"
    values = trajectory[best]
    return TuneSummary(values=values, fragment=spec_fragment(params, values), trajectory=trajectory,
                       elo_path=path, path_sd=(), elo_gain=path[best], gain_sd=None, gain_source=source, note=note,
                       trial_elo=measured, best_trial=best + 1, **common)


def _words(params: Sequence[Param], values: Sequence[float]) -> str:
    return ", ".join(f"{p.name}={value_text(p, x)}" for p, x in zip(params, values))


def as_text(s: TuneSummary) -> str:
    """The summary for people; its last line is the SPEC fragment."""
    against = f" against {s.opponent}" if s.opponent is not None else ""
    lines = [f"tune of {s.engine} on {s.game} with {s.optimizer}: {s.done}/{s.iterations} iterations of "
             f"{s.pairs} pairs, {s.games} games{against}"]
    width = max(len(p.name) for p in s.params)
    for p, x in zip(s.params, s.values):
        lines.append(f"  {p.name:<{width}}  {value_text(p, x):>10}   start {value_text(p, p.start)}, "
                     f"range [{value_text(p, p.low)}, {value_text(p, p.high)}] ({p.kind})")
    lines.append(f"answer: {s.note}")
    if s.elo_gain is not None:
        error = f" +- {2 * s.gain_sd:.1f}" if s.gain_sd is not None else ""
        measure = "--confirm --confirm-against the opponent" if s.trials_against_opponent else "--confirm"
        lines.append(f"estimated Elo {s.elo_over}: {_elo(s.elo_gain)}{error} ({s.gain_source}; "
                     f"{measure} measures it)")
    c = s.confirmation
    if c is not None:
        r = c.results
        lines.append(f"confirmation ({c.path}): tuned vs {c.against}: +{r.wins} ={r.draws} -{r.losses}  "
                     f"Elo {_elo(c.elo)} [{_elo(c.elo_low)}, {_elo(c.elo_high)}] (95%, game pairs)  "
                     f"pentanomial {list(r.pentanomial)}")
        if c.sprt is not None:
            v = c.sprt
            status = {"H1": "H1 accepted: the tuned values are better",
                      "H0": "H0 accepted: no gain of elo1 shown", None: "undecided"}[v.status]
            lines.append(f"  SPRT elo0={v.elo0:g} elo1={v.elo1:g}: LLR {v.llr:.2f} "
                         f"[{v.lower:.2f}, {v.upper:.2f}] {status}")
    lines.append(s.fragment)
    return "\n".join(lines)


def _elo(x: float) -> str:
    return f"{x:+.1f}" if math.isfinite(x) else ("+inf" if x > 0 else "-inf")


def _finite(x):
    return x if x is None or math.isfinite(x) else None


def as_json(s: TuneSummary) -> dict:
    """The summary as strict JSON (infinite numbers as null)."""
    out = {"optimizer": s.optimizer, "game": s.game, "engine": s.engine, "opponent": s.opponent,
           "iterations": s.iterations, "pairs": s.pairs, "done": s.done, "games": s.games,
           "params": [{"name": p.name, "type": p.kind, "start": p.start, "min": p.low, "max": p.high,
                       "value": x, "text": value_text(p, x)} for p, x in zip(s.params, s.values)],
           "options": {p.name: value_text(p, x) for p, x in zip(s.params, s.values)},
           "spec": s.fragment, "answer": s.note, "elo_gain": _finite(s.elo_gain),
           "elo_gain_sd": s.gain_sd, "elo_gain_source": s.gain_source, "elo_over": s.elo_over,
           "trajectory": [list(t) for t in s.trajectory], "elo_path": [_finite(e) for e in s.elo_path],
           "elo_path_sd": list(s.path_sd)}
    if s.best_trial is not None:
        out["best_iteration"] = s.best_trial
        out["trial_elo"] = list(s.trial_elo)
    c = s.confirmation
    if c is not None:
        out["confirmation"] = {"journal": c.path, "against": c.against, "wins": c.results.wins,
                               "draws": c.results.draws, "losses": c.results.losses,
                               "pentanomial": list(c.results.pentanomial), "elo": _finite(c.elo),
                               "elo_low": _finite(c.elo_low), "elo_high": _finite(c.elo_high),
                               "sprt": asdict(c.sprt) if c.sprt is not None else None}
    return out
