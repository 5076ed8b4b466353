// Mastra's vector stores through the MastraVectorAdapter: what each fails
// is its row of docs/compatibility.md (.ci/js.sh runs the rows, .ci/run
// checks the matrix); here each store's plain reproduction, without
// tinymemory, must show the fault behind those failures. PgVector's needs
// TINYMEMORY_PGVECTOR_URL.
import { test } from "node:test";
import assert from "node:assert/strict";
import { assertReproduces, needsServer } from "./postgres-examples.js";

test("LibSQLVector's fault reproduces without tinymemory", () => {
  const out = assertReproduces("./mastra-libsql-repro.js");
  assert.match(out, /^1\. the index counts 2 vectors; query filtered on the zero vector's metadata answers \[\]$/m);
});

test("PgVector's faults reproduce without tinymemory", needsServer, () => {
  const out = assertReproduces("./mastra-pg-repro.js");
  assert.match(out, /^2\. query with the zero vector scores \["NaN"\]$/m);
});

test("DuckDBVector's fault reproduces without tinymemory", () => {
  const out = assertReproduces("./mastra-duckdb-repro.js");
  assert.match(out, /^1\. query filtered on a value holding U\+0000 fails: Parser Error: unterminated quoted string$/m);
});
