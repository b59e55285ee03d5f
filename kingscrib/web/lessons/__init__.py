"""Lessons: an account's tutorial progress and the learn and rules pages."""
