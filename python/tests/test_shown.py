"""Driver text as the plugin shows it: the same escapes as the binary's
(`tinymemory_api::shown::visible`)."""

from tinymemory.testing._shown import visible


def test_controls_become_escapes():
    assert visible("a\x00b\x1b[31m\tc\n") == "a\\u{0}b\\u{1b}[31m\tc\n"
    assert visible("\rPASS") == "\\u{d}PASS"
    assert visible("line\r\nline") == "line\r\nline"


def test_bidi_and_format_characters_and_separators_become_escapes():
    # U+202E would show "FAIL  x \u202eSSAP" as "FAIL  x PASS".
    assert (
        visible("a\u202eb\u2066c\u2069d\u200be\u200e\u200f\ufefff")
        == "a\\u{202e}b\\u{2066}c\\u{2069}d\\u{200b}e\\u{200e}\\u{200f}\\u{feff}f"
    )
    assert (
        visible("one\u2028two\u2029three\u00ad\U000e0001")
        == "one\\u{2028}two\\u{2029}three\\u{ad}\\u{e0001}"
    )
    # Marks and spaces that only combine or separate stay as they are.
    assert visible("e\u0301 \u00a0x") == "e\u0301 \u00a0x"
