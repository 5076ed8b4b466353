#!/usr/bin/env python3
"""A tinymemory driver over SQLite with FTS5, through Python's sqlite3
module, speaking the exec protocol.

    tinymemory-conformance run --driver "exec:python3 examples/python/sqlite_driver.py"

The database is in memory unless a path is given (`sqlite_driver.py PATH`);
`reset` empties it either way. Do not give a path when validating: the
suite runs several processes of a driver at once (one holds the corpus
while others serve the checks), and they must not share a database. Requires SQLite 3.35 or newer with FTS5 (the script says so on stderr
and exits 3 when this Python's sqlite3 lacks either).

Recall: the query is cut into words exactly as
tinymemory.protocol.split_words cuts text (letters, numbers, combining
marks), each word becomes an FTS5 string ("..." with inner quotes
doubled), and the strings are joined with OR, so no user text is ever FTS5
syntax. The index uses the same word characters (`unicode61` with
categories 'L* N* M*', diacritics kept; FTS5 folds case on both sides). Scores are -bm25():
FTS5 ranks lower-is-better, the contract wants higher-is-better. Ties are
ordered by key.

One FTS5 table per namespace (`fts_1`, `fts_2`, ..., named in
`fts_tables`): FTS5's bm25() (Robertson and Zaragoza's Okapi BM25, k1 = 1.2,
b = 0.75) takes its statistics (document count, average length, document
frequency of each term) from the table it ranks, so with one table per
namespace a recall's scores, and therefore its hits at the `limit`
cut-off, depend on its namespace alone (contract sentence 11,
recall.namespace_isolation). With one table for every namespace, writing
to namespace B changed the scores of a recall pinned to A. A file made
with that single table (`entries_fts`) is moved to this layout when
opened, in one transaction.

Optional ops: all three. store_many validates every entry, then writes
them in one transaction (all or nothing); export_page is keyset paging in
(namespace, key) order with tp's checksummed cursors (a cursor this driver
did not issue is refused with export.cursor_unknown); import_records
writes the valid records in one transaction, keeping their timestamps and
taint, and reports the others.
"""

import sqlite3
import os
import sys

# Importing the sibling module must not leave __pycache__ in examples/.
sys.dont_write_bytecode = True

try:
    import tinymemory.protocol as tp
except ImportError:  # a checkout, nothing installed: the package is in python/
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
    import tinymemory.protocol as tp

MAX_QUERY_TERMS = 256

SCHEMA = """
CREATE TABLE entries (
    id INTEGER PRIMARY KEY,
    namespace TEXT NOT NULL,
    key TEXT NOT NULL,
    content TEXT NOT NULL,
    category TEXT NOT NULL,
    timestamp TEXT NOT NULL,
    session_id TEXT,
    taint TEXT NOT NULL,
    UNIQUE (namespace, key)
);
"""

FTS_TABLES = """CREATE TABLE fts_tables (
    namespace TEXT PRIMARY KEY,
    name TEXT NOT NULL UNIQUE
)"""

FTS_TABLE = """CREATE VIRTUAL TABLE {name} USING fts5(
    content,
    tokenize = "unicode61 categories 'L* N* M*' remove_diacritics 0"
)"""

# SQLite integers are signed 64-bit; a larger LIMIT is no limit anyway.
MAX_SQL_LIMIT = 2**63 - 1

COLUMNS = "e.id, e.namespace, e.key, e.content, e.category, e.timestamp, e.session_id, e.taint"


def _entry(row, score=None):
    id, namespace, key, content, category, timestamp, session_id, taint = row[:8]
    return tp.entry(id, namespace, key, content, category, timestamp, session_id, taint, score)


def match_expression(query):
    """The FTS5 MATCH expression for a plain-text query, or None when it
    holds no word."""
    terms = list(dict.fromkeys(tp.split_words(query)))[:MAX_QUERY_TERMS]
    if not terms:
        return None
    return " OR ".join('"' + t.replace('"', '""') + '"' for t in terms)


class SqliteStore(tp.Store):
    def __init__(self, path=":memory:"):
        # A private in-memory database per process is a store of its own;
        # processes opening one file share it, and must not run at once.
        self.independent_stores = path == ":memory:"
        self.db = sqlite3.connect(path, isolation_level=None)
        self.db.execute("PRAGMA journal_mode = WAL")
        tables = {row[0] for row in self.db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        self.fts = {}
        if "entries" not in tables:
            self.db.executescript(SCHEMA)
            self.db.execute(FTS_TABLES)
        elif "fts_tables" not in tables:
            self._migrate_single_index()
        # namespace -> its FTS5 table's name
        self.fts = dict(self.db.execute("SELECT namespace, name FROM fts_tables"))

    def _migrate_single_index(self):
        """A file of the first layout (one `entries_fts` for every
        namespace): one table per namespace, rebuilt from `entries`."""
        with _Transaction(self, reread=False):
            self.db.execute(FTS_TABLES)
            rows = self.db.execute("SELECT id, namespace, content FROM entries ORDER BY id").fetchall()
            for id, namespace, content in rows:
                self.db.execute(f"INSERT INTO {self._fts(namespace)} (rowid, content) VALUES (?, ?)", (id, content))
            self.db.execute("DROP TABLE IF EXISTS entries_fts")

    def _fts(self, namespace):
        """The FTS5 table of `namespace`, created on first use (inside the
        caller's transaction)."""
        name = self.fts.get(namespace)
        if name is None:
            name = f"fts_{len(self.fts) + 1}"
            while name in self.fts.values():
                name += "_"
            self.db.execute(FTS_TABLE.format(name=name))
            self.db.execute("INSERT INTO fts_tables (namespace, name) VALUES (?, ?)", (namespace, name))
            self.fts[namespace] = name
        return name

    def reset(self):
        with self._transaction():
            self.db.execute("DELETE FROM entries")
            for name in self.fts.values():
                self.db.execute(f"DROP TABLE {name}")
            self.db.execute("DELETE FROM fts_tables")
        self.fts = {}

    def _transaction(self):
        return _Transaction(self)

    def store(self, namespace, key, content, category, session_id, taint):
        tp.validate_namespace(namespace)
        tp.validate_key(key)
        with self._transaction():
            self._write(namespace, key, content, category, session_id, taint, tp.now_rfc3339())

    def _write(self, namespace, key, content, category, session_id, taint, timestamp):
        """Upserts one entry and its index row (inside a transaction)."""
        row = self.db.execute(
            """INSERT INTO entries (namespace, key, content, category, timestamp, session_id, taint)
               VALUES (?, ?, ?, ?, ?, ?, ?)
               ON CONFLICT (namespace, key) DO UPDATE SET
                 content = excluded.content, category = excluded.category,
                 timestamp = excluded.timestamp, session_id = excluded.session_id,
                 taint = excluded.taint
               RETURNING id""",
            (namespace, key, content, category, timestamp, session_id, taint),
        ).fetchone()
        fts = self._fts(namespace)
        self.db.execute(f"DELETE FROM {fts} WHERE rowid = ?", (row[0],))
        self.db.execute(f"INSERT INTO {fts} (rowid, content) VALUES (?, ?)", (row[0], content))

    def store_many(self, entries):
        tp.validate_entries(entries)
        timestamp = tp.now_rfc3339()
        with self._transaction():
            for e in entries:
                self._write(
                    e["namespace"], e["key"], e["content"], e["category"], e["session_id"], e["taint"], timestamp
                )

    def export_page(self, cursor, limit):
        after = None if cursor is None else tp.decode_cursor(cursor)
        sql, args = f"SELECT {COLUMNS} FROM entries e", []
        if after is not None:
            # Row values compare column by column; TEXT compares bytewise
            # (BINARY), the export order.
            sql += " WHERE (e.namespace, e.key) > (?, ?)"
            args += list(after)
        sql += " ORDER BY e.namespace, e.key LIMIT ?"
        # One row more than the page tells whether another page follows.
        args.append(min(limit, MAX_SQL_LIMIT - 1) + 1)
        rows = self.db.execute(sql, args).fetchall()
        page = rows[:limit]
        records = [tp.record(r[1], r[2], r[3], r[4], r[6], r[7], r[5]) for r in page]
        if len(rows) <= limit:
            return {"records": records, "next_cursor": None}
        last = (page[-1][1], page[-1][2]) if page else after
        return {"records": records, "next_cursor": tp.encode_cursor(last)}

    def import_records(self, records):
        imported, failures = 0, []
        with self._transaction():
            for index, r in enumerate(records):
                try:
                    tp.validate_record(r)
                except tp.DriverError as error:
                    failures.append(tp.import_failure(index, r, error))
                    continue
                self._write(
                    r["namespace"], r["key"], r["content"], r["category"], r["session_id"], r["taint"],
                    r["timestamp"],
                )
                imported += 1
        return {"imported": imported, "failures": failures}

    def get(self, namespace, key):
        tp.validate_namespace(namespace)
        tp.validate_key(key)
        row = self.db.execute(
            f"SELECT {COLUMNS} FROM entries e WHERE e.namespace = ? AND e.key = ?", (namespace, key)
        ).fetchone()
        return _entry(row) if row else None

    def forget(self, namespace, key):
        tp.validate_namespace(namespace)
        tp.validate_key(key)
        with self._transaction():
            row = self.db.execute(
                "DELETE FROM entries WHERE namespace = ? AND key = ? RETURNING id", (namespace, key)
            ).fetchone()
            if row is None:
                return False
            self.db.execute(f"DELETE FROM {self.fts[namespace]} WHERE rowid = ?", (row[0],))
            return True

    def list(self, namespace, category, session_id):
        if namespace is not None:
            tp.validate_namespace(namespace)
        sql, args = f"SELECT {COLUMNS} FROM entries e WHERE 1", []
        for column, value in (("namespace", namespace), ("category", category), ("session_id", session_id)):
            if value is not None:
                sql += f" AND e.{column} = ?"
                args.append(value)
        sql += " ORDER BY e.namespace, e.key"
        return [_entry(row) for row in self.db.execute(sql, args)]

    def namespaces(self):
        # max(timestamp) in SQL would be bytewise, which is not time order
        # once an import kept another spelling ('+02:00', '.5Z').
        out = []
        for ns, timestamp in self.db.execute("SELECT namespace, timestamp FROM entries ORDER BY namespace"):
            if out and out[-1]["namespace"] == ns:
                out[-1]["count"] += 1
                out[-1]["last_updated"] = max(out[-1]["last_updated"], timestamp, key=tp.timestamp_key)
            else:
                out.append({"namespace": ns, "count": 1, "last_updated": timestamp})
        return out

    def recall(self, query, limit, namespace, category, session_id, min_score):
        namespace = tp.GLOBAL_NAMESPACE if namespace is None else namespace
        tp.validate_namespace(namespace)
        tp.validate_min_score(min_score)
        expression = match_expression(query)
        fts = self.fts.get(namespace)
        if limit == 0 or expression is None or fts is None:
            return []
        sql = f"""SELECT {COLUMNS}, bm25({fts}) AS rank
                  FROM {fts} JOIN entries e ON e.id = {fts}.rowid
                  WHERE {fts} MATCH ? AND e.namespace = ?"""
        args = [expression, namespace]
        for column, value in (("category", category), ("session_id", session_id)):
            if value is not None:
                sql += f" AND e.{column} = ?"
                args.append(value)
        sql += " ORDER BY rank, e.key"
        hits = []
        for row in self.db.execute(sql, args):
            # bm25() is lower-is-better; negate (and turn -0.0 into 0.0).
            score = -row[8] + 0.0
            if min_score is not None and score < min_score:
                continue
            hits.append(_entry(row, score))
            if len(hits) == limit:
                break
        return hits


class _Transaction:
    """BEGIN ... COMMIT, or ROLLBACK when the block raises (and then the
    store's map of FTS5 tables is read back, since tables it created in
    the block are gone)."""

    def __init__(self, store, reread=True):
        self.store = store
        self.reread = reread

    def __enter__(self):
        self.store.db.execute("BEGIN")

    def __exit__(self, kind, value, tb):
        db = self.store.db
        db.execute("ROLLBACK" if kind else "COMMIT")
        if kind and self.reread:
            self.store.fts = dict(db.execute("SELECT namespace, name FROM fts_tables"))
        return False


def _check_sqlite():
    # RETURNING needs 3.35; FTS5 is a compile-time option.
    if sqlite3.sqlite_version_info < (3, 35, 0):
        print(f"sqlite_driver.py: needs SQLite 3.35 or newer, this Python has {sqlite3.sqlite_version}", file=sys.stderr)
        sys.exit(3)
    try:
        sqlite3.connect(":memory:").execute("CREATE VIRTUAL TABLE t USING fts5(x)")
    except sqlite3.OperationalError as e:
        print(f"sqlite_driver.py: this Python's SQLite {sqlite3.sqlite_version} has no FTS5: {e}", file=sys.stderr)
        sys.exit(3)


if __name__ == "__main__":
    _check_sqlite()
    tp.serve(SqliteStore(sys.argv[1] if len(sys.argv) > 1 else ":memory:"), "python-sqlite")
