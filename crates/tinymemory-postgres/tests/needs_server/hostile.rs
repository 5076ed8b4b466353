//! The SQLite driver's hostile-input table, unchanged, on PostgreSQL: each
//! check on a fresh scratch schema.

use crate::common::{factory_or_skip, fresh};
use crate::hostile_table as table;

macro_rules! on_postgres {
    ($($name:ident => $check:path;)*) => {$(
        #[tokio::test]
        async fn $name() {
            let factory = factory_or_skip!(concat!("hostile::", stringify!($name)));
            $check(&fresh(&factory).await).await;
            factory.cleanup().await.unwrap();
        }
    )*};
}

on_postgres! {
    keys_and_contents_round_trip => table::check_keys_and_contents_round_trip;
    big_content_round_trips => table::check_big_content_round_trips;
    hostile_queries_are_plain_text => table::check_hostile_queries;
    namespaces_match_exactly_never_as_patterns => table::check_namespaces_match_exactly;
    invalid_namespaces_are_refused_everywhere => table::check_invalid_namespaces_refused;
}
