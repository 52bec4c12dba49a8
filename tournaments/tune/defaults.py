"""The tune's defaults in one place, importable without numpy (the command line reads them
when it starts; the tuner's own modules load only when a tune runs)."""

OPTIMIZERS = ("spsa", "optuna-tpe", "optuna-cmaes", "optuna-gp")
A_RATIO = 0.1                                # SPSA: fishtest's A = 0.1 of the iterations
ALPHA = 0.602                                # SPSA: learning-rate decay
GAMMA = 0.101                                # SPSA: perturbation decay
MAX_OPENINGS = 1000                          # random openings drawn for a tune's pool at most
CONFIRM_SPRT_ARGS = (0.0, 10.0, 0.05, 0.05)  # the confirmation's SPRT: elo0 elo1 alpha beta
TUNE_HEADER = "tune"                         # the type of a tune journal's first line
