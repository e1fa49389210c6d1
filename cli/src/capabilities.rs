//! How the command line names the kind of file a format holds.

use formats::format::Format;

/// What a person calls a file of the format, with an article: "a Sims
/// skin" for "The Sims skin", "an Outcast skeleton".
pub fn kind_of_file(format: &Format) -> String {
    let title = format.title.strip_prefix("The ").unwrap_or(format.title);
    let starts_with_vowel = title
        .chars()
        .next()
        .is_some_and(|first| "AEIOUaeiou".contains(first));
    let article = if starts_with_vowel { "an" } else { "a" };
    format!("{article} {title}")
}
