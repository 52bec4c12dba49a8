"""Endgame tables: small draughts endings solved exactly, so that the search plays a won
ending to the win and a lost one as long as it lasts.

``material.py`` names a material and numbers its positions, ``solve.py`` solves one by
retrograde analysis over the rules' own move generator, ``store.py`` keeps the tables on
disk and answers the search's probes (``TableSet.probe``).  docs/tables.md tells how to
build them and what they cover.
"""
from .material import Material, Numbering, default_materials, materials_named
from .solve import Table, TableTooLarge
from .store import TableHit, TableSet, default_directory, describe, forget_opened_tables, opened_tables

__all__ = ["Material", "Numbering", "default_materials", "materials_named", "Table", "TableTooLarge", "TableHit", "TableSet", "default_directory", "describe", "forget_opened_tables", "opened_tables"]
