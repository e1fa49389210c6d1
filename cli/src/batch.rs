//! Running a command over many files (`check`, `info`, `convert`): the
//! inputs named on the command line, folders searched, every file reported
//! on its own line in input order, then a summary.
//!
//! Files are worked on in parallel; the reports are printed in input order
//! as soon as all before them are done. A file that cannot be read or
//! identified does not stop the batch.

use std::collections::{BTreeMap, HashSet};
use std::io::IsTerminal as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;

use formats::catalogue::Catalogue;
use formats::format::Format;
use indicatif::{ProgressBar, ProgressStyle};
use rayon::iter::{
    IndexedParallelIterator as _, IntoParallelRefIterator as _, ParallelIterator as _,
};
use serde_json::{json, Map, Value};
use viewer::messages::bounded;

use formats::schema::Position;

use crate::error::{bytes_shown, shown, CliError, Located};
use crate::input;
use crate::Context;

/// The arguments of the commands that read many files (`check`, `info`).
#[derive(clap::Args)]
pub struct FilesArgs {
    /// Files, and folders to search.
    #[arg(required = true, value_name = "FILE|DIR")]
    pub paths: Vec<PathBuf>,
    /// Read the files as this format instead of guessing it (in folders: the files
    /// with its extensions).
    #[arg(long, value_name = "NAME")]
    pub format: Option<String>,
    /// Print one JSON object per file, then one with the summary.
    #[arg(long)]
    pub json: bool,
}

impl FilesArgs {
    /// `--format` as the format it names, and the files to read.
    pub fn resolve(
        &self,
        catalogue: &Catalogue,
    ) -> Result<(Option<&'static Format>, Vec<Entry>), CliError> {
        let forced = self
            .format
            .as_deref()
            .map(|name| input::format_named(catalogue, name))
            .transpose()?;
        Ok((forced, collect(&self.paths)?))
    }
}

/// More files than this show a progress bar on a terminal.
const PROGRESS_ABOVE: usize = 8;

/// A file to work on.
pub struct Entry {
    pub path: PathBuf,
    /// The folder named on the command line that it was found in; `None`
    /// for a file named itself.
    pub folder: Option<PathBuf>,
    /// For a folder that could not be listed: why.
    pub listing_error: Option<std::io::Error>,
    /// For a file found in a folder that is not a regular file (a FIFO, a
    /// socket, a device): what it is. It is never opened: opening a FIFO
    /// waits for a writer, so one would hold up the whole batch.
    pub special: Option<&'static str>,
}

impl Entry {
    /// Whether the file was named on the command line (a file that was
    /// named and cannot be identified has failed; one found in a folder
    /// is merely not supported).
    pub fn named(&self) -> bool {
        self.folder.is_none()
    }
}

/// The files named, and for each folder named every file below it, sorted
/// (a folder reached again through a link is not searched twice). Names
/// starting with `.` inside a folder (`.git`, `.gitattributes`) are passed
/// over.
pub fn collect(paths: &[PathBuf]) -> Result<Vec<Entry>, CliError> {
    input::at_most_one_stdin(paths)?;
    let mut entries = Vec::new();
    for path in paths {
        match std::fs::metadata(path) {
            Ok(metadata) if metadata.is_dir() => {
                let mut found = walk(path, &metadata);
                found.sort_by(|first: &Entry, second: &Entry| first.path.cmp(&second.path));
                entries.extend(found);
            }
            _ => entries.push(Entry {
                path: path.clone(),
                folder: None,
                listing_error: None,
                special: None,
            }),
        }
    }
    Ok(entries)
}

/// The one file named, when that is all there is to work on: a command
/// may then answer as for a single file.
pub fn single_file(entries: &[Entry]) -> Option<&Entry> {
    match entries {
        [only] if only.named() => Some(only),
        _ => None,
    }
}

/// The files below the named folder `root`, in no particular order.
///
/// Each folder is looked at once, by the path the walk built for it: its
/// entries come with their kinds, and only a folder or a link is looked at
/// again (for where it leads, and its identity). Resolving each folder's
/// path to its canonical form instead (to know it again) costs a look at
/// every part of it, each part resolved in turn: time cubic in the depth,
/// 75 s for 1,600 folders deep.
fn walk(root: &Path, metadata: &std::fs::Metadata) -> Vec<Entry> {
    let entry = |path: PathBuf, listing_error, special| Entry {
        path,
        folder: Some(root.to_path_buf()),
        listing_error,
        special,
    };
    let mut found = Vec::new();
    let mut visited = HashSet::new();
    visited.insert(FolderId::of(root, metadata));
    let mut folders = vec![root.to_path_buf()];
    while let Some(folder) = folders.pop() {
        let listing = match std::fs::read_dir(&folder) {
            Ok(listing) => listing,
            Err(error) => {
                found.push(entry(folder, Some(error), None));
                continue;
            }
        };
        for item in listing {
            let item = match item {
                Ok(item) => item,
                Err(error) => {
                    found.push(entry(folder.clone(), Some(error), None));
                    continue;
                }
            };
            if item.file_name().to_string_lossy().starts_with('.') {
                continue;
            }
            let path = item.path();
            if item.file_type().is_ok_and(|kind| kind.is_file()) {
                found.push(entry(path, None, None));
                continue;
            }
            // A folder, a link, or something else: `metadata` follows
            // links and never opens the file.
            match std::fs::metadata(&path) {
                Ok(metadata) if metadata.is_dir() => {
                    if visited.insert(FolderId::of(&path, &metadata)) {
                        folders.push(path);
                    }
                }
                Ok(metadata) if !metadata.is_file() => {
                    found.push(entry(path, None, Some(special_kind(&metadata))));
                }
                // A file, or a link leading nowhere (its reading fails as usual).
                _ => found.push(entry(path, None, None)),
            }
        }
    }
    found
}

/// What tells a folder apart from every other, however it is reached: its
/// device and inode where there are such.
#[derive(PartialEq, Eq, Hash)]
enum FolderId {
    #[cfg(unix)]
    Inode { device: u64, inode: u64 },
    #[cfg(not(unix))]
    Path(PathBuf),
}

impl FolderId {
    fn of(path: &Path, metadata: &std::fs::Metadata) -> FolderId {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt as _;
            let _ = path;
            FolderId::Inode {
                device: metadata.dev(),
                inode: metadata.ino(),
            }
        }
        #[cfg(not(unix))]
        {
            let _ = metadata;
            FolderId::Path(path.canonicalize().unwrap_or_else(|_| path.to_path_buf()))
        }
    }
}

/// What a file that is neither a folder nor a regular file is.
fn special_kind(metadata: &std::fs::Metadata) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt as _;
        let kind = metadata.file_type();
        if kind.is_fifo() {
            return "a named pipe (FIFO)";
        }
        if kind.is_socket() {
            return "a socket";
        }
        if kind.is_block_device() || kind.is_char_device() {
            return "a device";
        }
    }
    #[cfg(not(unix))]
    let _ = metadata;
    "not a regular file"
}

/// What became of one file.
pub enum Outcome {
    /// Done: the text `stdout` shows (whole lines) and the command's own
    /// fields for `--json`.
    Ok {
        text: String,
        fields: Map<String, Value>,
    },
    /// `check` only: the file decodes, but re-encodes differently.
    Differs(Detail),
    Failed(Detail),
    /// Not a file this command can work on (found in a folder).
    NotSupported(Detail),
}

/// Why a file is not `Ok`: the sentence people read and its parts.
pub struct Detail {
    /// As printed after the file name, e.g. `byte 813: bones[11]: ...`.
    pub sentence: String,
    pub located: Located,
}

impl Detail {
    /// A reason with no position in the file.
    pub fn plain(sentence: String) -> Detail {
        Detail {
            located: Located {
                message: sentence.clone(),
                position: None,
                field: None,
            },
            sentence,
        }
    }

    /// `error`'s sentence, told from the point of view of `path`.
    pub fn of(path: &Path, error: &CliError) -> Detail {
        match error {
            CliError::Input {
                path: about,
                problem,
            } if about == path => Detail {
                sentence: problem.to_string(),
                located: problem.located(),
            },
            CliError::Undecoded { error, around } => {
                let detail = Detail::of(path, error);
                Detail {
                    sentence: format!("{}\n{}", detail.sentence, bytes_shown(around)),
                    ..detail
                }
            }
            other => Detail::plain(other.to_string()),
        }
    }
}

/// A file's outcome, with the format it was read as, if it got that far.
pub struct Report {
    pub format: Option<&'static Format>,
    pub outcome: Outcome,
}

impl Report {
    pub fn failed(format: Option<&'static Format>, path: &Path, error: &CliError) -> Report {
        Report {
            format,
            outcome: Outcome::Failed(Detail::of(path, error)),
        }
    }
}

/// The format of an entry's bytes: `forced` (`--format`), else what the
/// name or content shows. A file found in a folder that cannot be
/// identified, or that `--format` does not claim by extension, is not
/// supported; one named on the command line has failed.
fn identify(
    catalogue: &Catalogue,
    entry: &Entry,
    bytes: &[u8],
    forced: Option<&'static Format>,
) -> Result<&'static Format, Report> {
    let unsupported = |detail: Detail| Report {
        format: None,
        outcome: if entry.named() {
            Outcome::Failed(detail)
        } else {
            Outcome::NotSupported(detail)
        },
    };
    match forced {
        Some(format) if entry.named() => Ok(format),
        Some(format) => {
            let claimed = catalogue
                .by_extension(&entry.path.to_string_lossy())
                .any(|claimant| claimant.is(format));
            if claimed {
                Ok(format)
            } else {
                Err(unsupported(Detail::plain(format!(
                    "--format {} reads files named .{}",
                    format.name,
                    format.extensions.join(", .")
                ))))
            }
        }
        None => input::identify(catalogue, &entry.path, bytes).map_err(|problem| {
            let error = CliError::input(&entry.path, problem);
            unsupported(Detail::of(&entry.path, &error))
        }),
    }
}

/// An entry's bytes and format, or the report of why there are none.
pub fn open(
    catalogue: &Catalogue,
    entry: &Entry,
    forced: Option<&'static Format>,
) -> Result<(&'static Format, Vec<u8>), Report> {
    if let Some(error) = &entry.listing_error {
        return Err(Report {
            format: None,
            outcome: Outcome::Failed(Detail::plain(format!("cannot list the folder: {error}"))),
        });
    }
    if let Some(kind) = entry.special {
        return Err(Report {
            format: None,
            outcome: Outcome::NotSupported(Detail::plain(format!(
                "{kind}, not a file; files found in folders are read only when regular"
            ))),
        });
    }
    let bytes =
        input::read(&entry.path).map_err(|error| Report::failed(None, &entry.path, &error))?;
    let format = identify(catalogue, entry, &bytes, forced)?;
    Ok((format, bytes))
}

/// How many files came to each end.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Counts {
    pub ok: usize,
    pub differs: usize,
    pub failed: usize,
    pub not_supported: usize,
}

impl Counts {
    fn add(&mut self, outcome: &Outcome) {
        match outcome {
            Outcome::Ok { .. } => self.ok += 1,
            Outcome::Differs(_) => self.differs += 1,
            Outcome::Failed(_) => self.failed += 1,
            Outcome::NotSupported(_) => self.not_supported += 1,
        }
    }

    /// Exit 0 only when nothing failed or differed.
    pub fn all_good(&self) -> bool {
        self.failed == 0 && self.differs == 0
    }
}

/// How a batch reports.
#[derive(Clone, Copy)]
pub struct Style {
    /// One JSON object per line instead of text.
    pub json: bool,
    /// Whether the command can find differences (`check`), for the summary.
    pub compares: bool,
    /// Whether to end with a summary line in text (JSON always has one).
    pub summary: bool,
}

/// Works on every entry (in parallel) and prints each report in input
/// order, then the summary. `work` gives a file's report, as `Err` when
/// it stopped early. A closed standard output stops the batch.
pub fn run(
    context: &mut Context,
    entries: &[Entry],
    style: Style,
    work: impl Fn(&Entry) -> Result<Report, Report> + Sync,
) -> Result<Counts, CliError> {
    let progress = progress_bar(entries.len());
    let cancelled = AtomicBool::new(false);
    let mut counts = Counts::default();
    let printed = std::thread::scope(|scope| {
        let (sender, receiver) = mpsc::channel();
        let work = &work;
        let cancelled = &cancelled;
        scope.spawn(move || {
            entries
                .par_iter()
                .enumerate()
                .for_each_with(sender, |sender, (index, entry)| {
                    if !cancelled.load(Ordering::Relaxed) {
                        // The receiver is gone only once printing has failed.
                        let report = work(entry).unwrap_or_else(|stopped| stopped);
                        let _ = sender.send((index, entry, report));
                    }
                });
        });
        let mut waiting = BTreeMap::new();
        let mut next = 0;
        for (index, entry, report) in receiver {
            progress.inc(1);
            waiting.insert(index, (entry, report));
            while let Some((entry, report)) = waiting.remove(&next) {
                counts.add(&report.outcome);
                let text = show(entry, &report, style);
                let printed = if style.json {
                    progress.suspend(|| context.print_json(&text))
                } else {
                    progress.suspend(|| context.print(&text))
                };
                if let Err(error) = printed {
                    cancelled.store(true, Ordering::Relaxed);
                    return Err(error);
                }
                next += 1;
            }
        }
        Ok(())
    });
    progress.finish_and_clear();
    printed?;
    if style.json {
        context.print_json(&format!("{}\n", summary_json(&counts)))?;
    } else if style.summary {
        context.print(&format!("{}\n", summary_text(&counts, style.compares)))?;
    }
    Ok(counts)
}

/// A bar on standard error when it is a terminal and there are enough
/// files to wait for; nothing otherwise.
fn progress_bar(files: usize) -> ProgressBar {
    if !shows_progress(files, std::io::stderr().is_terminal()) {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(files as u64);
    if let Ok(style) = ProgressStyle::with_template("{bar:40} {pos}/{len} files, {eta} left") {
        bar.set_style(style);
    }
    bar
}

fn shows_progress(files: usize, on_terminal: bool) -> bool {
    on_terminal && files > PROGRESS_ABOVE
}

/// A report as printed: its text, or a line naming the file and the reason.
fn show(entry: &Entry, report: &Report, style: Style) -> String {
    if style.json {
        return format!("{}\n", report_json(&entry.path, report));
    }
    let path = shown(&entry.path);
    match &report.outcome {
        Outcome::Ok { text, .. } => text.clone(),
        Outcome::Differs(detail) | Outcome::Failed(detail) => {
            format!("{path}: {}\n", bounded(&detail.sentence))
        }
        Outcome::NotSupported(detail) => {
            format!("{path}: not supported: {}\n", bounded(&detail.sentence))
        }
    }
}

fn report_json(path: &Path, report: &Report) -> Value {
    let mut object = Map::new();
    object.insert("path".into(), json!(path.to_string_lossy()));
    object.insert(
        "format".into(),
        json!(report.format.map(|format| format.name)),
    );
    let (result, detail) = match &report.outcome {
        Outcome::Ok { fields, .. } => {
            object.insert("result".into(), json!("ok"));
            object.extend(fields.clone());
            return Value::Object(object);
        }
        Outcome::Differs(detail) => ("differs", detail),
        Outcome::Failed(detail) => ("failed", detail),
        Outcome::NotSupported(detail) => ("not_supported", detail),
    };
    object.insert("result".into(), json!(result));
    object.insert("error".into(), error_json(&detail.located));
    Value::Object(object)
}

fn error_json(located: &Located) -> Value {
    let mut error = Map::new();
    error.insert("message".into(), json!(bounded(&located.message)));
    match located.position {
        Some(Position::Byte(offset)) => {
            error.insert("offset".into(), json!(offset));
        }
        Some(Position::Text { line, column }) => {
            error.insert("line".into(), json!(line));
            error.insert("column".into(), json!(column));
        }
        None => {}
    }
    if let Some(field) = &located.field {
        error.insert("field".into(), json!(field));
    }
    Value::Object(error)
}

fn summary_json(counts: &Counts) -> Value {
    json!({
        "summary": {
            "ok": counts.ok,
            "differs": counts.differs,
            "failed": counts.failed,
            "not_supported": counts.not_supported,
        }
    })
}

fn summary_text(counts: &Counts, compares: bool) -> String {
    let differ = if compares {
        format!(" {} differ,", counts.differs)
    } else {
        String::new()
    };
    format!(
        "{} ok,{differ} {} failed, {} not supported",
        counts.ok, counts.failed, counts.not_supported
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_progress_bar_needs_a_terminal_and_more_than_a_few_files() {
        assert!(shows_progress(PROGRESS_ABOVE + 1, true));
        assert!(!shows_progress(PROGRESS_ABOVE, true));
        assert!(!shows_progress(1000, false));
    }

    /// The CPU time the calling thread has used, in seconds: unlike the
    /// wall clock, it does not grow while other work has the processor.
    #[cfg(target_os = "linux")]
    fn thread_cpu_seconds() -> f64 {
        let mut time = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: clock_gettime writes the time it is given a place for.
        assert_eq!(
            unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut time) },
            0
        );
        time.tv_sec as f64 + time.tv_nsec as f64 / 1e9
    }

    /// The least CPU time of five walks of a chain of `depth` folders,
    /// a file in each.
    #[cfg(target_os = "linux")]
    fn walk_cpu_seconds(depth: usize) -> f64 {
        let dir = tempfile::tempdir().unwrap();
        let mut folder = dir.path().to_path_buf();
        for _ in 0..depth {
            folder.push("d");
            std::fs::create_dir(&folder).unwrap();
            std::fs::write(folder.join("f.skn"), "").unwrap();
        }
        let paths = [dir.path().to_path_buf()];
        (0..5)
            .map(|_| {
                let start = thread_cpu_seconds();
                let entries = collect(&paths).unwrap();
                let spent = thread_cpu_seconds() - start;
                assert_eq!(entries.len(), depth);
                spent
            })
            .fold(f64::INFINITY, f64::min)
    }

    /// Eight times as deep costs at most 64 times as much: the kernel
    /// resolves each path the walk gives it part by part, so looking at
    /// each folder once by its path costs the square of the depth. The
    /// old walk, canonicalizing each folder's path, cost its cube: 278
    /// times as much (0.021 s at 100 deep, 5.8 s at 800; this walk 0.0014 s
    /// and 0.048 s, 34 times). The bound is twice the square's growth.
    #[cfg(target_os = "linux")]
    #[test]
    fn walking_deep_folders_costs_the_square_of_the_depth_not_its_cube() {
        let shallow = walk_cpu_seconds(100);
        let deep = walk_cpu_seconds(800);
        assert!(
            deep < 128.0 * shallow,
            "100 folders deep: {shallow:.4} s; 800 deep: {deep:.4} s"
        );
    }

    #[test]
    fn the_summary_counts_differences_only_where_the_command_compares() {
        let counts = Counts {
            ok: 125,
            differs: 0,
            failed: 1,
            not_supported: 23,
        };
        assert_eq!(
            summary_text(&counts, true),
            "125 ok, 0 differ, 1 failed, 23 not supported"
        );
        assert_eq!(
            summary_text(&counts, false),
            "125 ok, 1 failed, 23 not supported"
        );
    }
}
