//! `kete tune`: plays training games and fits a variant's linear evaluation
//! to them, through the library's [`kete::tune`].

use kete::game::{DbSpec, Evaluator, Game};
use kete::tune::{
    Dataset, FitOptions, GenOptions, NetData, NetLabels, NetOptions, Relabelled, database_label,
    fit, generate, load_labelled, load_net, train_net, weights_source,
};

use crate::variant_args::VariantArgs;

/// `kete tune`: its two steps.
#[derive(clap::Subcommand, Debug)]
pub enum TuneCommand {
    /// Play training games and write their positions with the results.
    #[command(
        after_help = "Example: 100 games of Kalah played by the classic evaluation\n  \
kete tune gen --variant kalah --eval classic --games 100 --nodes 5000 --out k.txt"
    )]
    Gen(GenArgs),
    /// Fit the evaluation's weights to a file of training positions.
    #[command(after_help = "Example: the fitted weights as Rust source\n  \
kete tune fit --variant kalah --data k.txt --iterations 3000 --out weights.rs")]
    Fit(FitArgs),
    /// Train the variant's network evaluation on files of training positions.
    #[command(
        after_help = "Example: Oware's network from positions with search scores\n  \
kete tune net --variant oware --rules abapa --data o.txt --egtb ab16.db --out oware.net"
    )]
    Net(NetArgs),
}

#[derive(clap::Args, Debug)]
pub struct TuneArgs {
    #[command(subcommand)]
    pub command: TuneCommand,
}

#[derive(clap::Args, Debug)]
pub struct GenArgs {
    #[command(flatten)]
    pub variant: VariantArgs,
    /// Games to play.
    #[arg(long, default_value_t = 1000)]
    pub games: usize,
    /// Nodes per search.
    #[arg(long, default_value_t = 20_000)]
    pub nodes: u64,
    /// Random moves at the start of each game, LO-HI.
    #[arg(long, default_value = "4-10")]
    pub random_plies: String,
    /// A game still going after this many plies is scored by the seed
    /// count.
    #[arg(long, default_value_t = 300)]
    pub max_plies: usize,
    /// Seed of the random moves: a game depends only on it and its number.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Threads playing games (the file is the same on any number).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Number the games from here (a range of a longer run).
    #[arg(long, default_value_t = 0)]
    pub first: usize,
    /// The evaluator that plays the games (the `Eval` option's names).
    #[arg(long, default_value = "default")]
    pub eval: String,
    /// Write each position's search score (centiseeds for the side to move)
    /// after its points: `<position> <points> <score>`.
    #[arg(long)]
    pub scores: bool,
    /// Where the positions go.
    #[arg(long)]
    pub out: std::path::PathBuf,
}

#[derive(clap::Args, Debug)]
pub struct FitArgs {
    #[command(flatten)]
    pub variant: VariantArgs,
    /// Training positions, as `kete tune gen` writes them; repeatable.
    #[arg(long, required = true)]
    pub data: Vec<std::path::PathBuf>,
    /// Steps of the optimiser (Adam).
    #[arg(long, default_value_t = 2000)]
    pub iterations: usize,
    /// Adam's step in centiseeds.
    #[arg(long, default_value_t = 1.0)]
    pub rate: f64,
    /// The logistic scale in centiseeds (default: fitted to the weights now).
    #[arg(long)]
    pub scale: Option<f64>,
    /// Start from zero weights instead of the variant's weights now, so that
    /// the result depends on the data alone (needs `--scale`).
    #[arg(long, requires = "scale")]
    pub zero: bool,
    /// Threads computing the error and its gradient.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Write the weights as Rust source here (default: standard output).
    #[arg(long)]
    pub out: Option<std::path::PathBuf>,
    /// An endgame database of the variant's rules (`kete egtb build`): the
    /// positions it holds are labelled with their exact result instead of
    /// the game's.
    #[arg(long)]
    pub egtb: Option<std::path::PathBuf>,
}

#[derive(clap::Args, Debug)]
pub struct NetArgs {
    #[command(flatten)]
    pub variant: VariantArgs,
    /// Training positions, as `kete tune gen` writes them (with `--scores`
    /// for search-scored labels); repeatable.
    #[arg(long, required = true)]
    pub data: Vec<std::path::PathBuf>,
    /// An endgame database of the variant's rules: the positions it holds
    /// are labelled with the result of perfect play.
    #[arg(long)]
    pub egtb: Option<std::path::PathBuf>,
    /// The seeds of the database the engine plays with: positions of at
    /// most N seeds in play are answered by it, so its search never
    /// evaluates them; the error beyond them is reported apart.
    #[arg(long, value_name = "N")]
    pub play_seeds: Option<u32>,
    /// Leave out of training the positions the database in play answers
    /// (needs `--play-seeds`).
    #[arg(long, requires = "play_seeds")]
    pub skip_play: bool,
    /// The share of the game's points in a label, the rest being the search
    /// score's (positions without a score take the points alone).
    #[arg(long, default_value_t = 0.5)]
    pub lambda: f32,
    /// The logistic scale in centiseeds: the network's output unit and how
    /// search scores become probabilities.
    #[arg(long, default_value_t = 425.0)]
    pub scale: f64,
    /// Hidden units.
    #[arg(long, default_value_t = 32)]
    pub hidden: usize,
    /// Passes over the training positions.
    #[arg(long, default_value_t = 30)]
    pub epochs: usize,
    /// Positions per step of the optimiser (Adam).
    #[arg(long, default_value_t = 4096)]
    pub batch: usize,
    /// Adam's first step; it falls along a cosine to a hundredth of it.
    #[arg(long, default_value_t = 0.002)]
    pub rate: f64,
    /// Hold out one block of 1000 positions in every N, to measure the
    /// network on positions it did not learn (0: none).
    #[arg(long, default_value_t = 20)]
    pub hold_out: usize,
    /// Seed of the first weights and of the order of the positions.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Threads computing the gradient (the network is the same on any
    /// number).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Where the network goes (the variant's `weights/<variant>.net` is the
    /// one kete compiles in).
    #[arg(long)]
    pub out: std::path::PathBuf,
}

fn parse_range(text: &str) -> Result<(usize, usize), String> {
    let bad = || format!("--random-plies takes LO-HI (e.g. 4-10), got '{text}'");
    let (lo, hi) = text.split_once('-').unwrap_or((text, text));
    let lo: usize = lo.trim().parse().map_err(|_| bad())?;
    let hi: usize = hi.trim().parse().map_err(|_| bad())?;
    if lo > hi {
        return Err(bad());
    }
    Ok((lo, hi))
}

struct RunGen<'a>(&'a GenArgs);

impl kete::variants::VariantVisitor for RunGen<'_> {
    type Output = anyhow::Result<()>;

    fn visit<G: Game>(self, rules: G::Rules) -> anyhow::Result<()> {
        use anyhow::Context;
        let a = self.0;
        let opts = GenOptions {
            games: a.games,
            nodes: a.nodes.max(1),
            random_plies: parse_range(&a.random_plies).map_err(anyhow::Error::msg)?,
            max_plies: a.max_plies.max(1),
            seed: a.seed,
            threads: a.threads.max(1),
            first: a.first,
            scores: a.scores,
        };
        let eval = <G::Eval as Evaluator<G>>::by_name(&a.eval).ok_or_else(|| {
            anyhow::anyhow!(
                "unknown --eval '{}': this variant has {}",
                a.eval,
                <G::Eval as Evaluator<G>>::names().join(", ")
            )
        })?;
        let file = std::fs::File::create(&a.out)
            .with_context(|| format!("cannot create {}", a.out.display()))?;
        let mut out = std::io::BufWriter::new(file);
        let start = std::time::Instant::now();
        let every = (opts.games / 20).max(1);
        let stats = generate::<G>(&rules, eval, &opts, &mut out, &|done| {
            if done % every == 0 || done == opts.games {
                eprintln!(
                    "{done}/{} games, {:.0} s",
                    opts.games,
                    start.elapsed().as_secs_f64()
                );
            }
        })
        .with_context(|| format!("writing {}", a.out.display()))?;
        println!(
            "games {} positions {} south {} north {} draws {} time {:.1} s",
            stats.games,
            stats.positions,
            stats.results[0],
            stats.results[1],
            stats.results[2],
            start.elapsed().as_secs_f64()
        );
        Ok(())
    }
}

struct RunFit<'a>(&'a FitArgs, String, &'static str);

impl kete::variants::SolveVisitor for RunFit<'_> {
    type Output = anyhow::Result<()>;

    fn with_databases<G: DbSpec>(self, rules: G::Rules) -> anyhow::Result<()> {
        use anyhow::Context;
        let Some(path) = &self.0.egtb else {
            return run_fit::<G>(self.0, &self.1, rules, &|_| None);
        };
        let db = kete::solve::load(path).with_context(|| format!("loading {}", path.display()))?;
        db.check::<G>(&rules)
            .with_context(|| format!("using {}", path.display()))?;
        run_fit::<G>(self.0, &self.1, rules, &|pos| database_label(&db, pos))
    }

    fn solvable<G: kete::game::SolveGame>(self, rules: G::Rules) -> anyhow::Result<()> {
        self.unsolvable::<G>(rules, "")
    }

    fn unsolvable<G: Game>(self, rules: G::Rules, _: &'static str) -> anyhow::Result<()> {
        if self.0.egtb.is_some() {
            anyhow::bail!("there are no endgame databases for {}", self.2);
        }
        run_fit::<G>(self.0, &self.1, rules, &|_| None)
    }
}

fn run_fit<G: Game>(
    a: &FitArgs,
    command_line: &str,
    rules: G::Rules,
    label: &dyn Fn(&G) -> Option<f32>,
) -> anyhow::Result<()> {
    use anyhow::Context;
    let names = <G::Eval as Evaluator<G>>::FEATURES;
    let mut data = Dataset::new(names.len());
    let mut relabelled = Relabelled::default();
    for path in &a.data {
        let file =
            std::fs::File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
        let (part, r) = load_labelled::<G>(&rules, std::io::BufReader::new(file), label)
            .with_context(|| format!("reading {}", path.display()))?;
        data.x.extend(part.x);
        data.result.extend(part.result);
        relabelled.labelled += r.labelled;
        relabelled.changed += r.changed;
    }
    if a.egtb.is_some() {
        eprintln!(
            "database labels: {} positions, {} of them with other points than their game's",
            relabelled.labelled, relabelled.changed
        );
    }
    if data.is_empty() {
        anyhow::bail!("no positions to fit in {:?}", a.data);
    }
    let start = std::time::Instant::now();
    let opts = FitOptions {
        iterations: a.iterations,
        rate: a.rate,
        scale: a.scale,
        threads: a.threads.max(1),
    };
    let start_weights = if a.zero {
        &[][..]
    } else {
        <G::Eval as Evaluator<G>>::WEIGHTS
    };
    let fit = fit(&data, start_weights, &opts);
    let secs = start.elapsed().as_secs_f64();
    eprintln!(
        "positions {} scale {:.1} loss {:.6} -> {:.6} time {secs:.1} s",
        data.len(),
        fit.scale,
        fit.loss_before,
        fit.loss_after
    );
    let header = format!(
        "Evaluation weights, (opening, endgame) per feature, fitted by\n`{}`\nto {} positions: logistic scale {:.1}, mean squared error {:.6} -> {:.6}.\nWritten by `kete tune fit`; rerun it rather than editing by hand.",
        command_line,
        data.len(),
        fit.scale,
        fit.loss_before,
        fit.loss_after
    );
    let text = weights_source(names, &fit.weights, &header);
    match &a.out {
        Some(path) => std::fs::write(path, text)
            .with_context(|| format!("cannot write {}", path.display()))?,
        None => print!("{text}"),
    }
    Ok(())
}

struct RunNet<'a>(&'a NetArgs, String, &'static str);

impl kete::variants::SolveVisitor for RunNet<'_> {
    type Output = anyhow::Result<()>;

    fn with_databases<G: DbSpec>(self, rules: G::Rules) -> anyhow::Result<()> {
        use anyhow::Context;
        let skip = |pos: &G| self.0.play_seeds.is_some_and(|n| pos.seeds_in_play() <= n);
        let Some(path) = &self.0.egtb else {
            return run_net::<G>(self.0, &self.1, rules, &|_| None, &skip);
        };
        let db = kete::solve::load(path).with_context(|| format!("loading {}", path.display()))?;
        db.check::<G>(&rules)
            .with_context(|| format!("using {}", path.display()))?;
        run_net::<G>(
            self.0,
            &self.1,
            rules,
            &|pos| database_label(&db, pos),
            &skip,
        )
    }

    fn solvable<G: kete::game::SolveGame>(self, rules: G::Rules) -> anyhow::Result<()> {
        self.unsolvable::<G>(rules, "")
    }

    fn unsolvable<G: Game>(self, rules: G::Rules, _: &'static str) -> anyhow::Result<()> {
        if self.0.egtb.is_some() || self.0.play_seeds.is_some() {
            anyhow::bail!("there are no endgame databases for {}", self.2);
        }
        run_net::<G>(self.0, &self.1, rules, &|_| None, &|_| false)
    }
}

fn run_net<G: Game>(
    a: &NetArgs,
    command_line: &str,
    rules: G::Rules,
    label: &dyn Fn(&G) -> Option<f32>,
    answered: &dyn Fn(&G) -> bool,
) -> anyhow::Result<()> {
    use anyhow::Context;
    let inputs = <G::Eval as Evaluator<G>>::NET_INPUTS;
    if inputs == 0 {
        anyhow::bail!("this variant has no network evaluation to train");
    }
    let labels = NetLabels {
        lambda: a.lambda.clamp(0.0, 1.0),
        scale: a.scale,
        hold_out: a.hold_out,
        skip_answered: a.skip_play,
    };
    let start = std::time::Instant::now();
    let mut data = NetData::new(inputs);
    for path in &a.data {
        let file =
            std::fs::File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
        load_net::<G>(
            &rules,
            std::io::BufReader::new(file),
            &labels,
            label,
            answered,
            &mut data,
        )
        .with_context(|| format!("reading {}", path.display()))?;
    }
    if data.is_empty() {
        anyhow::bail!("no positions to train on in {:?}", a.data);
    }
    let held = data.held_out.iter().filter(|&&h| h).count();
    eprintln!(
        "positions {} ({held} held out; {} left out): {} labelled by the database ({} of them other than their game's points), {} with a search score; read in {:.1} s",
        data.len(),
        data.skipped,
        data.relabelled.labelled,
        data.relabelled.changed,
        data.scored,
        start.elapsed().as_secs_f64()
    );
    let opts = NetOptions {
        hidden: a.hidden.max(1),
        epochs: a.epochs,
        batch: a.batch.max(1),
        rate: a.rate,
        scale: a.scale,
        threads: a.threads.max(1),
        seed: a.seed,
    };
    let note = format!(
        "Trained by `{command_line}` on {} positions ({} labelled by the database, {} with a search score).",
        data.len(),
        data.relabelled.labelled,
        data.scored
    );
    let start = std::time::Instant::now();
    let t = train_net(&data, &opts, &note, &mut |epoch, loss| {
        eprintln!(
            "epoch {epoch}: training {:.6} held out {:.6} ({:.0} s)",
            loss.train,
            loss.held_out,
            start.elapsed().as_secs_f64()
        );
    });
    println!(
        "positions {}, time {:.1} s\nheld out: {}",
        data.len(),
        start.elapsed().as_secs_f64(),
        t.held_out
    );
    if a.play_seeds.is_some() && !a.skip_play {
        println!("held out beyond the database in play: {}", t.beyond);
    }
    std::fs::write(&a.out, t.net.to_bytes())
        .with_context(|| format!("cannot write {}", a.out.display()))?;
    Ok(())
}

/// Runs `kete tune`; `command_line` is recorded in the weights file.
pub fn run(args: &TuneArgs, command_line: String) -> anyhow::Result<()> {
    match &args.command {
        TuneCommand::Gen(a) => a
            .variant
            .variant()
            .map_err(anyhow::Error::msg)?
            .visit(RunGen(a)),
        TuneCommand::Fit(a) => {
            let variant = a.variant.variant().map_err(anyhow::Error::msg)?;
            variant.visit_solver(RunFit(a, command_line, variant.name()))
        }
        TuneCommand::Net(a) => {
            let variant = a.variant.variant().map_err(anyhow::Error::msg)?;
            variant.visit_solver(RunNet(a, command_line, variant.name()))
        }
    }
}
