//! `multiexp curves`: the catalogue.

use ark_ec::short_weierstrass::SWCurveConfig;
use ark_ec::AffineRepr;
use ark_ff::{Field, PrimeField};
use clap::Parser;
use multiexp::curves::{CurveSpec, CurveVisitor};
use serde_json::{json, Value};

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
            let rows = specs
                .iter()
                .map(|s| multiexp::curves::visit(s.name, Params))
                .collect::<Result<Vec<Value>, _>>()?;
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

/// A coordinate-field element as JSON: a decimal string over Fp, a list of components (lowest
/// first) over Fp2, a list of Fp2 components over Fp4.
fn element<F: Field>(x: &F) -> Value {
    let parts: Vec<Value> = x
        .to_base_prime_field_elements()
        .map(|c| Value::String(c.into_bigint().to_string()))
        .collect();
    match parts.len() {
        1 => parts[0].clone(),
        2 => Value::Array(parts),
        d => Value::Array(parts.chunks(d / 2).map(element_list).collect()),
    }
}

fn element_list(parts: &[Value]) -> Value {
    if parts.len() == 1 {
        parts[0].clone()
    } else {
        Value::Array(parts.to_vec())
    }
}

/// The full parameters of one curve/group as JSON.
struct Params;

impl CurveVisitor for Params {
    type Output = Value;

    fn visit<P: SWCurveConfig>(self, spec: &CurveSpec) -> Value {
        type Prime<P> = <<P as ark_ec::CurveConfig>::BaseField as Field>::BasePrimeField;
        let g = P::GENERATOR;
        let (gx, gy) = g.xy().unwrap_or_default();
        json!({
            "name": spec.name,
            "curve": spec.curve,
            "group": spec.group.name(),
            "scalar_bits": spec.scalar_bits,
            "base_bits": spec.base_bits,
            "extension_degree": spec.extension_degree,
            "p": Prime::<P>::MODULUS.to_string(),
            "r": P::ScalarField::MODULUS.to_string(),
            "a": element(&P::COEFF_A),
            "b": element(&P::COEFF_B),
            "generator": {"x": element(&gx), "y": element(&gy)},
        })
    }
}
