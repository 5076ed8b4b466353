# A throwaway PostgreSQL server for the tests, on loopback.
#
# Sourced by .ci/run (it can be sourced by hand too, from bash):
#
#   source .ci/postgres.sh
#   postgres_start          # exports TINYMEMORY_POSTGRES_URL, stops the server at exit
#   postgres_start BINDIR   # the same with the initdb and pg_ctl of BINDIR
#
# postgres_start installs Debian's `postgresql` package when `initdb` and
# `pg_ctl` are found neither on PATH nor under /usr/lib/postgresql, creates a
# fresh cluster in a temporary directory (UTF-8, no locale, trust
# authentication: nothing listens but 127.0.0.1, on a free port, and no Unix
# socket), starts it, exports TINYMEMORY_POSTGRES_URL for the tests and the
# CLI, and sets an EXIT trap that stops it and deletes the directory.
#
# Given a BINDIR (.ci/python.sh gives the one of the `pgserver` wheel, a
# PostgreSQL 16 with pgvector), that server is started instead: nothing is
# installed then, but as root the `postgres` user must exist and reach
# BINDIR.
#
# As root (as CI runs) the server runs as the `postgres` user that the
# package creates, since PostgreSQL refuses to run as root.

# The directory holding initdb and pg_ctl, or nothing.
postgres_bindir() {
    if command -v initdb >/dev/null 2>&1 && command -v pg_ctl >/dev/null 2>&1; then
        dirname "$(command -v initdb)"
        return
    fi
    local d
    d=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
    if [ -n "$d" ] && [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ]; then
        echo "$d"
    fi
}

# Installs Debian's server package, without its default cluster (we make our
# own, and a second server left running on 5432 would outlive the run).
postgres_install() {
    echo "postgres: initdb/pg_ctl not found; installing Debian's postgresql package"
    mkdir -p /etc/postgresql-common
    if ! grep -qs '^create_main_cluster' /etc/postgresql-common/createcluster.conf; then
        echo 'create_main_cluster = false' >>/etc/postgresql-common/createcluster.conf
    fi
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
}

# A TCP port on 127.0.0.1 that nothing listens on.
postgres_free_port() {
    local p
    for p in $(seq 55432 55532); do
        if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
            echo "$p"
            return
        fi
    done
    echo "postgres: no free port in 55432..55532" >&2
    return 1
}

# Runs a server binary as the server's user.
postgres_as_owner() {
    if [ "$(id -u)" = 0 ]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

postgres_stop() {
    if [ -n "${POSTGRES_CI_DIR:-}" ] && [ -d "$POSTGRES_CI_DIR/data" ]; then
        postgres_as_owner "$POSTGRES_CI_BIN/pg_ctl" -D "$POSTGRES_CI_DIR/data" -m fast -w stop >/dev/null 2>&1 || true
        echo "postgres: stopped the server on port $POSTGRES_CI_PORT"
    fi
    if [ -n "${POSTGRES_CI_DIR:-}" ]; then
        rm -rf "$POSTGRES_CI_DIR"
    fi
    POSTGRES_CI_DIR=
}

postgres_start() {
    POSTGRES_CI_BIN=${1:-$(postgres_bindir)}
    if [ -n "${1:-}" ] && ! [ -x "$1/initdb" ]; then
        echo "postgres: $1 holds no initdb" >&2
        return 1
    fi
    if [ -z "$POSTGRES_CI_BIN" ]; then
        postgres_install
        POSTGRES_CI_BIN=$(postgres_bindir)
    fi
    if [ -z "$POSTGRES_CI_BIN" ]; then
        echo "postgres: initdb and pg_ctl are still missing after installing postgresql" >&2
        return 1
    fi
    if [ "$(id -u)" = 0 ] && ! id postgres >/dev/null 2>&1; then
        # A server given by BINDIR, with no package to create its user.
        useradd --system --no-create-home --shell /usr/sbin/nologin postgres
    fi
    POSTGRES_CI_PORT=$(postgres_free_port)
    POSTGRES_CI_DIR=$(mktemp -d /tmp/tinymemory-postgres.XXXXXX)
    trap postgres_stop EXIT
    if [ "$(id -u)" = 0 ]; then
        chown postgres: "$POSTGRES_CI_DIR"
    fi
    postgres_as_owner "$POSTGRES_CI_BIN/initdb" -D "$POSTGRES_CI_DIR/data" -U postgres \
        --auth=trust --encoding=UTF8 --no-locale --no-sync >"$POSTGRES_CI_DIR/initdb.log" 2>&1 || {
        cat "$POSTGRES_CI_DIR/initdb.log" >&2
        return 1
    }
    # fsync off: the cluster is thrown away at exit, and durability across a
    # machine crash is not what these tests measure.
    postgres_as_owner "$POSTGRES_CI_BIN/pg_ctl" -D "$POSTGRES_CI_DIR/data" \
        -l "$POSTGRES_CI_DIR/server.log" -w -t 60 \
        -o "-c listen_addresses=127.0.0.1 -p $POSTGRES_CI_PORT -c unix_socket_directories='' -c fsync=off -c full_page_writes=off" \
        start >/dev/null || {
        cat "$POSTGRES_CI_DIR/server.log" >&2
        return 1
    }
    export TINYMEMORY_POSTGRES_URL="postgres://postgres@127.0.0.1:$POSTGRES_CI_PORT/postgres"
    echo "postgres: $("$POSTGRES_CI_BIN/postgres" --version) on $TINYMEMORY_POSTGRES_URL (data in $POSTGRES_CI_DIR)"
}
