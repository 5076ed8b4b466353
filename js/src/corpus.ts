/** The corpus this package carries, for the corpus checks. */

import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { PACKAGE_ROOT } from "./package-info.js";

/**
 * The corpus directory: `corpora/` of the installed package (copied from
 * the repository's fixtures/corpora when it is packed), else the
 * repository's `fixtures/corpora` when the package runs from a checkout.
 * `null` when neither exists.
 */
export function bundledCorpus(): string | null {
  for (const dir of [join(PACKAGE_ROOT, "corpora"), join(PACKAGE_ROOT, "..", "fixtures", "corpora")]) {
    if (existsSync(dir) && statSync(dir).isDirectory()) return dir;
  }
  return null;
}
