#!/usr/bin/env node
// The suite's binary, run with this command line: the one of the platform
// package installed with tinymemory-conformance (or $TINYMEMORY_CONFORMANCE_BIN).
// `run` and `replay` get the corpus this package carries unless the line
// names one (--corpus DIR) or none (--no-corpus): the binary's own default
// is the checkout it was built from, which is not on this machine.
import { spawn } from "node:child_process";
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
const child = spawn(binary, args, { stdio: "inherit" });
// A signal to this process goes on to the binary, which then ends its
// driver processes (docs/protocol.md, "End"); its exit is this one's.
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => child.kill(signal));
child.on("error", (e) => {
  process.stderr.write(`tinymemory-conformance: failed to run ${binary}: ${e.message}\n`);
  process.exit(3);
});
child.on("exit", (code, signal) => {
  if (signal) {
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  } else {
    process.exit(code ?? 1);
  }
});
