"""The games' engines through the bindings: rules per game, perft suites, undo and hashing, threads."""
