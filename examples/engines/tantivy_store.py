"""A tinymemory driver over tantivy (tantivy-py, the Rust full-text engine), lexical profile.

    pip install -r examples/engines/requirements.txt
    pytest examples/engines/test_tantivy_store.py

One in-RAM tantivy index per namespace, so BM25's statistics (document
frequency, average length) are the namespace's own and nothing stored
elsewhere moves a pinned recall's scores (recall.namespace_isolation; one
index for every namespace fails it). A document holds:

- ``key``: the entry's key, one raw term (upserts and forgets delete by it);
- ``words``: the content's words (tinymemory.protocol.words: runs of
  letters, numbers and combining marks, lowercased), space-separated and
  indexed with the ``whitespace`` tokenizer. Tantivy's ``default`` tokenizer
  splits at combining marks (Hindi's vowel signs) and drops tokens over
  255 bytes, so the contract's words are cut here instead;
- ``entry``: the entry's other fields as stored JSON bytes.

A query is never parsed: its words become a boolean OR of term queries,
so quotes and ``AND`` are plain text. Scores are BM25, higher is better.
Tantivy returns equal scores in document order; the contract orders ties
by key, so recall takes every match of the namespace and sorts by (score
descending, key).
"""

import importlib.metadata as _metadata
import json

import tantivy

import tinymemory.protocol as tp

# A writer's memory budget: tantivy's floor is 15 MB per thread.
WRITER_HEAP = 15_000_000
# tantivy's longest term (u16 length, bytes); a longer word is indexed
# under its first MAX_TERM_BYTES bytes, and so is a query's.
MAX_TERM_BYTES = 65_000


def _schema():
    builder = tantivy.SchemaBuilder()
    builder.add_text_field("key", stored=True, tokenizer_name="raw", index_option="basic")
    builder.add_text_field("words", stored=False, tokenizer_name="whitespace", index_option="freq")
    builder.add_bytes_field("entry", stored=True, indexed=False)
    return builder.build()


SCHEMA = _schema()


def _term(word):
    raw = word.encode("utf-8", "surrogatepass")
    if len(raw) <= MAX_TERM_BYTES:
        return word
    return raw[:MAX_TERM_BYTES].decode("utf-8", "ignore")


def _words(text):
    return sorted({_term(w) for w in tp.words(text)})


class TantivyStore(tp.Store):
    # Each driver process holds its own engine in RAM: checks may run in
    # several processes at once.
    independent_stores = True
    # PACKAGE==VERSION WHAT: the compatibility matrix (tinymemory.matrix)
    # reads the engine's package and version from the driver id.
    driver_id = f"tantivy=={_metadata.version('tantivy')} tantivy.Index in RAM (examples/engines/tantivy_store.py)"

    def __init__(self):
        self.indexes = {}  # namespace -> tantivy.Index
        self.ids = 0

    def reset(self):
        self.indexes = {}

    def _write(self, namespace, docs):
        """Upserts `docs` ([(key, entry dict)], a later one of a key wins)
        into the namespace's index, in one commit."""
        index = self.indexes.get(namespace)
        if index is None:
            index = self.indexes[namespace] = tantivy.Index(SCHEMA)
        writer = index.writer(heap_size=WRITER_HEAP, num_threads=1)
        for key, entry in docs:
            # A delete removes the documents added before it, so the last
            # add of a key is the one that stays.
            writer.delete_documents_by_term("key", key)
            doc = tantivy.Document()
            doc.add_text("key", key)
            doc.add_text("words", " ".join(_words(entry["content"])))
            doc.add_bytes("entry", json.dumps(entry, ensure_ascii=False).encode("utf-8", "surrogatepass"))
            writer.add_document(doc)
        writer.commit()
        writer.wait_merging_threads()
        index.reload()

    def _entry(self, namespace, key, content, category, session_id, taint, timestamp):
        self.ids += 1
        return tp.entry(self.ids, namespace, key, content, category, timestamp, session_id, taint)

    def store(self, namespace, key, content, category, session_id, taint):
        tp.validate_namespace(namespace)
        tp.validate_key(key)
        entry = self._entry(namespace, key, content, category, session_id, taint, tp.now_rfc3339())
        self._write(namespace, [(key, entry)])

    def store_many(self, entries):
        tp.validate_entries(entries)
        timestamp = tp.now_rfc3339()
        grouped = {}
        for e in entries:
            entry = self._entry(
                e["namespace"], e["key"], e["content"], e["category"], e["session_id"], e["taint"], timestamp
            )
            grouped.setdefault(e["namespace"], []).append((e["key"], entry))
        for namespace, docs in grouped.items():
            self._write(namespace, docs)

    def _search(self, namespace, query):
        """[(score, entry)] of every document of `namespace` matching `query`."""
        index = self.indexes.get(namespace)
        if index is None:
            return []
        searcher = index.searcher()
        if searcher.num_docs == 0:
            return []
        found = searcher.search(query, limit=searcher.num_docs, count=False).hits
        out = []
        for score, address in found:
            raw = searcher.doc(address).get_first("entry")
            out.append((float(score), json.loads(bytes(raw).decode("utf-8", "surrogatepass"))))
        return out

    def _all(self, namespace):
        return [e for _, e in self._search(namespace, tantivy.Query.all_query())]

    def get(self, namespace, key):
        tp.validate_namespace(namespace)
        tp.validate_key(key)
        found = self._search(namespace, tantivy.Query.term_query(SCHEMA, "key", key))
        return found[0][1] if found else None

    def forget(self, namespace, key):
        tp.validate_namespace(namespace)
        tp.validate_key(key)
        if self.get(namespace, key) is None:
            return False
        index = self.indexes[namespace]
        writer = index.writer(heap_size=WRITER_HEAP, num_threads=1)
        writer.delete_documents_by_term("key", key)
        writer.commit()
        writer.wait_merging_threads()
        index.reload()
        if index.searcher().num_docs == 0:
            del self.indexes[namespace]
        return True

    def list(self, namespace, category, session_id):
        if namespace is not None:
            tp.validate_namespace(namespace)
        names = [namespace] if namespace is not None else sorted(self.indexes)
        out = []
        for ns in names:
            entries = sorted(self._all(ns), key=lambda e: e["key"])
            out += [e for e in entries if _matches(e, category, session_id)]
        return out

    def namespaces(self):
        out = []
        for ns in sorted(self.indexes):
            entries = self._all(ns)
            if entries:
                newest = max((e["timestamp"] for e in entries), key=tp.timestamp_key)
                out.append({"namespace": ns, "count": len(entries), "last_updated": newest})
        return out

    def recall(self, query, limit, namespace, category, session_id, min_score):
        namespace = tp.GLOBAL_NAMESPACE if namespace is None else namespace
        tp.validate_namespace(namespace)
        tp.validate_min_score(min_score)
        words = _words(query)
        if limit == 0 or not words:
            return []
        terms = [(tantivy.Occur.Should, tantivy.Query.term_query(SCHEMA, "words", w)) for w in words]
        hits = [
            dict(e, score=score)
            for score, e in self._search(namespace, tantivy.Query.boolean_query(terms))
            if _matches(e, category, session_id) and (min_score is None or score >= min_score)
        ]
        hits.sort(key=lambda h: (-h["score"], h["key"]))
        return hits[:limit]

    def export_page(self, cursor, limit):
        every = {(ns, e["key"]): e for ns in self.indexes for e in self._all(ns)}
        page, next_cursor = tp.page_after(sorted(every), cursor, limit)
        records = []
        for position in page:
            e = every[position]
            records.append(
                tp.record(e["namespace"], e["key"], e["content"], e["category"], e["session_id"], e["taint"], e["timestamp"])
            )
        return {"records": records, "next_cursor": next_cursor}

    def import_records(self, records):
        imported, failures, grouped = 0, [], {}
        for index, r in enumerate(records):
            try:
                tp.validate_record(r)
            except tp.DriverError as error:
                failures.append(tp.import_failure(index, r, error))
                continue
            entry = self._entry(
                r["namespace"], r["key"], r["content"], r["category"], r["session_id"], r["taint"], r["timestamp"]
            )
            grouped.setdefault(r["namespace"], []).append((r["key"], entry))
            imported += 1
        for namespace, docs in grouped.items():
            self._write(namespace, docs)
        return {"imported": imported, "failures": failures}


def _matches(e, category, session_id):
    return (category is None or e["category"] == category) and (
        session_id is None or e["session_id"] == session_id
    )
