"""Selection rules: which child a descent enters at a fully expanded node.

A rule is an object with ``select(node) -> child``; ``tree.descend`` calls it.  Every
rule respects the solver's proofs: it enters a proven win at once and never a proven
loss (unless every child is one, when the node itself is proven).  One class per rule;
``SELECTIONS`` names them; ``needs_priors`` / ``needs_minimax`` / ``rave`` / ``reference``
tell the tree what a rule reads beyond the visit statistics (priors, minimax values, AMAF
counts on the children, GRAVE tables).  The informed rules share one scoring function,
``informed_value``, and one AMAF mix, ``amaf_mix``.
"""
from __future__ import annotations

import math

from .settings import Settings
from .tree import Node


class Ucb1:
    """UCB1 (UCT): ``mean + c * sqrt(ln N / n)``, results in [0, 1]; a proven draw counts
    as mean 0.5."""

    name = "ucb1"
    needs_priors = False     # the tree need not store heuristic priors for this rule
    needs_minimax = False    # nor evaluate new children for minimax backups
    rave = False             # nor keep AMAF counts on the children (RAVE: see Rave)
    reference = None         # nor AMAF tables (GRAVE: see Grave)

    def __init__(self, c: float = 1.0):
        self.c = c

    def select(self, node: Node) -> Node:
        """The child with the best upper confidence bound."""
        c = self.c
        log_n = math.log(node.n)
        best, best_score = None, -1.0
        for child in node.children:
            proven = child.proven
            if proven is not None:
                if proven == 1.0:
                    return child
                if proven == 0.0:
                    continue
                score = 0.5 + c * math.sqrt(log_n / child.n)
            else:
                score = child.w / child.n + c * math.sqrt(log_n / child.n)
            if score > best_score:
                best, best_score = child, score
        if best is None:  # every child is a proven loss (the node is proven; keep it safe)
            best = max(node.children, key=lambda n: n.n)
        return best


def amaf_mix(mean: float, n: int, amaf_wins: float, amaf_count: int, bias: float) -> float:
    """RAVE's mean (Gelly and Silver 2007): ``(1 - beta) * mean + beta * amaf`` with
    ``beta = m / (m + n + bias * m * n)``, ``m`` the move's all-moves-as-first count (> 0) and
    ``amaf`` its AMAF mean; so the AMAF value leads while the child has few visits of its own."""
    beta = amaf_count / (amaf_count + n + bias * amaf_count * n)
    return (1.0 - beta) * mean + beta * amaf_wins / amaf_count


def informed_value(q: float, v: float, prior: float, n: int, minimax_weight: float, prior_weight: float) -> float:
    """A child's value with the game's knowledge, before exploration:
    ``(1 - a) * q + a * v + b * prior / (n + 1)``: the mean ``q`` mixed with the implicit
    minimax value ``v`` of ``evaluate()`` (``a`` = ``MinimaxWeight``; Lanctot et al. 2014),
    plus the progressive bias of the move's ``heuristic`` (``b`` = ``PriorWeight``; Chaslot et
    al. 2008), which fades as the child's visits ``n`` grow.  The one formula every informed
    rule (``InformedUcb1``, ``Rave``, ``Grave``) uses."""
    return (1.0 - minimax_weight) * q + minimax_weight * v + prior_weight * prior / (n + 1)


class InformedUcb1(Ucb1):
    """UCB1 informed by the game's own knowledge: progressive bias and implicit minimax.

    ``informed_value(mean, v, prior, n) + c * sqrt(ln N / n)``, where ``prior`` is the child
    move's ``heuristic(move)`` (``Node.prior``, weight ``PriorWeight``) and ``v`` its backed-up
    minimax of ``evaluate()`` (``Node.v``, weight ``MinimaxWeight``).  A proven draw counts
    as mean and value 0.5.  Subclasses change only how a child's mean is estimated
    (``mean``: RAVE/GRAVE mix in AMAF statistics).  A class of its own so that plain UCB1's
    loop stays as fast as it is.
    """

    name = "ucb1-informed"

    def __init__(self, c: float = 1.0, prior_weight: float = 0.0, minimax_weight: float = 0.0):
        super().__init__(c)
        self.prior_weight = prior_weight
        self.minimax_weight = minimax_weight

    @property
    def needs_priors(self) -> bool:
        """Whether the tree must store each new child's prior."""
        return self.prior_weight != 0.0

    @property
    def needs_minimax(self) -> bool:
        """Whether the tree must evaluate new children and back up their minimax values."""
        return self.minimax_weight != 0.0

    def mean(self, child: Node, table: tuple | None) -> float:
        """The child's estimated mean for its mover (here: its own playouts' mean)."""
        return child.w / child.n

    def select(self, node: Node, table: tuple | None = None) -> Node:
        """The child with the best informed upper confidence bound (``table``: the AMAF
        statistics the tree hands a GRAVE rule)."""
        c, b, a = self.c, self.prior_weight, self.minimax_weight
        mean = self.mean
        log_n = math.log(node.n)
        best, best_score = None, -math.inf
        for child in node.children:
            proven = child.proven
            n = child.n
            if proven is not None:
                if proven == 1.0:
                    return child
                if proven == 0.0:
                    continue
                q = v = 0.5
            else:
                q, v = mean(child, table), child.v
            score = informed_value(q, v, child.prior, n, a, b) + c * math.sqrt(log_n / n)
            if score > best_score:
                best, best_score = child, score
        if best is None:  # every child is a proven loss (the node is proven; keep it safe)
            best = max(node.children, key=lambda n: n.n)
        return best


class Rave(InformedUcb1):
    """RAVE (Gelly and Silver 2007): the informed rule on a mean mixed with the child's
    all-moves-as-first statistics (``amaf_mix``), so with no weights
    ``(1 - beta) * mean + beta * amaf + c * sqrt(ln N / n)``; with ``PriorWeight`` /
    ``MinimaxWeight`` the same progressive bias and minimax mix as ``InformedUcb1``.  The
    AMAF counts are the child's own (``RaveNode.an``/``aw``, kept by a ``Tree(rave=True)``);
    a child with none yet is judged by its own mean.
    """

    name = "rave"
    rave = True

    def __init__(self, c: float = 1.0, bias: float = 1e-5, prior_weight: float = 0.0,
                 minimax_weight: float = 0.0):
        super().__init__(c, prior_weight, minimax_weight)
        self.bias = bias

    def mean(self, child: Node, table: tuple | None) -> float:
        """The child's mean mixed with its own AMAF counts, if any."""
        n, m = child.n, child.an
        if not m:
            return child.w / n
        return amaf_mix(child.w / n, n, child.aw, m, self.bias)


class Grave(InformedUcb1):
    """Generalized RAVE (Cazenave 2015): as ``Rave``, but the AMAF statistics come from the
    table the tree passes: that of the closest node on the path with more than ``reference``
    visits (``Tree(reference=...)``, the root's at first), so a young node borrows its
    ancestor's statistics.  A table holds both players' moves (one dict each, move ->
    [results for the mover, count]), so a node of either player finds its children's moves
    in it.  A move missing from the table (or no table yet) is judged by its own mean.
    """

    name = "grave"

    def __init__(self, c: float = 1.0, bias: float = 1e-5, reference: int = 50,
                 prior_weight: float = 0.0, minimax_weight: float = 0.0):
        super().__init__(c, prior_weight, minimax_weight)
        self.bias = bias
        self.reference = reference

    def mean(self, child: Node, table: tuple | None) -> float:
        """The child's mean mixed with its move's AMAF statistics in ``table``, if any."""
        n = child.n
        stats = table[child.mover].get(child.move) if table else None
        if stats is None:
            return child.w / n
        return amaf_mix(child.w / n, n, stats[0], stats[1], self.bias)


SELECTIONS = {rule.name: rule for rule in (Ucb1, InformedUcb1, Rave, Grave)}


def make_selection(settings: Settings) -> Ucb1:
    """The selection rule the settings ask for: ``Selection rave`` a ``Rave``, ``grave`` a
    ``Grave`` (reference ``GraveRef``), both with the prior and minimax weights; else plain
    UCB1 unless a prior or minimax weight is set, then ``InformedUcb1``."""
    if settings.selection == "rave":
        return Rave(settings.uct_c, settings.rave_bias, settings.prior_weight, settings.minimax_weight)
    if settings.selection == "grave":
        return Grave(settings.uct_c, settings.rave_bias, settings.grave_ref, settings.prior_weight,
                     settings.minimax_weight)
    if settings.selection != "ucb1":
        raise ValueError(f"unknown selection rule {settings.selection!r}; rules: ucb1, rave, grave")
    if settings.prior_weight or settings.minimax_weight:
        return InformedUcb1(settings.uct_c, settings.prior_weight, settings.minimax_weight)
    return Ucb1(settings.uct_c)
