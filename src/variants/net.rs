//! Small quantised networks for evaluations: one hidden layer over one-hot
//! inputs, clipped ReLU, one output, all in integers.
//!
//! A network takes the inputs that are on for a position (a variant's
//! [`Evaluator::net_inputs`](crate::game::Evaluator::net_inputs)) and
//! computes, for each hidden unit `j`, `a_j = clamp(b1_j + Σ w1_ij, 0, QA)`
//! over the inputs `i` that are on, then `(b2 + Σ a_j w2_j) · scale / (QA ·
//! QB)` centiseeds. The weights are trained in floating point by `kete tune
//! net` and stored as integers: `w1` and `b1` times [`QA`] (an activation of
//! 1 is `QA`), `w2` times [`QB`], `b2` times `QA · QB`; `scale` is the
//! logistic scale the network was trained under, so that its output is in
//! the search's centiseeds.
//!
//! The file (little-endian): the 8 bytes `KETENET1`, the length of a note
//! (u32) and the note (UTF-8: how the network was made), then inputs and
//! hidden units (u16 each), the scale (i32), [`QA`] and [`QB`] (i16 each),
//! then `w1` input by input (`inputs × hidden` i16), `b1` and `w2` (`hidden`
//! i16 each) and `b2` (i32).

use crate::game::{Evaluator, MAX_NET_ACTIVE};

/// What an activation of 1 is in the integer network (and the factor of
/// the hidden layer's weights).
pub const QA: i32 = 255;

/// The factor of the output layer's weights.
pub const QB: i32 = 64;

/// The largest hidden-layer weight or bias, as a multiple of an activation
/// of 1, that a trained network may have: a bias and [`MAX_NET_ACTIVE`]
/// weights of at most `MAX_HIDDEN_WEIGHT · QA` each fit an i16.
pub const MAX_HIDDEN_WEIGHT: f32 =
    (i16::MAX as i32 / (MAX_NET_ACTIVE as i32 + 1)) as f32 / QA as f32;

/// The first bytes of a network file.
pub const NET_MAGIC: &[u8; 8] = b"KETENET1";

/// A network as a file holds it, of any size: what `kete tune net` writes
/// and the tests read. The engine evaluates with [`Network`], sized at
/// compile time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NetFile {
    pub inputs: usize,
    pub hidden: usize,
    /// Centiseeds per unit of the output (the training's logistic scale).
    pub scale: i32,
    /// How the network was made.
    pub note: String,
    /// `inputs × hidden`, input by input.
    pub w1: Vec<i16>,
    pub b1: Vec<i16>,
    pub w2: Vec<i16>,
    pub b2: i32,
}

impl NetFile {
    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b = Vec::new();
        b.extend_from_slice(NET_MAGIC);
        b.extend_from_slice(&(self.note.len() as u32).to_le_bytes());
        b.extend_from_slice(self.note.as_bytes());
        b.extend_from_slice(&(self.inputs as u16).to_le_bytes());
        b.extend_from_slice(&(self.hidden as u16).to_le_bytes());
        b.extend_from_slice(&self.scale.to_le_bytes());
        b.extend_from_slice(&(QA as i16).to_le_bytes());
        b.extend_from_slice(&(QB as i16).to_le_bytes());
        for v in self.w1.iter().chain(&self.b1).chain(&self.w2) {
            b.extend_from_slice(&v.to_le_bytes());
        }
        b.extend_from_slice(&self.b2.to_le_bytes());
        b
    }

    /// Reads a file's bytes.
    pub fn from_bytes(b: &[u8]) -> Result<NetFile, String> {
        let h = header(b)?;
        let mut at = h.weights;
        let mut next = || {
            let v = i16::from_le_bytes([b[at], b[at + 1]]);
            at += 2;
            v
        };
        let w1 = (0..h.inputs * h.hidden).map(|_| next()).collect();
        let b1 = (0..h.hidden).map(|_| next()).collect();
        let w2 = (0..h.hidden).map(|_| next()).collect();
        let at = h.weights + 2 * (h.inputs * h.hidden + 2 * h.hidden);
        let b2 = i32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]]);
        Ok(NetFile {
            inputs: h.inputs,
            hidden: h.hidden,
            scale: h.scale,
            note: String::from_utf8_lossy(&b[12..12 + h.note]).into_owned(),
            w1,
            b1,
            w2,
            b2,
        })
    }

    /// The network's value of the inputs `active`, in centiseeds: the same
    /// integers as [`Network::evaluate`].
    pub fn evaluate(&self, active: &[u16]) -> i32 {
        let mut out = self.b2 as i64;
        for j in 0..self.hidden {
            let mut acc = self.b1[j] as i32;
            for &i in active {
                acc += self.w1[i as usize * self.hidden + j] as i32;
            }
            out += (acc.clamp(0, QA) * self.w2[j] as i32) as i64;
        }
        scaled(out, self.scale)
    }
}

/// The output's integer in centiseeds.
#[inline(always)]
fn scaled(out: i64, scale: i32) -> i32 {
    (out * scale as i64 / (QA * QB) as i64) as i32
}

/// Where a file's parts are.
struct Header {
    note: usize,
    inputs: usize,
    hidden: usize,
    scale: i32,
    /// Where `w1` starts.
    weights: usize,
}

/// Reads and checks a file's header (a `const fn`, so that a network
/// compiled in is checked when kete is built).
const fn header(b: &[u8]) -> Result<Header, &'static str> {
    if b.len() < 12 {
        return Err("not a kete network: too short");
    }
    let mut k = 0;
    while k < 8 {
        if b[k] != NET_MAGIC[k] {
            return Err("not a kete network: no KETENET1");
        }
        k += 1;
    }
    let note = u32::from_le_bytes([b[8], b[9], b[10], b[11]]) as usize;
    let at = 12 + note;
    if b.len() < at + 12 {
        return Err("not a kete network: the header is cut short");
    }
    let inputs = u16::from_le_bytes([b[at], b[at + 1]]) as usize;
    let hidden = u16::from_le_bytes([b[at + 2], b[at + 3]]) as usize;
    let scale = i32::from_le_bytes([b[at + 4], b[at + 5], b[at + 6], b[at + 7]]);
    let qa = i16::from_le_bytes([b[at + 8], b[at + 9]]) as i32;
    let qb = i16::from_le_bytes([b[at + 10], b[at + 11]]) as i32;
    if qa != QA || qb != QB {
        return Err("a network quantised with other factors");
    }
    let weights = at + 12;
    if b.len() != weights + 2 * (inputs * hidden + 2 * hidden) + 4 {
        return Err("a network file of the wrong length for its sizes");
    }
    Ok(Header {
        note,
        inputs,
        hidden,
        scale,
        weights,
    })
}

/// A network of `I` inputs and `H` hidden units, read from its file when
/// kete is built: `static NET: Network<I, H> = Network::from_bytes(include_bytes!(…))`.
pub struct Network<const I: usize, const H: usize> {
    w1: [[i16; H]; I],
    b1: [i16; H],
    w2: [i16; H],
    b2: i32,
    scale: i32,
}

impl<const I: usize, const H: usize> Network<I, H> {
    /// The network of a file's bytes; panics (at compile time, in a
    /// `static`) if the file is not one of `I` inputs and `H` hidden units.
    pub const fn from_bytes(b: &[u8]) -> Self {
        let h = match header(b) {
            Ok(h) => h,
            Err(e) => panic!("{}", e),
        };
        assert!(
            h.inputs == I && h.hidden == H,
            "the network file has other sizes than its Network"
        );
        let mut at = h.weights;
        let mut w1 = [[0i16; H]; I];
        let mut i = 0;
        while i < I {
            let mut j = 0;
            while j < H {
                w1[i][j] = i16::from_le_bytes([b[at], b[at + 1]]);
                at += 2;
                j += 1;
            }
            i += 1;
        }
        let mut b1 = [0i16; H];
        let mut j = 0;
        while j < H {
            b1[j] = i16::from_le_bytes([b[at], b[at + 1]]);
            at += 2;
            j += 1;
        }
        let mut w2 = [0i16; H];
        let mut j = 0;
        while j < H {
            w2[j] = i16::from_le_bytes([b[at], b[at + 1]]);
            at += 2;
            j += 1;
        }
        let b2 = i32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]]);
        Network {
            w1,
            b1,
            w2,
            b2,
            scale: h.scale,
        }
    }

    /// The value of `pos` from the inputs its evaluator `E` turns on
    /// ([`Evaluator::net_inputs`]); `None` where the network does not take
    /// the position (another board), which the evaluator then values its
    /// own way.
    pub fn value<G, E: Evaluator<G>>(&self, pos: &G) -> Option<i32> {
        let mut active = [0u16; MAX_NET_ACTIVE];
        E::net_inputs(pos, &mut active).map(|n| self.evaluate(&active[..n]))
    }

    /// The value of the inputs `active` (each below `I`), in centiseeds.
    /// The hidden sums stay within i16: the trainer bounds every weight of
    /// the hidden layer by [`MAX_HIDDEN_WEIGHT`], so that a bias and
    /// [`MAX_NET_ACTIVE`] inputs cannot leave it.
    #[inline]
    pub fn evaluate(&self, active: &[u16]) -> i32 {
        let mut acc = self.b1;
        for &i in active {
            let row = &self.w1[i as usize];
            for (a, w) in acc.iter_mut().zip(row) {
                *a = a.wrapping_add(*w);
            }
        }
        let mut out = 0i32;
        for (a, w) in acc.iter().zip(&self.w2) {
            out += (*a).clamp(0, QA as i16) as i32 * *w as i32;
        }
        scaled(self.b2 as i64 + out as i64, self.scale)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small() -> NetFile {
        NetFile {
            inputs: 3,
            hidden: 2,
            scale: 400,
            note: "a test".into(),
            w1: vec![100, -50, 300, 20, -40, 255],
            b1: vec![10, 0],
            w2: vec![64, -32],
            b2: 255 * 64 / 2,
        }
    }

    #[test]
    fn a_file_reads_back_as_written() {
        let f = small();
        let b = f.to_bytes();
        assert_eq!(NetFile::from_bytes(&b), Ok(f));
        assert!(NetFile::from_bytes(&b[..b.len() - 1]).is_err());
        assert!(NetFile::from_bytes(b"KETENET2").is_err());
    }

    /// The compiled-in form and the file's own evaluation agree, clipping
    /// included, and the value is what the definition says.
    #[test]
    fn the_network_computes_its_definition() {
        let f = small();
        let b = f.to_bytes();
        let n = Network::<3, 2>::from_bytes(&b);
        for active in [&[][..], &[0], &[1], &[2], &[0, 1], &[0, 2], &[0, 1, 2]] {
            assert_eq!(n.evaluate(active), f.evaluate(active), "{active:?}");
        }
        // Inputs 0 and 1: hidden sums 10+100+300 = 410 (clipped to 255) and
        // 0-50+20 = -30 (clipped to 0): (8160 + 255*64) * 400 / (255*64).
        assert_eq!(f.evaluate(&[0, 1]), (8160 + 255 * 64) * 400 / (255 * 64));
    }
}
