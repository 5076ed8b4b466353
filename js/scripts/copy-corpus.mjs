// prepack: copies the repository's fixtures/corpora into corpora/, which
// the package carries (the corpus checks load it; the binary's own default
// is the checkout it was built from, which a user's machine does not have).
import { cpSync, existsSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";

const from = fileURLToPath(new URL("../../fixtures/corpora", import.meta.url));
const to = fileURLToPath(new URL("../corpora", import.meta.url));
if (!existsSync(from)) {
  console.error(`copy-corpus: ${from} does not exist: pack the package from a checkout of tinymemory`);
  process.exit(1);
}
rmSync(to, { recursive: true, force: true });
cpSync(from, to, { recursive: true });
