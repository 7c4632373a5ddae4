"""``python -m monopoly`` runs the ``monopoly`` command."""

from monopoly.cli.main import main

main()
