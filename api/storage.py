"""Durable storage of live games: one interface, two backends (SQLite file, PostgreSQL).

A game is a row with its creation metadata plus an append-only log of events (bids, plays,
known hands, undo, next hand). The log is the truth: the state of a game is the replay of its
events. Every ``append_event`` is committed before it returns, so an event acknowledged to a
client survives a crash of the server (SQLite in WAL mode with ``synchronous=FULL``; PostgreSQL
commits are durable by default).

Concurrency: an event is stored at ``seq`` = the number of events before it; the primary key
(game_id, seq) makes a second writer that saw the same log fail with :class:`Conflict` instead of
silently interleaving (several server processes may share one PostgreSQL database).

The camera tracker's memory (one JSON per game) is replaced by compare-and-swap:
``set_tracker(game_id, new, expected=old)`` writes only while the stored tracker is still ``old``
(the one the caller read) and says whether it did; the caller re-reads and retries on ``False``.

>>> s = open_storage(":memory:")
>>> s.create_game("g1", {"dealer": "N"})
>>> s.append_event("g1", 0, {"type": "bid", "bid": 3})
>>> [e["type"] for e in s.events("g1")]
['bid']
"""

from __future__ import annotations

import importlib.util
import json
import os
import queue
import sqlite3
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Iterator


class StorageError(RuntimeError):
    """The database cannot be opened or used."""


class Conflict(StorageError):
    """Another writer stored an event at the same position first."""


class NotFound(StorageError):
    """No game with that id."""


class _Any:
    def __repr__(self) -> str:
        return "ANY"


ANY = _Any()  # ``set_tracker(..., expected=ANY)``: write whatever is stored (no compare-and-swap)


@dataclass
class GameRow:
    id: str
    created: float
    meta: dict[str, Any]
    tracker: dict[str, Any] | None


_SCHEMA = (
    """CREATE TABLE IF NOT EXISTS games (
        id TEXT PRIMARY KEY,
        created DOUBLE PRECISION NOT NULL,
        meta TEXT NOT NULL,
        tracker TEXT
    )""",
    """CREATE TABLE IF NOT EXISTS events (
        game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        created DOUBLE PRECISION NOT NULL,
        data TEXT NOT NULL,
        PRIMARY KEY (game_id, seq)
    )""",
)


class Storage:
    """The interface both backends implement."""

    url: str
    kind: str

    def create_game(self, game_id: str, meta: dict[str, Any]) -> None:
        raise NotImplementedError

    def game(self, game_id: str) -> GameRow:
        raise NotImplementedError

    def events(self, game_id: str) -> list[dict[str, Any]]:
        raise NotImplementedError

    def append_event(self, game_id: str, seq: int, event: dict[str, Any]) -> None:
        raise NotImplementedError

    def set_tracker(self, game_id: str, tracker: dict[str, Any] | None,
                    expected: Any = ANY) -> bool:
        """Store the game's tracker; with ``expected`` (the tracker as read: a dict, or None for
        none) only while the stored one is still that. True when written; False when another
        writer changed it meanwhile (or there is no such game)."""
        if expected is ANY:
            return self._update_tracker(game_id, tracker, ANY)
        text = _tracker_text(expected)
        if self._update_tracker(game_id, tracker, text):
            return True
        # The stored text may be an equal tracker in another spelling (written by an older
        # version, or empty text for none): compare what it means, then swap on that text.
        try:
            stored = self._tracker_raw(game_id)
        except NotFound:
            return False
        if stored == text or _parse_tracker(stored) != expected:
            return False
        return self._update_tracker(game_id, tracker, stored)

    def _update_tracker(self, game_id: str, tracker: dict[str, Any] | None, old: Any) -> bool:
        """UPDATE the tracker (where the stored text is ``old`` unless ``old`` is ANY)."""
        raise NotImplementedError

    def _tracker_raw(self, game_id: str) -> str | None:
        """The tracker column as stored (raises NotFound)."""
        raise NotImplementedError

    def list_games(self, limit: int = 100) -> list[GameRow]:
        raise NotImplementedError

    def ping(self) -> bool:
        raise NotImplementedError

    def close(self) -> None:
        pass


def _row(r) -> GameRow:
    return GameRow(r[0], float(r[1]), json.loads(r[2]), _parse_tracker(r[3]))


def _dump(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def _parse_tracker(text: str | None) -> dict[str, Any] | None:
    return json.loads(text) if text else None


def _tracker_text(tracker: dict[str, Any] | None) -> str | None:
    return None if tracker is None else _dump(tracker)


BUSY_TIMEOUT = 30.0  # seconds a SQLite write waits for another process's write lock


class SQLiteStorage(Storage):
    """A SQLite file in WAL mode; safe for threads of one process and for several processes.

    Writes go through one connection under a lock (each commit waits for its fsync); reads use
    a small pool of their own connections, so they never queue behind a commit (WAL readers see
    the last committed state). An in-memory database has one connection for both.
    """

    kind = "sqlite"

    def __init__(self, path: str) -> None:
        self.url = path
        self._lock = threading.RLock()
        self._readers: queue.LifoQueue = queue.LifoQueue()
        self._shared = path == ":memory:"
        self._closed = False
        try:
            if path != ":memory:":
                parent = os.path.dirname(os.path.abspath(path))
                if not os.path.isdir(parent):
                    raise StorageError(f"{path}: directory {parent} does not exist")
            self._conn = self._open()
            self._conn.execute("PRAGMA journal_mode=WAL")
            for stmt in _SCHEMA:
                self._conn.execute(stmt)
            self._conn.execute("PRAGMA busy_timeout=0")  # from now on writes retry themselves
        except sqlite3.Error as e:
            raise StorageError(f"cannot open SQLite database {path}: {e}") from None

    def _open(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.url, timeout=30, check_same_thread=False, isolation_level=None)
        conn.execute("PRAGMA synchronous=FULL")
        conn.execute("PRAGMA foreign_keys=ON")
        conn.execute("PRAGMA busy_timeout=30000")
        return conn

    @contextmanager
    def _read(self) -> Iterator[sqlite3.Connection]:
        """A connection for one read (from the pool, opened when none is free)."""
        if self._shared:
            with self._lock:
                yield self._conn
            return
        try:
            conn = self._readers.get_nowait()
        except queue.Empty:
            try:
                conn = self._open()
            except sqlite3.Error as e:
                raise StorageError(f"cannot open SQLite database {self.url}: {e}") from None
        try:
            yield conn
        finally:
            if self._closed:
                conn.close()
            else:
                self._readers.put(conn)

    def _write(self, sql: str, params: tuple) -> int:
        """One statement, committed on its own (autocommit: a single call, so under load the
        thread gives up and takes back the GIL once, not three times, while holding the lock).

        When another process holds the database's write lock, retry every millisecond or so
        (SQLite's own busy handler sleeps up to 100 ms between tries; a commit takes a few ms).
        """
        deadline = time.monotonic() + BUSY_TIMEOUT
        pause = 0.0005
        with self._lock:
            while True:
                try:
                    return self._conn.execute(sql, params).rowcount
                except sqlite3.OperationalError as e:
                    if "locked" not in str(e) and "busy" not in str(e):
                        raise StorageError(f"SQLite: {e}") from None
                    if time.monotonic() > deadline:
                        raise StorageError(f"SQLite: the database stayed locked for {BUSY_TIMEOUT:.0f} s") from None
                time.sleep(pause)
                pause = min(pause * 1.5, 0.005)

    def create_game(self, game_id: str, meta: dict[str, Any]) -> None:
        self._write("INSERT INTO games (id, created, meta) VALUES (?, ?, ?)",
                    (game_id, time.time(), _dump(meta)))

    def game(self, game_id: str) -> GameRow:
        with self._read() as c:
            r = c.execute("SELECT id, created, meta, tracker FROM games WHERE id = ?",
                          (game_id,)).fetchone()
        if r is None:
            raise NotFound(game_id)
        return _row(r)

    def events(self, game_id: str) -> list[dict[str, Any]]:
        with self._read() as c:
            rows = c.execute("SELECT data FROM events WHERE game_id = ? ORDER BY seq",
                             (game_id,)).fetchall()
        return [json.loads(r[0]) for r in rows]

    def append_event(self, game_id: str, seq: int, event: dict[str, Any]) -> None:
        try:
            self._write("INSERT INTO events (game_id, seq, created, data) VALUES (?, ?, ?, ?)",
                        (game_id, seq, time.time(), _dump(event)))
        except sqlite3.IntegrityError as e:
            if "FOREIGN KEY" in str(e):
                raise NotFound(game_id) from None
            raise Conflict(f"event {seq} of game {game_id} was stored by another request") from None

    def _update_tracker(self, game_id: str, tracker: dict[str, Any] | None, old: Any) -> bool:
        if old is ANY:
            return self._write("UPDATE games SET tracker = ? WHERE id = ?",
                               (_tracker_text(tracker), game_id)) > 0
        return self._write("UPDATE games SET tracker = ? WHERE id = ? AND tracker IS ?",
                           (_tracker_text(tracker), game_id, old)) > 0

    def _tracker_raw(self, game_id: str) -> str | None:
        with self._read() as c:
            r = c.execute("SELECT tracker FROM games WHERE id = ?", (game_id,)).fetchone()
        if r is None:
            raise NotFound(game_id)
        return r[0]

    def list_games(self, limit: int = 100) -> list[GameRow]:
        with self._read() as c:
            rows = c.execute(
                "SELECT id, created, meta, tracker FROM games ORDER BY created DESC LIMIT ?",
                (limit,)).fetchall()
        return [_row(r) for r in rows]

    def ping(self) -> bool:
        with self._read() as c:
            return c.execute("SELECT 1").fetchone()[0] == 1

    def close(self) -> None:
        self._closed = True
        with self._lock:
            self._conn.close()
        while True:
            try:
                self._readers.get_nowait().close()
            except queue.Empty:
                break


class PostgresStorage(Storage):
    """PostgreSQL through psycopg 3, with a small pool of connections (one per busy thread)."""

    kind = "postgresql"

    def __init__(self, url: str, pool_size: int = 8) -> None:
        if importlib.util.find_spec("psycopg") is None:  # pragma: no cover - an API dependency
            raise StorageError("PostgreSQL needs the psycopg package (pip install 'psycopg[binary]')")
        self.url = url
        self._pool: queue.LifoQueue = queue.LifoQueue()
        self._sem = threading.BoundedSemaphore(pool_size)
        with self._conn() as c:
            with c.transaction():
                # Serialise concurrent schema creation by several processes starting at once.
                c.execute("SELECT pg_advisory_xact_lock(781234)")
                for stmt in _SCHEMA:
                    c.execute(stmt)

    def _connect(self):
        import psycopg

        try:
            return psycopg.connect(self.url, autocommit=True, connect_timeout=10)
        except psycopg.Error as e:
            raise StorageError(f"cannot connect to PostgreSQL at {_redact(self.url)}: "
                               f"{str(e).strip().splitlines()[0] if str(e).strip() else e}") from None

    @contextmanager
    def _conn(self):
        import psycopg

        self._sem.acquire()
        try:
            try:
                conn = self._pool.get_nowait()
            except queue.Empty:
                conn = self._connect()
            if conn.closed:
                conn = self._connect()
            try:
                yield conn
            except (psycopg.OperationalError, psycopg.InterfaceError):
                conn.close()
                raise
            else:
                self._pool.put(conn)
        finally:
            self._sem.release()

    def _run(self, fn):
        """Run ``fn(conn)``; once more on a fresh connection when the old one was dropped."""
        import psycopg

        for attempt in (0, 1):
            try:
                with self._conn() as c:
                    return fn(c)
            except (psycopg.OperationalError, psycopg.InterfaceError) as e:
                if attempt:
                    raise StorageError(f"PostgreSQL: {e}") from None

    def create_game(self, game_id: str, meta: dict[str, Any]) -> None:
        self._run(lambda c: c.execute("INSERT INTO games (id, created, meta) VALUES (%s, %s, %s)",
                                      (game_id, time.time(), _dump(meta))))

    def game(self, game_id: str) -> GameRow:
        r = self._run(lambda c: c.execute(
            "SELECT id, created, meta, tracker FROM games WHERE id = %s", (game_id,)).fetchone())
        if r is None:
            raise NotFound(game_id)
        return _row(r)

    def events(self, game_id: str) -> list[dict[str, Any]]:
        rows = self._run(lambda c: c.execute(
            "SELECT data FROM events WHERE game_id = %s ORDER BY seq", (game_id,)).fetchall())
        return [json.loads(r[0]) for r in rows]

    def append_event(self, game_id: str, seq: int, event: dict[str, Any]) -> None:
        import psycopg

        try:
            self._run(lambda c: c.execute(
                "INSERT INTO events (game_id, seq, created, data) VALUES (%s, %s, %s, %s)",
                (game_id, seq, time.time(), _dump(event))))
        except psycopg.errors.ForeignKeyViolation:
            raise NotFound(game_id) from None
        except psycopg.errors.UniqueViolation:
            raise Conflict(f"event {seq} of game {game_id} was stored by another request") from None

    def _update_tracker(self, game_id: str, tracker: dict[str, Any] | None, old: Any) -> bool:
        if old is ANY:
            n = self._run(lambda c: c.execute("UPDATE games SET tracker = %s WHERE id = %s",
                                              (_tracker_text(tracker), game_id)).rowcount)
        else:
            n = self._run(lambda c: c.execute(
                "UPDATE games SET tracker = %s WHERE id = %s AND tracker IS NOT DISTINCT FROM %s::text",
                (_tracker_text(tracker), game_id, old)).rowcount)
        return n > 0

    def _tracker_raw(self, game_id: str) -> str | None:
        r = self._run(lambda c: c.execute(
            "SELECT tracker FROM games WHERE id = %s", (game_id,)).fetchone())
        if r is None:
            raise NotFound(game_id)
        return r[0]

    def list_games(self, limit: int = 100) -> list[GameRow]:
        rows = self._run(lambda c: c.execute(
            "SELECT id, created, meta, tracker FROM games ORDER BY created DESC LIMIT %s",
            (limit,)).fetchall())
        return [_row(r) for r in rows]

    def ping(self) -> bool:
        return self._run(lambda c: c.execute("SELECT 1").fetchone()[0]) == 1

    def close(self) -> None:
        while True:
            try:
                self._pool.get_nowait().close()
            except queue.Empty:
                break


def _redact(url: str) -> str:
    """The URL without its password, for messages."""
    if "@" in url and "://" in url:
        scheme, rest = url.split("://", 1)
        cred, host = rest.rsplit("@", 1)
        user = cred.split(":", 1)[0]
        return f"{scheme}://{user}:***@{host}"
    return url


def open_storage(db: str | None) -> Storage:
    """``postgresql://…`` / ``postgres://…`` → PostgreSQL; anything else is a SQLite file path."""
    db = db or "piki.db"
    if db.startswith(("postgresql://", "postgres://")):
        return PostgresStorage(db)
    if db.startswith("sqlite:///"):
        db = db[len("sqlite:///"):]
    elif "://" in db:
        raise StorageError(f"unsupported database URL {_redact(db)!r}: give a SQLite file path,"
                           " sqlite:///PATH or postgresql://USER:PASSWORD@HOST/NAME")
    return SQLiteStorage(db)
