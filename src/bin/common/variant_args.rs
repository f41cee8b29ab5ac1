//! Command-line pieces both binaries share: the flags that choose a variant
//! are the same wherever a variant is chosen (`kete perft`, `kete bench`,
//! `kete-arena`, …). The option flags (`--pits`, `--capture`, …) are those
//! the variants' options tables declare, so a game's new option with a
//! flag appears here without a change to this file.

use clap::{Arg, ArgAction, ArgMatches, Args, Command, FromArgMatches};

use kete::variants::{OptionKind, VARIANT_NAMES, Variant};

/// The variants' other names, as `--variant` and the `Variant` option take
/// them (tests/cli.rs checks each against the registry).
pub const ALIASES: &str = "mancala (kalah), awari and awale (oware), en-dodoi (endodoi), kujifunza (bao-kujifunza), bao and kiswahili (bao-kiswahili), togyz, togyzkumalak, togyz-qumalaq and toguz-korgool (togyz-kumalak)";

/// The help of `-o`/`--option`: a variant option here, any option for the
/// engine (`kete -o Hash=64`), which reads the same flag.
const OPTION_HELP: &str = "A variant option as NAME=VALUE (e.g. Pits=4, or a Bao rule option); for the engine itself (kete without a subcommand) any engine option too (e.g. -o Hash=64 -o Ponder=true); repeatable";

/// `--variant` and its options.
#[derive(Clone, Debug, Default)]
pub struct VariantArgs {
    /// The variant's name as given.
    pub variant: String,
    /// The option flags given, as (flag, value), in the order of
    /// [`option_flags`].
    pub flags: Vec<(&'static str, String)>,
    /// `--option NAME=VALUE`, in the order given.
    pub options: Vec<String>,
    /// Whether the command line named a variant or an option at all (the
    /// variant is `kalah` by default).
    pub given: bool,
}

/// One option flag: what the variants that have it say about it.
pub struct OptionFlag {
    pub flag: &'static str,
    /// The option's name in the first variant that has the flag.
    pub option: &'static str,
    /// Its help, with the values each variant accepts.
    pub help: String,
}

/// Every flag the variants' options tables declare, in the order of the
/// variants and their tables.
pub fn option_flags() -> Vec<OptionFlag> {
    let mut flags: Vec<(OptionFlag, Vec<String>)> = Vec::new();
    for name in VARIANT_NAMES {
        for o in Variant::by_name(name).expect("known variant").options() {
            let Some(flag) = o.flag else { continue };
            let accepts = match o.kind {
                OptionKind::Spin { min, max, .. } => format!("{name} {min}..{max}"),
                OptionKind::Combo { values, .. } => format!("{name} {}", values.join("|")),
            };
            match flags.iter_mut().find(|(f, _)| f.flag == flag) {
                Some((_, by_variant)) => by_variant.push(accepts),
                None => flags.push((
                    OptionFlag {
                        flag,
                        option: o.name,
                        help: o.help.to_string(),
                    },
                    vec![accepts],
                )),
            }
        }
    }
    flags
        .into_iter()
        .map(|(mut f, by_variant)| {
            f.help = format!("{}: {}", f.help, by_variant.join(", "));
            f
        })
        .collect()
}

impl Args for VariantArgs {
    fn augment_args(cmd: Command) -> Command {
        let mut cmd = cmd.arg(
            Arg::new("variant")
                .long("variant")
                .value_name("VARIANT")
                .default_value("kalah")
                .help(format!(
                    "{} (other names: {ALIASES}); or a described game (`kete variants` lists them), or file:PATH, a description file",
                    VARIANT_NAMES.join(", ")
                )),
        );
        for f in option_flags() {
            // clap keeps names as `&'static str`; these are made once per
            // command line.
            let value_name: &'static str = Box::leak(f.flag.to_uppercase().into_boxed_str());
            cmd = cmd.arg(
                Arg::new(f.flag)
                    .long(f.flag)
                    .value_name(value_name)
                    .help(f.help),
            );
        }
        cmd.arg(
            Arg::new("options")
                .long("option")
                .short('o')
                .value_name("NAME=VALUE")
                .num_args(1..)
                .action(ArgAction::Append)
                .help(OPTION_HELP),
        )
    }

    fn augment_args_for_update(cmd: Command) -> Command {
        Self::augment_args(cmd)
    }
}

impl FromArgMatches for VariantArgs {
    fn from_arg_matches(m: &ArgMatches) -> Result<Self, clap::Error> {
        let mut args = VariantArgs::default();
        args.update_from_arg_matches(m)?;
        Ok(args)
    }

    fn update_from_arg_matches(&mut self, m: &ArgMatches) -> Result<(), clap::Error> {
        if let Some(v) = m.get_one::<String>("variant") {
            self.variant = v.clone();
        }
        let on_line = |id: &str| m.value_source(id) == Some(clap::parser::ValueSource::CommandLine);
        self.given |= on_line("variant")
            || on_line("options")
            || option_flags().iter().any(|f| on_line(f.flag));
        for f in option_flags() {
            if let Some(v) = m.get_one::<String>(f.flag) {
                self.flags.retain(|(g, _)| *g != f.flag);
                self.flags.push((f.flag, v.clone()));
            }
        }
        if let Some(v) = m.get_many::<String>("options") {
            self.options = v.cloned().collect();
        }
        Ok(())
    }
}

/// The option `variant` sets with `flag`; for a variant without it, the
/// option's usual name, by which the variant then refuses it.
fn option_of(variant: &Variant, flag: &'static str) -> &'static str {
    variant
        .options()
        .iter()
        .find(|o| o.flag == Some(flag))
        .map(|o| o.name)
        .or_else(|| {
            option_flags()
                .into_iter()
                .find(|f| f.flag == flag)
                .map(|f| f.option)
        })
        .unwrap_or(flag)
}

impl VariantArgs {
    /// What the command line sets, as `setoption` name and value pairs in
    /// order: the variant (if named), the option flags by their option's
    /// name, then every `--option` (the engine takes any of its options
    /// there). Nothing when the command line named nothing. (kete-arena,
    /// which shares this file, sets its engines' options its own way.)
    #[allow(dead_code)]
    pub fn settings(&self) -> Result<Vec<(String, String)>, String> {
        if !self.given {
            return Ok(Vec::new());
        }
        let v = Variant::by_name(&self.variant)?;
        let mut out = vec![("Variant".to_string(), v.name().to_string())];
        for (flag, value) in &self.flags {
            out.push((option_of(&v, flag).to_string(), value.clone()));
        }
        for option in &self.options {
            let (name, value) = option
                .split_once('=')
                .ok_or_else(|| format!("--option takes NAME=VALUE, got '{option}'"))?;
            out.push((name.trim().to_string(), value.to_string()));
        }
        Ok(out)
    }

    /// The variant with every option given; the error names the option.
    pub fn variant(&self) -> Result<Variant, String> {
        let mut v = Variant::by_name(&self.variant)?;
        for (flag, value) in &self.flags {
            v.set_option(option_of(&v, flag), value)?;
        }
        for option in &self.options {
            let (name, value) = option
                .split_once('=')
                .ok_or_else(|| format!("--option takes NAME=VALUE, got '{option}'"))?;
            v.set_option(name, value)?;
        }
        Ok(v)
    }
}
