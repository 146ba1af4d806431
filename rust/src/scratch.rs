//! Large buffers kept between calls, per thread. A call of the text routes allocates a few
//! megabytes (token keys, the interner's table, token numbers) and frees them at its end;
//! the C library gives that memory back to the system, and the next call pays a page fault
//! per 4 kB page it touches again (about 200 per call on 1,875 sentence pairs, a tenth of
//! the call's time). Here a freed buffer is kept for the next call on the same thread
//! instead, a bounded number of them and none too large, so what is kept stays small beside
//! what a call uses.

use std::cell::RefCell;

/// Buffers kept per type and thread (blocks of lines are 16 per thread).
const KEEP: usize = 48;
/// The largest buffer kept, and the most kept per type and thread, in bytes: enough for a
/// call of some 20,000 sentence pairs; a larger call allocates afresh (its work dwarfs the
/// faults), and at most 4 x 8 MB stay with a thread between calls.
const KEEP_BYTES: usize = 4 << 20;
const KEEP_TOTAL: usize = 8 << 20;

/// A type whose buffers are kept: each has its own pool per thread.
pub trait Pooled: Sized + 'static {
    fn with_pool<R>(f: impl FnOnce(&mut Vec<Vec<Self>>) -> R) -> R;
}

macro_rules! pooled {
    ($($t:ty),*) => {$(
        impl Pooled for $t {
            fn with_pool<R>(f: impl FnOnce(&mut Vec<Vec<Self>>) -> R) -> R {
                thread_local! {
                    static POOL: RefCell<Vec<Vec<$t>>> = const { RefCell::new(Vec::new()) };
                }
                POOL.with(|p| f(&mut p.borrow_mut()))
            }
        }
    )*};
}
pooled!(u32, u64, i32, (u64, u32));

/// An empty buffer with room for at least `n` items: a kept one when there is one (the
/// largest), else a new one.
pub fn take<T: Pooled>(n: usize) -> Vec<T> {
    let mut v = T::with_pool(|p| p.pop()).unwrap_or_default();
    v.clear();
    v.reserve(n);
    v
}

/// Keeps `v` for a later [`take`] on this thread (or drops it: too large, or enough kept).
pub fn give<T: Pooled>(v: Vec<T>) {
    if v.capacity() == 0 || v.capacity() * std::mem::size_of::<T>() > KEEP_BYTES {
        return;
    }
    let bytes = |v: &Vec<T>| v.capacity() * std::mem::size_of::<T>();
    T::with_pool(|p| {
        if p.len() < KEEP && p.iter().map(bytes).sum::<usize>() + bytes(&v) <= KEEP_TOTAL {
            // the largest last, so that `take` finds it first
            let at = p.partition_point(|k| k.capacity() <= v.capacity());
            p.insert(at, v);
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_given_buffer_comes_back_empty_with_its_room() {
        let mut v: Vec<i32> = take(100);
        v.extend(0..100);
        let room = v.capacity();
        give(v);
        let w: Vec<i32> = take(10);
        assert!(w.is_empty() && w.capacity() >= room);
        give(w);
        let big: Vec<i32> = Vec::with_capacity(KEEP_BYTES / 4 + 1);
        give(big); // too large: dropped
        let x: Vec<i32> = take(1);
        assert!(x.capacity() < KEEP_BYTES / 4);
    }
}
