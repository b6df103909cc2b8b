"""Fuzzing with hypothesis (the shared pieces are in tests/support/fuzzing.py)."""
