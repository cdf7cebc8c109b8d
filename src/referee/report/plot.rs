//! The report's plots, drawn by `plotters` into SVG text: every plot is a [`Chart`] of a few
//! [`Layer`]s (lines, dashed lines, bars) on two numeric axes.

use plotters::coord::Shift;
use plotters::prelude::*;
use std::ops::Range;

/// Most points a line keeps (longer series are thinned evenly, keeping both ends).
const MAX_POINTS: usize = 1000;

/// Colours of the series, in order (engines, sides).
pub const PALETTE: [RGBColor; 7] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(148, 103, 189),
    RGBColor(255, 127, 14),
    RGBColor(23, 190, 207),
    RGBColor(127, 127, 127),
];

/// The [`PALETTE`] index of grey, for what frames a line (an interval's bounds).
pub const GREY: usize = 6;

/// How a layer is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// A solid line through the points.
    Line,
    /// A dashed line through the points.
    Dashed,
    /// A bar from 0 up to each point, centred on its x.
    Bars,
}

/// One series of a chart.
#[derive(Clone, Debug, PartialEq)]
pub struct Layer {
    /// Shown in the legend (none when empty).
    pub label: String,
    /// The points.
    pub points: Vec<(f64, f64)>,
    /// Index into [`PALETTE`] (wraps).
    pub colour: usize,
    /// How it is drawn.
    pub style: Style,
}

/// A plot: axes, their descriptions, and layers.
#[derive(Clone, Debug, PartialEq)]
pub struct Chart {
    /// The x axis's description.
    pub x_desc: String,
    /// The y axis's description.
    pub y_desc: String,
    /// What is drawn, first at the back.
    pub layers: Vec<Layer>,
    /// Width and height in pixels.
    pub size: (u32, u32),
    /// Names of the whole x values 0, 1, 2, … (instead of numbers), if any.
    pub x_names: Vec<String>,
    /// The x axis counts things (games, plies): ticks only at whole numbers.
    pub x_counts: bool,
    /// The y axis counts things (pairs): ticks only at whole numbers.
    pub y_counts: bool,
}

/// A plot that could not be drawn (a plotters error, as text).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DrawFailed(pub String);

impl std::fmt::Display for DrawFailed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot draw a plot: {}", self.0)
    }
}

impl std::error::Error for DrawFailed {}

impl Chart {
    /// A chart of this size and axes, with no layers yet.
    pub fn new(x_desc: &str, y_desc: &str, size: (u32, u32)) -> Chart {
        Chart {
            x_desc: x_desc.into(),
            y_desc: y_desc.into(),
            layers: Vec::new(),
            size,
            x_names: Vec::new(),
            x_counts: false,
            y_counts: false,
        }
    }

    /// Adds a layer of the finite points among `points`.
    pub fn layer(&mut self, label: &str, colour: usize, style: Style, points: Vec<(f64, f64)>) {
        let points = points
            .into_iter()
            .filter(|(x, y)| x.is_finite() && y.is_finite())
            .collect();
        self.layers.push(Layer {
            label: label.into(),
            points: thin(points),
            colour,
            style,
        });
    }

    /// Whether any layer has a point to draw.
    pub fn has_data(&self) -> bool {
        self.layers.iter().any(|l| !l.points.is_empty())
    }

    /// The chart as an SVG document.
    pub fn svg(&self) -> Result<String, DrawFailed> {
        let mut text = String::new();
        {
            let root = SVGBackend::with_string(&mut text, self.size).into_drawing_area();
            self.draw(&root).map_err(|e| DrawFailed(e.to_string()))?;
            root.present().map_err(|e| DrawFailed(e.to_string()))?;
        }
        Ok(text)
    }

    fn draw(
        &self,
        root: &DrawingArea<SVGBackend, Shift>,
    ) -> Result<(), DrawingAreaErrorKind<std::io::Error>> {
        root.fill(&WHITE)?;
        let (x, y) = self.ranges();
        let (x_ticks, y_ticks) = (whole_ticks(&x), whole_ticks(&y));
        let mut chart = ChartBuilder::on(root)
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(56)
            .build_cartesian_2d(x, y)?;
        let name = |x: &f64| {
            let whole = x.round();
            let named = (x - whole).abs() < 1e-6 && whole >= 0.0;
            let found = named.then(|| self.x_names.get(whole as usize)).flatten();
            found.cloned().unwrap_or_default()
        };
        let mut mesh = chart.configure_mesh();
        mesh.x_desc(self.x_desc.as_str())
            .y_desc(self.y_desc.as_str())
            .light_line_style(RGBColor(235, 235, 235));
        if !self.x_names.is_empty() {
            mesh.x_labels(self.x_names.len() * 2 + 1)
                .x_label_formatter(&name);
        } else if self.x_counts {
            mesh.x_labels(x_ticks).x_label_formatter(&whole);
        }
        if self.y_counts {
            mesh.y_labels(y_ticks).y_label_formatter(&whole);
        }
        mesh.draw()?;
        for layer in &self.layers {
            let colour = PALETTE[layer.colour % PALETTE.len()];
            let drawn = match layer.style {
                Style::Line => chart.draw_series(LineSeries::new(
                    layer.points.iter().copied(),
                    colour.stroke_width(2),
                ))?,
                Style::Dashed => chart.draw_series(DashedLineSeries::new(
                    layer.points.iter().copied(),
                    6,
                    4,
                    colour.stroke_width(1),
                ))?,
                Style::Bars => chart.draw_series(layer.points.iter().map(|&(x, y)| {
                    Rectangle::new([(x - 0.35, 0.0), (x + 0.35, y)], colour.filled())
                }))?,
            };
            if !layer.label.is_empty() {
                drawn.label(layer.label.as_str()).legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 18, y)], colour.stroke_width(2))
                });
            }
        }
        if self.layers.iter().any(|l| !l.label.is_empty()) {
            chart
                .configure_series_labels()
                .position(SeriesLabelPosition::UpperLeft)
                .background_style(WHITE.mix(0.85))
                .border_style(RGBColor(180, 180, 180))
                .draw()?;
        }
        Ok(())
    }

    /// The axes' ranges: the data's, a little wider, never empty.
    fn ranges(&self) -> (Range<f64>, Range<f64>) {
        let points = self.layers.iter().flat_map(|l| l.points.iter());
        let (mut x0, mut x1, mut y0, mut y1) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
        for &(x, y) in points {
            (x0, x1, y0, y1) = (x0.min(x), x1.max(x), y0.min(y), y1.max(y));
        }
        if x0 > x1 {
            return (0.0..1.0, 0.0..1.0);
        }
        if self.layers.iter().any(|l| l.style == Style::Bars) {
            (x0, x1, y0) = (x0 - 0.5, x1 + 0.5, y0.min(0.0));
        }
        let widen = |lo: f64, hi: f64| {
            let pad = if hi > lo { (hi - lo) * 0.05 } else { 1.0 };
            lo - pad..hi + pad
        };
        let y = widen(y0, y1);
        (
            widen(x0, x1),
            y.start..y.end + self.legend_room(y.end - y.start),
        )
    }

    /// How far above the data the y axis goes so that the legend (upper left, about 18 pixels
    /// a row) covers no line: a share of the plot's height for each labelled layer.
    fn legend_room(&self, height: f64) -> f64 {
        let rows = self.layers.iter().filter(|l| !l.label.is_empty()).count();
        if rows == 0 {
            return 0.0;
        }
        let pixels = f64::from(self.size.1.saturating_sub(60).max(60));
        let share = ((rows as f64 * 18.0 + 14.0) / pixels).min(0.6);
        height * share / (1.0 - share)
    }
}

/// The most ticks on an axis (plotters' default).
const MAX_TICKS: usize = 10;

/// How many ticks an axis of counts gets: few enough that plotters' step is at least 1.
fn whole_ticks(range: &Range<f64>) -> usize {
    let width = (range.end - range.start).floor();
    if width.is_finite() && width >= 0.0 {
        (width as usize + 1).clamp(2, MAX_TICKS)
    } else {
        2
    }
}

/// A count's tick label: the whole number, or nothing between whole numbers.
fn whole(value: &f64) -> String {
    let rounded = value.round();
    if (value - rounded).abs() < 1e-9 {
        format!("{rounded:.0}")
    } else {
        String::new()
    }
}

/// At most [`MAX_POINTS`] points, evenly spread, the first and last kept.
fn thin(points: Vec<(f64, f64)>) -> Vec<(f64, f64)> {
    if points.len() <= MAX_POINTS {
        return points;
    }
    let last = points.len() - 1;
    (0..MAX_POINTS)
        .map(|i| points[i * last / (MAX_POINTS - 1)])
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chart_draws_its_line_as_svg() {
        let mut chart = Chart::new("games", "Elo", (400, 300));
        chart.layer(
            "a",
            0,
            Style::Line,
            vec![(1.0, 10.0), (2.0, f64::NAN), (3.0, 30.0)],
        );
        assert_eq!(chart.layers[0].points.len(), 2, "the NaN is dropped");
        let svg = chart.svg().expect("drawn");
        assert!(svg.starts_with("<svg"), "{svg}");
        let line = svg
            .lines()
            .find(|l| l.starts_with("<polyline") && l.contains("stroke=\"#1F77B4\""));
        let points = line.and_then(|l| l.split("points=\"").nth(1));
        let count = points.map_or(0, |p| {
            p.split('"').next().unwrap_or("").split_whitespace().count()
        });
        assert_eq!(count, 2, "the data line in the first colour: {svg}");
        assert!(svg.contains("games"), "the x axis's description: {svg}");
    }

    #[test]
    fn the_legend_gets_room_above_the_data() {
        let mut chart = Chart::new("games", "Elo", (520, 300));
        chart.layer("Elo", 0, Style::Line, vec![(0.0, 0.0), (10.0, 100.0)]);
        let (_, bare) = Chart::new("games", "Elo", (520, 300)).ranges();
        let (_, one) = chart.ranges();
        chart.layer("95% interval", GREY, Style::Dashed, vec![(0.0, 50.0)]);
        let (_, two) = chart.ranges();
        assert!(bare.end <= 1.0, "{bare:?}");
        // The top of the axis above the data (105, with the usual 5% pad) is at least the
        // legend's height: 18 pixels a row and 14 of frame, of the plot's 240.
        let empty = |y: &Range<f64>| (y.end - 105.0) / (y.end - y.start) * 240.0;
        assert!(empty(&one) >= 32.0 - 1e-9, "{one:?}");
        assert!(empty(&two) >= 50.0 - 1e-9, "{two:?}");
        let mut unlabelled = Chart::new("games", "Elo", (520, 300));
        unlabelled.layer("", 0, Style::Line, vec![(0.0, 0.0), (10.0, 100.0)]);
        assert!(unlabelled.ranges().1.end < 106.0, "no legend, no room");
    }

    #[test]
    fn count_axes_tick_whole_numbers_only() {
        let mut chart = Chart::new("games", "pairs", (400, 300));
        chart.x_counts = true;
        chart.y_counts = true;
        chart.layer("", 0, Style::Line, vec![(1.0, 0.0), (4.0, 3.0), (5.0, 4.0)]);
        let svg = chart.svg().unwrap();
        let labels: Vec<&str> = svg
            .split("</text>")
            .filter_map(|t| t.rsplit('>').next().map(str::trim))
            .filter(|t| !t.is_empty() && t.chars().all(|c| c.is_ascii_digit() || c == '.'))
            .collect();
        assert!(!labels.is_empty(), "{svg}");
        assert!(
            labels.iter().all(|l| !l.contains('.')),
            "whole ticks only: {labels:?}"
        );
        assert_eq!(whole(&2.0), "2");
        assert_eq!(whole(&2.2), "");
        assert_eq!(whole_ticks(&(0.0..4.2)), 5);
    }

    #[test]
    fn long_series_are_thinned_keeping_both_ends() {
        let points: Vec<(f64, f64)> = (0..5000).map(|i| (i as f64, 0.0)).collect();
        let thinned = thin(points);
        assert_eq!(thinned.len(), MAX_POINTS);
        assert_eq!(thinned.first(), Some(&(0.0, 0.0)));
        assert_eq!(thinned.last(), Some(&(4999.0, 0.0)));
    }
}
