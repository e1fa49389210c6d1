//! Weighted skinning against ozz-animation timed by each thread's own CPU
//! time, for a machine that is not quiet: a call's CPU time leaves out the
//! time other processes held the CPU, which the wall clock of
//! `benches/alternating.rs` counts. Call by call in turn, the best of 150
//! calls each, on `VERTICES` vertices (1,000,000 unless given; 50,000 keeps
//! every case in the second-level cache and measures the arithmetic).
//! Then two threads against one: the CPU time both workers spend (the work
//! and its overhead) and the best wall time.
//!
//! `VERTICES=50000 cargo run --profile bench -p bench --features ozz --example cpu_time`

use bench::contest::Weighted;
use bench::threads;

/// Calls per contender.
const CALLS: usize = 150;

/// Seconds of CPU time `clock` has counted.
fn seconds(clock: libc::clockid_t) -> f64 {
    let mut time = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `time` is a valid timespec for the call to fill.
    unsafe { libc::clock_gettime(clock, &mut time) };
    time.tv_sec as f64 + time.tv_nsec as f64 * 1e-9
}

/// The calling thread's CPU time for `call`.
fn thread_time(call: impl FnOnce()) -> f64 {
    let start = seconds(libc::CLOCK_THREAD_CPUTIME_ID);
    call();
    seconds(libc::CLOCK_THREAD_CPUTIME_ID) - start
}

/// The best of each contender's times, call by call in turn on the pool's
/// one worker.
fn best_of(pool: &rayon::ThreadPool, contenders: &mut [&mut (dyn FnMut() + Send)]) -> Vec<f64> {
    let mut best = vec![f64::MAX; contenders.len()];
    for _ in 0..CALLS {
        for (contender, best) in contenders.iter_mut().zip(&mut best) {
            *best = best.min(pool.install(|| thread_time(&mut **contender)));
        }
    }
    best
}

/// The case, for one call (a lock, not a cell: a pool's worker calls).
fn skin(case: &std::sync::Mutex<Weighted>) -> std::sync::MutexGuard<'_, Weighted> {
    case.lock().expect("no call panicked")
}

fn main() {
    let vertices: usize = std::env::var("VERTICES")
        .ok()
        .and_then(|count| count.parse().ok())
        .unwrap_or(1_000_000);
    let one = threads::pinned_pool(1);
    let two = threads::pinned_pool(2);
    for influences in [1, 2, 4] {
        for normals in [false, true] {
            let case = std::sync::Mutex::new(Weighted::new(vertices, influences, normals));
            let what = if normals {
                "positions+normals"
            } else {
                "positions"
            };
            let name = format!("{vertices} vertices, {influences} influence(s), {what}");
            let best = best_of(
                &one,
                &mut [
                    &mut || {
                        if normals {
                            skin(&case).ozz_unit()
                        } else {
                            skin(&case).ozz()
                        }
                    },
                    &mut || skin(&case).ossuary(),
                ],
            );
            println!(
                "{name}: ozz {:.3} ms, ossuary {:.3} ms, ratio {:.2}",
                best[0] * 1e3,
                best[1] * 1e3,
                best[0] / best[1]
            );
            if normals {
                let best = best_of(
                    &one,
                    &mut [&mut || skin(&case).ozz(), &mut || {
                        skin(&case).ossuary_as_blended()
                    }],
                );
                println!(
                    "{name} as blended: ozz {:.3} ms, ossuary {:.3} ms, ratio {:.2}",
                    best[0] * 1e3,
                    best[1] * 1e3,
                    best[0] / best[1]
                );
            }
            let (mut one_thread, mut both_cpu, mut both_wall) = (f64::MAX, f64::MAX, f64::MAX);
            for _ in 0..CALLS / 2 {
                one_thread = one_thread.min(one.install(|| thread_time(|| skin(&case).ossuary())));
                // The process's CPU time: both workers (this thread waits
                // asleep while they work).
                let cpu = seconds(libc::CLOCK_PROCESS_CPUTIME_ID);
                let wall = std::time::Instant::now();
                two.install(|| skin(&case).ossuary());
                both_wall = both_wall.min(wall.elapsed().as_secs_f64());
                both_cpu = both_cpu.min(seconds(libc::CLOCK_PROCESS_CPUTIME_ID) - cpu);
            }
            println!(
                "{name}, 2 threads: CPU {:.3} ms against 1 thread's {:.3} ms ({:.2} of the work's \
                 CPU time is overhead), best wall {:.3} ms: {:.2}x one thread",
                both_cpu * 1e3,
                one_thread * 1e3,
                both_cpu / one_thread - 1.0,
                both_wall * 1e3,
                one_thread / both_wall
            );
        }
    }
}
