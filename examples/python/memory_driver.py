#!/usr/bin/env python3
"""An in-memory tinymemory driver over the exec protocol: the Python twin of
the Rust reference driver, short enough to read in one sitting.

    tinymemory-conformance run --driver "exec:python3 examples/python/memory_driver.py"

Scoring: the fraction of the query's distinct words present in the entry's
words, in (0, 1]; entries scoring 0 are not hits. Hits are ordered by score
descending, then key ascending.
"""

import itertools
import sys

# Importing the sibling module must not leave __pycache__ in examples/.
sys.dont_write_bytecode = True

import tinymemory_protocol as tp  # noqa: E402


class MemoryStore(tp.Store):
    def __init__(self):
        # namespace -> key -> entry (wire form, score None)
        self.spaces = {}
        self.ids = itertools.count(1)

    def reset(self):
        self.spaces = {}

    def store(self, namespace, key, content, category, session_id, taint):
        tp.validate_namespace(namespace)
        tp.validate_key(key)
        self.spaces.setdefault(namespace, {})[key] = tp.entry(
            next(self.ids), namespace, key, content, category, tp.now_rfc3339(), session_id, taint
        )

    def get(self, namespace, key):
        tp.validate_namespace(namespace)
        found = self.spaces.get(namespace, {}).get(key)
        return dict(found) if found else None

    def forget(self, namespace, key):
        tp.validate_namespace(namespace)
        space = self.spaces.get(namespace, {})
        if key not in space:
            return False
        del space[key]
        if not space:
            del self.spaces[namespace]
        return True

    def list(self, namespace, category, session_id):
        if namespace is not None:
            tp.validate_namespace(namespace)
        names = [namespace] if namespace is not None else sorted(self.spaces)
        out = []
        for ns in names:
            for key in sorted(self.spaces.get(ns, {})):
                e = self.spaces[ns][key]
                if _matches(e, category, session_id):
                    out.append(dict(e))
        return out

    def namespaces(self):
        return [
            {
                "namespace": ns,
                "count": len(space),
                "last_updated": max(e["timestamp"] for e in space.values()),
            }
            for ns, space in sorted(self.spaces.items())
        ]

    def recall(self, query, limit, namespace, category, session_id, min_score):
        namespace = tp.GLOBAL_NAMESPACE if namespace is None else namespace
        tp.validate_namespace(namespace)
        tp.validate_min_score(min_score)
        if limit == 0:
            return []
        wanted = set(tp.words(query))
        if not wanted:
            return []
        hits = []
        for key in sorted(self.spaces.get(namespace, {})):
            e = self.spaces[namespace][key]
            if not _matches(e, category, session_id):
                continue
            matched = len(wanted & set(tp.words(e["content"])))
            score = matched / len(wanted)
            if matched and (min_score is None or score >= min_score):
                hits.append(dict(e, score=score))
        # Python's sort is stable and the keys were visited in order, so
        # equal scores stay ordered by key.
        hits.sort(key=lambda h: -h["score"])
        return hits[:limit]


def _matches(e, category, session_id):
    return (category is None or e["category"] == category) and (
        session_id is None or e["session_id"] == session_id
    )


if __name__ == "__main__":
    tp.serve(MemoryStore(), "python-memory")
