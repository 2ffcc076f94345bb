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

use crate::exact::{Field, Filtered};
use crate::query::union_exact::{cross_f, dot_f, Prod, Ratio};
use crate::query::union_faces::{Face, Piece};
use alloc::vec::Vec;
use core::cmp::Ordering;

/// An end of an interval: where, and whether the interval holds it.
#[derive(Clone, Copy, Debug)]
struct End {
    at: Ratio,
    closed: bool,
}

/// An interval of face parameters; `None` ends are infinite.
#[derive(Clone, Copy, Debug)]
struct Span {
    lo: Option<End>,
    hi: Option<End>,
}

/// The larger of two lower ends (the intersection of the two half-lines).
fn tighter_lo(cur: Option<End>, new: End) -> End {
    match cur {
        None => new,
        Some(c) => match new.at.cmp(&c.at) {
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
fn tighter_hi(cur: Option<End>, new: End) -> End {
    match cur {
        None => new,
        Some(c) => match new.at.cmp(&c.at) {
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
fn covered(f: &Face, piece: &Piece) -> Option<Span> {
    let e = f.dir();
    let mut span = Span { lo: None, hi: None };
    for g in &piece.faces {
        let d = g.dir();
        // The filters from the faces' values; the exact products only when they cannot tell.
        let from = (f.fs.0.sub(g.fs.0), f.fs.1.sub(g.fs.1));
        let (alpha_f, beta_f) = (cross_f(g.fd, from), cross_f(g.fd, f.fd));
        let alpha = Prod::cross(d, f.start_from(g));
        let beta = Prod::cross(d, e);
        let closed = || Prod::dot(d, e).sign_given(dot_f(g.fd, f.fd)).is_le();
        match beta.sign_given(beta_f) {
            Ordering::Equal => match alpha.sign_given(alpha_f) {
                Ordering::Greater => {}
                Ordering::Less => return None,
                Ordering::Equal => {
                    if !closed() {
                        return None;
                    }
                }
            },
            Ordering::Greater => {
                let at = Ratio::with(alpha.neg(), beta, neg(alpha_f), beta_f);
                span.lo = Some(tighter_lo(
                    span.lo,
                    End {
                        at,
                        closed: closed(),
                    },
                ));
            }
            Ordering::Less => {
                let at = Ratio::with(alpha, beta.neg(), alpha_f, neg(beta_f));
                span.hi = Some(tighter_hi(
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
        (Some(l), Some(h)) => match l.at.cmp(&h.at) {
            Ordering::Less => Some(span),
            Ordering::Equal => (l.closed && h.closed).then_some(span),
            Ordering::Greater => None,
        },
        _ => Some(span),
    }
}

/// Spans sorted by their lower ends, merged where they overlap or meet at a point one holds.
fn merged(mut spans: Vec<Span>) -> Vec<Span> {
    spans.sort_by(|x, y| match (x.lo, y.lo) {
        (None, None) => Ordering::Equal,
        (None, Some(_)) => Ordering::Less,
        (Some(_), None) => Ordering::Greater,
        (Some(a), Some(b)) => a.at.cmp(&b.at),
    });
    let mut out: Vec<Span> = Vec::with_capacity(spans.len());
    for s in spans {
        if let Some(cur) = out.last_mut() {
            let joins = match (cur.hi, s.lo) {
                (None, _) | (_, None) => true,
                (Some(h), Some(l)) => match l.at.cmp(&h.at) {
                    Ordering::Less => true,
                    Ordering::Equal => h.closed || l.closed,
                    Ordering::Greater => false,
                },
            };
            if joins {
                if let (Some(c), Some(l)) = (cur.lo, s.lo) {
                    if l.at.cmp(&c.at).is_eq() {
                        cur.lo = Some(End {
                            at: c.at,
                            closed: c.closed || l.closed,
                        });
                    }
                }
                cur.hi = match (cur.hi, s.hi) {
                    (None, _) | (_, None) => None,
                    (Some(a), Some(b)) => Some(match b.at.cmp(&a.at) {
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
        out.push(s);
    }
    out
}

/// The exposed point of `f` nearest the origin, as a parameter in `[0, 1]`, given the other
/// pieces that may cover it; `None` when they cover all of it.
pub(crate) fn nearest_exposed<'p>(
    f: &Face,
    others: impl Iterator<Item = &'p Piece>,
) -> Option<Ratio> {
    let spans: Vec<Span> = others.filter_map(|p| covered(f, p)).collect();
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
    for m in merged(spans) {
        let left = m.lo.is_none_or(|l| match l.at.cmp(&t) {
            Ordering::Less => true,
            Ordering::Equal => at_zero && l.closed,
            Ordering::Greater => false,
        });
        let right = m.hi.is_none_or(|h| match h.at.cmp(&t) {
            Ordering::Greater => true,
            Ordering::Equal => at_one && h.closed,
            Ordering::Less => false,
        });
        if !(left && right) {
            continue;
        }
        // `t` is covered, with both sides: the nearest exposed points are this stretch's ends
        // inside the face.
        let lo = m.lo.filter(|l| match l.at.cmp(&zero) {
            Ordering::Greater => true,
            Ordering::Equal => !l.closed,
            Ordering::Less => false,
        });
        let hi = m.hi.filter(|h| match h.at.cmp(&one) {
            Ordering::Less => true,
            Ordering::Equal => !h.closed,
            Ordering::Greater => false,
        });
        let dist = |r: &Ratio| f.at(r.approx()).length();
        return match (lo, hi) {
            (Some(l), Some(h)) => Some(if dist(&h.at) < dist(&l.at) {
                h.at
            } else {
                l.at
            }),
            (Some(l), None) => Some(l.at),
            (None, Some(h)) => Some(h.at),
            (None, None) => None,
        };
    }
    Some(t)
}
