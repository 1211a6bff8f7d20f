"""`python -m adjudicator` runs `adjudicate`."""

from adjudicator.cli import main

main()
