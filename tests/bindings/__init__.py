"""The binding layer: errors and reasons, strict inputs, limits, interrupts, memory."""
