// Validates ../../openapi/asyncapi.json with the AsyncAPI parser (@asyncapi/parser, pinned in package.json):
// prints one JSON line {"errors": [...], "warnings": [...], "channels": [...]} and exits 1 on an error.
// Run from clients/typescript: node lint/validate-asyncapi.mjs  (tests/clients/test_asyncapi.py)
import { readFile } from "node:fs/promises";
import { Parser } from "@asyncapi/parser";

const text = await readFile(new URL("../../../openapi/asyncapi.json", import.meta.url), "utf8");
const { document, diagnostics } = await new Parser().parse(text);
const shown = (d) => ({ code: d.code, message: d.message, path: d.path.join("/") });
const errors = diagnostics.filter((d) => d.severity === 0).map(shown);
const warnings = diagnostics.filter((d) => d.severity === 1).map(shown);
const channels = document ? document.channels().all().map((c) => c.address()) : [];
console.log(JSON.stringify({ errors, warnings, channels }));
process.exit(errors.length === 0 && document !== undefined ? 0 : 1);
