"""hexcore.agents: the shipped agents and their forward pass."""
