//! Which Bao is played, and the points where published rules disagree
//! (`bao.md`, "Disputed points"; `bao-vectors.md` §0.6). Each default is the
//! one `bao.md` documents.

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

    /// The rule options as the protocol names them, with their values.
    pub fn option_values(&self) -> Vec<(&'static str, String)> {
        let v = |s: &str| s.to_string();
        vec![
            (
                "SingletonRule",
                v(match self.singleton {
                    SingletonRule::Functional => "functional",
                    SingletonRule::Owned => "owned",
                }),
            ),
            (
                "MtajiTakasaNyumba",
                v(match self.mtaji_takasa_nyumba {
                    MtajiTakasaNyumba::Stop => "stop",
                    MtajiTakasaNyumba::Relay => "relay",
                }),
            ),
            (
                "TakasiaCheck",
                v(match self.takasia_check {
                    TakasiaCheck::OpponentTakasa => "opponent-takasa",
                    TakasiaCheck::Always => "always",
                }),
            ),
            (
                "TakasiaObligation",
                v(match self.takasia_obligation {
                    TakasiaObligation::None => "none",
                    TakasiaObligation::Clear => "clear",
                }),
            ),
            (
                "TakasiaKujifunza",
                v(if self.takasia_kujifunza { "yes" } else { "no" }),
            ),
            (
                "TakasiaSingleton",
                v(match self.takasia_singleton {
                    TakasiaSingleton::Exempt => "exempt",
                    TakasiaSingleton::Blockable => "blockable",
                }),
            ),
            (
                "TakasiaNyumbaLap",
                v(match self.takasia_nyumba_lap {
                    TakasiaNyumbaLap::Continues => "continues",
                    TakasiaNyumbaLap::Stops => "stops",
                }),
            ),
            (
                "FrontRow",
                v(match self.front_row {
                    FrontRow::NeverEmpty => "never-empty",
                    FrontRow::KichwaOnly => "kichwa-only",
                }),
            ),
            (
                "Dormant",
                v(match self.dormant {
                    Dormant::Revives => "revives",
                    Dormant::Lost => "lost",
                }),
            ),
        ]
    }

    /// The values each option accepts, the default first.
    pub fn option_choices() -> &'static [(&'static str, &'static [&'static str])] {
        &[
            ("SingletonRule", &["functional", "owned"]),
            ("MtajiTakasaNyumba", &["stop", "relay"]),
            ("TakasiaCheck", &["opponent-takasa", "always"]),
            ("TakasiaObligation", &["none", "clear"]),
            ("TakasiaKujifunza", &["no", "yes"]),
            ("TakasiaSingleton", &["exempt", "blockable"]),
            ("TakasiaNyumbaLap", &["continues", "stops"]),
            ("FrontRow", &["never-empty", "kichwa-only"]),
            ("Dormant", &["revives", "lost"]),
        ]
    }

    /// Sets the option `name` (case-insensitive); `Ok(false)` if there is no
    /// such option.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<bool, String> {
        let key = name.trim().to_ascii_lowercase();
        let Some((canon, values)) = Self::option_choices()
            .iter()
            .find(|(n, _)| n.to_ascii_lowercase() == key)
        else {
            return Ok(false);
        };
        let lower = value.trim().to_ascii_lowercase();
        let Some(i) = values.iter().position(|v| *v == lower) else {
            return Err(format!(
                "{canon} must be {}, got '{}'",
                values.join(" or "),
                value.trim()
            ));
        };
        let first = i == 0;
        match *canon {
            "SingletonRule" => {
                self.singleton = if first {
                    SingletonRule::Functional
                } else {
                    SingletonRule::Owned
                }
            }
            "MtajiTakasaNyumba" => {
                self.mtaji_takasa_nyumba = if first {
                    MtajiTakasaNyumba::Stop
                } else {
                    MtajiTakasaNyumba::Relay
                }
            }
            "TakasiaCheck" => {
                self.takasia_check = if first {
                    TakasiaCheck::OpponentTakasa
                } else {
                    TakasiaCheck::Always
                }
            }
            "TakasiaObligation" => {
                self.takasia_obligation = if first {
                    TakasiaObligation::None
                } else {
                    TakasiaObligation::Clear
                }
            }
            "TakasiaKujifunza" => self.takasia_kujifunza = !first,
            "TakasiaSingleton" => {
                self.takasia_singleton = if first {
                    TakasiaSingleton::Exempt
                } else {
                    TakasiaSingleton::Blockable
                }
            }
            "TakasiaNyumbaLap" => {
                self.takasia_nyumba_lap = if first {
                    TakasiaNyumbaLap::Continues
                } else {
                    TakasiaNyumbaLap::Stops
                }
            }
            "FrontRow" => {
                self.front_row = if first {
                    FrontRow::NeverEmpty
                } else {
                    FrontRow::KichwaOnly
                }
            }
            _ => {
                self.dormant = if first {
                    Dormant::Revives
                } else {
                    Dormant::Lost
                }
            }
        }
        Ok(true)
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
