//! The semantic reference driver's embedding: feature hashing into a
//! dense vector, compared by cosine similarity.
//!
//! No model is downloaded or trained: an embedding is a fixed function of
//! the text, so two runs, two machines and two builds agree to the bit.
//!
//! # Formula
//!
//! 1. The text's [`words`](crate::words) (contract words, lowercased,
//!    distinct) give the features: each word itself (weight 2), and each
//!    character trigram of the word padded as `^word$` (weight 1), so that
//!    `async` and `asynchronous`, or two runs of Chinese sharing characters,
//!    are near without being equal. A feature counts once per text,
//!    however often it occurs.
//! 2. Each feature is hashed with 64-bit FNV-1a into one of [`DIMENSIONS`]
//!    buckets (the hash modulo the dimension), with a sign from the hash's
//!    top bit: signed feature hashing (Weinberger et al., "Feature Hashing
//!    for Large Scale Multitask Learning", ICML 2009), whose signs make
//!    collisions cancel out in expectation instead of inflating similarity.
//! 3. The score of an entry for a query is the cosine similarity of their
//!    vectors, `q·d / sqrt((q·q)(d·d))`, in `[-1, 1]`, higher is better;
//!    `0` when either vector is zero (a text with no words).
//!
//! Every component is an integer, so `q·q`, `d·d` and `q·d` are exact and
//! an entry's own text scores exactly `1.0` against it; texts with the same
//! features (`hi` and `hi hi`) score exactly the same.

use std::collections::BTreeMap;

/// The number of buckets: enough that the few hundred features of a
/// sentence rarely collide, few enough to stay small.
pub const DIMENSIONS: u64 = 1024;

/// Weight of a whole-word feature; a trigram weighs 1.
const WORD_WEIGHT: i64 = 2;

/// A sparse embedding: `(bucket, non-zero component)` pairs, ordered by
/// bucket.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Embedding {
    components: Vec<(u64, i64)>,
}

/// 64-bit FNV-1a (Fowler, Noll and Vo) of `text`'s UTF-8 bytes.
fn fnv1a(text: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

impl Embedding {
    /// The embedding of `text`, per the module's formula.
    #[must_use]
    pub fn of(text: &str) -> Self {
        // `w:` and `g:` keep a one-letter word apart from a trigram.
        let mut features: BTreeMap<String, i64> = BTreeMap::new();
        for word in crate::words(text) {
            let padded: Vec<char> = std::iter::once('^')
                .chain(word.chars())
                .chain(std::iter::once('$'))
                .collect();
            for gram in padded.windows(3) {
                features.insert(format!("g:{}", gram.iter().collect::<String>()), 1);
            }
            features.insert(format!("w:{word}"), WORD_WEIGHT);
        }
        let mut components: BTreeMap<u64, i64> = BTreeMap::new();
        for (feature, weight) in features {
            let h = fnv1a(&feature);
            let sign = if h >> 63 == 1 { -1 } else { 1 };
            *components.entry(h % DIMENSIONS).or_default() += sign * weight;
        }
        Self {
            components: components.into_iter().filter(|(_, v)| *v != 0).collect(),
        }
    }

    /// The dot product with `other`: a merge of the two bucket lists.
    #[must_use]
    pub fn dot(&self, other: &Self) -> i64 {
        let (mut a, mut b) = (self.components.iter(), other.components.iter());
        let (mut x, mut y) = (a.next(), b.next());
        let mut sum = 0;
        while let (Some(&(i, u)), Some(&(j, v))) = (x, y) {
            match i.cmp(&j) {
                std::cmp::Ordering::Less => x = a.next(),
                std::cmp::Ordering::Greater => y = b.next(),
                std::cmp::Ordering::Equal => {
                    sum += u * v;
                    x = a.next();
                    y = b.next();
                }
            }
        }
        sum
    }

    /// The cosine similarity with `other`, in `[-1, 1]`; `0.0` when either
    /// is the zero vector.
    #[must_use]
    pub fn cosine(&self, other: &Self) -> f64 {
        let (qq, dd) = (self.dot(self), other.dot(other));
        if qq == 0 || dd == 0 {
            return 0.0;
        }
        #[expect(
            clippy::cast_precision_loss,
            reason = "components are small integers: a text's dot products stay far below 2^52"
        )]
        let (qd, qq, dd) = (self.dot(other) as f64, qq as f64, dd as f64);
        // An integer dot product of 0 converts to +0.0, so no score is -0.0
        // and equal scores are equal bits.
        (qd / (qq * dd).sqrt()).clamp(-1.0, 1.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn own_text_scores_one_and_feature_sets_tie() {
        let e = Embedding::of("async fn returns a future");
        assert_eq!(e.cosine(&e).to_bits(), 1.0_f64.to_bits());
        assert_eq!(Embedding::of("hi").cosine(&Embedding::of("hi hi HI")), 1.0);
        assert_eq!(Embedding::of("hi"), Embedding::of("Hi, hi!"));
    }

    #[test]
    fn related_words_are_nearer_than_unrelated_ones() {
        let q = Embedding::of("asynchronous programming");
        let near = q.cosine(&Embedding::of("async programs"));
        let far = q.cosine(&Embedding::of("granite steps by the river"));
        assert!(near > far, "{near} <= {far}");
        assert!(near > 0.2 && near < 1.0, "{near}");
    }

    #[test]
    fn no_words_is_the_zero_vector() {
        let zero = Embedding::of("?! ( * \"");
        assert_eq!(zero, Embedding::default());
        assert_eq!(zero.cosine(&Embedding::of("river")), 0.0);
        assert_eq!(Embedding::of("river").cosine(&zero), 0.0);
    }

    #[test]
    fn fnv1a_matches_the_published_test_vectors() {
        // From the reference implementation's test suite (isthe.com/chongo).
        assert_eq!(fnv1a(""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a("a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a("foobar"), 0x8594_4171_f739_67e8);
    }
}

#[cfg(test)]
mod golden {
    use super::*;

    /// The formula pinned to its exact output, so that any change to the
    /// hash, the signs, the buckets or the weights shows: the conformance
    /// checks accept any valid embedding, the reference driver has one.
    #[test]
    fn the_embedding_of_a_short_text_is_exactly_this() {
        let e = Embedding::of("Async fn");
        // Words weigh 2 (`w:async`, `w:fn`), the seven trigrams of `^async$`
        // and `^fn$` 1, each with its hash's sign, in buckets of 1024.
        assert_eq!(
            e.components,
            [
                (68, 1),
                (151, 1),
                (376, 2),
                (722, -1),
                (750, -1),
                (762, -1),
                (776, 1),
                (905, -1),
                (952, 2)
            ]
        );
        assert_eq!(e.dot(&e), 15);
        let q = Embedding::of("async programming");
        // They share the word `async` and its trigrams; colliding buckets
        // of other features move the dot product too, as signed hashing
        // allows.
        assert_eq!((e.dot(&q), q.dot(&q)), (8, 22));
        assert_eq!(e.cosine(&q).to_bits(), (8.0 / 330.0_f64.sqrt()).to_bits());
        assert_eq!(e.cosine(&q), 0.440_385_506_050_544_3);
    }
}
