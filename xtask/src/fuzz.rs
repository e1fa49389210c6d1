//! `cargo xtask fuzz [--seconds N] [FORMAT...]`: builds the fuzz targets
//! (`fuzz/`) with libFuzzer's instrumentation on the stable toolchain, runs
//! each for N seconds from a corpus seeded with the sample fixtures and the
//! real files of `OSSUARY_CORPUS`, and keeps each finding, minimized, in
//! `fuzz/regressions/<format>/`, which `cargo test` replays.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use formats::catalogue::Catalogue;
use formats::format::Format;

/// Built for an explicit target so that build scripts and proc-macros,
/// built for the host, stay uninstrumented.
const TARGET: &str = "x86_64-unknown-linux-gnu";

/// What `cargo fuzz` passes, spelled out for stable rustc.
const RUSTFLAGS: &str = "--cfg fuzzing -Cpasses=sancov-module \
    -Cllvm-args=-sanitizer-coverage-level=4 \
    -Cllvm-args=-sanitizer-coverage-inline-8bit-counters \
    -Cllvm-args=-sanitizer-coverage-pc-table \
    -Cllvm-args=-sanitizer-coverage-trace-compares \
    -Cdebug-assertions -Coverflow-checks";

/// An input that takes longer than this is a hang.
const TIMEOUT_SECONDS: u64 = 10;

/// Memory past this is a finding (libFuzzer checks the process's resident
/// size, its own tables included, about 40 MB): no file of the fuzzer's
/// sizes needs more.
const RSS_LIMIT_MB: u64 = 256;

/// How long minimizing one finding may take.
const MINIMIZE_SECONDS: u64 = 60;

/// The file name prefixes libFuzzer gives the inputs it stops on.
const FINDING_PREFIXES: &[&str] = &["crash-", "oom-", "timeout-", "leak-"];

pub struct Options {
    pub seconds: u64,
    pub formats: Vec<&'static Format>,
}

impl Options {
    /// `[--seconds N] [FORMAT...]`; every format when none is named.
    pub fn parse(args: &[String], catalogue: Catalogue) -> Result<Options, String> {
        let mut seconds = 60;
        let mut formats = Vec::new();
        let mut args = args.iter();
        while let Some(arg) = args.next() {
            if arg == "--seconds" {
                let value = args.next().ok_or("--seconds needs a number")?;
                seconds = value
                    .parse()
                    .map_err(|_| format!("--seconds takes a whole number, not {value}"))?;
            } else {
                let format = catalogue.by_name(arg).ok_or_else(|| {
                    let names: Vec<&str> = catalogue.formats().iter().map(|f| f.name).collect();
                    format!("no format is named {arg} (known: {})", names.join(", "))
                })?;
                formats.push(format);
            }
        }
        if formats.is_empty() {
            formats = catalogue.formats().to_vec();
        }
        Ok(Options { seconds, formats })
    }
}

/// What one target's run gave.
pub struct Outcome {
    pub format: &'static str,
    pub stats: Stats,
    /// The minimized findings, relative to the workspace root.
    pub findings: Vec<String>,
}

/// libFuzzer's closing figures.
#[derive(Debug, Default, PartialEq)]
pub struct Stats {
    pub executions: Option<u64>,
    pub coverage: Option<u64>,
    pub features: Option<u64>,
    pub corpus: Option<u64>,
    pub peak_rss_mb: Option<u64>,
}

/// Builds the targets, runs each in turn, and prints a table of the runs.
pub fn run(root: &Path, options: &Options) -> Result<Vec<Outcome>, String> {
    build(root, &options.formats)?;
    let catalogue = Catalogue::default();
    let mut outcomes = Vec::new();
    for format in &options.formats {
        let corpus = root.join("fuzz/corpus").join(format.name);
        let seeds = seed(root, catalogue, format, &corpus)?;
        eprintln!(
            "fuzz: {} for {} s ({seeds} seed files)",
            format.name, options.seconds
        );
        outcomes.push(fuzz_one(root, format, &corpus, options.seconds)?);
    }
    print_table(&outcomes, options.seconds);
    Ok(outcomes)
}

fn build(root: &Path, formats: &[&Format]) -> Result<(), String> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut command = Command::new(cargo);
    command
        .current_dir(root.join("fuzz"))
        .args(["build", "--release", "--target", TARGET, "--target-dir"])
        .arg(root.join("fuzz/target"))
        .env("RUSTFLAGS", RUSTFLAGS)
        // Set by cargo for xtask's own build; it would win over RUSTFLAGS.
        .env_remove("CARGO_ENCODED_RUSTFLAGS");
    for format in formats {
        command.args(["--bin", format.name]);
    }
    let status = command
        .status()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("building the fuzz targets failed ({status})"))
    }
}

fn binary(root: &Path, format: &Format) -> PathBuf {
    root.join("fuzz/target")
        .join(TARGET)
        .join("release")
        .join(format.name)
}

/// Copies the format's sample fixtures, and its files in `OSSUARY_CORPUS`,
/// into the target's corpus folder (gitignored; it keeps what earlier runs
/// found); returns how many seed files there are.
fn seed(
    root: &Path,
    catalogue: Catalogue,
    format: &Format,
    corpus: &Path,
) -> Result<usize, String> {
    std::fs::create_dir_all(corpus).map_err(|e| format!("{}: {e}", corpus.display()))?;
    let mut folders = vec![root.join("tests/fixtures")];
    if let Some(named) = std::env::var_os("OSSUARY_CORPUS") {
        // Relative to the workspace root, as the tests take it.
        folders.push(root.join(named));
    }
    let mut seeds = 0;
    for folder in folders {
        for path in files_below(&folder)? {
            let name = path
                .file_name()
                .map(|name| name.to_string_lossy().into_owned())
                .unwrap_or_default();
            let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            if !catalogue
                .detect(&name, &bytes)
                .is_some_and(|found| found.is(format))
            {
                continue;
            }
            let copy = corpus.join(format!("seed-{name}"));
            std::fs::write(&copy, &bytes).map_err(|e| format!("{}: {e}", copy.display()))?;
            seeds += 1;
        }
    }
    Ok(seeds)
}

/// Every file below `folder`, in subfolders too.
fn files_below(folder: &Path) -> Result<Vec<PathBuf>, String> {
    let mut files = Vec::new();
    let mut pending = vec![folder.to_path_buf()];
    while let Some(folder) = pending.pop() {
        let entries =
            std::fs::read_dir(&folder).map_err(|e| format!("{}: {e}", folder.display()))?;
        for entry in entries {
            let path = entry
                .map_err(|e| format!("{}: {e}", folder.display()))?
                .path();
            if path.is_dir() {
                pending.push(path);
            } else {
                files.push(path);
            }
        }
    }
    files.sort();
    Ok(files)
}

fn fuzz_one(
    root: &Path,
    format: &'static Format,
    corpus: &Path,
    seconds: u64,
) -> Result<Outcome, String> {
    let artifacts = root.join("fuzz/artifacts").join(format.name);
    let logs = root.join("fuzz/logs");
    for folder in [&artifacts, &logs] {
        std::fs::create_dir_all(folder).map_err(|e| format!("{}: {e}", folder.display()))?;
    }
    let log_path = logs.join(format!("{}.log", format.name));
    let log =
        std::fs::File::create(&log_path).map_err(|e| format!("{}: {e}", log_path.display()))?;
    let status = Command::new(binary(root, format))
        .arg(corpus)
        .arg(format!("-max_total_time={seconds}"))
        .arg(format!("-timeout={TIMEOUT_SECONDS}"))
        .arg(format!("-rss_limit_mb={RSS_LIMIT_MB}"))
        .arg(format!("-artifact_prefix={}/", artifacts.display()))
        .arg("-print_final_stats=1")
        .stdout(Stdio::null())
        .stderr(log)
        .status()
        .map_err(|e| format!("cannot run the {} target: {e}", format.name))?;
    let text = std::fs::read_to_string(&log_path).unwrap_or_default();
    let mut findings = Vec::new();
    for artifact in files_below(&artifacts)? {
        let name = artifact
            .file_name()
            .map(|name| name.to_string_lossy().into_owned())
            .unwrap_or_default();
        if FINDING_PREFIXES
            .iter()
            .any(|prefix| name.starts_with(prefix))
        {
            findings.push(keep_finding(root, format, &artifact, &name)?);
        }
        std::fs::remove_file(&artifact).map_err(|e| format!("{}: {e}", artifact.display()))?;
    }
    if !status.success() && findings.is_empty() {
        return Err(format!(
            "the {} target stopped ({status}) without a finding; see {}",
            format.name,
            log_path.display()
        ));
    }
    Ok(Outcome {
        format: format.name,
        stats: parse_stats(&text),
        findings,
    })
}

/// Minimizes a finding into `fuzz/regressions/<format>/` (the input as
/// found when minimizing fails); returns its path from the root.
fn keep_finding(
    root: &Path,
    format: &Format,
    artifact: &Path,
    name: &str,
) -> Result<String, String> {
    let relative = format!("fuzz/regressions/{}/{name}", format.name);
    let kept = root.join(&relative);
    if let Some(folder) = kept.parent() {
        std::fs::create_dir_all(folder).map_err(|e| format!("{}: {e}", folder.display()))?;
    }
    eprintln!("fuzz: {}: minimizing {name}", format.name);
    // Minimizing reruns the input many times; its own log says little.
    let minimized = Command::new(binary(root, format))
        .arg("-minimize_crash=1")
        .arg(format!("-max_total_time={MINIMIZE_SECONDS}"))
        .arg(format!("-timeout={TIMEOUT_SECONDS}"))
        .arg(format!("-rss_limit_mb={RSS_LIMIT_MB}"))
        .arg(format!("-exact_artifact_path={}", kept.display()))
        .arg(artifact)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|_| kept.is_file());
    if !minimized {
        std::fs::copy(artifact, &kept).map_err(|e| format!("{}: {e}", kept.display()))?;
    }
    Ok(relative)
}

/// The figures libFuzzer prints as it stops: the executions and peak
/// memory from `-print_final_stats`, coverage, features and corpus size
/// from the last status line.
pub fn parse_stats(log: &str) -> Stats {
    let mut stats = Stats::default();
    for line in log.lines() {
        if let Some(value) = line.strip_prefix("stat::number_of_executed_units:") {
            stats.executions = value.trim().parse().ok();
        }
        if let Some(value) = line.strip_prefix("stat::peak_rss_mb:") {
            stats.peak_rss_mb = value.trim().parse().ok();
        }
        if line.starts_with('#') && line.contains(" cov: ") {
            let field = |name: &str| {
                line.split_whitespace()
                    .skip_while(|word| *word != name)
                    .nth(1)
                    .and_then(|value| value.split('/').next())
                    .and_then(|value| value.parse().ok())
            };
            stats.coverage = field("cov:");
            stats.features = field("ft:");
            stats.corpus = field("corp:");
        }
    }
    stats
}

fn print_table(outcomes: &[Outcome], seconds: u64) {
    let figure = |value: Option<u64>| value.map_or_else(|| "?".to_owned(), |v| v.to_string());
    println!("| target | seconds | executions | cov | ft | corpus | peak RSS (MB) | findings |");
    println!("|---|---|---|---|---|---|---|---|");
    for outcome in outcomes {
        let findings = if outcome.findings.is_empty() {
            "none".to_owned()
        } else {
            outcome.findings.join(", ")
        };
        println!(
            "| {} | {seconds} | {} | {} | {} | {} | {} | {findings} |",
            outcome.format,
            figure(outcome.stats.executions),
            figure(outcome.stats.coverage),
            figure(outcome.stats.features),
            figure(outcome.stats.corpus),
            figure(outcome.stats.peak_rss_mb),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stats_come_from_the_last_status_line_and_the_final_stats() {
        let log = "\
#2\tINITED cov: 10 ft: 11 corp: 1/4b exec/s: 0 rss: 30Mb
#66308\tDONE   cov: 1514 ft: 4276 corp: 287/152Kb lim: 1292 exec/s: 22102 rss: 35Mb
Done 66308 runs in 3 second(s)
stat::number_of_executed_units: 66308
stat::average_exec_per_sec:     22102
stat::peak_rss_mb:              35
";
        assert_eq!(
            parse_stats(log),
            Stats {
                executions: Some(66308),
                coverage: Some(1514),
                features: Some(4276),
                corpus: Some(287),
                peak_rss_mb: Some(35),
            }
        );
    }

    #[test]
    fn options_name_formats_and_seconds() {
        let args: Vec<String> = ["--seconds", "20", "tso-skel"].map(str::to_owned).to_vec();
        let options = Options::parse(&args, Catalogue::default()).unwrap();
        assert_eq!(options.seconds, 20);
        let names: Vec<&str> = options.formats.iter().map(|f| f.name).collect();
        assert_eq!(names, ["tso-skel"]);
        let every = Options::parse(&[], Catalogue::default()).unwrap();
        assert_eq!(every.formats.len(), Catalogue::default().formats().len());
        assert!(Options::parse(&["nonsense".to_owned()], Catalogue::default()).is_err());
    }
}
