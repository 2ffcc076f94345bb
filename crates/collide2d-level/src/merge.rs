//! Solid cells merged into few rectangles: a greedy pass, exactly the same covered cells.

/// A rectangle of whole cells: columns `x..x + w`, rows `y..y + h` (rows counted downwards, as
/// in the editors), all holding `label`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CellRect {
    /// The first column.
    pub x: u32,
    /// The first row.
    pub y: u32,
    /// Columns covered (at least 1).
    pub w: u32,
    /// Rows covered (at least 1).
    pub h: u32,
    /// The label of every cell covered.
    pub label: u32,
}

/// Merges the cells of a `width`-wide grid (`labels` row by row, 0 for an empty cell) into
/// rectangles of equal labels: each rectangle starts at the first cell not yet covered in
/// reading order, grows right along its row while the label holds, then down while the whole
/// row below holds it too. The rectangles cover exactly the non-empty cells, each once, and
/// come out in reading order of their first cell. Time and memory are linear in the cells.
///
/// ```
/// use collide2d_level::{merge_cells, CellRect};
/// // ##.
/// // ##.
/// // ###
/// let rects = merge_cells(&[1, 1, 0, 1, 1, 0, 1, 1, 1], 3);
/// assert_eq!(rects, [
///     CellRect { x: 0, y: 0, w: 2, h: 3, label: 1 },
///     CellRect { x: 2, y: 2, w: 1, h: 1, label: 1 },
/// ]);
/// ```
#[must_use]
pub fn merge_cells(labels: &[u32], width: usize) -> Vec<CellRect> {
    if width == 0 {
        return Vec::new();
    }
    let height = labels.len() / width;
    let mut covered = vec![false; width * height];
    let mut rects = Vec::new();
    for y in 0..height {
        let row = y * width;
        let mut x = 0;
        while x < width {
            let label = labels[row + x];
            if label == 0 || covered[row + x] {
                x += 1;
                continue;
            }
            let free = |i: usize| labels[i] == label && !covered[i];
            let mut w = 1;
            while x + w < width && free(row + x + w) {
                w += 1;
            }
            let mut h = 1;
            while y + h < height && (0..w).all(|dx| free((y + h) * width + x + dx)) {
                h += 1;
            }
            for r in y..y + h {
                covered[r * width + x..r * width + x + w].fill(true);
            }
            // Sizes fit: the caller's grid dimensions are u32 (Tiled and LDtk store them so).
            #[allow(clippy::cast_possible_truncation)]
            rects.push(CellRect {
                x: x as u32,
                y: y as u32,
                w: w as u32,
                h: h as u32,
                label,
            });
            x += w;
        }
    }
    rects
}

/// One rectangle per non-empty cell, in reading order (the per-tile mode).
#[must_use]
pub fn single_cells(labels: &[u32], width: usize) -> Vec<CellRect> {
    if width == 0 {
        return Vec::new();
    }
    #[allow(clippy::cast_possible_truncation)]
    labels
        .iter()
        .enumerate()
        .filter(|(_, &l)| l != 0)
        .map(|(i, &label)| CellRect {
            x: (i % width) as u32,
            y: (i / width) as u32,
            w: 1,
            h: 1,
            label,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// How many rectangles cover each cell, and with which label (0 when uncovered or mixed).
    fn coverage(rects: &[CellRect], width: usize, height: usize) -> (Vec<u32>, Vec<u32>) {
        let (mut count, mut label) = (vec![0; width * height], vec![0; width * height]);
        for r in rects {
            assert!(r.w >= 1 && r.h >= 1);
            for y in r.y..r.y + r.h {
                for x in r.x..r.x + r.w {
                    let i = y as usize * width + x as usize;
                    count[i] += 1;
                    label[i] = r.label;
                }
            }
        }
        (count, label)
    }

    fn check(labels: &[u32], width: usize, rects: &[CellRect]) {
        let height = labels.len() / width;
        let (count, covered) = coverage(rects, width, height);
        for i in 0..labels.len() {
            let want = u32::from(labels[i] != 0);
            assert_eq!(count[i], want, "cell {} {}", i % width, i / width);
            assert_eq!(covered[i], labels[i], "cell {} {}", i % width, i / width);
        }
    }

    #[test]
    fn a_full_grid_is_one_rectangle() {
        let rects = merge_cells(&[7; 12], 4);
        assert_eq!(
            rects,
            [CellRect {
                x: 0,
                y: 0,
                w: 4,
                h: 3,
                label: 7
            }]
        );
    }

    #[test]
    fn a_checkerboard_stays_cell_by_cell() {
        let labels: Vec<u32> = (0..36)
            .map(|i| u32::from((i % 6 + i / 6) % 2 == 0))
            .collect();
        let rects = merge_cells(&labels, 6);
        assert_eq!(rects.len(), 18);
        check(&labels, 6, &rects);
    }

    #[test]
    fn different_labels_are_never_merged() {
        let labels = [1, 1, 2, 2, 1, 1, 2, 2];
        let rects = merge_cells(&labels, 4);
        assert_eq!(
            rects,
            [
                CellRect {
                    x: 0,
                    y: 0,
                    w: 2,
                    h: 2,
                    label: 1
                },
                CellRect {
                    x: 2,
                    y: 0,
                    w: 2,
                    h: 2,
                    label: 2
                },
            ]
        );
    }

    #[test]
    fn a_row_below_that_is_partly_covered_stops_the_growth() {
        // .##
        // ###   the first rectangle takes (1,0)-(2,1); (0,1) is left alone
        let labels = [0, 1, 1, 1, 1, 1];
        let rects = merge_cells(&labels, 3);
        assert_eq!(rects.len(), 2);
        check(&labels, 3, &rects);
    }

    #[test]
    fn empty_and_zero_width_grids_give_nothing() {
        assert!(merge_cells(&[], 0).is_empty());
        assert!(merge_cells(&[0; 9], 3).is_empty());
        assert!(single_cells(&[1; 3], 0).is_empty());
    }

    proptest! {
        #[test]
        fn merged_rectangles_cover_exactly_the_solid_cells_once(
            width in 1usize..24,
            cells in proptest::collection::vec(0u32..4, 0..400),
            density in 0u32..4,
        ) {
            // Densities from sparse to nearly full, labels 1..=3.
            let labels: Vec<u32> = cells
                .iter()
                .map(|&c| if c < density { c % 3 + 1 } else { 0 })
                .collect();
            let height = labels.len() / width;
            let labels = &labels[..width * height];
            let rects = merge_cells(labels, width);
            check(labels, width, &rects);
            let singles = single_cells(labels, width);
            check(labels, width, &singles);
            prop_assert!(rects.len() <= singles.len());
        }
    }
}
