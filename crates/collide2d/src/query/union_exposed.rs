//! Which stretches of a face the other pieces cover, and the face's exposed point nearest the
//! origin; exact (see [`union_faces`](crate::query::union_faces)).
//!
//! A face `x(t) = p + t e`, `t` in `[0, 1]`, outward normal `n`. Another piece covers `x(t)`
//! when `x(t) + εn` lies in it for every small `ε`: for each of that piece's edges `(r, d)`,
//! `d × (x(t) − r) = α + tβ` is positive, or zero with `d · e <= 0` (moving along `n` goes
//! into the edge's side, or along it). Each edge bounds `t` on one side, at `−α / β`; the
//! piece covers one interval. The exposed part of the face is what no interval covers, with
//! its ends: a point whose two sides are covered by two intervals (a seam across the face) is
//! covered unless neither interval holds it.
//!
//! A piece whose interval surely lies wholly before 0 or past 1 is dropped as soon as one of
//! its edges shows it: such an interval holds no point of the face, and merged with others it
//! only moves ends that lie outside `[0, 1]` too, which the search never answers.

use crate::exact::{Field, Filtered};
use crate::math::Vec2;
use crate::query::union_exact::{cross_f, dot_f, exact_cmp_cost, Prod, Ratio, Sum, EXACT_COST};
use crate::query::union_faces::{Face, Piece};
use alloc::vec::Vec;
use core::cell::Cell;
use core::cmp::Ordering;

/// Where the line of another piece's edge `g` crosses the face `f`: the parameter
/// `−α / β` in `f64` with its bound, and the edge, to rebuild the exact fraction only when
/// a comparison's filter cannot tell (small to copy and sort, unlike [`Ratio`]).
#[derive(Clone, Copy, Debug)]
struct At<'f> {
    nf: Filtered,
    df: Filtered,
    g: &'f Face,
    /// `β < 0`: the fraction is `α / −β`.
    hi: bool,
    /// Adds up the work of the comparisons the filters could not tell.
    exact: &'f Cell<usize>,
}

impl At<'_> {
    /// The fraction exactly, on the face `f`.
    fn ratio(&self, f: &Face) -> Ratio {
        let d = self.g.dir();
        let alpha = Prod::cross(d, f.start_from(self.g));
        let beta = Prod::cross(d, f.dir());
        if self.hi {
            Ratio::with(alpha, beta.neg(), self.nf, self.df)
        } else {
            Ratio::with(alpha.neg(), beta, self.nf, self.df)
        }
    }

    /// Compares with another crossing of `f`, exactly.
    fn cmp(&self, f: &Face, o: &At) -> Ordering {
        let by_filter = self.nf.mul(o.df).sub(o.nf.mul(self.df)).sign();
        by_filter.unwrap_or_else(|| self.cmp_unsure(f, o))
    }

    /// [`cmp`](Self::cmp) where the filter cannot tell: almost always a tie, two lines through
    /// one vertex shared by parts (the same pair of input points) that lies on `f`'s line.
    /// Each line crosses `f`'s once, there: equal, found without the degree-4 products and
    /// counted at the work they would have cost.
    #[cold]
    #[inline(never)]
    fn cmp_unsure(&self, f: &Face, o: &At) -> Ordering {
        if shared_end(self.g, o.g).is_some_and(|p| on_line(f, p)) {
            let sums = [
                self.g.dir(),
                f.start_from(self.g),
                o.g.dir(),
                f.start_from(o.g),
                f.dir(),
            ];
            self.exact.set(self.exact.get() + exact_cmp_cost(&sums));
            return Ordering::Equal;
        }
        self.ratio(f).cmp_weighed(&o.ratio(f), self.exact)
    }

    /// Compares with a fixed parameter `r` of `f`, exactly; `end`: `r` is 0 or 1, `f`'s
    /// vertex there.
    fn cmp_ratio(&self, f: &Face, r: &Ratio, end: Option<Vertex>) -> Ordering {
        let (rn, rd) = r.filtered();
        let by_filter = self.nf.mul(rd).sub(rn.mul(self.df)).sign();
        by_filter.unwrap_or_else(|| self.cmp_ratio_unsure(f, r, end))
    }

    /// [`cmp_ratio`](Self::cmp_ratio) where the filter cannot tell: a line through `f`'s end
    /// vertex (an end of `g` is that same pair of points) crosses `f` there, as
    /// [`cmp_unsure`](Self::cmp_unsure) finds.
    #[cold]
    #[inline(never)]
    fn cmp_ratio_unsure(&self, f: &Face, r: &Ratio, end: Option<Vertex>) -> Ordering {
        if end.is_some_and(|p| ends(self.g).contains(&p)) {
            // `r` is made of exact unit vectors.
            let sums = [self.g.dir(), f.start_from(self.g), f.dir()];
            self.exact.set(self.exact.get() + exact_cmp_cost(&sums));
            return Ordering::Equal;
        }
        self.ratio(f).cmp_weighed(r, self.exact)
    }

    /// The value, rounded.
    fn approx(&self, f: &Face) -> f64 {
        if self.df.sign().is_none() {
            return self.ratio(f).approx();
        }
        self.nf.value() / self.df.value()
    }
}

/// A vertex of a piece, as the input points it is made of: `b − a`.
type Vertex = (Vec2, Vec2);

/// The two ends of face `g`.
fn ends(g: &Face) -> [Vertex; 2] {
    [(g.b0, g.a0), (g.b1, g.a1)]
}

/// An end that faces `g` and `h` share (the same pair of points).
fn shared_end(g: &Face, h: &Face) -> Option<Vertex> {
    let theirs = ends(h);
    ends(g).into_iter().find(|p| theirs.contains(p))
}

/// The vertex `p` lies on the line of face `f`, exactly.
fn on_line(f: &Face, p: Vertex) -> bool {
    ends(f).contains(&p)
        || Prod::cross(f.dir(), Sum::of(p.0, f.b0, f.a0, p.1))
            .sign()
            .is_eq()
}

/// An end of an interval: where, and whether the interval holds it.
#[derive(Clone, Copy, Debug)]
struct End<'f> {
    at: At<'f>,
    closed: bool,
}

/// An interval of face parameters; `None` ends are infinite.
#[derive(Clone, Copy, Debug)]
struct Span<'f> {
    lo: Option<End<'f>>,
    hi: Option<End<'f>>,
}

/// The larger of two lower ends (the intersection of the two half-lines).
fn tighter_lo<'f>(f: &Face, cur: Option<End<'f>>, new: End<'f>) -> End<'f> {
    match cur {
        None => new,
        Some(c) => match new.at.cmp(f, &c.at) {
            Ordering::Greater => new,
            Ordering::Less => c,
            Ordering::Equal => End {
                at: c.at,
                closed: c.closed && new.closed,
            },
        },
    }
}

/// The smaller of two upper ends.
fn tighter_hi<'f>(f: &Face, cur: Option<End<'f>>, new: End<'f>) -> End<'f> {
    match cur {
        None => new,
        Some(c) => match new.at.cmp(f, &c.at) {
            Ordering::Less => new,
            Ordering::Greater => c,
            Ordering::Equal => End {
                at: c.at,
                closed: c.closed && new.closed,
            },
        },
    }
}

/// `−x`, exactly (the bound unchanged).
fn neg(x: Filtered) -> Filtered {
    Filtered::from_f32(0.0).sub(x)
}

/// The parameters `t` of `f` that `piece` covers (see the module docs), or `None` for none.
/// Decisions the filters cannot tell count in `exact`.
fn covered<'f>(f: &Face, piece: &'f Piece, exact: &'f Cell<usize>) -> Option<Span<'f>> {
    let e = f.dir();
    let mut span = Span { lo: None, hi: None };
    for g in &piece.faces {
        let d = g.dir();
        // The filters from the faces' values; the exact products only when they cannot tell.
        let from = (f.fs.0.sub(g.fs.0), f.fs.1.sub(g.fs.1));
        let (alpha_f, beta_f) = (cross_f(g.fd, from), cross_f(g.fd, f.fd));
        let closed = || Prod::dot(d, e).sign_given(dot_f(g.fd, f.fd)).is_le();
        let unsure = [alpha_f, beta_f]
            .iter()
            .filter(|x| x.sign().is_none())
            .count();
        exact.set(exact.get() + unsure * EXACT_COST);
        match Prod::cross(d, e).sign_given(beta_f) {
            Ordering::Equal => match Prod::cross(d, f.start_from(g)).sign_given(alpha_f) {
                Ordering::Greater => {}
                Ordering::Less => return None,
                Ordering::Equal => {
                    if !closed() {
                        return None;
                    }
                }
            },
            Ordering::Greater => {
                // A lower end surely past 1 (`−α − β > 0`): the span misses the face, and
                // weighing the rest of the piece would change no answer (module docs).
                if neg(alpha_f).sub(beta_f).sign() == Some(Ordering::Greater) {
                    return None;
                }
                let at = At {
                    nf: neg(alpha_f),
                    df: beta_f,
                    g,
                    hi: false,
                    exact,
                };
                span.lo = Some(tighter_lo(
                    f,
                    span.lo,
                    End {
                        at,
                        closed: closed(),
                    },
                ));
            }
            Ordering::Less => {
                // An upper end surely before 0 (`α < 0`, as `−β > 0`): likewise.
                if alpha_f.sign() == Some(Ordering::Less) {
                    return None;
                }
                let at = At {
                    nf: alpha_f,
                    df: neg(beta_f),
                    g,
                    hi: true,
                    exact,
                };
                span.hi = Some(tighter_hi(
                    f,
                    span.hi,
                    End {
                        at,
                        closed: closed(),
                    },
                ));
            }
        }
    }
    match (span.lo, span.hi) {
        (Some(l), Some(h)) => match l.at.cmp(f, &h.at) {
            Ordering::Less => Some(span),
            Ordering::Equal => (l.closed && h.closed).then_some(span),
            Ordering::Greater => None,
        },
        _ => Some(span),
    }
}

/// Spans sorted by their lower ends, merged where they overlap or meet at a point one holds.
fn merged<'f>(f: &Face, mut spans: Vec<Span<'f>>) -> Vec<Span<'f>> {
    // Among equal lower ends the closed come first: a stretch ending open where they start
    // joins them whichever piece came first (an open one first would start a stretch of its
    // own and leave the point between, held by the closed one, exposed).
    crate::sort::sort_by(&mut spans, |x, y| match (x.lo, y.lo) {
        (None, None) => Ordering::Equal,
        (None, Some(_)) => Ordering::Less,
        (Some(_), None) => Ordering::Greater,
        (Some(a), Some(b)) => a.at.cmp(f, &b.at).then(b.closed.cmp(&a.closed)),
    });
    // Merged in place: `w` spans kept so far, the last of them growing.
    let mut w: usize = 0;
    for i in 0..spans.len() {
        let s = spans[i];
        if let Some(cur) = w.checked_sub(1).map(|last| &mut spans[last]) {
            let joins = match (cur.hi, s.lo) {
                (None, _) | (_, None) => true,
                (Some(h), Some(l)) => match l.at.cmp(f, &h.at) {
                    Ordering::Less => true,
                    Ordering::Equal => h.closed || l.closed,
                    Ordering::Greater => false,
                },
            };
            if joins {
                if let (Some(c), Some(l)) = (cur.lo, s.lo) {
                    if l.at.cmp(f, &c.at).is_eq() {
                        cur.lo = Some(End {
                            at: c.at,
                            closed: c.closed || l.closed,
                        });
                    }
                }
                cur.hi = match (cur.hi, s.hi) {
                    (None, _) | (_, None) => None,
                    (Some(a), Some(b)) => Some(match b.at.cmp(f, &a.at) {
                        Ordering::Greater => b,
                        Ordering::Less => a,
                        Ordering::Equal => End {
                            at: a.at,
                            closed: a.closed || b.closed,
                        },
                    }),
                };
                continue;
            }
        }
        spans[w] = s;
        w += 1;
    }
    spans.truncate(w);
    spans
}

/// The exposed point of `f` nearest the origin, as a parameter in `[0, 1]`, given the other
/// pieces that may cover it; `None` when they cover all of it. Its work adds to `exact`: 1 per
/// piece weighed, [`EXACT_COST`] per decision its filters cannot tell (more on heap
/// expansions, see [`Ratio::cmp_weighed`]).
pub(crate) fn nearest_exposed<'p>(
    f: &Face,
    others: impl Iterator<Item = &'p Piece>,
    exact: &Cell<usize>,
) -> Option<Ratio> {
    let spans: Vec<Span> = others
        .filter_map(|p| {
            exact.set(exact.get() + 1);
            covered(f, p, exact)
        })
        .collect();
    let (zero, one) = (Ratio::int(0.0), Ratio::int(1.0));
    let foot = f.foot();
    let (t, at_zero, at_one) = if foot.cmp(&zero).is_le() {
        (zero, true, false)
    } else if foot.cmp(&one).is_ge() {
        (one, false, true)
    } else {
        (foot, false, false)
    };
    if spans.is_empty() {
        return Some(t);
    }
    let [start, end] = ends(f);
    let t_end = if at_zero {
        Some(start)
    } else if at_one {
        Some(end)
    } else {
        None
    };
    for m in merged(f, spans) {
        let left = m.lo.is_none_or(|l| match l.at.cmp_ratio(f, &t, t_end) {
            Ordering::Less => true,
            Ordering::Equal => at_zero && l.closed,
            Ordering::Greater => false,
        });
        let right = m.hi.is_none_or(|h| match h.at.cmp_ratio(f, &t, t_end) {
            Ordering::Greater => true,
            Ordering::Equal => at_one && h.closed,
            Ordering::Less => false,
        });
        if !(left && right) {
            continue;
        }
        // `t` is covered, with both sides: the nearest exposed points are this stretch's ends
        // inside the face.
        let lo =
            m.lo.filter(|l| match l.at.cmp_ratio(f, &zero, Some(start)) {
                Ordering::Greater => true,
                Ordering::Equal => !l.closed,
                Ordering::Less => false,
            });
        let hi = m.hi.filter(|h| match h.at.cmp_ratio(f, &one, Some(end)) {
            Ordering::Less => true,
            Ordering::Equal => !h.closed,
            Ordering::Greater => false,
        });
        let dist = |r: &At| f.at(r.approx(f)).length();
        return match (lo, hi) {
            (Some(l), Some(h)) => Some(if dist(&h.at) < dist(&l.at) {
                h.at.ratio(f)
            } else {
                l.at.ratio(f)
            }),
            (Some(l), None) => Some(l.at.ratio(f)),
            (None, Some(h)) => Some(h.at.ratio(f)),
            (None, None) => None,
        };
    }
    Some(t)
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::DVec2;

    fn pts(p: &[(f32, f32)]) -> Vec<Vec2> {
        p.iter().map(|&(x, y)| Vec2::new(x, y)).collect()
    }

    #[test]
    fn a_point_where_one_cover_ends_open_and_another_starts_closed_is_covered_in_any_order() {
        // From `union_contact`'s box in a notch: a face of `box1 − part 4` along a diagonal of
        // the polygon ends at the origin; `box1 − part 2` covers the face up to the origin (open
        // there), `box2 − part 3` from it (closed), `box1 − part 0` past it (open). Covered in
        // every order: with the open one first, the origin was left exposed.
        let box1 = pts(&[(-2.0, -9.0), (-1.0, -9.0), (-1.0, -6.0), (-2.0, -6.0)]);
        let box2 = pts(&[(-7.0, -6.0), (-6.0, -6.0), (-6.0, -4.0), (-7.0, -4.0)]);
        let part0 = pts(&[(-2.0, -6.0), (0.0, -6.0), (-2.0, -5.0)]);
        let part2 = pts(&[(-3.0, -7.0), (-2.0, -9.0), (-2.0, -6.0)]);
        let part3 = pts(&[(-2.0, -6.0), (-3.0, -5.0), (-6.0, -5.0), (-4.0, -6.0)]);
        let part4 = pts(&[(-5.0, -8.0), (-3.0, -7.0), (-2.0, -6.0), (-4.0, -6.0)]);
        let piece = |a: &[Vec2], b: &[Vec2]| Piece::new(a, b, None, None).unwrap();
        let own = piece(&part4, &box1);
        let f = own
            .faces
            .iter()
            .find(|f| f.p == DVec2::ONE && f.p + f.e == DVec2::ZERO)
            .unwrap();
        let covers = [
            piece(&part0, &box1),
            piece(&part2, &box1),
            piece(&part3, &box2),
        ];
        for order in [
            [0, 1, 2],
            [0, 2, 1],
            [1, 0, 2],
            [1, 2, 0],
            [2, 0, 1],
            [2, 1, 0],
        ] {
            let exact = Cell::new(0);
            let t = nearest_exposed(f, order.iter().map(|&i| &covers[i]), &exact);
            assert!(t.is_none(), "{order:?}: {:?}", t.map(|t| t.approx()));
        }
    }
}
