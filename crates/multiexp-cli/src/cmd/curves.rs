//! `multiexp curves`: the catalogue.

use clap::Parser;
use serde_json::json;

use crate::common::Format;

/// Arguments of `multiexp curves`.
#[derive(Parser, Debug)]
pub struct Args {
    /// Output format.
    #[arg(long, value_enum, default_value_t)]
    pub format: Format,
}

/// Prints every curve/group with its scalar bits, base-field bits and coordinate field.
pub fn run(args: Args) -> anyhow::Result<()> {
    let specs = multiexp::curves::specs();
    match args.format {
        Format::Json => {
            let rows: Vec<_> = specs
                .iter()
                .map(|s| {
                    json!({
                        "name": s.name,
                        "curve": s.curve,
                        "group": s.group.name(),
                        "scalar_bits": s.scalar_bits,
                        "base_bits": s.base_bits,
                        "extension_degree": s.extension_degree,
                    })
                })
                .collect();
            println!("{}", serde_json::to_string_pretty(&rows)?);
        }
        Format::Table => {
            println!(
                "{:<16} {:<12} {:<5} {:>11} {:>9}  coordinates",
                "name", "curve", "group", "scalar bits", "base bits"
            );
            for s in &specs {
                let coords = match s.extension_degree {
                    1 => "Fp".to_string(),
                    d => format!("Fp{d}"),
                };
                println!(
                    "{:<16} {:<12} {:<5} {:>11} {:>9}  {}",
                    s.name,
                    s.curve,
                    s.group.name(),
                    s.scalar_bits,
                    s.base_bits,
                    coords
                );
            }
            println!("{} curve/groups", specs.len());
        }
    }
    Ok(())
}
