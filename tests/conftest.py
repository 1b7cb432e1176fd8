"""Fixtures shared by the storage tests."""

from __future__ import annotations

import pytest

from test_api_support import pg_url_or_skip


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request, tmp_path):
    """A real database for each backend: an SQLite file, or the test PostgreSQL (skipped when absent)."""
    if request.param == "sqlite":
        return str(tmp_path / "games.db")
    return pg_url_or_skip()


@pytest.fixture()
def storages(db_url):
    """Opens storage objects on the test database (each as a separate process would have its
    own); closes them at the end."""
    from api.storage import open_storage
    opened = []

    def make():
        s = open_storage(db_url)
        opened.append(s)
        return s

    yield make
    for s in opened:
        s.close()
