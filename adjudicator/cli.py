"""`adjudicate`: the play-by-email referee's command line."""

from __future__ import annotations

import click


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="umpire")
def main() -> None:
    """Referee play-by-email wargame logs against the rules.

    Log checking arrives with the rule systems (issues 6 and 7); this release only ships
    the shared kernel they will use.
    """
