use std::sync::Arc;
use tinymemory_api::MemoryProvider;
use tinymemory_conformance::{Family, FnFactory, Outcome, Registry, RunConfig, Runner};
use tinymemory_reference::ReferenceDriver;

fn case_of(o: &Outcome) -> Option<u32> {
    match o { Outcome::Fail(f) => f.message.split("[case ").nth(1).and_then(|r| r.split(' ').next()).and_then(|n| n.parse().ok()), _ => None }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn measure() {
    for m in tinymemory_doubles::mutants::mutants().iter().filter(|m| std::env::var("ONLY").map_or(true, |o| o.split(',').any(|x| x == m.name))) {
        let wrap = m.wrap;
        let mut line = format!("{:32}", m.name);
        let mut firsts: std::collections::BTreeMap<&str, Vec<Option<u32>>> = Default::default();
        for seed in 0..10u64 {
            let factory = Arc::new(FnFactory::new("reference", move || Ok(wrap(Box::new(ReferenceDriver::new()) as Box<dyn MemoryProvider>))));
            let cfg = if seed == 0 { RunConfig::default() } else { RunConfig { seed, cases: 256 } };
            let s = Runner::new(Registry::standard().filter(|c| c.family == Family::Property && std::env::var("CHECK").map_or(true, |o| o == c.id))).with_config(cfg).run(factory, None, |_| {}).await;
            for r in &s.reports {
                if seed == 0 && r.outcome.is_fail() { line.push_str(&format!(" {}", r.id)); }
                if seed > 0 { firsts.entry(r.id).or_default().push(case_of(&r.outcome)); }
            }
        }
        println!("DEFAULT {line}");
        for (id, v) in firsts { if v.iter().any(|x| x.is_some()) { println!("RATE {} {id}: {:?}", m.name, v); } }
    }
}
