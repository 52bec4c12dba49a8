"""Selection rules: which child a descent enters at a fully expanded node.

A rule is an object with ``select(node) -> child``; ``tree.descend`` calls it.  Every
rule respects the solver's proofs: it enters a proven win at once and never a proven
loss (unless every child is one, when the node itself is proven).  One class per rule;
``SELECTIONS`` names them.
"""
from __future__ import annotations

import math

from .tree import Node


class Ucb1:
    """UCB1 (UCT): ``mean + c * sqrt(ln N / n)``, results in [0, 1]; a proven draw counts
    as mean 0.5."""

    name = "ucb1"

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


SELECTIONS = {rule.name: rule for rule in (Ucb1,)}


def make_selection(name: str, c: float) -> Ucb1:
    """The selection rule called ``name`` with exploration constant ``c``."""
    try:
        return SELECTIONS[name](c)
    except KeyError:
        raise ValueError(f"unknown selection rule {name!r}; rules: {', '.join(SELECTIONS)}") from None
