//! A borrowed row-major 2-d array: the compute modules' view of a C-contiguous matrix, so
//! that they need neither numpy nor ndarray.

use std::ops::Index;

use crate::error::{ensure, Checked};

/// `data[r * cols + c]` is the cell `(r, c)`.
#[derive(Clone, Copy, Debug)]
pub struct Grid<'a, T> {
    data: &'a [T],
    rows: usize,
    cols: usize,
}

impl<'a, T> Grid<'a, T> {
    /// A view of `data` as `rows x cols`, refused when the sizes disagree.
    pub fn new(data: &'a [T], rows: usize, cols: usize, name: &str) -> Checked<Self> {
        ensure(rows.checked_mul(cols) == Some(data.len()), || {
            format!(
                "{name}: {} values do not make a {rows} x {cols} array",
                data.len()
            )
        })?;
        Ok(Grid { data, rows, cols })
    }

    /// `(rows, cols)`.
    pub fn dim(&self) -> (usize, usize) {
        (self.rows, self.cols)
    }

    /// Row `r` as a slice.
    pub fn row(&self, r: usize) -> &'a [T] {
        &self.data[r * self.cols..(r + 1) * self.cols]
    }

    /// The rows, first to last.
    pub fn rows(&self) -> impl Iterator<Item = &'a [T]> + '_ {
        (0..self.rows).map(move |r| self.row(r))
    }
}

impl<T> Index<[usize; 2]> for Grid<'_, T> {
    type Output = T;

    #[inline(always)]
    fn index(&self, [r, c]: [usize; 2]) -> &T {
        debug_assert!(r < self.rows && c < self.cols);
        &self.data[r * self.cols + c]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_rows_and_size_check() {
        let data = [1, 2, 3, 4, 5, 6];
        let g = Grid::new(&data, 2, 3, "g").unwrap();
        assert_eq!(g.dim(), (2, 3));
        assert_eq!(g[[1, 0]], 4);
        assert_eq!(g.row(1), &[4, 5, 6]);
        assert_eq!(g.rows().count(), 2);
        let err = Grid::new(&data, 4, 2, "g").unwrap_err();
        assert!(err.0.contains("4 x 2"), "{err}");
    }
}
