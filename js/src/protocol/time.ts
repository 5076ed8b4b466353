/**
 * RFC 3339 timestamps as the contract reads them (tinymemory_api::
 * parse_rfc3339, the Rust `time` crate's well_known::Rfc3339), and their
 * order by instant. Calendar arithmetic is integer day counts (Howard
 * Hinnant's days_from_civil), never `Date`: `Date.UTC` maps years 0 to 99
 * to 1900 to 1999, `Date` keeps milliseconds only, and it knows no leap
 * second.
 */

import { compareBytes } from "./order.js";

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;

interface Parts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  fraction: string;
  offsetSeconds: number;
  offsetHours: number;
  offsetMinutes: number;
}

function parts(text: string): Parts | null {
  const m = RFC3339.exec(text);
  if (m === null) return null;
  const n = (i: number) => Number(m[i]);
  const sign = m[8];
  const offsetHours = sign === undefined ? 0 : n(9);
  const offsetMinutes = sign === undefined ? 0 : n(10);
  const offset = (offsetHours * 60 + offsetMinutes) * 60;
  return {
    year: n(1),
    month: n(2),
    day: n(3),
    hour: n(4),
    minute: n(5),
    second: n(6),
    fraction: m[7] ?? "",
    offsetSeconds: sign === "-" ? -offset : offset,
    offsetHours,
    offsetMinutes,
  };
}

function floorDiv(a: number, b: number): number {
  return Math.floor(a / b);
}

function isLeapYear(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

function daysInMonth(year: number, month: number): number {
  return [31, isLeapYear(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] as number;
}

/** Days from 1970-01-01 to a proleptic Gregorian date (days_from_civil). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = floorDiv(y, 400);
  const yoe = y - era * 400;
  const doy = floorDiv(153 * (month + (month > 2 ? -3 : 9)) + 2, 5) + day - 1;
  const doe = yoe * 365 + floorDiv(yoe, 4) - floorDiv(yoe, 100) + doy;
  return era * 146097 + doe - 719468;
}

/** The proleptic Gregorian [year, month, day] of a day count from 1970-01-01 (civil_from_days). */
function civilFromDays(days: number): [number, number, number] {
  const z = days + 719468;
  const era = floorDiv(z, 146097);
  const doe = z - era * 146097;
  const yoe = floorDiv(doe - floorDiv(doe, 1460) + floorDiv(doe, 36524) - floorDiv(doe, 146096), 365);
  const doy = doe - (365 * yoe + floorDiv(yoe, 4) - floorDiv(yoe, 100));
  const mp = floorDiv(5 * doy + 2, 153);
  const day = doy - floorDiv(153 * mp + 2, 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return [yoe + era * 400 + (month <= 2 ? 1 : 0), month, day];
}

/** Seconds since 1970-01-01T00:00:00Z of `p`, a second 60 read as 59 (its nanoseconds say the rest). */
function utcSeconds(p: Parts): number {
  const second = p.second === 60 ? 59 : p.second;
  return daysFromCivil(p.year, p.month, p.day) * 86400 + p.hour * 3600 + p.minute * 60 + second - p.offsetSeconds;
}

/**
 * True when `text` is a timestamp tinymemory_api accepts for an import:
 * RFC 3339 `date-time` (section 5.6) as the Rust `time` crate's
 * well_known::Rfc3339 reads it: `T` or `t`, any number of fraction
 * digits, `Z`, `z` or an offset `+HH:MM` / `-HH:MM` (hours up to 23), real
 * dates from year 0000, second 60 only at 23:59:60 UTC on a month's last
 * day (RFC 3339 section 5.7), nothing around it.
 */
export function isRfc3339(text: string): boolean {
  if (typeof text !== "string") return false;
  const p = parts(text);
  if (p === null) return false;
  if (p.hour > 23 || p.minute > 59 || p.second > 60) return false;
  if (p.offsetHours > 23 || p.offsetMinutes > 59) return false;
  if (p.month < 1 || p.month > 12) return false;
  if (p.day < 1 || p.day > daysInMonth(p.year, p.month)) return false;
  if (p.second !== 60) return true;
  const seconds = utcSeconds(p);
  const ofDay = seconds - floorDiv(seconds, 86400) * 86400;
  if (ofDay !== 86399) return false;
  const [year, month, day] = civilFromDays(floorDiv(seconds, 86400));
  return day === daysInMonth(year, month);
}

/**
 * A timestamp's place in time order, as tinymemory_api::timestamp_order
 * has it: `valid` false for text that is not RFC 3339 (before every
 * instant); else the instant as whole `seconds` since 1970-01-01T00:00:00Z
 * (negative before) and `nanos` (0 to 999,999,999; fraction digits past
 * the ninth are dropped, and a leap second 60 is 59.999999999, as the Rust
 * `time` crate reads it). The Python library's `timestamp_key` gives the
 * same three values.
 */
export interface TimestampKey {
  valid: boolean;
  seconds: number;
  nanos: number;
}

/** The TimestampKey of `text`. */
export function timestampKey(text: string): TimestampKey {
  if (!isRfc3339(text)) return { valid: false, seconds: 0, nanos: 0 };
  const p = parts(text) as Parts;
  const nanos = p.second === 60 ? 999_999_999 : Number((p.fraction + "000000000").slice(0, 9));
  return { valid: true, seconds: utcSeconds(p), nanos };
}

/**
 * Orders two timestamps by the instant they name (to the nanosecond),
 * text that is not RFC 3339 first, ties bytewise: negative when `a`
 * comes first. Byte order is not time order once an import brought
 * `+02:00`, `.5Z` or a lowercase `z`; sort with this instead.
 */
export function compareTimestamps(a: string, b: string): number {
  const ka = timestampKey(a);
  const kb = timestampKey(b);
  if (ka.valid !== kb.valid) return ka.valid ? 1 : -1;
  if (ka.seconds !== kb.seconds) return ka.seconds < kb.seconds ? -1 : 1;
  if (ka.nanos !== kb.nanos) return ka.nanos < kb.nanos ? -1 : 1;
  return compareBytes(a, b);
}

/**
 * The newest of `timestamps` by compareTimestamps (the first of equal
 * ones), or `null` for none: what a namespace summary's `last_updated` must be.
 */
export function latestTimestamp(timestamps: Iterable<string>): string | null {
  let best: string | null = null;
  for (const t of timestamps) {
    if (best === null || compareTimestamps(t, best) > 0) best = t;
  }
  return best;
}

/**
 * The time now, RFC 3339 UTC: `2026-11-30T00:47:42.123Z` (milliseconds,
 * `Date`'s resolution; the Python library writes microseconds, and any
 * fraction width is RFC 3339).
 */
export function nowRfc3339(): string {
  return new Date().toISOString();
}
