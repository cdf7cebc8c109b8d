//! Fits the network of [`crate::search::net`] to samples by minibatch gradient descent (Adam)
//! on the squared error in seeds, then rounds it to the integer weights the search uses.
//!
//! The target of a sample is the margin its side to move will still gain (beyond its store
//! margin): the exact value where the endgame tables give one ("learning from perfection");
//! otherwise a blend of the game's result and the search's score, `result_weight` of the
//! former.

use super::sample::Sample;
use crate::search::net::{ACTIVE, HIDDEN, INPUTS, Network, SCALE, active_inputs};

/// How to train.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Plan {
    /// Passes over the training samples.
    pub epochs: usize,
    /// Samples per gradient step.
    pub batch: usize,
    /// Adam's step size at the first epoch (it falls linearly to a tenth by the last).
    pub learning_rate: f32,
    /// The share of the game's result in the target, the rest being the search's score.
    pub result_weight: f32,
    /// One sample (or batch file) in this many is held out to measure the error.
    pub validation_every: usize,
    /// Seeds the initial weights and the shuffles.
    pub seed: u64,
}

impl Default for Plan {
    fn default() -> Self {
        Plan {
            epochs: 12,
            batch: 512,
            learning_rate: 0.002,
            result_weight: 0.5,
            validation_every: 20,
            seed: 1,
        }
    }
}

/// A sample as the trainer sees it: its active inputs and its target in seeds.
#[derive(Clone, Copy, Debug)]
pub struct Example {
    /// The inputs that are 1.
    pub active: [u16; ACTIVE],
    /// Seeds the side to move will still gain.
    pub target: f32,
}

/// The example of `sample`, or `None` if its position is not valid.
pub fn example(sample: &Sample, result_weight: f32) -> Option<Example> {
    let position = sample.position()?;
    let banked = sample.store_margin() as f32;
    let target = match (sample.exact, sample.searched) {
        (Some(exact), _) => f32::from(exact),
        (None, Some(cp)) => {
            let result = f32::from(sample.result) - banked;
            let searched = f32::from(cp) / 100.0 - banked;
            result_weight * result + (1.0 - result_weight) * searched
        }
        (None, None) => f32::from(sample.result) - banked,
    };
    Some(Example {
        active: active_inputs(&position),
        target,
    })
}

/// The network in floating point, as trained.
#[derive(Clone, Debug)]
pub struct Model {
    w1: Vec<[f32; HIDDEN]>,
    b1: [f32; HIDDEN],
    w2: [f32; HIDDEN],
    b2: f32,
}

/// A pseudo-random sequence (xorshift), for the initial weights and the shuffles.
struct Random(u64);

impl Random {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// Uniform in `-1..1`.
    fn signed(&mut self) -> f32 {
        (self.next() >> 40) as f32 / (1u64 << 23) as f32 - 1.0
    }
}

impl Model {
    /// Small random weights; every hidden unit starts half active.
    pub fn new(seed: u64) -> Model {
        let mut random = Random(seed.max(1));
        Model {
            w1: (0..INPUTS)
                .map(|_| std::array::from_fn(|_| 0.05 * random.signed()))
                .collect(),
            b1: [0.5; HIDDEN],
            w2: std::array::from_fn(|_| 0.1 * random.signed()),
            b2: 0.0,
        }
    }

    /// The hidden layer's sums (before clipping) for `active`.
    fn hidden(&self, active: &[u16; ACTIVE]) -> [f32; HIDDEN] {
        let mut hidden = self.b1;
        for &input in active {
            for (h, w) in hidden.iter_mut().zip(&self.w1[usize::from(input)]) {
                *h += w;
            }
        }
        hidden
    }

    /// The predicted gain in seeds.
    pub fn predict(&self, active: &[u16; ACTIVE]) -> f32 {
        let hidden = self.hidden(active);
        self.b2
            + hidden
                .iter()
                .zip(&self.w2)
                .map(|(h, w)| h.clamp(0.0, 1.0) * w)
                .sum::<f32>()
    }

    /// The integer weights of this model, or `None` if one does not fit the file.
    pub fn quantised(&self) -> Option<Network> {
        let round = |x: f32, scale: f32| {
            let v = (x * scale).round();
            (v.abs() <= f32::from(i16::MAX)).then_some(v as i32)
        };
        let scale = SCALE as f32;
        let rows = self
            .w1
            .iter()
            .map(|row| {
                let mut out = [0i32; HIDDEN];
                for (o, &w) in out.iter_mut().zip(row) {
                    *o = round(w, scale)?;
                }
                Some(out)
            })
            .collect::<Option<Vec<_>>>()?;
        let mut bias = [0; HIDDEN];
        let mut output = [0; HIDDEN];
        for i in 0..HIDDEN {
            bias[i] = round(self.b1[i], scale)?;
            output[i] = round(self.w2[i], 100.0)?;
        }
        Some(Network {
            rows,
            bias,
            output,
            output_bias: round(self.b2, 100.0)?,
        })
    }
}

/// Gradients and Adam's moments for every weight, laid out as one vector.
struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
    steps: i32,
}

/// Weights in the flat layout: `w1` row by row, then `b1`, `w2`, `b2`.
const WEIGHTS: usize = INPUTS * HIDDEN + 2 * HIDDEN + 1;

/// Root-mean-square error in seeds of `model` over `examples`.
pub fn rms_error(model: &Model, examples: &[Example]) -> f32 {
    let sum: f64 = examples
        .iter()
        .map(|e| f64::from(model.predict(&e.active) - e.target).powi(2))
        .sum();
    (sum / examples.len().max(1) as f64).sqrt() as f32
}

/// Splits `examples` into training and held-out ones: every `every`-th is held out. Positions
/// of one game are alike, so this share is optimistic as a test; holding out whole batch files
/// (`learn train --hold-out-batches`) is not.
pub fn split(examples: &[Example], every: usize) -> (Vec<Example>, Vec<Example>) {
    let every = every.max(2);
    let held_out = examples.iter().step_by(every).copied().collect();
    let training = examples
        .iter()
        .enumerate()
        .filter(|(i, _)| i % every != 0)
        .map(|(_, e)| *e)
        .collect();
    (training, held_out)
}

/// Trains a model on `training`; `report` hears each epoch's training error and the error on
/// `held_out`.
pub fn train(
    plan: &Plan,
    mut training: Vec<Example>,
    held_out: &[Example],
    report: &mut dyn FnMut(usize, f32, f32),
) -> Model {
    let mut model = Model::new(plan.seed);
    let mut adam = Adam {
        m: vec![0.0; WEIGHTS],
        v: vec![0.0; WEIGHTS],
        steps: 0,
    };
    let mut random = Random(plan.seed.wrapping_mul(0x9e37_79b9_7f4a_7c15).max(1));
    let mut gradient = vec![0f32; WEIGHTS];
    for epoch in 0..plan.epochs {
        for i in (1..training.len()).rev() {
            let j = (random.next() % (i as u64 + 1)) as usize;
            training.swap(i, j);
        }
        let progress = epoch as f32 / plan.epochs.max(2).saturating_sub(1) as f32;
        let rate = plan.learning_rate * (1.0 - 0.9 * progress);
        let mut squared = 0f64;
        for batch in training.chunks(plan.batch.max(1)) {
            gradient.iter_mut().for_each(|g| *g = 0.0);
            for example in batch {
                squared += accumulate(&model, example, &mut gradient);
            }
            step(&mut model, &mut adam, &gradient, rate, batch.len());
        }
        let train_rms = (squared / training.len().max(1) as f64).sqrt() as f32;
        report(epoch, train_rms, rms_error(&model, held_out));
    }
    model
}

/// Adds the gradient of one example's squared error to `gradient`; returns that error.
fn accumulate(model: &Model, example: &Example, gradient: &mut [f32]) -> f64 {
    let hidden = model.hidden(&example.active);
    let prediction = model.b2
        + hidden
            .iter()
            .zip(&model.w2)
            .map(|(h, w)| h.clamp(0.0, 1.0) * w)
            .sum::<f32>();
    let error = prediction - example.target;
    let d = 2.0 * error;
    let (b1_at, w2_at, b2_at) = (INPUTS * HIDDEN, INPUTS * HIDDEN + HIDDEN, WEIGHTS - 1);
    gradient[b2_at] += d;
    let mut d_hidden = [0f32; HIDDEN];
    for i in 0..HIDDEN {
        gradient[w2_at + i] += d * hidden[i].clamp(0.0, 1.0);
        if hidden[i] > 0.0 && hidden[i] < 1.0 {
            d_hidden[i] = d * model.w2[i];
        }
    }
    for i in 0..HIDDEN {
        gradient[b1_at + i] += d_hidden[i];
    }
    for &input in &example.active {
        let row = &mut gradient[usize::from(input) * HIDDEN..][..HIDDEN];
        for (g, dh) in row.iter_mut().zip(&d_hidden) {
            *g += dh;
        }
    }
    f64::from(error) * f64::from(error)
}

/// One Adam step over every weight.
fn step(model: &mut Model, adam: &mut Adam, gradient: &[f32], rate: f32, batch: usize) {
    const BETA1: f32 = 0.9;
    const BETA2: f32 = 0.999;
    adam.steps += 1;
    let correction1 = 1.0 - BETA1.powi(adam.steps);
    let correction2 = 1.0 - BETA2.powi(adam.steps);
    let scale = 1.0 / batch as f32;
    let mut update = |at: usize, weight: &mut f32| {
        let g = gradient[at] * scale;
        adam.m[at] = BETA1 * adam.m[at] + (1.0 - BETA1) * g;
        adam.v[at] = BETA2 * adam.v[at] + (1.0 - BETA2) * g * g;
        let m = adam.m[at] / correction1;
        let v = adam.v[at] / correction2;
        *weight -= rate * m / (v.sqrt() + 1e-8);
    };
    for (r, row) in model.w1.iter_mut().enumerate() {
        for (i, w) in row.iter_mut().enumerate() {
            update(r * HIDDEN + i, w);
        }
    }
    for i in 0..HIDDEN {
        update(INPUTS * HIDDEN + i, &mut model.b1[i]);
        update(INPUTS * HIDDEN + HIDDEN + i, &mut model.w2[i]);
    }
    update(WEIGHTS - 1, &mut model.b2);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Position;

    /// A target the inputs determine: 2 seeds when the side to move's first pit is empty.
    fn examples() -> Vec<Example> {
        let diagrams = [
            "0-5-4-4-4-4-4-4-4-4-4-4-3-0-S",
            "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S",
            "0-1-7-4-4-4-4-4-4-4-4-4-2-2-S",
            "2-2-4-4-4-4-4-4-4-4-4-4-4-0-S",
        ];
        let positions: Vec<Position> = diagrams
            .iter()
            .map(|d| d.parse().expect("valid diagram"))
            .collect();
        // Every diagram is among the held-out ones (every 20th) as well as the training ones.
        (0..4000)
            .map(|i| {
                let position = &positions[(i + i / 20) % positions.len()];
                Example {
                    active: active_inputs(position),
                    target: if position.seeds(0) == 0 { 2.0 } else { -1.0 },
                }
            })
            .collect()
    }

    #[test]
    fn training_fits_a_simple_target_and_the_rounding_keeps_it() {
        let plan = Plan {
            epochs: 6,
            batch: 32,
            learning_rate: 0.01,
            ..Plan::default()
        };
        let mut last = f32::MAX;
        let (training, held_out) = split(&examples(), plan.validation_every);
        let targets: std::collections::HashSet<u32> =
            held_out.iter().map(|e| e.target.to_bits()).collect();
        assert_eq!(targets.len(), 2, "both targets are held out");
        let model = train(&plan, training, &held_out, &mut |_, _, held| last = held);
        assert!(last < 0.1, "held-out error {last} seeds");
        let network = model.quantised().expect("small weights");
        for example in &held_out {
            let float = model.predict(&example.active);
            let rounded = network.future_gain_of(&example.active) as f32 / 100.0;
            assert!((float - rounded).abs() < 0.05, "{float} against {rounded}");
        }
    }
}
