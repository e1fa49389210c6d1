//! Thread pools whose workers each keep a CPU of their own.
//!
//! A deformation on two threads takes about a millisecond. Between calls
//! (while a baseline runs, or while a harness sleeps) rayon's workers go to
//! sleep, and when the next call wakes them Linux may put both on one CPU:
//! the second is woken while the caller still runs on the other CPU, and
//! the scheduler will not move a task that ran within the last half
//! millisecond to the CPU that frees up. Both then share that CPU for tens
//! of milliseconds. Measured with 23 calls after 60 ms of sleep, a call
//! took 1.40 ms with free workers and 0.87 ms with pinned ones (0.84 ms
//! back to back either way). That is the system's placement, not the
//! code's speed, so the benchmarks pin the workers, as `taskset` would.

/// A pool of `threads` workers, worker `i` pinned to CPU `i` where the
/// machine has that many CPUs (and left to the scheduler elsewhere).
pub fn pinned_pool(threads: usize) -> rayon::ThreadPool {
    let cpus = std::thread::available_parallelism().map_or(1, usize::from);
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .start_handler(move |worker| {
            if threads <= cpus {
                pin_to(worker);
            }
        })
        .build()
        .expect("a thread pool")
}

#[cfg(target_os = "linux")]
fn pin_to(cpu: usize) {
    // SAFETY: `set` is a plain bit set, zeroed and then written by the
    // libc macros within its size; sched_setaffinity(0, ...) only reads
    // it, for the calling thread. A refusal leaves the thread unpinned.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        libc::CPU_ZERO(&mut set);
        libc::CPU_SET(cpu, &mut set);
        libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set);
    }
}

#[cfg(not(target_os = "linux"))]
fn pin_to(_: usize) {}
