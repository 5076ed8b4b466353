//! The run configuration from the environment, so that `cargo test` can be
//! asked for more cases or another seed without editing a test.

use crate::RunConfig;

/// Cases per property check: `TINYMEMORY_CASES=1000 cargo test`.
pub const CASES_ENV: &str = "TINYMEMORY_CASES";

/// proptest's own variable, honoured when [`CASES_ENV`] is unset.
pub const PROPTEST_CASES_ENV: &str = "PROPTEST_CASES";

/// The run seed, decimal or `0x` hexadecimal: `TINYMEMORY_SEED=42`.
pub const SEED_ENV: &str = "TINYMEMORY_SEED";

/// An environment variable that does not hold what it must.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("failed to read {variable}={value:?}: expected {expected}")]
pub struct ConfigError {
    /// The variable.
    pub variable: &'static str,
    /// Its value.
    pub value: String,
    /// What it must hold.
    pub expected: &'static str,
}

impl RunConfig {
    /// [`RunConfig::default`] with the environment's overrides
    /// ([`RunConfig::with_env_overrides`]).
    ///
    /// # Errors
    ///
    /// [`ConfigError`] when a variable is set to something unreadable.
    pub fn from_env() -> Result<Self, ConfigError> {
        Self::default().with_env_overrides()
    }

    /// This configuration with the environment's overrides: `cases` from
    /// [`CASES_ENV`], else [`PROPTEST_CASES_ENV`]; `seed` from [`SEED_ENV`].
    /// Unset or empty variables change nothing.
    ///
    /// # Errors
    ///
    /// [`ConfigError`] when a variable is set to something unreadable: a
    /// case count that is not a whole number below 2^32, a seed that is not
    /// a decimal or `0x` hexadecimal 64-bit number.
    pub fn with_env_overrides(self) -> Result<Self, ConfigError> {
        self.with_overrides(|name| std::env::var(name).ok())
    }

    /// [`RunConfig::with_env_overrides`] over any variable lookup.
    pub(crate) fn with_overrides(
        mut self,
        var: impl Fn(&str) -> Option<String>,
    ) -> Result<Self, ConfigError> {
        let set = |name: &'static str| {
            var(name)
                .filter(|v| !v.trim().is_empty())
                .map(|v| (name, v))
        };
        if let Some((variable, value)) = set(CASES_ENV).or_else(|| set(PROPTEST_CASES_ENV)) {
            self.cases = value.trim().parse().map_err(|_| ConfigError {
                variable,
                value: value.clone(),
                expected: "a whole number of cases, 0 to 4294967295",
            })?;
        }
        if let Some((variable, value)) = set(SEED_ENV) {
            let text = value.trim();
            let parsed = match text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
                Some(hex) => u64::from_str_radix(hex, 16),
                None => text.parse(),
            };
            self.seed = parsed.map_err(|_| ConfigError {
                variable,
                value: value.clone(),
                expected: "a 64-bit seed, decimal or 0x hexadecimal",
            })?;
        }
        Ok(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with(vars: &[(&str, &str)]) -> Result<RunConfig, ConfigError> {
        RunConfig::default().with_overrides(|name| {
            vars.iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| (*v).to_owned())
        })
    }

    #[test]
    fn unset_variables_keep_the_defaults() {
        assert_eq!(with(&[]), Ok(RunConfig::default()));
        assert_eq!(with(&[(CASES_ENV, " ")]), Ok(RunConfig::default()));
    }

    #[test]
    fn tinymemory_cases_wins_over_proptest_cases() {
        let got = with(&[(PROPTEST_CASES_ENV, "7"), (CASES_ENV, "500")]).unwrap();
        assert_eq!(got.cases, 500);
        assert_eq!(with(&[(PROPTEST_CASES_ENV, "7")]).unwrap().cases, 7);
    }

    #[test]
    fn seeds_read_decimal_and_hex() {
        assert_eq!(with(&[(SEED_ENV, "42")]).unwrap().seed, 42);
        assert_eq!(with(&[(SEED_ENV, "0xff")]).unwrap().seed, 255);
    }

    #[test]
    fn unreadable_values_are_errors_naming_the_variable() {
        assert_eq!(
            with(&[(PROPTEST_CASES_ENV, "many")]),
            Err(ConfigError {
                variable: PROPTEST_CASES_ENV,
                value: "many".into(),
                expected: "a whole number of cases, 0 to 4294967295",
            })
        );
        assert_eq!(
            with(&[(SEED_ENV, "-1")]).unwrap_err().to_string(),
            "failed to read TINYMEMORY_SEED=\"-1\": expected a 64-bit seed, decimal or 0x hexadecimal"
        );
    }
}
