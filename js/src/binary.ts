/**
 * Finding the `tinymemory-conformance` binary, as esbuild, Biome and SWC
 * find theirs: one npm package per platform, each an optional dependency
 * of this one that npm installs only where its `os`, `cpu` and `libc`
 * fit, found at run time by `require.resolve`; `TINYMEMORY_CONFORMANCE_BIN`
 * names another binary (the same variable the Python package reads).
 */

import { spawnSync } from "node:child_process";
import { accessSync, constants, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { VERSION } from "./package-info.js";

/** The environment variable naming a binary to use instead of the installed one. */
export const BIN_ENV = "TINYMEMORY_CONFORMANCE_BIN";
/** The binary's name. */
export const BIN_NAME = "tinymemory-conformance";
/** Seconds `--version` and `list` may take: they print and exit. */
const QUICK_TIMEOUT_MS = 30_000;

/**
 * The platform packages, by `${process.platform}-${process.arch}` (with
 * `-musl` on a Linux without glibc): exactly the directories of npm/, each
 * published by the release workflow (.github/workflows/release.yml,
 * docs/release.md), whose scripts/release-manifest.mjs refuses a release
 * where the two differ.
 */
export const PLATFORM_PACKAGES: Readonly<Record<string, string>> = {
  "linux-x64": "tinymemory-conformance-linux-x64",
  "linux-arm64": "tinymemory-conformance-linux-arm64",
  "linux-x64-musl": "tinymemory-conformance-linux-x64-musl",
  "linux-arm64-musl": "tinymemory-conformance-linux-arm64-musl",
  "darwin-x64": "tinymemory-conformance-darwin-x64",
  "darwin-arm64": "tinymemory-conformance-darwin-arm64",
  "win32-x64": "tinymemory-conformance-win32-x64",
};

/** No usable binary: none for this platform, not installed, not runnable, or of another version. */
export class BinaryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BinaryError";
  }
}

function isMusl(): boolean {
  if (process.platform !== "linux") return false;
  const report = process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined;
  return report?.header?.glibcVersionRuntime === undefined;
}

/** This machine's key in PLATFORM_PACKAGES: `linux-x64`, `darwin-arm64`, `linux-x64-musl`, ... */
export function platformKey(): string {
  return `${process.platform}-${process.arch}${isMusl() ? "-musl" : ""}`;
}

const installHint = () =>
  `set ${BIN_ENV} to the path of a ${BIN_NAME} ${VERSION} binary (in a checkout of tinymemory, ` +
  "`cargo build --locked -p tinymemory-cli` builds target/debug/tinymemory-conformance)";

function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    if (process.platform !== "win32") accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The binary's path: `$TINYMEMORY_CONFORMANCE_BIN` when set, else the one
 * the platform package of this machine carries. Throws BinaryError naming
 * what was looked for: the variable naming no file, no package for this
 * platform, or the package not installed (npm skips an optional
 * dependency with `--omit=optional`, and when its os, cpu or libc do not fit).
 */
export function findBinary(): string {
  const named = process.env[BIN_ENV];
  if (named) {
    if (!isExecutableFile(named)) throw new BinaryError(`${BIN_ENV} is ${JSON.stringify(named)}, which is not an executable file`);
    return named;
  }
  const key = platformKey();
  const pkg = PLATFORM_PACKAGES[key];
  if (pkg === undefined) {
    throw new BinaryError(
      `no ${BIN_NAME} binary is published for ${key} (packages exist for ${Object.keys(PLATFORM_PACKAGES).join(", ")}); ` +
        installHint(),
    );
  }
  const require = createRequire(import.meta.url);
  let root: string;
  try {
    root = dirname(require.resolve(`${pkg}/package.json`));
  } catch {
    throw new BinaryError(
      `the ${BIN_NAME} binary for ${key} comes in the package ${pkg}, an optional dependency of ` +
        `tinymemory-conformance, which is not installed (npm leaves optional dependencies out with ` +
        "--omit=optional or --no-optional, and when a lockfile made on another platform lacks it): " +
        `install it (\`npm install ${pkg}@${VERSION}\`), or ${installHint()}`,
    );
  }
  const path = join(root, "bin", BIN_NAME + (process.platform === "win32" ? ".exe" : ""));
  if (!isExecutableFile(path)) {
    throw new BinaryError(`the package ${pkg} is installed at ${root} but holds no executable ${path}; ${installHint()}`);
  }
  return path;
}

const checked = new Map<string, string>();

/**
 * `path` (or findBinary()) after checking that `--version` names this
 * package's version: only then do the suite and this library speak one
 * protocol. Throws BinaryError for a binary that does not run, answers
 * something else, or is of another version, naming both versions.
 */
export function checkedBinary(path: string = findBinary()): string {
  const known = checked.get(path);
  if (known !== undefined) return known;
  const done = spawnSync(path, ["--version"], { encoding: "utf8", timeout: QUICK_TIMEOUT_MS });
  if (done.error) throw new BinaryError(`failed to run ${path} --version: ${done.error.message}; ${installHint()}`);
  const m = /^tinymemory-conformance (\S+)\s*$/.exec(done.stdout);
  if (done.status !== 0 || m === null) {
    const said = (done.stdout + done.stderr).trim().slice(0, 200);
    throw new BinaryError(
      `${path} is not a usable ${BIN_NAME}: \`--version\` exited ${done.status} saying ${JSON.stringify(said)}; ${installHint()}`,
    );
  }
  if (m[1] !== VERSION) {
    throw new BinaryError(
      `${path} is ${BIN_NAME} ${m[1]}, but the tinymemory-conformance package is ${VERSION}: the two must be of ` +
        `one version to agree on the exec protocol; ${installHint()}`,
    );
  }
  checked.set(path, path);
  return path;
}

/** One check of `list`: its id, family and one-line rule, and whether it runs only for a driver that declares a framework interface (a driver serving none skips it). */
export interface CheckInfo {
  id: string;
  family: string;
  description: string;
  needsInterface: boolean;
}

/** A check of `list --format json` (docs/reports.md, "`list` JSON"). */
export interface ListedCheck {
  id: string;
  family: string;
  /** True when it runs only for a driver whose hello declares a framework interface (its family's property); absent (false) from a binary older than the field. */
  needs_interface?: boolean;
  profiles: string[];
  rule: string;
  usual_mistake: string | null;
  /** What the runner grants it: max(base_ms, per_case_ms × cases) + per_request_ms × requests. */
  budget: { base_ms: number; per_request_ms: number; per_case_ms: number | null };
}

/** The document of `list --format json`: the checks, the binary's defaults and its exit codes. */
export interface Listing {
  schema_version: number;
  tool_version: string;
  protocol_version: number;
  profile: string | null;
  defaults: {
    check_timeout_ms: number;
    request_allowance_ms: number;
    property_time_per_case_ms: number;
    cases: number;
    call_timeout_ms: number;
  };
  exit_codes: { success: number; failures: number; usage: number; setup: number; no_checks_ran: number; broken_environment: number };
  checks: ListedCheck[];
}

const listings = new Map<string, Listing>();

/** `list --profile PROFILE --format json` of `binary`. Throws BinaryError when the listing fails, is not JSON or holds no check. */
export function listing(binary: string, profile: string): Listing {
  const key = `${binary}\0${profile}`;
  const known = listings.get(key);
  if (known !== undefined) return known;
  const args = ["list", "--profile", profile, "--format", "json"];
  const done = spawnSync(binary, args, { encoding: "utf8", timeout: QUICK_TIMEOUT_MS, maxBuffer: 64 * 1024 * 1024 });
  let listed: Listing | null = null;
  if (!done.error && done.status === 0) {
    try {
      listed = JSON.parse(done.stdout) as Listing;
    } catch {}
  }
  if (listed === null || !Array.isArray(listed.checks) || listed.checks.length === 0) {
    throw new BinaryError(
      `\`${binary} ${args.join(" ")}\` exited ${done.status} listing no check: ` +
        JSON.stringify((done.error?.message ?? done.stderr ?? "").trim().slice(0, 500)),
    );
  }
  listings.set(key, listed);
  return listed;
}

/** The checks of `list --profile PROFILE`, in run order. Throws BinaryError as `listing` does. */
export function listChecks(binary: string, profile: string): CheckInfo[] {
  return listing(binary, profile).checks.map((c) => ({ id: c.id, family: c.family, description: c.rule, needsInterface: c.needs_interface === true }));
}
