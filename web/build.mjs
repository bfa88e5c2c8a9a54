// Builds the browser client into dist/: app.js (esbuild bundle of src/main.ts, minified),
// index.html and style.css from static/. Prints the bundle's size, raw and gzip-compressed.
import * as esbuild from "esbuild";
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";

const dist = new URL("./dist/", import.meta.url).pathname;
rmSync(dist, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });
await esbuild.build({
  entryPoints: ["src/main.ts"],
  bundle: true,
  minify: true,
  format: "esm",
  target: ["chrome100", "firefox100", "safari15"],
  outfile: dist + "app.js",
  logLevel: "warning",
  charset: "utf8",  // Cyrillic and Romanian letters as they are, not \uXXXX (a module script is read as UTF-8)
});
cpSync("static", dist, { recursive: true });
let raw = 0, gz = 0;
const sizes = {};
for (const f of ["app.js", "index.html", "style.css"]) {
  const b = readFileSync(dist + f);
  sizes[f] = { raw: b.length, gzip: gzipSync(b, { level: 9 }).length };
  raw += b.length;
  gz += sizes[f].gzip;
}
writeFileSync(dist + "sizes.json", JSON.stringify({ ...sizes, total: { raw, gzip: gz } }, null, 1) + "\n");
console.log(`web/dist: ${raw} bytes, ${gz} bytes gzip-compressed (app.js ${sizes["app.js"].gzip})`);
