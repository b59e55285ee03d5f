"""Every table of the server on the one metadata: the core tables and each domain's own.

Each domain keeps its tables in its store module (on :data:`kingscrib.web.db.tables.metadata`);
this module imports them all, so that whoever needs the whole schema (the migrations'
comparison with the queries' tables) imports this one place. It sits with the app, over
the domains, since ``db`` is below every domain and imports none of them.
"""

from __future__ import annotations

from kingscrib.web.accounts import fair as _fair
from kingscrib.web.accounts import moderation as _moderation
from kingscrib.web.chat import store as _chat_store
from kingscrib.web.db.tables import metadata
from kingscrib.web.lessons import store as _lessons_store
from kingscrib.web.mail import turn_mail as _turn_mail
from kingscrib.web.puzzles import store as _puzzles_store
from kingscrib.web.ratings import store as _ratings_store
from kingscrib.web.tournaments import store as _tournaments_store

TABLE_MODULES = (_moderation, _chat_store, _lessons_store, _turn_mail, _puzzles_store,
                 _ratings_store, _fair, _tournaments_store)

__all__ = ["TABLE_MODULES", "metadata"]
