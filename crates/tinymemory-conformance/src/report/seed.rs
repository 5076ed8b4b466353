//! Seeds in JSON: decimal strings, because a `u64` seed above 2^53 loses
//! digits in JavaScript and in `jq`.

use serde::{de, Deserialize, Deserializer, Serializer};

/// Writes `seed` as a decimal string.
pub(crate) fn serialize<S: Serializer>(seed: &u64, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(seed)
}

/// Reads a decimal string (or, leniently, a JSON integer small enough to be
/// exact).
pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Raw {
        Text(String),
        Number(u64),
    }
    match Raw::deserialize(d)? {
        Raw::Number(n) => Ok(n),
        Raw::Text(t) => t.parse().map_err(|_| {
            de::Error::custom(format_args!(
                "seed {t:?} is not a decimal integer between 0 and 18446744073709551615"
            ))
        }),
    }
}
