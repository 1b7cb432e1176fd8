// Turn the React components of npm @letele/playing-cards (CC0-1.0) into plain SVG files
// named by piki card code (AS.svg, TD.svg, ...).
// usage: node letele_to_svg.mjs path/to/dist/index.esm.js OUT_DIR
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { join } from "node:path";

const [src, outDir] = process.argv.slice(2);
let code = readFileSync(src, "utf8");
code = code
  .replace(/^import _extends from .*$/m, "const _extends = Object.assign;")
  .replace(/^import \* as React from .*$/m, "const React = globalThis.__miniReact;");

const esc = (s) => String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/"/g, "&quot;");
const CAMEL = new Set(["viewBox", "preserveAspectRatio", "patternUnits", "patternContentUnits",
  "patternTransform", "gradientUnits", "gradientTransform", "clipPathUnits", "maskUnits",
  "maskContentUnits", "textLength", "lengthAdjust", "markerWidth", "markerHeight", "refX", "refY",
  "spreadMethod", "startOffset", "stdDeviation"]);
const attrName = (k) => {
  if (k === "className") return "class";
  if (k === "xmlnsXlink") return "xmlns:xlink";
  if (k === "xlinkHref") return "xlink:href";
  if (k === "xmlSpace") return "xml:space";
  if (k.startsWith("aria-") || CAMEL.has(k)) return k;
  return k.replace(/[A-Z]/g, (c) => "-" + c.toLowerCase());
};
const styleText = (o) => Object.entries(o).map(([k, v]) => `${attrName(k)}:${v}`).join(";");
class Markup { constructor(text) { this.text = text; } }
globalThis.__miniReact = {
  createElement(tag, props, ...children) {
    let attrs = "";
    for (const [k, v] of Object.entries(props || {})) {
      if (v === undefined || v === null || k === "aria-labelledby") continue;
      attrs += ` ${attrName(k)}="${esc(k === "style" ? styleText(v) : v)}"`;
    }
    const inner = children.flat().filter((c) => c !== null && c !== undefined && c !== false)
      .map((c) => (c instanceof Markup ? c.text : esc(c))).join("");
    return new Markup(`<${tag}${attrs}>${inner}</${tag}>`);
  },
};
const tmp = join(outDir, ".letele_module.mjs");
mkdirSync(outDir, { recursive: true });
writeFileSync(tmp, code);
const mod = await import(pathToFileURL(tmp).href);
const rankOf = { "10": "T", a: "A", j: "J", q: "Q", k: "K" };
let n = 0;
for (const [name, comp] of Object.entries(mod)) {
  const m = /^([CDHS])(10|[2-9]|[ajqk])$/.exec(name);
  if (!m) continue;
  const rank = rankOf[m[2]] || m[2];
  writeFileSync(join(outDir, `${rank}${m[1]}.svg`), comp({}).text + "\n");
  n++;
}
writeFileSync(join(outDir, "back.svg"), mod.B1({}).text + "\n");
const { unlinkSync } = await import("node:fs");
unlinkSync(tmp);
console.log(`wrote ${n} card faces to ${outDir}`);
