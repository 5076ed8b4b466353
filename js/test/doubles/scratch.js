// Scratch directories for the tests, removed once the file's tests have
// run: each test run used to leave a dozen under the temporary directory.
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after } from "node:test";

const made = [];
after(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A new directory under the temporary directory, its real path, named
 * PREFIX and random letters; removed after the file's last test. */
export function scratchDir(prefix) {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  made.push(dir);
  return dir;
}
