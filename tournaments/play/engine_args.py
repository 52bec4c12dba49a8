"""The command line's engines: ``--engine`` arguments, ``--engines-file`` and ``--each``, as
``EngineSpec``s (the SPEC text and the files are ``mcts_engine.client``'s).

An ``--engine`` is a SPEC (``name=A cmd=X option.O=V``), a name of the engines file (alone or
as ``name=NAME``), or cutechess-cli's ``conf=NAME [key=value ...]``: the file's entry with the
keys laid over it, the file ``./engines.json`` when no ``--engines-file`` is given, as
cutechess reads it.  ``--each`` lays its keys over every engine after its own, as cutechess's
``-each``; ``--pondering`` lets every engine ponder, as cutechess's ``-pondering``.
"""
from __future__ import annotations

import os

from mcts_engine.client import EngineSpec, EngineSpecError, load_engines_file, parse_engine_arg, with_fields
from mcts_engine.client.specs import spec_fields

__all__ = ["engines_of", "conf_engine"]


def engines_of(args: tuple[str, ...], engines_file: str | None, each: str | None = None,
               pondering: bool = False) -> list[EngineSpec]:
    """The ``--engine`` arguments as specs: a SPEC, a name of the engines file (alone or as
    ``name=NAME``), or cutechess's ``conf=NAME [key=value ...]`` (the file's entry with the keys
    laid over it; without ``--engines-file`` the file is ``./engines.json``, as cutechess
    reads it); then ``--each``'s keys laid over every engine, and ``pondering``
    (``--pondering``, cutechess's ``-pondering``) lets every engine ponder."""
    files: dict[str, dict[str, EngineSpec]] = {}

    def known(path: str | None) -> dict[str, EngineSpec]:
        if path is None:
            return {}
        if path not in files:
            files[path] = load_engines_file(path)
        return files[path]

    out = []
    for text in args:
        bare = text.strip()
        name = bare[5:] if bare.startswith("name=") and " " not in bare else bare
        if bare.startswith("conf="):
            out.append(conf_engine(bare, engines_file, known))
        elif name in known(engines_file) and "cmd=" not in text:
            out.append(known(engines_file)[name])
        elif engines_file and "=" not in bare:
            raise ValueError(f"engine {bare!r} is not in {engines_file} ({', '.join(known(engines_file))})")
        else:
            out.append(parse_engine_arg(text))
    if each:
        given = spec_fields(each, f"--each {each!r}")
        if "name" in given or "conf" in given:
            raise ValueError(f"--each {each!r}: name= and conf= name one engine, not every engine")
        out = [with_fields(spec, each, f"--each {each!r}") for spec in out]
    if pondering:
        out = [with_fields(spec, "ponder", f"--pondering (engine {spec.name!r})") for spec in out]
    return out


def conf_engine(text: str, engines_file: str | None, known) -> EngineSpec:
    """cutechess's ``conf=NAME [key=value ...]``: the engines file's NAME with the keys laid over it."""
    path = engines_file or ("engines.json" if os.path.exists("engines.json") else None)
    if path is None:
        raise ValueError(f"engine {text!r}: conf= names an engine of an engines file: give --engines-file FILE "
                         "(or put an engines.json here)")
    conf = text.split()[0][len("conf="):]
    entries = known(path)
    if conf not in entries:
        raise EngineSpecError(f"engine {text!r}: no engine {conf!r} in {path} ({', '.join(entries)})")
    return with_fields(entries[conf], text, f"engine {text!r}")
