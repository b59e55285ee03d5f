"""Tournaments: pairings (round robin, Swiss, arena) and standings, shared by the
``kingscrib tournament`` command and the web server."""
