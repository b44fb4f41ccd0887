"""`python -m listbuilder`: the `listbuilder` command (as `serve` starts its print worker)."""

from listbuilder.commands.cli import main

main()
