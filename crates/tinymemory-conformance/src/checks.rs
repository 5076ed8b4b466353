//! The standard checks, one module per area.

mod bulk;
mod concurrency;
mod corpus;
#[cfg(test)]
mod docs;
mod forget;
mod hostile;
pub(crate) mod interface;
mod isolation;
mod key_rules;
mod metadata;
mod namespace_rules;
mod namespaces;
pub(crate) mod portability;
mod ranking;
mod recall;
mod reindex;
mod section_faults;
mod sections;
mod setup;
mod store;
mod support;

use crate::Check;

/// The standard checks, in run order: the one list that the registry
/// ([`all`]), [`conformance_tests!`](crate::conformance_tests)'s test
/// functions and the docs' rules tables are made from, so a new check is
/// declared once.
///
/// `__tinymemory_standard_checks!([callback] args)` calls
/// `callback! { args; row; row; ... }`. A row is
/// `test_name => "check.id" DEFINITION { cost_ms: N, mistake: "..", semantic: ".." };`:
///
/// - DEFINITION is `[Family, PROFILES, "description", body]` for a check
///   whose body is an `async fn(CheckContext) -> Step` of a module below, or
///   `(path::TO_A_CHECK)` for one declared whole in its own module (the
///   properties and the model);
/// - `cost_ms` is the check's measured wall time, which balances
///   `--shard` and orders a run's start at more than one job, costliest
///   first ([`cost`](crate::shard::cost) has how it is measured);
/// - `mistake` is the usual first-attempt mistake the check catches, and
///   the optional `semantic` what changes under the semantic profile: the
///   rules tables of docs/protocol.md and docs/validate-python-driver.md
///   and the applicability table of docs/profiles.md print them
///   (`TINYMEMORY_BLESS=1 cargo test -p tinymemory-conformance --lib docs`
///   rewrites those tables; without it the test fails when they differ).
///
/// The test name is the id with `.` as `_`; a unit test below holds both
/// that and a declared check's id to the row's.
#[doc(hidden)]
#[macro_export]
macro_rules! __tinymemory_standard_checks {
    ([$($callback:tt)*] $($args:tt)*) => {
        $($callback)*! {
            $($args)*;
            store_upsert => "store.upsert" [
                Contract, BOTH,
                "a second store at (namespace, key) replaces the first; category, session and taint are kept as given",
                store::upsert
            ] {
                cost_ms: 17,
                mistake: "an append-only index (`add_document` without deleting the old one) keeps both versions",
            };
            recall_none_means_global => "recall.none_means_global" [
                Contract, BOTH,
                "recall with namespace None searches `global` only, never every namespace",
                recall::none_means_global
            ] {
                cost_ms: 4,
                mistake: "treating \"no namespace\" as \"no filter\" and searching every namespace; a BM25 score of 0 or below used as the test for \"shares a word\" (a popular BM25 library scores a match -0.27 in a one-entry namespace), so nothing is found",
            };
            recall_hit_namespace => "recall.hit_namespace" [
                Contract, BOTH,
                "every recall hit carries Some(the namespace it lives in)",
                recall::hit_namespace
            ] {
                cost_ms: 11,
                mistake: "building hits from the stored document without its namespace field",
            };
            recall_scores_finite_higher_better => "recall.scores_finite_higher_better" [
                Contract, LEXICAL,
                "scores are finite, higher is better, and hits come best first",
                recall::scores_finite_higher_better
            ] {
                cost_ms: 2,
                mistake: "a distance or FTS5's `rank` (lower is better) returned as the score; an AND-by-default query parser returning only entries holding every word",
                semantic: "expects exactly the two entries holding a query word: replaced by `recall.ranking_higher_better`",
            };
            recall_limit => "recall.limit" [
                Contract, BOTH,
                "recall returns min(limit, entries of the namespace passing the category and session filters) hits when all hold the query word, and limit 0 returns Ok(empty)",
                recall::limit
            ] {
                cost_ms: 8,
                mistake: "post-filtering top-k: the engine's best `limit` taken before the namespace, category or session filter, so too few come back; filling the limit group by group without counting the hits already taken; scores normalised over the answer",
            };
            recall_plain_text_query => "recall.plain_text_query" [
                Contract, BOTH,
                "queries are plain text: operators, quotes and punctuation never error or act as syntax",
                recall::plain_text_query
            ] {
                cost_ms: 46,
                mistake: "the query handed to the engine's query parser (FTS5 `MATCH`, tantivy `QueryParser`, Whoosh): `\"` or `AND` is a syntax error; a query without a word (`\"`, `?!`) embedded to the zero vector, whose cosine is NaN (`0 / 0`) or which the engine refuses",
                semantic: "a query without words may rank entries instead of finding none",
            };
            recall_min_score => "recall.min_score" [
                Contract, BOTH,
                "recall with min_score = s returns exactly the hits of the same recall without it scoring >= s, in the same order; unscored hits are dropped",
                recall::min_score
            ] {
                cost_ms: 9,
                mistake: "`>` instead of `>=`, or the threshold applied after the limit",
                semantic: "the number of unfiltered hits is not asserted",
            };
            namespaces_exact_counts => "namespaces.exact_counts" [
                Contract, BOTH,
                "namespaces() lists every non-empty namespace once with its exact count",
                namespaces::exact_counts
            ] {
                cost_ms: 4,
                mistake: "counting stores instead of entries (an upsert counted twice)",
            };
            namespace_invalid_refused => "namespace.invalid_refused" [
                Contract, BOTH,
                "an invalid namespace is MemoryError::Invalid naming the rule broken, on every method, and nothing is stored",
                hostile::invalid_refused
            ] {
                cost_ms: 1,
                mistake: "sanitising the namespace (lowercasing, replacing characters) instead of refusing it",
            };
            forget_idempotent => "forget.idempotent" [
                Contract, BOTH,
                "forget returns true then false, and the entry is gone from get, list, namespaces and recall",
                forget::idempotent
            ] {
                cost_ms: 2,
                mistake: "a delete the searcher does not see until the next commit or refresh",
            };
            key_invalid_refused => "key.invalid_refused" [
                Contract, BOTH,
                "an invalid key (empty, over 1024 UTF-8 bytes) is MemoryError::Invalid naming the rule broken, on store, store_many, get and forget, and nothing is stored or forgotten",
                key_rules::invalid_refused
            ] {
                cost_ms: 3,
                mistake: "a get or forget that looks the key up without checking it, answering an empty or over-long key as absent (`None`, `false`) instead of refusing it as `store` does",
            };
            key_limit_accepted => "key.limit_accepted" [
                Contract, BOTH,
                "a key of exactly 1024 UTF-8 bytes is valid whatever its characters (one to four bytes each): store, store_many, get, list and forget take it and give it back byte for byte",
                key_rules::limit_accepted
            ] {
                cost_ms: 3,
                mistake: "a limit compared with `>=`, or counted in characters or UTF-16 code units, or a column a byte short (`VARCHAR(1023)`, a terminator), refusing the longest valid keys",
            };
            recall_whole_words => "recall.whole_words" [
                Contract, LEXICAL,
                "a hit shares a whole word with the query: punctuation separates words, accents and combining marks belong to their words, and a word inside another is no match",
                recall::whole_words
            ] {
                cost_ms: 2,
                mistake: "a tokenizer folding accents (`cafe` finds `café`) or splitting at combining marks (`ते` finds `नमस्ते`), a query quoted as one phrase (`alpha,beta`), `LIKE '%q%'` substring matching",
                semantic: "asks which entries share a word with the query",
            };
            recall_common_words => "recall.common_words" [
                Contract, BOTH,
                "every word of an entry finds it, the commonest function words of each corpus language (the, is, not, be, de), numbers and one-character words included",
                recall::common_words
            ] {
                cost_ms: 75,
                mistake: "a stop-word list (Lucene's, NLTK's, PostgreSQL's `english` configuration), a minimum token length of 2 or 3, or a tokenizer that drops numbers",
                semantic: "asks only that the only entry of a namespace is returned for each of its words",
            };
            recall_ranking_higher_better => "recall.ranking_higher_better" [
                Contract, SEMANTIC,
                "scores are finite and non-increasing down the hits, and the entry whose content is the query ranks first, above the farthest",
                ranking::ranking_higher_better
            ] {
                cost_ms: 12,
                mistake: "distance vs similarity: a vector store's distance (lower = nearer) returned as the score",
            };
            recall_deterministic => "recall.deterministic" [
                Contract, BOTH,
                "the same recall on unchanged data returns identical hits with identical score bits",
                ranking::deterministic
            ] {
                cost_ms: 24,
                mistake: "approximate (HNSW) search or a float sum whose order changes between calls",
            };
            recall_self_retrieval => "recall.self_retrieval" [
                Contract, BOTH,
                "an entry's own content used as the query ranks that entry first in its namespace",
                ranking::self_retrieval
            ] {
                cost_ms: 12,
                mistake: "a minimum token length or stop-word list that drops every word of a short entry",
            };
            recall_reindexed_on_upsert => "recall.reindexed_on_upsert" [
                Contract, BOTH,
                "after store, store_many or import over an existing key, recall ranks the entry by its new content: first on the new text, strictly below an entry holding the old text on that",
                reindex::reindexed_on_upsert
            ] {
                cost_ms: 12,
                mistake: "a vector store that keeps the first embedding on an upsert (the payload updated, the vector not), or a full-text index whose old terms are never deleted",
                semantic: "a lexical engine may return the upserted entry for its old text only below the entry still holding it (it shares no word); a semantic one ranks it below by similarity",
            };
            recall_namespace_isolation => "recall.namespace_isolation" [
                Contract, BOTH,
                "a recall pinned to a namespace returns the same hits with the same scores (up to summation noise) whatever is stored, upserted or forgotten in other namespaces",
                isolation::namespace_isolation
            ] {
                cost_ms: 1078,
                mistake: "one full-text index for every namespace: FTS5's `bm25()`, Lucene's or tantivy's BM25 weigh a word by its frequency in the whole index, so a write in another namespace moves this one's scores (and, at the limit, its hits); ties broken by insertion or internal id, so a write elsewhere changes which tied entries the limit keeps (the message says when only a tie group differs)",
            };
            store_bulk => "store.bulk" [
                Contract, BOTH,
                "store_many stores a batch as the same stores would (a later entry of a key wins, the index included), stamps it with the time of the call, and refuses a batch with an invalid entry naming its rule, storing nothing of it",
                bulk::store_many
            ] {
                cost_ms: 5,
                mistake: "a loop over `store` without a transaction or a validation pass first, so the entries before a bad one stay; a multi-row `INSERT` that keeps the first of a repeated key",
                semantic: "the index check after the batch is lexical only (a semantic recall may return a replaced entry's key, never its old content)",
            };
            store_upsert_replaces_metadata => "store.upsert_replaces_metadata" [
                Contract, BOTH,
                "an upsert replaces category, session and taint, a session with none included, an unchanged content too, and writing the defaults (core, no session, internal) over other values through store or store_many replaces them: metadata is never merged",
                metadata::upsert_replaces_metadata
            ] {
                cost_ms: 5,
                mistake: "an update that merges the old metadata into the new, patch semantics that read a field equal to its default as \"not given\" and keep the old value, or a write skipped when the content (its hash, its embedding) is unchanged",
            };
            store_timestamps => "store.timestamps" [
                Contract, BOTH,
                "an entry's timestamp is RFC 3339, within a minute of the store, never goes back on an upsert, and is the same from get, list and recall",
                metadata::timestamps
            ] {
                cost_ms: 20,
                mistake: "local time without an offset, or epoch seconds",
            };
            namespaces_last_updated => "namespaces.last_updated" [
                Contract, BOTH,
                "namespaces() gives each namespace, when it gives last_updated, the newest timestamp of its entries by instant, after upserts and forgets, and after imports of other RFC 3339 spellings",
                metadata::last_updated
            ] {
                cost_ms: 61,
                mistake: "the first write's time, or the oldest entry's; SQL `MAX(timestamp)` over the text, bytewise, which is time order only while every timestamp is spelt alike (`tinymemory.protocol.timestamp_key` orders them)",
            };
            store_distinct_identities => "store.distinct_identities" [
                Contract, BOTH,
                "(learning:a/b, c) and (learning:a, b/c) are two entries: an identity is never namespace and key joined by a separator",
                metadata::distinct_identities
            ] {
                cost_ms: 2,
                mistake: "a document id made of namespace and key joined by a separator",
            };
            store_opens_empty => "store.opens_empty" [
                Contract, BOTH,
                "a store opened after another store of the driver is closed is empty and answers as new: get, list, namespaces and recall find nothing the earlier store held",
                metadata::opens_empty
            ] {
                cost_ms: 2,
                mistake: "a query or page cache that reset does not clear: an exec driver's process serves store after store, so the next store answers with the last one's entries",
            };
            list_filters => "list.filters" [
                Contract, BOTH,
                "list keeps exactly the entries of the category and session asked, compared exactly (case counts; the empty session is a session, not none), in one namespace or all",
                metadata::list_filters
            ] {
                cost_ms: 3,
                mistake: "a filter inverted or ignored, a case-insensitive collation on the category, or the empty session stored or filtered as none (`session or None`)",
            };
            recall_filters => "recall.filters" [
                Contract, BOTH,
                "recall keeps exactly the entries of the category and session asked, compared exactly (case counts; the empty session is a session, not none)",
                metadata::recall_filters
            ] {
                cost_ms: 2,
                mistake: "post-filtering top-k: the filter applied to the engine's best hits",
                semantic: "every entry holds the query word, so both profiles return exactly the filtered entries",
            };
            recall_huge_limit => "recall.huge_limit" [
                Contract, BOTH,
                "a limit up to 2^64 - 1 is no error and returns every hit",
                metadata::huge_limit
            ] {
                cost_ms: 1,
                mistake: "the limit passed to the engine as a signed 32- or 64-bit integer, or used to size a buffer",
            };
            store_hostile_text_round_trip => "store.hostile_text_round_trip" [
                Contract, BOTH,
                "keys and contents with SQL metacharacters, NUL, emoji, RTL, combining marks and a leading or trailing line break round-trip byte for byte",
                hostile::text_round_trip
            ] {
                cost_ms: 24,
                mistake: "SQL built by string formatting; text normalised, cut at NUL or stripped of its final line break on the way in",
            };
            store_big_content_round_trip => "store.big_content_round_trip" [
                Contract, BOTH,
                "a 1 MiB content with NULs and multibyte text round-trips byte for byte and is recalled whole",
                hostile::big_content_round_trip
            ] {
                cost_ms: 1188,
                mistake: "a field size limit, or a tokenizer that does not index CJK characters; a search answering with a snippet of the content instead of the content",
            };
            recall_hostile_queries => "recall.hostile_queries" [
                Contract, BOTH,
                "every hostile text used as a query is Ok and finds only its own namespace",
                hostile::hostile_queries
            ] {
                cost_ms: 28,
                mistake: "query parser syntax again (a tokenizer splitting at combining marks splits the query the same way, so `recall.whole_words` catches that)",
            };
            store_concurrent_writes => "store.concurrent_writes" [
                Contract, BOTH,
                "stores running at once through one driver (8 writers x 25 keys) are all kept: every key readable, counts exact",
                concurrency::concurrent_writes
            ] {
                cost_ms: 106,
                mistake: "one writer shared without a lock (lost writes), or \"database is locked\"",
            };
            namespace_case_sensitive => "namespace.case_sensitive" [
                Contract, BOTH,
                "namespaces compare byte for byte: learning:Rust, learning:rust and learning:RUST are three namespaces",
                namespace_rules::case_sensitive
            ] {
                cost_ms: 15,
                mistake: "a case-insensitive collation or a lowercasing analyzer on the namespace field",
            };
            namespace_no_wildcards => "namespace.no_wildcards" [
                Contract, BOTH,
                "a namespace argument matches only itself: _ and . in learning:a_b and learning:a.b are plain characters",
                namespace_rules::no_wildcards
            ] {
                cost_ms: 14,
                mistake: "SQL `LIKE`, a glob or a regex as the namespace filter",
            };
            namespace_reserved_words => "namespace.reserved_words" [
                Contract, BOTH,
                "names that look reserved (engine names, default, global, public, system, null, true, none, SQL keywords, common table and collection names) are ordinary namespaces, first labels and keys",
                namespace_rules::reserved_words
            ] {
                cost_ms: 172,
                mistake: "a namespace used as a table or collection name without quoting, or an engine that reserves its own name as a root label (one agent framework's store refuses `langgraph:...`)",
            };
            sections_custom_spelling => "sections.custom_spelling" [
                Sections, BOTH,
                "a known section spelled as Custom is the same section: writes land under its prefix",
                sections::custom_spelling
            ] {
                cost_ms: 12,
                mistake: "namespaces normalised by the driver",
            };
            sections_invalid_section_refused => "sections.invalid_section_refused" [
                Sections, BOTH,
                "an unusable custom section errors on every call, the enumerating ones included",
                sections::invalid_section_refused
            ] {
                cost_ms: 1,
                mistake: "invalid namespaces sanitised instead of refused",
            };
            sections_across_merge_order => "sections.across_merge_order" [
                Sections, BOTH,
                "across_section merges by score descending, ties by (namespace, key), min(limit, total) hits",
                sections::across_merge_order
            ] {
                cost_ms: 9,
                mistake: "insertion-order ties: equal scores returned in insertion (document id) order instead of by key",
                semantic: "the number of hits is taken from the driver's own pinned recalls, not from the entries holding \"comet\"",
            };
            sections_cap_and_truncation => "sections.cap_and_truncation" [
                Sections, BOTH,
                "the cap visits namespaces by count then name, and truncated means namespaces were skipped",
                sections::cap_and_truncation
            ] {
                cost_ms: 8,
                mistake: "wrong counts from `namespaces()`",
            };
            sections_namespace_filter_conflict => "sections.namespace_filter_conflict" [
                Sections, BOTH,
                "across_section refuses opts.namespace with NAMESPACE_FILTER_CONFLICT",
                sections::namespace_filter_conflict
            ] {
                cost_ms: 3,
                mistake: "none in the driver: the section API's own rule",
            };
            sections_namespaces_listed_once => "sections.namespaces_listed_once" [
                Sections, BOTH,
                "namespaces() lists a namespace mixing categories and sessions once, so across_section and scopes() see no driver fault",
                section_faults::namespaces_listed_once
            ] {
                cost_ms: 12,
                mistake: "grouping by namespace and category",
            };
            sections_pinned_hits_only => "sections.pinned_hits_only" [
                Sections, BOTH,
                "a recall pinned to learning:rust answers from it alone (not learning:rust-async), so across_section sees no driver fault",
                section_faults::pinned_hits_only
            ] {
                cost_ms: 7,
                mistake: "a prefix match on the namespace",
            };
            sections_view_recall_pinned => "sections.view_recall_pinned" [
                Sections, BOTH,
                "a section view's recall(scope, ..) searches <section>:<scope> only, never global",
                metadata::view_recall_pinned
            ] {
                cost_ms: 5,
                mistake: "\"no namespace\" treated as every namespace",
            };
            interface_langchain_empty_store => "interface.langchain.empty_store" [
                Interface, BOTH,
                "a fresh store's similarity_search finds nothing (LangChain's test_vectorstore_is_empty, test_vectorstore_still_empty), and then finds the document added, with its id",
                interface::empty_store
            ] {
                cost_ms: 20,
                mistake: "a fixture that reuses one collection, or a store that is not emptied between tests",
            };
            interface_langchain_add_documents => "interface.langchain.add_documents" [
                Interface, BOTH,
                "add_documents returns one id per document, leaves its input unchanged, and similarity_search returns the documents whole (content, metadata exactly as given) with those ids, best first (test_add_documents)",
                interface::add_documents
            ] {
                cost_ms: 20,
                mistake: "the id written onto the caller's Document, or extra keys (`_id`, `_collection_name`) added to the metadata returned",
            };
            interface_langchain_delete => "interface.langchain.delete" [
                Interface, BOTH,
                "add_documents keeps the ids passed, delete of one id and of several at once removes exactly those documents (test_deleting_documents, test_deleting_bulk_documents)",
                interface::delete
            ] {
                cost_ms: 20,
                mistake: "delete taking one id per call, or ids passed in `ids=` replaced by the store's own",
            };
            interface_langchain_delete_missing => "interface.langchain.delete_missing" [
                Interface, BOTH,
                "delete of ids the store does not hold raises nothing (test_delete_missing_content), alone or beside the id of a document added, which it removes",
                interface::delete_missing
            ] {
                cost_ms: 20,
                mistake: "a delete that looks each id up and raises for one it does not find (FAISS's `ValueError: Some specified ids do not exist`)",
            };
            interface_langchain_upsert => "interface.langchain.upsert" [
                Interface, BOTH,
                "add_documents with ids the store holds replaces those documents, content and metadata, and never duplicates them (test_add_documents_with_ids_is_idempotent, test_add_documents_by_id_with_mutation)",
                interface::upsert
            ] {
                cost_ms: 20,
                mistake: "an append-only add that raises on an existing id or keeps both documents",
            };
            interface_langchain_get_by_ids => "interface.langchain.get_by_ids" [
                Interface, BOTH,
                "get_by_ids returns each document held, whole, with its id set, and skips missing and repeated ids without raising (test_get_by_ids, test_get_by_ids_missing)",
                interface::get_by_ids
            ] {
                cost_ms: 20,
                mistake: "documents returned with `id=None` (the id tucked into the metadata), or an exception for an id not found",
            };
            interface_langchain_generated_ids => "interface.langchain.generated_ids" [
                Interface, BOTH,
                "add_documents without ids makes a string id per document, and get_by_ids of them returns the documents (test_add_documents_documents)",
                interface::generated_ids
            ] {
                cost_ms: 20,
                mistake: "ids returned that are not the documents' ids in the store",
            };
            interface_langchain_document_ids => "interface.langchain.document_ids" [
                Interface, BOTH,
                "add_documents uses a Document's own id, and makes one for a document without, in one batch (test_add_documents_with_existing_ids)",
                interface::document_ids
            ] {
                cost_ms: 20,
                mistake: "`Document.id` ignored, or a batch mixing a document with an id and one without refused",
            };
            interface_langchain_string_ids => "interface.langchain.string_ids" [
                Interface, BOTH,
                "add_documents with plain string ids (\"1\", \"2\", as LangChain's standard tests give them) returns exactly those ids, and get_by_ids, similarity_search and delete use them (test_deleting_documents, test_get_by_ids and the others that give them)",
                interface::string_ids
            ] {
                cost_ms: 20,
                mistake: "ids passed on to a backend that takes UUIDs or integers only (Qdrant's `Point id 1 is not a valid UUID`)",
            };
            interface_langchain_search_with_score => "interface.langchain.search_with_score" [
                Interface, BOTH,
                "similarity_search and similarity_search_with_score of one query return the same documents in the same order: each document added, the query's first",
                interface::search_with_score
            ] {
                cost_ms: 20,
                mistake: "two search paths with different filters, thresholds or `k`",
            };
            interface_langgraph_item_timestamps => "interface.langgraph.item_timestamps" [
                Interface, BOTH,
                "a put over an existing item keeps its created_at and moves its updated_at on (LangGraph's Item)",
                interface::item_timestamps
            ] {
                cost_ms: 20,
                mistake: "updated_at never written after the first put, or created_at rewritten by every put (an upsert that replaces the row)",
            };
            interface_langgraph_put_none_deletes => "interface.langgraph.put_none_deletes" [
                Interface, BOTH,
                "a PutOp with value None deletes the item GetOp read back after its put: GetOp and SearchOp no longer find it",
                interface::put_none_deletes
            ] {
                cost_ms: 20,
                mistake: "None stored as a JSON null value instead of deleting",
            };
            interface_langgraph_list_namespaces => "interface.langgraph.list_namespaces" [
                Interface, BOTH,
                "list_namespaces with a prefix and max_depth, a suffix, and a max_depth alone answers as its docstring's example: deeper namespaces truncated, each once",
                interface::list_namespaces
            ] {
                cost_ms: 20,
                mistake: "max_depth applied before the prefix, or truncated namespaces listed once per item",
            };
            interface_langgraph_search_paging => "interface.langgraph.search_paging" [
                Interface, BOTH,
                "SearchOp under a namespace prefix returns every item under it and nothing outside, and pages by limit and offset hold each item once",
                interface::search_paging
            ] {
                cost_ms: 20,
                mistake: "offset applied before the namespace filter, or an order that changes between pages",
            };
            corpus_namespace_counts => "corpus.namespace_counts" [
                Corpus, BOTH,
                "after loading the corpus, namespaces() reports exactly the loaded entries per namespace",
                corpus::namespace_counts
            ] {
                cost_ms: 35,
                mistake: "commit-per-write speed: a commit (or fsync) per store makes the 22,688-entry load take minutes",
            };
            corpus_recall_own_words => "corpus.recall_own_words" [
                Corpus, LEXICAL,
                "in every corpus namespace, an entry is recalled by the longest word it contains",
                corpus::recall_own_words
            ] {
                cost_ms: 181,
                mistake: "a minimum or maximum token length, or stemming (splitting at combining marks is `recall.whole_words`'s: here the query is split the same way)",
                semantic: "replaced by `corpus.self_retrieval` (a pinned recall of one word returns every entry up to the limit, so it would prove nothing)",
            };
            corpus_self_retrieval => "corpus.self_retrieval" [
                Corpus, SEMANTIC,
                "in every corpus namespace, entries (positions 0, 1, 2, 4, 8, ...) recalled by their own full text (when it has a word) rank first, behind only ties, hits holding all its words and hits made only of its words (a shorter text BM25 may rank higher)",
                corpus::self_retrieval
            ] {
                cost_ms: 300,
                mistake: "texts truncated before embedding, or approximate search",
            };
            portability_pages_partition => "portability.pages_partition" [
                Portability, BOTH,
                "export pages of 1, 2, 7, n - 1, n, n + 1 and 1000 records hold every entry of list(None, ..) exactly once, in (namespace, key) order, every field as listed",
                portability::pages_partition
            ] {
                cost_ms: 27,
                mistake: "an offset cursor (`LIMIT ? OFFSET ?`) over an order that is not unique, or the engine's collation instead of bytes, so pages overlap or skip",
            };
            portability_end_of_export => "portability.end_of_export" [
                Portability, BOTH,
                "an empty store's export ends with no records, and an empty page is never the end while records remain: only next_cursor None ends an export",
                portability::end_of_export
            ] {
                cost_ms: 2,
                mistake: "ending when a page is shorter than the limit, or returning `None` for a full page",
            };
            portability_page_limits => "portability.page_limits" [
                Portability, BOTH,
                "a limit of 0 returns no records and a cursor that keeps the place (at the start and mid-export); a limit of usize::MAX returns every record",
                portability::page_limits
            ] {
                cost_ms: 6,
                mistake: "`limit + 1` overflowing, or a limit of 0 read as \"no limit\" or as the end",
            };
            portability_unknown_cursor => "portability.unknown_cursor" [
                Portability, BOTH,
                "a cursor that is not well-formed in the driver's format (garbled, truncated, edited) is MemoryError::Invalid with rule export.cursor_unknown, never a silent restart, and changes nothing",
                portability::unknown_cursor
            ] {
                cost_ms: 1,
                mistake: "an unparsable cursor read as \"start from the beginning\"",
            };
            portability_cursor_stable => "portability.cursor_stable" [
                Portability, BOTH,
                "between pages, forgetting the entry a cursor stands on and storing, upserting or forgetting others: the export resumes after the cursor, and every entry present throughout comes exactly once",
                portability::cursor_stable
            ] {
                cost_ms: 10,
                mistake: "a cursor that names a row id or an offset, lost when that row is forgotten or rows are inserted before it",
            };
            portability_round_trip => "portability.round_trip" [
                Portability, BOTH,
                "export, then import into a fresh store, gives the same list(None, ..) (every field but id) and namespaces(); imported entries are recalled; a second import changes nothing",
                portability::round_trip
            ] {
                cost_ms: 110,
                mistake: "import through `store`, which stamps the time of the import instead of keeping the exported timestamp; rows written without the full-text index",
                semantic: "export and import do not rank; it recalls each imported entry by its own text, which ranks it first under both profiles",
            };
            portability_taint_kept => "portability.taint_kept" [
                Portability, BOTH,
                "import keeps taint (ExternalSync stays ExternalSync, through an export too), category, session and the timestamp byte for byte; importing a key again replaces its taint, the later of two records of a key in one import included, and the defaults (core, no session, internal) replace other values",
                portability::taint_kept
            ] {
                cost_ms: 4,
                mistake: "a schema or wire format without the taint, read back as the default `internal`; an import with patch semantics keeping the stored category, session or taint where the record gives the default; a multi-row `INSERT .. ON CONFLICT DO NOTHING` that keeps the first record of a key repeated in one import",
            };
            portability_import_hostile => "portability.import_hostile" [
                Portability, BOTH,
                "hostile keys and contents and a 1 MiB content are imported and read back, recalled and exported byte for byte",
                portability::import_hostile
            ] {
                cost_ms: 1177,
                mistake: "a bulk path (COPY, multi-row INSERT, a JSON batch) that escapes or truncates what the one-row path keeps",
            };
            portability_import_failures => "portability.import_failures" [
                Portability, BOTH,
                "an import reports each invalid record (namespace, key, timestamp) with its index and rule, and writes exactly the valid ones",
                portability::import_failures
            ] {
                cost_ms: 7,
                mistake: "one bad record failing the whole batch, or writing it anyway",
            };
            portability_store_after_import => "portability.store_after_import" [
                Portability, BOTH,
                "a store or store_many over a key an import wrote (stamped 2001) stamps the time of the store and gives content, category, session and taint anew, the same from get, list and recall",
                portability::store_after_import
            ] {
                cost_ms: 2,
                mistake: "an upsert that updates the content but keeps the row's timestamp column, so an imported entry stays stamped with its import's time; an update with merge semantics keeping the imported session or timestamp field",
            };
            properties_across_ordering => "properties.across_ordering" ($crate::properties::ACROSS_ORDERING) {
                cost_ms: 472,
                mistake: "insertion-order ties",
            };
            properties_cap_determinism => "properties.cap_determinism" ($crate::properties::CAP_DETERMINISM) {
                cost_ms: 1389,
                mistake: "insertion-order ties",
            };
            properties_custom_spelling => "properties.custom_spelling" ($crate::properties::CUSTOM_SPELLING) {
                cost_ms: 974,
                mistake: "namespaces normalised by the driver",
            };
            properties_namespace_round_trip => "properties.namespace_round_trip" ($crate::properties::NAMESPACE_ROUND_TRIP) {
                cost_ms: 272,
                mistake: "a namespace rule of the driver's own, stricter or looser",
            };
            properties_pinning_cost => "properties.pinning_cost" ($crate::properties::PINNING_COST) {
                cost_ms: 712,
                mistake: "a `namespaces()` that lists a namespace twice",
            };
            properties_truncation => "properties.truncation" ($crate::properties::TRUNCATION) {
                cost_ms: 866,
                mistake: "wrong counts from `namespaces()`",
            };
            properties_concurrent_equals_sequential => "properties.concurrent_equals_sequential" ($crate::properties::CONCURRENCY) {
                cost_ms: 1248,
                mistake: "a searcher or cursor shared by concurrent calls",
            };
            properties_export_partition => "properties.export_partition" ($crate::properties::EXPORT_PARTITION) {
                cost_ms: 968,
                mistake: "an upsert that moves an entry to the end of an insertion-ordered export",
            };
            properties_export_round_trip => "properties.export_round_trip" ($crate::properties::EXPORT_ROUND_TRIP) {
                cost_ms: 1243,
                mistake: "a field lost on one of the two paths",
            };
            properties_store_many_matches_store => "properties.store_many_matches_store" ($crate::properties::STORE_MANY_MATCHES_STORE) {
                cost_ms: 1120,
                mistake: "a batch path that fails or drops entries when one batch holds a text twice (one embedding per distinct text zipped with one index per entry), or keeps the first of a repeated key",
            };
            model_differential => "model.differential" ($crate::model::DIFFERENTIAL) {
                cost_ms: 1131,
                mistake: "AND-by-default parsers, stale recall after a forget, ties by insertion order: whatever the named checks missed",
                semantic: "recall and `across_section` answers compared against the namespace's pool instead of the model's word matches (docs/properties.md)",
            };
        }
    };
}

/// Builds one [`Check`] of a row of [`__tinymemory_standard_checks!`].
macro_rules! row {
    ($id:literal, [$family:ident, $profiles:ident, $desc:literal, $body:path]) => {
        $crate::Check {
            id: $id,
            family: $crate::Family::$family,
            profiles: $crate::Profiles::$profiles,
            description: $desc,
            run: |ctx| Box::pin(async move { $crate::failure::outcome($body(ctx).await) }),
        }
    };
    ($id:literal, ($check:path)) => {
        $check
    };
}

/// The registry's checks of the rows.
macro_rules! checks_of {
    (; $($test:ident => $id:literal $def:tt $docs:tt;)*) => {
        vec![$(row!($id, $def)),*]
    };
}

/// Every standard check, contract sentences first in the order `MemoryProvider` states them.
pub(crate) fn all() -> Vec<Check> {
    crate::__tinymemory_standard_checks!([checks_of])
}

/// `match id { "check.id" => Some(mistake), ... }` over the rows of the table.
macro_rules! mistakes_of {
    ($id:ident; $($test:ident => $check:literal $def:tt { cost_ms: $cost:literal, mistake: $mistake:literal $(, semantic: $semantic:literal)? $(,)? };)*) => {
        match $id {
            $($check => Some($mistake),)*
            _ => None,
        }
    };
}

/// The usual first-attempt mistake the standard check `id` catches, as
/// the rules tables of the docs and `list --format json` print it; `None`
/// for an id that is no standard check.
#[must_use]
pub fn usual_mistake(id: &str) -> Option<&'static str> {
    crate::__tinymemory_standard_checks!([mistakes_of] id)
}

#[cfg(test)]
mod tests {
    use crate::Registry;

    /// Collects the table's rows as `(test name, check id)` pairs.
    macro_rules! listed {
        (; $($test:ident => $id:literal $def:tt $docs:tt;)*) => {
            vec![$((stringify!($test), $id)),*]
        };
    }

    #[test]
    fn the_table_rows_name_the_checks_they_build() {
        let listed: Vec<(&str, &str)> = crate::__tinymemory_standard_checks!([listed]);
        let ids: Vec<&str> = listed.iter().map(|(_, id)| *id).collect();
        let registry: Vec<&str> = Registry::standard().checks().iter().map(|c| c.id).collect();
        // Differs only where a row names a check declared in its own
        // module under another id.
        assert_eq!(
            ids, registry,
            "the row ids of __tinymemory_standard_checks!"
        );
        for (test, id) in listed {
            assert_eq!(test, id.replace('.', "_"), "the test name of {id}");
        }
    }

    #[test]
    fn every_standard_check_names_its_usual_mistake() {
        for check in Registry::standard().checks() {
            assert!(
                super::usual_mistake(check.id).is_some_and(|m| !m.is_empty()),
                "{}",
                check.id
            );
        }
        assert_eq!(
            super::usual_mistake("sections.cap_and_truncation"),
            Some("wrong counts from `namespaces()`")
        );
        assert_eq!(super::usual_mistake("no.such_check"), None);
    }
}
