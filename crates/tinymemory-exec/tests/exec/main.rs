//! The exec driver against real processes: the Python examples through the
//! whole suite, drivers that misbehave, and the JSON Schemas against both
//! sides of the wire. Every test needs `python3` on `PATH` (`.ci/run`
//! checks for it).

mod ahead;
mod examples;
mod interface_inputs;
mod misbehaving;
mod optional;
mod processes;
mod profiles;
mod schema_check;
mod schemas;
mod support;
