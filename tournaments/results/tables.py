"""A match's results as text: the seed articles' summary line, the rating table and the
round-robin crosstable."""
from __future__ import annotations

from .elo import WDL, EloEstimate, interval_text, match_estimate, signed
from .los import draw_ratio

__all__ = ["summary_line", "rating_table", "crosstable"]


def summary_line(name_a: str, name_b: str, wins_a: int, wins_b: int, draws: int) -> str:
    """The final summary line of a two-engine match, exactly as the seed articles print it.

    ``Final results: Player 1 "A", wins = 54. Player 2 "B", wins = 46. Draws = 0. 100 game(s) played``
    """
    games = wins_a + wins_b + draws
    return (
        f'Final results: Player 1 "{name_a}", wins = {wins_a}. '
        f'Player 2 "{name_b}", wins = {wins_b}. '
        f"Draws = {draws}. {games} game(s) played"
    )


def _fmt_points(points: float) -> str:
    """Points as ``6`` or ``6.5`` (they are always multiples of a half)."""
    return f"{points:.0f}" if points == int(points) else f"{points:.1f}"


def _render(header: list[str], rows: list[list[str]], left: set[int]) -> str:
    """Align columns: those in ``left`` to the left, the others to the right."""
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]

    def line(cells: list[str]) -> str:
        return "  ".join(c.ljust(w) if i in left else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths))).rstrip()

    return "\n".join(line(r) for r in [header, *rows])


def rating_table(scores: dict[str, WDL], estimates: dict[str, EloEstimate] | None = None) -> str:
    """A text table of engines against the field, best score first.

    Columns: rank, name, games, points, score %, Elo and its 95 % interval, draws %.  The Elo is
    ``estimates[name]`` (the report's: ``elo.match_estimate`` over the engine's game pairs, so a
    match's table says what its Elo line says); without it, ``match_estimate`` of the W/D/L
    alone.  Ties in score are broken by points, then name.  One header line and one line per
    engine.
    """
    estimates = estimates or {}
    order = sorted(scores.items(), key=lambda item: (-item[1].score, -item[1].points, item[0]))
    header = ["Rank", "Name", "Games", "Points", "Score%", "Elo", "95% interval", "Draw%"]
    rows = []
    for rank, (name, r) in enumerate(order, 1):
        estimate = estimates.get(name) or match_estimate(r, [0] * 5)
        rows.append([
            str(rank),
            name,
            str(r.games),
            _fmt_points(r.points),
            f"{100 * r.score:.1f}",
            signed(estimate.elo),
            interval_text(estimate),
            f"{100 * draw_ratio(r.wins, r.draws, r.losses):.1f}",
        ])
    return _render(header, rows, left={1})


def crosstable(names: list[str], results: dict[tuple[str, str], WDL]) -> str:
    """A square round-robin table: each cell the row engine's points against the column engine.

    ``results[(a, b)]`` is a's W/D/L against b.  Each unordered pair may be
    given under either order, or under both as mirror images of each other
    (anything else raises ``ValueError``); a missing pair counts as no games.
    Cells read ``p/n`` (e.g. ``6.5/10``), ``-`` on the diagonal, and a final
    ``Total`` column sums the row.  One header line and one line per engine,
    in the order of ``names``.
    """
    if len(set(names)) != len(names):
        raise ValueError("engine names must be distinct")
    known = set(names)
    for a, b in results:
        if a not in known or b not in known:
            raise ValueError(f"result for unknown engine pair {(a, b)!r}")
        if a == b:
            raise ValueError(f"an engine does not play itself: {a!r}")

    def against(a: str, b: str) -> WDL:
        direct, reverse = results.get((a, b)), results.get((b, a))
        if direct is not None and reverse is not None:
            if reverse.mirrored() != direct:
                raise ValueError(f"results for {a!r} v {b!r} and {b!r} v {a!r} disagree")
            return direct
        if direct is not None:
            return direct
        if reverse is not None:
            return reverse.mirrored()
        return WDL()

    header = ["", *names, "Total"]
    rows = []
    for a in names:
        total = WDL()
        cells = [a]
        for b in names:
            if a == b:
                cells.append("-")
                continue
            r = against(a, b)
            total = total + r
            cells.append(f"{_fmt_points(r.points)}/{r.games}")
        cells.append(f"{_fmt_points(total.points)}/{total.games}")
        rows.append(cells)
    return _render(header, rows, left={0})
