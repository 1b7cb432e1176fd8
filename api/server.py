"""``piki serve``: run the API and the web page with uvicorn.

One process by default. ``--workers N`` (or ``PIKI_WORKERS``) runs N server processes on the one
port (uvicorn's supervisor restarts one that dies); each builds its app from the environment
(:func:`app_from_env`) and has its own advice workers. They share the database: SQLite (WAL)
and PostgreSQL both take writers from several processes, an event is stored at its position in
the game's log or refused (a retry re-reads the game), and the camera tracker's memory is kept
with the game in the database, so any process can take any request or WebSocket frame.
"""

from __future__ import annotations

import errno
import os
import socket
import sys

from vision import runtime

from .config import Settings, is_loopback

# Scan requests run side by side in the server's threads, so one detector run uses one thread
# of its own (less CPU per frame than spreading each run over all cores); an explicit
# PIKI_VISION_THREADS still wins.
SERVER_VISION_THREADS = "1"


class ConfigError(ValueError):
    """A setting from the environment that cannot be used."""


def settings_from_env() -> Settings:
    """The server's settings from ``PIKI_*`` variables (the ones ``serve`` sets for its workers)."""
    try:
        budget = float(os.environ.get("PIKI_ADVICE_TIME") or 0) or None
        advice_timeout = float(os.environ.get("PIKI_ADVICE_TIMEOUT") or 300)
    except ValueError:
        raise ConfigError("PIKI_ADVICE_TIME and PIKI_ADVICE_TIMEOUT must be numbers of seconds") from None
    counts = {}
    for name, field, default in (("PIKI_ACTIVE_REQUESTS", "active_requests", 3),
                                 ("PIKI_SCAN_SLOTS", "scan_slots", 2)):
        try:
            counts[field] = int(os.environ.get(name) or default)
        except ValueError:
            raise ConfigError(f"{name} must be a whole number") from None
        if not 1 <= counts[field] <= 1000:
            raise ConfigError(f"{name} must be between 1 and 1000")
    for name in ("PIKI_ADVICE_WORKERS", "PIKI_ADVICE_NICE"):  # read by the advice pool
        value = os.environ.get(name) or "0"
        if not value.lstrip("-").isdigit() or (name == "PIKI_ADVICE_WORKERS" and int(value) < 0):
            raise ConfigError(f"{name} must be a whole number, not {value!r}")
    try:  # read by the scan's model sessions on the first scan: refused here, before serving
        runtime.threads()
        runtime.spin_microseconds()
    except runtime.SettingError as e:
        raise ConfigError(str(e)) from None
    origins = [o for o in os.environ.get("PIKI_CORS_ORIGINS", "").split(",") if o.strip()]
    return Settings(db=os.environ.get("PIKI_DB") or "piki.db", token=os.environ.get("PIKI_TOKEN") or None,
                    cors_origins=origins, advice_time_budget=budget, advice_timeout=advice_timeout,
                    **counts)


def app_from_env():
    """The app of one server process (uvicorn's factory when there are several)."""
    from .app import create_app

    return create_app(settings_from_env())


def _workers(value: int | None) -> int:
    if value is not None:
        return value
    try:
        return int(os.environ.get("PIKI_WORKERS") or 1)
    except ValueError:
        raise ConfigError("PIKI_WORKERS must be a whole number of processes") from None


def serve(host: str = "127.0.0.1", port: int = 8000, db: str | None = None,
          token: str | None = None, workers: int | None = None) -> int:
    token = token or os.environ.get("PIKI_TOKEN") or None
    if not is_loopback(host) and not token:
        print(f"piki: refusing to listen on {host} without an access token: pass --token or set "
              "PIKI_TOKEN (only loopback addresses may run without one)", file=sys.stderr)
        return 2
    if not 0 < port < 65536:
        print(f"piki: bad port {port}", file=sys.stderr)
        return 2
    # The workers (and a single process alike) read their settings from the environment.
    os.environ["PIKI_DB"] = db or os.environ.get("PIKI_DB") or "piki.db"
    if token:
        os.environ["PIKI_TOKEN"] = token
    os.environ.setdefault("PIKI_VISION_THREADS", SERVER_VISION_THREADS)
    try:
        n = _workers(workers)
        if not 1 <= n <= 64:
            raise ConfigError(f"--workers must be between 1 and 64, not {n}")
        settings = settings_from_env()
    except ConfigError as e:
        print(f"piki: {e}", file=sys.stderr)
        return 2
    try:
        import uvicorn

        from .app import create_app
        from .storage import StorageError, open_storage
    except ImportError as e:
        print(f"piki: the server needs the API dependencies (see api/DEPENDENCIES.txt): {e}",
              file=sys.stderr)
        return 2
    options = dict(host=host, port=port, log_level="warning", access_log=False,
                   ws_max_size=settings.max_upload_bytes + 1024, timeout_graceful_shutdown=5)
    try:
        if n == 1:
            app = create_app(settings)
            kind = app.state.storage.kind
        else:  # open the database once here: a bad URL is reported before any worker starts
            storage = open_storage(settings.db)
            kind = storage.kind
            storage.close()
    except StorageError as e:
        print(f"piki: {e}", file=sys.stderr)
        return 2
    problem = _bind_problem(host, port)
    if problem:
        print(f"piki: cannot listen on {host}:{port}: {problem}", file=sys.stderr)
        return 2
    shown = f"[{host}]" if ":" in host else host  # an IPv6 address goes in brackets in a URL
    print(f"piki: serving on http://{shown}:{port}/ (storage: {kind}"
          f"{', token required' if token else ''}{f', {n} processes' if n > 1 else ''})",
          file=sys.stderr, flush=True)
    if n > 1:
        return _serve_processes(uvicorn, options, n, host, port)
    server = uvicorn.Server(uvicorn.Config(app, **options))
    try:
        server.run()
    except OSError as e:  # e.g. port in use
        print(f"piki: cannot listen on {host}:{port}: {e.strerror or e}", file=sys.stderr)
        return 2
    except SystemExit:  # uvicorn's exit on a startup failure (it has logged why)
        return 2
    return 0 if server.started else 2


def _bind_problem(host: str, port: int) -> str | None:
    """Why the server could not listen on host:port (checked before saying it serves), or None."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET  # as uvicorn binds
    with socket.socket(family, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, port))
        except socket.gaierror as e:
            return f"unknown host ({e.strerror})"
        except OSError as e:
            if e.errno == errno.EADDRINUSE:
                return "the port is already in use (another server? choose another --port)"
            return e.strerror or str(e)
    return None


def _serve_processes(uvicorn, options: dict, n: int, host: str, port: int) -> int:
    """uvicorn's supervisor with ``n`` processes, each building the app from the environment."""
    try:
        uvicorn.run("api.server:app_from_env", factory=True, workers=n, **options)
    except OSError as e:
        print(f"piki: cannot listen on {host}:{port}: {e.strerror or e}", file=sys.stderr)
        return 2
    except SystemExit as e:  # uvicorn exits on a startup failure
        return e.code if isinstance(e.code, int) else 2
    return 0
