"""``mcts-tournament tune``: tuning engine options by playing games, a loop over the
tournament runner.

``settings.py`` (what a tune is), ``params.py`` (parameter files, types, rounding),
``journal.py`` (the tune's journal and resume), ``iterations.py`` (one iteration's match and
the engine's pre-flight), ``run.py`` (the optimizer's loop: ``spsa.py`` or
``optuna_tuner.py``), ``confirm.py`` (the confirmation match), ``model.py`` (Elo models of
the results), ``report.py`` and ``plots.py`` (what a tune found); ``defaults.py`` holds the
defaults the command line reads without loading numpy.
"""
