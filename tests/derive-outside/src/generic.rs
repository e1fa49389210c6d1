//! Generic types: a table of rows of any type with `N` bytes of flags
//! after them, and a grid of `N` columns whose count multiplies by `N`;
//! a scene holds one of each, instantiated.

use ossuary_schema::Schema;

/// Rows of any type after a one-byte count, then `N` flag bytes.
#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(little)]
pub struct Table<T, const N: usize> {
    #[schema(prefix = u8)]
    pub rows: Vec<T>,
    pub flags: [u8; N],
}

/// `rows` rows of `N` cells, one list.
#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(little)]
pub struct Grid<T, const N: usize> {
    pub rows: u8,
    #[schema(count = usize::from(rows) * N)]
    pub cells: Vec<T>,
}

#[derive(Debug, Clone, Copy, PartialEq, Schema)]
#[schema(little)]
pub struct Point {
    pub x: i16,
    pub y: i16,
}

/// The generated test of a holder draws its generic fields' values: this
/// one's tests `Table<Point, 2>` and `Grid<u16, 3>`.
#[derive(Debug, Clone, PartialEq, Schema)]
#[schema(little)]
pub struct Scene {
    pub points: Table<Point, 2>,
    pub heights: Grid<u16, 3>,
}

#[cfg(test)]
mod tests {
    use ossuary_schema::BinarySchema;

    use super::*;
    use crate::every_byte_in_one_span;

    #[rustfmt::skip]
    const SCENE: &[u8] = &[
        // points: a Table<Point, 2>
        2,                      // two rows
        1, 0, 2, 0,             // (1, 2)
        0xFF, 0xFF, 3, 0,       // (-1, 3)
        0xA0, 0x0B,             // N = 2 flag bytes
        // heights: a Grid<u16, 3>
        2,                      // two rows of N = 3 cells
        1, 0, 2, 0, 3, 0,
        4, 0, 5, 0, 6, 0,
    ];

    #[test]
    fn generic_fields_read_and_write_back() {
        let scene = Scene::from_bytes(SCENE).unwrap();
        assert_eq!(
            scene.points,
            Table {
                rows: vec![Point { x: 1, y: 2 }, Point { x: -1, y: 3 }],
                flags: [0xA0, 0x0B],
            }
        );
        assert_eq!(scene.heights.cells, [1, 2, 3, 4, 5, 6]);
        assert_eq!(scene.to_bytes().unwrap(), SCENE);
        every_byte_in_one_span(SCENE, || Scene::from_bytes(SCENE));
    }

    #[test]
    fn a_generic_type_reads_and_writes_alone() {
        let bytes = [1, 7, 0, 8, 0];
        let grid = Grid::<u16, 2>::from_bytes(&bytes).unwrap();
        assert_eq!(grid.cells, [7, 8]);
        assert_eq!(grid.to_bytes().unwrap(), bytes);
        let short = Grid::<u16, 3>::from_bytes(&bytes).unwrap_err();
        assert_eq!(
            short.to_string(),
            "byte 1: cells: count 3 needs at least 6 bytes but only 4 remain"
        );
    }

    #[test]
    fn a_count_disagreeing_with_its_expression_is_not_written() {
        let grid = Grid::<u8, 2> {
            rows: 1,
            cells: vec![1, 2, 3],
        };
        assert_eq!(
            grid.to_bytes().unwrap_err().to_string(),
            "cells: 3 entries, but `usize::from(rows) * N` gives 2"
        );
    }

    #[test]
    fn another_instantiation_round_trips() {
        ossuary_schema::testing::check_round_trip::<Table<u32, 3>>(None);
        ossuary_schema::testing::check_round_trip::<Grid<Point, 4>>(None);
    }

    #[test]
    fn the_layout_names_the_parameters_types() {
        use ossuary_schema::Layout;
        let layout = Table::<u16, 2>::LAYOUT;
        assert_eq!(layout.name, "Table");
        let types: Vec<&str> = layout.fields.iter().map(|field| field.rust_type).collect();
        assert_eq!(types, ["Vec<T>", "[u8; N]"]);
        assert_eq!(Table::<u16, 2>::LAYOUT.fields[1].element_size, Some(1));
    }
}
