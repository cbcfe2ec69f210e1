//! Untrusted text as a part of a file name.

/// `text` made safe as a part of a file name: every character but ASCII letters, digits,
/// `.` and `-` becomes `_` (no path separator, no control character).
pub fn file_name_part(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '.' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect()
}
