//! The description format: what a description file may say, read from
//! TOML. Every field is named here once, with its values; reading refuses
//! an unknown field or value (the TOML reader names it, with its line), and
//! [`Spec::check`] refuses fields that contradict each other, naming them.
//! `docs/guide/09-describing.md` explains every field to a person.

use serde::Deserialize;

pub use crate::game::Words;

/// Most pits per row a description may have.
pub const MAX_PITS: usize = 12;

/// A whole description file.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Spec {
    pub game: GameSpec,
    pub board: BoardSpec,
    #[serde(default, rename = "move")]
    pub mv: MoveSpec,
    #[serde(default)]
    pub sow: SowSpec,
    #[serde(default)]
    pub capture: CaptureSpec,
    #[serde(default)]
    pub turn: TurnSpec,
    #[serde(default)]
    pub feed: FeedSpec,
    #[serde(default)]
    pub end: EndSpec,
    /// Where the checks compare the game with other implementations.
    #[serde(default)]
    pub check: CheckSpec,
}

/// `[game]`: names and sources.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct GameSpec {
    /// The `--variant` name: lower-case letters, digits and hyphens.
    pub name: String,
    /// As a person writes it in English ("Ô ăn quan" may be the native).
    pub title: String,
    /// The name in its players' own language.
    #[serde(default)]
    pub native: Option<String>,
    /// Other names that choose it (`--variant`), as the name is written.
    #[serde(default)]
    pub aliases: Vec<String>,
    /// Where it is played.
    #[serde(default)]
    pub region: Option<String>,
    /// The sources of these rules: books, federations, Ludii's file.
    #[serde(default)]
    pub sources: Vec<String>,
    /// What a player calls the things of the board.
    #[serde(default)]
    pub words: Words,
    /// How these rules differ from the game at a real board, in one or two
    /// sentences (e.g. a simultaneous start played turn by turn).
    #[serde(default)]
    pub note: Option<String>,
}

/// `[board]`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct BoardSpec {
    /// Pits in each row, 1..=12.
    pub pits: usize,
    /// A store for each player at the end of his row in the sowing
    /// direction (his right when sowing anticlockwise). Without stores the
    /// captured seeds are still counted, off the board.
    #[serde(default)]
    pub stores: bool,
    /// Seeds in every pit at the start.
    #[serde(default)]
    pub seeds: Option<u32>,
    /// Or every pit's seeds at the start, in sowing order from South's
    /// first pit (South's row from his left, then North's from his).
    #[serde(default)]
    pub layout: Option<Vec<u32>>,
    /// A pit at each end of the board between the rows, owned by nobody,
    /// sown into and captured from like a pit but never sown from (Ô ăn
    /// quan's quan).
    #[serde(default)]
    pub end_pits: Option<EndPits>,
}

/// `[board.end-pits]`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct EndPits {
    /// Small seeds in each end pit at the start.
    #[serde(default)]
    pub seeds: u32,
    /// The value of the one big piece each end pit holds at the start
    /// (0: none). The big piece stays in its pit until the pit is captured
    /// and counts that many seeds for the one who captured it.
    #[serde(default)]
    pub big: u32,
    /// An end pit may be captured only when it holds at least this many
    /// small seeds (a "young" quan with fewer may not be taken).
    #[serde(default)]
    pub capture_min: u32,
    /// Whether an empty end pit is a gap that the capture after an empty
    /// pit (`[capture] after-empty`) reaches across, like an empty pit of
    /// a row. `false`: only an empty pit of a row is such a gap, and an end
    /// pit right after the last seed ends the move, empty or not (Ô ăn
    /// quan as its players write it).
    #[serde(default = "yes")]
    pub gap: bool,
}

/// Which way seeds go round the board, seen from above with South below.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Direction {
    /// Toward the mover's right along his own row.
    #[default]
    Anticlockwise,
    Clockwise,
    /// Each move says which way (`A>` anticlockwise, `A<` clockwise).
    Choice,
}

/// When a pit of one seed may be chosen.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Singletons {
    /// Like any other pit.
    #[default]
    Allowed,
    /// Only when no pit of two or more can be chosen.
    IfNoOther,
}

/// `[move]`: which pits a move may start from.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct MoveSpec {
    /// A pit of the mover's row with at least this many seeds.
    #[serde(default = "one")]
    pub min_seeds: u32,
    #[serde(default)]
    pub singletons: Singletons,
    #[serde(default)]
    pub direction: Direction,
    /// The direction of each pit, from its owner's left, where it depends
    /// on the pit (Um el-Bagara: the left pits clockwise, the right ones
    /// anticlockwise, the middle one either way); with `direction =
    /// "choice"`.
    #[serde(default)]
    pub pit_directions: Option<Vec<Direction>>,
    /// What the first moves of the game are, before the moves of the
    /// rules below.
    #[serde(default)]
    pub opening: Opening,
}

/// The first moves of a game, where they are played otherwise.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Opening {
    /// None: every move is a move of the rules.
    #[default]
    None,
    /// Each player's first move takes every seed of one of his pits (any
    /// pit with seeds, whatever `min-seeds` says) and puts them all into
    /// the next pit, without sowing or capturing (English Wari of St.
    /// Lucia).
    Transfer,
    /// Until a player has sown from each of his pits once, he sows only
    /// from pits he has not sown from yet, and nothing else happens: no
    /// capture, no extra turn, no rule about feeding (Adji-boto).
    EachPitOnce,
}

fn one() -> u32 {
    1
}

impl Default for MoveSpec {
    fn default() -> Self {
        MoveSpec {
            min_seeds: 1,
            singletons: Singletons::Allowed,
            direction: Direction::Anticlockwise,
            pit_directions: None,
            opening: Opening::None,
        }
    }
}

/// What becomes of the pit a sowing starts from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Origin {
    /// It is sown into like any pit when a lap comes round (Kalah).
    #[default]
    Sow,
    /// It is passed over on every lap (Oware).
    Skip,
    /// The first seed goes back into it, the rest on from the next pit; a
    /// pit of one seed sows it into the next pit (Mangala).
    First,
}

/// Which stores the mover sows into on his way round.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SowStores {
    /// Neither: stores only hold captures.
    #[default]
    None,
    /// His own, passing over the opponent's (Kalah).
    Own,
    /// Both.
    Both,
}

/// Whether a sowing goes on after its last seed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Relay {
    /// The move ends with its last seed.
    #[default]
    None,
    /// When the last seed falls into a pit that held seeds, the mover lifts
    /// them all and sows on from there; the move ends when a last seed
    /// falls into an empty pit or a store (En Dodoi, Congkak).
    Last,
    /// When the pit after the last one holds seeds, the mover lifts them
    /// and sows on from there; an empty pit, a store or an end pit there
    /// ends the sowing (Ô ăn quan, Pallanguzhi).
    Next,
}

/// `[sow]`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct SowSpec {
    #[serde(default)]
    pub origin: Origin,
    #[serde(default)]
    pub stores: SowStores,
    #[serde(default)]
    pub relay: Relay,
    /// With `relay = "next"`: the mover's own store, where it follows the
    /// last place, is passed over, and the pit after it is the next one
    /// (Sonka). A last seed in the store relays from the pit after it in
    /// any case.
    #[serde(default)]
    pub relay_over_store: bool,
    /// What a capture at the end of a relay's lap does to the sowing.
    #[serde(default)]
    pub after_capture: AfterCapture,
}

/// What a capture at the end of a relay's lap does to the sowing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AfterCapture {
    /// The move ends with it.
    #[default]
    Ends,
    /// The sowing goes on from the pit after the last one, if it holds
    /// seeds (Meusueb: a four is taken, and the next pit lifted).
    Next,
    /// The seeds left in the last pit (the capturing seed) are lifted and
    /// sown on (Gabata of Ansaba: after taking the pit across, the
    /// capturing seed goes on to the next pit).
    Last,
}

/// Which row a count capture may take from, seen from the mover.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Rows {
    #[default]
    Opponent,
    Own,
    Both,
}

/// Counts that capture: a list, or every even or odd count.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(untagged)]
pub enum Counts {
    List(Vec<u32>),
    Named(NamedCounts),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum NamedCounts {
    Even,
    Odd,
}

impl Default for Counts {
    fn default() -> Self {
        Counts::List(Vec::new())
    }
}

/// Which pits a capture continues to, after the last one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Chain {
    /// The last pit alone.
    #[default]
    None,
    /// The pits sown before it, one by one, while each qualifies too
    /// (Oware).
    Backward,
    /// The pits after it, one by one, while each qualifies too, round the
    /// board if need be, the pit the move started from included
    /// (Adji-boto).
    Forward,
}

/// Which pit a count capture looks at.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Target {
    /// The pit the last seed fell into, that seed counted.
    #[default]
    Last,
    /// The pit after it, as it stands (Adji-boto).
    Next,
}

/// The capture of the pit across.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Opposite {
    #[default]
    None,
    /// The last seed falls into an empty pit of the mover's row: he takes
    /// the seeds across (Kalah).
    EmptyOwn,
    /// The last seed falls into an empty pit of either row: the mover
    /// takes the seeds across (French Wari).
    EmptyAny,
    /// The sowing ends in a pit of the mover's row, whatever it holds: he
    /// takes the seeds across (Sonka, whose next-pit relay ends before an
    /// empty pit). With `opposite-takes-last`, the last pit's seeds go
    /// with them.
    Own,
}

/// The capture across an empty pit after the sowing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AfterEmpty {
    #[default]
    None,
    /// The pit after the empty one, once.
    Once,
    /// And again while an empty pit and a full one follow.
    Repeat,
}

/// Who takes a pit that reaches a capturing count while it is sown.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Taker {
    /// The owner of the row it is in.
    #[default]
    Owner,
    /// The player who is sowing.
    Mover,
}

/// `[capture]`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct CaptureSpec {
    /// The last pit is taken when the seeds in it (the last seed counted)
    /// are one of these counts and it lies in `rows`.
    #[serde(default)]
    pub counts: Counts,
    #[serde(default)]
    pub rows: Rows,
    #[serde(default)]
    pub chain: Chain,
    #[serde(default)]
    pub opposite: Opposite,
    /// With nothing across, nothing is taken (Kalah's standard capture);
    /// `false` banks the lone last seed all the same.
    #[serde(default = "yes")]
    pub opposite_needs_seeds: bool,
    /// The last seed goes with the seeds across.
    #[serde(default = "yes")]
    pub opposite_takes_last: bool,
    /// When the sowing ends before an empty pit, the pit after that one is
    /// taken if it holds seeds (Pallanguzhi), and, with `"repeat"`, again
    /// while an empty pit and a full one follow (Ô ăn quan).
    #[serde(default)]
    pub after_empty: AfterEmpty,
    /// Counts that are taken the moment a sown seed makes them, in any
    /// pit (Pallanguzhi's fours), by `during-taker`.
    #[serde(default)]
    pub during: Vec<u32>,
    #[serde(default)]
    pub during_taker: Taker,
    /// Which pit the count capture looks at: the last one, or the one
    /// after it.
    #[serde(default)]
    pub target: Target,
    /// Who takes the pits of a count capture (its chain and its sweep
    /// too): the mover (when not given), or each pit's owner, into his
    /// own store (Enindji).
    #[serde(default)]
    pub counts_taker: Option<Taker>,
    /// A relay's lap whose last seed makes a capturing count (`counts`, in
    /// `rows`) ends there: the pit is taken rather than lifted (Wouri,
    /// Meusueb); `[sow] after-capture` says what follows.
    #[serde(default)]
    pub ends_relay: bool,
    /// After a count capture, every pit of `rows` holding one of `counts`
    /// is taken too, sown or not (Wouri's fours).
    #[serde(default)]
    pub sweep: bool,
}

fn yes() -> bool {
    true
}

/// `[turn]`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct TurnSpec {
    /// The mover moves again when his last seed falls into his own store.
    #[serde(default)]
    pub extra_in_store: bool,
}

/// Whether a move may leave the opponent's row empty.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Starving {
    #[default]
    Allowed,
    /// Not while another move leaves him seeds; when every move does, any
    /// may be played (Oware's Awari rules).
    UnlessForced,
    /// Never: such a move is not legal.
    Forbidden,
}

/// What a capture of every seed the opponent has does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum GrandSlam {
    /// It takes them like any capture.
    #[default]
    Captures,
    /// The move is played but takes nothing (Oware's Abapa rules).
    TakesNothing,
    /// It takes them, and the mover moves again, to feed him (Ouri).
    MovesAgain,
}

/// `[feed]`: the rules that keep a game going.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct FeedSpec {
    #[serde(default)]
    pub starving: Starving,
    /// When the opponent's row is empty, a move must give him seeds; if no
    /// move can, the game ends (Abapa).
    #[serde(default)]
    pub must_feed: bool,
    #[serde(default)]
    pub grand_slam: GrandSlam,
    /// What `starving` and `must-feed` keep the opponent: seeds in his
    /// row, or a move (a pit he may play).
    #[serde(default)]
    pub leave: Leave,
}

/// What the rules against starving keep the opponent.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Leave {
    /// Seeds in his row.
    #[default]
    Seeds,
    /// A pit he may play: with `min-seeds = 2`, a row of single seeds
    /// leaves him nothing (English Wari of St. Lucia).
    AMove,
}

/// Who gets the seeds still on the board when the game ends.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SeedsLeft {
    /// Each player the seeds of his own row.
    #[default]
    Owner,
    /// The player who moved last, all of them.
    LastMover,
    /// The player whose row is empty takes the others' (Mangala).
    EmptyRow,
    /// Nobody: they are not counted.
    Nobody,
}

/// When a position comes back.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Repetition {
    /// Nothing happens.
    #[default]
    None,
    /// The game ends and each player takes the seeds on his own side.
    OwnSide,
    /// The game ends and the seeds left are shared equally.
    Split,
}

/// What a player does at his turn when his row is empty.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EmptyTurn {
    /// He cannot move: the game ends.
    #[default]
    End,
    /// He first puts one seed from his store into each of his pits, then
    /// moves; with too few seeds to do so the game ends (Ô ăn quan).
    Refill,
    /// He passes: the other player moves again, and the game ends when
    /// neither can move (Sungka, Vai Lung Thlan).
    Pass,
}

/// `[end]`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct EndSpec {
    /// As soon as a move leaves either row empty, the game ends and the
    /// seeds left are banked by `seeds-left` (Kalah). Otherwise it ends when
    /// the player to move cannot move.
    #[serde(default)]
    pub when_row_empty: bool,
    #[serde(default)]
    pub seeds_left: SeedsLeft,
    /// A player who has taken more than half of all seeds wins at once.
    #[serde(default)]
    pub majority: bool,
    #[serde(default)]
    pub repetition: Repetition,
    #[serde(default)]
    pub empty_turn: EmptyTurn,
    /// The game ends when both end pits have been captured; each player
    /// then takes the seeds of his own row (Ô ăn quan).
    #[serde(default)]
    pub end_pits_taken: bool,
    /// With `empty-turn = "refill"`: a player whose store holds fewer
    /// seeds than he has pits borrows the ones he lacks, and the game goes
    /// on; what he owes is taken from his count when the game is scored,
    /// and his captures pay it back first (Ô ăn quan's borrowing). Without
    /// it, such a player cannot move and the game ends.
    #[serde(default)]
    pub borrow: bool,
}

/// `[check]`: the independent implementations the game is compared with.
///
/// `tests/ludii.rs` plays seeded random games of `ludii` in Ludii and
/// replays each in kete move by move (see `docs/described/ludii/`). Ludii
/// loads the file with `ludii-options`: an entry that starts with
/// `Ruleset/` names one of the file's rulesets (`"Ruleset/Awari
/// (Suggested)"`), whose option settings are used; every other entry is
/// one option setting, `"Heading/Item"` (`"Play Rules/12 counters max by
/// hole"`), which replaces the ruleset's setting under the same heading.
/// At most one ruleset; no entries: the file's defaults. Where kete's
/// rules and Ludii's are known to differ, `ludii-differs` lists each kind
/// of disagreement the comparison may then find, with the reason; any
/// other disagreement fails the test.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct CheckSpec {
    /// Ludii's file for the game (`"Wari.lud"`), when Ludii has it as
    /// played here.
    #[serde(default)]
    pub ludii: Option<String>,
    /// Ludii's ruleset (`Ruleset/...`) and options to load it with.
    #[serde(default)]
    pub ludii_options: Vec<String>,
    /// The kinds of disagreement with Ludii that are expected, each once,
    /// with why: `{ kind = "end", reason = "..." }`.
    #[serde(default)]
    pub ludii_differs: Vec<LudiiDiffers>,
    /// Where Ludii reads the game otherwise, the description's fields as
    /// Ludii reads them, by section: `capture = { opposite-takes-last =
    /// false }`. The comparison with Ludii plays the description with
    /// these fields changed ([`ludii_reading`]), so that every ply is
    /// compared; the fields named here are the classified differences.
    #[serde(default)]
    pub ludii_reading: Option<toml::Table>,
    /// Other open implementations of the game, as GitHub's `owner/name`:
    /// `tests/reference.rs` replays their seeded random games (traces
    /// written by the drivers of `tests/reference/`) in kete ply by ply
    /// and fails on a trace of an implementation not listed here.
    #[serde(default)]
    pub references: Vec<String>,
    /// The disagreements with them that are understood, one line each:
    /// `"owner/name kind: reason"`, `owner/name` one of `references` and
    /// `kind` one of `legal-moves` (the same position, other legal
    /// moves), `board` (the same move, another position after it) or
    /// `end` (one ends the game and the other plays on, or both end it
    /// with other results). Any other disagreement fails the comparison.
    #[serde(default)]
    pub known: Vec<String>,
}

/// The description `text` as Ludii reads the game: its `[check]
/// ludii-reading` fields written over its own, under the name
/// `<name>-ludii-reading`; `None` where it has no such fields.
pub fn ludii_reading(text: &str) -> Result<Option<String>, SpecError> {
    let mut doc: toml::Table = toml::from_str(text).map_err(|e| SpecError(e.to_string()))?;
    let reading = doc
        .get_mut("check")
        .and_then(|c| c.as_table_mut())
        .and_then(|c| c.remove("ludii-reading"));
    let Some(toml::Value::Table(reading)) = reading else {
        return Ok(None);
    };
    for (section, fields) in reading {
        let toml::Value::Table(fields) = fields else {
            return Err(SpecError(format!(
                "[check] ludii-reading: {section} is not a table of fields"
            )));
        };
        let target = doc
            .entry(section.clone())
            .or_insert_with(|| toml::Value::Table(toml::Table::new()));
        let Some(target) = target.as_table_mut() else {
            return Err(SpecError(format!(
                "[check] ludii-reading: {section} is not a section of a description"
            )));
        };
        for (k, v) in fields {
            target.insert(k, v);
        }
    }
    if let Some(game) = doc.get_mut("game").and_then(|g| g.as_table_mut()) {
        let name = game
            .get("name")
            .and_then(|n| n.as_str())
            .unwrap_or("game")
            .to_string();
        game.insert("name".into(), format!("{name}-ludii-reading").into());
        game.remove("aliases");
    }
    let text = toml::to_string(&doc).map_err(|e| SpecError(e.to_string()))?;
    Spec::parse(&text).map_err(|e| SpecError(format!("[check] ludii-reading: {e}")))?;
    Ok(Some(text))
}

/// One expected kind of disagreement with Ludii and its reason.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct LudiiDiffers {
    pub kind: Disagreement,
    /// One line: which rule differs, and how.
    pub reason: String,
}

/// How kete and another implementation of a game come apart, at the first
/// point where they do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Disagreement {
    /// In the same position, the legal moves differ.
    LegalMoves,
    /// After the same move, the board or the player to move differs.
    Board,
    /// One says the game is over and the other plays on, or both end it
    /// with different results.
    End,
}

impl Disagreement {
    /// As a description writes it.
    pub fn name(self) -> &'static str {
        match self {
            Disagreement::LegalMoves => "legal-moves",
            Disagreement::Board => "board",
            Disagreement::End => "end",
        }
    }
}

/// The kinds of disagreement `[check] known` names.
pub const KNOWN_KINDS: &[&str] = &["legal-moves", "board", "end"];

/// One line of `[check] known`, read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Known {
    /// The implementation, `owner/name`.
    pub reference: String,
    /// One of [`KNOWN_KINDS`].
    pub kind: String,
    pub reason: String,
}

impl CheckSpec {
    /// Reads `known`; the error names the line that is not of the form
    /// `"owner/name kind: reason"` with a listed reference and a kind of
    /// [`KNOWN_KINDS`].
    pub fn known_entries(&self) -> Result<Vec<Known>, SpecError> {
        let mut out = Vec::new();
        for line in &self.known {
            let bad = |why: &str| {
                SpecError(format!(
                    "[check] known = {line:?}: {why} (write \"owner/name kind: reason\", kind one of {})",
                    KNOWN_KINDS.join(", ")
                ))
            };
            let (head, reason) = line.split_once(':').ok_or_else(|| bad("no reason"))?;
            let (reference, kind) = head.trim().split_once(' ').ok_or_else(|| bad("no kind"))?;
            let (reference, kind, reason) = (reference.trim(), kind.trim(), reason.trim());
            if !self.references.iter().any(|r| r == reference) {
                return Err(bad(&format!("{reference} is not one of references")));
            }
            if !KNOWN_KINDS.contains(&kind) {
                return Err(bad(&format!("unknown kind {kind:?}")));
            }
            if reason.is_empty() {
                return Err(bad("the reason is empty"));
            }
            out.push(Known {
                reference: reference.to_string(),
                kind: kind.to_string(),
                reason: reason.to_string(),
            });
        }
        Ok(out)
    }
}

/// A description that contradicts itself or asks for what kete cannot play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecError(pub String);

impl std::fmt::Display for SpecError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SpecError {}

fn err<T>(text: String) -> Result<T, SpecError> {
    Err(SpecError(text))
}

/// Most seeds a game may have in all (every count fits a byte).
pub const MAX_TOTAL: u32 = 255;

impl Spec {
    /// Reads a description; the error names the field and its line.
    pub fn parse(text: &str) -> Result<Spec, SpecError> {
        // serde calls a value of a field of choices a "variant"; in kete a
        // variant is a game, so the message says "value".
        let spec: Spec = toml::from_str(text).map_err(|e| {
            SpecError(
                e.to_string()
                    .replace("unknown variant", "unknown value")
                    .trim_end()
                    .to_string(),
            )
        })?;
        spec.check()?;
        Ok(spec)
    }

    /// The start layout, in sowing order from South's first pit.
    pub fn layout(&self) -> Vec<u32> {
        match (&self.board.layout, self.board.seeds) {
            (Some(l), _) => l.clone(),
            (None, Some(s)) => vec![s; 2 * self.board.pits],
            (None, None) => Vec::new(),
        }
    }

    /// Every seed of the game at the start, big pieces counted at their
    /// value.
    pub fn total(&self) -> u32 {
        let ends = self
            .board
            .end_pits
            .as_ref()
            .map_or(0, |e| 2 * (e.seeds + e.big));
        self.layout().iter().sum::<u32>() + ends
    }

    /// Checks what the types cannot: ranges, and fields that contradict
    /// each other.
    pub fn check(&self) -> Result<(), SpecError> {
        let g = &self.game;
        let name_ok = |n: &str| {
            !n.is_empty()
                && n.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
                && !n.starts_with('-')
        };
        if !name_ok(&g.name) {
            return err(format!(
                "[game] name = {:?}: a name is lower-case letters, digits and hyphens (e.g. \"das-bohnenspiel\")",
                g.name
            ));
        }
        if g.name.starts_with("file") {
            return err(format!(
                "[game] name = {:?}: names starting with \"file\" are kept for file:PATH",
                g.name
            ));
        }
        if g.title.trim().is_empty() {
            return err("[game] title is empty".into());
        }
        for a in &g.aliases {
            if a.trim().is_empty() {
                return err("[game] aliases: an alias is empty".into());
            }
        }
        let b = &self.board;
        if !(1..=MAX_PITS).contains(&b.pits) {
            return err(format!(
                "[board] pits = {}: a row has 1..{MAX_PITS} pits",
                b.pits
            ));
        }
        match (&b.layout, b.seeds) {
            (Some(_), Some(_)) => {
                return err(
                    "[board] seeds and layout both given: give seeds for every pit alike, or layout for each"
                        .into(),
                );
            }
            (None, None) => {
                return err("[board] needs seeds (in every pit) or layout (for each pit)".into());
            }
            (Some(l), None) if l.len() != 2 * b.pits => {
                return err(format!(
                    "[board] layout has {} values: {} pits a row need {}",
                    l.len(),
                    b.pits,
                    2 * b.pits
                ));
            }
            _ => {}
        }
        let total = self.total();
        if total == 0 {
            return err("[board] the game starts without seeds".into());
        }
        if total > MAX_TOTAL {
            return err(format!(
                "[board] {total} seeds in all: kete plays games of at most {MAX_TOTAL}"
            ));
        }
        if let Some(e) = &b.end_pits
            && e.seeds == 0
            && e.big == 0
            && e.capture_min > 0
        {
            // Allowed: empty end pits that fill up. Nothing to refuse.
        }
        let m = &self.mv;
        if m.min_seeds == 0 {
            return err("[move] min-seeds = 0: a move needs at least one seed".into());
        }
        if m.min_seeds > 1 && m.singletons == Singletons::IfNoOther {
            return err(format!(
                "[move] singletons = \"if-no-other\" contradicts min-seeds = {}: pits of one seed are never chosen",
                m.min_seeds
            ));
        }
        if let Some(d) = &m.pit_directions {
            if m.direction != Direction::Choice {
                return err(
                    "[move] pit-directions needs direction = \"choice\" (moves then say their direction)"
                        .into(),
                );
            }
            if d.len() != b.pits {
                return err(format!(
                    "[move] pit-directions has {} values: a row has {} pits",
                    d.len(),
                    b.pits
                ));
            }
        }
        let s = &self.sow;
        if s.stores != SowStores::None && !b.stores {
            return err(format!(
                "[sow] stores = \"{}\" needs [board] stores = true",
                if s.stores == SowStores::Own {
                    "own"
                } else {
                    "both"
                }
            ));
        }
        if m.direction == Direction::Choice && b.stores && s.stores != SowStores::None {
            return err(
                "[move] direction = \"choice\" with stores that are sown into: a store stands at one end of its row, so only one direction reaches it"
                    .into(),
            );
        }
        if self.turn.extra_in_store && s.stores == SowStores::None {
            return err(
                "[turn] extra-in-store = true needs [sow] stores = \"own\" or \"both\": no seed ever falls into a store"
                    .into(),
            );
        }
        if s.relay == Relay::Next && s.origin == Origin::First {
            return err(
                "[sow] relay = \"next\" with origin = \"first\": kete has no reading of both together"
                    .into(),
            );
        }
        let c = &self.capture;
        if let Counts::List(l) = &c.counts
            && let Some(&bad) = l.iter().find(|&&v| v == 0 || v > MAX_TOTAL)
        {
            return err(format!(
                "[capture] counts has {bad}: a capturing count is 1..{MAX_TOTAL}"
            ));
        }
        let counts_set = !matches!(&c.counts, Counts::List(l) if l.is_empty());
        if c.chain != Chain::None && !counts_set {
            return err("[capture] chain is set but counts is empty: nothing to chain".into());
        }
        if !counts_set && c.rows != Rows::Opponent {
            return err("[capture] rows is set but counts is empty: no count capture".into());
        }
        if c.after_empty != AfterEmpty::None && s.relay == Relay::Last {
            return err(
                "[capture] after-empty with [sow] relay = \"last\": a last-pit relay ends in an empty pit, never before one"
                    .into(),
            );
        }
        if s.relay_over_store && s.relay != Relay::Next {
            return err(
                "[sow] relay-over-store = true needs relay = \"next\": only a next-pit relay looks past the last place"
                    .into(),
            );
        }
        if s.relay_over_store && s.stores == SowStores::None {
            return err(
                "[sow] relay-over-store = true needs [sow] stores = \"own\" or \"both\": no store is sown into, so none is passed"
                    .into(),
            );
        }
        if s.after_capture != AfterCapture::Ends && s.relay == Relay::None {
            return err(
                "[sow] after-capture needs [sow] relay: without a relay a move has one lap, and a capture ends it"
                    .into(),
            );
        }
        if s.after_capture != AfterCapture::Ends && !c.ends_relay && c.opposite == Opposite::None {
            return err(
                "[sow] after-capture is set but no capture ends a lap: set [capture] ends-relay or opposite"
                    .into(),
            );
        }
        if m.opening == Opening::EachPitOnce && (s.relay != Relay::None || !c.during.is_empty()) {
            return err(
                "[move] opening = \"each-pit-once\" with [sow] relay or [capture] during: the opening's sowings capture nothing, and kete has no reading of them with these"
                    .into(),
            );
        }
        if c.ends_relay && s.relay == Relay::None {
            return err(
                "[capture] ends-relay = true needs [sow] relay: there is no relay to end".into(),
            );
        }
        if c.ends_relay && !counts_set {
            return err(
                "[capture] ends-relay = true but counts is empty: no count ends a lap".into(),
            );
        }
        if c.sweep && !counts_set {
            return err("[capture] sweep = true but counts is empty: nothing to sweep".into());
        }
        if c.sweep && c.chain != Chain::None {
            return err(
                "[capture] sweep = true with chain: the sweep already takes every pit a chain would"
                    .into(),
            );
        }
        if c.counts_taker.is_some() && !counts_set {
            return err(
                "[capture] counts-taker is set but counts is empty: no count capture".into(),
            );
        }
        if c.target != Target::Last && !counts_set {
            return err("[capture] target is set but counts is empty: no count capture".into());
        }
        if let Some(&bad) = c.during.iter().find(|&&v| v == 0 || v > MAX_TOTAL) {
            return err(format!(
                "[capture] during has {bad}: a capturing count is 1..{MAX_TOTAL}"
            ));
        }
        if let Some(e) = &b.end_pits {
            if e.capture_min > 0 && c.after_empty == AfterEmpty::None && !counts_set {
                return err(
                    "[board.end-pits] capture-min is set but no capture can take an end pit".into(),
                );
            }
            let _ = e;
        }
        let e = &self.end;
        if e.end_pits_taken && b.end_pits.is_none() {
            return err("[end] end-pits-taken = true needs [board.end-pits]".into());
        }
        if e.borrow && e.empty_turn != EmptyTurn::Refill {
            return err(
                "[end] borrow = true needs empty-turn = \"refill\": only a refill borrows".into(),
            );
        }
        if let Some(ep) = &b.end_pits
            && !ep.gap
            && c.after_empty == AfterEmpty::None
        {
            return err(
                "[board.end-pits] gap = false is set but no capture after an empty pit ([capture] after-empty) crosses a gap"
                    .into(),
            );
        }
        if e.empty_turn != EmptyTurn::End && e.when_row_empty {
            return err(
                "[end] empty-turn contradicts when-row-empty = true: the game ends before the empty row's turn"
                    .into(),
            );
        }
        let f = &self.feed;
        if f.must_feed && f.starving == Starving::Forbidden {
            // Forbidden starving already keeps the opponent fed.
            return err(
                "[feed] must-feed = true with starving = \"forbidden\": say one of them (a move that leaves him nothing is already never legal)"
                    .into(),
            );
        }
        if f.leave != Leave::Seeds {
            if f.starving == Starving::Allowed && !f.must_feed {
                return err(
                    "[feed] leave = \"a-move\" needs starving = \"forbidden\" or must-feed = true: no rule keeps the opponent anything"
                        .into(),
                );
            }
            if f.starving == Starving::UnlessForced {
                return err(
                    "[feed] leave = \"a-move\" with starving = \"unless-forced\": kete has no reading of both together"
                        .into(),
                );
            }
        }
        if f.grand_slam != GrandSlam::Captures && !counts_set && c.opposite == Opposite::None {
            return err("[feed] grand-slam is set but no capture is described".into());
        }
        let k = &self.check;
        if k.ludii.is_none()
            && (!k.ludii_options.is_empty()
                || !k.ludii_differs.is_empty()
                || k.ludii_reading.is_some())
        {
            return err(
                "[check] ludii-options, ludii-differs or ludii-reading without ludii: name Ludii's file"
                    .into(),
            );
        }
        if k.ludii_options
            .iter()
            .filter(|o| o.starts_with("Ruleset/"))
            .count()
            > 1
        {
            return err("[check] ludii-options names more than one Ruleset/".into());
        }
        for (i, d) in k.ludii_differs.iter().enumerate() {
            if d.reason.trim().is_empty() {
                return err(format!(
                    "[check] ludii-differs: kind = \"{}\" needs a reason",
                    d.kind.name()
                ));
            }
            if k.ludii_differs[..i].iter().any(|e| e.kind == d.kind) {
                return err(format!(
                    "[check] ludii-differs: kind = \"{}\" is listed twice; give one reason",
                    d.kind.name()
                ));
            }
        }
        for r in &self.check.references {
            let ok = r.split_once('/').is_some_and(|(o, n)| {
                !o.is_empty()
                    && !n.is_empty()
                    && !n.contains('/')
                    && !r.contains(char::is_whitespace)
            });
            if !ok {
                return err(format!(
                    "[check] references has {r:?}: name a repository as owner/name"
                ));
            }
        }
        self.check.known_entries()?;
        if e.empty_turn != EmptyTurn::End && f.must_feed {
            return err(
                "[end] empty-turn with [feed] must-feed = true: say which keeps the empty row going"
                    .into(),
            );
        }
        Ok(())
    }
}
