//! The record file: one JSON object per finished game, one line each,
//! appended and flushed as soon as the game ends, so that a killed runner
//! loses no finished game and a rerun knows what is left to play.

use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::ArenaError;
use crate::game::GameResult;

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Termination {
    /// By the rules of the variant (repetition included).
    Rules,
    /// Stopped at the maximum length and scored by the seed count.
    Adjudication,
    /// The engine's process ended or closed its pipes during the game.
    Crash,
    /// No `bestmove` in time (clock plus margin, `st` plus margin, or the
    /// hang time-out).
    Timeout,
    /// A move that is unparsable or illegal in the position.
    Illegal,
    /// The engine did not start, or did not answer `ugi`/`uci` or `isready`.
    Handshake,
}

impl Termination {
    pub fn as_str(self) -> &'static str {
        match self {
            Termination::Rules => "rules",
            Termination::Adjudication => "adjudication",
            Termination::Crash => "crash",
            Termination::Timeout => "timeout",
            Termination::Illegal => "illegal",
            Termination::Handshake => "handshake",
        }
    }

    /// How a failure reads in a reason: "crashed", "lost on time", ….
    pub fn phrase(self) -> &'static str {
        match self {
            Termination::Rules => "game over by the rules",
            Termination::Adjudication => "adjudicated",
            Termination::Crash => "crashed",
            Termination::Timeout => "lost on time",
            Termination::Illegal => "illegal move",
            Termination::Handshake => "broken handshake",
        }
    }

    /// Whether an engine's failure decided the game.
    pub fn is_failure(self) -> bool {
        !matches!(self, Termination::Rules | Termination::Adjudication)
    }
}

/// One move as played.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MoveLine {
    /// The move in the variant's canonical notation.
    #[serde(rename = "move")]
    pub mv: String,
    /// Wall time from `go` to `bestmove`, in milliseconds (to the
    /// microsecond: fixed-depth moves often take less than one).
    pub ms: f64,
    /// The engine's last reported score before the move (`cp 25`,
    /// `mate -3`), from the mover's point of view, as the engine said it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub depth: Option<u32>,
    /// The mover: `S` (South, player 1) or `N`. Absent in older records.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<char>,
    /// The longest the move could take without being late, in milliseconds:
    /// its `st`, or the clock left when it was asked for (the margin not
    /// counted). Absent when only depth or nodes bounded it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit_ms: Option<f64>,
    /// The engine pondered on this move and the opponent played the reply
    /// it expected: the move came after `ponderhit` (`ms` counts from it).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub ponderhit: bool,
}

/// Where a game started.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpeningLine {
    /// The opening's number in the tournament's list.
    pub index: usize,
    /// The start position, when not the variant's own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fen: Option<String>,
    /// The opening moves, played by the runner before the engines take over.
    pub moves: Vec<String>,
}

/// One finished game: a line of `games.jsonl`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameLine {
    /// The game's place in the schedule (from 0); what resuming keys on.
    pub id: usize,
    pub round: usize,
    /// The game pair (one opening, colours swapped) this game belongs to.
    pub pair: usize,
    /// The engine playing South (player 1, moves first).
    pub south: String,
    pub north: String,
    pub variant: String,
    /// Every option of the variant with its value.
    pub options: BTreeMap<String, String>,
    pub opening: OpeningLine,
    pub moves: Vec<MoveLine>,
    /// `p1win`, `p2win` or `draw`, as `query result` spells it.
    pub result: String,
    pub termination: Termination,
    /// For a game the rules ended: why, in one word (`empty-row`,
    /// `majority`, `repetition`, … as `query reason` gives it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end: Option<String>,
    /// A sentence that explains the result.
    pub reason: String,
    /// The engine whose failure decided the game, if one did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub offender: Option<String>,
    /// Final seed counts (South, North) where the variant counts seeds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seeds: Option<(u32, u32)>,
    /// The last position, in the variant's notation.
    pub final_position: String,
    /// The settings of the two engines (South's, then North's) as
    /// `EngineConfig::settings` lists them: a resumed tournament refuses a
    /// record whose engines were set up differently. Records written before
    /// kete kept them have none and are not checked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engines: Option<[BTreeMap<String, String>; 2]>,
}

impl GameLine {
    pub fn game_result(&self) -> Option<GameResult> {
        match self.result.as_str() {
            "p1win" => Some(GameResult::P1Win),
            "p2win" => Some(GameResult::P2Win),
            "draw" => Some(GameResult::Draw),
            _ => None,
        }
    }

    /// Points of `name` in this game (1, ½, 0), `None` if it did not play.
    pub fn points_of(&self, name: &str) -> Option<f64> {
        let result = self.game_result()?;
        let side = if self.south == name {
            crate::game::Side::South
        } else if self.north == name {
            crate::game::Side::North
        } else {
            return None;
        };
        Some(match result.winner() {
            None => 0.5,
            Some(w) if w == side => 1.0,
            Some(_) => 0.0,
        })
    }
}

/// Reads the games of a record file without changing it. A last line
/// without its end (a write cut short) is left out, as [`RecordFile::open`]
/// would cut it; a missing file holds no games.
pub fn read(path: &Path) -> Result<Vec<GameLine>, ArenaError> {
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(e) => return Err(ArenaError::io(format!("cannot read {}", path.display()), e)),
    };
    Ok(parse(path, &bytes)?.0)
}

/// The games of the complete lines of `bytes` (the contents of a record
/// file), as [`read`] reads them.
pub fn parse_bytes(bytes: &[u8]) -> Result<Vec<GameLine>, ArenaError> {
    Ok(parse(Path::new("games.jsonl"), bytes)?.0)
}

/// The games of the complete lines of `bytes`, and where those lines end.
fn parse(path: &Path, bytes: &[u8]) -> Result<(Vec<GameLine>, usize), ArenaError> {
    let complete = match bytes.iter().rposition(|&b| b == b'\n') {
        Some(i) => i + 1,
        None => 0,
    };
    let mut games = Vec::new();
    for (n, line) in bytes[..complete].split(|&b| b == b'\n').enumerate() {
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let game: GameLine = serde_json::from_slice(line).map_err(|e| ArenaError::Records {
            path: path.to_path_buf(),
            line: n + 1,
            message: format!("not a game record: {e}"),
        })?;
        if game.game_result().is_none() {
            return Err(ArenaError::Records {
                path: path.to_path_buf(),
                line: n + 1,
                message: format!("unknown result '{}'", game.result),
            });
        }
        games.push(game);
    }
    Ok((games, complete))
}

/// The record file of a tournament, open for appending.
pub struct RecordFile {
    path: PathBuf,
    file: File,
}

impl RecordFile {
    /// Opens (or creates) the file and reads the games already in it. A last
    /// line without its end — a write cut short by a kill — is cut off the
    /// file, since its game was not finished as far as the file knows; any
    /// other line that is not a game is an error, not something to lose.
    pub fn open(path: &Path) -> Result<(RecordFile, Vec<GameLine>), ArenaError> {
        let mut file = OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .open(path)
            .map_err(|e| ArenaError::io(format!("cannot open {}", path.display()), e))?;
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes)
            .map_err(|e| ArenaError::io(format!("cannot read {}", path.display()), e))?;
        let (games, complete) = parse(path, &bytes)?;
        if complete < bytes.len() {
            file.set_len(complete as u64).map_err(|e| {
                ArenaError::io(
                    format!("cannot cut the torn last line of {}", path.display()),
                    e,
                )
            })?;
            file.seek(SeekFrom::End(0))
                .map_err(|e| ArenaError::io(format!("cannot seek {}", path.display()), e))?;
        }
        Ok((
            RecordFile {
                path: path.to_path_buf(),
                file,
            },
            games,
        ))
    }

    /// Appends one game as one line and hands it to the system at once.
    pub fn append(&mut self, game: &GameLine) -> Result<(), ArenaError> {
        let mut line = serde_json::to_vec(game)
            .map_err(|e| ArenaError::io("cannot encode a game record", std::io::Error::other(e)))?;
        line.push(b'\n');
        // One write of the whole line keeps lines whole even if the runner
        // dies between games.
        self.file
            .write_all(&line)
            .and_then(|_| self.file.flush())
            .map_err(|e| ArenaError::io(format!("cannot write {}", self.path.display()), e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(id: usize) -> GameLine {
        GameLine {
            id,
            round: 0,
            pair: id / 2,
            south: "A".into(),
            north: "B".into(),
            variant: "kalah".into(),
            options: [("Pits".to_string(), "6".to_string())].into(),
            opening: OpeningLine {
                index: 0,
                fen: None,
                moves: vec!["C".into()],
            },
            moves: vec![MoveLine {
                mv: "f".into(),
                ms: 3.25,
                score: Some("cp 100".into()),
                depth: Some(2),
                side: Some('S'),
                limit_ms: Some(1000.0),
                ponderhit: false,
            }],
            result: "p1win".into(),
            termination: Termination::Rules,
            end: Some("empty-row".into()),
            reason: "game over".into(),
            offender: None,
            seeds: Some((30, 18)),
            final_position: "0-0-0-0-0-0-0-0-0-0-0-0-30-18-N".into(),
            engines: None,
        }
    }

    #[test]
    fn a_torn_last_line_is_cut_and_the_rest_kept() {
        let dir = std::env::temp_dir().join(format!("kete-record-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("games.jsonl");
        let _ = std::fs::remove_file(&path);
        {
            let (mut f, games) = RecordFile::open(&path).unwrap();
            assert!(games.is_empty());
            f.append(&game(0)).unwrap();
            f.append(&game(1)).unwrap();
        }
        let mut text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains(r#""move":"f""#));
        text.push_str(r#"{"id":2,"round":0,"pa"#);
        std::fs::write(&path, &text).unwrap();
        let (mut f, games) = RecordFile::open(&path).unwrap();
        assert_eq!(games, vec![game(0), game(1)]);
        f.append(&game(2)).unwrap();
        let (_, games) = RecordFile::open(&path).unwrap();
        assert_eq!(games.len(), 3);
        assert_eq!(games[2], game(2));
        // A damaged line in the middle is an error, never silently dropped.
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, format!("garbage\n{text}")).unwrap();
        assert!(RecordFile::open(&path).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
