//! What a "word" is, for the contract's "found by any whole word it
//! contains".

/// `true` for a character that belongs to a word: Unicode alphanumerics
/// (`char::is_alphanumeric`: letters and numbers of every script, general
/// categories `L*` and `N*`), combining marks (`M*`, per
/// `unicode_normalization::char::is_combining_mark`) and private-use
/// characters (`Co`). Marks matter: without them a Hindi or Bengali word
/// would split at every vowel sign and virama.
#[must_use]
pub fn is_word_char(c: char) -> bool {
    c.is_alphanumeric()
        || unicode_normalization::char::is_combining_mark(c)
        || matches!(u32::from(c), 0xE000..=0xF8FF | 0xF_0000..=0xF_FFFD | 0x10_0000..=0x10_FFFD)
}

/// The words of `text`, in order: maximal runs of [`is_word_char`]
/// characters. Everything else (spaces, punctuation, query operators,
/// emoji) separates words. Scripts written without spaces (Chinese,
/// Japanese, Thai) give one word per run between punctuation.
pub fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !is_word_char(c))
        .filter(|w| !w.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_stay_inside_words() {
        let hindi: Vec<_> = words("नमस्ते दुनिया").collect();
        assert_eq!(hindi, ["नमस्ते", "दुनिया"]);
        let latin: Vec<_> = words("multi-agent, don't NEAR(x)").collect();
        assert_eq!(latin, ["multi", "agent", "don", "t", "NEAR", "x"]);
        let cjk: Vec<_> = words("人工智能是工程,致力于").collect();
        assert_eq!(cjk, ["人工智能是工程", "致力于"]);
        assert_eq!(words("?! 🦀 ...").count(), 0);
    }
}
