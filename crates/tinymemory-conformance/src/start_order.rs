//! The order a run starts its checks in while a corpus may still be
//! loading.
//!
//! The next check to start is the first, in the run's priority order, of
//! those allowed to start: while the corpus loads, a check reading it
//! ([`Family::reads_corpus`](crate::Family::reads_corpus)) is not, and the
//! checks after it start instead; once it is loaded, every check is.
//!
//! The priority order is one of two:
//!
//! - **registry order**, at one job: the checks passed over during the
//!   load come first once it ends (each comes before every check still to
//!   come in the registry), and a run whose corpus is loaded before its
//!   first check starts them in registry order, as before loads overlapped
//!   checks. One job keeps it because a check then starts when the one
//!   before it has finished: on a driver whose stores share one database
//!   (one job whatever `--jobs` says) a later check meets what an earlier
//!   one left in the registry's order, and a person reading the console
//!   sees each line as its check ends, not held behind a costlier one;
//! - **costliest first**, at more than one job: descending
//!   [`cost`](crate::shard::cost) (the check's measured `cost_ms`), ties in
//!   registry order: the longest-processing-time-first rule (Graham,
//!   1969) that `--shard` partitions by, and that schedulers knowing a
//!   task's duration use. A long check started last is the run's tail,
//!   with the other slots idle beside it (a property check fans out only
//!   its own cases); started first, the short checks fill in beside it.
//!
//! Only the order checks start in changes: a check's cases come from the
//! run's seed and its id, and its report goes out in registry order.

use crate::Check;

/// The checks of a run still to start, with their positions.
pub(crate) struct StartOrder<'a> {
    /// The checks not yet started, in priority order.
    left: Vec<(usize, &'a Check)>,
}

impl<'a> StartOrder<'a> {
    /// Every check of `checks`, in registry order, or costliest first
    /// when `costliest_first` (the module docs).
    pub(crate) fn new(checks: &'a [Check], costliest_first: bool) -> Self {
        let mut left: Vec<(usize, &'a Check)> = checks.iter().enumerate().collect();
        if costliest_first {
            // A stable sort: ties stay in registry order.
            left.sort_by_key(|(_, check)| std::cmp::Reverse(crate::shard::cost(check.id)));
        }
        Self { left }
    }

    /// Where in `left` the check to start next is: the first allowed to
    /// start, every check once the corpus is `loaded`, else the first
    /// that does not read it.
    fn next(&self, loaded: bool) -> Option<usize> {
        self.left
            .iter()
            .position(|(_, check)| loaded || !check.family.reads_corpus())
    }

    /// The check to start next, if one may start (the module docs).
    pub(crate) fn peek(&mut self, loaded: bool) -> Option<(usize, &'a Check)> {
        self.next(loaded).map(|i| self.left[i])
    }

    /// Takes the check [`StartOrder::peek`] names.
    pub(crate) fn pop(&mut self, loaded: bool) -> Option<(usize, &'a Check)> {
        self.next(loaded).map(|i| self.left.remove(i))
    }

    /// `true` when every check has started.
    pub(crate) fn is_empty(&mut self) -> bool {
        self.left.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{CheckContext, Family, Outcome, Profiles};

    fn passes(_: CheckContext) -> crate::CheckFuture {
        Box::pin(async { Outcome::Pass })
    }

    fn check(id: &'static str, family: Family) -> Check {
        Check {
            id,
            family,
            profiles: Profiles::BOTH,
            description: "a start order test",
            run: passes,
        }
    }

    fn ids(order: &mut StartOrder<'_>, loaded: bool, n: usize) -> Vec<(usize, &'static str)> {
        (0..n)
            .map_while(|_| order.pop(loaded).map(|(p, c)| (p, c.id)))
            .collect()
    }

    /// While the corpus loads the corpus checks are passed over; once it
    /// is loaded they come first, then the rest in registry order.
    #[test]
    fn corpus_checks_wait_for_the_load_and_then_come_first() {
        let checks = [
            check("a", Family::Contract),
            check("c1", Family::Corpus),
            check("b", Family::Sections),
            check("c2", Family::Corpus),
            check("d", Family::Property),
            check("e", Family::Portability),
        ];
        let mut order = StartOrder::new(&checks, false);
        assert_eq!(ids(&mut order, false, 2), [(0, "a"), (2, "b")]);
        assert_eq!(order.peek(true).map(|(p, _)| p), Some(1));
        assert_eq!(ids(&mut order, true, 2), [(1, "c1"), (3, "c2")]);
        assert_eq!(ids(&mut order, false, 1), [(4, "d")]);
        assert!(!order.is_empty());
        assert_eq!(ids(&mut order, true, 9), [(5, "e")]);
        assert!(order.is_empty());
    }

    /// Loading until the end: every other check starts, the corpus checks
    /// are all that is left, and nothing may start until the load ends.
    #[test]
    fn nothing_starts_when_only_corpus_checks_are_left_during_the_load() {
        let checks = [check("c1", Family::Corpus), check("a", Family::Contract)];
        let mut order = StartOrder::new(&checks, false);
        assert_eq!(ids(&mut order, false, 9), [(1, "a")]);
        assert_eq!(order.peek(false).map(|(p, _)| p), None);
        assert!(!order.is_empty());
        assert_eq!(ids(&mut order, true, 9), [(0, "c1")]);
        assert!(order.is_empty());
    }

    /// A corpus loaded from the start: registry order.
    #[test]
    fn loaded_from_the_start_is_registry_order() {
        let checks = [
            check("a", Family::Contract),
            check("c1", Family::Corpus),
            check("b", Family::Sections),
        ];
        let mut order = StartOrder::new(&checks, false);
        assert_eq!(ids(&mut order, true, 9), [(0, "a"), (1, "c1"), (2, "b")]);
    }

    /// More than one job: costliest first by the checks' measured cost
    /// (`properties.concurrent_equals_sequential` above
    /// `model.differential`, both far above `namespace.invalid_refused`),
    /// ties (two ids of no standard check, the default cost) in registry
    /// order.
    #[test]
    fn costliest_first_ties_in_registry_order() {
        let checks = [
            check("namespace.invalid_refused", Family::Contract),
            check("mine.first", Family::Contract),
            check("model.differential", Family::Property),
            check("mine.second", Family::Contract),
            check("properties.concurrent_equals_sequential", Family::Property),
        ];
        let mut order = StartOrder::new(&checks, true);
        assert_eq!(
            ids(&mut order, true, 9),
            [
                (4, "properties.concurrent_equals_sequential"),
                (2, "model.differential"),
                (1, "mine.first"),
                (3, "mine.second"),
                (0, "namespace.invalid_refused"),
            ]
        );
        assert!(order.is_empty());
    }

    /// Costliest first during the load among the checks that read no
    /// corpus; once loaded, a corpus check passed over takes its place by
    /// cost among the rest, not ahead of them.
    #[test]
    fn costliest_first_passes_over_the_corpus_checks_while_it_loads() {
        let checks = [
            check("corpus.recall_own_words", Family::Corpus),
            check("namespace.invalid_refused", Family::Contract),
            check("model.differential", Family::Property),
            check("properties.concurrent_equals_sequential", Family::Property),
        ];
        let mut order = StartOrder::new(&checks, true);
        assert_eq!(
            ids(&mut order, false, 1),
            [(3, "properties.concurrent_equals_sequential")]
        );
        assert_eq!(
            ids(&mut order, true, 9),
            [
                (2, "model.differential"),
                (0, "corpus.recall_own_words"),
                (1, "namespace.invalid_refused"),
            ]
        );
        assert!(order.is_empty());
    }
}
