//! The order a run starts its checks in while a corpus may still be
//! loading.
//!
//! Registry order, except that a check reading the corpus
//! ([`Family::reads_corpus`](crate::Family::reads_corpus)) is passed over
//! while the corpus loads and the checks after it start instead; once the
//! corpus is loaded, the checks passed over start first, in registry
//! order, before any check still to come. A run whose corpus is loaded
//! before its first check starts in registry order, as before loads
//! overlapped checks.

use std::collections::VecDeque;
use std::iter::{Enumerate, Peekable};
use std::slice;

use crate::Check;

/// The checks of a run still to start, with their positions.
pub(crate) struct StartOrder<'a> {
    next: Peekable<Enumerate<slice::Iter<'a, Check>>>,
    /// Checks reading the corpus, passed over while it loads.
    waiting: VecDeque<(usize, &'a Check)>,
}

impl<'a> StartOrder<'a> {
    /// Every check of `checks`, from the first.
    pub(crate) fn new(checks: &'a [Check]) -> Self {
        Self {
            next: checks.iter().enumerate().peekable(),
            waiting: VecDeque::new(),
        }
    }

    /// The check to start next, if one may start: with the corpus
    /// `loaded`, the first check passed over, else the next one; while it
    /// loads, the next check that does not read it (those that do are
    /// passed over on the way).
    pub(crate) fn peek(&mut self, loaded: bool) -> Option<(usize, &'a Check)> {
        if loaded {
            return self
                .waiting
                .front()
                .copied()
                .or_else(|| self.next.peek().copied());
        }
        while let Some(&(position, check)) = self.next.peek() {
            if !check.family.reads_corpus() {
                return Some((position, check));
            }
            self.waiting.push_back((position, check));
            self.next.next();
        }
        None
    }

    /// Takes the check [`StartOrder::peek`] names.
    pub(crate) fn pop(&mut self, loaded: bool) -> Option<(usize, &'a Check)> {
        let first = self.peek(loaded)?;
        if loaded && !self.waiting.is_empty() {
            self.waiting.pop_front()
        } else {
            self.next.next();
            Some(first)
        }
    }

    /// `true` when every check has started.
    pub(crate) fn is_empty(&mut self) -> bool {
        self.waiting.is_empty() && self.next.peek().is_none()
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
        let mut order = StartOrder::new(&checks);
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
        let mut order = StartOrder::new(&checks);
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
        let mut order = StartOrder::new(&checks);
        assert_eq!(ids(&mut order, true, 9), [(0, "a"), (1, "c1"), (2, "b")]);
    }
}
