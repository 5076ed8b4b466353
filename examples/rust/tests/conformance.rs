// tests/conformance.rs
use my_memory::MyMemory;

tinymemory_conformance::conformance_tests!(
    conformance,
    || Ok(Box::new(MyMemory::default()) as _),
    corpus = tinymemory_corpus::Corpus::default_root(),
);
