//! Which Bao is played, and the points where published rules disagree
//! (`bao.md`, "Disputed points"; `bao-vectors.md` §0.6). Each default is the
//! one `bao.md` documents.

use crate::options::{RuleOption, RuleOptions};

/// The two games.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// Learning Bao: 2 seeds in every pit, no hands, no nyumba.
    Kujifunza,
    /// The full game: namua stage from the hands, nyumba, takasia.
    Kiswahili,
}

/// D1: when a namua takasa may not put the seed into a singleton.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SingletonRule {
    /// Whenever the player has no functional nyumba (Mancala World, lead-1,
    /// AbstractPlay).
    Functional,
    /// Only when he no longer owns one (nkkmd).
    Owned,
}

/// D2: a mtaji takasa lap that ends in a still-functional nyumba.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MtajiTakasaNyumba {
    /// The move ends there (lead-1, KIBA "the move ends during takata").
    Stop,
    /// The nyumba's seeds are sown on and it is lost (AbstractPlay, nkkmd).
    Relay,
}

/// D3: the precondition of a takasia.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TakasiaCheck {
    /// Only if the opponent has no capture, i.e. must takasa too (KIBA, MW).
    OpponentTakasa,
    /// Whether or not the opponent can capture (AbstractPlay).
    Always,
}

/// D4: what the player who set a takasia must do on his next move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TakasiaObligation {
    /// Nothing (K.I.B.A., Mancala World: no rule text asks anything).
    None,
    /// If one of his captures takes the pit he had takasia'd, he must play
    /// such a capture (AbstractPlay: "remove any captures that do not clear
    /// a blocked pit"). Where none does, his moves are not restricted
    /// (interpretation: AbstractPlay's code does not say).
    Clear,
}

/// D6: whether a single-seed pit can be takasia'd.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TakasiaSingleton {
    /// No (de Voogt 2001).
    Exempt,
    /// Yes.
    Blockable,
}

/// D6: a lap, sown from the blocked player's own nyumba, that ends in the
/// takasia'd pit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TakasiaNyumbaLap {
    /// It goes on as a relay if it is the first lap sown from his owned
    /// nyumba (de Voogt 1995, Mancala World, AbstractPlay, lead-1).
    Continues,
    /// It stops like any other (nkkmd).
    Stops,
}

/// D9: emptying one's own front row during a takasa.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FrontRow {
    /// Never, not even for a moment: a takasa any of whose laps ends with the
    /// mover's front row empty is illegal (Mancala World).
    NeverEmpty,
    /// Only a lone kichwa sown toward the back row is illegal (Donkers
    /// 3.5b); a move whose lap leaves the front row empty loses at once
    /// (Donkers 1.2).
    KichwaOnly,
}

/// The nyumba with fewer than 6 seeds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dormant {
    /// Dormant; it works again once it holds 6 or more (Mancala World).
    Revives,
    /// Lost for good as soon as it holds fewer than 6 after a move.
    Lost,
}

/// The rules of one Bao game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BaoRules {
    pub kind: Kind,
    pub singleton: SingletonRule,
    pub mtaji_takasa_nyumba: MtajiTakasaNyumba,
    pub takasia_check: TakasiaCheck,
    pub takasia_obligation: TakasiaObligation,
    /// D5: takasia also in Bao la Kujifunza (AbstractPlay); default no.
    pub takasia_kujifunza: bool,
    pub takasia_singleton: TakasiaSingleton,
    pub takasia_nyumba_lap: TakasiaNyumbaLap,
    pub front_row: FrontRow,
    pub dormant: Dormant,
}

impl BaoRules {
    pub fn new(kind: Kind) -> BaoRules {
        BaoRules {
            kind,
            singleton: SingletonRule::Functional,
            mtaji_takasa_nyumba: MtajiTakasaNyumba::Stop,
            takasia_check: TakasiaCheck::OpponentTakasa,
            takasia_obligation: TakasiaObligation::None,
            takasia_kujifunza: false,
            takasia_singleton: TakasiaSingleton::Exempt,
            takasia_nyumba_lap: TakasiaNyumbaLap::Continues,
            front_row: FrontRow::NeverEmpty,
            dormant: Dormant::Revives,
        }
    }

    pub fn kiswahili() -> BaoRules {
        BaoRules::new(Kind::Kiswahili)
    }

    pub fn kujifunza() -> BaoRules {
        BaoRules::new(Kind::Kujifunza)
    }

    /// Whether takasia is played under these rules (D5).
    pub fn takasia(&self) -> bool {
        self.kind == Kind::Kiswahili || self.takasia_kujifunza
    }

    /// A few bits that tell rule sets apart, for position hashes.
    pub(crate) fn code(&self) -> u64 {
        (self.kind as u64)
            | (self.singleton as u64) << 1
            | (self.mtaji_takasa_nyumba as u64) << 2
            | (self.takasia_check as u64) << 3
            | (self.takasia_kujifunza as u64) << 4
            | (self.takasia_singleton as u64) << 5
            | (self.takasia_nyumba_lap as u64) << 6
            | (self.front_row as u64) << 7
            | (self.dormant as u64) << 8
            | (self.takasia_obligation as u64) << 9
    }
}

/// The disputed points as options, each default first (the value
/// [`BaoRules::new`] gives).
impl RuleOptions for BaoRules {
    const OPTIONS: &'static [RuleOption<Self>] = &[
        crate::combo_option!(BaoRules, "SingletonRule", singleton,
            ["functional" ("whenever his nyumba does not work") => SingletonRule::Functional,
             "owned" ("only once he has lost his nyumba") => SingletonRule::Owned],
            label: "Namua seed and single-seed pits",
            help: "when a namua takasa may not put its seed into a pit holding one seed (D1)",
            advanced: true),
        crate::combo_option!(BaoRules, "MtajiTakasaNyumba", mtaji_takasa_nyumba,
            ["stop" ("the move stops there") => MtajiTakasaNyumba::Stop,
             "relay" ("its seeds are sown on and it is lost") => MtajiTakasaNyumba::Relay],
            label: "Mtaji takasa ending in a working nyumba",
            help: "what a mtaji takasa lap that ends in a still working nyumba does (D2)",
            advanced: true),
        crate::combo_option!(BaoRules, "TakasiaCheck", takasia_check,
            ["opponent-takasa" ("only when the opponent cannot capture") => TakasiaCheck::OpponentTakasa,
             "always" ("whether or not he can capture") => TakasiaCheck::Always],
            label: "When a takasia blocks",
            help: "when a takasa blocks the one opponent pit it threatens (D3)",
            advanced: true),
        crate::combo_option!(BaoRules, "TakasiaObligation", takasia_obligation,
            ["none" ("nothing") => TakasiaObligation::None,
             "clear" ("he must capture the blocked pit if he can") => TakasiaObligation::Clear],
            label: "After blocking a pit",
            help: "what the player who blocked a pit must do on his next move (D4)",
            advanced: true),
        crate::combo_option!(BaoRules, "TakasiaKujifunza", takasia_kujifunza,
            ["no" ("no") => false, "yes" ("yes") => true],
            label: "Takasia in Bao la Kujifunza",
            help: "whether takasa blocks pits in the learners' game too (D5)",
            advanced: true),
        crate::combo_option!(BaoRules, "TakasiaSingleton", takasia_singleton,
            ["exempt" ("no") => TakasiaSingleton::Exempt,
             "blockable" ("yes") => TakasiaSingleton::Blockable],
            label: "Single-seed pits blockable",
            help: "whether a pit holding one seed can be blocked by a takasia (D6)",
            advanced: true),
        crate::combo_option!(BaoRules, "TakasiaNyumbaLap", takasia_nyumba_lap,
            ["continues" ("it goes on") => TakasiaNyumbaLap::Continues,
             "stops" ("it stops") => TakasiaNyumbaLap::Stops],
            label: "First nyumba lap into a blocked pit",
            help: "whether the first lap sown from one's own nyumba goes on through a blocked pit (D6)",
            advanced: true),
        crate::combo_option!(BaoRules, "FrontRow", front_row,
            ["never-empty" ("never, not even mid-move") => FrontRow::NeverEmpty,
             "kichwa-only" ("only a lone kichwa sown back is refused") => FrontRow::KichwaOnly],
            label: "Emptying one's own front row",
            help: "when a takasa may not empty the mover's own front row (D9)",
            advanced: true),
        crate::combo_option!(BaoRules, "Dormant", dormant,
            ["revives" ("it works again at 6 seeds") => Dormant::Revives,
             "lost" ("it is lost for good") => Dormant::Lost],
            label: "A nyumba below 6 seeds",
            help: "whether a nyumba that falls below 6 seeds works again once it holds 6",
            advanced: true),
    ];
}
