"""`python -m umpire`: the `adjudicate` command with its pictures."""

from umpire.cli import main

main()
