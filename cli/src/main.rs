//! The `ossuary` binary: the library's command line over every format.

use std::process::ExitCode;

use formats::catalogue::Catalogue;

fn main() -> ExitCode {
    ossuary::run(
        Catalogue::default(),
        std::env::args_os(),
        &mut std::io::stdout().lock(),
        &mut std::io::stderr(),
    )
}
