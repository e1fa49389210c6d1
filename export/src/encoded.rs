//! Encoded images kept by content within one process, so that an image
//! several meshes or assets show (the viewer makes many assets of the same
//! characters) is encoded once.
//!
//! An image is kept by a digest of what its pixels were made from: the
//! source file's bytes, and whatever changed them on the way (a Star Wars
//! Galaxies palette tint, the normal map's conversion). What is kept is
//! bounded by bytes: past [`CAPACITY`], the images used least recently go.

use std::cell::Cell;
use std::collections::hash_map::DefaultHasher;
use std::collections::HashMap;
use std::hash::Hasher as _;
use std::sync::{Arc, LazyLock, Mutex, PoisonError};

/// A digest of what an image's pixels were made from: two SipHash digests
/// of the same parts, told apart by a leading byte, 128 bits in all, so
/// that two different images sharing one is not a practical concern.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ContentKey([u64; 2]);

impl ContentKey {
    /// The digest of `parts`, in order, each counted with its length (so
    /// that `["ab", "c"]` and `["a", "bc"]` differ).
    pub fn of(parts: &[&[u8]]) -> ContentKey {
        ContentKey([0u8, 1].map(|seed| {
            let mut hasher = DefaultHasher::new();
            hasher.write_u8(seed);
            for part in parts {
                hasher.write_usize(part.len());
                hasher.write(part);
            }
            hasher.finish()
        }))
    }

    /// The key's bytes, to make it a part of another key.
    pub fn bytes(&self) -> [u8; 16] {
        let [first, second] = self.0;
        let mut bytes = [0; 16];
        bytes[..8].copy_from_slice(&first.to_le_bytes());
        bytes[8..].copy_from_slice(&second.to_le_bytes());
        bytes
    }
}

/// The most bytes of encoded images kept: a session's characters (a Star
/// Wars Galaxies character's textures are about 3 MB of PNG).
pub const CAPACITY: usize = 64 << 20;

/// The images kept, by key, each with when it was last used.
#[derive(Default)]
struct Kept {
    by_key: HashMap<ContentKey, (Arc<[u8]>, u64)>,
    bytes: usize,
    clock: u64,
}

impl Kept {
    fn get(&mut self, key: &ContentKey) -> Option<Arc<[u8]>> {
        self.clock += 1;
        let clock = self.clock;
        let (image, used) = self.by_key.get_mut(key)?;
        *used = clock;
        Some(Arc::clone(image))
    }

    /// Keeps `image` unless it alone is past `capacity`, dropping the
    /// least recently used until all fits.
    fn put(&mut self, key: ContentKey, image: Arc<[u8]>, capacity: usize) {
        if image.len() > capacity || self.by_key.contains_key(&key) {
            return;
        }
        while self.bytes + image.len() > capacity {
            let Some(oldest) = self
                .by_key
                .iter()
                .min_by_key(|(_, (_, used))| *used)
                .map(|(key, _)| *key)
            else {
                break;
            };
            if let Some((dropped, _)) = self.by_key.remove(&oldest) {
                self.bytes -= dropped.len();
            }
        }
        self.clock += 1;
        self.bytes += image.len();
        self.by_key.insert(key, (image, self.clock));
    }
}

static KEPT: LazyLock<Mutex<Kept>> = LazyLock::new(Mutex::default);

thread_local! {
    /// How many images this thread has made (encoded, or passed through)
    /// rather than found kept.
    static MADE: Cell<u64> = const { Cell::new(0) };
}

/// How many images the calling thread has made for assets (encoded, or
/// taken as they are) rather than found already made: what tells that
/// images are kept. Per thread, so that exports on other threads do not
/// count.
pub fn images_made_on_this_thread() -> u64 {
    MADE.with(Cell::get)
}

/// The image kept for `key`, else the one `make` makes, then kept. The
/// lock is not held while making, so that other threads' images are not
/// held up by this one's.
pub fn kept_or_made<E>(
    key: ContentKey,
    make: impl FnOnce() -> Result<Vec<u8>, E>,
) -> Result<Arc<[u8]>, E> {
    let kept = || KEPT.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(image) = kept().get(&key) {
        return Ok(image);
    }
    let image: Arc<[u8]> = make()?.into();
    MADE.with(|made| made.set(made.get() + 1));
    kept().put(key, Arc::clone(&image), CAPACITY);
    Ok(image)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_differ_with_any_part_and_with_how_parts_split() {
        let key = ContentKey::of(&[b"ab", b"c"]);
        assert_eq!(key, ContentKey::of(&[b"ab", b"c"]));
        assert_ne!(key, ContentKey::of(&[b"a", b"bc"]));
        assert_ne!(key, ContentKey::of(&[b"ab", b"d"]));
        assert_ne!(key.0[0], key.0[1]);
    }

    #[test]
    fn past_the_capacity_the_least_recently_used_go() {
        let mut kept = Kept::default();
        let key = |n: u8| ContentKey::of(&[&[n]]);
        let image = |len: usize| -> Arc<[u8]> { vec![0; len].into() };
        kept.put(key(1), image(40), 100);
        kept.put(key(2), image(40), 100);
        // 1 used after 2: 2 goes first.
        assert!(kept.get(&key(1)).is_some());
        kept.put(key(3), image(40), 100);
        assert!(kept.get(&key(2)).is_none());
        assert!(kept.get(&key(1)).is_some() && kept.get(&key(3)).is_some());
        assert_eq!(kept.bytes, 80);
        // Larger than everything: not kept, nothing dropped.
        kept.put(key(4), image(101), 100);
        assert!(kept.get(&key(4)).is_none());
        assert_eq!(kept.by_key.len(), 2);
    }

    #[test]
    fn an_image_is_made_once_per_key_and_counted_on_its_thread() {
        let key = ContentKey::of(&[b"an image made only by this test"]);
        let before = images_made_on_this_thread();
        let made = kept_or_made(key, || Ok::<_, ()>(vec![1, 2, 3])).unwrap();
        let again = kept_or_made(key, || Ok::<_, ()>(vec![9])).unwrap();
        assert_eq!((&*made, &*again), (&[1, 2, 3][..], &[1, 2, 3][..]));
        assert_eq!(images_made_on_this_thread(), before + 1);
        // A failure is not kept.
        let other = ContentKey::of(&[b"an image that fails"]);
        assert!(kept_or_made(other, || Err::<Vec<u8>, _>("no")).is_err());
        assert!(kept_or_made(other, || Ok::<_, ()>(vec![4])).is_ok());
    }
}
