//! `multiexp`: multi-scalar multiplication on the command line.

mod cmd;
mod common;
mod peers;
mod plot;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Fast, explainable multi-scalar multiplication (MSM) over the gnark-crypto curves.
#[derive(Parser, Debug)]
#[command(name = "multiexp", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// List the curve catalogue.
    Curves(cmd::curves::Args),
    /// Compute one MSM, on points and scalars from files or on deterministic random inputs.
    Msm(cmd::msm::Args),
    /// Write deterministic random points and scalars to files, in the formats `msm` reads.
    Gen(cmd::gen::Args),
    /// Benchmark multiexp against peers, plan variants against each other, or prove the
    /// planner's choices (--verify-plan).
    Bench(cmd::bench::Args),
    /// Show the planner's candidates and choice for one MSM size.
    Plan(cmd::plan::Args),
    /// Measure this host's cost profile (the planner's weights) and write it.
    Calibrate(cmd::calibrate::Args),
    /// Measure the memory one MSM needs beyond its inputs (peak RSS).
    Memory(cmd::memory::Args),
    /// Every split decision of gnark's models and ours over a range of sizes.
    Sweep(cmd::sweep::Args),
    /// Build a table of precomputed multiples of a set of bases and write it to a file.
    Table(cmd::table::Args),
    /// EIP-4844 KZG commitments of blobs (`kzg commit`), under the embedded mainnet setup
    /// or a given one.
    Kzg(cmd::kzg::Args),
}

/// Output cut short by its reader (`multiexp sweep | head`) ends the process quietly, as it
/// does for other Unix tools: Rust ignores SIGPIPE, so without this every `println!` after
/// the reader has gone would panic with "Broken pipe".
fn exit_quietly_on_closed_pipe() {
    #[cfg(unix)]
    // SAFETY: called first thing in `main`, before any other thread exists; restoring a
    // signal's default disposition has no other effect on this process.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

fn main() -> ExitCode {
    exit_quietly_on_closed_pipe();
    if let Err(message) = common::check_cpu() {
        eprintln!("error: {message}");
        return ExitCode::from(3);
    }
    let cli = Cli::parse();
    let result = match cli.command {
        None => cmd::demo::run(),
        Some(Command::Curves(a)) => cmd::curves::run(a),
        Some(Command::Msm(a)) => cmd::msm::run(a),
        Some(Command::Gen(a)) => cmd::gen::run(a),
        Some(Command::Bench(a)) => cmd::bench::run(a),
        Some(Command::Plan(a)) => cmd::plan::run(a),
        Some(Command::Calibrate(a)) => cmd::calibrate::run(a),
        Some(Command::Memory(a)) => cmd::memory::run(a),
        Some(Command::Sweep(a)) => cmd::sweep::run(a),
        Some(Command::Table(a)) => cmd::table::run(a),
        Some(Command::Kzg(a)) => cmd::kzg::run(a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}
