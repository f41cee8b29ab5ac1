//! The generic battery of `common::battery` for every variant, under its
//! default rules and under every value of every rule option the variant
//! lists (the number options at their least, default and largest values),
//! each option changed alone.

use kete::game::Game;
use kete::variants::{VARIANT_NAMES, VariantVisitor};

mod common;
use common::battery::{Effort, check_game, settings};

struct Battery {
    seed: u64,
    effort: Effort,
}

impl VariantVisitor for Battery {
    type Output = ();

    fn visit<G: Game>(self, rules: G::Rules) {
        let c = check_game::<G>(&rules, self.seed, self.effort);
        eprintln!("  {c:?}");
        // The games really were played.
        assert!(c.positions > self.effort.games && c.move_texts > 0, "{c:?}");
    }
}

fn run(name: &str) {
    // Fewer and shorter games in unoptimised builds.
    let effort = if cfg!(debug_assertions) {
        Effort {
            games: 1,
            plies: 40,
            perft_depth: 2,
        }
    } else {
        Effort::default()
    };
    for (i, (label, variant)) in settings(name).into_iter().enumerate() {
        eprintln!("{label}");
        variant.visit(Battery {
            seed: 0x5EED_0000 + i as u64,
            effort,
        });
    }
}

#[test]
fn battery_of_every_registered_variant() {
    // The list is the registry's: a game added there is checked here with
    // no change to this file.
    for name in VARIANT_NAMES {
        run(name);
    }
}

#[test]
fn battery_of_every_described_game() {
    // The built-in descriptions, then Kalah and Oware written as
    // descriptions (examples/descriptions/).
    let mut names: Vec<String> = kete::variants::described_names()
        .map(|n| n.to_string())
        .collect();
    let examples = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/descriptions");
    let mut files: Vec<_> = std::fs::read_dir(examples)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    names.extend(files.iter().map(|f| format!("file:{}", f.display())));
    assert!(names.len() > 4, "{names:?}");
    for (i, name) in names.iter().enumerate() {
        eprintln!("{name}");
        let v = kete::variants::Variant::by_name(name).unwrap();
        v.visit(Battery {
            seed: 0x0DE5_0000 + i as u64,
            effort: Effort::default(),
        });
    }
}
