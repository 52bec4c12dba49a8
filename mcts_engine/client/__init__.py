"""Driving an engine process: one driver per protocol (ours, Hub, DXP) over one process base,
typed limits and answers, and the engine descriptions.

The GUI and the tournament manager both drive engines through this package:

* ``specs.py``: ``EngineSpec`` (name, command, options, protocol) and how to read one;
  ``engines_file.py``: engines files (ours, and cutechess's ``engines.json``);
* ``process.py``: ``ProcessEngine``, the process every driver runs on (own process group,
  lines with timeouts, crash detection, clean shutdown, the ``on_info`` hook);
* ``engine.py`` (ours), ``hub.py`` and ``dxp.py``: the drivers; ``make_engine`` picks one;
* ``limits.py``: ``GoLimits``, rendered by each driver in its protocol;
* ``info.py``: ``EngineInfo`` and ``Score``, parsed once from the info lines, and ``GoResult``;
* ``errors.py``: ``EngineError`` and its kinds, each with a ``reason`` code.
"""
from .engine import EngineProcess, make_engine
from .errors import EngineCrash, EngineError, EngineProtocolError, EngineStartError, EngineTimeout
from .info import EngineInfo, GoResult, Score
from .limits import Clock, GoLimits
from .process import ProcessEngine
from .engines_file import load_engines_file
from .specs import EngineSpec, EngineSpecError, parse_engine_arg, with_fields

__all__ = ["EngineProcess", "make_engine", "ProcessEngine", "EngineError", "EngineStartError", "EngineCrash",
           "EngineTimeout", "EngineProtocolError", "EngineInfo", "GoResult", "Score", "Clock", "GoLimits",
           "EngineSpec", "EngineSpecError", "load_engines_file", "parse_engine_arg", "with_fields"]
