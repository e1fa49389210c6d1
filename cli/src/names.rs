//! Names taken from inside an input (the skins a suit names, the files a
//! glTF names) that become output files: each must stay in the folder it
//! is joined to.

/// Why a name taken from an input cannot name an output file.
#[derive(Debug, thiserror::Error)]
#[error("{what} {} is not a plain file name ({reason}); nothing is written", formats::schema::quoted(.name.as_bytes()))]
pub struct UnsafeName {
    /// What the name names, e.g. "skin" or "the animation data of skill \"a2o-wave\"".
    pub what: String,
    pub name: String,
    pub reason: &'static str,
}

/// The longest file name common file systems take (ext4, NTFS, APFS: 255
/// bytes or UTF-16 units).
const MAX_NAME_BYTES: usize = 255;

/// The characters besides `:` and the folder separators that Windows
/// refuses in a file name.
const WINDOWS_RESERVED: [char; 6] = ['?', '*', '<', '>', '|', '"'];

/// `name`, a name taken from an input (a skin a suit names), if it is one
/// plain file name that stays inside the folder it is joined to: no folder
/// separators (`/` or `\`), no `..`, no drive or stream (`:`), none of the
/// other characters Windows refuses (`? * < > | "`), no control bytes, not
/// only dots, and not a name Windows keeps for a device (`CON`, `NUL`,
/// `COM1`..., with any extension), and at most 255 bytes.
pub fn plain_file_name<'a>(what: &str, name: &'a str) -> Result<&'a str, UnsafeName> {
    let refuse = |reason| UnsafeName {
        what: what.to_owned(),
        name: name.to_owned(),
        reason,
    };
    if name.is_empty() {
        return Err(refuse("it is empty"));
    }
    if name.len() > MAX_NAME_BYTES {
        return Err(refuse(
            "it is longer than the 255 bytes a file name may hold",
        ));
    }
    if name.contains(['/', '\\']) {
        return Err(refuse("it holds a folder separator"));
    }
    if name.contains(':') {
        return Err(refuse("it holds a colon"));
    }
    if name.contains(WINDOWS_RESERVED) {
        return Err(refuse(
            "it holds a character Windows refuses in file names: ? * < > | \"",
        ));
    }
    if name.chars().any(char::is_control) {
        return Err(refuse("it holds a control character"));
    }
    if name.chars().all(|c| c == '.') {
        return Err(refuse("it is only dots"));
    }
    if name.ends_with(['.', ' ']) {
        return Err(refuse("it ends with a dot or a space, which Windows drops"));
    }
    let base = name.split('.').next().unwrap_or(name).trim_end();
    let device = matches!(
        base.to_ascii_uppercase().as_str(),
        "CON" | "PRN" | "AUX" | "NUL" | "CONIN$" | "CONOUT$"
    ) || ["COM", "LPT"].iter().any(|prefix| {
        base.len() == 4
            && base
                .get(..3)
                .is_some_and(|start| start.eq_ignore_ascii_case(prefix))
            && base
                .get(3..)
                .is_some_and(|digit| digit.chars().all(|c| c.is_ascii_digit()))
    });
    if device {
        return Err(refuse("Windows keeps it for a device"));
    }
    Ok(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_from_a_file_is_one_plain_file_name() {
        for fine in [
            "xskin-a-PELVIS-MHIP",
            "a2o-greet01",
            "B001MAFitlgt_relax",
            "con-man",
            "COM10",
            ".hidden",
        ] {
            assert_eq!(plain_file_name("skin", fine).unwrap(), fine);
        }
        let refused = [
            ("/any/folder/xskin-a-PELVIS-MHIP", "separator"),
            ("../../../../any/folder/x", "separator"),
            ("..\\..\\x", "separator"),
            ("a\0b", "control"),
            ("\x1b]0;title\x07", "control"),
            ("..", "only dots"),
            ("...", "only dots"),
            ("", "empty"),
            (&"x".repeat(256), "longer than the 255 bytes"),
            ("C:x", "colon"),
            ("what?", "Windows refuses"),
            ("a*b", "Windows refuses"),
            ("<skin>", "Windows refuses"),
            ("a|b", "Windows refuses"),
            ("\"quoted\"", "Windows refuses"),
            ("x.", "ends with"),
            ("CON", "device"),
            ("nul.skn", "device"),
            ("Com1", "device"),
            ("LPT9.cfp", "device"),
        ];
        for (name, reason) in refused {
            let error = plain_file_name("skin", name).unwrap_err().to_string();
            assert!(error.contains(reason), "{name:?}: {error}");
            assert!(!error.chars().any(char::is_control), "{error:?}");
        }
    }
}
