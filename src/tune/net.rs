//! `kete tune net`: trains a variant's network evaluation.
//!
//! The network is the one of `crate::variants::net`: the inputs a variant's
//! [`Evaluator::net_inputs`] turns on, one hidden layer with a clipped ReLU
//! (activations in 0..1), one output read as a logistic value: its
//! probability of winning is `sigmoid(output)`, its centiseeds `output ×
//! scale`. It is trained in floating point by minibatch Adam on the squared
//! distance between that probability and each position's label, then
//! quantised into the integers the engine evaluates with.
//!
//! A position's label is, in this order: the result of perfect play when a
//! database holds it ([`super::database_label`]); else a blend of the
//! game's points and of the search score the file carries (`kete tune gen
//! --scores`), `lambda × points + (1 − lambda) × sigmoid(score / scale)`;
//! else the game's points. Blocks of positions are held out to measure the
//! network on positions it was not trained on, beside the linear
//! evaluation on the same positions.

use std::io::BufRead;

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

use super::{DataError, Relabelled, read_lines};
use crate::game::{Evaluator, Game, MAX_NET_ACTIVE, linear_value};
use crate::variants::{MAX_HIDDEN_WEIGHT, NetFile, QA, QB};

/// Positions held out together: a run of consecutive positions, most of a
/// few games, so that no game lends positions to both sides of the split.
const HOLD_OUT_BLOCK: usize = 1000;

/// A batch's gradient is summed over this many fixed slices, in order,
/// whatever the number of threads, so that the weights are the same on any.
const SLICES: usize = 8;

/// How a file's positions are labelled.
#[derive(Clone, Copy, Debug)]
pub struct NetLabels {
    /// The share of the game's points in the label of a position that has a
    /// search score (the rest is the score's); 1 ignores the scores.
    pub lambda: f32,
    /// The logistic scale, centiseeds: the score `s` means `sigmoid(s /
    /// scale)`.
    pub scale: f64,
    /// One block of [`HOLD_OUT_BLOCK`] positions in every `hold_out` is held
    /// out (0: none).
    pub hold_out: usize,
    /// Leave out the positions the database in play answers.
    pub skip_answered: bool,
}

/// Training positions as the network sees them.
#[derive(Clone, Debug, Default)]
pub struct NetData {
    /// Inputs of the network.
    pub inputs: usize,
    /// The inputs on of every position: `active[start[k]..start[k + 1]]`.
    active: Vec<u16>,
    start: Vec<u32>,
    /// The label trained toward, 0..1.
    pub target: Vec<f32>,
    /// The game's points.
    pub points: Vec<f32>,
    /// The linear evaluation, centiseeds.
    pub linear: Vec<i32>,
    /// Held out of training.
    pub held_out: Vec<bool>,
    /// Answered by the database in play: the search never evaluates them.
    pub answered: Vec<bool>,
    /// Positions labelled by the database, and those with a search score.
    pub relabelled: Relabelled,
    pub scored: usize,
    /// Positions left out: game over, or answered by the database in play
    /// when those are left out.
    pub skipped: usize,
    /// Positions read, left out or not: the held-out blocks are counted in
    /// them, so that leaving positions out does not move the blocks.
    read: usize,
}

impl NetData {
    pub fn new(inputs: usize) -> Self {
        NetData {
            inputs,
            start: vec![0],
            ..NetData::default()
        }
    }

    pub fn len(&self) -> usize {
        self.target.len()
    }

    pub fn is_empty(&self) -> bool {
        self.target.is_empty()
    }

    fn active(&self, k: usize) -> &[u16] {
        &self.active[self.start[k] as usize..self.start[k + 1] as usize]
    }

    /// Adds a position: its inputs on, label, points and linear evaluation,
    /// whether it is held out and whether the database in play answers it.
    pub fn push(
        &mut self,
        active: &[u16],
        target: f32,
        points: f32,
        linear: i32,
        flags: [bool; 2],
    ) {
        self.active.extend_from_slice(active);
        self.start.push(self.active.len() as u32);
        self.target.push(target);
        self.points.push(points);
        self.linear.push(linear);
        self.held_out.push(flags[0]);
        self.answered.push(flags[1]);
    }
}

fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

/// Reads lines `<position> <points> [<score>]` of the variant `rules` into
/// `data`, labelled as `labels` says, with `label` the database's answer
/// where it has one and `answered` saying which positions the database in
/// play answers (the search never evaluates them); positions whose game is
/// over, or that the network does not take, are left out.
pub fn load_net<G: Game>(
    rules: &G::Rules,
    input: impl BufRead,
    labels: &NetLabels,
    label: &dyn Fn(&G) -> Option<f32>,
    answered: &dyn Fn(&G) -> bool,
    data: &mut NetData,
) -> Result<(), DataError> {
    let inputs = <G::Eval as Evaluator<G>>::NET_INPUTS;
    if inputs == 0 {
        return Err(DataError {
            line: 0,
            message: "this variant has no network evaluation".into(),
        });
    }
    let mut active = [0u16; MAX_NET_ACTIVE];
    read_lines::<G>(rules, input, |pos, points, score| {
        let held =
            labels.hold_out > 0 && (data.read / HOLD_OUT_BLOCK).is_multiple_of(labels.hold_out);
        data.read += 1;
        let answered = answered(&pos);
        if pos.outcome().is_some() || (answered && labels.skip_answered) {
            data.skipped += 1;
            return;
        }
        let Some(k) = <G::Eval as Evaluator<G>>::net_inputs(&pos, &mut active) else {
            return;
        };
        let target = match (label(&pos), score) {
            (Some(exact), _) => {
                data.relabelled.labelled += 1;
                data.relabelled.changed += (exact != points) as usize;
                exact
            }
            (None, Some(s)) => {
                data.scored += 1;
                let l = labels.lambda as f64;
                (l * points as f64 + (1.0 - l) * sigmoid(s as f64 / labels.scale)) as f32
            }
            (None, None) => points,
        };
        let linear = linear_value::<G, G::Eval>(&pos);
        data.push(&active[..k], target, points, linear, [held, answered]);
    })
}

/// How the network is trained.
#[derive(Clone, Debug)]
pub struct NetOptions {
    pub hidden: usize,
    /// Passes over the training positions.
    pub epochs: usize,
    /// Positions a step of the optimiser.
    pub batch: usize,
    /// Adam's step at the start; it falls along a cosine to a hundredth.
    pub rate: f64,
    /// The logistic scale, centiseeds: the network's output unit.
    pub scale: f64,
    pub threads: usize,
    /// Seed of the first weights and of the order of the positions.
    pub seed: u64,
}

impl Default for NetOptions {
    fn default() -> Self {
        NetOptions {
            hidden: 32,
            epochs: 30,
            batch: 4096,
            rate: 0.002,
            scale: 425.0,
            threads: 1,
            seed: 1,
        }
    }
}

/// The losses after an epoch.
#[derive(Clone, Copy, Debug, Default)]
pub struct EpochLoss {
    /// Mean squared error against the labels, on the training positions
    /// (during the epoch) and on the held-out ones (after it).
    pub train: f64,
    pub held_out: f64,
}

/// What training made and measured.
#[derive(Clone, Debug)]
pub struct NetTraining {
    pub net: NetFile,
    pub epochs: Vec<EpochLoss>,
    /// The quantised network and the linear evaluation on every held-out
    /// position, and on those the database in play does not answer.
    pub held_out: HeldOut,
    pub beyond: HeldOut,
}

/// Held-out positions, and on them the mean squared error against the
/// labels and against the games' points: of the quantised network, and of
/// the linear evaluation under the same scale.
#[derive(Clone, Copy, Debug, Default)]
pub struct HeldOut {
    pub positions: usize,
    pub net_label: f64,
    pub net_points: f64,
    pub linear_label: f64,
    pub linear_points: f64,
}

impl std::fmt::Display for HeldOut {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} positions; against the labels network {:.6} linear {:.6}, against the games' points network {:.6} linear {:.6}",
            self.positions, self.net_label, self.linear_label, self.net_points, self.linear_points
        )
    }
}

/// The network in floating point, as trained.
#[derive(Clone, Debug)]
struct Float {
    inputs: usize,
    hidden: usize,
    /// `inputs × hidden`, input by input; then `b1`, `w2`, `b2`.
    w: Vec<f32>,
}

impl Float {
    fn len(inputs: usize, hidden: usize) -> usize {
        inputs * hidden + 2 * hidden + 1
    }

    fn new(inputs: usize, hidden: usize, rng: &mut StdRng) -> Float {
        let mut w = vec![0f32; Self::len(inputs, hidden)];
        for x in &mut w[..inputs * hidden] {
            *x = rng.random_range(-0.2..0.2);
        }
        let b1 = inputs * hidden;
        w[b1..b1 + hidden].fill(0.3);
        for x in &mut w[b1 + hidden..b1 + 2 * hidden] {
            *x = rng.random_range(-0.1..0.1);
        }
        Float { inputs, hidden, w }
    }

    /// The output (logistic units) of `active`, with the hidden sums in
    /// `acc`.
    #[inline]
    fn forward(&self, active: &[u16], acc: &mut [f32]) -> f32 {
        let h = self.hidden;
        let b1 = self.inputs * h;
        acc.copy_from_slice(&self.w[b1..b1 + h]);
        for &i in active {
            let row = &self.w[i as usize * h..(i as usize + 1) * h];
            for (a, r) in acc.iter_mut().zip(row) {
                *a += r;
            }
        }
        let w2 = &self.w[b1 + h..b1 + 2 * h];
        let mut z = self.w[b1 + 2 * h];
        for (a, v) in acc.iter().zip(w2) {
            z += a.clamp(0.0, 1.0) * v;
        }
        z
    }

    /// Adds the gradient of the squared error of the positions `batch` to
    /// `grad` (not yet divided by their number) and gives their summed
    /// error.
    fn gradient(&self, data: &NetData, batch: &[u32], grad: &mut [f32]) -> f64 {
        let h = self.hidden;
        let b1 = self.inputs * h;
        let mut acc = vec![0f32; h];
        let mut g_acc = vec![0f32; h];
        let mut sum = 0.0;
        for &k in batch {
            let k = k as usize;
            let active = data.active(k);
            let z = self.forward(active, &mut acc);
            let p = sigmoid(z as f64);
            let d = p - data.target[k] as f64;
            sum += d * d;
            let gz = (2.0 * d * p * (1.0 - p)) as f32;
            let w2 = &self.w[b1 + h..b1 + 2 * h];
            for j in 0..h {
                let a = acc[j];
                grad[b1 + h + j] += gz * a.clamp(0.0, 1.0);
                g_acc[j] = if a > 0.0 && a < 1.0 { gz * w2[j] } else { 0.0 };
            }
            grad[b1 + 2 * h] += gz;
            for (g, ga) in grad[b1..b1 + h].iter_mut().zip(&g_acc) {
                *g += ga;
            }
            for &i in active {
                let row = &mut grad[i as usize * h..(i as usize + 1) * h];
                for (g, ga) in row.iter_mut().zip(&g_acc) {
                    *g += ga;
                }
            }
        }
        sum
    }

    /// Keeps the weights inside what the integers hold.
    fn clip(&mut self) {
        let b1 = self.inputs * self.hidden;
        let m = MAX_HIDDEN_WEIGHT;
        for x in &mut self.w[..b1 + self.hidden] {
            *x = x.clamp(-m, m);
        }
        let m2 = (i16::MAX as i32 / QB) as f32;
        for x in &mut self.w[b1 + self.hidden..b1 + 2 * self.hidden] {
            *x = x.clamp(-m2, m2);
        }
    }

    /// The network in integers, output in centiseeds.
    fn quantise(&self, scale: f64, note: String) -> NetFile {
        let h = self.hidden;
        let b1 = self.inputs * h;
        let q = |x: f32, f: i32| (x * f as f32).round() as i16;
        NetFile {
            inputs: self.inputs,
            hidden: h,
            scale: scale.round() as i32,
            note,
            w1: self.w[..b1].iter().map(|&x| q(x, QA)).collect(),
            b1: self.w[b1..b1 + h].iter().map(|&x| q(x, QA)).collect(),
            w2: self.w[b1 + h..b1 + 2 * h]
                .iter()
                .map(|&x| q(x, QB))
                .collect(),
            b2: (self.w[b1 + 2 * h] as f64 * (QA * QB) as f64).round() as i32,
        }
    }
}

/// The mean squared error of the probabilities `value(k)` (centiseeds
/// under `scale`) of the held-out positions `which` takes against
/// `label(k)`.
fn held_out_loss(
    data: &NetData,
    which: &dyn Fn(usize) -> bool,
    scale: f64,
    value: &dyn Fn(usize) -> f64,
    label: &dyn Fn(usize) -> f32,
) -> (f64, usize) {
    let (mut sum, mut n) = (0.0, 0usize);
    for k in (0..data.len()).filter(|&k| data.held_out[k] && which(k)) {
        let d = sigmoid(value(k) / scale) - label(k) as f64;
        sum += d * d;
        n += 1;
    }
    (sum / n.max(1) as f64, n)
}

/// Trains a network on `data`; `note` is written into its file (with the
/// losses added) and `progress` hears of each epoch.
pub fn train_net(
    data: &NetData,
    opts: &NetOptions,
    note: &str,
    progress: &mut dyn FnMut(usize, EpochLoss),
) -> NetTraining {
    let mut rng = StdRng::seed_from_u64(opts.seed);
    let mut net = Float::new(data.inputs, opts.hidden.max(1), &mut rng);
    let mut order: Vec<u32> = (0..data.len() as u32)
        .filter(|&k| !data.held_out[k as usize])
        .collect();
    let n = net.w.len();
    let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-8f64);
    let mut m = vec![0f64; n];
    let mut v = vec![0f64; n];
    let mut grads = vec![vec![0f32; n]; SLICES];
    let mut t = 0i32;
    let batch = opts.batch.max(1);
    let steps = opts.epochs.max(1) * order.len().div_ceil(batch);
    let mut epochs = Vec::new();
    for epoch in 0..opts.epochs {
        // Fisher-Yates with the seeded generator.
        for i in (1..order.len()).rev() {
            let j = rng.random_range(0..=i);
            order.swap(i, j);
        }
        let mut sum = 0.0;
        for chunk in order.chunks(batch) {
            let per = chunk.len().div_ceil(SLICES).max(1);
            let slices: Vec<&[u32]> = chunk.chunks(per).collect();
            let mut errors = [0f64; SLICES];
            let threads = opts.threads.clamp(1, SLICES);
            let net_ref = &net;
            std::thread::scope(|scope| {
                let mut work: Vec<Vec<(usize, &mut Vec<f32>)>> =
                    (0..threads).map(|_| Vec::new()).collect();
                for (s, g) in grads.iter_mut().enumerate() {
                    work[s % threads].push((s, g));
                }
                let handles: Vec<_> = work
                    .into_iter()
                    .map(|mine| {
                        let slices = &slices;
                        scope.spawn(move || {
                            let mut out = Vec::new();
                            for (s, g) in mine {
                                g.fill(0.0);
                                let e = match slices.get(s) {
                                    Some(b) => net_ref.gradient(data, b, g),
                                    None => 0.0,
                                };
                                out.push((s, e));
                            }
                            out
                        })
                    })
                    .collect();
                for h in handles {
                    for (s, e) in h.join().expect("a training thread does not panic") {
                        errors[s] = e;
                    }
                }
            });
            sum += errors.iter().sum::<f64>();
            t += 1;
            let progress_share = t as f64 / steps as f64;
            let rate = opts.rate
                * (0.01 + 0.99 * 0.5 * (1.0 + (std::f64::consts::PI * progress_share).cos()));
            let scale = 1.0 / chunk.len() as f64;
            for j in 0..n {
                let g: f64 = grads.iter().map(|g| g[j] as f64).sum::<f64>() * scale;
                m[j] = b1 * m[j] + (1.0 - b1) * g;
                v[j] = b2 * v[j] + (1.0 - b2) * g * g;
                let mh = m[j] / (1.0 - b1.powi(t));
                let vh = v[j] / (1.0 - b2.powi(t));
                net.w[j] -= (rate * mh / (vh.sqrt() + eps)) as f32;
            }
            net.clip();
        }
        let mut acc = vec![0f32; net.hidden];
        let (mut held, mut count) = (0.0, 0usize);
        for k in (0..data.len()).filter(|&k| data.held_out[k]) {
            let z = net.forward(data.active(k), &mut acc);
            let d = sigmoid(z as f64) - data.target[k] as f64;
            held += d * d;
            count += 1;
        }
        let held = held / count.max(1) as f64;
        let loss = EpochLoss {
            train: sum / order.len().max(1) as f64,
            held_out: held,
        };
        progress(epoch + 1, loss);
        epochs.push(loss);
    }
    let draft = net.quantise(opts.scale, String::new());
    let value = |k: usize| draft.evaluate(data.active(k)) as f64;
    let linear = |k: usize| data.linear[k] as f64;
    let target = |k: usize| data.target[k];
    let points = |k: usize| data.points[k];
    let measure = |which: &dyn Fn(usize) -> bool| {
        let (net_label, positions) = held_out_loss(data, which, opts.scale, &value, &target);
        HeldOut {
            positions,
            net_label,
            net_points: held_out_loss(data, which, opts.scale, &value, &points).0,
            linear_label: held_out_loss(data, which, opts.scale, &linear, &target).0,
            linear_points: held_out_loss(data, which, opts.scale, &linear, &points).0,
        }
    };
    let held_out = measure(&|_| true);
    let beyond = measure(&|k| !data.answered[k]);
    let mut text = note.to_string();
    if let Some(last) = epochs.last() {
        text.push_str(&format!(
            "\nTraining error {:.6}. Held out: {held_out}.",
            last.train
        ));
        if beyond.positions < held_out.positions {
            text.push_str(&format!(
                "\nHeld out, beyond the database in play: {beyond}."
            ));
        }
    }
    NetTraining {
        net: net.quantise(opts.scale, text),
        epochs,
        held_out,
        beyond,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Side;
    use crate::variants::oware::{Oware, OwareRules, RuleSet};

    /// Positions of random Oware games, each labelled by a known function of
    /// its stores and houses (the store difference and the seeds at home),
    /// as a file of `kete tune gen --scores` lines: the label is the score's.
    fn synthetic(games: u64) -> String {
        let rules = OwareRules {
            rules: RuleSet::Abapa,
            ..OwareRules::default()
        };
        let mut text = String::new();
        let mut moves = Vec::new();
        for g in 0..games {
            let mut rng = StdRng::seed_from_u64(g);
            let mut pos = Oware::start(&rules);
            for _ in 0..120 {
                if pos.outcome().is_some() {
                    break;
                }
                let me = pos.side_to_move();
                let home = |s: Side| (0..6).map(|i| pos.house(s, i) as i32).sum::<i32>();
                let score = 100 * (pos.store(me) as i32 - pos.store(me.other()) as i32)
                    + 10 * (home(me) - home(me.other()));
                text.push_str(&format!("{} 0.5 {score}\n", pos.to_notation()));
                pos.legal_moves(&mut moves);
                pos = pos.play(moves[rng.random_range(0..moves.len())]);
            }
        }
        text
    }

    fn load(text: &str) -> NetData {
        let rules = OwareRules {
            rules: RuleSet::Abapa,
            ..OwareRules::default()
        };
        let labels = NetLabels {
            lambda: 0.0,
            scale: 425.0,
            hold_out: 10,
            skip_answered: false,
        };
        let mut data = NetData::new(<Oware as Game>::Eval::NET_INPUTS);
        load_net::<Oware>(
            &rules,
            text.as_bytes(),
            &labels,
            &|_| None,
            &|_| false,
            &mut data,
        )
        .expect("valid lines");
        data
    }

    /// The network learns a function of its inputs that the labels follow
    /// (its held-out error falls far below a constant's), the quantised
    /// network keeps that, and the weights do not depend on the threads.
    #[test]
    fn the_network_learns_its_labels_on_any_number_of_threads() {
        let data = load(&synthetic(150));
        assert!(data.len() > 10_000, "{} positions", data.len());
        assert_eq!(data.scored, data.len());
        let held = data.held_out.iter().filter(|&&h| h).count();
        assert!(held > 0 && held < data.len() / 5);
        let mean = data.target.iter().map(|&t| t as f64).sum::<f64>() / data.len() as f64;
        let constant = (0..data.len())
            .filter(|&k| data.held_out[k])
            .map(|k| (data.target[k] as f64 - mean).powi(2))
            .sum::<f64>()
            / held as f64;
        let opts = NetOptions {
            hidden: 8,
            epochs: 8,
            batch: 256,
            rate: 0.01,
            threads: 1,
            ..NetOptions::default()
        };
        let one = train_net(&data, &opts, "a test", &mut |_, _| {});
        assert!(
            one.held_out.net_label < constant / 5.0,
            "network {} constant {constant}",
            one.held_out.net_label
        );
        let float = one.epochs.last().expect("epochs").held_out;
        assert!(
            (one.held_out.net_label - float).abs() < 0.1 * float + 1e-4,
            "quantised {} float {float}",
            one.held_out.net_label
        );
        let two = train_net(
            &data,
            &NetOptions {
                threads: 2,
                ..opts.clone()
            },
            "a test",
            &mut |_, _| {},
        );
        assert_eq!(one.net, two.net);
        assert!(one.net.note.starts_with("a test\nTraining error"));
    }
}
