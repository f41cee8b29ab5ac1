//! The descriptions kete knows: the built-in files of `games/` and the
//! files a user loads (`--variant file:PATH`, the `VariantFile` option).
//! Each is compiled once and kept for the life of the process.

use super::rules::Rules;
use super::spec::{Spec, SpecError};
use parking_lot::RwLock;
use std::sync::LazyLock;

/// The built-in descriptions, by file name.
pub const BUILT_IN: &[(&str, &str)] = &[
    ("mangala.toml", include_str!("games/mangala.toml")),
    (
        "das-bohnenspiel.toml",
        include_str!("games/das-bohnenspiel.toml"),
    ),
    ("sungka.toml", include_str!("games/sungka.toml")),
    ("chongka.toml", include_str!("games/chongka.toml")),
    ("galatjang.toml", include_str!("games/galatjang.toml")),
    ("jodu.toml", include_str!("games/jodu.toml")),
    (
        "vai-lung-thlan.toml",
        include_str!("games/vai-lung-thlan.toml"),
    ),
    ("um-el-bagara.toml", include_str!("games/um-el-bagara.toml")),
    ("french-wari.toml", include_str!("games/french-wari.toml")),
    ("mangala-1979.toml", include_str!("games/mangala-1979.toml")),
    ("ayoayo.toml", include_str!("games/ayoayo.toml")),
    ("ouril.toml", include_str!("games/ouril.toml")),
    ("wari-1927.toml", include_str!("games/wari-1927.toml")),
    ("halusa.toml", include_str!("games/halusa.toml")),
    ("enindji.toml", include_str!("games/enindji.toml")),
    ("sonka.toml", include_str!("games/sonka.toml")),
    ("meusueb.toml", include_str!("games/meusueb.toml")),
    ("wouri.toml", include_str!("games/wouri.toml")),
    (
        "gabata-ansaba.toml",
        include_str!("games/gabata-ansaba.toml"),
    ),
    ("english-wari.toml", include_str!("games/english-wari.toml")),
    ("adjiboto.toml", include_str!("games/adjiboto.toml")),
    ("o-an-quan.toml", include_str!("games/o-an-quan.toml")),
    ("congkak.toml", include_str!("games/congkak.toml")),
    ("pallanguzhi.toml", include_str!("games/pallanguzhi.toml")),
    ("dakon.toml", include_str!("games/dakon.toml")),
];

static BUILT: LazyLock<Vec<&'static Rules>> = LazyLock::new(|| {
    BUILT_IN
        .iter()
        .map(|(file, text)| {
            let rules = compile(text).unwrap_or_else(|e| panic!("built-in {file}: {e}"));
            &*Box::leak(Box::new(rules))
        })
        .collect()
});

/// Descriptions loaded from files, newest last.
static LOADED: RwLock<Vec<&'static Rules>> = RwLock::new(Vec::new());

/// Reads and compiles a description.
pub fn compile(text: &str) -> Result<Rules, SpecError> {
    let spec = Spec::parse(text)?;
    Rules::compile(spec, text.to_string())
}

/// The built-in described games, in the order of [`BUILT_IN`].
pub fn built_in() -> &'static [&'static Rules] {
    &BUILT
}

/// A game name as people write it, made comparable: lower case, spaces
/// and underscores as hyphens, the common diacritics of the games' names
/// dropped ("Ô ăn quan" is "o-an-quan").
pub fn normalise(name: &str) -> String {
    let mut out = String::new();
    for c in name.trim().chars().flat_map(char::to_lowercase) {
        let c = match c {
            'à' | 'á' | 'â' | 'ã' | 'ä' | 'å' | 'ă' | 'ạ' | 'ả' | 'ấ' | 'ầ' | 'ẩ' | 'ẫ' | 'ậ'
            | 'ắ' | 'ằ' | 'ẳ' | 'ẵ' | 'ặ' => 'a',
            'è' | 'é' | 'ê' | 'ë' | 'ẹ' | 'ẻ' | 'ẽ' | 'ế' | 'ề' | 'ể' | 'ễ' | 'ệ' => {
                'e'
            }
            'ì' | 'í' | 'î' | 'ï' | 'ı' | 'ị' | 'ỉ' | 'ĩ' => 'i',
            'ò' | 'ó' | 'ô' | 'õ' | 'ö' | 'ơ' | 'ọ' | 'ỏ' | 'ố' | 'ồ' | 'ổ' | 'ỗ' | 'ộ' | 'ớ'
            | 'ờ' | 'ở' | 'ỡ' | 'ợ' => 'o',
            'ù' | 'ú' | 'û' | 'ü' | 'ư' | 'ụ' | 'ủ' | 'ũ' | 'ứ' | 'ừ' | 'ử' | 'ữ' | 'ự' => {
                'u'
            }
            'ç' => 'c',
            'ğ' => 'g',
            'ş' => 's',
            'đ' => 'd',
            'ñ' => 'n',
            ' ' | '_' | '\t' => '-',
            '\'' | '’' | '.' | '(' | ')' => continue,
            c => c,
        };
        if c == '-' && (out.is_empty() || out.ends_with('-')) {
            continue;
        }
        out.push(c);
    }
    while out.ends_with('-') {
        out.pop();
    }
    out
}

fn answers_to(r: &Rules, wanted: &str) -> bool {
    let g = &r.spec.game;
    normalise(&g.name) == wanted
        || g.aliases.iter().any(|a| normalise(a) == wanted)
        || normalise(&g.title) == wanted
        || g.native.as_deref().is_some_and(|n| normalise(n) == wanted)
}

/// The described game called `name` (its name, an alias, its title or its
/// name in its own language, in any spelling [`normalise`] makes equal):
/// a built-in one first, then the newest loaded from a file.
pub fn by_name(name: &str) -> Option<&'static Rules> {
    let wanted = normalise(name);
    if wanted.is_empty() {
        return None;
    }
    built_in()
        .iter()
        .copied()
        .find(|r| answers_to(r, &wanted))
        .or_else(|| {
            LOADED
                .read()
                .iter()
                .rev()
                .copied()
                .find(|r| answers_to(r, &wanted))
        })
}

/// Every name a built-in described game answers to besides its own, as
/// written in its file (for lists of aliases).
pub fn aliases(r: &Rules) -> Vec<String> {
    r.spec.game.aliases.clone()
}

/// Compiles `text` (read from `origin`, for messages) as a user's game and
/// keeps it. A name that a built-in game already answers to is refused; the
/// same text loaded again is the same game.
pub fn load(text: &str, origin: &str) -> Result<&'static Rules, String> {
    load_as(text, origin, None)
}

/// [`load`], remembering the file the text came from.
fn load_as(text: &str, origin: &str, file: Option<String>) -> Result<&'static Rules, String> {
    let mut rules = compile(text).map_err(|e| format!("{origin}: {e}"))?;
    rules.file = file;
    let name = normalise(&rules.spec.game.name);
    if built_in().iter().any(|r| answers_to(r, &name)) {
        return Err(format!(
            "{origin}: [game] name = \"{}\" is a built-in game's name; give the file's game a name of its own",
            rules.spec.game.name
        ));
    }
    let mut loaded = LOADED.write();
    if let Some(same) = loaded
        .iter()
        .find(|r| r.text == text && r.file == rules.file)
    {
        return Ok(same);
    }
    let rules: &'static Rules = Box::leak(Box::new(rules));
    loaded.push(rules);
    Ok(rules)
}

/// Reads the file at `path` and [`load`]s it.
pub fn load_file(path: &str) -> Result<&'static Rules, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read the description {path}: {e}"))?;
    let absolute = std::fs::canonicalize(path)
        .map(|p| p.to_string_lossy().into_owned())
        .unwrap_or_else(|_| path.to_string());
    load_as(&text, path, Some(absolute))
}
