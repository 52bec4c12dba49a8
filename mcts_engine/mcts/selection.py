"""Selection rules: which child a descent enters at a fully expanded node.

A rule is an object with ``select(node) -> child``; ``tree.descend`` calls it.  Every
rule respects the solver's proofs: it enters a proven win at once and never a proven
loss (unless every child is one, when the node itself is proven).  One class per rule;
``SELECTIONS`` names them; ``needs_priors`` / ``needs_minimax`` tell the tree what a rule
reads beyond the visit statistics.
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
    reference = None         # nor keep AMAF statistics (RAVE/GRAVE: see Grave)

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


class InformedUcb1(Ucb1):
    """UCB1 informed by the game's own knowledge: progressive bias and implicit minimax.

    ``(1 - a) * mean + a * v + c * sqrt(ln N / n) + b * prior / (n + 1)``, where ``prior``
    is the child move's ``heuristic(move)`` (``Node.prior``, weight ``b`` = ``PriorWeight``;
    Chaslot et al. 2008) and ``v`` its backed-up minimax of ``evaluate()`` (``Node.v``,
    weight ``a`` = ``MinimaxWeight``; Lanctot et al. 2014).  A proven draw counts as mean and
    value 0.5.  A class of its own so that plain UCB1's loop stays as fast as it is.
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

    def select(self, node: Node) -> Node:
        """The child with the best informed upper confidence bound."""
        c, b, a = self.c, self.prior_weight, self.minimax_weight
        keep = 1.0 - a
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
                q = 0.5
            else:
                q = keep * child.w / n + a * child.v
            score = q + c * math.sqrt(log_n / n) + b * child.prior / (n + 1)
            if score > best_score:
                best, best_score = child, score
        if best is None:  # every child is a proven loss (the node is proven; keep it safe)
            best = max(node.children, key=lambda n: n.n)
        return best


class Grave(Ucb1):
    """Generalized RAVE (Cazenave 2015): UCB1 on a mean mixed with all-moves-as-first
    statistics, ``(1 - beta) * mean + beta * amaf + c * sqrt(ln N / n)`` with
    ``beta = m / (m + n + bias * m * n)`` (``m`` the move's AMAF count).  The AMAF table is
    the one the tree passes: that of the closest node on the path with more than ``reference``
    visits (``Tree(reference=...)``), so a young node borrows its ancestor's statistics;
    ``reference`` 0 is plain RAVE (Gelly and Silver 2007).  A move missing from the table
    (or no table yet) is judged by its own mean.
    """

    name = "grave"

    def __init__(self, c: float = 1.0, bias: float = 1e-5, reference: int = 50):
        super().__init__(c)
        self.bias = bias
        self.reference = reference

    def select(self, node: Node, table: dict | None = None) -> Node:
        """The child with the best RAVE-mixed upper confidence bound, AMAF from ``table``."""
        c, bias = self.c, self.bias
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
                q = 0.5
            else:
                q = child.w / n
                stats = table.get(child.move) if table else None
                if stats is not None:
                    m = stats[1]
                    beta = m / (m + n + bias * m * n)
                    q = (1.0 - beta) * q + beta * stats[0] / m
            score = q + c * math.sqrt(log_n / n)
            if score > best_score:
                best, best_score = child, score
        if best is None:  # every child is a proven loss (the node is proven; keep it safe)
            best = max(node.children, key=lambda n: n.n)
        return best


SELECTIONS = {rule.name: rule for rule in (Ucb1, InformedUcb1, Grave)}


def make_selection(settings: Settings) -> Ucb1:
    """The selection rule the settings ask for: ``Selection rave`` or ``grave`` a ``Grave``
    (reference 0 or ``GraveRef``); else plain UCB1 unless a prior or minimax weight is set,
    then ``InformedUcb1``."""
    if settings.selection == "rave":
        return Grave(settings.uct_c, settings.rave_bias, 0)
    if settings.selection == "grave":
        return Grave(settings.uct_c, settings.rave_bias, settings.grave_ref)
    if settings.selection != "ucb1":
        raise ValueError(f"unknown selection rule {settings.selection!r}; rules: ucb1, rave, grave")
    if settings.prior_weight or settings.minimax_weight:
        return InformedUcb1(settings.uct_c, settings.prior_weight, settings.minimax_weight)
    return Ucb1(settings.uct_c)
