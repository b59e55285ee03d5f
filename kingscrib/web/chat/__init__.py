"""Chat in a game: its rooms, stored history, text rules, moderation and routes."""
