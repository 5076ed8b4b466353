//! Reading criterion's saved estimates.

use std::fs;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::PAIRED_DIR;

/// One measured benchmark: its id and the median time of one iteration.
#[derive(Debug, Clone, PartialEq)]
pub struct Measurement {
    /// The criterion group id, e.g. `fan_out/reference`.
    pub group: String,
    /// The function id, e.g. `floor`, `section`, `bound_16`.
    pub function: String,
    /// The parameter, e.g. `64`; empty when the benchmark has none.
    pub value: String,
    /// The median time of one iteration, in nanoseconds.
    pub median_ns: f64,
    /// The lower bound of the median's confidence interval (95% unless
    /// criterion was told otherwise), in nanoseconds.
    pub lower_ns: f64,
    /// The upper bound of that interval, in nanoseconds.
    pub upper_ns: f64,
    /// The median over samples of this benchmark's time over its floor's,
    /// timed alternately in the same samples ([`Paired`](crate::Paired)),
    /// when the bench saved one.
    pub paired_ratio: Option<f64>,
}

/// Why a criterion directory could not be read.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ReportError {
    /// A file or directory could not be read.
    #[error("failed to read {path}: {source}")]
    Io {
        /// The path.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// A file is not the JSON criterion 0.5 writes.
    #[error("failed to read {path} as criterion output: {message}")]
    Format {
        /// The path.
        path: PathBuf,
        /// What was missing or malformed.
        message: String,
    },
    /// The directory holds no measurement at all.
    #[error("failed to find any criterion measurement under {0} (run the benches first)")]
    Empty(PathBuf),
}

/// Every measurement under `dir` (criterion's home directory), read from
/// each `new/benchmark.json` and the `new/estimates.json` beside it, with
/// the paired ratios of `dir/`[`PAIRED_DIR`]`/*.json` attached, sorted by
/// `(group, function, value)`.
///
/// # Errors
///
/// [`ReportError::Io`] when a directory or file cannot be read,
/// [`ReportError::Format`] when a file lacks the ids or the median, and
/// [`ReportError::Empty`] when nothing was measured.
pub fn load(dir: &Path) -> Result<Vec<Measurement>, ReportError> {
    let mut found = Vec::new();
    walk(dir, &mut found)?;
    if found.is_empty() {
        return Err(ReportError::Empty(dir.to_owned()));
    }
    attach_paired(&dir.join(PAIRED_DIR), &mut found)?;
    found.sort_by(|a, b| (&a.group, &a.function, &a.value).cmp(&(&b.group, &b.function, &b.value)));
    Ok(found)
}

fn walk(dir: &Path, found: &mut Vec<Measurement>) -> Result<(), ReportError> {
    let io = |source| ReportError::Io {
        path: dir.to_owned(),
        source,
    };
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)
        .map_err(io)?
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<_, _>>()
        .map_err(io)?;
    entries.sort();
    for path in entries {
        if !path.is_dir() {
            continue;
        }
        // Only `new/` holds this run's figures; `base/` holds a baseline's.
        if path.file_name().is_some_and(|n| n == "new") {
            let bench = path.join("benchmark.json");
            if bench.is_file() {
                found.push(read_one(&bench, &path.join("estimates.json"))?);
            }
        } else {
            walk(&path, found)?;
        }
    }
    Ok(())
}

fn attach_paired(dir: &Path, found: &mut [Measurement]) -> Result<(), ReportError> {
    if !dir.is_dir() {
        return Ok(());
    }
    let io = |source| ReportError::Io {
        path: dir.to_owned(),
        source,
    };
    for entry in fs::read_dir(dir).map_err(io)? {
        let path = entry.map_err(io)?.path();
        if path.extension().is_none_or(|e| e != "json") {
            continue;
        }
        let p = read_json(&path)?;
        let text = |key: &str| {
            p.get(key)
                .and_then(Value::as_str)
                .ok_or_else(|| ReportError::Format {
                    path: path.clone(),
                    message: format!("no {key}"),
                })
        };
        let (group, function, value) = (text("group")?, text("function")?, text("value")?);
        let ratio = p.get("median_ratio").and_then(Value::as_f64);
        if let Some(m) = found
            .iter_mut()
            .find(|m| m.group == group && m.function == function && m.value == value)
        {
            m.paired_ratio = ratio;
        }
    }
    Ok(())
}

fn read_json(path: &Path) -> Result<Value, ReportError> {
    let text = fs::read_to_string(path).map_err(|source| ReportError::Io {
        path: path.to_owned(),
        source,
    })?;
    serde_json::from_str(&text).map_err(|e| ReportError::Format {
        path: path.to_owned(),
        message: e.to_string(),
    })
}

fn read_one(bench: &Path, estimates: &Path) -> Result<Measurement, ReportError> {
    let b = read_json(bench)?;
    let e = read_json(estimates)?;
    let missing = |path: &Path, what: &str| ReportError::Format {
        path: path.to_owned(),
        message: format!("no {what}"),
    };
    let text = |key: &str| b.get(key).and_then(Value::as_str).map(str::to_owned);
    let number = |pointer: &str| {
        e.pointer(pointer)
            .and_then(Value::as_f64)
            .ok_or_else(|| missing(estimates, pointer))
    };
    Ok(Measurement {
        group: text("group_id").ok_or_else(|| missing(bench, "group_id"))?,
        function: text("function_id").unwrap_or_default(),
        value: text("value_str").unwrap_or_default(),
        median_ns: number("/median/point_estimate")?,
        lower_ns: number("/median/confidence_interval/lower_bound")?,
        upper_ns: number("/median/confidence_interval/upper_bound")?,
        paired_ratio: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, id: &str, bench: &str, median: f64) {
        let new = dir.join(id).join("new");
        fs::create_dir_all(&new).unwrap();
        fs::write(new.join("benchmark.json"), bench).unwrap();
        fs::write(
            new.join("estimates.json"),
            format!(
                r#"{{"mean":{{"point_estimate":1.0}},"median":{{"confidence_interval":
                {{"confidence_level":0.95,"lower_bound":{lo},"upper_bound":{hi}}},
                "point_estimate":{median},"standard_error":1.0}}}}"#,
                lo = median - 1.0,
                hi = median + 1.0
            ),
        )
        .unwrap();
    }

    #[test]
    fn reads_new_estimates_only() {
        let dir = tempfile::tempdir().unwrap();
        write(
            dir.path(),
            "fan_out_reference/floor/64",
            r#"{"group_id":"fan_out/reference","function_id":"floor","value_str":"64"}"#,
            100.0,
        );
        write(
            dir.path(),
            "merge_finite/merge/10",
            r#"{"group_id":"merge/finite","function_id":"merge","value_str":"10"}"#,
            7.5,
        );
        let paired = dir.path().join(PAIRED_DIR);
        fs::create_dir_all(&paired).unwrap();
        fs::write(
            paired.join("x.json"),
            r#"{"group":"merge/finite","function":"merge","value":"10","median_ratio":1.5}"#,
        )
        .unwrap();
        // A baseline copy is not this run.
        let base = dir.path().join("merge_finite/merge/10/base");
        fs::create_dir_all(&base).unwrap();
        fs::write(base.join("benchmark.json"), "{}").unwrap();
        let got = load(dir.path()).unwrap();
        assert_eq!(
            got,
            [
                Measurement {
                    group: "fan_out/reference".into(),
                    function: "floor".into(),
                    value: "64".into(),
                    median_ns: 100.0,
                    lower_ns: 99.0,
                    upper_ns: 101.0,
                    paired_ratio: None,
                },
                Measurement {
                    group: "merge/finite".into(),
                    function: "merge".into(),
                    value: "10".into(),
                    median_ns: 7.5,
                    lower_ns: 6.5,
                    upper_ns: 8.5,
                    paired_ratio: Some(1.5),
                },
            ]
        );
    }

    #[test]
    fn empty_and_malformed_directories_are_errors() {
        let dir = tempfile::tempdir().unwrap();
        assert!(matches!(load(dir.path()), Err(ReportError::Empty(_))));
        write(dir.path(), "x/new_one", r#"{"function_id":"floor"}"#, 1.0);
        assert!(matches!(load(dir.path()), Err(ReportError::Format { .. })));
        assert!(matches!(
            load(&dir.path().join("missing")),
            Err(ReportError::Io { .. })
        ));
    }
}
