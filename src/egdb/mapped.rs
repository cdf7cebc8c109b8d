//! Table files mapped into memory: the one module of Krou where `unsafe` code is allowed.
//!
//! # Why `unsafe`
//! A table is probed in place, one byte at a fixed offset, so a file is mapped rather than read:
//! opening any size takes microseconds, memory grows only by the pages a search touches, and
//! every process on the machine shares the same pages of the page cache. Rust cannot check a
//! mapping: another process may change or shorten the file under it. The file is opened
//! read-only and only ever read through the map, and the two ways the file can change under it
//! are handled here:
//! - **Rewritten in place** (same length): the bytes a probe reads may change. Krou's own
//!   writers never do this (they write a temporary file and rename it, which leaves the mapped
//!   file untouched). The session compares the file's metadata before each search
//!   ([`MappedFile::changed`]) and withdraws a changed file; the codes a rewrite gives inside
//!   one search are still bytes, of which any value is safe to read (an invalid code reads as
//!   "no information", see [`super::layer`]).
//! - **Truncated**: touching a page past the new end raises `SIGBUS`, which would kill the
//!   process. A handler installed with the first mapping checks whether the faulting address
//!   lies in a registered table mapping; if so it swaps a page filled with
//!   [`UNKNOWN_CODE`] in its place (built aside, then moved there by one `mremap`, so no reader
//!   sees a half-filled page), marks the mapping damaged ([`MappedFile::damaged`]) and returns:
//!   the probe reads "no information" and the search goes on. Any other `SIGBUS` gets the
//!   previous handler back and recurs, so it is handled as it would have been without Krou's.
//!
//! The handler does only async-signal-safe work: atomic loads and stores, `mmap`, `mremap`,
//! `munmap` and `sigaction`.
//!
//! Also here, as calls into the C library: lowering the priority of a background builder
//! thread, and giving the memory of a finished build back to the system.
#![allow(unsafe_code)]

use memmap2::Mmap;
use std::fs::File;
use std::io;
use std::path::Path;

/// Files up to this size (every file of the default 0–20 set, 216 MB in all) are read into the
/// page cache in the background as they are opened; larger ones page in as searches touch them.
const PREFETCH_MAX_BYTES: usize = 100 << 20;

/// The bytes of one read-ahead hint (the kernel read 8 MiB of a larger one here).
const PREFETCH_PIECE: usize = 4 << 20;

/// The byte a damaged page reads as: no valid code has it, so the layer decodes it as the
/// widest bounds its seeds allow (true of every board, deciding nothing).
pub const UNKNOWN_CODE: u8 = 0xff;

/// A table file mapped read-only, guarded against truncation.
#[derive(Debug)]
pub struct MappedFile {
    map: Mmap,
    file: File,
    /// The guard's slot of this mapping.
    slot: usize,
    path: std::path::PathBuf,
    /// Length, modification and change times and inode at open (see [`MappedFile::changed`]).
    identity: Identity,
}

/// What tells one version of a file from another.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Identity {
    len: u64,
    inode: u64,
    modified: (i64, i64),
    changed: (i64, i64),
}

fn identity(meta: &std::fs::Metadata) -> Identity {
    use std::os::unix::fs::MetadataExt;
    Identity {
        len: meta.len(),
        inode: meta.ino(),
        modified: (meta.mtime(), meta.mtime_nsec()),
        changed: (meta.ctime(), meta.ctime_nsec()),
    }
}

/// Asks the kernel, from a thread of its own, to read the whole of `file` (`len` bytes) into the
/// page cache, in pieces (it read only 8 MiB of one larger hint here). Nothing waits for it:
/// a search that comes first pages in what it touches, as without the hint.
#[cfg(target_os = "linux")]
fn read_ahead(file: &File, len: usize, path: &Path) {
    use nix::fcntl::{PosixFadviseAdvice, posix_fadvise};
    let Ok(file) = file.try_clone() else {
        return;
    };
    let name = path.display().to_string();
    let hint = move || {
        for at in (0..len).step_by(PREFETCH_PIECE) {
            let piece = PREFETCH_PIECE.min(len - at);
            let (Ok(offset), Ok(piece)) = (i64::try_from(at), i64::try_from(piece)) else {
                return;
            };
            if let Err(e) = posix_fadvise(
                &file,
                offset,
                piece,
                PosixFadviseAdvice::POSIX_FADV_WILLNEED,
            ) {
                log::debug!("{name}: no read-ahead hint ({e})");
                return;
            }
        }
    };
    if let Err(e) = std::thread::Builder::new()
        .name("krou-read-ahead".into())
        .spawn(hint)
    {
        log::debug!("{}: no read-ahead thread ({e})", path.display());
    }
}

impl MappedFile {
    /// Maps `path` read-only. Fails for an empty file, where mapping is not supported (the
    /// caller reads the file instead), or when the guard has no free slot.
    pub fn open(path: &Path) -> io::Result<MappedFile> {
        let file = File::open(path)?;
        let meta = file.metadata()?;
        if meta.len() == 0 || usize::try_from(meta.len()).is_err() {
            return Err(io::Error::new(io::ErrorKind::InvalidData, "empty file"));
        }
        guard::install()?;
        // SAFETY: the file is opened read-only and only read through the map; a file
        // shortened under it raises SIGBUS, which the guard installed above turns into pages of
        // UNKNOWN_CODE once the range is registered (below, before any byte is read). Bytes
        // rewritten in place are still bytes: every value is read safely (module docs).
        let map = unsafe { memmap2::MmapOptions::new().map(&file)? };
        #[cfg(target_os = "linux")]
        if let Err(e) = map.advise(memmap2::Advice::Random) {
            log::debug!("{}: no random-access hint ({e})", path.display());
        }
        // A file not in the page cache costs a short search most of its time (a 10 ms suite
        // run solved 18 of 262 after the cache was dropped, 70 once warm): a small file is
        // read into the cache in the background, before searches probe it.
        #[cfg(target_os = "linux")]
        if map.len() <= PREFETCH_MAX_BYTES {
            read_ahead(&file, map.len(), path);
        }
        let slot = guard::register(map.as_ptr() as usize, map.len())?;
        Ok(MappedFile {
            map,
            file,
            slot,
            path: path.to_path_buf(),
            identity: identity(&meta),
        })
    }

    /// The file's bytes as mapped.
    #[inline]
    pub fn bytes(&self) -> &[u8] {
        &self.map
    }

    /// The open file (for reads that should not go through the map).
    pub fn file(&self) -> &File {
        &self.file
    }

    /// Whether a page of the mapping was found cut off (the file truncated under it) and now
    /// reads as [`UNKNOWN_CODE`].
    pub fn damaged(&self) -> bool {
        guard::damaged(self.slot)
    }

    /// The file's length, inode, modification and change times at open, as text: any write,
    /// truncation or replacement gives another (the change time is set by the system, never by
    /// a program).
    pub fn identity(&self) -> String {
        let Identity {
            len,
            inode,
            modified,
            changed,
        } = self.identity;
        format!(
            "length {len} inode {inode} modified {}.{:09} changed {}.{:09}",
            modified.0, modified.1, changed.0, changed.1
        )
    }

    /// How long ago the file last changed, as its change time says (`None` if in the future).
    pub fn changed_ago(&self) -> Option<std::time::Duration> {
        let (secs, nanos) = self.identity.changed;
        let at = std::time::UNIX_EPOCH
            + std::time::Duration::new(u64::try_from(secs).ok()?, u32::try_from(nanos).ok()?);
        at.elapsed().ok()
    }

    /// The path the file was opened at.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Whether the file mapped has changed since it was opened (another length, a
    /// modification, a damaged page), or its path now names another file or none. One `fstat`
    /// and one `stat`.
    pub fn changed(&self) -> bool {
        use std::os::unix::fs::MetadataExt;
        let now = self.file.metadata().map(|m| identity(&m)).ok();
        let named = std::fs::metadata(&self.path).is_ok_and(|m| m.ino() == self.identity.inode);
        now != Some(self.identity) || !named || self.damaged()
    }
}

impl Drop for MappedFile {
    fn drop(&mut self) {
        guard::unregister(self.slot);
    }
}

/// Lowers the calling thread's priority: to nice 19, or with `idle` as far as it goes, the
/// idle scheduling class on Linux (it runs only when a core has nothing else to do; nice 19
/// where that is refused). Threads it starts afterwards inherit it. Returns whether it took
/// effect.
pub fn lower_thread_priority(idle: bool) -> bool {
    #[cfg(target_os = "linux")]
    {
        if idle {
            let param = nix::libc::sched_param { sched_priority: 0 };
            // SAFETY: a plain system call on the calling thread (tid 0), valid parameter.
            let set = unsafe { nix::libc::sched_setscheduler(0, nix::libc::SCHED_IDLE, &param) };
            if set == 0 {
                return true;
            }
        }
        // SAFETY: as above; PRIO_PROCESS with tid 0 is the calling thread on Linux.
        let nice = unsafe { nix::libc::setpriority(nix::libc::PRIO_PROCESS, 0, 19) };
        nice == 0
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = idle;
        false
    }
}

/// Gives the memory freed by a finished build back to the system (the allocator keeps freed
/// blocks for reuse otherwise: about 180 MB after building the 20-seed layer).
pub fn release_free_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only returns free memory of glibc's allocator to the system.
    unsafe {
        nix::libc::malloc_trim(0);
    }
}

/// The SIGBUS guard: a fixed table of registered mappings and the handler that reads it.
#[cfg(target_os = "linux")]
mod guard {
    use nix::libc;
    use std::io;
    use std::sync::OnceLock;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

    /// Mappings guarded at once: 31 layers under each of the three rules, with room to spare.
    const SLOTS: usize = 256;

    struct Slot {
        taken: AtomicBool,
        start: AtomicUsize,
        end: AtomicUsize,
        damaged: AtomicBool,
    }

    #[allow(clippy::declare_interior_mutable_const)]
    const FREE: Slot = Slot {
        taken: AtomicBool::new(false),
        start: AtomicUsize::new(0),
        end: AtomicUsize::new(0),
        damaged: AtomicBool::new(false),
    };
    static TABLE: [Slot; SLOTS] = [FREE; SLOTS];
    static PAGE: AtomicUsize = AtomicUsize::new(4096);

    /// The action before ours, given back on a SIGBUS that is not ours.
    struct Previous(libc::sigaction);
    // SAFETY: a plain C struct written once before the handler can run, then only read.
    unsafe impl Sync for Previous {}
    unsafe impl Send for Previous {}
    static PREVIOUS: OnceLock<Result<Previous, i32>> = OnceLock::new();

    /// Installs the handler (once per process).
    pub(super) fn install() -> io::Result<()> {
        let installed = PREVIOUS.get_or_init(|| {
            // SAFETY: sysconf and sigaction with valid arguments; the handler only does
            // async-signal-safe work (module docs).
            unsafe {
                let page = libc::sysconf(libc::_SC_PAGESIZE);
                if page > 0 {
                    PAGE.store(page as usize, Ordering::Relaxed);
                }
                let mut action: libc::sigaction = std::mem::zeroed();
                action.sa_sigaction = on_sigbus as *const () as usize;
                action.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK;
                libc::sigemptyset(&mut action.sa_mask);
                let mut previous: libc::sigaction = std::mem::zeroed();
                if libc::sigaction(libc::SIGBUS, &action, &mut previous) == 0 {
                    Ok(Previous(previous))
                } else {
                    Err(io::Error::last_os_error().raw_os_error().unwrap_or(0))
                }
            }
        });
        match installed {
            Ok(_) => Ok(()),
            Err(code) => Err(io::Error::from_raw_os_error(*code)),
        }
    }

    /// Registers the mapping `[start, start + len)`; returns its slot.
    pub(super) fn register(start: usize, len: usize) -> io::Result<usize> {
        for (i, slot) in TABLE.iter().enumerate() {
            if slot
                .taken
                .compare_exchange(false, true, Ordering::AcqRel, Ordering::Relaxed)
                .is_ok()
            {
                slot.damaged.store(false, Ordering::Relaxed);
                slot.end.store(start + len, Ordering::Release);
                slot.start.store(start, Ordering::Release);
                return Ok(i);
            }
        }
        Err(io::Error::other("too many mapped table files"))
    }

    pub(super) fn unregister(slot: usize) {
        if let Some(slot) = TABLE.get(slot) {
            slot.start.store(0, Ordering::Release);
            slot.end.store(0, Ordering::Release);
            slot.taken.store(false, Ordering::Release);
        }
    }

    pub(super) fn damaged(slot: usize) -> bool {
        TABLE
            .get(slot)
            .is_some_and(|s| s.damaged.load(Ordering::Acquire))
    }

    extern "C" fn on_sigbus(
        _signal: libc::c_int,
        info: *mut libc::siginfo_t,
        _: *mut libc::c_void,
    ) {
        // SAFETY: the kernel passes a valid siginfo for a SA_SIGINFO handler.
        let address = unsafe { (*info).si_addr() } as usize;
        let page = PAGE.load(Ordering::Relaxed);
        for slot in &TABLE {
            let start = slot.start.load(Ordering::Acquire);
            if start == 0 || address < start || address >= slot.end.load(Ordering::Acquire) {
                continue;
            }
            // SAFETY: the page lies inside a registered read-only table mapping, which no
            // Rust code writes; it is replaced whole by a page of UNKNOWN_CODE.
            if unsafe { replace_page(address & !(page - 1), page) } {
                slot.damaged.store(true, Ordering::Release);
                return;
            }
            break;
        }
        // Not ours (or the page could not be replaced): the previous action, then the fault
        // recurs and is handled as without this handler.
        if let Some(Ok(previous)) = PREVIOUS.get() {
            // SAFETY: restoring the action saved at install.
            unsafe { libc::sigaction(libc::SIGBUS, &previous.0, std::ptr::null_mut()) };
        }
    }

    /// Builds a page of `UNKNOWN_CODE` aside and moves it over `at` in one step.
    unsafe fn replace_page(at: usize, page: usize) -> bool {
        // SAFETY: (caller) `at` is a page of a table mapping; the new page is our own.
        unsafe {
            let fresh = libc::mmap(
                std::ptr::null_mut(),
                page,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            );
            if fresh == libc::MAP_FAILED {
                return false;
            }
            std::ptr::write_bytes(fresh.cast::<u8>(), super::UNKNOWN_CODE, page);
            let moved = libc::mremap(
                fresh,
                page,
                page,
                libc::MREMAP_MAYMOVE | libc::MREMAP_FIXED,
                at as *mut libc::c_void,
            );
            if moved == libc::MAP_FAILED {
                libc::munmap(fresh, page);
                return false;
            }
            true
        }
    }
}

/// Without the guard (no `SIGBUS` handling written for this system), files are not mapped.
#[cfg(not(target_os = "linux"))]
mod guard {
    use std::io;
    pub(super) fn install() -> io::Result<()> {
        Err(io::Error::new(
            io::ErrorKind::Unsupported,
            "table files are mapped only on Linux",
        ))
    }
    pub(super) fn register(_: usize, _: usize) -> io::Result<usize> {
        install().map(|()| 0)
    }
    pub(super) fn unregister(_: usize) {}
    pub(super) fn damaged(_: usize) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_truncated_under_its_map_reads_as_unknown_and_does_not_crash() {
        let path = std::env::temp_dir().join(format!("krou-mapped-{}", std::process::id()));
        let page = 4096;
        std::fs::write(&path, vec![7u8; 4 * page]).expect("a temporary file");
        let mapped = MappedFile::open(&path).expect("mapped");
        assert_eq!(mapped.bytes()[3 * page], 7);
        assert!(!mapped.changed());
        let file = std::fs::OpenOptions::new().write(true).open(&path);
        file.and_then(|f| f.set_len(page as u64))
            .expect("truncated");
        assert_eq!(mapped.bytes()[0], 7, "the part still in the file");
        assert_eq!(mapped.bytes()[2 * page + 5], UNKNOWN_CODE, "a page cut off");
        assert_eq!(mapped.bytes()[3 * page + 1], UNKNOWN_CODE);
        assert!(mapped.damaged());
        assert!(mapped.changed());
        drop(mapped);
        let _ = std::fs::remove_file(&path);
    }
}
