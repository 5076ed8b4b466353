//! Every check, one `#[test]` each, on the reference driver: the test macro
//! as a driver author uses it.

use tinymemory_reference::ReferenceDriver;

tinymemory_conformance::conformance_tests!(reference, || Ok(Box::new(ReferenceDriver::new()) as _));
