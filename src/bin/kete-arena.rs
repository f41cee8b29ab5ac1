//! kete-arena: the tournament runner. Not built yet (see the issue tracker);
//! it says so instead of pretending to run a tournament.

fn main() {
    eprintln!("kete-arena: the tournament runner is not implemented yet");
    std::process::exit(2);
}
