"""Helpers of the web tests: a real server in a subprocess, a browser, free ports."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


def in_process_client(database_url: str, **settings):
    """The app in this process (FastAPI's TestClient): computers move at once, seeds allowed.
    Every request comes from one address, so the per-address limits are lifted (and
    accounts sharing that address are rated) unless a test sets them; the fields of
    ``LimitSettings`` may be given as keywords."""
    import dataclasses

    from fastapi.testclient import TestClient

    from kingscrib.web import Settings, create_app
    from kingscrib.web.server.limits import LimitSettings

    names = {f.name for f in dataclasses.fields(LimitSettings)}
    limits = {"address_rate": 1e4, "address_burst": 1e4, "games_per_hour": 10_000,
              "sockets_per_address": 1000, "hints_waiting": 1000, "computer_games": 1000,
              "computer_moves_per_second": 1e6,
              "reviews_waiting": 1000, "unrate_shared_addresses": False,
              "seeks_per_address": 1000, "tournaments_per_hour": 1000}
    limits.update({k: settings.pop(k) for k in list(settings) if k in names})
    settings.setdefault("allow_seed", True)
    return TestClient(create_app(Settings(database_url=database_url, computer_delay=0,
                                          limits=LimitSettings(**limits), **settings)))


def https_client(database_url: str, **settings):
    """:func:`in_process_client` over https: the session cookie is Secure, so httpx sends
    it only there (the account tests log in through it)."""
    client = in_process_client(database_url, **settings)
    client.base_url = httpx.URL("https://testserver")
    return client


def table_rows(database_url: str, table) -> list:
    """Every row of ``table`` as stored, read past the app."""
    from sqlalchemy import create_engine, select

    engine = create_engine(database_url)
    try:
        with engine.connect() as conn:
            return conn.execute(select(table)).all()
    finally:
        engine.dispose()


def table_count(database_url: str, table) -> int:
    """How many rows ``table`` holds, read past the app."""
    from sqlalchemy import create_engine, func, select

    engine = create_engine(database_url)
    try:
        with engine.connect() as conn:
            return conn.execute(select(func.count()).select_from(table)).scalar_one()
    finally:
        engine.dispose()


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """``kingscrib serve`` in a subprocess on a free loopback port, with its own database."""

    def __init__(self, database: Path | str, port: int | None = None,
                 computer_delay: float = 0.0, data_dir: Path | None = None,
                 extra_args: list[str] | None = None, open_files: int | None = None,
                 log_file: Path | None = None) -> None:
        """``database``: a SQLite file, or a database URL; ``open_files``: the server
        process's limit of open files (RLIMIT_NOFILE). ``log_file``: where the server's
        output goes (appended; a long run's output would fill the pipe it goes to
        otherwise, and the server would stop on its next line)."""
        self.open_files = open_files
        self.log_file = log_file
        self.database = database
        self.extra_args = list(extra_args or [])
        self.port = port or free_port()
        self.computer_delay = computer_delay
        self.data_dir = data_dir or (database.parent if isinstance(database, Path)
                                     else Path.cwd())
        self.process: subprocess.Popen | None = None

    @property
    def database_url(self) -> str:
        if isinstance(self.database, Path):
            return f"sqlite:///{self.database}"
        return self.database

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Server:
        env = dict(os.environ, KINGSCRIB_DATA_DIR=str(self.data_dir))
        # Games of computers only move as fast as the computer delay, unless asked.
        pace = [arg for name, value in (("computer_moves_per_second", "1000000"),
                                        # every account here plays from the loopback
                                        # address: rated as between strangers unless asked
                                        ("unrate_shared_addresses", "no"))
                if not any(name in a for a in self.extra_args)
                for arg in ("--limit", f"{name}={value}")]
        self.process = subprocess.Popen(
            [sys.executable, "-c", "from kingscrib.cli.main import main; main()", "serve",
             "--port", str(self.port), "--database-url", self.database_url,
             "--computer-delay", str(self.computer_delay), "--allow-seed", *pace,
             *self.extra_args],
            env=env, stderr=subprocess.STDOUT,
            stdout=subprocess.PIPE if self.log_file is None else self.log_file.open("ab"),
            preexec_fn=self._limit_files if self.open_files else None)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                output = (self.process.stdout.read() if self.log_file is None
                          else self.log_file.read_bytes())
                raise RuntimeError(f"server exited: {output.decode()}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{self.url}/api/health", timeout=1).status_code == 200:
                    return self
            time.sleep(0.1)
        raise RuntimeError("server did not start")

    def _limit_files(self) -> None:
        import resource

        resource.setrlimit(resource.RLIMIT_NOFILE, (self.open_files, self.open_files))

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


@contextlib.contextmanager
def running_server(database: Path, **kwargs) -> Iterator[Server]:
    server = Server(database, **kwargs).start()
    try:
        yield server
    finally:
        server.stop()


@contextlib.contextmanager
def running_servers(database, count: int, **kwargs) -> Iterator[list[Server]]:
    """``count`` server processes on one database (PostgreSQL: the scale-out set-up)."""
    servers = [Server(database, **kwargs) for _ in range(count)]
    try:
        for s in servers:
            s.start()
        yield servers
    finally:
        for s in servers:
            s.stop()


def _postgres_bin(name: str) -> str:
    import glob
    import shutil

    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}")) or [shutil.which(name)]
    if not found[-1]:
        raise RuntimeError(f"PostgreSQL's {name} is not installed (apt-get install postgresql)")
    return found[-1]


class PostgresCluster:
    """A throw-away PostgreSQL cluster on a free loopback port, which a test may stop
    (``pg_ctl stop -m fast``: the server going away under the web server) and start
    again on the same port; ``url`` is its database URL."""

    def __init__(self, max_connections: int = 100) -> None:
        import shutil
        import tempfile

        self.folder = Path(tempfile.mkdtemp(prefix="kingscrib-pg-"))
        self.data = self.folder / "data"
        if os.geteuid() == 0:
            shutil.chown(self.folder, "postgres", "postgres")
        subprocess.run(self._as_postgres([_postgres_bin("initdb"), "-D", str(self.data), "-A",
                                          "trust", "-U", "postgres", "--no-sync"]),
                       check=True, capture_output=True)
        self.port = free_port()
        self.max_connections = max_connections
        self.url = f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    @staticmethod
    def _as_postgres(args: list[str]) -> list[str]:
        # PostgreSQL refuses to run as root: run it as the postgres user then.
        return ["runuser", "-u", "postgres", "--", *args] if os.geteuid() == 0 else args

    def start(self) -> PostgresCluster:
        subprocess.run(self._as_postgres([
            _postgres_bin("pg_ctl"), "-D", str(self.data), "-w", "-l", str(self.folder / "log"),
            "-o", f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1"
                  f" -c max_connections={self.max_connections}", "start"]),
            check=True, capture_output=True)
        return self

    def stop(self, mode: str = "fast") -> None:
        subprocess.run(self._as_postgres([_postgres_bin("pg_ctl"), "-D", str(self.data),
                                          "-m", mode, "-w", "stop"]), capture_output=True)

    def remove(self) -> None:
        import shutil

        self.stop("immediate")
        shutil.rmtree(self.folder, ignore_errors=True)

    def crash(self) -> None:
        """Stop at once: every connection is lost, as when the server crashes."""
        self.stop("immediate")

    def boot(self) -> None:
        """Start again after :meth:`crash` or :meth:`stop`."""
        self.start()

    def postmaster_pid(self) -> int:
        return int((self.data / "postmaster.pid").read_text().split()[0])

    def processes(self) -> list[int]:
        """The postmaster and every process it started (backends, writers)."""
        parent = self.postmaster_pid()
        found = [parent]
        for proc in Path("/proc").iterdir():
            try:
                if proc.name.isdigit() and int(
                        (proc / "stat").read_text().rpartition(")")[2].split()[1]) == parent:
                    found.append(int(proc.name))
            except (OSError, ValueError, IndexError):
                continue
        return found

    @contextlib.contextmanager
    def stalled(self) -> Iterator[None]:
        """Every PostgreSQL process stopped (SIGSTOP) while inside: the database answers
        nothing, yet no connection is lost."""
        import signal

        pids = self.processes()
        for pid in pids:
            os.kill(pid, signal.SIGSTOP)
        try:
            yield
        finally:
            for pid in pids:
                os.kill(pid, signal.SIGCONT)


@contextlib.contextmanager
def postgres_server(max_connections: int = 100) -> Iterator[PostgresCluster]:
    """A started :class:`PostgresCluster`, removed afterwards."""
    cluster = PostgresCluster(max_connections)
    try:
        yield cluster.start()
    finally:
        cluster.remove()


@contextlib.contextmanager
def postgres_cluster(max_connections: int = 100) -> Iterator[str]:
    """A throw-away PostgreSQL cluster on a free loopback port; yields its URL."""
    with postgres_server(max_connections) as cluster:
        yield cluster.url


@contextlib.contextmanager
def chromium() -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


def fresh_database(url: str, name: str) -> str:
    """A new, empty database in the cluster of ``url`` (tests here count from zero)."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name}")
        conn.execute(f"CREATE DATABASE {name}")
    return url.rsplit("/", 1)[0] + "/" + name


PASSWORD = "correct horse battery"


def signup(c: Any, name: str = "Alice", password: str = PASSWORD, **extra: Any) -> Any:
    """Sign ``name`` up with the client ``c`` (201 expected)."""
    r = c.post("/api/account/signup", json={"name": name, "password": password, **extra})
    assert r.status_code == 201, r.text
    return r


def csrf(c: Any) -> dict[str, str]:
    """The CSRF header of the client's session."""
    return {"X-CSRF-Token": c.get("/api/account").json()["csrf"]}


def body_of(action: Any) -> dict[str, Any]:
    """The JSON body that plays a Cribbage action over the API."""
    from kingscrib.classic.game import Discard, Go, Play

    if isinstance(action, Discard):
        return {"action": "discard", "cards": [str(c) for c in action.cards]}
    if isinstance(action, Play):
        return {"action": "play", "card": str(action.card)}
    if isinstance(action, Go):
        return {"action": "go"}
    return {"action": "claim", "points": action.points}
