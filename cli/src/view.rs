//! `ossuary view PATH... [--port N] [--open]`: the web page of the
//! `viewer` crate, served until Ctrl-C, its assets and facts made by the
//! same code as `convert` to glTF and `info`.

use std::path::PathBuf;
use std::sync::mpsc;

use viewer::roots::Roots;
use viewer::server::{self, Viewer};

use crate::error::CliError;
use crate::{input, Context};

/// `ossuary view`'s arguments.
#[derive(clap::Args)]
pub struct Args {
    /// The folders (or files) whose characters and object files to show.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// The port to listen on, on 127.0.0.1 only (0: a free one).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub port: u16,
    /// Also open the page in the default browser.
    #[arg(long)]
    pub open: bool,
}

pub fn run(context: &mut Context, args: &Args) -> Result<bool, CliError> {
    let roots = Roots::new(&args.paths).map_err(|error| CliError::Usage(error.to_string()))?;
    // Files the shown ones refer to are read only under the paths given.
    let viewer = Viewer::new(roots, context.catalogue, input::reading().limit);
    // Ctrl-C is caught before the address is printed: whoever reads it may
    // press Ctrl-C at once.
    let (stop, stopped) = mpsc::channel();
    ctrlc::set_handler(move || {
        let _ = stop.send(());
    })
    .map_err(|error| CliError::Usage(format!("cannot wait for Ctrl-C: {error}")))?;
    let running =
        server::start(viewer, args.port).map_err(|error| CliError::Usage(error.to_string()))?;
    context.print(&format!("{}\n", running.url()))?;
    context.stdout.flush().map_err(|source| CliError::Output {
        path: PathBuf::from("-"),
        source,
    })?;
    if args.open {
        if let Err(error) = opener::open_browser(running.url()) {
            context.warn(&format!(
                "cannot open a browser ({error}); open {} by hand",
                running.url()
            ));
        }
    }
    let _ = stopped.recv();
    running.stop();
    Ok(true)
}
