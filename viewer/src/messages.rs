//! Messages as they are shown, on the page and on the terminal alike: one
//! short line, however much of an input the code that made them copied.

use std::borrow::Cow;

use formats::schema::quoted;

/// The most characters a message shows in all: room for several paths
/// (a part not found, where it was looked for), far below what a browser
/// or a terminal line takes.
pub const MESSAGE_LIMIT: usize = 1_000;

/// The most characters of one run without a space or a folder separator
/// that a message shows: as many as a message quotes of an input.
const RUN_LIMIT: usize = 60;

/// `message` as it may be shown: each run of more than 60 characters
/// without a space or a folder separator (a name from a file, one part of
/// a path) cut to 60 as [`quoted`] cuts a quote, and the whole cut at
/// [`MESSAGE_LIMIT`] characters, each cut marked `...`. Messages made by
/// other code (export's warnings naming a mesh's shader) then stay short
/// however long a name a file holds.
pub fn bounded(message: &str) -> Cow<'_, str> {
    let runs = || message.split_inclusive(|c: char| c.is_whitespace() || c == '/' || c == '\\');
    let fits = message.len() <= MESSAGE_LIMIT
        || message.chars().take(MESSAGE_LIMIT + 1).count() <= MESSAGE_LIMIT;
    if fits && runs().all(|run| run.len() <= RUN_LIMIT || run.chars().count() <= RUN_LIMIT + 1) {
        return Cow::Borrowed(message);
    }
    let mut shown = String::new();
    let mut count = 0;
    for run in runs() {
        let (name, separator) = match run.char_indices().last() {
            Some((at, last)) if last.is_whitespace() || last == '/' || last == '\\' => {
                run.split_at(at)
            }
            _ => (run, ""),
        };
        let name: Cow<str> = if name.chars().nth(RUN_LIMIT).is_some() {
            Cow::Owned(quoted(name.as_bytes()))
        } else {
            Cow::Borrowed(name)
        };
        for c in name.chars().chain(separator.chars()) {
            if count == MESSAGE_LIMIT {
                shown.push_str("...");
                return Cow::Owned(shown);
            }
            shown.push(c);
            count += 1;
        }
    }
    Cow::Owned(shown)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_message_is_left_as_it_is() {
        let message = "the shader shader/twk_f_skull.sht: not found (looked for \
                       /srv/data/appearance/shader/twk_f_skull.sht)";
        assert!(matches!(bounded(message), Cow::Borrowed(_)));
    }

    #[test]
    fn each_long_name_is_cut_to_sixty_characters_and_the_whole_to_the_limit() {
        let name = "x".repeat(1 << 20);
        let message =
            format!("the shader shader/{name}.sht: not found (looked for /data/shader/{name}.sht)");
        let shown = bounded(&message);
        let cut = format!("{}...", "x".repeat(60));
        assert_eq!(
            shown,
            format!("the shader shader/{cut} not found (looked for /data/shader/{cut}")
        );
        let many = "name ".repeat(1 << 20);
        let shown = bounded(&many);
        assert_eq!(shown.chars().count(), MESSAGE_LIMIT + 3);
        assert!(shown.ends_with("..."));
    }

    #[test]
    fn a_name_of_sixty_characters_is_whole() {
        let name = "é".repeat(60);
        let message = format!("a/{name}/b");
        assert_eq!(bounded(&message), message);
    }
}
