// The langgraph example through node:test, run by langgraph.test.js (not a test file
// itself: the engine fails some checks, which langgraph.test.js asserts).
import { conformance } from "tinymemory-conformance/node-test";

conformance({ driver: "./langgraph-store.js", corpus: false });
