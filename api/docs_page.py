"""The API reference at ``/docs``: one HTML page built on this server from ``app.openapi()``.

FastAPI's own ``/docs`` (Swagger UI) and ``/redoc`` load their JavaScript and CSS from a CDN, so
offline they are a blank page. This page has no script and loads nothing: plain HTML with one
inline style sheet (allowed by its hash in the Content-Security-Policy), light or dark as the
browser prefers. Every text taken from the schema is escaped. For each path and method it shows
the summary and description, the parameters, the request body's fields (``$ref`` resolved into
the component schemas, nested objects flattened as ``a.b`` / ``a[].b``), the responses with their
status codes and schemas, and at the end every component schema.

``/docs`` is open like ``/openapi.json`` (the schema holds no data); ``/redoc`` redirects here.
"""

from __future__ import annotations

import base64
import hashlib
import html
import inspect
import json
import re
from typing import Any, Iterable

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, RedirectResponse
from starlette.routing import WebSocketRoute

_METHODS = ("get", "put", "post", "patch", "delete", "head", "options", "trace")
_REF = "#/components/schemas/"
_MAX_DEPTH = 4  # nested object fields shown inline down to this depth; deeper ones link

CSS = """
:root{color-scheme:light dark;--bg:#fff;--fg:#1b1f24;--muted:#59636e;--line:#d1d9e0;
--code:#f3f5f7;--link:#0a58ca;--get:#1a7f37;--post:#0a58ca;--put:#9a6700;--delete:#cf222e;
--other:#6e40c9;--badge:#fff8c5}
@media (prefers-color-scheme:dark){:root{--bg:#0f1216;--fg:#e6e9ed;--muted:#9aa4af;
--line:#333b45;--code:#1c2229;--link:#6cb6ff;--get:#57c26b;--post:#6cb6ff;--put:#d8a93a;
--delete:#ff7b72;--other:#b392f0;--badge:#3b3310}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:15px/1.5 system-ui,-apple-system,
"Segoe UI",Roboto,sans-serif}
main{max-width:60rem;margin:0 auto;padding:1rem 1.25rem 4rem}
a{color:var(--link)}
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9em}
code{background:var(--code);padding:.05em .3em;border-radius:3px}
pre{background:var(--code);padding:.6rem;border-radius:4px;overflow-x:auto}
pre code{padding:0;background:none}
h1{margin-bottom:.2rem}h2{border-bottom:1px solid var(--line);padding-bottom:.2rem;margin-top:2.5rem}
h3{margin:0;font-size:1.05rem;display:flex;flex-wrap:wrap;gap:.5rem;align-items:center}
h4{margin:1rem 0 .3rem;font-size:.95rem;color:var(--muted)}
.muted{color:var(--muted)}
.op{border:1px solid var(--line);border-radius:6px;padding:.8rem 1rem;margin:1rem 0}
.m{font-family:ui-monospace,monospace;font-weight:700;color:#fff;border-radius:3px;
padding:.05rem .45rem;font-size:.8rem;background:var(--other)}
.m.get{background:var(--get)}.m.post{background:var(--post)}.m.put{background:var(--put)}
.m.delete{background:var(--delete)}
@media (prefers-color-scheme:dark){.m{color:#0f1216}}
.badge{font-size:.75rem;font-weight:400;border:1px solid var(--line);background:var(--badge);
border-radius:10px;padding:0 .5rem}
table{border-collapse:collapse;width:100%;margin:.3rem 0;font-size:.9rem}
th,td{border:1px solid var(--line);padding:.25rem .45rem;text-align:left;vertical-align:top}
th{background:var(--code);font-weight:600}
td.n{white-space:nowrap}
ul.toc{columns:2;padding-left:1.2rem}
@media (max-width:40rem){ul.toc{columns:1}}
"""

CSP = ("default-src 'none'; style-src 'sha256-"
       + base64.b64encode(hashlib.sha256(CSS.encode()).digest()).decode()
       + "'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")


def esc(value: Any) -> str:
    return html.escape(str(value), quote=True)


def prose(text: str | None) -> str:
    """Escaped text as paragraphs; ```code``` and ````code```` spans become ``<code>``."""
    if not text:
        return ""
    out = []
    for para in re.split(r"\n\s*\n", text.strip()):
        lines = [ln.strip() for ln in para.splitlines() if ln.strip()]
        if lines and all(ln.startswith(("* ", "- ")) for ln in lines):
            items = "".join(f"<li>{_inline(ln[2:])}</li>" for ln in lines)
            out.append(f"<ul>{items}</ul>")
        else:
            out.append(f"<p>{_inline(' '.join(lines))}</p>")
    return "\n".join(out)


def _inline(text: str) -> str:
    return re.sub(r"``?([^`]+?)``?", r"<code>\1</code>", esc(text))


def _anchor(*parts: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", "-".join(parts).lower()).strip("-")


def _js(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


class Renderer:
    """HTML pieces of one OpenAPI document."""

    def __init__(self, spec: dict[str, Any]) -> None:
        self.spec = spec
        self.components: dict[str, Any] = spec.get("components", {}).get("schemas", {})

    # ------------------------------------------------------------------ schemas
    def resolve(self, schema: dict[str, Any]) -> tuple[str | None, dict[str, Any]]:
        ref = schema.get("$ref") if isinstance(schema, dict) else None
        if isinstance(ref, str) and ref.startswith(_REF):
            name = ref[len(_REF):]
            return name, self.components.get(name, {})
        return None, schema if isinstance(schema, dict) else {}

    def type_of(self, schema: Any) -> str:
        """A short type (HTML): ``integer``, ``array of string``, ``GameCreate`` (a link)…"""
        if not isinstance(schema, dict) or not schema:
            return "any"
        name, _ = self.resolve(schema)
        if name is not None:
            return f'<a href="#schema-{_anchor(name)}">{esc(name)}</a>'
        for key, sep in (("anyOf", " | "), ("oneOf", " | "), ("allOf", " &amp; ")):
            if key in schema:
                return sep.join(self.type_of(s) for s in schema[key])
        if "const" in schema:
            return f"<code>{esc(_js(schema['const']))}</code>"
        t = schema.get("type")
        if isinstance(t, list):
            return " | ".join(self.type_of({**schema, "type": x}) for x in t)
        if t == "array":
            return f"array of {self.type_of(schema.get('items'))}" if schema.get("items") else "array"
        if t == "object" or "properties" in schema:
            extra = schema.get("additionalProperties")
            if isinstance(extra, dict) and not schema.get("properties"):
                return f"object of {self.type_of(extra)}"
            return "object"
        out = esc(t or "any")
        if schema.get("format"):
            out += f" ({esc(schema['format'])})"
        return out

    def notes(self, schema: Any, description: str | None = None) -> str:
        """Description, allowed values, limits and default of a field or parameter (HTML)."""
        parts = [_inline(description)] if description else []
        seen: list[str] = []
        for s in self._members(schema):
            for item in self._limits(s):
                if item not in seen:
                    seen.append(item)
        parts += seen
        return "<br>".join(parts)

    def _members(self, schema: Any) -> Iterable[dict[str, Any]]:
        if not isinstance(schema, dict) or "$ref" in schema:
            return
        yield schema
        for key in ("anyOf", "oneOf", "allOf"):
            for s in schema.get(key, []):
                yield from self._members(s)
        if schema.get("type") == "array" and isinstance(schema.get("items"), dict):
            for s in self._members(schema["items"]):
                if "enum" in s:
                    yield {"enum": s["enum"]}

    @staticmethod
    def _limits(s: dict[str, Any]) -> list[str]:
        out = []
        if "enum" in s:
            out.append("one of: " + ", ".join(f"<code>{esc(_js(v))}</code>" for v in s["enum"]))
        for key, word in (("minimum", "≥"), ("exclusiveMinimum", ">"), ("maximum", "≤"),
                          ("exclusiveMaximum", "<"), ("minLength", "length ≥"),
                          ("maxLength", "length ≤"), ("minItems", "items ≥"),
                          ("maxItems", "items ≤"), ("minProperties", "keys ≥"),
                          ("maxProperties", "keys ≤")):
            if key in s and not isinstance(s[key], bool):
                out.append(f"{esc(word)} {esc(s[key])}")
        if "pattern" in s:
            out.append(f"pattern <code>{esc(s['pattern'])}</code>")
        if "default" in s:
            out.append(f"default <code>{esc(_js(s['default']))}</code>")
        return out

    def _rows(self, schema: dict[str, Any], prefix: str, depth: int,
              stack: tuple[str, ...]) -> list[str]:
        rows = []
        required = set(schema.get("required", []))
        for field, sub in (schema.get("properties") or {}).items():
            name = prefix + field
            rows.append(f'<tr><td class="n"><code>{esc(name)}</code></td><td>{self.type_of(sub)}</td>'
                        f'<td>{"yes" if field in required else "no"}</td>'
                        f"<td>{self.notes(sub, (sub or {}).get('description'))}</td></tr>")
            inner, suffix = self._object_inside(sub)
            ref_name, resolved = self.resolve(inner) if inner else (None, {})
            if (resolved.get("properties") and depth < _MAX_DEPTH
                    and (ref_name is None or ref_name not in stack)):
                rows += self._rows(resolved, f"{name}{suffix}.", depth + 1,
                                   stack + ((ref_name,) if ref_name else ()))
        return rows

    def _object_inside(self, schema: Any) -> tuple[dict[str, Any] | None, str]:
        """The object schema a field holds (directly, nullable, or as array items) and the
        suffix of its fields' names ("" or "[]")."""
        if not isinstance(schema, dict):
            return None, ""
        options = [s for s in schema.get("anyOf", schema.get("oneOf", [])) if s.get("type") != "null"]
        if len(options) == 1:
            return self._object_inside(options[0])
        if schema.get("type") == "array" and isinstance(schema.get("items"), dict):
            inner, _ = self._object_inside(schema["items"])
            return inner, "[]"
        _, resolved = self.resolve(schema)
        return (schema, "") if resolved.get("properties") else (None, "")

    def schema_block(self, schema: Any, link_refs: bool = False) -> str:
        """A schema as a table of its fields (or its type when it has none), plus examples."""
        if not isinstance(schema, dict):
            return ""
        name, resolved = self.resolve(schema)
        if link_refs and name is not None:
            return f"<p>{self.type_of(schema)}</p>"
        head = ""
        if name:
            about = resolved.get("description")
            head = f"<p><b>{esc(name)}</b>{' — ' + _inline(about) if about else ''}</p>"
        if resolved.get("properties"):
            rows = self._rows(resolved, "", 1, (name,) if name else ())
            body = ('<table><tr><th>field</th><th>type</th><th>required</th><th>notes</th></tr>'
                    + "".join(rows) + "</table>")
            if resolved.get("additionalProperties") is True:
                body += '<p class="muted">Other fields are allowed.</p>'
        else:
            notes = self.notes(resolved)
            body = f"<p>{self.type_of(schema if name is None else resolved)}" \
                   f"{'<br>' + notes if notes else ''}</p>"
        examples = resolved.get("examples") or ([resolved["example"]] if "example" in resolved else [])
        if examples and isinstance(examples, list):
            body += ("<details><summary>example</summary><pre><code>"
                     + esc(json.dumps(examples[0], indent=2, ensure_ascii=False))
                     + "</code></pre></details>")
        return head + body

    # ------------------------------------------------------------------ operations
    def parameters(self, op: dict[str, Any]) -> str:
        params = [self.resolve(p)[1] if "$ref" in p else p for p in op.get("parameters", [])]
        if not params:
            return ""
        rows = "".join(
            f'<tr><td class="n"><code>{esc(p.get("name", ""))}</code></td><td>{esc(p.get("in", ""))}</td>'
            f'<td>{self.type_of(p.get("schema"))}</td><td>{"yes" if p.get("required") else "no"}</td>'
            f'<td>{self.notes(p.get("schema"), p.get("description"))}</td></tr>'
            for p in params)
        return ("<h4>Parameters</h4><table><tr><th>name</th><th>in</th><th>type</th>"
                f"<th>required</th><th>notes</th></tr>{rows}</table>")

    def request_body(self, op: dict[str, Any]) -> str:
        body = op.get("requestBody")
        if not body:
            return ""
        out = [f"<h4>Request body{' (required)' if body.get('required') else ''}</h4>"]
        if body.get("description"):
            out.append(prose(body["description"]))
        for media, content in (body.get("content") or {}).items():
            out.append(f"<p><code>{esc(media)}</code></p>")
            out.append(self.schema_block(content.get("schema")))
        return "".join(out)

    def responses(self, op: dict[str, Any]) -> str:
        rows = []
        for code, resp in sorted((op.get("responses") or {}).items(), key=lambda kv: str(kv[0])):
            cells = []
            for media, content in (resp.get("content") or {}).items():
                schema = content.get("schema")
                block = self.schema_block(schema, link_refs=True) if schema else ""
                cells.append(f"<code>{esc(media)}</code> {block}")
            rows.append(f'<tr><td class="n"><b>{esc(code)}</b></td>'
                        f'<td>{_inline(resp.get("description", ""))}</td>'
                        f'<td>{"".join(cells) or "—"}</td></tr>')
        if not rows:
            return ""
        return ("<h4>Responses</h4><table><tr><th>status</th><th>meaning</th><th>body</th></tr>"
                + "".join(rows) + "</table>")

    def operation(self, path: str, method: str, op: dict[str, Any], token: bool) -> str:
        anchor = _anchor("op", method, path)
        badges = '<span class="badge">token</span>' if token else ""
        if op.get("deprecated"):
            badges += '<span class="badge">deprecated</span>'
        return (f'<section class="op" id="{anchor}"><h3>'
                f'<span class="m {esc(method)}">{esc(method.upper())}</span>'
                f"<code>{esc(path)}</code>{badges}</h3>"
                + (f"<p><b>{_inline(op['summary'])}</b></p>" if op.get("summary") else "")
                + prose(op.get("description"))
                + self.parameters(op) + self.request_body(op) + self.responses(op) + "</section>")


def operations(spec: dict[str, Any]) -> list[tuple[str, str, str, dict[str, Any]]]:
    """(tag, path, method, operation) in the schema's order, grouped by first tag."""
    ops = [((op.get("tags") or ["other"])[0], path, method, op)
           for path, item in (spec.get("paths") or {}).items()
           for method, op in item.items() if method in _METHODS]
    order = list(dict.fromkeys(t for t, *_ in ops))
    return sorted(ops, key=lambda o: order.index(o[0]))


def render(spec: dict[str, Any], *, token_paths: set[tuple[str, str]] = frozenset(),
           token_set: bool = False, websockets: list[tuple[str, str, bool]] = ()) -> str:
    """The whole page. ``token_paths``: (path, method) pairs that need the access token;
    ``websockets``: (path, docstring, needs token) of WebSocket routes (not in OpenAPI)."""
    r = Renderer(spec)
    info = spec.get("info", {})
    ops = operations(spec)
    toc, body, tag = [], [], None
    for t, path, method, op in ops:
        if t != tag:
            tag = t
            body.append(f'<h2 id="{_anchor("tag", t)}">{esc(t)}</h2>')
            toc.append(f'<li><b><a href="#{_anchor("tag", t)}">{esc(t)}</a></b></li>')
        toc.append(f'<li><a href="#{_anchor("op", method, path)}">{esc(method.upper())} '
                   f"<code>{esc(path)}</code></a></li>")
        body.append(r.operation(path, method, op, (path, method) in token_paths))
    if websockets:
        body.append('<h2 id="websockets">WebSockets</h2>')
        toc.append('<li><b><a href="#websockets">WebSockets</a></b></li>')
        for path, doc, token in websockets:
            toc.append(f'<li><a href="#{_anchor("ws", path)}">WS <code>{esc(path)}</code></a></li>')
            badge = '<span class="badge">token</span>' if token else ""
            body.append(f'<section class="op" id="{_anchor("ws", path)}"><h3><span class="m">WS</span>'
                        f"<code>{esc(path)}</code>{badge}</h3>{prose(doc)}</section>")
    if r.components:
        body.append('<h2 id="schemas">Schemas</h2>')
        toc.append('<li><b><a href="#schemas">Schemas</a></b></li>')
        for name, schema in r.components.items():
            body.append(f'<section class="op" id="schema-{_anchor(name)}"><h3><code>{esc(name)}</code></h3>'
                        + r.schema_block(schema) + "</section>")
    token_note = ("This server requires it." if token_set else
                  "This server runs without one (only possible on loopback).")
    error_fields = ""
    err = r.components.get("ErrorOut")
    if err:
        error_fields = r.schema_block({"$ref": _REF + "ErrorOut"}, link_refs=False)
    intro = (
        "<h2 id=\"intro\">Using the API</h2>"
        "<h4>Access token</h4>"
        "<p>When the server has an access token (<code>piki serve --token T</code> or "
        "<code>PIKI_TOKEN</code>), every operation marked <span class=\"badge\">token</span> "
        "must send <code>Authorization: Bearer &lt;token&gt;</code> (or the header "
        "<code>X-Piki-Token</code>, or <code>?token=</code>, which the WebSocket uses). "
        f"{esc(token_note)} This page and <a href=\"/openapi.json\">/openapi.json</a> stay open.</p>"
        "<h4>Errors</h4>"
        "<p>Every error answer is a JSON object whose <code>detail</code> string names the problem; "
        "422 adds <code>errors</code> (a list of <code>{loc, msg, type}</code>) and a 409 for an "
        "illegal event adds <code>error</code> (<code>kind</code>, <code>index</code>, "
        "<code>seat</code>, <code>card</code>, <code>reason</code>).</p>" + error_fields)
    title = f"{info.get('title', 'API')} {info.get('version', '')}".strip()
    return (
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
        "<meta name=\"referrer\" content=\"no-referrer\">"
        f"<title>{esc(title)} — API reference</title><style>{CSS}</style></head><body><main>"
        f"<h1>{esc(title)} — API reference</h1>"
        f"<p class=\"muted\">Built from <a href=\"/openapi.json\">/openapi.json</a> "
        f"(OpenAPI {esc(spec.get('openapi', ''))}).</p>"
        + prose(info.get("description"))
        + "<h2>Contents</h2><ul class=\"toc\"><li><b><a href=\"#intro\">Using the API</a></b></li>"
        + "".join(toc) + "</ul>" + intro + "".join(body) + "</main></body></html>\n")


def render_app(app: FastAPI, token_prefixes: tuple[str, ...] = ()) -> str:
    """The page of ``app``; operations and WebSockets under ``token_prefixes`` are marked as
    needing the access token (the app says which: its routers are included with it)."""
    spec = app.openapi()
    token_paths = {(path, method) for path, item in (spec.get("paths") or {}).items()
                   for method in item if path.startswith(token_prefixes)}
    websockets = [(path, inspect.getdoc(route.endpoint) or "", path.startswith(token_prefixes))
                  for path, route in _routes(app) if isinstance(route, WebSocketRoute)]
    settings = getattr(app.state, "settings", None)
    return render(spec, token_paths=token_paths, websockets=websockets,
                  token_set=bool(getattr(settings, "token", None)))


def _routes(app: FastAPI) -> list[tuple[str, Any]]:
    """(full path, route) of every route, also those of included routers."""
    try:  # FastAPI >= 0.16x keeps included routers as such in app.routes
        from fastapi.routing import iter_route_contexts
    except ImportError:  # older: app.routes is already flat
        return [(getattr(r, "path", ""), r) for r in app.routes]
    return [(rc.path or "", rc.original_route) for rc in iter_route_contexts(app.routes)]


def install(app: FastAPI, token_prefixes: tuple[str, ...] = ()) -> None:
    """``GET /docs`` (this page, built once) and ``GET /redoc`` (a redirect to it)."""

    @app.get("/docs", include_in_schema=False)
    async def docs_page(request: Request) -> HTMLResponse:
        page = getattr(request.app.state, "docs_html", None)
        if page is None:
            page = request.app.state.docs_html = render_app(request.app, token_prefixes)
        return HTMLResponse(page, headers={"Content-Security-Policy": CSP,
                                           "Cache-Control": "no-cache",
                                           "X-Content-Type-Options": "nosniff",
                                           "Referrer-Policy": "no-referrer"})

    @app.get("/redoc", include_in_schema=False)
    async def redoc(request: Request) -> RedirectResponse:
        return RedirectResponse(request.scope.get("root_path", "") + "/docs", status_code=307)
