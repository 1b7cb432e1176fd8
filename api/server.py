"""``piki serve``: run the API and the web page with uvicorn."""

from __future__ import annotations

import os
import sys

from .config import Settings, is_loopback


def serve(host: str = "127.0.0.1", port: int = 8000, db: str | None = None,
          token: str | None = None) -> int:
    token = token or os.environ.get("PIKI_TOKEN") or None
    if not is_loopback(host) and not token:
        print(f"piki: refusing to listen on {host} without an access token: pass --token or set "
              "PIKI_TOKEN (only loopback addresses may run without one)", file=sys.stderr)
        return 2
    if not 0 < port < 65536:
        print(f"piki: bad port {port}", file=sys.stderr)
        return 2
    db = db or os.environ.get("PIKI_DB") or "piki.db"
    try:
        import uvicorn

        from .app import create_app
        from .storage import StorageError
    except ImportError as e:
        print(f"piki: the server needs the API dependencies (see api/DEPENDENCIES.txt): {e}",
              file=sys.stderr)
        return 2
    origins = [o for o in os.environ.get("PIKI_CORS_ORIGINS", "").split(",") if o.strip()]
    try:
        budget = float(os.environ.get("PIKI_ADVICE_TIME") or 0) or None
        advice_timeout = float(os.environ.get("PIKI_ADVICE_TIMEOUT") or 300)
    except ValueError:
        print("piki: PIKI_ADVICE_TIME and PIKI_ADVICE_TIMEOUT must be numbers of seconds", file=sys.stderr)
        return 2
    settings = Settings(db=db, token=token, cors_origins=origins, advice_time_budget=budget,
                        advice_timeout=advice_timeout)
    try:
        app = create_app(settings)
    except StorageError as e:
        print(f"piki: {e}", file=sys.stderr)
        return 2
    kind = app.state.storage.kind
    print(f"piki: serving on http://{host}:{port}/ (storage: {kind}"
          f"{', token required' if token else ''})", file=sys.stderr, flush=True)
    config = uvicorn.Config(app, host=host, port=port, log_level="warning",
                            ws_max_size=settings.max_upload_bytes + 1024, access_log=False,
                            timeout_graceful_shutdown=5)
    server = uvicorn.Server(config)
    try:
        server.run()
    except OSError as e:  # e.g. port in use
        print(f"piki: cannot listen on {host}:{port}: {e.strerror or e}", file=sys.stderr)
        return 2
    return 0 if server.started else 2
