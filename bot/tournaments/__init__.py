"""Tournaments: Swiss and round-robin, paired and scored (pure core: core, pairing, standings)."""
