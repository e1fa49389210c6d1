//! `//` comments in layouts that allow them: where one starts in a line.

pub(super) fn is_space(byte: u8) -> bool {
    byte == b' ' || byte == b'\t'
}

/// Where the comment in `line` starts: the spaces and tabs before the first
/// `//` that begins the line or follows a space or tab. A `//` inside a word
/// (`http://`) starts none.
pub(super) fn comment_start(line: &[u8]) -> Option<usize> {
    let slashes = line
        .windows(2)
        .enumerate()
        .find(|&(at, pair)| {
            pair == b"//" && (at == 0 || line.get(at - 1).copied().is_some_and(is_space))
        })
        .map(|(at, _)| at)?;
    let before = line.get(..slashes).unwrap_or_default();
    let spaces = before.iter().rev().take_while(|&&b| is_space(b)).count();
    Some(slashes - spaces)
}

/// Whether `line` holds a comment and nothing else (spaces before it allowed).
pub(super) fn is_comment_line(line: &[u8]) -> bool {
    comment_start(line) == Some(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_comment_starts_at_the_spaces_before_a_free_standing_double_slash() {
        assert_eq!(comment_start(b"2\t// bones"), Some(1));
        assert_eq!(
            comment_start(b"<Bip01 L Thigh>   // parent: bone 0"),
            Some(15)
        );
        assert_eq!(comment_start(b"// BonesPro structure export"), Some(0));
        assert_eq!(comment_start(b" \t// indented"), Some(0));
        assert_eq!(comment_start(b"http://example 2"), None);
        assert_eq!(comment_start(b"2//x"), None);
        assert_eq!(comment_start(b"1 2 3"), None);
        assert_eq!(comment_start(b""), None);
        assert!(is_comment_line(b"  // x"));
        assert!(!is_comment_line(b"1 // x"));
        assert!(!is_comment_line(b"   "));
    }
}
