"""Puzzles in the browser: stored puzzle ratings, puzzle views and routes."""
