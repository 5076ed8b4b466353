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
tinymemory_protocol.split_words cuts text (letters, numbers, combining
marks), each word becomes an FTS5 string ("..." with inner quotes
doubled), and the strings are joined with OR, so no user text is ever FTS5
syntax. The index uses the same word characters (`unicode61` with
categories 'L* N* M*', diacritics kept; FTS5 folds case on both sides). Scores are -bm25():
FTS5 ranks lower-is-better, the contract wants higher-is-better. Ties are
ordered by key.
"""

import sqlite3
import sys

# Importing the sibling module must not leave __pycache__ in examples/.
sys.dont_write_bytecode = True

import tinymemory_protocol as tp  # noqa: E402

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
CREATE VIRTUAL TABLE entries_fts USING fts5(
    content,
    tokenize = "unicode61 categories 'L* N* M*' remove_diacritics 0"
);
"""

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
    def __init__(self, path):
        self.db = sqlite3.connect(path, isolation_level=None)
        self.db.execute("PRAGMA journal_mode = WAL")
        existing = self.db.execute(
            "SELECT count(*) FROM sqlite_master WHERE name = 'entries'"
        ).fetchone()[0]
        if not existing:
            self.db.executescript(SCHEMA)

    def reset(self):
        with self._transaction():
            self.db.execute("DELETE FROM entries")
            self.db.execute("DELETE FROM entries_fts")

    def _transaction(self):
        return _Transaction(self.db)

    def store(self, namespace, key, content, category, session_id, taint):
        tp.validate_namespace(namespace)
        tp.validate_key(key)
        with self._transaction():
            row = self.db.execute(
                """INSERT INTO entries (namespace, key, content, category, timestamp, session_id, taint)
                   VALUES (?, ?, ?, ?, ?, ?, ?)
                   ON CONFLICT (namespace, key) DO UPDATE SET
                     content = excluded.content, category = excluded.category,
                     timestamp = excluded.timestamp, session_id = excluded.session_id,
                     taint = excluded.taint
                   RETURNING id""",
                (namespace, key, content, category, tp.now_rfc3339(), session_id, taint),
            ).fetchone()
            self.db.execute("DELETE FROM entries_fts WHERE rowid = ?", (row[0],))
            self.db.execute("INSERT INTO entries_fts (rowid, content) VALUES (?, ?)", (row[0], content))

    def get(self, namespace, key):
        tp.validate_namespace(namespace)
        row = self.db.execute(
            f"SELECT {COLUMNS} FROM entries e WHERE e.namespace = ? AND e.key = ?", (namespace, key)
        ).fetchone()
        return _entry(row) if row else None

    def forget(self, namespace, key):
        tp.validate_namespace(namespace)
        with self._transaction():
            row = self.db.execute(
                "DELETE FROM entries WHERE namespace = ? AND key = ? RETURNING id", (namespace, key)
            ).fetchone()
            if row is None:
                return False
            self.db.execute("DELETE FROM entries_fts WHERE rowid = ?", (row[0],))
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
        rows = self.db.execute(
            "SELECT namespace, count(*), max(timestamp) FROM entries GROUP BY namespace ORDER BY namespace"
        )
        return [{"namespace": ns, "count": n, "last_updated": last} for ns, n, last in rows]

    def recall(self, query, limit, namespace, category, session_id, min_score):
        namespace = tp.GLOBAL_NAMESPACE if namespace is None else namespace
        tp.validate_namespace(namespace)
        tp.validate_min_score(min_score)
        expression = match_expression(query)
        if limit == 0 or expression is None:
            return []
        sql = f"""SELECT {COLUMNS}, bm25(entries_fts) AS rank
                  FROM entries_fts JOIN entries e ON e.id = entries_fts.rowid
                  WHERE entries_fts MATCH ? AND e.namespace = ?"""
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
    """BEGIN ... COMMIT, or ROLLBACK when the block raises."""

    def __init__(self, db):
        self.db = db

    def __enter__(self):
        self.db.execute("BEGIN")

    def __exit__(self, kind, value, tb):
        self.db.execute("ROLLBACK" if kind else "COMMIT")
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
