"""Start or stop a throwaway PostgreSQL 16 server with pgvector, from the
pinned `pgserver` wheel (.ci/js.sh installs it in a venv): the JavaScript
PostgreSQL examples' server (docs/validate-js-driver.md). The Debian
server .ci/postgres.sh starts has no pgvector.

    python .ci/pgvector.py start DIR   # prints the server's URL (a Unix socket in DIR)
    python .ci/pgvector.py stop DIR
"""

import sys
from pathlib import Path

import pgserver
from pgserver._commands import pg_ctl


def start(pgdata):
    # cleanup_mode=None: the server outlives this process; `stop` ends it.
    server = pgserver.get_server(pgdata, cleanup_mode=None)
    server.psql("CREATE EXTENSION IF NOT EXISTS vector;")
    print(server.get_uri())


def stop(pgdata):
    server = pgserver.get_server(pgdata, cleanup_mode=None)
    pg_ctl(["-m", "fast", "-w", "stop"], pgdata=Path(pgdata).resolve(), user=server.system_user)


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("start", "stop"):
        sys.exit("usage: pgvector.py start|stop DIR")
    {"start": start, "stop": stop}[sys.argv[1]](sys.argv[2])
