//! Made glTF answers, kept so that asking again for the same view costs a
//! look at the files instead of reading, posing and encoding them again.
//!
//! An answer is kept with the identity (path, length, modification time)
//! of every file it may have been made from, and given again only while
//! each is the same: an edited file is never answered from what it was.
//! Making an answer reads only files under the paths served, so those are
//! all its possible inputs; their folders count too, so that a file put in
//! (a part that was missing) or taken away is seen. What is kept is
//! bounded by bytes: past the bound, the answers used least recently go.
//! Once the paths hold more than [`MAX_ENTRIES`] files and folders,
//! looking at them all would cost more than it saves: nothing is kept.

use std::collections::HashMap;
use std::fs;
use std::hash::{Hash as _, Hasher as _};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::SystemTime;

use crate::roots::Roots;

/// How many bytes of answers the server keeps at most: the views of a
/// session (a character is 0.1 to 1 MB without textures, a few MB with).
pub const DEFAULT_CAPACITY: usize = 128 << 20;

/// Bytes counted for an answer beyond its own: the entry's bookkeeping.
const ENTRY_OVERHEAD: usize = 256;

/// A digest of the identity of every file and folder under the roots.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Inputs(u64);

/// The most files and folders looked at for one answer: about 30 ms on
/// this project's machine (1.4 µs each). Past it, looking costs more than
/// making most answers again, and answers are not kept.
pub const MAX_ENTRIES: usize = 20_000;

impl Inputs {
    /// The files and folders under `roots` as they are now: each one's
    /// path, length and modification time. Links are not followed: making
    /// an answer reads nothing outside the roots, and a link's target
    /// inside them is looked at on its own. `None` past `most` entries.
    pub fn of(roots: &Roots, most: usize) -> Option<Inputs> {
        // Each entry's identity is hashed alone and the hashes summed, so
        // that the folders need not be sorted; the walk keeps its own
        // stack, however deep the folders go.
        let mut sum = 0u64;
        let mut seen = 0usize;
        let mut folders = Vec::new();
        for root in roots.iter() {
            if let Ok(metadata) = fs::symlink_metadata(&root.path) {
                sum = sum.wrapping_add(identity(&root.path, &metadata));
            }
            if root.is_dir {
                folders.push(root.path.clone());
            }
        }
        while let Some(folder) = folders.pop() {
            let Ok(entries) = fs::read_dir(&folder) else {
                continue;
            };
            for entry in entries.flatten() {
                // Looked at through the folder, not by the whole path again.
                let Ok(metadata) = entry.metadata() else {
                    continue;
                };
                seen += 1;
                if seen > most {
                    return None;
                }
                let path = entry.path();
                sum = sum.wrapping_add(identity(&path, &metadata));
                if metadata.is_dir() {
                    folders.push(path);
                }
            }
        }
        Some(Inputs(sum))
    }
}

/// A hash of the identity of the entry at `path`, itself and not a link's
/// target: its path, kind, length and modification time, and where a link
/// leads.
fn identity(path: &Path, metadata: &fs::Metadata) -> u64 {
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    path.hash(&mut hasher);
    metadata.is_dir().hash(&mut hasher);
    metadata.len().hash(&mut hasher);
    metadata
        .modified()
        .ok()
        .and_then(|time| time.duration_since(SystemTime::UNIX_EPOCH).ok())
        .hash(&mut hasher);
    if metadata.file_type().is_symlink() {
        fs::read_link(path).ok().hash(&mut hasher);
    }
    hasher.finish()
}

/// An answer kept: the asset and the warnings made with it.
#[derive(Debug, PartialEq)]
pub struct Kept {
    /// Exactly as long as the asset, and shared with the answers sending it.
    pub glb: Arc<[u8]>,
    pub warnings: String,
}

impl Kept {
    fn bytes(&self) -> usize {
        self.glb.len() + self.warnings.len()
    }
}

struct Entry {
    inputs: Inputs,
    answer: Arc<Kept>,
    bytes: usize,
    /// When it was last given or kept, in uses of the cache.
    used: u64,
}

/// Answers by request, bounded by bytes.
pub struct Cache {
    capacity: usize,
    /// The most entries looked at under the paths for one answer.
    most_entries: usize,
    /// Whether answers are kept: not once the paths held too many files
    /// to look at, for good (folders being served rarely lose thousands of
    /// files, and each look would cost its whole budget again).
    keeping: AtomicBool,
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    entries: HashMap<String, Entry>,
    /// The bytes of every entry kept.
    held: usize,
    uses: u64,
}

impl Cache {
    /// A cache keeping at most `capacity` bytes of answers, made under
    /// paths of at most `most_entries` files and folders.
    pub fn new(capacity: usize, most_entries: usize) -> Cache {
        Cache {
            capacity,
            most_entries,
            keeping: AtomicBool::new(true),
            state: Mutex::default(),
        }
    }

    /// The inputs under `roots` as they are now, while answers are kept.
    pub fn inputs(&self, roots: &Roots) -> Option<Inputs> {
        if !self.keeping.load(Ordering::Relaxed) {
            return None;
        }
        let inputs = Inputs::of(roots, self.most_entries);
        if inputs.is_none() {
            self.keeping.store(false, Ordering::Relaxed);
            let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
            *state = State::default();
        }
        inputs
    }

    /// The answer kept for `request` when it was made from `inputs` as
    /// they are now.
    pub fn get(&self, request: &str, inputs: Inputs) -> Option<Arc<Kept>> {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        state.uses += 1;
        let uses = state.uses;
        let entry = state.entries.get_mut(request)?;
        if entry.inputs != inputs {
            // Made from files that have changed since: never given again.
            let bytes = entry.bytes;
            state.entries.remove(request);
            state.held -= bytes;
            return None;
        }
        entry.used = uses;
        Some(Arc::clone(&entry.answer))
    }

    /// Keeps `answer`, made for `request` from `inputs`, making room by
    /// letting the answers used least recently go; one larger than the
    /// whole cache is not kept.
    pub fn put(&self, request: String, inputs: Inputs, answer: Arc<Kept>) {
        let bytes = answer.bytes() + request.len() + ENTRY_OVERHEAD;
        if bytes > self.capacity {
            return;
        }
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(old) = state.entries.remove(&request) {
            state.held -= old.bytes;
        }
        while state.held + bytes > self.capacity {
            let Some(oldest) = state
                .entries
                .iter()
                .min_by_key(|(_, entry)| entry.used)
                .map(|(request, _)| request.clone())
            else {
                break;
            };
            if let Some(gone) = state.entries.remove(&oldest) {
                state.held -= gone.bytes;
            }
        }
        state.uses += 1;
        let used = state.uses;
        state.held += bytes;
        state.entries.insert(
            request,
            Entry {
                inputs,
                answer,
                bytes,
                used,
            },
        );
    }

    /// The bytes of the answers kept, as counted against the capacity.
    pub fn held(&self) -> usize {
        self.state
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .held
    }

    /// How many answers are kept.
    pub fn len(&self) -> usize {
        self.state
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .entries
            .len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    fn kept(bytes: usize) -> Arc<Kept> {
        Arc::new(Kept {
            glb: vec![0; bytes].into(),
            warnings: String::new(),
        })
    }

    #[test]
    fn what_is_kept_stays_within_its_bytes_dropping_the_least_recently_used() {
        let cache = Cache::new(10_000, MAX_ENTRIES);
        let inputs = Inputs(1);
        for index in 0..100 {
            cache.put(format!("request {index}"), inputs, kept(3_000));
            assert!(cache.held() <= 10_000, "{} bytes held", cache.held());
            // The first is asked for each time, so it is never the least
            // recently used.
            assert!(cache.get("request 0", inputs).is_some(), "{index}");
        }
        // Three fit: the first, and the last two put.
        assert_eq!(cache.len(), 3);
        assert!(cache.get("request 99", inputs).is_some());
        assert!(cache.get("request 98", inputs).is_some());
        assert!(cache.get("request 97", inputs).is_none());
        // An answer larger than the whole cache is not kept, and drops
        // nothing.
        cache.put("huge".to_owned(), inputs, kept(20_000));
        assert!(cache.get("huge", inputs).is_none());
        assert_eq!(cache.len(), 3);
        // Kept again under the same request, counted once.
        let held = cache.held();
        cache.put("request 0".to_owned(), inputs, kept(3_000));
        assert_eq!(cache.len(), 3);
        assert_eq!(cache.held(), held);
    }

    #[test]
    fn an_answer_made_from_other_inputs_is_not_given_and_goes() {
        let cache = Cache::new(10_000, MAX_ENTRIES);
        cache.put("request".to_owned(), Inputs(1), kept(100));
        assert!(cache.get("request", Inputs(2)).is_none());
        assert!(cache.get("request", Inputs(1)).is_none());
        assert_eq!(cache.held(), 0);
    }

    #[test]
    fn inputs_change_when_a_file_is_edited_added_or_removed() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        let file = dir.path().join("sub/a.skn");
        std::fs::write(&file, "one").unwrap();
        let roots = Roots::new(&[dir.path().to_path_buf()]).unwrap();
        let inputs = || Inputs::of(&roots, MAX_ENTRIES).unwrap();
        let before = inputs();
        assert_eq!(inputs(), before);
        // The same length, written within the same tick of the clock: only
        // the modification time, set apart here, tells.
        std::fs::write(&file, "two").unwrap();
        let time = SystemTime::now() + Duration::from_secs(5);
        std::fs::File::options()
            .write(true)
            .open(&file)
            .unwrap()
            .set_modified(time)
            .unwrap();
        let edited = inputs();
        assert_ne!(edited, before);
        std::fs::write(dir.path().join("sub/b.skn"), "").unwrap();
        let added = inputs();
        assert_ne!(added, edited);
        std::fs::remove_file(dir.path().join("sub/b.skn")).unwrap();
        assert_ne!(inputs(), added);
        // Past so many entries (here the folder and `a.skn`), nothing is
        // kept, from then on.
        assert!(Inputs::of(&roots, 2).is_some());
        assert!(Inputs::of(&roots, 1).is_none());
        let cache = Cache::new(10_000, 2);
        let inputs = cache.inputs(&roots).unwrap();
        cache.put("request".to_owned(), inputs, kept(100));
        std::fs::write(dir.path().join("sub/b.skn"), "").unwrap();
        assert!(cache.inputs(&roots).is_none());
        assert!(cache.is_empty() && cache.held() == 0);
        std::fs::remove_file(dir.path().join("sub/b.skn")).unwrap();
        assert!(cache.inputs(&roots).is_none());
    }
}
