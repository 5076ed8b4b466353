// The run's event stream read as the binary writes it (events-file.ts): a
// file that appears once the driver answered, then grows a line at a time.
import { test } from "node:test";
import assert from "node:assert/strict";
import { appendFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { EventsFile } from "../dist/events-file.js";
import { scratchDir } from "./doubles/scratch.js";

test("lines come as they are completed, across reads that split a line or a character", () => {
  const path = join(scratchDir("tm-events-"), "events.jsonl");
  const file = new EventsFile(path);
  assert.deepEqual(file.lines(), [], "no file yet: no line");
  writeFileSync(path, '{"event":"run-started"}\n{"event":"check-');
  assert.deepEqual(file.lines(), ['{"event":"run-started"}']);
  // "é" is two bytes in UTF-8: its first byte ends this write.
  const accent = Buffer.from("é");
  appendFileSync(path, Buffer.concat([Buffer.from('started","id":"caf'), accent.subarray(0, 1)]));
  assert.deepEqual(file.lines(), []);
  appendFileSync(path, Buffer.concat([accent.subarray(1), Buffer.from('"}\n{"event":"run-fin')]));
  assert.deepEqual(file.lines(), ['{"event":"check-started","id":"café"}']);
  appendFileSync(path, 'ished"}');
  assert.deepEqual(file.lines(), []);
  assert.deepEqual(file.close(), ['{"event":"run-finished"}'], "the last line without its newline, at the end");
  assert.deepEqual(file.close(), []);
});
