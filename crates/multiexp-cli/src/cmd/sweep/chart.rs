//! `multiexp sweep --svg`: the firing bands as heat strips, one panel per model and
//! curve/group: x = log2 n, y = cores, one thin strip per policy within each core count
//! (top to bottom in `--policies` order); red where the model splits the whole MSM, orange
//! where multiexp balances the tail.

use std::path::Path;

use anyhow::Context;
use multiexp::unstable::sweep::{Row, SweepSpec};
use plotters::prelude::*;

const SPLIT: RGBColor = RGBColor(200, 30, 30);
const TAIL: RGBColor = RGBColor(245, 160, 40);
const QUIET: RGBColor = RGBColor(232, 232, 232);

/// Draws the chart of `rows` into `path`.
pub fn draw(path: &Path, rows: &[Row], spec: &SweepSpec, header: &str) -> anyhow::Result<()> {
    let (columns, lines) = (spec.models.len(), spec.curves.len());
    let panel = (460u32, 60 + 16 * spec.cores.len() as u32);
    let size = (panel.0 * columns as u32, 50 + panel.1 * lines as u32);
    let root = SVGBackend::new(path, size).into_drawing_area();
    root.fill(&WHITE).context("drawing the chart")?;
    let (title, body) = root.split_vertically(50);
    let legend = format!(
        "{header}; strips per core count: {} (top to bottom); red: whole split, orange: tail balancing",
        spec.policies
            .iter()
            .map(|p| p.name())
            .collect::<Vec<_>>()
            .join(", ")
    );
    title
        .draw_text(
            &legend,
            &("sans-serif", 15).into_font().color(&BLACK),
            (10, 16),
        )
        .context("drawing the chart")?;
    let x_range = (spec.n_min as f64).log2()..((spec.n_max + 1) as f64).log2();
    let k = spec.cores.len();
    let policies = spec.policies.len().max(1);
    for (i, area) in body.split_evenly((lines, columns)).iter().enumerate() {
        let curve = &spec.curves[i / columns];
        let model = spec.models[i % columns];
        let mut chart = ChartBuilder::on(area)
            .caption(
                format!("{} — {}", model.name(), curve.name),
                ("sans-serif", 14),
            )
            .margin(6)
            .x_label_area_size(20)
            .y_label_area_size(36)
            .build_cartesian_2d(x_range.clone(), -0.5..(k as f64 - 0.5))
            .context("drawing the chart")?;
        let cores = spec.cores.clone();
        chart
            .configure_mesh()
            .disable_mesh()
            .x_labels(8)
            .x_label_formatter(&|x| format!("2^{x:.0}"))
            .y_labels(k)
            .y_label_formatter(&|y| {
                let i = y.round();
                if (y - i).abs() < 1e-6 && i >= 0.0 {
                    cores
                        .get(i as usize)
                        .map(|c| c.to_string())
                        .unwrap_or_default()
                } else {
                    String::new()
                }
            })
            .y_desc("cores")
            .draw()
            .context("drawing the chart")?;
        for row in rows
            .iter()
            .filter(|r| r.model == model && r.name == curve.name)
        {
            let (Some(ci), Some(pi)) = (
                spec.cores.iter().position(|&c| c == row.cores),
                spec.policies.iter().position(|&p| p == row.policy),
            ) else {
                continue;
            };
            let height = 0.9 / policies as f64;
            let top = ci as f64 + 0.45 - pi as f64 * height;
            let strip = |lo: f64, hi: f64, color: RGBColor| {
                Rectangle::new([(lo, top - height * 0.85), (hi, top)], color.filled())
            };
            let band = |&(lo, hi): &(u64, u64), color| {
                strip((lo as f64).log2(), ((hi + 1) as f64).log2(), color)
            };
            chart
                .draw_series(std::iter::once(strip(x_range.start, x_range.end, QUIET)))
                .context("drawing the chart")?;
            chart
                .draw_series(row.outcome.bands.iter().map(|b| band(b, SPLIT)))
                .context("drawing the chart")?;
            chart
                .draw_series(row.outcome.tail_bands.iter().map(|b| band(b, TAIL)))
                .context("drawing the chart")?;
        }
    }
    root.present().context("writing the chart")?;
    Ok(())
}
