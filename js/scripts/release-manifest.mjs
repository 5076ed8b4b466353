// The main package's manifest as it is published: its optionalDependencies
// name every platform package of npm/ at the main package's version.
//
//     node scripts/release-manifest.mjs          # checks, then rewrites package.json
//     node scripts/release-manifest.mjs --check  # checks only, writes nothing
//
// The repository's package.json names only the platform packages this
// machine can install as workspaces (npm refuses a workspace whose os or
// cpu is not the machine's, so `npm ci` could not run with them all); the
// release job runs this after `npm ci` and `npm run build`, just before
// `npm publish`, as napi-rs's `napi prepublish` does. It refuses (exit 1,
// writing nothing) when a platform directory's package is not named
// tinymemory-conformance-<dir> or not of the main version, or when
// PLATFORM_PACKAGES in src/binary.ts (read from the built dist/binary.js)
// does not name exactly the platforms of npm/: a binary published for a
// platform the main package cannot find, or looked for and never
// published, would reach users as "not installed".
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../", import.meta.url));
const check = process.argv.includes("--check");
const mainPath = root + "package.json";
const main = JSON.parse(readFileSync(mainPath, "utf8"));
const errors = [];

const dirs = readdirSync(root + "npm", { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(`${root}npm/${d.name}/package.json`))
  .map((d) => d.name)
  .sort();
const optional = {};
for (const dir of dirs) {
  const manifest = JSON.parse(readFileSync(`${root}npm/${dir}/package.json`, "utf8"));
  if (manifest.name !== `tinymemory-conformance-${dir}`) {
    errors.push(`npm/${dir}/package.json is named ${JSON.stringify(manifest.name)}, not "tinymemory-conformance-${dir}"`);
  }
  if (manifest.version !== main.version) {
    errors.push(`npm/${dir}/package.json is version ${JSON.stringify(manifest.version)}, not the main package's ${JSON.stringify(main.version)}`);
  }
  optional[manifest.name] = main.version;
}

const binaryJs = root + "dist/binary.js";
if (!existsSync(binaryJs)) {
  errors.push("dist/binary.js is missing: run `npm run build` first (its PLATFORM_PACKAGES are compared with npm/)");
} else {
  const { PLATFORM_PACKAGES } = await import(new URL("../dist/binary.js", import.meta.url));
  const looked = Object.keys(PLATFORM_PACKAGES).sort();
  for (const key of looked) {
    if (!dirs.includes(key)) errors.push(`PLATFORM_PACKAGES names ${key}, which has no npm/${key} package`);
    else if (PLATFORM_PACKAGES[key] !== `tinymemory-conformance-${key}`) {
      errors.push(`PLATFORM_PACKAGES maps ${key} to ${PLATFORM_PACKAGES[key]}, not tinymemory-conformance-${key}`);
    }
  }
  for (const dir of dirs) {
    if (!looked.includes(dir)) errors.push(`npm/${dir} is a package PLATFORM_PACKAGES (src/binary.ts) does not name`);
  }
}

if (errors.length > 0) {
  for (const e of errors) console.error(`release-manifest: ${e}`);
  process.exit(1);
}
if (check) {
  console.log(`release-manifest: ${dirs.length} platform packages at ${main.version}: ${dirs.join(", ")}`);
} else {
  main.optionalDependencies = optional;
  writeFileSync(mainPath, JSON.stringify(main, null, 2) + "\n");
  console.log(`release-manifest: package.json names ${Object.keys(optional).join(", ")} at ${main.version}`);
}
