"""The command line (python -m hexcore), matches and the terminal game."""
