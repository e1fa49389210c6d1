//! The headline comparisons with the contenders taking turns: in each
//! round every contender runs the same number of calls, in an order that
//! rotates from round to round, so a machine that slows down or speeds up
//! during the run weighs on all of them alike; a round's ratio compares
//! contenders timed moments apart. Each call's result is dropped before
//! the next call.
//!
//! Every contender starts from the same allocator state, fixed through
//! glibc's tunables: the process runs itself again once for each
//! [`AllocatorState`], and the codec and text cases run in both:
//! - `fresh`: every vector of 128 KiB or more is a new mapping, whose
//!   pages fault on first write, as in a program reading one file;
//! - `kept`: freed memory stays with the heap and is handed out again, as
//!   in a program working through many files.
//!
//! `cargo bench -p bench --bench alternating [-- FILTER]` prints one line
//! per case: each contender's median time per call, and the median (min
//! to max) over the rounds of baseline time / ossuary time for each
//! baseline ("vs"), and of ossuary time / floor time for each floor
//! ("over"). Criterion's benches (`binary`, `text`, `skinning`) measure
//! the same cases one contender after another, with the default
//! allocator.

use std::hint::black_box;
use std::io::Cursor;
use std::time::{Duration, Instant};

use bench::contest::{self, LocalToModel, Sampling, Sims, Weighted};
use bench::{hand, keys, layouts, naive, scalar, synthetic, threads, twins};
use binrw::BinRead;
use formats::schema::BinarySchema;
use formats::sims::bmf::Bmf;
use formats::sims::skn::Skn;
use skinning::{Deformer, PosedSkin};

/// How the allocator is set up while timing, by glibc's environment
/// tunables, and which cases run in it.
struct AllocatorState {
    name: &'static str,
    tunables: &'static [(&'static str, &'static str)],
    /// The deformation writes into kept buffers, so it runs in one state.
    deformation: bool,
}

const ALLOCATOR_STATES: [AllocatorState; 2] = [
    AllocatorState {
        name: "fresh",
        // Vectors of 128 KiB or more are mapped anew, whatever ran before.
        tunables: &[("MALLOC_MMAP_THRESHOLD_", "131072")],
        deformation: true,
    },
    AllocatorState {
        name: "kept",
        // Vectors under 32 MiB come from the heap, and the heap keeps
        // what is freed (glibc would otherwise return its top to the
        // system, and map it again, after each large result).
        tunables: &[
            ("MALLOC_MMAP_THRESHOLD_", "33554432"),
            ("MALLOC_TRIM_THRESHOLD_", "1073741824"),
        ],
        deformation: false,
    },
];

/// The variable naming the state a run is in.
const STATE: &str = "OSSUARY_ALLOCATOR_STATE";
/// Rounds per case: each contender is timed once a round.
const ROUNDS: usize = 15;
/// About how long one contender's turn in a round takes.
const TURN: Duration = Duration::from_millis(60);

/// The variable choosing the clock: `process` for the process's CPU time,
/// anything else (or nothing) for the wall clock.
const CLOCK: &str = "OSSUARY_CLOCK";

/// A start of timing, by the wall clock or, on a machine busy with other
/// work, by the process's CPU time (`OSSUARY_CLOCK=process`), which leaves
/// out the time other processes hold the CPU. The CPU time of a call on two
/// threads counts both: only the one-thread rows compare so.
enum Clock {
    Wall(Instant),
    Process(Duration),
}

impl Clock {
    fn now() -> Clock {
        if std::env::var(CLOCK).is_ok_and(|clock| clock == "process") {
            Clock::Process(process_time())
        } else {
            Clock::Wall(Instant::now())
        }
    }

    fn elapsed(&self) -> Duration {
        match self {
            Clock::Wall(start) => start.elapsed(),
            Clock::Process(start) => process_time().saturating_sub(*start),
        }
    }
}

/// The CPU time the process's threads have used.
fn process_time() -> Duration {
    let mut time = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `time` is a valid timespec for the call to fill.
    unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut time) };
    Duration::new(time.tv_sec as u64, time.tv_nsec as u32)
}

/// A contender: its name and one call.
struct Contender<'a> {
    name: &'static str,
    call: Box<dyn FnMut() + 'a>,
    /// A floor (work any contender must do, such as copying the bytes it
    /// writes) is timed beside the others but is no baseline to beat.
    floor: bool,
}

fn contender<'a>(name: &'static str, call: impl FnMut() + 'a) -> Contender<'a> {
    Contender {
        name,
        call: Box::new(call),
        floor: false,
    }
}

fn floor<'a>(name: &'static str, call: impl FnMut() + 'a) -> Contender<'a> {
    Contender {
        floor: true,
        ..contender(name, call)
    }
}

/// Keeps the compiler from leaving a call's result unmade; it is dropped
/// here, before the next call.
fn keep<T>(result: T) {
    black_box(result);
}

/// A time per call, in microseconds below a tenth of a millisecond.
fn duration(seconds: f64) -> String {
    if seconds < 1e-4 {
        format!("{:.3} µs", seconds * 1e6)
    } else {
        format!("{:.3} ms", seconds * 1e3)
    }
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

/// Times the contenders in turns; the last one is ossuary, the others its
/// baselines (and floors). Prints the case's line.
fn race(case: &str, mut contenders: Vec<Contender>) {
    // One call each to warm up, and to learn how many calls fill a turn.
    let calls: Vec<u32> = contenders
        .iter_mut()
        .map(|contender| {
            let start = Clock::now();
            (contender.call)();
            let once = start.elapsed().max(Duration::from_micros(1));
            (TURN.as_secs_f64() / once.as_secs_f64()).clamp(1.0, 10_000.0) as u32
        })
        .collect();
    // The same number of calls for every contender: the fewest any needs.
    let calls = calls.iter().copied().min().unwrap_or(1);
    let count = contenders.len();
    let mut times = vec![Vec::with_capacity(ROUNDS); count];
    for round in 0..ROUNDS {
        for turn in 0..count {
            let index = (round + turn) % count;
            let contender = &mut contenders[index];
            let start = Clock::now();
            for _ in 0..calls {
                (contender.call)();
            }
            times[index].push(start.elapsed().as_secs_f64() / f64::from(calls));
        }
    }
    let ossuary = count - 1;
    let mut line = format!("{case}:");
    for (index, contender) in contenders.iter().enumerate() {
        let mut own = times[index].clone();
        line += &format!(" {} {}", contender.name, duration(median(&mut own)));
        line += if index == ossuary { ";" } else { "," };
    }
    for (index, contender) in contenders.iter().enumerate().take(ossuary) {
        // A baseline's ratio is its time over ossuary's (above 1, ossuary
        // is faster); a floor's is ossuary's time over the floor's (how
        // far above the floor ossuary runs).
        let mut ratios: Vec<f64> = (0..ROUNDS)
            .map(|round| match contender.floor {
                false => times[index][round] / times[ossuary][round],
                true => times[ossuary][round] / times[index][round],
            })
            .collect();
        let middle = median(&mut ratios);
        let what = if contender.floor { "over" } else { "vs" };
        line += &format!(
            " {what} {} {:.2} ({:.2}-{:.2})",
            contender.name,
            middle,
            ratios[0],
            ratios[ROUNDS - 1]
        );
    }
    println!("{line}");
}

fn binrw_decode<T: for<'a> BinRead<Args<'a> = ()> + binrw::meta::ReadEndian>(bytes: &[u8]) -> T {
    T::read(&mut Cursor::new(bytes)).expect("binrw decodes the synthetic file")
}

/// Decode and encode of one layout against binrw's derive and the
/// hand-written codec, after checking that the three agree.
fn binary<T, Twin>(
    filter: &str,
    name: &str,
    value: impl FnOnce() -> T,
    decode: fn(&[u8]) -> Result<T, hand::Malformed>,
    encode: fn(&T) -> Result<Vec<u8>, hand::Malformed>,
) where
    T: BinarySchema + formats::schema::HasContext<Context = ()> + PartialEq + std::fmt::Debug,
    Twin: for<'a> BinRead<Args<'a> = ()>
        + binrw::meta::ReadEndian
        + for<'a> binrw::BinWrite<Args<'a> = ()>
        + binrw::meta::WriteEndian,
{
    if ![" decode", " encode"]
        .iter()
        .any(|what| format!("{name}{what}").contains(filter))
    {
        return;
    }
    let value = value();
    let bytes = value
        .to_bytes()
        .expect("ossuary encodes the synthetic file");
    assert_eq!(decode(&bytes).as_ref(), Ok(&value), "{name}: hand differs");
    assert_eq!(encode(&value).as_ref(), Ok(&bytes), "{name}: hand differs");
    let twin: Twin = binrw_decode(&bytes);
    let case = format!("{name} decode");
    if case.contains(filter) {
        race(
            &case,
            vec![
                contender("binrw", || keep(binrw_decode::<Twin>(black_box(&bytes)))),
                contender("hand", || keep(decode(black_box(&bytes)))),
                contender("ossuary", || keep(T::from_bytes(black_box(&bytes)))),
            ],
        );
    }
    let case = format!("{name} encode");
    if case.contains(filter) {
        race(
            &case,
            vec![
                contender("binrw", || {
                    let mut out = Cursor::new(Vec::new());
                    black_box(&twin)
                        .write(&mut out)
                        .expect("binrw encodes the synthetic file");
                    keep(out)
                }),
                contender("hand", || keep(encode(black_box(&value)))),
                contender("ossuary", || keep(black_box(&value).to_bytes())),
            ],
        );
    }
}

/// Decode and encode of a layout written with the schema language's keys
/// for what is not read front to back, against the hand-written codec of
/// the same layout, after checking that the two agree (binrw has no
/// writer for offsets, no bit fields and no `calc`; see BENCHMARKS.md).
fn by_keys<T>(
    filter: &str,
    name: &str,
    value: impl FnOnce() -> T,
    decode: fn(&[u8]) -> Result<T, hand::Malformed>,
    encode: fn(&T) -> Result<Vec<u8>, hand::Malformed>,
) where
    T: BinarySchema + formats::schema::HasContext<Context = ()> + PartialEq + std::fmt::Debug,
{
    if ![" decode", " encode"]
        .iter()
        .any(|what| format!("{name}{what}").contains(filter))
    {
        return;
    }
    let value = value();
    let bytes = value
        .to_bytes()
        .expect("ossuary encodes the synthetic file");
    let read = T::from_bytes(&bytes).expect("ossuary decodes the synthetic file");
    // Compared without printing: the values are a megabyte long.
    assert!(
        decode(&bytes).as_ref() == Ok(&read),
        "{name}: hand reads another value"
    );
    assert!(
        encode(&read).as_ref() == Ok(&bytes),
        "{name}: hand writes other bytes"
    );
    let case = format!("{name} decode");
    if case.contains(filter) {
        race(
            &case,
            vec![
                contender("hand", || keep(decode(black_box(&bytes)))),
                contender("ossuary", || keep(T::from_bytes(black_box(&bytes)))),
            ],
        );
    }
    let case = format!("{name} encode");
    if case.contains(filter) {
        race(
            &case,
            vec![
                contender("hand", || keep(encode(black_box(&read)))),
                contender("ossuary", || keep(black_box(&read).to_bytes())),
            ],
        );
    }
}

/// A gzip stream holding records: read (inflate, then the records) and
/// written anew (the records, then deflate), against flate2 with the
/// hand-written record codec.
fn gzip(filter: &str, bytes: usize) {
    use std::io::{Read, Write};
    let name = format!("gzip {} MB", bytes >> 20);
    if ![" decode", " encode"]
        .iter()
        .any(|what| format!("{name}{what}").contains(filter))
    {
        return;
    }
    let value = keys::packed(bytes);
    let stream = value
        .to_bytes()
        .expect("ossuary encodes the synthetic stream");
    let records = value.records.value.clone();
    let by_hand = |stream: &[u8]| {
        let mut decoded = Vec::new();
        flate2::read::GzDecoder::new(stream)
            .read_to_end(&mut decoded)
            .expect("flate2 inflates the stream");
        keys::decode_records(&decoded)
    };
    let written_by_hand = |records: &keys::Records| {
        let plain = keys::encode_records(records).expect("the records encode");
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        encoder.write_all(&plain).expect("flate2 deflates");
        encoder.finish().expect("flate2 deflates")
    };
    assert_eq!(
        by_hand(&stream).as_ref(),
        Ok(&records),
        "{name}: hand differs"
    );
    assert_eq!(written_by_hand(&records), stream, "{name}: hand differs");
    let case = format!("{name} decode");
    if case.contains(filter) {
        race(
            &case,
            vec![
                contender("flate2+hand", || keep(by_hand(black_box(&stream)))),
                contender("ossuary", || {
                    keep(keys::Packed::from_bytes(black_box(&stream)))
                }),
            ],
        );
    }
    let case = format!("{name} encode");
    if case.contains(filter) {
        race(
            &case,
            vec![
                contender("flate2+hand", || keep(written_by_hand(black_box(&records)))),
                // A value built in code, not read, is compressed anew.
                contender("ossuary", || keep(black_box(&value).to_bytes())),
            ],
        );
    }
}

fn text(filter: &str, vertices: usize) {
    if ![" parse", " write"]
        .iter()
        .any(|what| format!("skn {vertices} vertices{what}").contains(filter))
    {
        return;
    }
    let skin = synthetic::skn(vertices);
    let text = skin.to_text().expect("ossuary writes the synthetic skin");
    let as_str = std::str::from_utf8(&text).expect("the synthetic skin is ASCII");
    let parsed = naive::parse_skn(as_str).expect("the naive reader reads the skin");
    assert_eq!(
        Skn {
            style: skin.style.clone(),
            ..parsed
        },
        skin,
        "the naive reader loses values"
    );
    let case = format!("skn {vertices} vertices parse");
    if case.contains(filter) {
        race(
            &case,
            vec![
                contender("naive", || {
                    let text = std::str::from_utf8(black_box(&text)).expect("ASCII");
                    keep(naive::parse_skn(text))
                }),
                contender("ossuary", || keep(Skn::from_text(black_box(&text)))),
            ],
        );
    }
    let case = format!("skn {vertices} vertices write");
    if case.contains(filter) {
        race(
            &case,
            vec![
                contender("naive", || keep(naive::write_skn(black_box(&skin)))),
                contender("ossuary", || keep(black_box(&skin).to_text())),
            ],
        );
    }
}

fn deformation(filter: &str) {
    let name = |threads: usize| format!("sims deform 1M vertices, {threads} thread(s)");
    if ![1, 2].iter().any(|&threads| name(threads).contains(filter)) {
        return;
    }
    let mut case = scalar::case(1_000_000);
    let mut copy_floor = scalar::CopyFloor::new(&case.skin);
    for threads in [1, 2] {
        let name = name(threads);
        if !name.contains(filter) {
            continue;
        }
        let pool = threads::pinned_pool(threads);
        let mut deformer = Deformer::default();
        let mut posed = PosedSkin::default();
        race(
            &name,
            vec![
                floor("copy floor", || {
                    black_box(&mut copy_floor).copy(black_box(&case.skin))
                }),
                contender("scalar", || {
                    case.plain
                        .deform(black_box(&case.model), &mut case.baseline)
                }),
                contender("ossuary", || {
                    pool.install(|| {
                        scalar::ossuary_deform(&case.bound, &case.model, &mut deformer, &mut posed)
                    })
                }),
            ],
        );
    }
}

/// The cases against ozz-animation (`bench/src/contest.rs`), on one thread
/// each; the deformations also on two against one. Without the `ozz`
/// feature ossuary's rows run alone, with no ratio.
fn animation(filter: &str) {
    #[cfg(not(feature = "ozz"))]
    println!("{}", contest::WITHOUT_OZZ);
    let mut clips = Vec::new();
    if ["sampling", "local_to_model"]
        .iter()
        .any(|what| what.contains(filter) || filter.contains(what))
    {
        match contest::adult_walk() {
            Some(walk) => clips.push(("adult walk", walk)),
            None => println!("adult walk rows skipped: the corpus is not there (OSSUARY_CORPUS)"),
        }
        clips.push(("1000 joints", contest::synthetic_clip(1000, 60)));
    }
    for (name, clip) in clips {
        let case = format!("sampling {name}");
        if case.contains(filter) {
            let mut sampling = Sampling::new(clip.clone());
            let sampling = std::cell::RefCell::new(&mut sampling);
            race(
                &case,
                vec![
                    #[cfg(feature = "ozz")]
                    contender("ozz", || sampling.borrow_mut().ozz()),
                    contender("ossuary", || sampling.borrow_mut().ossuary()),
                ],
            );
        }
        let case = format!("local_to_model {name}");
        if case.contains(filter) {
            let mut posing = LocalToModel::new(clip);
            let posing = std::cell::RefCell::new(&mut posing);
            race(
                &case,
                vec![
                    #[cfg(feature = "ozz")]
                    contender("ozz", || posing.borrow_mut().ozz()),
                    contender("ossuary", || posing.borrow_mut().ossuary()),
                ],
            );
        }
    }
    let one = threads::pinned_pool(1);
    let two = threads::pinned_pool(2);
    // Each deformation beside its streaming floor (`bench/src/floor.rs`),
    // every contender on the same pinned worker: on a machine busy with
    // other work the CPUs are not alike, and a contender left to the
    // calling thread ran on whichever the scheduler chose.
    let deform = |case: String,
                  ossuary: &dyn Fn(&rayon::ThreadPool),
                  ozz: &(dyn Fn() + Sync),
                  streaming: &(dyn Fn() + Sync)| {
        let _ = &ozz;
        race(
            &format!("{case}, 1 thread"),
            vec![
                floor("floor", || one.install(streaming)),
                #[cfg(feature = "ozz")]
                contender("ozz", || one.install(ozz)),
                contender("ossuary", || ossuary(&one)),
            ],
        );
        race(
            &format!("{case}, 2 threads"),
            vec![
                contender("ossuary 1 thread", || ossuary(&one)),
                contender("ossuary", || ossuary(&two)),
            ],
        );
    };
    for influences in [1, 2, 4] {
        for normals in [false, true] {
            let what = if normals {
                "positions+normals"
            } else {
                "positions"
            };
            let case = format!("weighted skin 1M vertices {influences} influence(s) {what}");
            if !case.contains(filter) {
                continue;
            }
            // A lock, not a cell: the pool's worker runs the call.
            let skin = std::sync::Mutex::new(Weighted::new(1_000_000, influences, normals));
            let skin = || skin.lock().expect("no call panicked");
            // Like with like: with normals, ossuary's unit normals against
            // ozz followed by a normalization pass, then ossuary's normals
            // as blended against ozz alone.
            deform(
                case.clone(),
                &|pool| pool.install(|| skin().ossuary()),
                &|| {
                    #[cfg(feature = "ozz")]
                    if normals {
                        skin().ozz_unit();
                    } else {
                        skin().ozz();
                    }
                },
                &|| skin().floor(),
            );
            if normals {
                race(
                    &format!("{case} as blended, 1 thread"),
                    vec![
                        floor("floor", || one.install(|| skin().floor())),
                        #[cfg(feature = "ozz")]
                        contender("ozz", || one.install(|| skin().ozz())),
                        contender("ossuary", || one.install(|| skin().ossuary_as_blended())),
                    ],
                );
            }
        }
    }
    let case = "sims deform 1M vertices against ozz 1 influence".to_owned();
    if case.contains(filter) {
        let sims = std::sync::Mutex::new(Sims::new(1_000_000));
        let sims = || sims.lock().expect("no call panicked");
        deform(
            case,
            &|pool| pool.install(|| sims().ossuary()),
            &|| {
                #[cfg(feature = "ozz")]
                sims().ozz();
            },
            &|| sims().floor(),
        );
    }
}

fn main() {
    let Some(state) = std::env::var(STATE).ok() else {
        for state in &ALLOCATOR_STATES {
            println!("allocator state: {}", state.name);
            let status = std::process::Command::new(std::env::current_exe().expect("this program"))
                .args(std::env::args_os().skip(1))
                .envs(state.tunables.iter().copied())
                .env(STATE, state.name)
                .status()
                .expect("this program runs again");
            if !status.success() {
                std::process::exit(status.code().unwrap_or(1));
            }
        }
        return;
    };
    // `cargo bench` passes `--bench`; any other word narrows the cases.
    let filter = std::env::args()
        .skip(1)
        .find(|arg| !arg.starts_with("--"))
        .unwrap_or_default();
    for bones in [10_000, usize::from(u16::MAX)] {
        binary::<_, twins::Skel>(
            &filter,
            &format!("skel {bones} bones"),
            || synthetic::skel(bones),
            hand::decode_skel,
            hand::encode_skel,
        );
    }
    for joints in [10_000, 100_000] {
        binary::<_, twins::Skt>(
            &filter,
            &format!("skt {joints} joints"),
            || synthetic::skt(joints),
            hand::decode_skt,
            hand::encode_skt,
        );
    }
    for vertices in [100_000, 1_000_000] {
        binary::<_, twins::Bmf>(
            &filter,
            &format!("bmf {vertices} vertices"),
            || Bmf::from_skn(&synthetic::skn(vertices)),
            hand::decode_bmf,
            hand::encode_bmf,
        );
    }
    for vertices in [100_000, 1_000_000] {
        text(&filter, vertices);
    }
    const MEGABYTE: usize = 1 << 20;
    by_keys(
        &filter,
        "offset table 1 MB",
        || keys::items(MEGABYTE),
        keys::decode_items,
        keys::encode_items,
    );
    by_keys(
        &filter,
        "command words 1 MB",
        || keys::words(MEGABYTE),
        keys::decode_words,
        keys::encode_words,
    );
    by_keys(
        &filter,
        "padded runs 1 MB",
        || keys::sprite(MEGABYTE),
        keys::decode_sprite,
        keys::encode_sprite,
    );
    gzip(&filter, MEGABYTE);
    // The same layouts as `--bench layouts` times one codec after the
    // other (`bench/src/layouts.rs`), here in turns.
    by_keys(
        &filter,
        "layouts: offset table and items",
        || layouts::table(17_000),
        layouts::decode_table,
        layouts::encode_table,
    );
    by_keys(
        &filter,
        "layouts: bit-field command words",
        || layouts::script(450_000),
        layouts::decode_script,
        layouts::encode_script,
    );
    by_keys(
        &filter,
        "layouts: padded run-length stream",
        || layouts::picture(64_000),
        layouts::decode_picture,
        layouts::encode_picture,
    );
    if ALLOCATOR_STATES
        .iter()
        .any(|known| known.name == state && known.deformation)
    {
        deformation(&filter);
    }
    animation(&filter);
}
