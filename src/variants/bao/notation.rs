//! Bao's position token (`protocol/README.md`, "Bao") and move text
//! (`<row><pit><dir>[+]`, K.I.B.A. / Donkers).

use super::rules::{Kind, TakasiaObligation};
use super::{Bao, BaoMove, BaoRules, NYUMBA, loop_index};
use crate::game::{Game, MoveError, NotationError, Side};

/// The four rows in the token's order (top to bottom as seen from above with
/// South at the bottom): (side, row 0 front / 1 back, pit numbers in order).
const ROWS: [(Side, usize, [usize; 8], &str); 4] = [
    (
        Side::North,
        1,
        [8, 7, 6, 5, 4, 3, 2, 1],
        "North's back row b8..b1",
    ),
    (
        Side::North,
        0,
        [8, 7, 6, 5, 4, 3, 2, 1],
        "North's front row a8..a1",
    ),
    (
        Side::South,
        0,
        [1, 2, 3, 4, 5, 6, 7, 8],
        "South's front row A1..A8",
    ),
    (
        Side::South,
        1,
        [1, 2, 3, 4, 5, 6, 7, 8],
        "South's back row B1..B8",
    ),
];

fn err<T>(msg: String) -> Result<T, NotationError> {
    Err(NotationError(msg))
}

/// Reads a position token, field by field; an error names the field and
/// what is wrong with it.
pub fn parse_position(rules: &BaoRules, text: &str) -> Result<Bao, NotationError> {
    let fields = split_fields(text)?;
    let pits = parse_board(fields[0])?;
    let hand = parse_hands([fields[1], fields[2]])?;
    let owned = parse_nyumba(fields[3])?;
    let side = parse_side(fields[4])?;
    let (takasia, clear) = parse_takasia(rules, fields[5], side)?;
    let mtaji_captured = parse_mtaji_captured(fields[6])?;
    check_stage(rules, hand, owned, mtaji_captured)?;
    Ok(Bao {
        pits,
        hand,
        owned,
        side,
        takasia,
        clear,
        mtaji_captured,
        rules: *rules,
    })
}

/// The token's seven fields, joined by `-` and without spaces.
fn split_fields(text: &str) -> Result<Vec<&str>, NotationError> {
    let text = text.trim();
    if text.is_empty() {
        return err("empty position".into());
    }
    if let Some(c) = text.chars().find(|c| c.is_whitespace()) {
        return err(format!(
            "a position is one token without spaces, found {c:?}"
        ));
    }
    let fields: Vec<&str> = text.split('-').collect();
    if fields.len() != 7 {
        return err(format!(
            "{} fields: a Bao position is rows-handS-handN-nyumba-side-takasia-capture \
             (7 fields joined by '-')",
            fields.len()
        ));
    }
    Ok(fields)
}

/// Field 1, the board: four rows of eight seed counts, in [`ROWS`] order.
fn parse_board(field: &str) -> Result<[[u8; 16]; 2], NotationError> {
    let rows: Vec<&str> = field.split('/').collect();
    if rows.len() != 4 {
        return err(format!(
            "field 1 (the board) has {} rows, expected 4 joined by '/' (b8..b1/a8..a1/A1..A8/B1..B8)",
            rows.len()
        ));
    }
    let mut pits = [[0u8; 16]; 2];
    for (row_text, (side, row, numbers, name)) in rows.iter().zip(ROWS) {
        let values: Vec<&str> = row_text.split(',').collect();
        if values.len() != 8 {
            return err(format!(
                "{name} has {} pits, expected 8 joined by ','",
                values.len()
            ));
        }
        for (v, number) in values.iter().zip(numbers) {
            let Some(n) = seed_count(v) else {
                return err(format!(
                    "{name}: pit {number} is '{v}', not a number of seeds 0..255"
                ));
            };
            pits[side.index()][loop_index(row, number)] = n;
        }
    }
    Ok(pits)
}

/// A number of seeds 0..255 written in digits only (no sign).
fn seed_count(v: &str) -> Option<u8> {
    v.parse::<u8>()
        .ok()
        .filter(|_| v.chars().all(|c| c.is_ascii_digit()))
}

/// Fields 2 and 3: the seeds in South's and North's hands.
fn parse_hands(fields: [&str; 2]) -> Result<[u8; 2], NotationError> {
    let mut hand = [0u8; 2];
    for (i, who) in ["South's", "North's"].iter().enumerate() {
        let f = fields[i];
        hand[i] = seed_count(f).ok_or_else(|| {
            NotationError(format!(
                "field {} ({who} seeds in hand) is '{f}', not a number 0..255",
                2 + i
            ))
        })?;
    }
    Ok(hand)
}

/// Field 4: whether South and North own their nyumba (`O`) or lost it (`L`).
fn parse_nyumba(nyumba: &str) -> Result<[bool; 2], NotationError> {
    let mut owned = [false; 2];
    let letters: Vec<char> = nyumba.chars().collect();
    if letters.len() != 2 {
        return err(format!(
            "field 4 (nyumba) is '{nyumba}': two letters, South's then North's, O = owned, L = lost"
        ));
    }
    for (i, c) in letters.iter().enumerate() {
        owned[i] = match c {
            'O' | 'o' => true,
            'L' | 'l' => false,
            _ => {
                return err(format!(
                    "field 4 (nyumba) is '{nyumba}': '{c}' is not O (owned) or L (lost)"
                ));
            }
        };
    }
    Ok(owned)
}

/// Field 5: the side to move.
fn parse_side(field: &str) -> Result<Side, NotationError> {
    match field {
        "S" | "s" => Ok(Side::South),
        "N" | "n" => Ok(Side::North),
        f => err(format!("field 5 (side to move) is '{f}', expected S or N")),
    }
}

/// Field 6, `<takasia>[:<pit to clear>]`: the pit takasia'd for `side`, and
/// the opponent's pit `side` must capture if it can, the second part only
/// under TakasiaObligation=clear (D4).
fn parse_takasia(
    rules: &BaoRules,
    field: &str,
    side: Side,
) -> Result<(Option<u8>, Option<u8>), NotationError> {
    let (tak_text, clear_text) = match field.split_once(':') {
        Some((t, c)) => (t, Some(c)),
        None => (field, None),
    };
    let takasia = match tak_text {
        "x" | "X" => None,
        f => {
            let want = if side == Side::South { 'A' } else { 'a' };
            let Some(t) = front_pit(f, side) else {
                return err(format!(
                    "field 6 (takasia) is '{f}': x for none, or a front pit of the side to move \
                     ({want}1..{want}8) such as {want}4"
                ));
            };
            Some(t)
        }
    };
    let clear = match clear_text {
        None => None,
        Some(f) => {
            if rules.takasia_obligation != TakasiaObligation::Clear {
                return err(format!(
                    "field 6 (takasia) has ':{f}', a pit to clear, which only \
                     TakasiaObligation=clear knows"
                ));
            }
            let want = if side == Side::South { 'a' } else { 'A' };
            let Some(t) = front_pit(f, side.other()) else {
                return err(format!(
                    "field 6 (takasia): the pit to clear after ':' is '{f}', expected a front \
                     pit of the opponent ({want}1..{want}8)"
                ));
            };
            Some(t)
        }
    };
    Ok((takasia, clear))
}

/// A front pit of `owner` written as row letter and number (`A4`, `a4`):
/// its index 0..8.
fn front_pit(f: &str, owner: Side) -> Option<u8> {
    let want = if owner == Side::South { 'A' } else { 'a' };
    let mut cs = f.chars();
    let (Some(row), Some(num), None) = (cs.next(), cs.next(), cs.next()) else {
        return None;
    };
    let n = num.to_digit(10).filter(|n| (1..=8).contains(n))?;
    (row == want).then_some(n as u8 - 1)
}

/// Field 7: whether the first mtaji capture has been made.
fn parse_mtaji_captured(field: &str) -> Result<bool, NotationError> {
    match field {
        "0" => Ok(false),
        "1" => Ok(true),
        f => err(format!(
            "field 7 (first mtaji capture made) is '{f}', expected 0 or 1"
        )),
    }
}

/// The fields that must agree: no nyumba after the first mtaji capture,
/// and Kujifunza has neither seeds in hand nor a nyumba.
fn check_stage(
    rules: &BaoRules,
    hand: [u8; 2],
    owned: [bool; 2],
    mtaji_captured: bool,
) -> Result<(), NotationError> {
    if mtaji_captured && owned.iter().any(|&o| o) {
        return err(
            "field 4 (nyumba): after the first mtaji capture (field 7 = 1) no nyumba is owned"
                .into(),
        );
    }
    if rules.kind == Kind::Kujifunza {
        if hand != [0, 0] {
            return err("Bao la Kujifunza has no seeds in hand (fields 2 and 3 must be 0)".into());
        }
        if owned != [false, false] {
            return err("Bao la Kujifunza has no nyumba (field 4 must be LL)".into());
        }
    }
    Ok(())
}

pub fn format_position(pos: &Bao) -> String {
    let rows: Vec<String> = ROWS
        .iter()
        .map(|(side, row, numbers, _)| {
            numbers
                .iter()
                .map(|&n| pos.pits[side.index()][loop_index(*row, n)].to_string())
                .collect::<Vec<_>>()
                .join(",")
        })
        .collect();
    let o = |b: bool| if b { 'O' } else { 'L' };
    let mut takasia = match pos.takasia {
        None => "x".to_string(),
        Some(t) => format!(
            "{}{}",
            if pos.side == Side::South { 'A' } else { 'a' },
            t + 1
        ),
    };
    if let Some(t) = pos.clear {
        let row = if pos.side == Side::South { 'a' } else { 'A' };
        takasia.push_str(&format!(":{row}{}", t + 1));
    }
    format!(
        "{}-{}-{}-{}{}-{}-{}-{}",
        rows.join("/"),
        pos.hand[0],
        pos.hand[1],
        o(pos.owned[0]),
        o(pos.owned[1]),
        pos.side.letter(),
        takasia,
        pos.mtaji_captured as u8
    )
}

/// The row letter and pit number of a loop index for `side`.
pub(super) fn pit_name(side: Side, pit: usize) -> (char, usize) {
    let (front, number) = if pit < 8 {
        (true, pit + 1)
    } else {
        (false, 16 - pit)
    };
    let c = match (side, front) {
        (Side::South, true) => 'A',
        (Side::South, false) => 'B',
        (Side::North, true) => 'a',
        (Side::North, false) => 'b',
    };
    (c, number)
}

/// Whether `mv` is a namua capture here (its arrow then names the kichwa).
fn namua_capture(pos: &Bao, mv: BaoMove) -> bool {
    let s = pos.side.index();
    pos.hand[s] > 0 && mv.pit < 8 && pos.pits[1 - s][7 - mv.pit as usize] > 0
}

/// The arrow of a move: `>` toward the mover's right, `<` toward his left.
fn arrow(pos: &Bao, mv: BaoMove) -> char {
    // Namua capture: `<` = left kichwa, after which sowing runs clockwise.
    // Front row: clockwise runs to the right. Back row: clockwise runs to the left.
    let right = if namua_capture(pos, mv) || mv.pit >= 8 {
        !mv.cw
    } else {
        mv.cw
    };
    if right { '>' } else { '<' }
}

pub fn format_move(pos: &Bao, mv: BaoMove) -> String {
    let (row, number) = pit_name(pos.side, mv.pit as usize);
    let mut s = format!("{row}{number}{}", arrow(pos, mv));
    if mv.safari {
        s.push('+');
    }
    s
}

pub fn parse_move(pos: &Bao, text: &str) -> Result<BaoMove, MoveError> {
    let t = text.trim();
    let syntax = || {
        MoveError::Syntax(format!(
            "'{t}': a Bao move is <row><pit><dir>[+], e.g. A5> or a6<+ (row A/B or a/b, pit 1..8, \
             dir < or >)"
        ))
    };
    // K.I.B.A. decorations: * takasa, ** takasia, # winning move.
    let core: String = t.chars().filter(|c| *c != '*' && *c != '#').collect();
    let mut chars = core.chars().peekable();
    let row = match chars.peek() {
        Some(c) if c.is_ascii_alphabetic() => {
            let c = chars.next().unwrap();
            match c.to_ascii_lowercase() {
                'a' => Some(0usize),
                'b' => Some(1usize),
                _ => return Err(syntax()),
            }
        }
        _ => None,
    };
    let number = match chars.next().and_then(|c| c.to_digit(10)) {
        Some(n) if (1..=8).contains(&n) => n as usize,
        _ => return Err(syntax()),
    };
    let mut right = None;
    let mut safari = false;
    for c in chars {
        match c {
            '<' | 'L' | 'l' if right.is_none() && !safari => right = Some(false),
            '>' | 'R' | 'r' if right.is_none() && !safari => right = Some(true),
            '+' if !safari => safari = true,
            // A pit after a whole move: moves written together (`A6<a5>`,
            // as Aalina writes Oware's), which Bao's notation cannot split.
            c if right.is_some() && c.is_ascii_alphanumeric() => {
                return Err(MoveError::Syntax(format!(
                    "'{t}': Bao moves cannot be written together; separate them with spaces"
                )));
            }
            _ => return Err(syntax()),
        }
    }
    let mut legal = Vec::new();
    pos.legal_moves(&mut legal);
    if legal.is_empty() {
        return Err(MoveError::GameOver);
    }
    let namua = pos.hand[pos.side.index()] > 0;
    let row = match row {
        Some(r) => r,
        // In the namua stage the row may be left out: it is the front row.
        None if namua => 0,
        None => {
            return Err(MoveError::Syntax(format!(
                "'{t}': the row (A/B or a/b) may only be left out in the namua stage"
            )));
        }
    };
    let pit = loop_index(row, number) as u8;
    let matches: Vec<BaoMove> = legal
        .iter()
        .copied()
        .filter(|m| m.pit == pit && m.safari == safari)
        .filter(|m| right.is_none_or(|r| (arrow(pos, *m) == '>') == r))
        .collect();
    let (rc, num) = pit_name(pos.side, pit as usize);
    match matches.len() {
        1 => Ok(matches[0]),
        0 => {
            let from_pit: Vec<String> = legal
                .iter()
                .filter(|m| m.pit == pit)
                .map(|m| format_move(pos, *m))
                .collect();
            Err(MoveError::Illegal(if from_pit.is_empty() {
                format!("'{t}': no legal move starts at {rc}{num}")
            } else {
                format!(
                    "'{t}': the legal moves from {rc}{num} are {}",
                    from_pit.join(", ")
                )
            }))
        }
        _ => Err(MoveError::Illegal(format!(
            "'{t}' is ambiguous: {}",
            matches
                .iter()
                .map(|m| format_move(pos, *m))
                .collect::<Vec<_>>()
                .join(", ")
        ))),
    }
}

pub fn diagram(pos: &Bao) -> String {
    let mut out = String::new();
    out.push_str("        1/8 2/7 3/6 4/5 5/4 6/3 7/2 8/1\n");
    for (side, row, numbers, _) in ROWS {
        let label = match (side, row) {
            (Side::North, 1) => "b8..b1",
            (Side::North, _) => "a8..a1",
            (Side::South, 0) => "A1..A8",
            (Side::South, _) => "B1..B8",
        };
        out.push_str(label);
        out.push(' ');
        for n in numbers {
            let v = pos.pits[side.index()][loop_index(row, n)];
            let mark = if row == 0 && loop_index(row, n) == NYUMBA && pos.owned[side.index()] {
                '#'
            } else if row == 0 && pos.side == side && pos.takasia == Some(n as u8 - 1) {
                '!'
            } else {
                ' '
            };
            out.push_str(&format!("{v:>3}{mark}"));
        }
        out.push('\n');
    }
    out.push_str(&format!(
        "hands S {} N {}; nyumba (#) S {} N {}{}{}\n",
        pos.hand[0],
        pos.hand[1],
        state(pos, Side::South),
        state(pos, Side::North),
        pos.takasia
            .map(|t| format!(
                "; takasia (!) on {}{}",
                if pos.side == Side::South { 'A' } else { 'a' },
                t + 1
            ))
            .unwrap_or_default()
            + &pos
                .clear
                .map(|t| format!(
                    "; must capture {}{} if it can",
                    if pos.side == Side::South { 'a' } else { 'A' },
                    t + 1
                ))
                .unwrap_or_default(),
        if pos.mtaji_captured {
            "; first mtaji capture made"
        } else {
            ""
        }
    ));
    crate::game::trim_lines(&out)
}

fn state(pos: &Bao, side: Side) -> &'static str {
    if !pos.owned[side.index()] {
        "lost"
    } else if pos.nyumba_functional(side) {
        "functional"
    } else {
        "dormant"
    }
}
