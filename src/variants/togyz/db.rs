//! What the solver and the endgame databases need of Togyz Kumalak: the
//! kumalaks in play, the database boards with their tuzdyk layouts, and
//! moves played backward.

use crate::game::{DbBoard, DbBuild, DbFamily, DbGame, DbSpec, Game, Side, SolveGame};

use super::{Atsyz, CELLS, MAX_SEEDS, Togyz, TogyzRules};

impl SolveGame for Togyz {
    fn pits_per_row(&self) -> u32 {
        self.pits as u32
    }

    fn banked(&self) -> i32 {
        let me = self.side_to_move();
        self.kazan(me) as i32 - self.kazan(me.other()) as i32
    }

    fn seeds_in_play(&self) -> u32 {
        self.row_seeds(Side::South) + self.row_seeds(Side::North)
    }
}

static DB_FAMILY: DbFamily = DbFamily {
    code: 2,
    name: "togyz",
    // Indexed by the rule's code: 0 where tuzdyks are made.
    rules: &["tuzdyk", "no-tuzdyk"],
    describe: "togyz kumalak ({rule}), {pits} otaus",
    layouts: Some(db_layouts),
    distances: true,
};

/// The layouts of a database board ([`DbFamily::layouts`]): with tuzdyks,
/// one for each pair of the mover's tuzdyk (`a`: 0 none, `k + 1` on the
/// opponent's otau `k`) and the opponent's (`b`, on the mover's row),
/// numbered by [`db_layout`]; without, a single one.
fn db_layouts(pits: u8, rule: u8) -> Vec<Vec<u8>> {
    if rule != 0 {
        return Vec::new();
    }
    let m = pits;
    let mut out = Vec::new();
    for a in 0..m {
        for b in 0..m {
            if a > 0 && a == b {
                continue;
            }
            let mut blocked = Vec::new();
            if b > 0 {
                blocked.push(b - 1);
            }
            if a > 0 {
                blocked.push(m + a - 1);
            }
            out.push(blocked);
        }
    }
    out
}

/// The number of the layout of the mover's tuzdyk `a` and the opponent's
/// `b` (0: none, `k + 1`: otau `k`) in [`db_layouts`]' order: row `a` of
/// the pairs, less the pairs with equal numbers (the rules forbid them)
/// before it.
fn db_layout(m: usize, a: usize, b: usize) -> u8 {
    (a * m + b - a.saturating_sub(1) - (a >= 1 && b > a) as usize) as u8
}

/// The pair ([`db_layout`]) of layout `l`.
fn db_pair(m: usize, l: u8) -> (usize, usize) {
    let l = l as usize;
    if l < m {
        return (0, l);
    }
    let a = 1 + (l - m) / (m - 1);
    let r = (l - m) % (m - 1);
    (a, if r < a { r } else { r + 1 })
}

impl Togyz {
    /// Backward move generation for the endgame databases
    /// ([`DbBuild::Retrograde`]): the boards of the same count (kazans
    /// empty) that reach the database board `q` (South to move) by a move
    /// that sends no kumalak to a kazan, each from its own mover's view.
    /// Every candidate — a sowing of `s` kumalaks from one of North's otaus
    /// taken back — is confirmed by playing it forward, so the rules stay
    /// those of [`Game::play`].
    pub fn predecessors(rules: &TogyzRules, q: &[u8], out: &mut Vec<DbBoard>) {
        out.clear();
        let m = rules.pits as usize;
        let ring = 2 * m;
        let (a, b) = if rules.tuzdyks {
            db_pair(m, q[ring])
        } else {
            (0, 0)
        };
        // The tuzdyks' cells in q's frame: South's on North's row, North's
        // on South's. A kumalak sown there goes to a kazan.
        let blocked = |c: usize| (a > 0 && c == m + a - 1) || (b > 0 && c == b - 1);
        let n: usize = q[..ring].iter().map(|&v| v as usize).sum();
        let mut confirm = |p: &[u8], origin: usize| {
            // The board before the move from its mover's (North's) view.
            let mut pb: DbBoard = [0; crate::game::DB_BOARD];
            pb[..m].copy_from_slice(&p[m..ring]);
            pb[m..ring].copy_from_slice(&p[..m]);
            if rules.tuzdyks {
                pb[ring] = db_layout(m, b, a);
            }
            let after = Togyz::from_db_board(rules, &pb).play((origin - m) as u8);
            let mut back: DbBoard = [0; crate::game::DB_BOARD];
            if after.kazans == [0, 0] && after.db_board(&mut back) == n && back[..q.len()] == *q {
                out.push(pb);
            }
        };
        for origin in m..ring {
            if blocked(origin) {
                continue;
            }
            // A single kumalak moves on to the next otau.
            let next = if origin + 1 == ring { 0 } else { origin + 1 };
            if q[origin] == 0 && q[next] > 0 && !blocked(next) {
                let mut p = [0u8; CELLS];
                p[..ring].copy_from_slice(&q[..ring]);
                p[next] -= 1;
                p[origin] = 1;
                confirm(&p[..ring], origin);
            }
            // Two or more: the first back into the otau emptied. Sowing one
            // kumalak more takes one more from the cells in its way.
            let mut p = [0u8; CELLS];
            p[..ring].copy_from_slice(&q[..ring]);
            let mut c = origin;
            let mut s = 0u8;
            while !blocked(c) && p[c] > 0 && (s as usize) < n {
                p[c] -= 1;
                s += 1;
                // The origin holds what came back into it.
                if s >= 2 && p[origin] == 0 {
                    let mut before = p;
                    before[origin] = s;
                    confirm(&before[..ring], origin);
                }
                c = if c + 1 == ring { 0 } else { c + 1 };
            }
        }
    }
}

impl DbSpec for Togyz {
    const DB_FAMILY: &'static DbFamily = &DB_FAMILY;
    // Kumalaks go round the ring without reaching a kazan: cycles.
    const DB_BUILD: DbBuild<TogyzRules> = DbBuild::Retrograde(Togyz::predecessors);

    fn db_game(rules: &TogyzRules) -> Result<DbGame, String> {
        if rules.atsyz == Atsyz::ExtraMove {
            return Err(
                "the databases are for Atsyz=end: under the extra-move rule a \
                        player may move twice in a row"
                    .into(),
            );
        }
        Ok(DbGame {
            family: &DB_FAMILY,
            pits: rules.pits,
            rule: if rules.tuzdyks { 0 } else { 1 },
        })
    }

    // The kumalaks per otau at the start only set where a kazan wins (more
    // than half of them), which a database's positions, kazans empty and
    // played to the end, never reach; the most keeps that out of the way.
    fn db_rules(game: DbGame) -> TogyzRules {
        TogyzRules {
            pits: game.pits,
            seeds: MAX_SEEDS,
            tuzdyks: game.rule == 0,
            atsyz: Atsyz::End,
        }
    }

    fn db_board(&self, out: &mut DbBoard) -> usize {
        let m = self.m();
        let me = self.side;
        out[..m].copy_from_slice(&self.cells[self.row(me)]);
        out[m..2 * m].copy_from_slice(&self.cells[self.row(me.other())]);
        if self.make_tuzdyks {
            let a = self.tuzdyk(me).map_or(0, |k| k + 1);
            let b = self.tuzdyk(me.other()).map_or(0, |k| k + 1);
            out[2 * m] = db_layout(m, a, b);
        }
        self.cells[..2 * m].iter().map(|&v| v as usize).sum()
    }

    fn from_db_board(rules: &TogyzRules, board: &[u8]) -> Togyz {
        let m = rules.pits as usize;
        let mut pos = Togyz::start(rules);
        pos.cells[..2 * m].copy_from_slice(&board[..2 * m]);
        if rules.tuzdyks {
            let (a, b) = db_pair(m, board[2 * m]);
            if a > 0 {
                pos.tuzdyks[Side::South.index()] = (m + a - 1) as u8;
            }
            if b > 0 {
                pos.tuzdyks[Side::North.index()] = (b - 1) as u8;
            }
        }
        pos
    }

    /// None: neither the small database (5 kumalaks, built at `isready` in
    /// about a second) nor the one `kete egtb prepare` would build (9
    /// kumalaks) won its SPRT against none (both H0; most games are decided
    /// by 82 while more kumalaks are on the board). `EgtbPath` plays with
    /// one; a won endgame is then played out by the distances the databases
    /// keep (`DbFamily::distances`), since with no repetition rule two
    /// engines would otherwise shuffle it for ever.
    fn play_db_seeds(_rules: &TogyzRules, _small: bool) -> Option<usize> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::random_positions;
    use super::super::{MAX_PITS, MIN_PITS};
    use super::*;

    #[test]
    fn database_layouts_are_numbered_in_the_order_they_are_listed() {
        for m in MIN_PITS..=MAX_PITS {
            let layouts = db_layouts(m, 0);
            let m = m as usize;
            // No tuzdyk, the mover's alone, the opponent's alone, both.
            assert_eq!(layouts.len(), 1 + 2 * (m - 1) + (m - 1) * (m - 2));
            let mut l = 0;
            for a in 0..m {
                for b in 0..m {
                    if a > 0 && a == b {
                        continue;
                    }
                    assert_eq!(db_layout(m, a, b) as usize, l, "m={m} a={a} b={b}");
                    assert_eq!(db_pair(m, l as u8), (a, b));
                    l += 1;
                }
            }
            assert!(db_layouts(m as u8, 1).is_empty());
        }
    }

    #[test]
    fn a_database_board_reads_back_to_the_same_board() {
        for rules in [TogyzRules::default(), TogyzRules::bestemshe()] {
            let game = Togyz::db_game(&rules).unwrap();
            let len = game.index(0).unwrap().board_len();
            for p in random_positions(&rules, 3000) {
                let mut b = [0u8; crate::game::DB_BOARD];
                let n = p.db_board(&mut b);
                assert_eq!(n as u32, p.seeds_in_play());
                let back = Togyz::from_db_board(&game_rules(&rules), &b[..len]);
                let mut again = [0u8; crate::game::DB_BOARD];
                assert_eq!(back.db_board(&mut again), n);
                assert_eq!(again, b, "{}", p.to_notation());
                // The same moves, from the mover's view.
                let (mut m1, mut m2) = (Vec::new(), Vec::new());
                p.legal_moves(&mut m1);
                back.legal_moves(&mut m2);
                assert_eq!(m1, m2, "{}", p.to_notation());
            }
        }
    }

    /// The rules a database of `rules` is built under.
    fn game_rules(rules: &TogyzRules) -> TogyzRules {
        Togyz::db_rules(Togyz::db_game(rules).unwrap())
    }

    /// The backward moves against the forward ones: every board of a few
    /// kumalaks has as predecessors exactly the boards whose legal moves
    /// that send nothing to a kazan reach it.
    #[test]
    fn predecessors_are_the_moves_played_backward() {
        use std::collections::BTreeMap;
        let small = TogyzRules {
            pits: 3,
            ..TogyzRules::default()
        };
        for (rules, most) in [
            (small, 6),
            (TogyzRules::bestemshe(), 4),
            (TogyzRules::default(), 2),
        ] {
            let game = Togyz::db_game(&rules).unwrap();
            let r = Togyz::db_rules(game);
            let ix = game.index(most).unwrap();
            let len = ix.board_len();
            for n in 1..=most {
                let mut forward: BTreeMap<Vec<u8>, Vec<Vec<u8>>> = BTreeMap::new();
                let mut board = [0u8; crate::game::DB_BOARD];
                let mut moves = Vec::new();
                ix.unrank(n, 0, &mut board[..len]);
                for _ in 0..ix.count(n) {
                    let pos = Togyz::from_db_board(&r, &board[..len]);
                    pos.legal_moves(&mut moves);
                    for &mv in &moves {
                        let child = pos.play(mv);
                        let mut b = [0u8; crate::game::DB_BOARD];
                        if child.db_board(&mut b) == n {
                            assert_eq!(child.kazans, [0, 0]);
                            let parents = forward.entry(b[..len].to_vec()).or_default();
                            parents.push(board[..len].to_vec());
                        }
                    }
                    ix.next(&mut board[..len]);
                }
                let mut preds = Vec::new();
                ix.unrank(n, 0, &mut board[..len]);
                let mut edges = 0;
                for _ in 0..ix.count(n) {
                    Togyz::predecessors(&r, &board[..len], &mut preds);
                    let mut got: Vec<Vec<u8>> = preds.iter().map(|p| p[..len].to_vec()).collect();
                    got.sort();
                    let mut want = forward.remove(&board[..len]).unwrap_or_default();
                    want.sort();
                    assert_eq!(got, want, "{rules:?}, board {:?}", &board[..len]);
                    edges += got.len();
                    ix.next(&mut board[..len]);
                }
                assert!(edges > 0, "{rules:?}: moves within {n} kumalaks");
            }
        }
    }
}
