"""The lobby: seeks, Play now, challenges, lobby bans and the lobby's routes."""
