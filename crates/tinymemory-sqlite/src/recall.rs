//! Recall: the postings of one namespace, scored with BM25 over that
//! namespace's statistics.
//!
//! Every read is keyed by the namespace's id, so a recall reads the
//! namespace's statistics row and, per query term, the postings of that
//! term *in that namespace* (a range of the `memory_postings` primary key,
//! `(ns, term, entry)`):
//!
//! ```sql
//! SELECT id, entries, tokens FROM memory_namespaces WHERE name = ?1;
//! SELECT entry, length, positions FROM memory_postings WHERE ns = ?1 AND term = ?2;
//! SELECT term, entry, length, positions FROM memory_postings
//!  WHERE ns = ?1 AND term >= ?2 ORDER BY term;   -- a one-character prefix
//! ```
//!
//! then entries by id for the best-scoring candidates only. Its cost is the
//! postings of the query's terms within the namespace plus a B-tree descent
//! per term, whatever the rest of the file holds; and nothing of another
//! namespace reaches the score ([`crate::score`]). The reads share one read
//! transaction, so statistics and postings come from one snapshot.

use std::collections::HashMap;

use rusqlite::{Connection, OptionalExtension};
use tinymemory_api::MemoryEntry;

use crate::error::{Context, Error};
use crate::index::{count_positions, decode_positions};
use crate::ops::{entry, ENTRY_COLUMNS};
use crate::query::Phrase;
use crate::score::{bm25, Stats};

/// The filters of one recall.
pub(crate) struct RecallQuery {
    /// From [`crate::query::phrases`], not empty.
    pub(crate) phrases: Vec<Phrase>,
    pub(crate) namespace: String,
    pub(crate) category: Option<String>,
    pub(crate) session_id: Option<String>,
    /// At least 1.
    pub(crate) limit: usize,
}

/// One posting: an entry holding a term, its length and the term's
/// positions in it (the stored varint blob).
struct Posting {
    entry: i64,
    length: u32,
    positions: Vec<u8>,
}

/// The postings of one namespace, read once per term per recall.
struct Postings<'c> {
    conn: &'c Connection,
    ns: i64,
    cache: HashMap<String, Vec<Posting>>,
}

impl Postings<'_> {
    fn term(&mut self, term: &str) -> Result<&[Posting], Error> {
        if !self.cache.contains_key(term) {
            let mut stmt = self
                .conn
                .prepare_cached(
                    "SELECT entry, length, positions FROM memory_postings
                     WHERE ns = ?1 AND term = ?2",
                )
                .context("prepare a postings read")?;
            let rows = stmt
                .query_map(rusqlite::params![self.ns, term], |r| {
                    Ok(Posting {
                        entry: r.get(0)?,
                        length: r.get(1)?,
                        positions: r.get(2)?,
                    })
                })
                .context("read postings")?
                .collect::<Result<Vec<_>, _>>()
                .context("read postings")?;
            self.cache.insert(term.to_owned(), rows);
        }
        Ok(self.cache.get(term).map_or(&[], Vec::as_slice))
    }

    /// `(entry, length, occurrences)` of every term starting with `prefix`,
    /// summed per entry.
    fn prefix(&self, prefix: &str) -> Result<Vec<(i64, u32, u32)>, Error> {
        let mut stmt = self
            .conn
            .prepare_cached(
                "SELECT term, entry, length, positions FROM memory_postings
                 WHERE ns = ?1 AND term >= ?2 ORDER BY term",
            )
            .context("prepare a prefix read")?;
        let mut rows = stmt
            .query(rusqlite::params![self.ns, prefix])
            .context("read postings")?;
        let mut sums: HashMap<i64, (u32, u32)> = HashMap::new();
        while let Some(r) = rows.next().context("read postings")? {
            let term: String = r.get(0).context("read postings")?;
            // Terms are in bytewise order, so the matches are one run.
            if !term.starts_with(prefix) {
                break;
            }
            let blob: Vec<u8> = r.get(3).context("read postings")?;
            let slot = sums
                .entry(r.get(1).context("read postings")?)
                .or_insert((r.get(2).context("read postings")?, 0));
            slot.1 = slot.1.saturating_add(occurrences(&blob));
        }
        Ok(sums.into_iter().map(|(e, (l, f))| (e, l, f)).collect())
    }

    /// `(entry, length, occurrences)` of the terms at consecutive positions.
    fn sequence(&mut self, terms: &[String]) -> Result<Vec<(i64, u32, u32)>, Error> {
        let mut lists: Vec<HashMap<i64, Vec<u32>>> = Vec::with_capacity(terms.len());
        for t in terms.iter().skip(1) {
            let map = self
                .term(t)?
                .iter()
                .map(|p| Ok((p.entry, positions(&p.positions)?)))
                .collect::<Result<HashMap<_, _>, Error>>()?;
            lists.push(map);
        }
        let Some(first) = terms.first() else {
            return Ok(Vec::new());
        };
        let mut out = Vec::new();
        for p in self.term(first)? {
            if !lists.iter().all(|l| l.contains_key(&p.entry)) {
                continue;
            }
            let starts = positions(&p.positions)?;
            let found = starts
                .iter()
                .filter(|&&s| {
                    lists.iter().zip(1_u32..).all(|(l, i)| {
                        s.checked_add(i)
                            .is_some_and(|at| l[&p.entry].binary_search(&at).is_ok())
                    })
                })
                .count();
            if found > 0 {
                out.push((p.entry, p.length, u32::try_from(found).unwrap_or(u32::MAX)));
            }
        }
        Ok(out)
    }
}

fn occurrences(blob: &[u8]) -> u32 {
    u32::try_from(count_positions(blob)).unwrap_or(u32::MAX)
}

fn positions(blob: &[u8]) -> Result<Vec<u32>, Error> {
    decode_positions(blob)
        .ok_or_else(|| Error::SchemaUnusable("a posting holds a malformed position list".into()))
}

/// At most `limit` hits of one namespace, best BM25 first, ties by key.
pub(crate) fn recall(conn: &Connection, q: &RecallQuery) -> Result<Vec<MemoryEntry>, Error> {
    let tx = conn.unchecked_transaction().context("begin a read")?;
    let found: Option<(i64, Stats)> = tx
        .prepare_cached("SELECT id, entries, tokens FROM memory_namespaces WHERE name = ?1")
        .context("prepare a namespace lookup")?
        .query_row([&q.namespace], |r| {
            Ok((
                r.get(0)?,
                Stats {
                    entries: r.get(1)?,
                    tokens: r.get(2)?,
                },
            ))
        })
        .optional()
        .context("look up a namespace")?;
    let Some((ns, stats)) = found else {
        return Ok(Vec::new());
    };
    let scored = score_candidates(
        &mut Postings {
            conn: &tx,
            ns,
            cache: HashMap::new(),
        },
        &q.phrases,
        stats,
    )?;
    let chosen = best(&tx, &scored, q)?;
    let mut stmt = tx
        .prepare_cached(&format!(
            "SELECT {ENTRY_COLUMNS} FROM memory_entries AS e WHERE e.id = ?1"
        ))
        .context("prepare a hit read")?;
    let mut hits = Vec::with_capacity(chosen.len());
    for (id, score) in chosen {
        if let Some(hit) = stmt
            .query_row([id], |r| entry(r, Some(score)))
            .optional()
            .context("read a hit")?
        {
            hits.push(hit);
        }
    }
    Ok(hits)
}

/// Every entry holding a phrase, with its score, best first.
fn score_candidates(
    postings: &mut Postings<'_>,
    phrases: &[Phrase],
    stats: Stats,
) -> Result<Vec<(f64, i64)>, Error> {
    // Entry id -> (length, occurrences of each phrase).
    let mut candidates: HashMap<i64, (u32, Vec<u32>)> = HashMap::new();
    let mut idf = Vec::with_capacity(phrases.len());
    for (i, phrase) in phrases.iter().enumerate() {
        let matches: Vec<(i64, u32, u32)> = match phrase {
            Phrase::Term(t) => postings
                .term(t)?
                .iter()
                .map(|p| (p.entry, p.length, occurrences(&p.positions)))
                .collect(),
            Phrase::Prefix(p) => postings.prefix(p)?,
            Phrase::Sequence(ts) => postings.sequence(ts)?,
        };
        idf.push(stats.idf(matches.len()));
        for (entry, length, freq) in matches {
            let slot = candidates
                .entry(entry)
                .or_insert_with(|| (length, vec![0; phrases.len()]));
            slot.1[i] = freq;
        }
    }
    let avgdl = stats.avgdl();
    let mut scored: Vec<(f64, i64)> = candidates
        .into_iter()
        .filter_map(|(id, (length, freq))| Some((bm25(&idf, &freq, length, avgdl)?, id)))
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0));
    Ok(scored)
}

/// The first `limit` candidates admitted by the filters, in score order,
/// equal scores by key: reads key, category and session of only as many
/// candidates as that takes (whole groups of equal scores).
fn best(
    conn: &Connection,
    scored: &[(f64, i64)],
    q: &RecallQuery,
) -> Result<Vec<(i64, f64)>, Error> {
    let mut stmt = conn
        .prepare_cached("SELECT key, category, session_id FROM memory_entries WHERE id = ?1")
        .context("prepare a candidate read")?;
    let mut chosen = Vec::new();
    let mut rest = scored;
    while let Some(&(score, _)) = rest.first() {
        if chosen.len() >= q.limit {
            break;
        }
        let n = rest.iter().take_while(|c| c.0 == score).count();
        let (group, next) = rest.split_at(n);
        rest = next;
        let mut keyed: Vec<(String, i64)> = Vec::with_capacity(group.len());
        for &(_, id) in group {
            let row: Option<(String, String, Option<String>)> = stmt
                .query_row([id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
                .optional()
                .context("read a candidate")?;
            let Some((key, category, session)) = row else {
                continue;
            };
            let admitted = q.category.as_ref().is_none_or(|c| *c == category)
                && q.session_id
                    .as_ref()
                    .is_none_or(|s| Some(s) == session.as_ref());
            if admitted {
                keyed.push((key, id));
            }
        }
        keyed.sort();
        let room = q.limit - chosen.len();
        chosen.extend(keyed.into_iter().take(room).map(|(_, id)| (id, score)));
    }
    Ok(chosen)
}
