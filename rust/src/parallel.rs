//! The parallel loop over output rows that every pairs kernel uses (rayon's pool).

use rayon::prelude::*;

/// Calls `f(scratch, p, row)` for every row `p` of `out` (rows of `width` values), in
/// parallel over blocks of rows (about 8 per thread). Scratch is made with `init` once per
/// rayon job, not per block (rayon's `for_each_init`): scratch the size of the vocabulary is
/// made a few times per call, and fresh pages cost a page fault each.
pub fn par_rows<T, S, I, F>(out: &mut [T], width: usize, init: I, f: F)
where
    T: Send,
    I: Fn() -> S + Sync + Send,
    F: Fn(&mut S, usize, &mut [T]) + Sync + Send,
{
    if width == 0 || out.is_empty() {
        return;
    }
    let n_rows = out.len() / width;
    let n_blocks = (8 * rayon::current_num_threads()).clamp(1, n_rows);
    let per_block = n_rows.div_ceil(n_blocks);
    let run_block = |scratch: &mut S, (b, block): (usize, &mut [T])| {
        for (q, row) in block.chunks_mut(width).enumerate() {
            f(scratch, b * per_block + q, row);
        }
    };
    if n_blocks == 1 {
        run_block(&mut init(), (0, out));
    } else {
        out.par_chunks_mut(width * per_block)
            .enumerate()
            .for_each_init(init, run_block);
    }
}

/// [`par_rows`] when `parallel`, else every row on this thread with one scratch (a small
/// call pays no pool hand-off, no spinning and one scratch instead of one per job).
pub fn rows_maybe_par<T, S, I, F>(parallel: bool, out: &mut [T], width: usize, init: I, f: F)
where
    T: Send,
    I: Fn() -> S + Sync + Send,
    F: Fn(&mut S, usize, &mut [T]) + Sync + Send,
{
    if parallel {
        return par_rows(out, width, init, f);
    }
    if width == 0 || out.is_empty() {
        return;
    }
    let mut scratch = init();
    for (p, row) in out.chunks_mut(width).enumerate() {
        f(&mut scratch, p, row);
    }
}

/// How many texts each block of a parallel pass over `n_texts` texts takes: about 8 blocks
/// per thread, at least 64 texts each (a block's setup is then small beside its work).
pub fn texts_per_block(n_texts: usize) -> usize {
    n_texts.div_ceil(8 * rayon::current_num_threads()).max(64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_row_is_visited_once_with_its_number() {
        for n_rows in [0usize, 1, 7, 100, 1001] {
            let mut out = vec![0usize; 3 * n_rows];
            par_rows(
                &mut out,
                3,
                || 0usize,
                |calls, p, row| {
                    *calls += 1;
                    row.fill(p + 1);
                },
            );
            for (p, row) in out.chunks(3).enumerate() {
                assert_eq!(row, &[p + 1; 3]);
            }
        }
    }

    #[test]
    fn on_this_thread_every_row_is_visited_once_with_one_scratch() {
        for parallel in [false, true] {
            let mut out = vec![0usize; 2 * 1001];
            let inits = std::sync::atomic::AtomicUsize::new(0);
            rows_maybe_par(
                parallel,
                &mut out,
                2,
                || inits.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
                |_, p, row| row.fill(p + 1),
            );
            for (p, row) in out.chunks(2).enumerate() {
                assert_eq!(row, &[p + 1; 2]);
            }
            if !parallel {
                assert_eq!(inits.into_inner(), 1);
            }
        }
    }
}

/// The kernels' own pool, when [`set_threads`] made one; else they run on rayon's global pool.
static POOL: std::sync::RwLock<Option<std::sync::Arc<rayon::ThreadPool>>> =
    std::sync::RwLock::new(None);

/// Run the kernels of this process on `n` threads from now on (0: rayon's global pool again,
/// `RAYON_NUM_THREADS` or every core). A Dask worker with `k` threads of its own sets `k`, so
/// that its kernels do not each start a thread per core of the machine.
pub fn set_threads(n: usize) -> Result<(), String> {
    let pool = if n == 0 {
        None
    } else {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .thread_name(|i| format!("mtpalette-kernel-{i}"))
            .build()
            .map_err(|e| format!("cannot start {n} kernel threads: {e}"))?;
        Some(std::sync::Arc::new(pool))
    };
    *POOL.write().unwrap_or_else(|e| e.into_inner()) = pool;
    Ok(())
}

/// `f()` on the kernels' pool (see [`set_threads`]): inside it, rayon's parallel loops and
/// `rayon::current_num_threads` are the pool's.
pub fn in_pool<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    let pool = POOL.read().unwrap_or_else(|e| e.into_inner()).clone();
    match pool {
        Some(pool) => pool.install(f),
        None => f(),
    }
}

/// The number of threads the kernels' parallel loops use now.
pub fn threads() -> usize {
    in_pool(rayon::current_num_threads)
}

#[cfg(test)]
mod pool_tests {
    use super::*;

    #[test]
    fn a_set_pool_runs_the_loops_and_zero_gives_the_global_one_back() {
        let global = rayon::current_num_threads();
        set_threads(3).unwrap();
        assert_eq!(threads(), 3);
        let mut out = vec![0usize; 64];
        in_pool(|| par_rows(&mut out, 1, || (), |_, p, row| row[0] = p * 2));
        assert_eq!(out[63], 126);
        set_threads(0).unwrap();
        assert_eq!(threads(), global);
    }
}
