// A node:test reporter writing each test:pass and test:fail event as one
// JSON line (name, nesting, skip, error message): how broken.test.js reads
// the outcome of broken.conformance.js (node:test's run() refuses to run
// inside a test file).
export default async function* jsonReporter(source) {
  for await (const event of source) {
    if (event.type !== "test:pass" && event.type !== "test:fail") continue;
    const { name, nesting, skip, details } = event.data;
    const error = details?.error;
    yield JSON.stringify({ type: event.type, name, nesting, skip: skip ?? false, message: error?.cause?.message ?? error?.message ?? null }) + "\n";
  }
}
