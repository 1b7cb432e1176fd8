"""Schemathesis against the server's own OpenAPI schema: generated requests never get a 5xx.

Bounded (``--max-time``, a few examples per operation). The advice and review endpoints are left
out here — each valid request runs the advisor for seconds — and are covered by test_api.py.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from test_api_support import Server

SCHEMATHESIS = shutil.which("schemathesis") or str(Path(sys.executable).with_name("schemathesis"))


@pytest.mark.skipif(not Path(SCHEMATHESIS).exists(), reason="schemathesis is not installed")
def test_no_server_errors_on_generated_requests(tmp_path):
    srv = Server(str(tmp_path / "fuzz.db")).start()
    try:
        p = subprocess.run(
            [SCHEMATHESIS, "run", srv.url + "/openapi.json", "--checks", "not_a_server_error",
             "--max-examples", "10", "--max-time", "40", "--phases", "examples,coverage,fuzzing",
             "--exclude-path-regex", r"^/v1/(advice|review)|/advice$",
             "--seed", "1", "--request-timeout", "30", "--no-color"],
            capture_output=True, text=True, timeout=180)
    finally:
        srv.stop()
    out = p.stdout + p.stderr
    assert p.returncode == 0, out[-4000:]
    assert "passed" in out and "Server error" not in out, out[-4000:]
    assert "Traceback" not in srv.output(), srv.output()[-4000:]
