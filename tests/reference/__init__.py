"""The pure-Python reference games (hexcore.reference)."""
