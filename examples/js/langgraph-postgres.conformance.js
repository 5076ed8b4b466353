// The PostgresStore example through node:test, run by langgraph-postgres.test.js
// (not a test file itself: the store fails some checks, which that test asserts).
import { conformance } from "tinymemory-conformance/node-test";

conformance({ driver: "./langgraph-postgres-store.js", corpus: false, cases: 8 });
