"""Validate a memory driver with pytest: one test item per conformance check.

    from tinymemory.testing import DriverConformance

    class TestMyStore(DriverConformance):
        driver = "my_package.store:make_store"   # MODULE:FACTORY, or the factory itself
        profile = "semantic"                      # optional; else what the store declares

A LangGraph store or a LangChain vector store needs no driver: subclass
``LangGraphStoreConformance`` (``def make_store(self)`` returns a fresh
``BaseStore``) or ``VectorStoreConformance`` (``def make_store(self,
embeddings)`` returns a fresh ``VectorStore``) instead; the adapters of
``tinymemory.adapters`` serve it (docs/adapters.md).

The plugin (``tinymemory.testing.plugin``, registered with pytest by the
``tinymemory-conformance`` wheel) turns each such class into one item per
check of ``tinymemory-conformance list --profile PROFILE``, named by the
check's id: a passing check passes, a failing one fails with the check's
whole message, a skipped one is skipped with its reason. The suite runs
once per class, over the checks that ``-k`` and ``--deselect`` left
selected, when the first of them runs.

Options are class attributes; the plugin's command-line flags
(``--tinymemory-corpus`` and the others, see ``pytest --help``) override
them for every class.
"""

from ._binary import BIN_ENV, BinaryError
from ._run import RunError

__all__ = [
    "DriverConformance",
    "LangGraphStoreConformance",
    "VectorStoreConformance",
    "BIN_ENV",
    "BinaryError",
    "RunError",
]


class DriverConformance:
    """Subclass it (named ``Test...``) to run the conformance suite over a driver.

    Attributes (class attributes of the subclass):

    - ``driver``: the store factory, as ``"MODULE:FACTORY"`` (served by
      ``python -m tinymemory.serve``) or as the callable itself (a
      module-level function or class, found again by its module and name).
    - ``driver_command``: instead of ``driver``, the command of a driver
      that serves itself (a list of words, or a string split as a shell
      does), such as ``["python3", "my_driver.py"]``.
    - ``profile``: ``"lexical"`` or ``"semantic"``, the recall profile the
      driver is held to; ``None`` (the default) takes the one its ``hello``
      declares.
    - ``corpus``: ``True`` (the default) loads the corpus bundled with the
      package, ``False`` none (the corpus checks are then skipped), a path
      (relative to the test file's directory) loads that directory.
    - ``seed``, ``cases``: the property checks' seed (0 to 2**64 - 1) and
      cases per check (1 to 2**32 - 1); ``None``: the binary's defaults,
      64 cases.
    - ``timeout``: seconds one check may run before it fails (at least 1;
      ``None``: 60). A number outside the binary's range fails the class's
      items naming the setting.
    - ``call_timeout``: seconds one request to the driver may take before
      its check fails as a hung driver (the binary's ``--call-timeout``; at
      least 1; ``None``: 30). A store that is slow rather than hung (one
      write per entry over a server, an index rewritten at every add)
      needs more for the suite's bulk writes: the contract says nothing
      of speed. ``timeout`` bounds the check as a whole.
    - ``bundle_dir``: a directory to write a regression bundle into for
      each failing check (``tinymemory-conformance replay FILE``).
    - ``report_dir``: a directory to write the run's JSON report into, as
      ``MODULE.CLASS.json`` (docs/reports.md; the compatibility matrix,
      ``python -m tinymemory.matrix``, renders such reports).
    """

    driver = None
    driver_command = None
    profile = None
    corpus = True
    seed = None
    cases = None
    timeout = None
    call_timeout = None
    bundle_dir = None
    report_dir = None

    @classmethod
    def tinymemory_driver_spec(cls):
        """The ``MODULE:FACTORY`` the driver process serves when ``driver``
        and ``driver_command`` are both None; None here (the plugin then
        asks for one of them). The adapter classes below return their own
        ``tinymemory_store``, found again in the driver process by the
        test module's name and the class's qualified name."""
        return None

    def test_tinymemory_plugin_is_active(self):
        # Only collected when the plugin is not: the class would otherwise
        # pass with no check run at all.
        import pytest

        pytest.fail(
            "the tinymemory pytest plugin is not active, so no conformance check ran: install the "
            "tinymemory-conformance wheel (it registers the plugin with pytest), or load the plugin "
            "with `pytest -p tinymemory.testing.plugin`"
        )


def _spec_of(cls):
    if "<locals>" in cls.__qualname__:
        raise TypeError(
            f"{cls.__qualname__} is defined inside a function; the driver process finds the class again "
            "by its module and name, so define it at module level"
        )
    return f"{cls.__module__}:{cls.__qualname__}.tinymemory_store"


class _AdapterConformance(DriverConformance):
    """What the classes over a framework's store share: the semantic
    profile, the options naming the engine and its stores' independence,
    the clean-up hook, and the driver spec of ``tinymemory_store``, which
    builds the class's adapter (``tinymemory_adapter``) in the driver process."""

    profile = "semantic"
    independent_stores = False
    engine_package = None
    engine_version = None

    def cleanup_store(self, store):
        """Called with each store the adapter is done with; does nothing here."""

    def tinymemory_adapter(self, **common):
        """The adapter over this class's stores, given the options every
        adapter takes (``package``, ``version``, ``independent_stores``)."""
        raise NotImplementedError

    @classmethod
    def tinymemory_driver_spec(cls):
        return _spec_of(cls)

    @classmethod
    def tinymemory_store(cls):
        """The adapter over this class's stores (runs in the driver process)."""
        return cls().tinymemory_adapter(
            package=cls.engine_package,
            version=cls.engine_version,
            independent_stores=cls.independent_stores,
        )


class _EmbeddingConformance(_AdapterConformance):
    """An adapter class whose store is given what embeds contents and
    queries: ``embeddings(self)``, ``HashedEmbedding()`` unless overridden."""

    def embeddings(self):
        """What embeds contents and queries: HashedEmbedding()."""
        from ..adapters.embeddings import HashedEmbedding

        return HashedEmbedding()


class LangGraphStoreConformance(_AdapterConformance):
    """The conformance suite over a LangGraph ``BaseStore``, with no driver code.

        from langgraph.store.memory import InMemoryStore
        from tinymemory.adapters.embeddings import HashedEmbedding
        from tinymemory.testing import LangGraphStoreConformance

        class TestInMemoryStore(LangGraphStoreConformance):
            def make_store(self):
                return InMemoryStore(index={"dims": 256, "embed": HashedEmbedding()})

    ``make_store(self)`` returns a fresh, empty store (for a server, a
    schema or table prefix of its own); it runs in the driver processes,
    which import the test module again, so the class must be at module
    level. ``cleanup_store(self, store)``, optional, is called with each
    store when the adapter is done with it (drop what it created, close
    the connection). ``clear_store(self, store)``, optional, empties the
    store in place at a reset instead of a new ``make_store`` (for
    PostgresStore, ``TRUNCATE store, store_vectors`` rather than a schema
    and its migrations per check). All three may be ``async def`` when ``use_async`` is True,
    which serves every operation through ``abatch`` instead of ``batch``.
    ``engine_package`` and ``engine_version`` name the engine in the
    driver id (default: the distribution holding the store's class).
    The other options are DriverConformance's; ``profile`` is semantic.
    ``independent_stores`` (default False) declares that the stores
    ``make_store`` returns live in the driver process (in memory, or a
    file of each process's own), so two processes never share data: the
    suite then runs checks in several processes at once (the binary's
    ``--jobs``, the cores) and starts them ahead. Leave it False for a
    store over a server or a shared file.
    """

    use_async = False

    def make_store(self):
        """A fresh, empty LangGraph ``BaseStore``."""
        raise NotImplementedError(f"{type(self).__name__} must define make_store(self)")

    clear_store = None

    def tinymemory_adapter(self, **common):
        from ..adapters.langgraph import LangGraphStore

        return LangGraphStore(
            self.make_store, cleanup=self.cleanup_store, clear=self.clear_store, use_async=self.use_async, **common
        )


class VectorStoreConformance(_EmbeddingConformance):
    """The conformance suite over a LangChain ``VectorStore``, with no driver code.

        from langchain_core.vectorstores import InMemoryVectorStore
        from tinymemory.testing import VectorStoreConformance

        class TestInMemoryVectorStore(VectorStoreConformance):
            def make_store(self, embeddings):
                return InMemoryVectorStore(embeddings)

    ``make_store(self, embeddings)`` returns a fresh, empty store using
    `embeddings` (``embeddings()`` below: ``HashedEmbedding()`` unless
    overridden), in the driver processes as for LangGraphStoreConformance.
    ``cleanup_store(self, store)`` is the optional clean-up hook, and
    ``clear_store(self, store)`` the optional way to empty the store in
    place at a reset (``store.reset_collection()`` for Chroma) instead of a
    new ``make_store``.
    ``make_filter(self, fields)``, optional, turns ``{"namespace": ...,
    "key": ..., "category": ..., "session_id": ...}`` into the store's filter, for a
    store whose filter dialect the adapter does not know
    (tinymemory.adapters.langchain.default_filter). ``score`` is
    "relevance", "similarity" or None (the adapter's default); see
    VectorStoreAdapter. ``profile`` is semantic.
    ``independent_stores`` (default False) declares that the stores
    ``make_store`` returns live in the driver process (in memory, or a
    file of each process's own), so two processes never share data: the
    suite then runs checks in several processes at once (the binary's
    ``--jobs``, the cores) and starts them ahead. Leave it False for a
    store over a server or a shared file. ``use_async`` (default False)
    serves every operation through the async methods (``aadd_documents``,
    ``asimilarity_search_with_relevance_scores``, ``aget_by_ids``,
    ``adelete``) instead, as LangGraphStoreConformance's serves through
    ``abatch``. ``has_sync`` and ``has_async`` (default True) are the
    properties of LangChain's standard tests (VectorStoreIntegrationTests):
    set one False for a store that serves only the other path (a PGVector
    made with a connection string has no async one), and the interface
    family judges the path it serves. ``has_get_by_ids`` (default True),
    the standard tests' property too: False for a store without
    ``get_by_ids`` (Milvus), whose scenarios that read by it then answer
    not implemented, a skip that keeps the interface family from passing,
    instead of failing on the store's NotImplementedError.
    """

    use_async = False
    has_sync = True
    has_async = True
    has_get_by_ids = True
    score = None

    def make_store(self, embeddings):
        """A fresh, empty LangChain ``VectorStore`` over `embeddings`."""
        raise NotImplementedError(f"{type(self).__name__} must define make_store(self, embeddings)")

    make_filter = None
    clear_store = None

    def tinymemory_adapter(self, **common):
        from ..adapters.langchain import VectorStoreAdapter

        return VectorStoreAdapter(
            self.make_store,
            embeddings=self.embeddings(),
            cleanup=self.cleanup_store,
            clear=self.clear_store,
            make_filter=self.make_filter,
            score=self.score,
            use_async=self.use_async,
            has_sync=self.has_sync,
            has_async=self.has_async,
            has_get_by_ids=self.has_get_by_ids,
            **common,
        )


from ._interfaces import LlamaIndexConformance, Mem0Conformance  # noqa: E402  (they subclass _EmbeddingConformance)

__all__ += ["LlamaIndexConformance", "Mem0Conformance"]
