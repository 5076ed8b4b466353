// The in-memory example through vitest: every check is one test.
import { conformance } from "tinymemory-conformance/vitest";

conformance({ driver: "./memory-store.js" });
