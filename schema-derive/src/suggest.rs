//! "Did you mean": the known name (a key, a field, a parameter) closest
//! to one the derive does not know, when it is close enough to be a
//! misspelling of it.

/// `(did you mean `x`?)`, or nothing when no candidate is close to `name`.
pub fn did_you_mean<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> String {
    closest(name, candidates).map_or_else(String::new, |best| format!(" (did you mean `{best}`?)"))
}

/// The candidate fewest edits away from `name` (a letter added, removed,
/// replaced, or two swapped), if at most a third of its letters (at least
/// one) need editing.
pub fn closest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let most = (name.chars().count() / 3).max(1);
    candidates
        .into_iter()
        .filter(|candidate| *candidate != name)
        .map(|candidate| (edits(name, candidate), candidate))
        .filter(|(distance, _)| *distance <= most)
        .min_by_key(|(distance, _)| *distance)
        .map(|(_, candidate)| candidate)
}

/// Edits turning `a` into `b`: letters added, removed or replaced, and two
/// neighbours swapped (the optimal string alignment distance).
fn edits(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    // Rows of the table: edits between a[..i] and b[..j].
    let mut before: Vec<usize> = Vec::new();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    for (i, &a_char) in a.iter().enumerate() {
        let mut row = vec![i + 1];
        for (j, &b_char) in b.iter().enumerate() {
            let replace = previous[j] + usize::from(a_char != b_char);
            let mut best = replace.min(previous[j + 1] + 1).min(row[j] + 1);
            let swapped = i > 0 && j > 0 && a[i - 1] == b_char && a_char == b[j - 1];
            if swapped {
                best = best.min(before[j - 1] + 1);
            }
            row.push(best);
        }
        before = std::mem::replace(&mut previous, row);
    }
    previous[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edits_count_swaps_as_one() {
        assert_eq!(edits("lenght", "length"), 1);
        assert_eq!(edits("prefx", "prefix"), 1);
        assert_eq!(edits("count", "count"), 0);
        assert_eq!(edits("", "abc"), 3);
        assert_eq!(edits("kitten", "sitting"), 3);
    }

    #[test]
    fn the_closest_candidate_within_a_third_of_the_letters_is_suggested() {
        let keys = ["prefix", "present_if", "pascal", "count"];
        assert_eq!(closest("prefx", keys), Some("prefix"));
        assert_eq!(closest("presnt_if", keys), Some("present_if"));
        assert_eq!(closest("cuont", keys), Some("count"));
        assert_eq!(closest("lenght", keys), None);
        assert_eq!(
            did_you_mean("record", ["records"]),
            " (did you mean `records`?)"
        );
        assert_eq!(did_you_mean("zzz", ["records"]), "");
    }
}
