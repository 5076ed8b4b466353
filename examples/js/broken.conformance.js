// The broken example through node:test, run by broken.test.js (not a
// test file itself: its checks are meant to fail).
import { conformance } from "tinymemory-conformance/node-test";

conformance({ driver: "./broken-store.js", corpus: false });
