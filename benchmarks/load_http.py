"""A minimal keep-alive HTTP/1.1 client on asyncio streams, for the load test's clients.

httpx costs about 3 ms of CPU a request on the benchmark machine, more than the server spends on
most requests; the load clients run on the same cores as the server, so that cost would be
measured as server latency. This client only does what the load test needs: one connection,
one request at a time, ``Content-Length`` or chunked answers.
"""

from __future__ import annotations

import asyncio
from urllib.parse import urlsplit


class RawClient:
    def __init__(self, url: str, headers: dict[str, str] | None = None, timeout: float = 120,
                 connect_timeout: float = 10) -> None:
        u = urlsplit(url)
        if u.scheme != "http":
            raise ValueError(f"only http:// URLs are supported, not {url!r}")
        self.host, self.port = u.hostname or "127.0.0.1", u.port or 80
        extra = "".join(f"{k}: {v}\r\n" for k, v in (headers or {}).items())
        self._common = f"Host: {u.netloc}\r\n{extra}".encode()
        self.timeout, self.connect_timeout = timeout, connect_timeout
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None

    async def request(self, method: str, path: str, body: bytes = b"",
                      content_type: str = "application/json") -> tuple[int, bytes]:
        """(status, body); raises OSError, asyncio.TimeoutError or IncompleteReadError."""
        if self._writer is None:
            self._reader, self._writer = await asyncio.wait_for(
                asyncio.open_connection(self.host, self.port), self.connect_timeout)
        head = (f"{method} {path} HTTP/1.1\r\n".encode() + self._common +
                f"Content-Type: {content_type}\r\nContent-Length: {len(body)}\r\n\r\n".encode())
        try:
            self._writer.write(head + body if len(body) < 65536 else head)
            if len(body) >= 65536:
                self._writer.write(body)
            return await asyncio.wait_for(self._answer(), self.timeout)
        except BaseException:
            self.close()  # the connection's state is unknown now
            raise

    async def _answer(self) -> tuple[int, bytes]:
        r = self._reader
        assert r is not None
        line = await r.readline()
        if not line:
            raise ConnectionResetError("the server closed the connection")
        parts = line.split(None, 2)
        if len(parts) < 2 or not parts[0].startswith(b"HTTP/"):
            raise ValueError(f"not an HTTP answer: {line[:80]!r}")
        status = int(parts[1])
        length, chunked, close = None, False, parts[0] == b"HTTP/1.0"
        while True:
            h = await r.readline()
            if h in (b"\r\n", b"\n", b""):
                break
            name, _, value = h.partition(b":")
            name, value = name.strip().lower(), value.strip().lower()
            if name == b"content-length":
                length = int(value)
            elif name == b"transfer-encoding":
                chunked = b"chunked" in value
            elif name == b"connection":
                close = value == b"close"
        if chunked:
            body = bytearray()
            while True:
                size = int((await r.readline()).split(b";")[0], 16)
                if size == 0:
                    while (await r.readline()) not in (b"\r\n", b"\n", b""):
                        pass
                    break
                body += await r.readexactly(size)
                await r.readexactly(2)
            data = bytes(body)
        elif length is not None:
            data = await r.readexactly(length)
        else:
            data, close = await r.read(), True
        if close:
            self.close()
        return status, data

    def close(self) -> None:
        if self._writer is not None:
            self._writer.close()
        self._reader = self._writer = None
