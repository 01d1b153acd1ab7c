//! Writing to standard output, which scripts capture (keys, tables, documents).

use std::io::Write;

/// Writes `text` and a newline to standard output.
///
/// # Errors
/// When standard output is closed.
pub fn line(text: impl std::fmt::Display) -> std::io::Result<()> {
    let mut stdout = std::io::stdout().lock();
    writeln!(stdout, "{text}")?;
    stdout.flush()
}
