#!/usr/bin/env node
// The suite's binary, run with this command line: the one of the platform
// package installed with tinymemory-conformance (or $TINYMEMORY_CONFORMANCE_BIN).
// `run` and `replay` get the corpus this package carries unless the line
// names one (--corpus DIR) or none (--no-corpus): the binary's own default
// is the checkout it was built from, which is not on this machine.
import { spawnSync } from "node:child_process";
import { BinaryError, findBinary } from "../dist/binary.js";
import { bundledCorpus } from "../dist/corpus.js";

const args = process.argv.slice(2);
let binary;
try {
  binary = findBinary();
} catch (e) {
  if (!(e instanceof BinaryError)) throw e;
  process.stderr.write(`tinymemory-conformance: ${e.message}\n`);
  process.exit(3);
}
const corpus = bundledCorpus();
const namesCorpus = args.some((a) => a === "--corpus" || a.startsWith("--corpus=") || a === "--no-corpus");
if ((args[0] === "run" || args[0] === "replay") && !namesCorpus && corpus !== null) {
  args.splice(1, 0, "--corpus", corpus);
}
const done = spawnSync(binary, args, { stdio: "inherit" });
if (done.error) {
  process.stderr.write(`tinymemory-conformance: failed to run ${binary}: ${done.error.message}\n`);
  process.exit(3);
}
if (done.signal) process.kill(process.pid, done.signal);
process.exit(done.status ?? 1);
