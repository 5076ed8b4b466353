// The langchain example through node:test, run by langchain.test.js (not a test file
// itself: the engine fails some checks, which langchain.test.js asserts).
import { conformance } from "tinymemory-conformance/node-test";

conformance({ driver: "./langchain-store.js", corpus: false });
