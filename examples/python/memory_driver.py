#!/usr/bin/env python3
"""An in-memory tinymemory driver over the exec protocol: the Python twin of
the Rust reference driver, short enough to read in one sitting.

    tinymemory-conformance run --driver "exec:python3 examples/python/memory_driver.py"

Scoring: the fraction of the query's distinct words present in the entry's
words, in (0, 1]; entries scoring 0 are not hits. Hits are ordered by score
descending, then key ascending. A score depends on the query and the entry
only, so no namespace's entries change another's (recall.namespace_isolation).

Optional ops: all three. store_many validates every entry before writing
any (all or nothing); export_page pages over the sorted (namespace, key)
pairs with tp.page_after (keyset cursors, checksummed: a cursor this driver
did not issue is refused with export.cursor_unknown); import_records keeps
each valid record's timestamp and taint as given and reports the others.
"""

import itertools
import os
import sys

# Importing the sibling module must not leave __pycache__ in examples/.
sys.dont_write_bytecode = True

try:
    import tinymemory.protocol as tp
except ImportError:  # a checkout, nothing installed: the package is in python/
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
    import tinymemory.protocol as tp


class MemoryStore(tp.Store):
    # Each process keeps its entries in its own memory: run --jobs may run
    # checks at once, one process each.
    independent_stores = True

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

    def store_many(self, entries):
        tp.validate_entries(entries)
        timestamp = tp.now_rfc3339()
        for e in entries:
            self.spaces.setdefault(e["namespace"], {})[e["key"]] = tp.entry(
                next(self.ids), e["namespace"], e["key"], e["content"], e["category"], timestamp,
                e["session_id"], e["taint"],
            )

    def export_page(self, cursor, limit):
        positions = sorted((ns, key) for ns, space in self.spaces.items() for key in space)
        page, next_cursor = tp.page_after(positions, cursor, limit)
        records = []
        for ns, key in page:
            e = self.spaces[ns][key]
            records.append(
                tp.record(ns, key, e["content"], e["category"], e["session_id"], e["taint"], e["timestamp"])
            )
        return {"records": records, "next_cursor": next_cursor}

    def import_records(self, records):
        imported, failures = 0, []
        for index, r in enumerate(records):
            try:
                tp.validate_record(r)
            except tp.DriverError as error:
                failures.append(tp.import_failure(index, r, error))
                continue
            self._put(r)
            imported += 1
        return {"imported": imported, "failures": failures}

    def _put(self, r):
        """Writes record `r` as given, its timestamp included."""
        self.spaces.setdefault(r["namespace"], {})[r["key"]] = tp.entry(
            next(self.ids), r["namespace"], r["key"], r["content"], r["category"], r["timestamp"],
            r["session_id"], r["taint"],
        )

    def get(self, namespace, key):
        tp.validate_namespace(namespace)
        tp.validate_key(key)
        found = self.spaces.get(namespace, {}).get(key)
        return dict(found) if found else None

    def forget(self, namespace, key):
        tp.validate_namespace(namespace)
        tp.validate_key(key)
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
                "last_updated": max((e["timestamp"] for e in space.values()), key=tp.timestamp_key),
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
