"""Correspondence: e-mail per turn, the *Your turn* list and their routes."""
