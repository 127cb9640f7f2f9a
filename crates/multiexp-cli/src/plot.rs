//! SVG line charts of benchmark results over n, log–log, with `plotters`' SVG backend: the
//! chart's coordinates are log2(n) and log10(value), labelled as 2^k and as values.

use std::path::Path;

use anyhow::Context;
use plotters::prelude::*;

/// One line of a chart: (n, value) pairs.
#[derive(Clone, Debug)]
pub struct Series {
    /// Legend entry.
    pub name: String,
    /// (n, value) pairs, n ascending.
    pub points: Vec<(f64, f64)>,
    /// How to draw it.
    pub style: Look,
}

/// How a series is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Look {
    /// A thin line in the next palette colour.
    Plain,
    /// Thick and black with markers (the planner's choice, or multiexp).
    Emphasis,
    /// A red line (a model's prediction).
    Predicted,
}

/// One chart of a figure.
pub struct Panel<'a> {
    /// What the y axis shows.
    pub y_label: &'a str,
    /// The lines.
    pub series: &'a [Series],
}

/// Writes `panels`, stacked, as one SVG figure at `path`; x is n on a log2 axis, y log.
pub fn write_svg(path: &Path, title: &str, panels: &[Panel<'_>]) -> anyhow::Result<()> {
    draw(path, title, panels).with_context(|| format!("writing the plot {}", path.display()))
}

fn draw(path: &Path, title: &str, panels: &[Panel<'_>]) -> anyhow::Result<()> {
    let height = 520 * panels.len().max(1) as u32 + 40;
    let root = SVGBackend::new(path, (1100, height)).into_drawing_area();
    root.fill(&WHITE)?;
    let root = root.titled(title, ("sans-serif", 22))?;
    let areas = root.split_evenly((panels.len().max(1), 1));
    for (area, panel) in areas.iter().zip(panels) {
        let finite = |v: f64| v.is_finite() && v > 0.0;
        let logged = |s: &Series| -> Vec<(f64, f64)> {
            s.points
                .iter()
                .filter(|p| finite(p.0) && finite(p.1))
                .map(|&(x, y)| (x.log2(), y.log10()))
                .collect()
        };
        let all: Vec<(f64, f64)> = panel.series.iter().flat_map(logged).collect();
        if all.is_empty() {
            continue;
        }
        let (mut x0, mut x1, mut y0, mut y1) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
        for &(x, y) in &all {
            x0 = x0.min(x);
            x1 = x1.max(x);
            y0 = y0.min(y);
            y1 = y1.max(y);
        }
        let (x0, x1) = (x0.floor() - 0.25, x1.ceil() + 0.25);
        let pad = ((y1 - y0) * 0.05).max(0.02);
        let (y0, y1) = (y0 - pad, y1 + 3.0 * pad);
        let mut chart = ChartBuilder::on(area)
            .margin(12)
            .x_label_area_size(42)
            .y_label_area_size(70)
            .build_cartesian_2d(x0..x1, y0..y1)?;
        chart
            .configure_mesh()
            .x_desc("n (points)")
            .y_desc(panel.y_label)
            .x_labels(((x1 - x0) as usize + 1).min(24))
            .y_labels(10)
            .x_label_formatter(&|x| {
                if (x - x.round()).abs() < 1e-6 {
                    format!("2^{}", x.round())
                } else {
                    String::new()
                }
            })
            .y_label_formatter(&|y| significant(10f64.powf(*y)))
            .draw()?;
        let mut colour = 0;
        for s in panel.series {
            let points = logged(s);
            let style = match s.style {
                Look::Emphasis => BLACK.stroke_width(3),
                Look::Predicted => RED.stroke_width(2),
                Look::Plain => {
                    colour += 1;
                    Palette99::pick(colour).stroke_width(1)
                }
            };
            chart
                .draw_series(LineSeries::new(points.clone(), style))?
                .label(s.name.as_str())
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], style));
            if s.style == Look::Emphasis {
                chart.draw_series(points.iter().map(|&p| Circle::new(p, 3, BLACK.filled())))?;
            }
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .position(SeriesLabelPosition::UpperLeft)
            .draw()?;
    }
    root.present()?;
    Ok(())
}

/// Three significant digits, without trailing zeros: 0.0123, 1.5, 250, 12000.
fn significant(v: f64) -> String {
    if v <= 0.0 || !v.is_finite() {
        return String::new();
    }
    let digits = (2 - v.log10().floor() as i32).max(0) as usize;
    let text = format!("{v:.digits$}");
    if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn axis_values_keep_three_significant_digits() {
        assert_eq!(significant(0.012345), "0.0123");
        assert_eq!(significant(1.5), "1.5");
        assert_eq!(significant(250.4), "250");
        assert_eq!(significant(3.1623), "3.16");
        assert_eq!(significant(10.0), "10");
    }
}
