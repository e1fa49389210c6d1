//! Streaming floors: a loop that reads and writes as many bytes as a
//! deformation does, stream by stream and in step with it (each stream cut
//! into the same number of steps, every stream's step read or written
//! before the next step starts, as the deformation moves through its
//! inputs and outputs together), and computes nothing but what keeps its
//! reads from being dropped: each step's words folded by exclusive or, and
//! the fold written. No deformation can move the same bytes in less time;
//! where the machine's memory, not its arithmetic, bounds a deformation,
//! it runs close to its floor.
//!
//! Reads are 32-byte loads and writes 32-byte stores of the ordinary kind
//! (through the cache, as the deformations' stores are), with AVX2 where
//! the processor has it.

/// The streams of one floor, as words; step `s` of a stream is its `s`-th
/// share of `steps` equal shares.
pub struct Floor {
    reads: Vec<Vec<u64>>,
    writes: Vec<Vec<u64>>,
    steps: usize,
}

/// Bytes a word.
const WORD: usize = 8;

impl Floor {
    /// Streams of `reads` and `writes` bytes each, moved in `steps` steps.
    /// A stream holds whole words a step: its bytes are rounded up to a
    /// multiple of `8 * steps` (the callers choose steps that need none).
    pub fn new(steps: usize, reads: &[usize], writes: &[usize]) -> Floor {
        let stream = |bytes: &usize| vec![1u64; bytes.div_ceil(WORD * steps) * steps];
        Floor {
            reads: reads.iter().map(stream).collect(),
            writes: writes.iter().map(stream).collect(),
            steps,
        }
    }

    /// The floor of a weighted skin of `vertices` vertices (a multiple of
    /// 64) with `influences` influences each, as ossuary's deformation
    /// reads and writes it: the stored positions (12 bytes a vertex) and
    /// normals (12 more where `normals`), a 2-byte palette place a vertex
    /// and influence, a 4-byte weight a vertex and influence (none where
    /// every vertex has one influence of weight 1), a 2-byte mask per 16
    /// vertices; positions and normals written, 12 bytes each a vertex.
    /// Steps of 64 vertices (one step below 64).
    pub fn weighted(
        vertices: usize,
        influences: usize,
        normals: bool,
        unit_weights: bool,
    ) -> Floor {
        let vectors = if normals { 2 } else { 1 };
        let mut reads = vec![12 * vertices; vectors];
        reads.push(2 * influences * vertices);
        if !unit_weights {
            reads.push(4 * influences * vertices);
        }
        reads.push(vertices / 8);
        Floor::new(
            (vertices / 64).max(1),
            &reads,
            &vec![12 * vertices; vectors],
        )
    }

    /// The floor of a Sims skin of `real` vertices (a multiple of 64) and
    /// `blends` blend vertices, with normals, as ossuary's deformation
    /// reads and writes it: per vertex its stored position and normal (24
    /// bytes) and its 2-byte palette place, per 16 vertices a 2-byte mask;
    /// per blend vertex its share of its batch (four blend vertices'
    /// positions, weights, pulled vertices and normals in 128 bytes: 32
    /// bytes); positions and normals written, 24 bytes a vertex. A pull
    /// reads and writes a vertex already written, in cache, and counts
    /// nothing more. Steps of 64 vertices.
    pub fn sims(real: usize, blends: usize) -> Floor {
        Floor::new(
            (real / 64).max(1),
            &[12 * real, 12 * real, 2 * real + real / 8, 32 * blends],
            &[12 * real, 12 * real],
        )
    }

    /// The bytes one pass reads and writes.
    pub fn bytes(&self) -> (usize, usize) {
        let bytes = |streams: &[Vec<u64>]| streams.iter().map(|words| WORD * words.len()).sum();
        (bytes(&self.reads), bytes(&self.writes))
    }

    /// Reads every stream and writes every output once, step by step.
    pub fn stream(&mut self) {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the processor was just found to have AVX2.
            unsafe { self.stream_avx2() };
            return;
        }
        self.stream_words();
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn stream_avx2(&mut self) {
        self.stream_words();
    }

    /// The loop itself, written so that the compiler moves four words
    /// (one AVX2 register) at a time.
    #[inline(always)]
    fn stream_words(&mut self) {
        for step in 0..self.steps {
            let mut fold = [0u64; 4];
            for read in &self.reads {
                let share = read.len() / self.steps;
                let words = &read[step * share..(step + 1) * share];
                let mut fours = words.chunks_exact(4);
                for four in &mut fours {
                    for (fold, word) in fold.iter_mut().zip(four) {
                        *fold ^= word;
                    }
                }
                for (fold, word) in fold.iter_mut().zip(fours.remainder()) {
                    *fold ^= word;
                }
            }
            for write in &mut self.writes {
                let share = write.len() / self.steps;
                let words = &mut write[step * share..(step + 1) * share];
                let mut fours = words.chunks_exact_mut(4);
                for four in &mut fours {
                    four.copy_from_slice(&fold);
                }
                for (word, fold) in fours.into_remainder().iter_mut().zip(fold) {
                    *word = fold;
                }
            }
        }
        std::hint::black_box(&self.writes);
    }
}
