"""`python -m ledger` is `umpire-ledger`."""

from ledger.cli import main

main()
