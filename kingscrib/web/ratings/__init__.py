"""Ratings: the rating maths (importable without the server), stored ratings, the
computer levels' ratings and puzzle ratings."""
