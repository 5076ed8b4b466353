//! Tests of every double, decorator and mutant, through the public API only.

mod faults;
mod latency;
mod mutants;
mod none_means;
mod null;
mod portability;
mod recording;
mod score_seeding;
mod shuffled;
mod support;
mod tamper;
