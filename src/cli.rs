//! Command-line pieces both binaries share: the flags that choose a variant
//! are the same wherever a variant is chosen (`kete perft`, `kete bench`,
//! `kete-arena`, …).

use clap::Args;

use crate::variants::Variant;

/// `--variant` and its options.
#[derive(Args, Clone, Debug)]
pub struct VariantArgs {
    /// kalah (alias mancala), oware (alias awari), endodoi, bao-kujifunza or
    /// bao-kiswahili.
    #[arg(long, default_value = "kalah")]
    pub variant: String,
    /// Pits (houses, holes) per row.
    #[arg(long)]
    pub pits: Option<String>,
    /// Seeds per pit at the start.
    #[arg(long)]
    pub seeds: Option<String>,
    /// Kalah: standard or empty.
    #[arg(long)]
    pub capture: Option<String>,
    /// Oware: awari or abapa.
    #[arg(long)]
    pub rules: Option<String>,
    /// Oware: own-side or split.
    #[arg(long)]
    pub repetition: Option<String>,
    /// Any variant option as NAME=VALUE (e.g. Pits=4, or a Bao rule option);
    /// repeatable.
    #[arg(long = "option", value_name = "NAME=VALUE", num_args = 1.., action = clap::ArgAction::Append)]
    pub options: Vec<String>,
}

impl VariantArgs {
    /// The variant with every option given; the error names the option.
    pub fn variant(&self) -> Result<Variant, String> {
        let mut v = Variant::by_name(&self.variant)?;
        let given = [
            ("Pits", &self.pits),
            ("Seeds", &self.seeds),
            ("Capture", &self.capture),
            ("Rules", &self.rules),
            ("Repetition", &self.repetition),
        ];
        for (name, value) in given {
            if let Some(value) = value {
                v.set_option(name, value)?;
            }
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
