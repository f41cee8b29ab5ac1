//! How a described game is written: moves as pit letters (with `>` or `<`
//! where the mover chooses the direction), positions as one token, and a
//! text drawing of the board.
//!
//! The token is the two-row games' own: every pit in sowing order from
//! South's first (his row from his left, then North's from his), then
//! South's store, North's store and the side to move. A board with end
//! pits writes the right one after South's row and the left one after
//! North's, with `*` after the count while its big piece is there:
//! `5-5-5-5-5-0*-5-5-5-5-5-0*-0-0-S`. A game with an opening adds one field
//! after the side to move: the letters of the pits played in the opening
//! so far (South's upper case, North's lower case), `.` for none:
//! `10-10-10-10-10-10-10-10-10-10-0-0-N-A`. Where a refill borrows, a store in
//! debt is written `~` and what its owner owes (`~3`).

use super::position::Described;
use super::rules::{Place, Rules};
use super::sow::{CLOCKWISE, PASS, PIT};
use super::spec::Direction;
use crate::game::{MoveError, NotationError, Side};

/// The letter of pit `index` (0-based from its owner's left).
pub fn pit_letter(side: Side, index: usize) -> char {
    let base = if side == Side::South { b'A' } else { b'a' };
    (base + index as u8) as char
}

pub fn format_move(r: &Rules, side: Side, mv: u16) -> String {
    if mv & PASS != 0 {
        return "pass".to_string();
    }
    let letter = pit_letter(side, (mv & PIT) as usize);
    if r.direction == Direction::Choice {
        // `>` sows toward the mover's right (anticlockwise), `<` toward his
        // left, as Bao's moves are written.
        format!("{letter}{}", if mv & CLOCKWISE != 0 { '<' } else { '>' })
    } else {
        letter.to_string()
    }
}

/// Moves written together (`AbC`), where every move is one letter.
pub fn split_joined(text: &str) -> Option<Vec<(String, Side)>> {
    if text.trim().eq_ignore_ascii_case("pass") {
        return None;
    }
    crate::variants::two_row::split_letters(text)
}

pub fn parse_move(pos: &Described, text: &str) -> Result<u16, MoveError> {
    let r = pos.rules;
    let t = text.trim();
    if t.eq_ignore_ascii_case("pass") {
        if crate::game::Game::outcome(pos).is_some() {
            return Err(MoveError::GameOver);
        }
        let mut legal = Vec::new();
        crate::game::Game::legal_moves(pos, &mut legal);
        return if let Some(&pass) = legal.iter().find(|&&m| m & PASS != 0) {
            Ok(pass)
        } else if r.pass {
            Err(MoveError::Illegal(
                "pass: a player may pass only when he cannot move".into(),
            ))
        } else {
            Err(MoveError::Illegal(format!(
                "pass: nobody passes in {}",
                r.spec.game.title
            )))
        };
    }
    let choice = r.direction == Direction::Choice;
    let form = if choice {
        format!(
            "a pit letter ({}..{}) and a direction, > or < (e.g. {}>)",
            pit_letter(pos.side, 0),
            pit_letter(pos.side, r.m - 1),
            pit_letter(pos.side, 0)
        )
    } else {
        format!(
            "one pit letter ({}..{})",
            pit_letter(pos.side, 0),
            pit_letter(pos.side, r.m - 1)
        )
    };
    let mut chars = t.chars();
    let letter = chars.next().filter(|c| c.is_ascii_alphabetic());
    let rest: String = chars.collect();
    let Some(letter) = letter else {
        return Err(MoveError::Syntax(format!("'{t}': a move is {form}")));
    };
    let clockwise = match (choice, rest.as_str()) {
        (false, "") => false,
        (true, ">") => false,
        (true, "<") => true,
        _ => return Err(MoveError::Syntax(format!("'{t}': a move is {form}"))),
    };
    let index = (letter.to_ascii_lowercase() as u8 - b'a') as usize;
    if index >= r.m {
        return Err(MoveError::Illegal(format!(
            "'{t}': there is no {} {} on a board of {} {} a row",
            r.spec.game.words.pit,
            pit_letter(pos.side, index),
            r.m,
            r.spec.game.words.pits
        )));
    }
    let mv = index as u16
        | if clockwise {
            CLOCKWISE | (r.m as u16) << 8
        } else {
            0
        };
    if crate::game::Game::outcome(pos).is_some() {
        return Err(MoveError::GameOver);
    }
    let mut legal = Vec::new();
    crate::game::Game::legal_moves(pos, &mut legal);
    if legal.contains(&mv) {
        return Ok(mv);
    }
    let words = &r.spec.game.words;
    let name = format!("{} {}", words.pit, pit_letter(pos.side, index));
    let base = pos.ready().unwrap_or(*pos);
    let seeds = base.pit(pos.side, index) as u32;
    let why = if seeds == 0 {
        format!("{name} is empty")
    } else if seeds < r.min_seeds as u32 {
        format!(
            "{name} holds {seeds} {}: a move needs at least {}",
            if seeds == 1 {
                &words.seed
            } else {
                &words.seeds
            },
            r.min_seeds
        )
    } else if seeds == 1 && r.singletons_last {
        format!(
            "{name} holds a single {}, which may be sown only when no {} holds more",
            words.seed, words.pit
        )
    } else {
        match base.sow(mv, &mut super::sow::Silent) {
            super::sow::Sowing::NeverEnds => {
                format!("the relay sowing from {name} never ends")
            }
            super::sow::Sowing::Interrupted => {
                format!("the sowing from {name} was not judged: interrupted")
            }
            super::sow::Sowing::Ends(..) => {
                // What the feeding rules keep him: seeds, or a move.
                let what = if r.leave_move {
                    format!("a {} he can play", words.pit)
                } else {
                    words.seeds.clone()
                };
                if !pos.fed(pos.side.other()) {
                    format!(
                        "{name} leaves the opponent without {what} while another move gives him some"
                    )
                } else {
                    format!("{name} leaves the opponent without {what} while another move does not")
                }
            }
        }
    };
    Err(MoveError::Illegal(why))
}

/// The fields of the token in order, as (place, what it is called).
fn fields(r: &Rules) -> Vec<(usize, String)> {
    let m = r.m;
    let mut f: Vec<(usize, String)> = (0..m).map(|i| (i, "pit".to_string())).collect();
    if r.has_ends() {
        f.push((2 * m + 2, "the right end pit".into()));
    }
    f.extend((m..2 * m).map(|i| (i, "pit".to_string())));
    if r.has_ends() {
        f.push((2 * m + 3, "the left end pit".into()));
    }
    f.push((2 * m, "South's store".into()));
    f.push((2 * m + 1, "North's store".into()));
    f
}

pub fn to_notation(pos: &Described) -> String {
    let r = pos.rules;
    let mut s = String::new();
    for (c, _) in fields(r) {
        if let Place::Store(side) = r.place[c]
            && pos.debt(side) > 0
        {
            // A store in debt holds nothing: `~` and what he owes.
            s.push_str(&format!("~{}-", pos.debt(side)));
            continue;
        }
        s.push_str(&pos.cell(c).to_string());
        if pos.big_at(c) {
            s.push('*');
        }
        s.push('-');
    }
    s.push(pos.side.letter());
    if r.opening != super::spec::Opening::None {
        s.push('-');
        s.push_str(&opened_letters(pos));
    }
    s
}

/// The pits played in the opening, as letters; `.` for none.
fn opened_letters(pos: &Described) -> String {
    let r = pos.rules;
    let mut s = String::new();
    for side in [Side::South, Side::North] {
        let done = pos.opened(side);
        for i in (0..r.m).filter(|&i| done >> i & 1 != 0) {
            s.push(pit_letter(side, i));
        }
    }
    if s.is_empty() {
        s.push('.');
    }
    s
}

pub fn from_notation(r: &'static Rules, text: &str) -> Result<Described, NotationError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(NotationError("empty position".into()));
    }
    if let Some(c) = text.chars().find(|c| c.is_whitespace()) {
        return Err(NotationError(format!(
            "a position is one token without spaces, found {c:?}"
        )));
    }
    let mut parts: Vec<&str> = text.split('-').collect();
    let want = fields(r);
    let name = &r.spec.game.name;
    // A game with an opening writes the pits played in it last.
    let opened = if r.opening != super::spec::Opening::None {
        let Some(last) = parts.pop() else {
            return Err(NotationError("empty position".into()));
        };
        Some(last)
    } else {
        None
    };
    if parts.len() != want.len() + 1 {
        return Err(NotationError(format!(
            "{} fields: a position of {name} has {} ({} pits a row, {}two stores and the side to move{})",
            parts.len() + opened.is_some() as usize,
            want.len() + 1 + opened.is_some() as usize,
            r.m,
            if r.has_ends() { "two end pits, " } else { "" },
            if opened.is_some() {
                ", then the pits played in the opening"
            } else {
                ""
            }
        )));
    }
    let side = match parts[parts.len() - 1] {
        "S" | "s" => Side::South,
        "N" | "n" => Side::North,
        other => {
            return Err(NotationError(format!(
                "field {} (side to move) is '{other}', expected S or N",
                parts.len()
            )));
        }
    };
    let mut pos = Described {
        w: [0; super::rules::MAX_CELLS / 8],
        big: 0,
        side,
        rules: r,
    };
    for (k, ((c, what), f)) in want.iter().zip(&parts).enumerate() {
        if let (Place::Store(side), Some(owed)) = (r.place[*c], f.strip_prefix('~'))
            && r.borrow
        {
            let v: u8 = owed.parse().ok().filter(|v| *v > 0).ok_or_else(|| {
                NotationError(format!(
                    "field {} ({what}) is '{f}': a store in debt is ~ and what its owner owes",
                    k + 1
                ))
            })?;
            pos.set_cell(r.debt_cell(side), v);
            continue;
        }
        let (digits, big) = match f.strip_suffix('*') {
            Some(d) if r.place[*c] == Place::End && r.big_value > 0 => (d, true),
            _ => (*f, false),
        };
        if digits.is_empty() || !digits.chars().all(|ch| ch.is_ascii_digit()) {
            return Err(NotationError(format!(
                "field {} ({what}) is '{f}', not a number of seeds",
                k + 1
            )));
        }
        let v: u32 = digits.parse().ok().filter(|v| *v <= 255).ok_or_else(|| {
            NotationError(format!("field {} ({what}) is {f}: too many seeds", k + 1))
        })?;
        pos.set_cell(*c, v as u8);
        if big {
            pos.big |= Described::big_bit(r, *c);
        }
    }
    if let Some(letters) = opened.filter(|l| *l != ".") {
        for ch in letters.chars() {
            let side = if ch.is_ascii_uppercase() {
                Side::South
            } else {
                Side::North
            };
            let i = (ch.to_ascii_lowercase() as u8).wrapping_sub(b'a') as usize;
            if !ch.is_ascii_alphabetic() || i >= r.m {
                return Err(NotationError(format!(
                    "the last field (the pits played in the opening) is '{letters}': '{ch}' is no pit of {name}"
                )));
            }
            pos.mark_opened(side, i);
        }
    }
    let total = crate::game::Game::total_seeds(&pos);
    if total != r.total {
        return Err(NotationError(format!(
            "seed total is {total}, but {name} has {} in all",
            r.total
        )));
    }
    Ok(pos)
}

/// North's row on top (his left at the right), South's below, the places
/// at the ends between them: South's store (or the right end pit) on the
/// right, North's on the left, where an anticlockwise sowing meets them.
pub fn diagram(pos: &Described) -> String {
    let r = pos.rules;
    let m = r.m;
    let cell = |c: usize| {
        let star = if pos.big_at(c) { "*" } else { " " };
        format!("{:>3}{star}", pos.cell(c))
    };
    let (right, left) = if r.has_ends() {
        (2 * m + 2, 2 * m + 3)
    } else if r.direction == Direction::Clockwise {
        (2 * m + 1, 2 * m)
    } else {
        (2 * m, 2 * m + 1)
    };
    let end = |c: usize| {
        let star = if pos.big_at(c) { "*" } else { "" };
        format!("{}{star}", pos.cell(c))
    };
    let mut out = String::from("      ");
    for j in (0..m).rev() {
        out.push_str(&format!("  {} ", pit_letter(Side::North, j)));
    }
    out.push_str("\n      ");
    for j in (0..m).rev() {
        out.push_str(&cell(m + j));
    }
    out.push_str(&format!(
        "\n{:>4}  {}{:>4}\n      ",
        end(left),
        " ".repeat(4 * m),
        end(right)
    ));
    for i in 0..m {
        out.push_str(&cell(i));
    }
    out.push_str("\n      ");
    for i in 0..m {
        out.push_str(&format!("  {} ", pit_letter(Side::South, i)));
    }
    out.push('\n');
    crate::game::trim_lines(&out)
}
