//! `kete-fuzz TARGET [FILE…]`: one of kete's fuzz targets
//! (`src/targets.rs`). Built with `cargo afl build --features afl`, it is
//! AFL++'s program (input on stdin, run in AFL's loop); built plainly, it
//! runs the target on each file named (a corpus replayed), or on stdin.

mod targets;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(target) = args.first().and_then(|n| targets::by_name(n)) else {
        let names: Vec<&str> = targets::TARGETS.iter().map(|(n, _)| *n).collect();
        eprintln!(
            "usage: kete-fuzz TARGET [FILE...]; targets: {}",
            names.join(", ")
        );
        std::process::exit(2);
    };
    run(target, &args[1..]);
}

#[cfg(feature = "afl")]
fn run(target: fn(&[u8]), _files: &[String]) {
    afl::fuzz!(|data: &[u8]| target(data));
}

#[cfg(not(feature = "afl"))]
fn run(target: fn(&[u8]), files: &[String]) {
    if files.is_empty() {
        use std::io::Read;
        let mut data = Vec::new();
        std::io::stdin()
            .read_to_end(&mut data)
            .expect("stdin reads");
        target(&data);
    }
    for f in files {
        let data = std::fs::read(f).unwrap_or_else(|e| panic!("{f}: {e}"));
        target(&data);
    }
}
