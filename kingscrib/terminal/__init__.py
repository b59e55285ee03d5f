"""The full-screen terminal games (Kings Cribbage, classic Cribbage) and the lessons.

``controllers`` hold the game and read typed lines (plain data out, no Rich, no
Textual); ``views`` draw with Rich; ``widgets``, ``screens`` and ``styles/*.tcss`` make
the Textual apps, which share :mod:`kingscrib.terminal.shell`. docs/play.md says where
to change what.
"""
