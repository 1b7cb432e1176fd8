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
