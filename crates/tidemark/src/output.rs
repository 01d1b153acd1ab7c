//! Writing to standard output, which scripts capture (keys, tables, documents).

use std::io::Write;

/// Writes `text` and a newline to standard output. A reader that went away
/// (`tidemark openapi | head`) wants no more: that is not an error.
///
/// # Errors
/// When standard output fails otherwise.
pub fn line(text: impl std::fmt::Display) -> std::io::Result<()> {
    let mut stdout = std::io::stdout().lock();
    match writeln!(stdout, "{text}").and_then(|()| stdout.flush()) {
        Err(error) if error.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => other,
    }
}
