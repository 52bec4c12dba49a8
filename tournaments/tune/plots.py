"""The tune's two plots, as PNG files next to its journal (matplotlib, from the ``tune`` extra).

* ``<journal>.params.png``: each parameter against the iteration, with its bounds (dashed)
  and start value (dotted); SPSA draws theta's path, Optuna each trial's value, the answer
  marked.
* ``<journal>.elo.png``: the estimated Elo over the start values (Optuna's trials against an
  opponent: against it) against the iteration:
  SPSA's path through the quadratic Elo model with its 2-sd band; Optuna's measured trial
  scores and, once there are enough trials, their smoothed Elo; the confirmation match's Elo
  and 95% interval, when there is one.
"""
from __future__ import annotations

import importlib.util
import math

from .params import value_text
from .report import TuneSummary


def available() -> bool:
    """Whether matplotlib is installed."""
    return importlib.util.find_spec("matplotlib") is not None


def write_plots(s: TuneSummary, params_png: str, elo_png: str) -> list[str]:
    """Write both plots; the files written (none without matplotlib or iterations)."""
    if not available() or not s.trajectory:
        return []
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator
    x = list(range(1, len(s.trajectory) + 1))
    n = len(s.params)
    fig, axes = plt.subplots(n, 1, figsize=(7, 2.4 * n + 0.6), sharex=True, squeeze=False)
    for i, (p, ax) in enumerate(zip(s.params, axes[:, 0])):
        ys = [t[i] for t in s.trajectory]
        if s.optimizer == "spsa":
            ax.plot([0] + x, [p.start] + ys, color="tab:blue", lw=1.5, label="theta")
        else:
            ax.scatter(x, ys, s=14, color="tab:blue", label="trials")
            ax.scatter([s.best_trial], [s.values[i]], s=60, facecolors="none", edgecolors="tab:red",
                       label="answer")
        ax.axhline(p.low, color="gray", ls="--", lw=1)
        ax.axhline(p.high, color="gray", ls="--", lw=1, label="bounds")
        ax.axhline(p.start, color="gray", ls=":", lw=1, label="start")
        ax.set_ylabel(p.name)
        ax.set_title(f"{p.name}: {value_text(p, p.start)} -> {value_text(p, s.values[i])}", fontsize=9)
        ax.legend(fontsize=7, loc="best")
    axes[-1, 0].set_xlabel("iteration")
    axes[-1, 0].xaxis.set_major_locator(MaxNLocator(integer=True))
    against = f" against {s.opponent}" if s.opponent is not None else ""
    fig.suptitle(f"{s.engine} on {s.game}{against}: {s.optimizer}, {s.done} x {s.pairs} pairs", fontsize=10)
    fig.tight_layout()
    fig.savefig(params_png, dpi=100)
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(7, 3))
    if s.optimizer == "spsa":
        ax.plot([0] + x, [0.0] + list(s.elo_path), color="tab:green", lw=1.5, label="theta (quadratic model)")
        if s.path_sd:
            low = [0.0] + [e - 2 * d for e, d in zip(s.elo_path, s.path_sd)]
            high = [0.0] + [e + 2 * d for e, d in zip(s.elo_path, s.path_sd)]
            ax.fill_between([0] + x, low, high, color="tab:green", alpha=0.15, label="+- 2 sd")
    else:
        other = s.opponent if s.trials_against_opponent else "start"
        ax.scatter(x, s.trial_elo, s=14, color="tab:orange", label=f"trial vs {other} (measured)")
        if s.elo_path != s.trial_elo:
            ax.scatter(x, s.elo_path, s=10, marker="x", color="tab:green", label="trial, smoothed")
    c = s.confirmation
    if c is not None and math.isfinite(c.elo):
        low = c.elo - c.elo_low if math.isfinite(c.elo_low) else 0.0
        high = c.elo_high - c.elo if math.isfinite(c.elo_high) else 0.0
        ax.errorbar([len(x) + 1], [c.elo], yerr=[[low], [high]], fmt="o", color="tab:red", capsize=4,
                    label=f"confirmation: {c.elo:+.0f} (95%)")
    ax.axhline(0, color="gray", lw=1)
    ax.set_xlabel("iteration")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_ylabel(f"Elo {s.elo_over}")
    title = f"Elo {s.elo_over}"
    if s.elo_gain is not None:
        title += f": estimated {s.elo_gain:+.0f}" + (f" +- {2 * s.gain_sd:.0f}" if s.gain_sd is not None else "")
    if c is not None and math.isfinite(c.elo):
        title += f", measured {c.elo:+.0f}"
    ax.set_title(title + " at the answer", fontsize=10)
    ax.legend(fontsize=7, loc="best")
    fig.tight_layout()
    fig.savefig(elo_png, dpi=100)
    plt.close(fig)
    return [params_png, elo_png]
