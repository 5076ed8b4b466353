//! The hostile-input table (`tests/common/hostile.rs`) on both kinds of
//! SQLite database.

mod common;

use common::{fixtures, hostile};

macro_rules! on_both {
    ($($name:ident => $check:path;)*) => {$(
        #[tokio::test]
        async fn $name() {
            for f in fixtures() {
                eprintln!("{}", f.name);
                $check(&f.driver).await;
            }
        }
    )*};
}

on_both! {
    keys_and_contents_round_trip => hostile::check_keys_and_contents_round_trip;
    big_content_round_trips => hostile::check_big_content_round_trips;
    hostile_queries_are_plain_text => hostile::check_hostile_queries;
    namespaces_match_exactly_never_as_patterns => hostile::check_namespaces_match_exactly;
    invalid_namespaces_are_refused_everywhere => hostile::check_invalid_namespaces_refused;
}
