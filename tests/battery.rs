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
fn battery_covers_every_registered_variant() {
    // A variant added to the registry but not to the tests below fails here.
    assert_eq!(
        VARIANT_NAMES,
        &[
            "kalah",
            "oware",
            "endodoi",
            "bao-kujifunza",
            "bao-kiswahili"
        ]
    );
}

#[test]
fn battery_kalah() {
    run("kalah");
}

#[test]
fn battery_oware() {
    run("oware");
}

#[test]
fn battery_endodoi() {
    run("endodoi");
}

#[test]
fn battery_bao_kujifunza() {
    run("bao-kujifunza");
}

#[test]
fn battery_bao_kiswahili() {
    run("bao-kiswahili");
}
