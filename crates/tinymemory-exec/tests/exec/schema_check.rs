//! A JSON Schema validator for exactly the keywords the protocol's schemas
//! use. Any other keyword panics, so a schema can never hold a constraint
//! these tests silently skip.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde_json::Value;

/// Keywords that only annotate.
const ANNOTATIONS: [&str; 3] = ["$schema", "title", "description"];

/// The schemas of `fixtures/protocol`, by file name.
pub struct Schemas {
    files: BTreeMap<String, Value>,
}

impl Schemas {
    /// Every `*.schema.json` of `fixtures/protocol`.
    pub fn load() -> Self {
        Self::load_from(&Self::dir())
    }

    /// Every `*.schema.json` of `dir` (the CLI's tests read
    /// `fixtures/cli`).
    #[allow(dead_code, reason = "the CLI's tests use it, the exec tests do not")]
    pub fn load_from(dir: &std::path::Path) -> Self {
        let dir = dir.to_path_buf();
        let mut files = BTreeMap::new();
        for entry in std::fs::read_dir(&dir).expect("the schema directory exists") {
            let path = entry.expect("a directory entry").path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if name.ends_with(".schema.json") {
                let text = std::fs::read_to_string(&path).expect("the schema is readable");
                let value: Value =
                    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
                files.insert(name, value);
            }
        }
        Self { files }
    }

    /// `fixtures/protocol` in the repository.
    pub fn dir() -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/protocol")
    }

    /// The file names, sorted.
    pub fn names(&self) -> Vec<&str> {
        self.files.keys().map(String::as_str).collect()
    }

    /// What breaks the header every schema opens with, one line a file
    /// (`NAME: what`), in name order: `$schema` the 2020-12 draft, a
    /// non-empty `title` and `description`, and no `$id`. The schemas name
    /// each other by relative `$ref` (`entry.schema.json`), resolved
    /// against the file's own place, and have no stable address to be
    /// named by; a `$id` on some would make the same `$ref` mean another
    /// document in them than in the rest.
    #[allow(dead_code, reason = "each test crate checks the directory it loads")]
    pub fn header_problems(&self) -> Vec<String> {
        const DRAFT: &str = "https://json-schema.org/draft/2020-12/schema";
        let mut problems = Vec::new();
        for (name, schema) in &self.files {
            if schema.get("$schema").and_then(Value::as_str) != Some(DRAFT) {
                problems.push(format!("{name}: $schema is not {DRAFT}"));
            }
            for field in ["title", "description"] {
                if schema
                    .get(field)
                    .and_then(Value::as_str)
                    .is_none_or(str::is_empty)
                {
                    problems.push(format!("{name}: no {field}"));
                }
            }
            if schema.get("$id").is_some() {
                problems.push(format!("{name}: $id given"));
            }
        }
        problems
    }

    /// Checks `instance` against the schema in `file`.
    ///
    /// # Errors
    ///
    /// The first violation, with its JSON path.
    pub fn validate(&self, file: &str, instance: &Value) -> Result<(), String> {
        let schema = self
            .files
            .get(file)
            .unwrap_or_else(|| panic!("no schema {file}"));
        self.check(schema, instance, "$")
    }

    fn check(&self, schema: &Value, v: &Value, at: &str) -> Result<(), String> {
        let Value::Object(schema) = schema else {
            panic!("a schema at {at} is not an object");
        };
        for (keyword, arg) in schema {
            match keyword.as_str() {
                k if ANNOTATIONS.contains(&k) => {}
                "type" => check_type(arg, v, at)?,
                "const" => expect(v == arg, at, || format!("expected {arg}, got {v}"))?,
                "enum" => {
                    let options = arg.as_array().expect("enum is an array");
                    expect(options.contains(v), at, || {
                        format!("{v} is not one of {arg}")
                    })?;
                }
                "properties" | "required" | "additionalProperties" => {
                    if let Value::Object(object) = v {
                        self.check_object(keyword, arg, schema, object, at)?;
                    }
                }
                "items" => {
                    if let Value::Array(items) = v {
                        for (i, item) in items.iter().enumerate() {
                            self.check(arg, item, &format!("{at}[{i}]"))?;
                        }
                    }
                }
                "minimum" => {
                    if let Some(n) = v.as_f64() {
                        let min = arg.as_f64().expect("minimum is a number");
                        expect(n >= min, at, || format!("{n} is below the minimum {min}"))?;
                    }
                }
                "minLength" | "maxLength" => {
                    if let Some(s) = v.as_str() {
                        let bound = usize::try_from(arg.as_u64().expect("a length")).unwrap();
                        let n = s.chars().count();
                        let ok = if keyword == "minLength" {
                            n >= bound
                        } else {
                            n <= bound
                        };
                        expect(ok, at, || format!("length {n} breaks {keyword} {bound}"))?;
                    }
                }
                "pattern" => {
                    if let Some(s) = v.as_str() {
                        let ok = char_class_pattern(arg.as_str().expect("a pattern"), s);
                        expect(ok, at, || format!("{s:?} does not match {arg}"))?;
                    }
                }
                "$ref" => {
                    let file = arg.as_str().expect("$ref is a string");
                    let target = self
                        .files
                        .get(file)
                        .unwrap_or_else(|| panic!("$ref to missing {file}"));
                    self.check(target, v, at)?;
                }
                "anyOf" => {
                    let options = arg.as_array().expect("anyOf is an array");
                    let any = options.iter().any(|o| self.check(o, v, at).is_ok());
                    expect(any, at, || format!("{v} matches none of anyOf"))?;
                }
                "if" => {
                    if self.check(arg, v, at).is_ok() {
                        if let Some(then) = schema.get("then") {
                            self.check(then, v, at)?;
                        }
                    }
                }
                "then" => {}
                other => {
                    panic!("the schema uses {other:?} at {at}, which this validator does not check")
                }
            }
        }
        Ok(())
    }

    fn check_object(
        &self,
        keyword: &str,
        arg: &Value,
        schema: &serde_json::Map<String, Value>,
        object: &serde_json::Map<String, Value>,
        at: &str,
    ) -> Result<(), String> {
        match keyword {
            "properties" => {
                for (name, sub) in arg.as_object().expect("properties is an object") {
                    if let Some(value) = object.get(name) {
                        self.check(sub, value, &format!("{at}.{name}"))?;
                    }
                }
                Ok(())
            }
            "required" => {
                for name in arg.as_array().expect("required is an array") {
                    let name = name.as_str().expect("a property name");
                    expect(object.contains_key(name), at, || {
                        format!("missing property {name:?}")
                    })?;
                }
                Ok(())
            }
            _ => {
                assert_eq!(
                    arg,
                    &Value::Bool(false),
                    "only additionalProperties: false is supported"
                );
                let known = schema.get("properties").and_then(Value::as_object);
                for name in object.keys() {
                    let listed = known.is_some_and(|k| k.contains_key(name));
                    expect(listed, at, || format!("unexpected property {name:?}"))?;
                }
                Ok(())
            }
        }
    }
}

fn expect(ok: bool, at: &str, message: impl FnOnce() -> String) -> Result<(), String> {
    if ok {
        Ok(())
    } else {
        Err(format!("{at}: {}", message()))
    }
}

fn check_type(arg: &Value, v: &Value, at: &str) -> Result<(), String> {
    let names: Vec<&str> = match arg {
        Value::String(s) => vec![s.as_str()],
        Value::Array(a) => a.iter().map(|t| t.as_str().expect("a type name")).collect(),
        _ => panic!("type at {at} is neither a string nor an array"),
    };
    let ok = names.iter().any(|t| match *t {
        "null" => v.is_null(),
        "boolean" => v.is_boolean(),
        "string" => v.is_string(),
        "array" => v.is_array(),
        "object" => v.is_object(),
        "number" => v.is_number(),
        "integer" => v.is_i64() || v.is_u64() || v.as_f64().is_some_and(|f| f.fract() == 0.0),
        other => panic!("unknown type {other:?} at {at}"),
    });
    expect(ok, at, || format!("{v} is not of type {arg}"))
}

/// `^[...]+$` with literal characters and `a-z` ranges: the one pattern
/// form the schemas use.
fn char_class_pattern(pattern: &str, s: &str) -> bool {
    let class = pattern
        .strip_prefix("^[")
        .and_then(|p| p.strip_suffix("]+$"))
        .unwrap_or_else(|| panic!("unsupported pattern {pattern:?}"));
    let chars: Vec<char> = class.chars().collect();
    let allowed = |c: char| {
        let mut i = 0;
        while i < chars.len() {
            if i + 2 < chars.len() && chars[i + 1] == '-' {
                if (chars[i]..=chars[i + 2]).contains(&c) {
                    return true;
                }
                i += 3;
            } else {
                if chars[i] == c {
                    return true;
                }
                i += 1;
            }
        }
        false
    };
    !s.is_empty() && s.chars().all(allowed)
}

#[test]
fn the_pattern_matcher_reads_ranges_and_literals() {
    assert!(char_class_pattern("^[a-z0-9_.-]+$", "namespace.charset"));
    assert!(char_class_pattern("^[a-z0-9_.-]+$", "a-b"));
    assert!(!char_class_pattern("^[a-z0-9_.-]+$", "Bad"));
    assert!(!char_class_pattern("^[a-z0-9_.-]+$", ""));
}
