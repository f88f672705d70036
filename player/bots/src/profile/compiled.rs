//! A profile made ready to play ([`CompiledProfile`]): the back-off that gives every
//! situation its answer probabilities, however rarely it was met.

use super::{size_list, Profile};
use super::{AnswerClass, Memory, Situation, ANSWER_CLASSES, MEMORIES, STATE_SITUATIONS, STREETS};
use std::collections::BTreeMap;

/// The state's fields kept at each level of the back-off below a situation (whose memory is
/// dropped first), finest first: street, strength, price, invested, depth, lead, players,
/// position.
pub const BACKOFF: [[bool; 8]; 9] = [
    [true, true, true, true, true, true, true, true],
    [true, true, true, true, true, true, true, false],
    [true, true, true, true, true, true, false, false],
    [true, true, true, true, true, false, false, false],
    [true, true, true, true, false, false, false, false],
    [true, false, true, true, false, false, false, false],
    [true, false, true, false, false, false, false, false],
    [true, false, false, false, false, false, false, false],
    [false, false, false, false, false, false, false, false],
];

/// The slot of `situation` among the memory's effects: its situation at
/// [`MEMORY_EFFECT_LEVEL`] and its memory.
fn effect_slot(situation: Situation) -> usize {
    coarsen(situation, &BACKOFF[MEMORY_EFFECT_LEVEL]) * MEMORIES
        + Memory::index_of(situation.memory)
}

/// The number of the state's situation at a back-off level: the fields it drops zeroed.
fn coarsen(situation: Situation, keep: &[bool; 8]) -> usize {
    let mut coarse = Situation::default();
    for ((digit, value), kept) in coarse
        .digits_mut()
        .into_iter()
        .zip(situation.digits())
        .zip(keep)
    {
        if *kept {
            *digit = value;
        }
    }
    coarse.state_index()
}

/// The level of [`BACKOFF`] at which the memory's effect is measured for situations met too
/// rarely with their memory: street, strength, price and whether the player is already in.
pub const MEMORY_EFFECT_LEVEL: usize = 4;

/// A profile made ready to play: for every situation, the probabilities of the answer classes
/// (answers impossible there, such as folding when checking is free, given to the answer they
/// amount to).
///
/// A situation is played as its state's situation (blended along [`BACKOFF`]), tilted by
/// what the memory changes in the player's answers at [`MEMORY_EFFECT_LEVEL`] (the ratio of
/// the answers' frequencies with this memory to those with any), and blended with its own
/// counts: where the memory was seen often it is played as recorded, where rarely as the state
/// alone with the memory's general effect, and without a memory as the state alone.
#[derive(Debug, Clone)]
pub struct CompiledProfile {
    pub(super) name: String,
    pub(super) fingerprint: String,
    /// By [`Situation::state_index`]: the probabilities of the state's situation.
    by_state: Vec<[f64; ANSWER_CLASSES]>,
    /// By [`effect_slot`], in order, for every memory met at [`MEMORY_EFFECT_LEVEL`]: how much
    /// more or less often the player gives each answer with that memory (1: as often).
    effects: Vec<(usize, [f64; ANSWER_CLASSES])>,
    /// By [`Situation::index`], in order: the cumulative probabilities of every situation met.
    met: Vec<(u32, [f64; ANSWER_CLASSES])>,
    raise_sizes: Vec<Vec<f64>>,
}

impl CompiledProfile {
    pub(super) fn new(profile: &Profile) -> CompiledProfile {
        let met: Vec<(Situation, [f64; ANSWER_CLASSES])> = profile
            .cells
            .iter()
            .filter_map(|cell| {
                let situation = Situation::from_index(cell[0] as usize)?;
                Some((situation, std::array::from_fn(|k| f64::from(cell[1 + k]))))
            })
            .collect();
        // Counts at every level of the state's situations, each level's indexed as the
        // coarsened full one, and at the memory's level by memory too.
        let mut levels = vec![vec![[0.0f64; ANSWER_CLASSES]; STATE_SITUATIONS]; BACKOFF.len()];
        let mut with_memory: BTreeMap<usize, [f64; ANSWER_CLASSES]> = BTreeMap::new();
        for (situation, counts) in &met {
            let slots = BACKOFF
                .iter()
                .zip(&mut levels)
                .map(|(keep, level)| &mut level[coarsen(*situation, keep)]);
            let memory_slot = situation
                .memory
                .map(|_| with_memory.entry(effect_slot(*situation)).or_default());
            for slot in slots.chain(memory_slot) {
                for (count, value) in slot.iter_mut().zip(counts) {
                    *count += value;
                }
            }
        }
        let k = profile.smoothing;
        let blend = |probabilities: &mut [f64; ANSWER_CLASSES], counts: &[f64; ANSWER_CLASSES]| {
            let total: f64 = counts.iter().sum();
            for (p, count) in probabilities.iter_mut().zip(counts) {
                *p = (count + k * *p) / (total + k);
            }
        };
        let state_situation = |index: usize| {
            Situation::from_index(index * MEMORIES + MEMORIES - 1).unwrap_or_default()
        };
        // The state's situations: from the coarsest level (blended with an even prior) to the
        // finest.
        let by_state: Vec<[f64; ANSWER_CLASSES]> = (0..STATE_SITUATIONS)
            .map(|index| {
                let situation = state_situation(index);
                let mut probabilities = [1.0 / ANSWER_CLASSES as f64; ANSWER_CLASSES];
                for (level, keep) in levels.iter().zip(&BACKOFF).rev() {
                    blend(&mut probabilities, &level[coarsen(situation, keep)]);
                }
                feasible(situation, &mut probabilities);
                probabilities
            })
            .collect();
        // The memory's effect at its level: its answers' frequencies over those of any memory
        // there (both blended as a finer level is).
        let level = &levels[MEMORY_EFFECT_LEVEL];
        let effects = with_memory
            .iter()
            .map(|(&slot, counts)| {
                let mut any = [1.0 / ANSWER_CLASSES as f64; ANSWER_CLASSES];
                blend(&mut any, &level[slot / MEMORIES]);
                let mut remembered = any;
                blend(&mut remembered, counts);
                let effect = std::array::from_fn(|class| remembered[class] / any[class]);
                (slot, effect)
            })
            .collect();
        let mut compiled = CompiledProfile {
            name: profile.name.clone(),
            fingerprint: profile.fingerprint(),
            by_state,
            effects,
            met: Vec::new(),
            raise_sizes: profile.raise_sizes.clone(),
        };
        // A situation met with its memory: its counts blended with its state's, tilted.
        compiled.met = met
            .iter()
            .map(|(situation, counts)| {
                let mut probabilities = compiled.unmet(*situation);
                blend(&mut probabilities, counts);
                (
                    situation.index() as u32,
                    cumulate(*situation, probabilities),
                )
            })
            .collect();
        compiled
    }

    /// The probabilities of `situation` from its state's and its memory's effect alone.
    fn unmet(&self, situation: Situation) -> [f64; ANSWER_CLASSES] {
        let mut probabilities = self.by_state[situation.state_index()];
        let effect = situation.memory.and_then(|_| {
            let slot = effect_slot(situation);
            let at = self.effects.binary_search_by_key(&slot, |(slot, _)| *slot);
            at.ok().map(|at| &self.effects[at].1)
        });
        if let Some(effect) = effect {
            for (p, e) in probabilities.iter_mut().zip(effect) {
                *p *= e;
            }
            let total: f64 = probabilities.iter().sum();
            if total > 0.0 {
                probabilities.iter_mut().for_each(|p| *p /= total);
            }
        }
        probabilities
    }

    /// The recorded player's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// [`Profile::fingerprint`] of the profile this was compiled from.
    pub fn fingerprint(&self) -> &str {
        &self.fingerprint
    }

    /// The cumulative probabilities of the answer classes in `situation`.
    pub(super) fn cumulative(&self, situation: Situation) -> [f64; ANSWER_CLASSES] {
        let index = situation.index() as u32;
        match self.met.binary_search_by_key(&index, |(met, _)| *met) {
            Ok(at) => self.met[at].1,
            Err(_) => cumulate(situation, self.unmet(situation)),
        }
    }

    /// The probability of each answer class in `situation`.
    pub fn probabilities(&self, situation: Situation) -> [f64; ANSWER_CLASSES] {
        let cumulative = self.cumulative(situation);
        let mut previous = 0.0;
        let mut probabilities = [0.0; ANSWER_CLASSES];
        for (p, c) in probabilities.iter_mut().zip(cumulative) {
            *p = c - previous;
            previous = c;
        }
        probabilities
    }

    /// A raise of class `slot` (0 small, 1 medium, 2 large) in `situation`, sized as
    /// [`classify`] sizes it, at quantile `draw` in `0..1` of the recorded sizes (with this
    /// memory on this street, else on this street, else on any street, else the class's
    /// middle).
    pub(super) fn raise_size(&self, situation: Situation, slot: usize, draw: f64) -> f64 {
        let street = situation.street as usize;
        let facing = situation.price > 0;
        let sizes = [
            size_list(street, situation.memory, facing, slot),
            size_list(street, None, facing, slot),
        ]
        .into_iter()
        .chain((0..STREETS).map(|street| size_list(street, None, facing, slot)))
        .map(|list| &self.raise_sizes[list])
        .find(|sizes| !sizes.is_empty());
        match sizes {
            Some(sizes) => {
                let at = ((draw * sizes.len() as f64) as usize).min(sizes.len() - 1);
                sizes[at]
            }
            None if facing => [1.0, 2.0, 4.0][slot],
            None => [0.5, 1.0, 2.0][slot],
        }
    }
}

/// The cumulative probabilities of `probabilities` in `situation`, answers that cannot be
/// made there given to those they amount to.
fn cumulate(
    situation: Situation,
    mut probabilities: [f64; ANSWER_CLASSES],
) -> [f64; ANSWER_CLASSES] {
    feasible(situation, &mut probabilities);
    let mut running = 0.0;
    probabilities.map(|p| {
        running += p;
        running
    })
}

/// Gives the probability of answers that cannot be made in `situation` to the answer they
/// amount to: a fold when checking is free is a check; a raise when calling takes the whole
/// stack is that call.
fn feasible(situation: Situation, probabilities: &mut [f64; ANSWER_CLASSES]) {
    if situation.price == 0 {
        probabilities[AnswerClass::CheckCall.index()] += probabilities[AnswerClass::Fold.index()];
        probabilities[AnswerClass::Fold.index()] = 0.0;
    }
    if situation.price == 4 {
        for class in AnswerClass::ALL.into_iter().filter(|class| class.raises()) {
            probabilities[AnswerClass::CheckCall.index()] += probabilities[class.index()];
            probabilities[class.index()] = 0.0;
        }
    }
}
