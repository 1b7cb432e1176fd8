"""The API reference at /docs: built here from the schema, loads nothing from elsewhere."""

from __future__ import annotations

from html.parser import HTMLParser

import httpx
import pytest
from fastapi import FastAPI, Query
from pydantic import BaseModel, Field

from test_api_support import Server


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = tmp_path_factory.mktemp("api_docs") / "piki.db"
    srv = Server(str(db)).start()
    yield srv
    srv.stop()


class Refs(HTMLParser):
    """Tags, every attribute value and the text of <style> elements of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.attrs: list[tuple[str, str, str]] = []
        self.styles: list[str] = []
        self._in_style = False

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.attrs += [(tag, k, v or "") for k, v in attrs]
        self._in_style = tag == "style"

    def handle_endtag(self, tag):
        self._in_style = False

    def handle_data(self, data):
        if self._in_style:
            self.styles.append(data)


def refs_of(page: str) -> Refs:
    p = Refs()
    p.feed(page)
    p.close()
    return p


def test_docs_page_documents_every_path_and_loads_nothing(server):
    with server.client() as c:
        spec = c.get("/openapi.json").json()
        r = c.get("/docs")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/html")
    page = r.text
    for path, item in spec["paths"].items():
        assert f"<code>{path}</code>" in page, path
        for method in item:
            assert f'id="op-{method}-' in page
    for name in spec["components"]["schemas"]:
        assert f"<h3><code>{name}</code></h3>" in page, name
    assert "/v1/games/{game_id}/frames" in page and ">WS<" in page  # the WebSocket too
    refs = refs_of(page)
    assert not {"script", "link", "img", "iframe", "object", "embed", "base"} & set(refs.tags)
    for tag, attr, value in refs.attrs:
        assert "://" not in value and not value.startswith("//"), (tag, attr, value)
        if attr in ("href", "src", "action"):
            assert value.startswith(("#", "/")), (tag, attr, value)
    assert refs.styles and not any("url(" in s or "@import" in s for s in refs.styles)
    assert "'self'" not in r.headers["content-security-policy"]  # nothing at all may load
    assert "default-src 'none'" in r.headers["content-security-policy"]
    # a request body with an enum field, nested into an array of a component schema
    assert "cards[].zone" in page and "&quot;table&quot;" in page


def test_docs_page_shows_parameters_bodies_and_responses(server):
    with server.client() as c:
        page = c.get("/docs").text
    start = page.index('id="op-post-v1-advice-bid"')
    op = page[start:page.index("</section>", start)]
    assert "time_budget" in op and "query" in op and "≤ 60" in op  # a parameter and its limit
    assert "HandRecordIn" in op and "<code>dealer</code>" in op  # the body's fields, $ref resolved
    assert "<b>422</b>" in op and "ErrorOut" in op  # responses with status and schema
    assert 'class="badge">token' in op
    assert "Authorization: Bearer &lt;token&gt;" in page and "<code>detail</code>" in page


def test_redoc_and_swagger_assets_are_gone(server):
    with server.client() as c:
        r = c.get("/redoc", follow_redirects=False)
        assert r.status_code in (301, 302, 307, 308) and r.headers["location"].endswith("/docs")
        r = c.get("/redoc", follow_redirects=True)
        assert r.status_code == 200 and "API reference" in r.text
        for body in (r.text, c.get("/docs").text):
            for cdn in ("cdn.jsdelivr", "redoc.standalone", "swagger-ui", "unpkg"):
                assert cdn not in body.lower()
        assert c.get("/docs/oauth2-redirect").status_code == 404
        assert "/docs" not in c.get("/openapi.json").json()["paths"]


def test_docs_stay_open_like_the_schema_when_a_token_is_set(tmp_path):
    srv = Server(str(tmp_path / "t.db"), token="s3cret-token").start()
    try:
        assert httpx.get(srv.url + "/openapi.json").status_code == 200
        r = httpx.get(srv.url + "/docs")
        assert r.status_code == 200 and "This server requires it." in r.text
        assert "s3cret-token" not in r.text
        assert httpx.post(srv.url + "/v1/state", json={"dealer": "N"}).status_code == 401
    finally:
        srv.stop()


class Evil(BaseModel):
    """<img src=x onerror=alert(1)> model"""

    name: str = Field(description='<script>alert("f")</script>')
    kind: str = Field("a", json_schema_extra={"enum": ["<bold>", "a"]})


def evil_app() -> FastAPI:
    app = FastAPI(title="<i>t</i>", description="<script>alert(0)</script> `<code>`",
                  docs_url=None, redoc_url=None)

    @app.post("/x/{item}", summary="<u>sum</u>", description="<iframe src=//evil></iframe>")
    def x(body: Evil, item: str, q: str = Query("<q>", description="<em>q</em>")) -> dict:
        return {}

    return app


def test_text_from_the_schema_is_escaped():
    from api import docs_page

    app = evil_app()
    page = docs_page.render_app(app, token_prefixes=("/x/",))
    for raw in ("<script>", "<img", "<iframe", "<i>t</i>", "<u>", "<em>", "<bold>", "<q>"):
        assert raw not in page, raw
    for escaped in ("&lt;script&gt;alert(0)&lt;/script&gt;", "&lt;img src=x onerror=alert(1)&gt;",
                    "&lt;iframe src=//evil&gt;", "&lt;u&gt;sum&lt;/u&gt;", "&lt;em&gt;q&lt;/em&gt;",
                    "&lt;script&gt;alert(&quot;f&quot;)&lt;/script&gt;", "&quot;&lt;bold&gt;&quot;",
                    "<code>&lt;code&gt;</code>"):
        assert escaped in page, escaped
    assert set(refs_of(page).tags) <= {"html", "head", "meta", "title", "style", "body", "main",
                                       "h1", "h2", "h3", "h4", "p", "a", "b", "code", "ul", "li",
                                       "section", "span", "table", "tr", "th", "td", "br",
                                       "details", "summary", "pre"}
