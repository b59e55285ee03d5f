"""The server's core tables (games, seats, turns, clocks, accounts, seeks...) on the one
:data:`metadata` every table of the server uses.

These are what the queries use; the schema itself is made and changed by the
migrations (:mod:`kingscrib.web.db.schema`), which a change here needs first. Each
domain keeps its own tables in its store module on this metadata;
:mod:`kingscrib.web.app.tables` imports them all.
"""

from __future__ import annotations

from sqlalchemy import JSON, Boolean, Column, Float, ForeignKey, Integer, MetaData, String, Table

from kingscrib.core import DEFAULT_GAME

metadata = MetaData()

games = Table(
    "games", metadata,
    Column("id", String(32), primary_key=True),
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
    Column("rules", JSON, nullable=False),
    Column("seed", Integer, nullable=False),
    Column("invite_hash", String(64), nullable=False),
    Column("over", Boolean, nullable=False, default=False),
    # Games stored before there was a choice of game are of the default one.
    Column("game", String(16), nullable=False, default=DEFAULT_GAME,
           server_default=DEFAULT_GAME),
    # A secret seed (hex digits, see kingscrib.common.shuffle); ``seed`` holds 0 then. Integer
    # seeds (tests, benchmarks, games stored before secrets) stay in ``seed``.
    Column("secret", String(128), nullable=True),
    # Created with hints allowed even between people (shown to all before they sit).
    Column("hints", Boolean, nullable=True),
    # When the game was closed for being left untouched (its turns stay: the record).
    Column("closed", Float, nullable=True),
    # Rated: every person's seat is an account's, rated when it ends (kingscrib.web.ratings.store).
    Column("rated", Boolean, nullable=True),
)

seats = Table(
    "seats", metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("name", String(40), nullable=False),
    Column("kind", String(10), nullable=False),  # human or computer
    Column("level", String(20), nullable=True),
    Column("token_hash", String(64), nullable=True),  # set when a person takes the seat
)

turns = Table(
    "turns", metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("n", Integer, primary_key=True),
    Column("data", JSON, nullable=False),  # the record's turn object
)

# A finished game's rematch: the new game and its invite code, with which the old game's
# players (proving their old seat with its token) are seated in the new one.
rematches = Table(
    "rematches", metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("rematch_id", String(32), ForeignKey("games.id"), nullable=False),
    Column("invite", String(64), nullable=False),
)

# Each game's clocks (kingscrib.web.play.clocks) and how it ended when the engine did not end
# it (a resignation, a time-out, overtime penalties). ``turn`` counts the turns stored:
# every new turn, resignation and time-out is a conditional update of this row, so the
# stored turn version decides a race between server processes. ``seconds`` None: no
# clock. ``due``: when the first running clock runs out (indexed: the housekeeping
# loop's one query).
clocks = Table(
    "clocks", metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("turn", Integer, nullable=False),
    Column("seconds", Integer, nullable=True),
    Column("overtime", Integer, nullable=False, default=0),
    Column("remaining", JSON(none_as_null=True), nullable=True),
    Column("running", JSON(none_as_null=True), nullable=True),
    Column("started", Float, nullable=True),
    Column("due", Float, nullable=True, index=True),
    Column("result", JSON(none_as_null=True), nullable=True),
    # Correspondence: ``seconds`` is each move's allowance, not the whole game's.
    Column("per_move", Boolean, nullable=True),
)

# When each server process last said it was alive ("stopped": the last clean stop): after
# a restart the clocks are moved on by the time no process ran (a player is not charged
# for the server's outage). On PostgreSQL the same beats count the live processes for
# the shared limits (kingscrib.web.server.shared_limits).
alive = Table(
    "alive", metadata,
    Column("name", String(16), primary_key=True),
    Column("at", Float, nullable=False),
)

# A finished game's analysis (``kingscrib.web.play.games.kings_analysis``), computed once and kept.
analyses = Table(
    "analyses", metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("data", JSON, nullable=False),
)

# Limits shared by every server process on one PostgreSQL (kingscrib.web.server.shared_limits).
# Client addresses are kept as SHA-256 hashes. Each process beats in ``alive``; the
# websockets of a process not heard from for a while are no longer counted.

address_sockets = Table(
    "address_sockets", metadata,
    Column("instance", String(32), primary_key=True),
    Column("address", String(64), primary_key=True),
    Column("n", Integer, nullable=False),
)

# The games of computers only, with the address that created each: an address may have
# only so many being played at once (``computer_games``, kingscrib.web.server.limits), on every
# server process together.
computer_games = Table(
    "computer_games", metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("address", String(64), nullable=False, index=True),
)

address_games = Table(
    "address_games", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("address", String(64), nullable=False, index=True),
    Column("at", Float, nullable=False),
)


# Accounts (kingscrib.web.accounts.store): optional, a guest plays without one. Both name keys
# are SHA-256 hashes: ``login_key`` of the name in NFKC, casefolded (what a log-in types),
# ``look_key`` of its skeleton (kingscrib.web.accounts.names), so two accounts cannot look alike.
accounts = Table(
    "accounts", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(40), nullable=False),
    Column("login_key", String(64), nullable=False, unique=True, index=True),
    Column("look_key", String(64), nullable=False, unique=True, index=True),
    Column("password_hash", String(200), nullable=False),  # Argon2id, salted
    Column("created", Float, nullable=False),
)

# Server-side log-in sessions (kingscrib.web.accounts.sessions): the cookie's random token, kept
# as its SHA-256 hash only.
account_sessions = Table(
    "account_sessions", metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=False, index=True),
    Column("created", Float, nullable=False),
    Column("expires", Float, nullable=False, index=True),
)

# Which account a seat belongs to (a seat without a row is a guest's). ``account_id``
# None: the account was deleted; the seat reads "deleted player" and nobody plays it.
seat_accounts = Table(
    "seat_accounts", metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=True, index=True),
)

# Failed log-ins (and sign-ups) counted per client address and per account name, for the
# brute-force limits; ``key`` is a SHA-256 hash, rows older than the window are dropped.
login_failures = Table(
    "login_failures", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("key", String(64), nullable=False, index=True),
    Column("at", Float, nullable=False),
)


# The lobby (kingscrib.web.lobby.seeks): open seeks, each with the people seated in it so far
# (seat 0: who posted it). ``target_id``: a direct challenge, for that account only.
# ``game_id`` is set when the seek is full and its game has started (the row stays: which
# game came from which seek, rated or casual). ``starting``: the process that filled the
# last seat is creating the game. Seat rows: ``ticket_hash`` is the SHA-256 hash of the
# seat's secret ticket, which becomes that seat's token in the game; ``visitor_hash``
# the browser's (its own seeks, its liveness: ``seen``).
seeks = Table(
    "seeks", metadata,
    Column("id", String(16), primary_key=True),
    Column("created", Float, nullable=False),
    Column("game", String(16), nullable=False),
    Column("players", Integer, nullable=False),
    Column("rules", JSON, nullable=False),
    Column("hints", Boolean, nullable=False, default=False),
    Column("clock_seconds", Integer, nullable=True),
    Column("clock_overtime", Integer, nullable=True),
    Column("rated", Boolean, nullable=False, default=False),
    Column("rating_min", Integer, nullable=True),
    Column("rating_max", Integer, nullable=True),
    Column("quick", Boolean, nullable=False, default=False),  # posted by Play now
    Column("target_id", Integer, ForeignKey("accounts.id"), nullable=True, index=True),
    Column("starting", Float, nullable=True),
    Column("game_id", String(32), ForeignKey("games.id"), nullable=True, index=True),
)

seek_seats = Table(
    "seek_seats", metadata,
    Column("seek_id", String(16), ForeignKey("seeks.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("name", String(40), nullable=False),
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=True, index=True),
    Column("ticket_hash", String(64), nullable=False),
    Column("visitor_hash", String(64), nullable=False, index=True),
    Column("seen", Float, nullable=False, index=True),
    # The client address's hash: seats waiting are limited per address too (lobby.seeks).
    Column("address_hash", String(64), nullable=True, index=True),
)
