/**
 * Which checks node:test will run, known before any runs, so the binary
 * runs once over just those: `--test-name-pattern` (and Node 22's
 * `--test-skip-pattern`) as node reads them. `node --test` hands the
 * patterns to each test file's process on its `execArgv`
 * (lib/internal/test_runner/runner.js, getRunArgs); a pattern is a
 * regular expression, or `/source/flags`
 * (lib/internal/test_runner/utils.js, convertStringToRegExp). A test runs
 * when a name pattern matches its name or an ancestor's (Node 20) or its
 * full name, the ancestors' names and its own joined by spaces (Node 22
 * and later), and no skip pattern does. A check this gets wrong is still
 * right in the end: a check that runs without a result gets a run of its
 * own, and one run for nothing costs only time.
 */

const REGEXP_LITERAL = /^\/(.*)\/([a-z]*)$/;

function toRegExp(text: string): RegExp | null {
  const m = REGEXP_LITERAL.exec(text);
  try {
    return m ? new RegExp(m[1] as string, m[2]) : new RegExp(text);
  } catch {
    return null;
  }
}

/** The values of `--flag=V` and `--flag V` in `argv`. */
export function flagValues(argv: readonly string[], flag: string): string[] {
  const values: string[] = [];
  argv.forEach((arg, i) => {
    if (arg.startsWith(flag + "=")) values.push(arg.slice(flag.length + 1));
    else if (arg === flag && i + 1 < argv.length) values.push(argv[i + 1] as string);
  });
  return values;
}

/** The name and skip patterns of this process's command line. */
export interface Patterns {
  names: RegExp[];
  skips: RegExp[];
}

/** The patterns node:test applies in this process (both execArgv and argv, as `node file.js --test-name-pattern` is not one). */
export function currentPatterns(execArgv: readonly string[] = process.execArgv): Patterns {
  const parse = (flag: string) => flagValues(execArgv, flag).map(toRegExp).filter((r): r is RegExp => r !== null);
  return { names: parse("--test-name-pattern"), skips: parse("--test-skip-pattern") };
}

/** Whether the test `name` inside the suites `ancestors` (outermost first) runs under `patterns`. */
export function selected(patterns: Patterns, ancestors: readonly string[], name: string): boolean {
  const full = [...ancestors, name].join(" ");
  const test = (re: RegExp, text: string) => {
    re.lastIndex = 0;
    return re.test(text);
  };
  if (patterns.skips.some((re) => test(re, full))) return false;
  if (patterns.names.length === 0) return true;
  return patterns.names.some((re) => test(re, full) || test(re, name) || ancestors.some((a) => test(re, a)));
}
