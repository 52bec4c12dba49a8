"""The ``mcts-tournament`` command (matches, round robins and gauntlets come with the tournament issue)."""
from __future__ import annotations

import click


@click.group(invoke_without_command=True, context_settings={"help_option_names": ["-h", "--help"]})
@click.pass_context
def main(ctx: click.Context) -> None:
    """Play engines against each other with our rules validating every move."""
    if ctx.invoked_subcommand is None:
        click.echo(ctx.get_help())
