//! The `ossuary` binary: the library's command line over every format.

use std::io::Write;
use std::process::ExitCode;

use formats::catalogue::Catalogue;

fn main() -> ExitCode {
    let mut stdout: Box<dyn Write> = if stdout_is_open() {
        Box::new(std::io::stdout().lock())
    } else {
        Box::new(ClosedStdout)
    };
    ossuary::run(
        Catalogue::default(),
        std::env::args_os(),
        &mut stdout,
        &mut std::io::stderr(),
    )
}

/// Whether the process was given a standard output. Started with it
/// closed, the runtime puts `/dev/null` in its place (opened for reading
/// and writing, which a shell's `>/dev/null` never does), so `-o -` would
/// end "successfully" having written nothing.
fn stdout_is_open() -> bool {
    #[cfg(target_os = "linux")]
    {
        let is_null = std::fs::read_link("/proc/self/fd/1")
            .is_ok_and(|target| target == std::path::Path::new("/dev/null"));
        // `flags:` in octal; the low two bits are the access mode, 2 read-write.
        let read_write = std::fs::read_to_string("/proc/self/fdinfo/1").is_ok_and(|info| {
            info.lines()
                .find_map(|line| line.strip_prefix("flags:"))
                .and_then(|flags| u32::from_str_radix(flags.trim(), 8).ok())
                .is_some_and(|flags| flags & 3 == 2)
        });
        !(is_null && read_write)
    }
    #[cfg(not(target_os = "linux"))]
    true
}

/// Standard output when there is none: every write fails.
struct ClosedStdout;

impl Write for ClosedStdout {
    fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
        Err(std::io::Error::new(
            std::io::ErrorKind::NotConnected,
            "standard output is closed",
        ))
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
