// The in-memory example through node:test: every check is one test.
import { conformance } from "tinymemory-conformance/node-test";

conformance({ driver: "./memory-store.js" });
