// The PGVectorStore example through node:test, run by langchain-pgvector.test.js
// (not a test file itself: the store fails some checks, which that test asserts).
import { conformance } from "tinymemory-conformance/node-test";

conformance({ driver: "./langchain-pgvector-store.js", corpus: false, cases: 8 });
