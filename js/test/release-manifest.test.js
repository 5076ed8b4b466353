// The release's platform packages: npm/ holds one directory per key of
// PLATFORM_PACKAGES, each of the main version, and the manifest the
// release publishes names them all (scripts/release-manifest.mjs).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { PLATFORM_PACKAGES, VERSION } from "../dist/index.js";

const root = fileURLToPath(new URL("../", import.meta.url));

test("npm/ holds exactly the platform packages the binary lookup knows", () => {
  const dirs = readdirSync(root + "npm").sort();
  assert.deepEqual(dirs, Object.keys(PLATFORM_PACKAGES).sort());
  for (const dir of dirs) {
    const manifest = JSON.parse(readFileSync(`${root}npm/${dir}/package.json`, "utf8"));
    assert.equal(manifest.name, PLATFORM_PACKAGES[dir]);
    assert.equal(manifest.version, VERSION);
  }
});

test("release-manifest --check accepts the repository's packages and writes nothing", () => {
  const before = readFileSync(root + "package.json", "utf8");
  const done = spawnSync(process.execPath, ["scripts/release-manifest.mjs", "--check"], { cwd: root, encoding: "utf8" });
  assert.equal(done.stderr, "");
  assert.equal(done.status, 0);
  assert.equal(
    done.stdout,
    `release-manifest: 7 platform packages at ${VERSION}: darwin-arm64, darwin-x64, linux-arm64, linux-arm64-musl, linux-x64, linux-x64-musl, win32-x64\n`,
  );
  assert.equal(readFileSync(root + "package.json", "utf8"), before);
});
