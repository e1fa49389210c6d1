//! A file's summary as `ossuary info` prints it and the viewer shows it:
//! its format, the facts its document gives, and its joint tree.

use std::fmt::Write as _;

use formats::format::{Description, Joint};

/// The summary of `file` (as it is to be shown), a document of the format
/// titled `title` and named `format_name`: a first line naming them, then a
/// fact a line and the joint tree.
pub fn summary(file: &str, title: &str, format_name: &str, description: &Description) -> String {
    let mut text = format!("{file}: {title} ({format_name})\n");
    for (label, value) in &description.facts {
        let _ = writeln!(text, "  {label}: {value}");
    }
    if !description.joints.is_empty() {
        text.push_str("  joint tree:\n");
        text.push_str(&tree(&description.joints, "    "));
    }
    text
}

/// Draws joints as an indented tree with box-drawing branches, children in
/// file order under their parent. Joints caught in a parent cycle are drawn
/// as extra roots, so every joint appears once.
pub fn tree(joints: &[Joint], indent: &str) -> String {
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); joints.len()];
    let mut roots = Vec::new();
    for (index, joint) in joints.iter().enumerate() {
        match joint
            .parent
            .filter(|&parent| parent != index)
            .and_then(|parent| children.get_mut(parent))
        {
            Some(siblings) => siblings.push(index),
            None => roots.push(index),
        }
    }
    let mut visited = vec![false; joints.len()];
    let mut text = String::new();
    for root in roots {
        draw(joints, &children, root, indent, &mut visited, &mut text);
    }
    for index in 0..joints.len() {
        if !visited.get(index).copied().unwrap_or(true) {
            draw(joints, &children, index, indent, &mut visited, &mut text);
        }
    }
    text
}

/// Draws one subtree. Iterative, so a hostile 65,535-deep chain cannot
/// overflow the stack; indentation stops growing past `MAX_DRAWN_DEPTH` so
/// the output stays linear in the number of joints.
fn draw(
    joints: &[Joint],
    children: &[Vec<usize>],
    root: usize,
    indent: &str,
    visited: &mut [bool],
    text: &mut String,
) {
    let mut pending: Vec<(usize, String, &str, usize)> = vec![(root, String::new(), "", 0)];
    while let Some((index, prefix, branch, depth)) = pending.pop() {
        match visited.get_mut(index) {
            Some(seen) if !*seen => *seen = true,
            _ => continue,
        }
        let name = joints.get(index).map_or("?", |joint| joint.name.as_str());
        if depth > MAX_DRAWN_DEPTH {
            let _ = writeln!(text, "{indent}{prefix}{branch}[depth {depth}] {name}");
        } else {
            let _ = writeln!(text, "{indent}{prefix}{branch}{name}");
        }
        let Some(kids) = children.get(index) else {
            continue;
        };
        let child_prefix = match branch {
            _ if depth >= MAX_DRAWN_DEPTH => prefix.clone(),
            "├─ " => format!("{prefix}│  "),
            "└─ " => format!("{prefix}   "),
            _ => prefix.clone(),
        };
        for (position, &child) in kids.iter().enumerate().rev() {
            let child_branch = if position + 1 == kids.len() {
                "└─ "
            } else {
                "├─ "
            };
            pending.push((child, child_prefix.clone(), child_branch, depth + 1));
        }
    }
}

/// Deeper joints are listed with their depth instead of more indentation.
const MAX_DRAWN_DEPTH: usize = 40;

#[cfg(test)]
mod tests {
    use super::*;

    fn joint(name: &str, parent: Option<usize>) -> Joint {
        Joint {
            name: name.to_owned(),
            parent,
        }
    }

    #[test]
    fn tree_draws_children_under_parents() {
        let joints = [
            joint("ROOT", None),
            joint("PELVIS", Some(0)),
            joint("L_LEG", Some(1)),
            joint("R_LEG", Some(1)),
            joint("SPINE", Some(1)),
            joint("HEAD", Some(4)),
        ];
        assert_eq!(
            tree(&joints, ""),
            "ROOT\n└─ PELVIS\n   ├─ L_LEG\n   ├─ R_LEG\n   └─ SPINE\n      └─ HEAD\n"
        );
    }

    #[test]
    fn a_very_deep_chain_prints_in_linear_space() {
        let joints: Vec<Joint> = (0..70_000usize)
            .map(|index| joint(&format!("J{index}"), index.checked_sub(1)))
            .collect();
        let drawn = tree(&joints, "");
        assert_eq!(drawn.lines().count(), 70_000);
        assert!(drawn.lines().all(|line| line.len() < 200));
        assert!(drawn.ends_with("[depth 69999] J69999\n"));
    }

    #[test]
    fn cycles_and_orphans_still_print_every_joint() {
        let joints = [
            joint("A", Some(1)),
            joint("B", Some(0)),
            joint("C", Some(7)),
        ];
        let drawn = tree(&joints, "");
        for name in ["A", "B", "C"] {
            assert!(drawn.lines().any(|line| line.ends_with(name)), "{drawn}");
        }
    }
}
