//! BoxedProvider.

use tinymemory_api::{MemoryProvider, RecallOptions};
use tinymemory_doubles::{BoxedProvider, NullDriver};
use tinymemory_reference::ReferenceDriver;

use crate::support::{keys, put};

#[tokio::test]
async fn forwards_every_method() {
    let mut d = BoxedProvider::from(Box::new(ReferenceDriver::new()) as Box<dyn MemoryProvider>);
    assert_eq!(d.driver_id(), "reference");
    assert_eq!(
        format!("{d:?}"),
        "BoxedProvider { driver_id: \"reference\" }"
    );
    put(&d, "global", "k", "rust").await;
    assert_eq!(d.get("global", "k").await.unwrap().unwrap().content, "rust");
    assert_eq!(keys(&d.list(None, None, None).await.unwrap()), ["k"]);
    assert_eq!(d.namespaces().await.unwrap()[0].count, 1);
    assert_eq!(
        keys(
            &d.recall("rust", 1, &RecallOptions::default())
                .await
                .unwrap()
        ),
        ["k"]
    );
    assert_eq!(d.forget("global", "k").await, Ok(true));
    assert_eq!(d.get_mut().driver_id(), "reference");
    assert_eq!(d.get_ref().driver_id(), "reference");
    let back: Box<dyn MemoryProvider> = d.into_inner();
    assert_eq!(back.driver_id(), "reference");
    assert_eq!(BoxedProvider::new(Box::new(NullDriver)).driver_id(), "null");
}
