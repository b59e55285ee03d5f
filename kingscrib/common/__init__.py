"""Leaf helpers every layer may use: JSON text, shuffles, paths, names of people,
what a player was shown, and the backends that run jobs in parallel."""
