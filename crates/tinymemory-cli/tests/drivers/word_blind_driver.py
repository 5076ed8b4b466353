"""An exec driver that cannot recall one word: examples/python/memory_driver.py
whose recall answers no hit for a query holding "zzqx". Over a corpus with an
entry whose longest word holds it, corpus.recall_own_words fails; over any
other corpus (the bundled one) it passes, so a corpus check's verdict is seen
to hold for its own corpus only (tests/cli/bundle_replay.rs).

    word_blind_driver.py
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "..", "examples", "python"))
import memory_driver  # noqa: E402

tp = memory_driver.tp


class WordBlind(memory_driver.MemoryStore):
    def recall(self, query, limit, namespace, category, session_id, min_score):
        hits = super().recall(query, limit, namespace, category, session_id, min_score)
        return [] if "zzqx" in query else hits


if __name__ == "__main__":
    tp.serve(WordBlind(), "python-word-blind")
