//! [`Hooked`]: the order of `before`, the call and `after`; a refused call
//! never reaching the provider; cancellation; and every method's call and
//! answer carrying exactly what the method was given and returned.

use std::future::Future;
use std::pin::pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, Waker};

use async_trait::async_trait;
use tinymemory_api::batch::NewEntry;
use tinymemory_api::portability::{ExportCursor, ExportPage, ImportOutcome, MemoryRecord};
use tinymemory_api::{
    Answer, Call, CallHook, Hooked, MemoryCategory, MemoryEntry, MemoryError, MemoryProvider,
    MemoryTaint, Method, NamespaceSummary, RecallOptions,
};

/// What happened, in order, across the hook and the provider.
type Events = Arc<Mutex<Vec<String>>>;

fn push(events: &Events, event: String) {
    events.lock().unwrap().push(event);
}

/// A provider that logs each call it receives (`provider <method> <its
/// arguments>`) and answers with fixed values.
struct Scripted {
    events: Events,
}

#[async_trait]
impl MemoryProvider for Scripted {
    fn driver_id(&self) -> &str {
        "scripted"
    }

    async fn store(
        &self,
        namespace: &str,
        key: &str,
        content: &str,
        category: MemoryCategory,
        session_id: Option<&str>,
        taint: MemoryTaint,
    ) -> Result<(), MemoryError> {
        push(
            &self.events,
            format!(
                "provider store {namespace} {key} {content} {category} {session_id:?} {taint:?}"
            ),
        );
        Ok(())
    }

    async fn get(&self, namespace: &str, key: &str) -> Result<Option<MemoryEntry>, MemoryError> {
        push(&self.events, format!("provider get {namespace} {key}"));
        Ok(None)
    }

    async fn forget(&self, namespace: &str, key: &str) -> Result<bool, MemoryError> {
        push(&self.events, format!("provider forget {namespace} {key}"));
        Err(MemoryError::fault("forget failed"))
    }

    async fn list(
        &self,
        namespace: Option<&str>,
        category: Option<&MemoryCategory>,
        session_id: Option<&str>,
    ) -> Result<Vec<MemoryEntry>, MemoryError> {
        push(
            &self.events,
            format!("provider list {namespace:?} {category:?} {session_id:?}"),
        );
        Ok(Vec::new())
    }

    async fn namespaces(&self) -> Result<Vec<NamespaceSummary>, MemoryError> {
        push(&self.events, "provider namespaces".into());
        Ok(vec![NamespaceSummary {
            namespace: "global".into(),
            count: 3,
            last_updated: None,
        }])
    }

    async fn recall(
        &self,
        query: &str,
        limit: usize,
        opts: &RecallOptions,
    ) -> Result<Vec<MemoryEntry>, MemoryError> {
        push(
            &self.events,
            format!("provider recall {query} {limit} {:?}", opts.namespace),
        );
        Ok(Vec::new())
    }

    async fn store_many(&self, entries: &[NewEntry]) -> Result<(), MemoryError> {
        push(
            &self.events,
            format!("provider store_many {}", entries.len()),
        );
        Ok(())
    }

    async fn export_page(
        &self,
        cursor: Option<&ExportCursor>,
        limit: usize,
    ) -> Result<ExportPage, MemoryError> {
        push(
            &self.events,
            format!(
                "provider export_page {:?} {limit}",
                cursor.map(ExportCursor::as_str)
            ),
        );
        Ok(ExportPage {
            records: Vec::new(),
            next_cursor: None,
        })
    }

    async fn import(&self, records: &[MemoryRecord]) -> Result<ImportOutcome, MemoryError> {
        push(&self.events, format!("provider import {}", records.len()));
        Ok(ImportOutcome {
            imported: records.len(),
            failures: Vec::new(),
        })
    }
}

/// Logs `before <method>` and `after <method> <ok|the error>` with a
/// sequence number carried from one to the other; refuses the methods in
/// `refuse`.
struct Logging {
    events: Events,
    refuse: Vec<Method>,
}

impl CallHook for Logging {
    type Pending = usize;

    async fn before(&self, call: &Call<'_>) -> Result<usize, MemoryError> {
        let n = self.events.lock().unwrap().len();
        push(&self.events, format!("before {} #{n}", call.method()));
        if self.refuse.contains(&call.method()) {
            return Err(MemoryError::unavailable(format!(
                "{} refused",
                call.method()
            )));
        }
        Ok(n)
    }

    fn after(&self, call: &Call<'_>, answer: Answer<'_>, pending: usize) {
        assert_eq!(
            call.method(),
            answer.method(),
            "after gets the call's own answer"
        );
        let shown = answer.error().map_or("ok".to_owned(), ToString::to_string);
        push(
            &self.events,
            format!("after {} #{pending} {shown}", call.method()),
        );
    }
}

fn hooked(refuse: Vec<Method>) -> (Hooked<Scripted, Logging>, Events) {
    let events = Events::default();
    let driver = Hooked::new(
        Scripted {
            events: events.clone(),
        },
        Logging {
            events: events.clone(),
            refuse,
        },
    );
    (driver, events)
}

fn taken(events: &Events) -> Vec<String> {
    std::mem::take(&mut *events.lock().unwrap())
}

#[tokio::test]
async fn before_then_the_provider_then_after_with_the_answer_for_every_method() {
    let (driver, events) = hooked(Vec::new());
    assert_eq!(driver.driver_id(), "scripted");
    let custom = MemoryCategory::Custom("notes".into());
    driver
        .store(
            "learning:a",
            "k1",
            "comet",
            custom,
            Some("s1"),
            MemoryTaint::ExternalSync,
        )
        .await
        .unwrap();
    assert_eq!(
        taken(&events),
        [
            "before store #0",
            "provider store learning:a k1 comet custom:notes Some(\"s1\") ExternalSync",
            "after store #0 ok",
        ]
    );

    assert_eq!(driver.get("global", "k").await, Ok(None));
    assert_eq!(
        driver.forget("global", "k").await,
        Err(MemoryError::fault("forget failed")),
        "the provider's error comes back unchanged"
    );
    driver
        .list(Some("global"), Some(&MemoryCategory::Daily), None)
        .await
        .unwrap();
    assert_eq!(driver.namespaces().await.unwrap()[0].count, 3);
    driver
        .recall("comet", 7, &RecallOptions::in_namespace("learning:a"))
        .await
        .unwrap();
    driver
        .store_many(&[
            NewEntry::new("global", "a", "x"),
            NewEntry::new("global", "b", "y"),
        ])
        .await
        .unwrap();
    let cursor = ExportCursor::new("c1".to_owned());
    driver.export_page(Some(&cursor), usize::MAX).await.unwrap();
    assert_eq!(driver.import(&[]).await.unwrap().imported, 0);
    assert_eq!(
        taken(&events),
        [
            "before get #0",
            "provider get global k",
            "after get #0 ok",
            "before forget #3",
            "provider forget global k",
            "after forget #3 backend failure: forget failed",
            "before list #6",
            "provider list Some(\"global\") Some(Daily) None",
            "after list #6 ok",
            "before namespaces #9",
            "provider namespaces",
            "after namespaces #9 ok",
            "before recall #12",
            "provider recall comet 7 Some(\"learning:a\")",
            "after recall #12 ok",
            "before store_many #15",
            "provider store_many 2",
            "after store_many #15 ok",
            "before export_page #18",
            &format!("provider export_page Some(\"c1\") {}", usize::MAX),
            "after export_page #18 ok",
            "before import #21",
            "provider import 0",
            "after import #21 ok",
        ]
    );
}

#[tokio::test]
async fn a_refused_call_never_reaches_the_provider_nor_after() {
    let (driver, events) = hooked(vec![Method::Get, Method::StoreMany]);
    assert_eq!(
        driver.get("global", "k").await,
        Err(MemoryError::unavailable("get refused"))
    );
    assert_eq!(
        driver
            .store_many(&[NewEntry::new("global", "a", "x")])
            .await,
        Err(MemoryError::unavailable("store_many refused"))
    );
    driver.namespaces().await.unwrap();
    assert_eq!(
        taken(&events),
        [
            "before get #0",
            "before store_many #1",
            "before namespaces #2",
            "provider namespaces",
            "after namespaces #2 ok",
        ]
    );
}

/// Marks its drop, so a test sees the pending value of a cancelled call go.
struct DropMark(Events);

impl Drop for DropMark {
    fn drop(&mut self) {
        push(&self.0, "pending dropped".into());
    }
}

/// Waits for the runtime once in `before`, so a call can be dropped
/// while it is under way.
struct YieldsOnce;

impl CallHook for YieldsOnce {
    type Pending = ();

    async fn before(&self, _call: &Call<'_>) -> Result<(), MemoryError> {
        let mut yielded = false;
        std::future::poll_fn(|cx| {
            if yielded {
                Poll::Ready(())
            } else {
                yielded = true;
                cx.waker().wake_by_ref();
                Poll::Pending
            }
        })
        .await;
        Ok(())
    }
}

/// Hands a [`DropMark`] from `before` to `after`.
struct Marks {
    events: Events,
}

impl CallHook for Marks {
    type Pending = DropMark;

    async fn before(&self, call: &Call<'_>) -> Result<DropMark, MemoryError> {
        push(&self.events, format!("before {}", call.method()));
        Ok(DropMark(self.events.clone()))
    }

    fn after(&self, call: &Call<'_>, _answer: Answer<'_>, pending: DropMark) {
        push(&self.events, format!("after {}", call.method()));
        drop(pending);
    }
}

#[test]
fn a_cancelled_call_drops_its_pending_value_without_after() {
    let events = Events::default();
    let scripted = Scripted {
        events: events.clone(),
    };
    // Marks outside, so its call is under way while the inner hook waits.
    let driver = Hooked::new(
        Hooked::new(scripted, YieldsOnce),
        Marks {
            events: events.clone(),
        },
    );
    let mut cx = Context::from_waker(Waker::noop());
    {
        let mut call = pin!(driver.get("global", "k"));
        assert!(call.as_mut().poll(&mut cx).is_pending());
    }
    assert_eq!(taken(&events), ["before get", "pending dropped"]);

    let mut call = pin!(driver.get("global", "k"));
    assert!(call.as_mut().poll(&mut cx).is_pending());
    assert_eq!(call.as_mut().poll(&mut cx), Poll::Ready(Ok(None)));
    assert_eq!(
        taken(&events),
        [
            "before get",
            "provider get global k",
            "after get",
            "pending dropped"
        ]
    );
}

#[tokio::test]
async fn the_no_op_hook_forwards_and_an_unsized_provider_is_wrapped() {
    let events = Events::default();
    let boxed: Box<Hooked<dyn MemoryProvider, ()>> = Box::new(Hooked::new(
        Scripted {
            events: events.clone(),
        },
        (),
    ));
    assert_eq!(boxed.get("global", "k").await, Ok(None));
    assert_eq!(boxed.get_ref().driver_id(), "scripted");
    assert_eq!(taken(&events), ["provider get global k"]);
}

#[tokio::test]
async fn the_hook_is_reached_changed_and_given_back() {
    let (mut driver, events) = hooked(Vec::new());
    driver.hook_mut().refuse.push(Method::Namespaces);
    assert_eq!(
        driver.namespaces().await,
        Err(MemoryError::unavailable("namespaces refused"))
    );
    assert_eq!(driver.hook().refuse, [Method::Namespaces]);
    let (provider, hook) = driver.into_parts();
    assert_eq!((provider.driver_id(), hook.refuse.len()), ("scripted", 1));
    assert_eq!(taken(&events), ["before namespaces #0"]);
}
