#!/usr/bin/env python3
"""A deliberately broken driver: the in-memory example with three bugs that
real drivers have shipped. Run it to see the report a failing author gets:

    tinymemory-conformance run --driver "exec:python3 examples/python/broken_driver.py"

1. recall with namespace None searches every namespace, not "global"
   (caught by recall.none_means_global);
2. recall ignores `limit` (caught by recall.limit);
3. forget answers True even when nothing was there (caught by
   forget.idempotent).

The same bugs fail four more checks, seven in all (python/tests/test_plugin.py
and crates/tinymemory-exec/tests/exec/examples.rs assert exactly these):
bug 1 recall.namespace_isolation (a recall with namespace None is pinned
to "global", and its hits change when other namespaces are written); bug 2
recall.min_score (it compares a recall with min_score against the same
recall without, both limited) and sections.across_merge_order (it counts
the section's direct recalls with limit 1); and model.differential, whose
random call sequences meet them. The optional ops are memory_driver.py's,
unbroken: the portability checks pass.
"""

import os
import sys

# Importing the sibling modules must not leave __pycache__ in examples/.
sys.dont_write_bytecode = True

try:
    import tinymemory.protocol as tp
except ImportError:  # a checkout, nothing installed: the package is in python/
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
    import tinymemory.protocol as tp
from memory_driver import MemoryStore  # noqa: E402


class BrokenStore(MemoryStore):
    def recall(self, query, limit, namespace, category, session_id, min_score):
        if namespace is not None:
            return super().recall(query, 2**62, namespace, category, session_id, min_score)
        # Bug 1: None read as "all namespaces". Bug 2: limit ignored.
        hits = []
        for ns in sorted(self.spaces):
            hits += super().recall(query, 2**62, ns, category, session_id, min_score)
        hits.sort(key=lambda h: (-h["score"], h["namespace"], h["key"]))
        return hits

    def forget(self, namespace, key):
        # Bug 3: not idempotent.
        super().forget(namespace, key)
        return True


if __name__ == "__main__":
    tp.serve(BrokenStore(), "python-broken")
