"""The exact solver, df-pn and proof certificates."""
