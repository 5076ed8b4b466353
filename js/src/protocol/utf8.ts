/**
 * Strict UTF-8 decoding that reports an error as CPython's decoder does
 * (Objects/stringlib/codecs.h): the reason ("invalid start byte",
 * "invalid continuation byte", "unexpected end of data") and the index of
 * the sequence's first byte, so a cursor's error reads the same from both
 * libraries. `TextDecoder` with `fatal: true` refuses the same bytes but
 * says neither.
 */

/** A decoded text, or why the bytes are not UTF-8. */
export type Decoded = { ok: true; text: string } | { ok: false; reason: string; start: number };

const isContinuation = (b: number | undefined) => b !== undefined && b >= 0x80 && b <= 0xbf;

/** Decodes `bytes` strictly. */
export function decodeUtf8(bytes: Uint8Array): Decoded {
  const fail = (reason: string, start: number): Decoded => ({ ok: false, reason, start });
  let i = 0;
  const end = bytes.length;
  while (i < end) {
    const ch = bytes[i] as number;
    if (ch < 0x80) {
      i += 1;
      continue;
    }
    const b1 = bytes[i + 1];
    const b2 = bytes[i + 2];
    const b3 = bytes[i + 3];
    if (ch < 0xc2 || ch > 0xf4) return fail("invalid start byte", i);
    if (ch < 0xe0) {
      if (end - i < 2) return fail("unexpected end of data", i);
      if (!isContinuation(b1)) return fail("invalid continuation byte", i);
      i += 2;
    } else if (ch < 0xf0) {
      // E0 needs A0..BF next (no overlong form), ED 80..9F (no surrogate).
      const secondBad = (b: number) => !isContinuation(b) || (b < 0xa0 ? ch === 0xe0 : ch === 0xed);
      if (end - i < 3) {
        if (end - i < 2) return fail("unexpected end of data", i);
        if (secondBad(b1 as number)) return fail("invalid continuation byte", i);
        return fail("unexpected end of data", i);
      }
      if (secondBad(b1 as number) || !isContinuation(b2)) return fail("invalid continuation byte", i);
      i += 3;
    } else {
      // F0 needs 90..BF next (no overlong form), F4 80..8F (at most U+10FFFF).
      const secondBad = (b: number) => !isContinuation(b) || (b < 0x90 ? ch === 0xf0 : ch === 0xf4);
      if (end - i < 4) {
        if (end - i < 2) return fail("unexpected end of data", i);
        if (secondBad(b1 as number)) return fail("invalid continuation byte", i);
        if (end - i < 3) return fail("unexpected end of data", i);
        if (!isContinuation(b2)) return fail("invalid continuation byte", i);
        return fail("unexpected end of data", i);
      }
      if (secondBad(b1 as number) || !isContinuation(b2) || !isContinuation(b3)) {
        return fail("invalid continuation byte", i);
      }
      i += 4;
    }
  }
  return { ok: true, text: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8") };
}
