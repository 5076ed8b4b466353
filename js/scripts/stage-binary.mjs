// Puts a built tinymemory-conformance binary into a platform package
// before `npm pack` of it:
//
//     node scripts/stage-binary.mjs linux-x64 ../target/release/tinymemory-conformance
//
// Refuses a binary whose --version is not the package's version, so a
// stale build is never published under a new version.
import { chmodSync, copyFileSync, mkdirSync, readFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const [platform, binary] = process.argv.slice(2);
if (!platform || !binary) {
  console.error("usage: node scripts/stage-binary.mjs PLATFORM BINARY   (PLATFORM: a directory of npm/, such as linux-x64)");
  process.exit(2);
}
const dir = fileURLToPath(new URL(`../npm/${platform}/`, import.meta.url));
const manifest = JSON.parse(readFileSync(dir + "package.json", "utf8"));
const main = JSON.parse(readFileSync(fileURLToPath(new URL("../package.json", import.meta.url)), "utf8"));
if (manifest.version !== main.version || main.optionalDependencies?.[manifest.name] !== main.version) {
  console.error(`stage-binary: ${manifest.name}@${manifest.version} is not the optional dependency ${main.name}@${main.version} names`);
  process.exit(1);
}
// Only a binary of this machine's platform can answer --version here;
// a cross-built one is checked by the release job on its own runner.
const native = `${process.platform}-${process.arch}` === platform;
if (native) {
  const done = spawnSync(binary, ["--version"], { encoding: "utf8" });
  if (done.stdout?.trim() !== `tinymemory-conformance ${main.version}`) {
    console.error(`stage-binary: ${binary} --version said ${JSON.stringify(done.stdout ?? done.error?.message)}, not tinymemory-conformance ${main.version}`);
    process.exit(1);
  }
}
const name = "tinymemory-conformance" + (platform.startsWith("win32") ? ".exe" : "");
mkdirSync(dir + "bin", { recursive: true });
copyFileSync(binary, dir + "bin/" + name);
chmodSync(dir + "bin/" + name, 0o755);
console.log(`staged ${binary} as ${manifest.name}/bin/${name}`);
