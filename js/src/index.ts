/**
 * tinymemory-conformance for JavaScript and TypeScript: validate a memory
 * store against the tinymemory contract.
 *
 * - `tinymemory-conformance/protocol`: the exec protocol's driver side
 *   (`serve`, the `Store` interface, the contract's helpers), re-exported here.
 * - `tinymemory-conformance/node-test`: `conformance({ driver })`, one
 *   node:test test per check (docs/validate-js-driver.md);
 *   `tinymemory-conformance/vitest`: the same for vitest.
 * - `tinymemory-conformance/langgraph`, `/langchain`, `/mastra`,
 *   `/embedding`: adapters over LangGraph.js's BaseStore, LangChain.js's
 *   VectorStore and Mastra's MastraVector, and a deterministic offline
 *   embedding (docs/adapters.md); `engineId` here, the driver id the
 *   compatibility matrix reads an engine's package and version from.
 * - the `tinymemory-conformance` command: the suite's binary, from the
 *   platform package npm installed with this one; `tinymemory-serve
 *   MODULE[#EXPORT]` serves a store module over the protocol.
 */

export * from "./protocol/index.js";
export { BIN_ENV, BinaryError, PLATFORM_PACKAGES, checkedBinary, findBinary, listChecks, listing, platformKey } from "./binary.js";
export type { CheckInfo, ListedCheck, Listing } from "./binary.js";
export { bundledCorpus } from "./corpus.js";
export { VERSION } from "./package-info.js";
export { engineId, packageVersion } from "./adapters/engine-id.js";
