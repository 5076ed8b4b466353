// A deliberately broken store: memory-store.js with three bugs real
// stores have shipped, the same as examples/python/broken_driver.py's.
//
// 1. recall with namespace null searches every namespace, not "global"
//    (caught by recall.none_means_global);
// 2. recall ignores `limit` (caught by recall.limit);
// 3. forget answers true even when nothing was there (caught by
//    forget.idempotent).
//
// The same bugs fail four more checks, seven in all (test/broken.test.js
// asserts exactly these): bug 1 recall.namespace_isolation (a recall with
// namespace null is pinned to "global", and its hits change when other
// namespaces are written); bug 2 recall.min_score (it compares a recall
// with min_score against the same recall without, both limited) and
// sections.across_merge_order (it counts the section's direct recalls
// with limit 1); and model.differential, whose random call sequences
// meet them. The optional ops are memory-store.js's, unbroken.
import { compareBytes } from "tinymemory-conformance/protocol";
import MemoryStore from "./memory-store.js";

/** The checks this store fails, in run order. */
export const EXPECTED_FAILURES = [
  "recall.none_means_global",
  "recall.limit",
  "recall.min_score",
  "forget.idempotent",
  "recall.namespace_isolation",
  "sections.across_merge_order",
  "model.differential",
];

export default class BrokenStore extends MemoryStore {
  driverId = "js-broken";

  recall(request) {
    const all = { ...request, limit: 2 ** 62 };
    if (request.namespace !== null) return super.recall(all);
    // Bug 1: null read as "all namespaces". Bug 2: limit ignored.
    const hits = [];
    for (const namespace of this.spaces.keys()) hits.push(...super.recall({ ...all, namespace }));
    return hits.sort((a, b) => b.score - a.score || compareBytes(a.namespace, b.namespace) || compareBytes(a.key, b.key));
  }

  forget(request) {
    // Bug 3: not idempotent.
    super.forget(request);
    return true;
  }
}
