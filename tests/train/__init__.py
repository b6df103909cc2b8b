"""hexcore.train: self-play, the training loop, checkpoints."""
