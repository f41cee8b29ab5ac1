//! Match statistics: score, logistic Elo with a 95% interval, the
//! likelihood of superiority, and the sequential probability ratio test.
//!
//! Elo is the logistic model: a score s (points per game, 0..1) is
//! `-400 log10(1/s - 1)` Elo. The interval is the normal one on the mean
//! score, `s ± 1.96 σ/√N`, mapped through the same curve; σ is the standard
//! deviation of one sample — one game for W/D/L, one game pair for the
//! pentanomial counts, whose smaller spread for paired openings is the point
//! of playing each opening with both colours.
//!
//! The SPRT is the generalized SPRT (M. Van den Bergh, as fishtest runs it):
//! the samples' observed frequencies p̂ (a count of zero taken as 0.001, so
//! that one-sided results still move the test) are compared with the
//! distributions closest to them whose mean score is s0 and s1 (the scores
//! of elo0 and elo1): `LLR = N Σ p̂ᵢ ln(p1ᵢ/p0ᵢ)`, where the closest
//! distribution of mean s is `pᵢ = p̂ᵢ / (1 + λ(xᵢ - s))` with λ making the
//! mean s. Its normal approximation `N (s1 - s0) (2s̄ - s0 - s1) / (2σ²)`
//! ([`Sprt::llr_normal`]) is the published cross-check. The test stops at
//! `ln(β/(1-α))` or `ln((1-β)/α)`.

/// The normal quantile of 97.5%: the half-width of a 95% interval in σ.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Wins, draws and losses from one player's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    pub w: u64,
    pub d: u64,
    pub l: u64,
}

impl Wdl {
    pub fn games(&self) -> u64 {
        self.w + self.d + self.l
    }

    pub fn points(&self) -> f64 {
        self.w as f64 + self.d as f64 / 2.0
    }

    /// Points per game, `None` before the first game.
    pub fn score(&self) -> Option<f64> {
        (self.games() > 0).then(|| self.points() / self.games() as f64)
    }

    /// The same games from the other player's point of view.
    pub fn flipped(&self) -> Wdl {
        Wdl {
            w: self.l,
            d: self.d,
            l: self.w,
        }
    }

    /// Sample values and counts: one sample per game.
    fn samples(&self) -> [(f64, u64); 3] {
        [(1.0, self.w), (0.5, self.d), (0.0, self.l)]
    }
}

/// Counts of game pairs by the points (0, ½, 1, 1½, 2) one player took from
/// the pair.
pub type Pentanomial = [u64; 5];

fn pentanomial_samples(p: &Pentanomial) -> [(f64, u64); 5] {
    [
        (0.0, p[0]),
        (0.25, p[1]),
        (0.5, p[2]),
        (0.75, p[3]),
        (1.0, p[4]),
    ]
}

/// Number of samples, their mean and their variance.
fn moments(samples: &[(f64, u64)]) -> Option<(f64, f64, f64)> {
    let n: u64 = samples.iter().map(|(_, c)| c).sum();
    if n == 0 {
        return None;
    }
    let n = n as f64;
    let mean = samples.iter().map(|(x, c)| x * *c as f64).sum::<f64>() / n;
    let var = samples
        .iter()
        .map(|(x, c)| (x - mean).powi(2) * *c as f64)
        .sum::<f64>()
        / n;
    Some((n, mean, var))
}

/// Elo difference that gives score `s` (±∞ at 1 and 0).
pub fn elo_from_score(s: f64) -> f64 {
    if s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / s - 1.0).log10()
    }
}

/// The expected score of a player `elo` stronger.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// An Elo estimate with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    pub elo: f64,
    pub low: f64,
    pub high: f64,
}

impl EloEstimate {
    /// Half the width of the interval: the "±" figure.
    pub fn error(&self) -> f64 {
        (self.high - self.low) / 2.0
    }

    /// `+12.3 ± 45.6`, with `inf` where a score is all or nothing.
    pub fn text(&self) -> String {
        let err = self.error();
        if err.is_finite() {
            format!("{} ± {err:.1}", elo_text(self.elo))
        } else {
            format!("{} {}", elo_text(self.elo), self.interval_text())
        }
    }

    /// `[-33.3, +57.9]`: the interval itself, which is not symmetric.
    pub fn interval_text(&self) -> String {
        format!("[{}, {}]", elo_text(self.low), elo_text(self.high))
    }
}

fn elo_text(x: f64) -> String {
    if x.is_finite() {
        // A value that rounds to zero is shown as +0.0, never -0.0.
        let x = if (x * 10.0).round() == 0.0 { 0.0 } else { x };
        format!("{x:+.1}")
    } else if x > 0.0 {
        "+inf".into()
    } else {
        "-inf".into()
    }
}

fn estimate(samples: &[(f64, u64)]) -> Option<EloEstimate> {
    let (n, mean, var) = moments(samples)?;
    let half = Z95 * (var / n).sqrt();
    Some(EloEstimate {
        elo: elo_from_score(mean),
        low: elo_from_score(mean - half),
        high: elo_from_score(mean + half),
    })
}

/// Elo and interval from W/D/L, each game a sample.
pub fn elo_wdl(wdl: &Wdl) -> Option<EloEstimate> {
    estimate(&wdl.samples())
}

/// Elo and interval from the pentanomial counts, each pair a sample.
pub fn elo_pentanomial(p: &Pentanomial) -> Option<EloEstimate> {
    estimate(&pentanomial_samples(p))
}

/// The error function (Abramowitz and Stegun 7.1.26; absolute error below
/// 1.5e-7, far finer than a LOS is ever quoted).
pub fn erf(x: f64) -> f64 {
    let sign = if x < 0.0 { -1.0 } else { 1.0 };
    let x = x.abs();
    let t = 1.0 / (1.0 + 0.327_591_1 * x);
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    sign * (1.0 - poly * (-x * x).exp())
}

/// Likelihood of superiority: the probability that the player is the
/// stronger, from wins and losses (draws say nothing about it).
pub fn los(wdl: &Wdl) -> f64 {
    let decisive = (wdl.w + wdl.l) as f64;
    if decisive == 0.0 {
        return 0.5;
    }
    0.5 * (1.0 + erf((wdl.w as f64 - wdl.l as f64) / (2.0 * decisive).sqrt()))
}

/// The distribution on the same values closest to `observed` (value,
/// frequency; every frequency positive) in the Kullback-Leibler sense whose
/// mean is `s`, which must lie strictly between the smallest and largest
/// value: `pᵢ = qᵢ / (1 + λ(xᵢ - s))`, λ found by bisection, since the mean
/// error `Σ qᵢ (xᵢ - s) / (1 + λ(xᵢ - s))` falls as λ grows.
fn closest_with_mean(observed: &[(f64, f64)], s: f64) -> Vec<f64> {
    let lo_x = observed.iter().map(|o| o.0).fold(f64::INFINITY, f64::min);
    let hi_x = observed
        .iter()
        .map(|o| o.0)
        .fold(f64::NEG_INFINITY, f64::max);
    // Every 1 + λ(xᵢ - s) must stay positive.
    let mut lo = -1.0 / (hi_x - s);
    let mut hi = 1.0 / (s - lo_x);
    let error = |lambda: f64| -> f64 {
        observed
            .iter()
            .map(|(x, q)| q * (x - s) / (1.0 + lambda * (x - s)))
            .sum()
    };
    for _ in 0..200 {
        let mid = (lo + hi) / 2.0;
        if error(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let lambda = (lo + hi) / 2.0;
    let p: Vec<f64> = observed
        .iter()
        .map(|(x, q)| q / (1.0 + lambda * (x - s)))
        .collect();
    let sum: f64 = p.iter().sum();
    p.into_iter().map(|x| x / sum).collect()
}

/// The test's hypotheses and error rates.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// Where the test stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtState {
    Continue,
    /// The lower bound was crossed: not as strong as elo1 (H0).
    AcceptH0,
    /// The upper bound was crossed: at least elo1 stronger (H1).
    AcceptH1,
}

impl Sprt {
    /// Checks that the test makes sense.
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Sprt, String> {
        if !(elo0.is_finite() && elo1.is_finite() && elo0 < elo1) {
            return Err(format!("SPRT needs elo0 < elo1, got {elo0} and {elo1}"));
        }
        for (name, v) in [("alpha", alpha), ("beta", beta)] {
            if !(v > 0.0 && v < 0.5) {
                return Err(format!("SPRT {name} must be in (0, 0.5), got {v}"));
            }
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// (lower, upper) bounds of the LLR.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The normal approximation of the LLR; 0 while every sample is alike
    /// (it has no spread to work with).
    pub fn llr_normal(&self, samples: &[(f64, u64)]) -> f64 {
        let Some((n, mean, var)) = moments(samples) else {
            return 0.0;
        };
        if var <= 0.0 {
            return 0.0;
        }
        let s0 = score_from_elo(self.elo0);
        let s1 = score_from_elo(self.elo1);
        n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
    }

    fn llr(&self, samples: &[(f64, u64)]) -> f64 {
        let n: u64 = samples.iter().map(|(_, c)| c).sum();
        if n == 0 {
            return 0.0;
        }
        let weights: Vec<f64> = samples.iter().map(|(_, c)| (*c as f64).max(1e-3)).collect();
        let total: f64 = weights.iter().sum();
        let observed: Vec<(f64, f64)> = samples
            .iter()
            .zip(&weights)
            .map(|((x, _), w)| (*x, w / total))
            .collect();
        let p0 = closest_with_mean(&observed, score_from_elo(self.elo0));
        let p1 = closest_with_mean(&observed, score_from_elo(self.elo1));
        n as f64
            * observed
                .iter()
                .zip(p0.iter().zip(&p1))
                .map(|((_, q), (a, b))| q * (b / a).ln())
                .sum::<f64>()
    }

    /// The LLR with each game a sample.
    pub fn llr_wdl(&self, wdl: &Wdl) -> f64 {
        self.llr(&wdl.samples())
    }

    /// The LLR with each game pair a sample.
    pub fn llr_pentanomial(&self, p: &Pentanomial) -> f64 {
        self.llr(&pentanomial_samples(p))
    }

    pub fn state(&self, llr: f64) -> SprtState {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtState::AcceptH1
        } else if llr <= lower {
            SprtState::AcceptH0
        } else {
            SprtState::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) {
        assert!((a - b).abs() <= tol, "{a} is not {b} within {tol}");
    }

    #[test]
    fn an_even_score_shows_as_plus_zero_not_minus_zero() {
        // Ten draws: the score is exactly one half and the spread zero.
        let e = elo_wdl(&Wdl { w: 0, d: 10, l: 0 }).unwrap();
        assert_eq!(e.text(), "+0.0 ± 0.0");
        assert_eq!(e.interval_text(), "[+0.0, +0.0]");
        assert_eq!(elo_text(-0.04), "+0.0");
        assert_eq!(elo_text(-0.06), "-0.1");
    }

    #[test]
    fn elo_of_a_score_follows_the_logistic_curve() {
        close(elo_from_score(0.5), 0.0, 1e-12);
        // 3 points in 4 games: 10^(x/400) = 3, x = 400 log10 3.
        close(elo_from_score(0.75), 190.848_501_887_864_9, 1e-9);
        close(elo_from_score(0.25), -190.848_501_887_864_9, 1e-9);
        close(score_from_elo(400.0), 10.0 / 11.0, 1e-12);
        close(elo_from_score(score_from_elo(-73.0)), -73.0, 1e-9);
        assert_eq!(elo_from_score(1.0), f64::INFINITY);
    }

    #[test]
    fn error_bars_of_a_known_wdl() {
        // 60 wins, 20 draws, 20 losses: score 0.7, per-game variance
        // (60·0.09 + 20·0.04 + 20·0.49)/100 = 0.16, standard error 0.04, so
        // the interval is 0.7 ± 1.96·0.04 = [0.62160, 0.77840] in score.
        let e = elo_wdl(&Wdl {
            w: 60,
            d: 20,
            l: 20,
        })
        .unwrap();
        close(e.elo, -400.0 * (1.0f64 / 0.7 - 1.0).log10(), 1e-9);
        close(e.elo, 147.19, 0.01);
        let lo = 0.7 - Z95 * 0.04;
        let hi = 0.7 + Z95 * 0.04;
        close(e.low, -400.0 * (1.0 / lo - 1.0).log10(), 1e-9);
        close(e.high, -400.0 * (1.0 / hi - 1.0).log10(), 1e-9);
        close(e.low, 86.225, 0.001);
        close(e.high, 218.252, 0.001);
        close(e.error(), 66.013, 0.001);
        assert_eq!(e.text(), "+147.2 ± 66.0");
        assert_eq!(e.interval_text(), "[+86.2, +218.3]");
        assert!(elo_wdl(&Wdl::default()).is_none());
        let all = elo_wdl(&Wdl { w: 3, d: 0, l: 0 }).unwrap();
        assert_eq!(all.text(), "+inf [+inf, +inf]");
    }

    #[test]
    fn pentanomial_error_bars() {
        // Pairs scoring 0, ½, 1, 1½, 2 points: 5, 10, 20, 10, 5 — mean 0.5,
        // variance per pair (in fractions of 2 points)
        // (2·5·0.25 + 2·10·0.0625)/50 = 0.075.
        let e = elo_pentanomial(&[5, 10, 20, 10, 5]).unwrap();
        close(e.elo, 0.0, 1e-12);
        let half = Z95 * (0.075f64 / 50.0).sqrt();
        close(e.high, elo_from_score(0.5 + half), 1e-9);
        close(e.error(), elo_from_score(0.5 + half), 1e-9);
        close(e.error(), 53.158, 0.001);
        // W/D/L 30/40/30, each game a sample: variance
        // (30·0.25 + 30·0.25)/100 = 0.15.
        let games = elo_wdl(&Wdl {
            w: 30,
            d: 40,
            l: 30,
        })
        .unwrap();
        close(
            games.error(),
            elo_from_score(0.5 + Z95 * (0.15f64 / 100.0).sqrt()),
            1e-9,
        );
    }

    #[test]
    fn los_from_wins_and_losses() {
        close(los(&Wdl { w: 10, d: 5, l: 10 }), 0.5, 1e-6);
        close(los(&Wdl::default()), 0.5, 1e-12);
        // W-L = 10 of 30 decisive: Φ(10/√30) = Φ(1.8257) = 0.96605.
        close(los(&Wdl { w: 20, d: 7, l: 10 }), 0.966_05, 1e-4);
        close(los(&Wdl { w: 10, d: 7, l: 20 }), 1.0 - 0.966_05, 1e-4);
        close(erf(1.0), 0.842_700_79, 2e-7);
        close(erf(-0.5), -0.520_499_88, 2e-7);
    }

    #[test]
    fn sprt_llr_and_bounds() {
        let t = Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap();
        let (lo, hi) = t.bounds();
        close(lo, -2.944_438_979, 1e-9);
        close(hi, 2.944_438_979, 1e-9);
        // 60/20/20: s0 = 0.5, s1 = 1/(1 + 10^(-1/40)), mean 0.7, var 0.16:
        // LLR = 100 (s1 - s0) (1.4 - s0 - s1) / 0.32.
        let s1 = 1.0 / (1.0 + 10f64.powf(-0.025));
        close(s1, 0.514_387_18, 1e-8);
        let want = 100.0 * (s1 - 0.5) * (1.4 - 0.5 - s1) / 0.32;
        let wdl = Wdl {
            w: 60,
            d: 20,
            l: 20,
        };
        let approx = t.llr_normal(&wdl.samples());
        close(approx, want, 1e-9);
        close(approx, 1.7337, 1e-3);
        // The exact GSPRT: with three values the distributions of mean s
        // have one free parameter, a = P(win): (a, 2(s - a), 1 + a - 2s).
        // Maximizing 0.6 ln a + 0.2 ln 2(s-a) + 0.2 ln(1+a-2s) over a grid of
        // 2·10⁶ values of a at s0 and at s1 gives LLR = 1.389822. The
        // approximation overstates it here, the mean 0.7 being far from
        // s0 and s1, where it is expanded.
        let llr = t.llr_wdl(&wdl);
        close(llr, 1.389_822, 1e-6);
        assert_eq!(t.state(llr), SprtState::Continue);
        // Without draws the closest distribution of mean s is the binomial
        // one (win with probability s), so the LLR is the classical
        // 100 [0.6 ln(s1/s0) + 0.4 ln((1-s1)/(1-s0))] = 0.534 (the draw
        // count regularized to 0.001 moves it by less than 0.001).
        let binomial = 100.0 * (0.6 * (s1 / 0.5).ln() + 0.4 * ((1.0 - s1) / 0.5).ln());
        close(binomial, 0.534, 1e-3);
        close(t.llr_wdl(&Wdl { w: 60, d: 0, l: 40 }), binomial, 1e-3);
        // One won pair is no proof; a long run of them is.
        assert!(t.llr_pentanomial(&[0, 0, 0, 0, 1]) < 0.1);
        assert_eq!(
            t.state(t.llr_pentanomial(&[0, 0, 0, 0, 200])),
            SprtState::AcceptH1
        );
        assert_eq!(
            t.state(t.llr_pentanomial(&[200, 0, 0, 0, 0])),
            SprtState::AcceptH0
        );
        assert_eq!(t.state(3.0), SprtState::AcceptH1);
        assert_eq!(t.state(-3.0), SprtState::AcceptH0);
        // An even match leans to H0: mean 0.5 lies below (s0 + s1)/2.
        assert!(t.llr_pentanomial(&[5, 10, 20, 10, 5]) < 0.0);
        // Pentanomial by hand: pairs 0:2, 1:4, 2:8, 3:10, 4:6 (30 pairs),
        // mean (0·2 + .25·4 + .5·8 + .75·10 + 1·6)/30 = 18.5/30.
        let p = [2, 4, 8, 10, 6];
        let mean = 18.5 / 30.0;
        let var = [
            (0.0, 2.0),
            (0.25, 4.0),
            (0.5, 8.0),
            (0.75, 10.0),
            (1.0, 6.0),
        ]
        .iter()
        .map(|(x, c)| c * (x - mean) * (x - mean))
        .sum::<f64>()
            / 30.0;
        let want = 30.0 * (s1 - 0.5) * (2.0 * mean - 0.5 - s1) / (2.0 * var);
        close(t.llr_normal(&pentanomial_samples(&p)), want, 1e-9);
        let exact = t.llr_pentanomial(&p);
        assert!(exact > 0.0 && exact < want, "{exact} vs {want}");
        assert!(Sprt::new(5.0, 0.0, 0.05, 0.05).is_err());
        assert!(Sprt::new(0.0, 5.0, 0.0, 0.05).is_err());
    }
}
