"""Batched games (hexcore.vector) and the adapters: Gymnasium, PettingZoo, SB3, OpenSpiel."""
