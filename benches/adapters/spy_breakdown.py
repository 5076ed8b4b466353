"""Where the driver processes of a run spent their time, from the samples
benches/adapters/spy_serve.py took (py-spy, raw collapsed stacks).

    VENV/bin/python benches/adapters/spy_breakdown.py SPY_DIR

Run it with the driver's interpreter and PYTHONPATH (it reads source lines
of the sampled frames to tell a call into Chroma's Rust core from the
Python around it). Every sample of a process's main thread is one of:

- profiler attaching: spy_serve.py waiting for py-spy to sample (the
  harness's, left out of the shares);
- start-up: importing the engine and making the store (serve.make_store);
- idle: the serve loop waiting for the suite's next request (the binary's
  own work, the pipe, and the other process's turn for the core);
- protocol: tinymemory.serve and tinymemory.protocol (JSON in and out,
  validation, dispatch), the adapter not entered;
- adapter: tinymemory.adapters' own code (by function);
- embedding: HashedEmbedding (with the protocol's word split it calls);
- langchain-core: a Document built, VectorStore's own methods;
- langchain-chroma: langchain_chroma's own code;
- chromadb: its Rust core (a sample inside a ``self.bindings.*`` call),
  pydantic under it, its product telemetry, its settings, and the rest of
  its Python layer;
- no Python frame: the interpreter starting or ending.

The innermost of these layers a sample is in is the one it counts for
(a sample in chromadb's Rust core under the adapter's search is
chromadb's). Then the same samples by request (the adapter method the
serve loop called, all layers under it) and by the adapter's helpers
(inclusive), and the other threads' non-idle samples. A share is of the
main thread's samples; seconds are samples / rate.
"""

import collections
import glob
import linecache
import os
import re
import sys

FRAME = re.compile(r"^(?P<func>.*) \((?P<file>[^()]*?):(?P<line>\d+)\)$")
HELPERS = (
    "_document", "_entry", "_add", "_outside", "_filter_for", "_unfilterable", "_lookup", "_one",
    "_fetch_written", "_search", "_verify_cleared", "_delete", "search_with_ties", "recall_fields",
    "engine_id", "in_contract_tie_order",
)
OPS = re.compile(r"^(VectorStoreAdapter|Store)\.(?P<op>[a-z_]+)$")


def source_line(path, line):
    """The text of `line` of `path` (as py-spy shortens it: relative to a
    sys.path entry), or ""."""
    for root in [""] + sys.path:
        full = os.path.join(root, path) if root else path
        if os.path.isfile(full):
            return linecache.getline(full, line)
    return ""


def parse(frame):
    m = FRAME.match(frame)
    if not m:
        return frame, "", 0
    return m["func"], m["file"], int(m["line"])


def layer(frames):
    """The category of one main-thread stack (root first)."""
    if not frames:
        return "no Python frame"
    funcs = [parse(f) for f in frames]
    files = [f for _, f, _ in funcs]
    if not any(fn == "run_module" for fn, _, _ in funcs):
        return "profiler attaching (spy_serve.py, not the driver's)"
    if any(fn == "make_store" and f.endswith("tinymemory/serve.py") for fn, f, _ in funcs) or not any(
        f.endswith("tinymemory/protocol.py") for f in files
    ):
        return "start-up"
    leaf_func, leaf_file, leaf_line = funcs[-1]
    if leaf_file.endswith("tinymemory/protocol.py") and leaf_func == "serve" and "for raw in" in source_line(
        leaf_file, leaf_line
    ):
        return "idle: waiting for the next request"
    first_chroma = next((i for i, f in enumerate(files) if f.startswith("chromadb/")), None)
    if first_chroma is None and any("chromadb" in f for f in files[:]):
        first_chroma = next(i for i, f in enumerate(files) if "chromadb" in f)
    if any(f.endswith("adapters/embeddings.py") for f in files):
        return "embedding (HashedEmbedding)"
    if first_chroma is not None or any(f == "Collection.py" or "Collection" in fn for fn, f, _ in funcs):
        if first_chroma is None:
            first_chroma = next(i for i, (fn, f, _) in enumerate(funcs) if f == "Collection.py" or "Collection" in fn)
        below = funcs[first_chroma:]
        if leaf_file.endswith("chromadb/api/rust.py") and "bindings." in source_line(leaf_file, leaf_line):
            return "chromadb: Rust core"
        if any("telemetry" in f or "posthog" in f or fn.endswith("Event.__init__") for fn, f, _ in below):
            return "chromadb: product telemetry"
        if any(f.startswith(("chromadb/config.py", "pydantic_settings/")) for _, f, _ in below):
            return "chromadb: settings"
        if any(f.startswith(("pydantic/", "pydantic_core/")) for _, f, _ in below):
            return "chromadb: pydantic"
        return "chromadb: Python layer"
    if any(f.startswith("langchain_chroma/") for f in files):
        return "langchain-chroma"
    if any(f.startswith("langchain_core/") for f in files):
        return "langchain-core"
    adapter = [fn for fn, f, _ in funcs if "tinymemory/adapters/" in f]
    if adapter:
        return "adapter: " + adapter[-1].split(".")[-1]
    if any(f.startswith("json/") for f in files) or any(fn in ("encode", "_refuse_surrogates") for fn, _, _ in funcs):
        return "protocol: JSON"
    return "protocol: validation and dispatch"


def main(spy_dir, rate=100):
    rate = float(rate)
    main_thread = collections.Counter()
    by_op = collections.Counter()
    helpers = collections.Counter()
    others = collections.Counter()
    leaves = collections.Counter()
    harness = 0
    processes = []
    for path in sorted(glob.glob(os.path.join(spy_dir, "*.txt"))):
        process = collections.Counter()
        processes.append((os.path.basename(path)[:-4], process))
        with open(path, encoding="utf-8") as f:
            for row in f:
                stack, _, count = row.rstrip("\n").rpartition(" ")
                if not stack:
                    continue
                count = int(count)
                thread, _, rest = stack.partition(";")
                frames = [x for x in rest.split(";") if x] if rest else []
                if not thread.rstrip().endswith("MainThread"):
                    if frames:
                        others[parse(frames[-1])[0] + " (" + thread.split(":")[-1].strip() + ")"] += count
                    continue
                cat = layer(frames)
                if cat.startswith("profiler"):
                    harness += count
                    continue
                main_thread[cat] += count
                process[cat.split(":")[0]] += count
                parsed = [parse(x) for x in frames]
                if cat.startswith(("protocol", "embedding", "adapter", "langchain", "chromadb: Python")):
                    fn, f, _ = parsed[-1]
                    leaves[f"{cat.split(':')[0]}: {fn} ({f})"] += count
                ops = [m["op"] for m in (OPS.match(fn) for fn, f, _ in parsed if "tinymemory/adapters/" in f) if m]
                if ops:
                    by_op[ops[0]] += count
                for name in {fn.split(".")[-1] for fn, f, _ in parsed if "tinymemory/adapters/" in f}:
                    if name in HELPERS:
                        helpers[name] += count
    total = sum(main_thread.values())
    if not total:
        sys.exit(f"no samples in {spy_dir}/*.txt")

    def show(title, counter, of=total):
        print(title)
        for name, n in counter.most_common():
            print(f"  {name:<44} {n / rate:8.1f} s  {100 * n / of:5.1f} %")

    print(
        f"{total} main-thread samples at {rate:g} a second: {total / rate:.1f} s "
        f"(and {harness / rate:.1f} s of spy_serve.py waiting for py-spy, left out)"
    )
    for pid, process in processes:
        parts = ", ".join(f"{k} {n / rate:.1f} s" for k, n in process.most_common())
        print(f"  process {pid}: {sum(process.values()) / rate:.1f} s: {parts}")
    grouped = collections.Counter()
    for name, n in main_thread.items():
        grouped[name if name.startswith("chromadb") else name.split(":")[0]] += n
    show("by layer (the innermost a sample is in):", grouped)
    show("the adapter's own code, by function:", collections.Counter(
        {k: v for k, v in main_thread.items() if k.startswith("adapter")}))
    busy = total - main_thread["idle: waiting for the next request"] - main_thread["start-up"]
    print(f"handling requests: {busy / rate:.1f} s")
    show("by request (every layer under the adapter's method), % of all samples:", by_op)
    show("the adapter's helpers (inclusive: the engine calls under them too):", helpers)
    show("the Python outside chromadb's Rust core and the start-up, by the function sampled (top 25):",
         collections.Counter(dict(leaves.most_common(25))))
    if others:
        show("other threads, samples with a Python frame:", collections.Counter(dict(others.most_common(10))))


if __name__ == "__main__":
    main(*sys.argv[1:3])
