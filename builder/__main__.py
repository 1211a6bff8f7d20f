"""`python -m builder` runs `vmodbuild`."""

from builder.cli import main

main()
