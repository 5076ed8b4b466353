"""Where a traced, profiled run through a Python adapter spent its time.

    python benches/adapters/breakdown.py TRACE PROF_DIR ENGINE_CALLS

TRACE is the run's --trace file (the binary's view: each request's round
trip), PROF_DIR the profiles benches/adapters/profile_serve.py wrote (the
driver processes' view), ENGINE_CALLS the comma-separated names of the
engine's methods the adapter calls (``batch`` for LangGraph,
``add_documents,similarity_search_with_relevance_scores,...`` for
LangChain). Prints the trace's span, the time with a request outstanding
and without (the binary alone), the resets and their round trips, and in
the driver processes: start-up, request handling split into resets,
engine calls (embedding inside them or beside), the adapter's rest, and
the protocol (round trips less handling: pipes, JSON, waiting for a core).
cProfile slows Python down, so its shares are an upper bound.
"""

import collections
import glob
import json
import pstats
import sys


def main(trace, profdir, engine_calls):
    pending = {}
    rt = collections.defaultdict(float)
    cnt = collections.Counter()
    t0 = t1 = None
    with open(trace, encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            t = r["elapsed_ms"]
            t0 = t if t0 is None else t0
            t1 = t
            if "request" in r:
                pending[(r["pid"], r["request"]["id"])] = (r["request"]["op"], t)
            elif isinstance(r.get("answer"), dict) and "id" in r["answer"]:
                sent = pending.pop((r["pid"], r["answer"]["id"]), None)
                if sent:
                    rt[sent[0]] += t - sent[1]
                    cnt[sent[0]] += 1
    span = (t1 - t0) / 1000
    outstanding = sum(rt.values()) / 1000
    stats = pstats.Stats(*glob.glob(profdir + "/*.prof")).stats

    def cum(match):
        return sum(v[3] for k, v in stats.items() if match(k))

    def named(path_end, name):
        return cum(lambda k: k[0].endswith(path_end) and k[2] == name)

    handle = named("tinymemory/protocol.py", "handle")
    reset = cum(lambda k: "tinymemory/adapters/" in k[0] and k[2] == "reset")
    embed = named("adapters/embeddings.py", "embed_documents") + named("adapters/embeddings.py", "embed_query")
    embed -= named("adapters/embeddings.py", "<listcomp>")
    engine = cum(lambda k: k[2] in engine_calls.split(","))
    startup = named("tinymemory/serve.py", "make_store")
    print(
        f"trace span {span:.0f} s; requests outstanding {outstanding:.0f} s; binary alone "
        f"{span - outstanding:.0f} s; resets {cnt['reset']} ({rt['reset'] / 1000:.0f} s of round trips)"
    )
    print(
        f"driver processes (cProfile): start-up {startup:.0f} s; handling {handle:.0f} s = resets {reset:.0f} s "
        f"+ engine calls {engine:.0f} s (embedding {embed:.0f} s, inside them or beside) + adapter rest "
        f"{handle - reset - engine:.0f} s"
    )
    print(f"protocol (round trips less handling) {outstanding - handle:.0f} s")


if __name__ == "__main__":
    main(*sys.argv[1:4])
