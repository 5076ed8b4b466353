"""Showing text that came from a driver, as the binary does
(`tinymemory_api::shown::visible`): a report's messages are JSON strings,
which decode to whatever the driver wrote, escape sequences included.
"""

import unicodedata


# Control (Cc) and format (Cf) characters, and the line and paragraph
# separators (Zl, Zp): the bidi overrides and isolates (U+202E, U+2066)
# reorder the rest of a line, zero-width ones (U+200B, U+FEFF) hide, and
# U+2028 breaks a line where no line feed shows. Python's own Unicode
# tables decide a character's category, so a format character newer than
# them is shown as itself here and escaped by the binary.
_HIDDEN_CATEGORIES = frozenset(("Cc", "Cf", "Zl", "Zp"))


def _hidden(c, following):
    """True for a character shown as an escape: every control and format
    character and the line and paragraph separators (`_HIDDEN_CATEGORIES`)
    but tab, line feed and the carriage return of a CRLF (a lone one would
    let a message overwrite its own line), and the non-characters U+FFFE
    and U+FFFF."""
    if c in "\t\n":
        return False
    if c == "\r":
        return following != "\n"
    if c in "\ufffe\uffff":
        return True
    return unicodedata.category(c) in _HIDDEN_CATEGORIES


def visible(text):
    """`text` with every hidden character written as Rust's ``\\u{..}``
    escape (ESC as ``\\u{1b}``), so nothing in it can drive a terminal:
    the same text the CLI prints for the same message."""
    out = []
    for i, c in enumerate(text):
        following = text[i + 1] if i + 1 < len(text) else None
        out.append(f"\\u{{{ord(c):x}}}" if _hidden(c, following) else c)
    return "".join(out)
