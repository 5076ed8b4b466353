/** This package's own facts: its version and where it is installed. */

import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The package's root directory (holding package.json, dist/, corpora/). */
export const PACKAGE_ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");

/** The package's version, which its binary must have too. */
export const VERSION: string = JSON.parse(readFileSync(join(PACKAGE_ROOT, "package.json"), "utf8")).version;
