#!/usr/bin/env node
// `tinymemory-serve MODULE[#EXPORT]`: dist/serve-cli.js's main.
import { main } from "../dist/serve-cli.js";

process.exitCode = await main();
