"""AsyncPostgresStore, the async twin of PostgresStore, has PostgresStore's
faults (docs/compatibility.md's row), and its setup refuses the exact scan
that avoids one of them.

langgraph-checkpoint-postgres 3.2.0, langgraph/store/postgres/aio.py, with
an index and an AsyncConnection made as ``from_conn_string`` makes one
(``prepare_threshold=0``):

- ``setup()`` with ``ann_index_config`` kind "flat" raises ``ValueError:
  Invalid index_type for pgvector: flat``, which ``PostgresStore.setup``
  takes (an exact scan, no vector index);
- so the vectors get the default HNSW index, and a search filtered by
  namespace loses items once other namespaces hold more (the generic
  plan scans the index, then filters; repro_langgraph_postgres_filtered_hnsw.py
  explains it for PostgresStore): recall.namespace_isolation,
  namespace.reserved_words;
- a search with a limit above about 2^62 raises ``NumericValueOutOfRange:
  bigint out of range`` (its inner LIMIT is ``limit * 2 + 1``):
  recall.huge_limit;
- a key, or a value's text, holding U+0000 cannot be put (``DataError:
  PostgreSQL text fields cannot contain NUL (0x00) bytes``;
  ``UntranslatableCharacter`` from jsonb): store.hostile_text_round_trip,
  store.big_content_round_trip, recall.hostile_queries,
  portability.round_trip, portability.import_hostile.

Found through tinymemory.adapters.langgraph with ``use_async = True``
(tried outside CI, docs/adapters.md). Expected: every item of the
namespace up to the limit, every hit, and the key and text stored as
given.

    pip install langgraph-checkpoint-postgres psycopg-binary pgserver
    TINYMEMORY_POSTGRES_URL=postgres://... python repro_langgraph_asyncpostgres.py   # exits 1 while a fault is there
"""

import asyncio
import os
import random
import sys

import psycopg
from langgraph.store.postgres.aio import AsyncPostgresStore
from psycopg.rows import dict_row

rng = random.Random(7)
vectors = {"comet": [1.0] + [0.0] * 15}


def embed(texts):
    return [vectors.setdefault(t, [rng.uniform(-1, 1) for _ in range(16)]) for t in texts]


URL = os.environ["TINYMEMORY_POSTGRES_URL"]
faults = []


async def connect(schema):
    return await psycopg.AsyncConnection.connect(
        URL, autocommit=True, prepare_threshold=0, row_factory=dict_row, options=f"-c search_path={schema},public"
    )


async def attempt(what, call):
    try:
        return await call
    except Exception as e:  # noqa: BLE001  (the faults raise three types)
        faults.append(f"{what}: {type(e).__name__}: {e}".splitlines()[0])
        return None


async def main():
    async with await psycopg.AsyncConnection.connect(URL, autocommit=True) as admin:
        await admin.execute("CREATE EXTENSION IF NOT EXISTS vector SCHEMA public")
        for schema in ("repro_async_flat", "repro_async"):
            await admin.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
            await admin.execute(f"CREATE SCHEMA {schema}")
    async with await connect("repro_async_flat") as conn:
        flat = {"dims": 16, "embed": embed, "fields": ["text"], "ann_index_config": {"kind": "flat"}}
        await attempt('setup() with ann_index_config kind "flat"', AsyncPostgresStore(conn, index=flat).setup())
    async with await connect("repro_async") as conn:
        store = AsyncPostgresStore(conn, index={"dims": 16, "embed": embed, "fields": ["text"]})
        await store.setup()
        for i in range(10):
            await store.aput(("a",), f"a{i}", {"text": f"a {i}"})
        counts = []
        for i in range(200):
            await store.aput(("b",), f"b{i}", {"text": f"b {i}"})
            if i % 20 == 19:
                counts.append(len(await store.asearch(("a",), query="comet", limit=10)))
        print(f"items of ('a',) found by asearch(limit=10) as ('b',) grows by 20: {counts}")
        if min(counts) < 10:
            faults.append("a search filtered by namespace lost items it holds (an HNSW scan, then the filter)")
        await attempt("asearch(limit=2**63 - 1)", store.asearch(("a",), query="comet", limit=2**63 - 1))
        await attempt("aput of a key holding NUL", store.aput(("a",), "before\x00after", {"text": "x"}))
        await attempt("aput of a text holding NUL", store.aput(("a",), "nul", {"text": "before\x00after"}))
    async with await psycopg.AsyncConnection.connect(URL, autocommit=True) as admin:
        for schema in ("repro_async_flat", "repro_async"):
            await admin.execute(f"DROP SCHEMA {schema} CASCADE")


asyncio.run(main())
for fault in faults:
    print("FAULT:", fault)
sys.exit(1 if faults else 0)
