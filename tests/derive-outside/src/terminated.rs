//! Lists ended by a terminator (`until`), and lists whose length an
//! expression over earlier fields gives (`count = expr`).

use ossuary_schema::Schema;

/// A path: points of two signed bytes, ended by the point (0, 0), then
/// whether the path is closed.
#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(little)]
pub struct Path {
    /// The last point, (0, 0), ends the list and is kept in it.
    #[schema(until = |point: &[i8; 2]| *point == [0, 0])]
    pub points: Vec<[i8; 2]>,
    pub closed: u8,
}

/// A grid: its width and height, then a cell for each place, at most a
/// hundred.
#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(little)]
pub struct Grid {
    pub width: u8,
    #[schema(check = u16::from(width) * u16::from(height) <= 100, "more than a hundred cells")]
    pub height: u8,
    #[schema(count = usize::from(width) * usize::from(height))]
    pub cells: Vec<u8>,
    /// The rows, each given the width as the number of its cells.
    #[schema(count = height, context(cells = usize::from(width)))]
    pub rows: Vec<Row>,
}

/// One row of a [`Grid`]: as many shades as the grid is wide.
#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(little, context(cells: usize))]
pub struct Row {
    #[schema(count = cells)]
    pub shades: Vec<u8>,
}

#[cfg(test)]
mod tests {
    use ossuary_schema::BinarySchema;

    use super::*;
    use crate::every_byte_in_one_span;

    #[rustfmt::skip]
    const PATH: &[u8] = &[
        1, 2,    // (1, 2)
        0, 3,    // (0, 3): not the end
        0xFF, 0, // (-1, 0)
        0, 0,    // (0, 0): the end, kept
        1,       // closed
    ];

    #[test]
    fn a_list_reads_to_its_terminator_and_keeps_it() {
        let path = Path::from_bytes(PATH).unwrap();
        assert_eq!(path.points, [[1, 2], [0, 3], [-1, 0], [0, 0]]);
        assert_eq!(path.closed, 1);
        assert_eq!(path.to_bytes().unwrap(), PATH);
        every_byte_in_one_span(PATH, || Path::from_bytes(PATH));
    }

    #[test]
    fn a_list_must_end_with_its_terminator() {
        assert_eq!(
            Path::from_bytes(&PATH[..6]).unwrap_err().to_string(),
            "byte 6: points: the input ends before the element that ends the list"
        );
        let unended = Path {
            points: vec![[1, 2]],
            closed: 0,
        };
        assert_eq!(
            unended.to_bytes().unwrap_err().to_string(),
            "points: the last element does not end the list"
        );
    }

    #[rustfmt::skip]
    const GRID: &[u8] = &[
        3, 2,             // width, height
        1, 2, 3, 4, 5, 6, // width × height cells
        7, 8, 9,          // row 0: width shades
        10, 11, 12,       // row 1
    ];

    #[test]
    fn counts_are_expressions_over_earlier_fields() {
        let grid = Grid::from_bytes(GRID).unwrap();
        assert_eq!(grid.cells, [1, 2, 3, 4, 5, 6]);
        assert_eq!(grid.rows[1].shades, [10, 11, 12]);
        assert_eq!(grid.to_bytes().unwrap(), GRID);
        every_byte_in_one_span(GRID, || Grid::from_bytes(GRID));
        let short = Grid {
            cells: vec![1],
            ..grid
        };
        assert_eq!(
            short.to_bytes().unwrap_err().to_string(),
            "cells: 1 entries, but `usize::from(width) * usize::from(height)` gives 6"
        );
    }

    #[test]
    fn an_inline_check_refuses_with_its_message() {
        assert_eq!(
            Grid::from_bytes(&[11, 10]).unwrap_err().to_string(),
            "byte 1: height: more than a hundred cells"
        );
    }
}
