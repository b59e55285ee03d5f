"""Tournaments on the server: their store, the director that runs them, and their routes."""
