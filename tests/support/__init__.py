"""Helpers shared by the tests (not tests themselves): minimax, fuzzing pieces, seeded draws, data paths."""
