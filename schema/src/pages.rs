//! Large vectors asked onto huge pages.
//!
//! A new vector's memory is mapped lazily: the first write to each page
//! faults, and the kernel zeroes and charges the page. Encoding a 40 MB
//! file into 4 KiB pages takes ten thousand faults, most of the encoder's
//! time; on 2 MiB pages it takes twenty. Linux gives a region transparent
//! huge pages when it is advised to (`madvise` mode, the usual default) or
//! always; elsewhere, or without the `huge-pages` feature, this is a plain
//! `Vec::with_capacity`.
//!
//! Decoded lists are not advised. The allocator carves them from its heap
//! as often as it maps them, among the small allocations of the same
//! decode (names, strings), and the advice outlives the list: decoding a
//! `.skel` of 65,535 bones (an 8 MB list among 130,000 strings) ran a
//! quarter slower with it, and once the decoding loops kept up with a
//! hand-written decoder, the `.bmf` decode gained nothing from it either
//! (`cargo bench -p bench --bench binary -- decode`).

/// A vector with room for `capacity` elements that are about to be written,
/// all of them (an output estimated first). Where that room spans whole
/// 2 MiB pages, they are asked for as huge pages: memory left unwritten
/// would cost up to a huge page each, not a small one, hence "all of them".
#[cfg(all(target_os = "linux", feature = "huge-pages"))]
pub(crate) fn vec_to_fill<T>(capacity: usize) -> Vec<T> {
    let mut elements = Vec::with_capacity(capacity);
    prefer_huge_pages(elements.spare_capacity_mut());
    elements
}

#[cfg(not(all(target_os = "linux", feature = "huge-pages")))]
pub(crate) fn vec_to_fill<T>(capacity: usize) -> Vec<T> {
    Vec::with_capacity(capacity)
}

/// The size of a transparent huge page on x86-64 and the usual arm64.
#[cfg(all(target_os = "linux", feature = "huge-pages"))]
const HUGE_PAGE: usize = 2 << 20;

/// Advises the kernel to back the whole 2 MiB pages inside `memory` with
/// huge pages. Only a hint: when it is refused, nothing changes.
#[cfg(all(target_os = "linux", feature = "huge-pages"))]
fn prefer_huge_pages<T>(memory: &mut [std::mem::MaybeUninit<T>]) {
    let start = memory.as_ptr() as usize;
    let Some(end) = start.checked_add(std::mem::size_of_val(memory)) else {
        return;
    };
    let Some(first) = start.checked_next_multiple_of(HUGE_PAGE) else {
        return;
    };
    let last = end - end % HUGE_PAGE;
    if last <= first {
        return;
    }
    // SAFETY: [first, last) lies inside `memory`, which this borrow owns;
    // MADV_HUGEPAGE neither reads nor writes the memory, it only changes
    // how the kernel maps its pages on their first touch. Its result is
    // ignored on purpose: a refused hint leaves 4 KiB pages.
    unsafe {
        let advised = memory.as_mut_ptr().cast::<u8>().wrapping_add(first - start);
        libc::madvise(advised.cast(), last - first, libc::MADV_HUGEPAGE);
    }
}

#[cfg(all(test, target_os = "linux", feature = "huge-pages"))]
mod tests {
    use super::*;

    /// The flags of the mapping holding `address`, from /proc/self/smaps.
    fn mapping_flags(address: usize) -> Option<String> {
        let smaps = std::fs::read_to_string("/proc/self/smaps").ok()?;
        let mut inside = false;
        for line in smaps.lines() {
            if let Some(range) = mapping_range(line) {
                inside = range.contains(&address);
            } else if let Some(flags) = line.strip_prefix("VmFlags:").filter(|_| inside) {
                return Some(flags.to_owned());
            }
        }
        None
    }

    /// The addresses a mapping's header line (`start-end perms ...`) names.
    fn mapping_range(line: &str) -> Option<std::ops::Range<usize>> {
        let (range, _) = line.split_once(' ')?;
        let (start, end) = range.split_once('-')?;
        Some(usize::from_str_radix(start, 16).ok()?..usize::from_str_radix(end, 16).ok()?)
    }

    #[test]
    fn the_whole_huge_pages_inside_a_large_vector_are_advised() {
        if !std::path::Path::new("/sys/kernel/mm/transparent_hugepage").exists() {
            return;
        }
        let mut elements = vec_to_fill::<u32>(10 << 20);
        assert!(elements.capacity() >= 10 << 20);
        assert!(elements.is_empty());
        let start = elements.as_ptr() as usize;
        let end = start + elements.capacity() * 4;
        let first = start.next_multiple_of(HUGE_PAGE);
        let last = end - end % HUGE_PAGE;
        for address in [first, last - 1] {
            let flags = mapping_flags(address).expect("the vector is mapped");
            assert!(
                flags.split_whitespace().any(|flag| flag == "hg"),
                "{address:#x} in a mapping with flags {flags}"
            );
        }
        elements.resize(10 << 20, 7);
        assert_eq!(
            elements.iter().map(|&e| u64::from(e)).sum::<u64>(),
            7 * (10 << 20)
        );
    }

    #[test]
    fn small_and_empty_vectors_have_their_capacity() {
        let elements = vec_to_fill::<u8>(100);
        assert!(elements.capacity() >= 100);
        assert!(vec_to_fill::<u8>(0).capacity() == 0);
    }
}
