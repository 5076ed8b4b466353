// The PostgreSQL server the two PostgreSQL examples use: its URL, and a
// schema of its own per store (dropped when the store is done), so each
// driver process has its own tables and the suite may run checks at once.
// The server needs the pgvector extension (`CREATE EXTENSION vector`, done
// here when it is missing); .ci/js.sh starts one from the pgserver wheel.
import { randomBytes } from "node:crypto";
import pg from "pg";

/** The server's URL: TINYMEMORY_PGVECTOR_URL, which must be set. */
export function pgvectorUrl() {
  const url = process.env.TINYMEMORY_PGVECTOR_URL;
  if (!url) throw new Error("TINYMEMORY_PGVECTOR_URL is unset: give the URL of a PostgreSQL server with the pgvector extension (docs/validate-js-driver.md)");
  return url;
}

/** A fresh schema name, lowercase letters and digits: `tinymemory_` and 16 hex digits. */
export function freshSchema() {
  return `tinymemory_${randomBytes(8).toString("hex")}`;
}

/** Runs `sql` on the server, on a connection of its own. */
export async function sql(text) {
  const client = new pg.Client({ connectionString: pgvectorUrl() });
  await client.connect();
  try {
    return await client.query(text);
  } finally {
    await client.end();
  }
}
