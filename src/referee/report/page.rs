//! The report as one self-contained HTML page: inline CSS and SVG, no script, no external
//! resource. Every plot sits in a `<figure data-plot="…">` (what the browser test looks for).

use super::model::{Game, Match};
use super::plot::{self, Chart, DrawFailed, Style};
use super::series::{self, Course};
use crate::referee::stats::elo::Estimate;
use std::fmt::Write;

/// Most games that get an evaluation plot of their own (the table lists them all).
pub const MAX_GAME_PLOTS: usize = 200;

const STYLE: &str = "body{font-family:sans-serif;margin:2em auto;max-width:72em;color:#222}\
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:.2em .6em;\
text-align:right}th{background:#f3f3f3}td.l,th.l{text-align:left}figure{display:inline-block;\
margin:.5em}figcaption{font-size:.9em;color:#555}.note{color:#8a4b00}.moves{font-family:monospace;\
max-width:60em}section.game{border-top:1px solid #ddd;margin-top:1em}";

/// Escapes text for HTML.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// The whole page.
pub fn render(m: &Match) -> Result<String, DrawFailed> {
    let mut body = String::new();
    header(&mut body, m);
    for index in 0..m.pairings.len() {
        pairing(&mut body, m, index)?;
    }
    times(&mut body, m)?;
    games(&mut body, m)?;
    Ok(format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n{body}</body>\n</html>\n",
        escape(&title(m))
    ))
}

fn title(m: &Match) -> String {
    format!("krou match report: {}", m.engines.join(" vs "))
}

fn header(out: &mut String, m: &Match) {
    let _ = writeln!(out, "<h1>{}</h1>", escape(&title(m)));
    let mut facts = Vec::new();
    if let Some(id) = &m.match_id {
        facts.push(format!("match {}", escape(id)));
    }
    if let Some((index, count)) = m.shard {
        facts.push(format!("shard {index} of {count}"));
    }
    if !m.shards_merged.is_empty() || !m.shards_missing.is_empty() {
        // `shard 2` or `shards 1, 3`.
        let list = |k: &[u64]| {
            let numbers: Vec<String> = k.iter().map(u64::to_string).collect();
            let noun = if k.len() == 1 { "shard" } else { "shards" };
            format!("{noun} {}", numbers.join(", "))
        };
        let count = m.shards_merged.len() + m.shards_missing.len();
        facts.push(format!("{} of {count} merged", list(&m.shards_merged)));
        if !m.shards_missing.is_empty() {
            facts.push(format!(
                "{} missing (not in this report)",
                list(&m.shards_missing)
            ));
        }
    }
    // Under time odds the default `tc` is nobody's: name each engine's.
    let odds = m.engine_tc.iter().any(|t| Some(t) != m.engine_tc.first());
    if odds {
        let each: Vec<String> = m
            .engines
            .iter()
            .zip(&m.engine_tc)
            .map(|(name, tc)| format!("{} {}", escape(name), escape(tc)))
            .collect();
        facts.push(format!("time odds: {}", each.join(", ")));
    } else if let Some(tc) = m.engine_tc.first().or(m.tc.as_ref()) {
        facts.push(format!("tc {}", escape(tc)));
    }
    if let Some(seed) = m.seed {
        facts.push(format!("seed {seed}"));
    }
    facts.push(format!("{} games", m.games.len()));
    let _ = writeln!(out, "<p>{}</p>", facts.join(", "));
    if m.games.iter().any(|g| g.moves.is_none()) {
        let _ = writeln!(
            out,
            "<p class=\"note\">This file has no moves for some games (written before format 2): \
             no time or evaluation plots for them.</p>"
        );
    }
}

/// `+12.3`, or `-` for a missing or infinite figure (`+inf` shown as such).
fn elo_text(x: f64) -> String {
    if x.is_nan() {
        "-".into()
    } else {
        format!("{x:+.1}")
    }
}

fn pairing(out: &mut String, m: &Match, index: usize) -> Result<(), DrawFailed> {
    let Some(p) = m.pairings.get(index) else {
        return Ok(());
    };
    let course = series::course(m, index);
    let t = course.tally;
    let _ = writeln!(
        out,
        "<h2 id=\"pairing-{index}\">{} vs {}</h2>",
        escape(&p.first),
        escape(&p.second)
    );
    let score = t
        .score()
        .map_or_else(|| "-".into(), |s| format!("{:.1}%", s * 100.0));
    let (elo, interval, los) = match Estimate::of(&t) {
        Some(e) => (
            elo_text(e.elo),
            if e.interval_known() {
                format!("{} to {}", elo_text(e.low), elo_text(e.high))
            } else {
                "unknown (no spread yet)".into()
            },
            format!("{:.1}%", e.los * 100.0),
        ),
        None => ("-".into(), "-".into(), "-".into()),
    };
    let [ll, ld, dd, wd, ww] = t.pentanomial;
    let _ = writeln!(
        out,
        "<table><tr><th>games</th><th>wins</th><th>draws</th><th>losses</th><th>score</th>\
         <th>Elo</th><th>95% interval</th><th>LOS</th></tr>\n<tr><td>{}</td><td>{}</td><td>{}</td>\
         <td>{}</td><td>{score}</td><td>{elo}</td><td>{interval}</td><td>{los}</td></tr></table>\n\
         <table><tr><th class=\"l\">pentanomial (game pairs)</th><th>LL</th><th>LD</th>\
         <th>DD+WL</th><th>WD</th><th>WW</th></tr>\n<tr><td class=\"l\">pairs</td><td>{ll}</td>\
         <td>{ld}</td><td>{dd}</td><td>{wd}</td><td>{ww}</td></tr></table>",
        t.games(),
        t.wins,
        t.draws,
        t.losses
    );
    if course.pairs_inferred {
        let _ = writeln!(
            out,
            "<p class=\"note\">The file does not say which games form a pair: pairs taken as \
             consecutive games of the pairing in round order.</p>"
        );
    }
    if let Some(sprt) = p.sprt {
        let (lower, upper) = sprt.bounds();
        let llr = sprt.llr(&t);
        let verdict = sprt
            .decision(&t)
            .map_or_else(|| "undecided".into(), |d| d.to_string());
        let _ = writeln!(
            out,
            "<p>SPRT ({}): LLR {llr:.2} in [{lower:.2}, {upper:.2}], {verdict}</p>",
            escape(&sprt.to_string())
        );
    }
    let _ = writeln!(out, "<div>");
    let caption = "Elo and its 95% interval after each finished game (an infinite value, while \
                   one side has scored everything, is not drawn)";
    figure(out, "elo", &elo_chart(&course), caption)?;
    if let Some(sprt) = p.sprt {
        let caption = "LLR after each finished game, with the bounds that decide the SPRT";
        figure(out, "llr", &llr_chart(&course, sprt.bounds()), caption)?;
    }
    let mut bars = Chart::new("pair result", "pairs", (360, 260));
    bars.y_counts = true;
    bars.x_names = ["LL", "LD", "DD+WL", "WD", "WW"].map(String::from).to_vec();
    let counts = t.pentanomial.iter().enumerate();
    bars.layer(
        "",
        0,
        Style::Bars,
        counts.map(|(i, &c)| (i as f64, c as f64)).collect(),
    );
    figure(
        out,
        "pentanomial",
        &bars,
        "Pentanomial counts of the game pairs",
    )?;
    let _ = writeln!(out, "</div>");
    Ok(())
}

fn elo_chart(course: &Course) -> Chart {
    let mut chart = Chart::new("games", "Elo", (520, 300));
    chart.x_counts = true;
    let at = |f: fn(&series::Point) -> f64| -> Vec<(f64, f64)> {
        course
            .points
            .iter()
            .map(|p| (p.games as f64, f(p)))
            .collect()
    };
    chart.layer("95% interval", plot::GREY, Style::Dashed, at(|p| p.high));
    chart.layer("", plot::GREY, Style::Dashed, at(|p| p.low));
    chart.layer("Elo", 0, Style::Line, at(|p| p.elo));
    chart
}

fn llr_chart(course: &Course, (lower, upper): (f64, f64)) -> Chart {
    let mut chart = Chart::new("games", "LLR", (520, 300));
    chart.x_counts = true;
    let llr: Vec<(f64, f64)> = course
        .points
        .iter()
        .filter_map(|p| Some((p.games as f64, p.llr?)))
        .collect();
    let last = llr.last().map_or(1.0, |p| p.0.max(1.0));
    chart.layer(
        "upper bound",
        2,
        Style::Dashed,
        vec![(0.0, upper), (last, upper)],
    );
    chart.layer(
        "lower bound",
        1,
        Style::Dashed,
        vec![(0.0, lower), (last, lower)],
    );
    chart.layer("LLR", 0, Style::Line, llr);
    chart
}

/// Writes a plot, or says there is nothing to plot.
fn figure(out: &mut String, kind: &str, chart: &Chart, caption: &str) -> Result<(), DrawFailed> {
    if !chart.has_data() {
        let _ = writeln!(out, "<p class=\"note\">{caption}: no data to plot.</p>");
        return Ok(());
    }
    let _ = writeln!(
        out,
        "<figure data-plot=\"{kind}\">{}<figcaption>{caption}</figcaption></figure>",
        chart.svg()?
    );
    Ok(())
}

fn times(out: &mut String, m: &Match) -> Result<(), DrawFailed> {
    let _ = writeln!(
        out,
        "<h2 id=\"time\">Time per move</h2>\n<table><tr><th class=\"l\">engine</th>\
         <th class=\"l\">time control</th><th>moves timed</th><th>mean ms</th><th>max ms</th></tr>"
    );
    let mut chart = Chart::new("ply", "mean ms per move", (720, 320));
    chart.x_counts = true;
    for (i, engine) in m.engines.iter().enumerate() {
        let tc = m.engine_tc.get(i).or(m.tc.as_ref());
        let t = series::times(m, engine);
        let mean = if t.moves > 0 {
            format!("{:.1}", t.total_ms as f64 / t.moves as f64)
        } else {
            "-".into()
        };
        let _ = writeln!(
            out,
            "<tr><td class=\"l\">{}</td><td class=\"l\">{}</td><td>{}</td><td>{mean}</td>\
             <td>{}</td></tr>",
            escape(engine),
            escape(tc.map_or("?", String::as_str)),
            t.moves,
            t.max_ms
        );
        let points = t.mean_by_ply.iter().map(|&(ply, ms)| (ply as f64, ms));
        chart.layer(engine, i, Style::Line, points.collect());
    }
    let _ = writeln!(out, "</table>");
    figure(
        out,
        "time",
        &chart,
        "Mean time per move by ply, per engine (opening moves excluded)",
    )
}

fn games(out: &mut String, m: &Match) -> Result<(), DrawFailed> {
    let mut games: Vec<&Game> = m.games.iter().collect();
    games.sort_by_key(|g| g.round);
    let _ = writeln!(
        out,
        "<h2 id=\"games\">Games</h2>\n<table><tr><th>round</th><th class=\"l\">South</th>\
         <th class=\"l\">North</th><th>result</th><th class=\"l\">how it ended</th>\
         <th class=\"l\">record</th></tr>"
    );
    for g in &games {
        let link = match &g.record {
            Some(file) => format!("<a href=\"{0}\">{0}</a>", escape(file)),
            None => format!("<a href=\"#game-{}\">moves</a>", g.round),
        };
        let _ = writeln!(
            out,
            "<tr><td><a href=\"#game-{0}\">{0}</a></td><td class=\"l\">{1}</td>\
             <td class=\"l\">{2}</td><td>{3}</td><td class=\"l\">{4}: {5}</td>\
             <td class=\"l\">{link}</td></tr>",
            g.round,
            escape(&g.south),
            escape(&g.north),
            escape(&g.result),
            series::winner_text(g),
            escape(&g.detail)
        );
    }
    let _ = writeln!(out, "</table>");
    if games.len() > MAX_GAME_PLOTS {
        let _ = writeln!(
            out,
            "<p class=\"note\">Evaluation plots for the first {MAX_GAME_PLOTS} of {} games.</p>",
            games.len()
        );
    }
    for (i, g) in games.iter().enumerate() {
        game(out, g, i < MAX_GAME_PLOTS)?;
    }
    Ok(())
}

fn game(out: &mut String, g: &Game, plot: bool) -> Result<(), DrawFailed> {
    let _ = writeln!(
        out,
        "<section class=\"game\" id=\"game-{}\"><h3>Game {}: {} (South) vs {} (North), {}</h3>",
        g.round,
        g.round,
        escape(&g.south),
        escape(&g.north),
        escape(&g.result)
    );
    if !g.opening.is_empty() {
        let _ = writeln!(out, "<p>Opening: {}</p>", escape(&g.opening));
    }
    match &g.moves {
        None => {
            let _ = writeln!(
                out,
                "<p class=\"note\">No moves in the file for this game.</p>"
            );
        }
        Some(moves) => {
            if plot {
                let [south, north] = series::evaluations(g);
                let mut chart = Chart::new("ply", "seeds for South", (520, 260));
                chart.x_counts = true;
                chart.layer(&format!("{} (South)", g.south), 0, Style::Line, south);
                chart.layer(&format!("{} (North)", g.north), 1, Style::Line, north);
                let caption =
                    "Each engine's evaluation by ply, from South's side (mate drawn at ±30)";
                figure(out, "eval", &chart, caption)?;
            }
            if g.record.is_none() {
                let text: Vec<String> = moves
                    .iter()
                    .map(|mv| {
                        let book = if mv.opening { "*" } else { "" };
                        format!("{}.{}{book}", mv.ply, escape(&mv.text))
                    })
                    .collect();
                let _ = writeln!(
                    out,
                    "<p class=\"moves\">{} <small>(* opening)</small></p>",
                    text.join(" ")
                );
            }
        }
    }
    let _ = writeln!(out, "</section>");
    Ok(())
}
