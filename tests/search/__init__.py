"""Tree search: UCT, batched PUCT and Gumbel, MCTS-Solver, recorded results."""
