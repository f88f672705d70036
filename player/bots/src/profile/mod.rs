//! Opponent profiles: how a recorded player acts, learned from its recorded decisions, and a
//! house bot that plays it ([`ProfileBot`]).
//!
//! A [`Profile`] counts, for every [`Situation`] (street, the strength of the player's own
//! cards, the price, whether it is already in the pot, its stack in big blinds, the players
//! still in the hand, its position),
//! how often the player folded, checked or called, raised (small, medium or large, as a share
//! of the pot) or went all-in, and keeps the sizes of its raises. Where a situation was seen
//! rarely, its counts are blended with those of coarser situations ([`BACKOFF`]: position
//! dropped first, then the players in the hand, the depth, the strength, whether it was
//! already in, and the price), each
//! level weighing as much as [`Profile::smoothing`] decisions, so that a situation the player
//! met thousands of times is played as recorded and one it never met as the player plays
//! that street and price in general.
//!
//! What a profile captures: the player's answer frequencies and raise sizes by situation.
//! What it does not: memory (what opponents did earlier, in this hand's previous streets or
//! in past hands), adaptation, timing tells, or anything finer than its situation classes
//! (exact hand within a class, board texture beyond made hands and draws).
//!
//! The fitting (from dealer runs, PHH hands, event folders and live logs) is the arena's
//! (`arena::field`); the shipped profiles, fitted from recordings of real team bots, are
//! [`BotKind::REAL_FIELD`](crate::BotKind::REAL_FIELD).

mod shipped;
mod situation;

pub use shipped::{shipped, SHIPPED};
pub use situation::{
    classify, AnswerClass, Situation, ANSWER_CLASSES, DEPTHS, INVESTMENTS, PLAYER_COUNTS,
    POSITIONS, PRICES, SITUATIONS, STREETS, STRENGTHS,
};

use player::{Chips, GameState, Player};
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;
use std::sync::Arc;
use thiserror::Error;

/// The profile file format this build reads and writes.
pub const PROFILE_FORMAT: u32 = 1;

/// How many decisions a coarser situation weighs when blended into a finer one.
pub const DEFAULT_SMOOTHING: f64 = 6.0;

/// Quantiles kept of each raise class's sizes, per street.
pub const SIZE_QUANTILES: usize = 9;

/// The situation fields kept at each level of the back-off, finest first: street, strength,
/// price, invested, depth, players, position.
pub const BACKOFF: [[bool; 7]; 8] = [
    [true, true, true, true, true, true, true],
    [true, true, true, true, true, true, false],
    [true, true, true, true, true, false, false],
    [true, true, true, true, false, false, false],
    [true, false, true, true, false, false, false],
    [true, false, true, false, false, false, false],
    [true, false, false, false, false, false, false],
    [false, false, false, false, false, false, false],
];

/// A recorded player's answers by situation: what a [`ProfileBot`] plays. Saved as JSON
/// ([`Profile::to_json`], [`Profile::from_json`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Profile {
    /// [`PROFILE_FORMAT`].
    pub format: u32,
    /// The recorded player's name (or the name it was given).
    pub name: String,
    /// Decisions counted.
    pub decisions: u64,
    /// Hands those decisions came from.
    pub hands: u64,
    /// Where they came from (folders or files, as given to the fit).
    pub sources: Vec<String>,
    /// [`DEFAULT_SMOOTHING`] unless chosen otherwise.
    pub smoothing: f64,
    /// Every situation met: `[situation index, count of each answer class]`, by index.
    pub cells: Vec<[u32; 1 + ANSWER_CLASSES]>,
    /// Raise sizes (a raise as a share of the pot after calling), by street (4) and raise
    /// class (small, medium, large): [`SIZE_QUANTILES`] quantiles each, empty when none was
    /// seen.
    pub raise_sizes: Vec<Vec<f64>>,
}

/// A profile file that cannot be used.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum ProfileError {
    /// Not a profile.
    #[error("not an opponent profile: {0}")]
    Json(String),
    /// Written by another version of the format.
    #[error("profile format {found}, this build reads format {PROFILE_FORMAT}: fit it again")]
    Format {
        /// The file's format.
        found: u32,
    },
    /// Numbers that cannot be.
    #[error("the profile {name:?} is inconsistent: {problem}")]
    Inconsistent {
        /// The profile's name.
        name: String,
        /// What is wrong.
        problem: String,
    },
}

impl Profile {
    /// Reads a profile written by [`Profile::to_json`], checking it.
    ///
    /// # Errors
    /// [`ProfileError`] when the text is not a profile of this format, or its numbers are
    /// inconsistent.
    pub fn from_json(text: &str) -> Result<Profile, ProfileError> {
        #[derive(Deserialize)]
        struct FormatOnly {
            format: u32,
        }
        let format: FormatOnly =
            serde_json::from_str(text).map_err(|e| ProfileError::Json(e.to_string()))?;
        if format.format != PROFILE_FORMAT {
            return Err(ProfileError::Format {
                found: format.format,
            });
        }
        let profile: Profile =
            serde_json::from_str(text).map_err(|e| ProfileError::Json(e.to_string()))?;
        profile.check()?;
        Ok(profile)
    }

    fn check(&self) -> Result<(), ProfileError> {
        let problem = |problem: String| ProfileError::Inconsistent {
            name: self.name.clone(),
            problem,
        };
        let mut previous = None;
        for cell in &self.cells {
            let index = cell[0] as usize;
            if index >= SITUATIONS {
                return Err(problem(format!("situation {index} out of range")));
            }
            if previous.is_some_and(|p| p >= index) {
                return Err(problem(format!("situation {index} out of order")));
            }
            previous = Some(index);
        }
        if self.raise_sizes.len() != STREETS * 3 {
            return Err(problem(format!(
                "{} raise-size lists, expected {}",
                self.raise_sizes.len(),
                STREETS * 3
            )));
        }
        if self
            .raise_sizes
            .iter()
            .flatten()
            .any(|size| !size.is_finite() || *size < 0.0)
        {
            return Err(problem("a raise size is not a positive number".to_string()));
        }
        if !self.smoothing.is_finite() || self.smoothing <= 0.0 {
            return Err(problem(format!("smoothing {}", self.smoothing)));
        }
        Ok(())
    }

    /// The profile as JSON, one situation a line, the same bytes for the same profile.
    pub fn to_json(&self) -> String {
        let mut out = String::with_capacity(64 + self.cells.len() * 40);
        let string = |text: &str| serde_json::to_string(text).unwrap_or_default();
        let _ = writeln!(out, "{{");
        let _ = writeln!(out, "  \"format\": {},", self.format);
        let _ = writeln!(out, "  \"name\": {},", string(&self.name));
        let _ = writeln!(out, "  \"decisions\": {},", self.decisions);
        let _ = writeln!(out, "  \"hands\": {},", self.hands);
        let sources: Vec<String> = self.sources.iter().map(|s| string(s)).collect();
        let _ = writeln!(out, "  \"sources\": [{}],", sources.join(", "));
        let _ = writeln!(out, "  \"smoothing\": {:?},", self.smoothing);
        let _ = writeln!(out, "  \"raise_sizes\": [");
        let sizes = self.raise_sizes.iter().map(|sizes| {
            let values: Vec<String> = sizes.iter().map(|size| format!("{size:?}")).collect();
            values.join(", ")
        });
        push_rows(&mut out, sizes);
        let _ = writeln!(out, "  ],");
        let _ = writeln!(out, "  \"cells\": [");
        let cells = self.cells.iter().map(|cell| {
            let values: Vec<String> = cell.iter().map(u32::to_string).collect();
            values.join(",")
        });
        push_rows(&mut out, cells);
        let _ = writeln!(out, "  ]");
        let _ = writeln!(out, "}}");
        out
    }

    /// A short fingerprint of the profile's content (FNV-1a of its JSON), to tell two fits
    /// apart in saved runs.
    pub fn fingerprint(&self) -> String {
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        for byte in self.to_json().bytes() {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
        format!("{:08x}", hash >> 32)
    }

    /// The answer probabilities of every situation, blended along [`BACKOFF`]: what a
    /// [`ProfileBot`] plays.
    pub fn compile(&self) -> CompiledProfile {
        CompiledProfile::new(self)
    }
}

/// Writes `rows` as the lines of a JSON array, one `[row]` a line, commas between them.
fn push_rows(out: &mut String, rows: impl ExactSizeIterator<Item = String>) {
    let count = rows.len();
    for (index, row) in rows.enumerate() {
        let comma = if index + 1 < count { "," } else { "" };
        let _ = writeln!(out, "    [{row}]{comma}");
    }
}

/// Counts decisions into a [`Profile`]: the one place where recorded answers become a profile
/// (the readers of recordings only feed it).
#[derive(Debug, Clone)]
pub struct ProfileCounts {
    counts: Vec<[u32; ANSWER_CLASSES]>,
    sizes: Vec<Vec<f64>>,
    decisions: u64,
}

impl Default for ProfileCounts {
    fn default() -> Self {
        ProfileCounts {
            counts: vec![[0; ANSWER_CLASSES]; SITUATIONS],
            sizes: vec![Vec::new(); STREETS * 3],
            decisions: 0,
        }
    }
}

impl ProfileCounts {
    /// Counts one decision: the situation, the answer's class and, for a raise short of
    /// all-in, its size as a share of the pot after calling.
    pub fn add(&mut self, situation: Situation, class: AnswerClass, size: Option<f64>) {
        let cell = &mut self.counts[situation.index()][class.index()];
        *cell = cell.saturating_add(1);
        self.decisions += 1;
        if let (Some(slot), Some(size)) = (class.size_slot(), size) {
            if size.is_finite() && size >= 0.0 {
                self.sizes[situation.street as usize * 3 + slot].push(size);
            }
        }
    }

    /// Reads the decision of the player in action in `state` and its `answer`, and counts it;
    /// `false` (nothing counted) when the state has nothing to decide from.
    pub fn add_answer(&mut self, state: &GameState, answer: Chips) -> bool {
        let Some(situation) = Situation::read(state) else {
            return false;
        };
        let (class, size) = classify(state, answer);
        self.add(situation, class, size);
        true
    }

    /// Adds another count (of the same player from another recording).
    pub fn merge(&mut self, other: &ProfileCounts) {
        for (mine, theirs) in self.counts.iter_mut().zip(&other.counts) {
            for (a, b) in mine.iter_mut().zip(theirs) {
                *a = a.saturating_add(*b);
            }
        }
        for (mine, theirs) in self.sizes.iter_mut().zip(&other.sizes) {
            mine.extend_from_slice(theirs);
        }
        self.decisions += other.decisions;
    }

    /// Decisions counted.
    pub fn decisions(&self) -> u64 {
        self.decisions
    }

    /// The profile of these decisions, named `name`, from `hands` hands of `sources`.
    pub fn finish(&self, name: &str, hands: u64, sources: Vec<String>) -> Profile {
        let cells = self
            .counts
            .iter()
            .enumerate()
            .filter(|(_, counts)| counts.iter().any(|&c| c > 0))
            .map(|(index, counts)| {
                let mut cell = [0u32; 1 + ANSWER_CLASSES];
                cell[0] = index as u32;
                cell[1..].copy_from_slice(counts);
                cell
            })
            .collect();
        let raise_sizes = self
            .sizes
            .iter()
            .map(|sizes| {
                if sizes.is_empty() {
                    return Vec::new();
                }
                let mut sorted = sizes.clone();
                sorted.sort_by(f64::total_cmp);
                // The middle of each of SIZE_QUANTILES equal slices, rounded to 1/1000 of the
                // pot: small files, the same bytes whatever order the decisions came in.
                (0..SIZE_QUANTILES)
                    .map(|q| {
                        let at = ((2 * q + 1) * sorted.len()) / (2 * SIZE_QUANTILES);
                        (sorted[at.min(sorted.len() - 1)] * 1000.0).round() / 1000.0
                    })
                    .collect()
            })
            .collect();
        Profile {
            format: PROFILE_FORMAT,
            name: name.to_string(),
            decisions: self.decisions,
            hands,
            sources,
            smoothing: DEFAULT_SMOOTHING,
            cells,
            raise_sizes,
        }
    }
}

/// Zeroes the fields a back-off level drops.
fn coarsen(situation: Situation, keep: &[bool; 7]) -> usize {
    let keep_or_zero = |value: u8, kept: bool| if kept { value } else { 0 };
    Situation {
        street: keep_or_zero(situation.street, keep[0]),
        strength: keep_or_zero(situation.strength, keep[1]),
        price: keep_or_zero(situation.price, keep[2]),
        invested: keep_or_zero(situation.invested, keep[3]),
        depth: keep_or_zero(situation.depth, keep[4]),
        players: keep_or_zero(situation.players, keep[5]),
        position: keep_or_zero(situation.position, keep[6]),
    }
    .index()
}

/// A profile made ready to play: for every situation, the cumulative probabilities of the
/// answer classes (answers impossible there, such as folding when checking is free, given to
/// the answer they amount to).
#[derive(Debug, Clone)]
pub struct CompiledProfile {
    name: String,
    fingerprint: String,
    cumulative: Vec<[f64; ANSWER_CLASSES]>,
    raise_sizes: Vec<Vec<f64>>,
}

impl CompiledProfile {
    fn new(profile: &Profile) -> CompiledProfile {
        // Counts at every level, each level's situations indexed as the coarsened full one.
        let mut levels = vec![vec![[0.0f64; ANSWER_CLASSES]; SITUATIONS]; BACKOFF.len()];
        for cell in &profile.cells {
            let Some(situation) = Situation::from_index(cell[0] as usize) else {
                continue;
            };
            for (level, keep) in BACKOFF.iter().enumerate() {
                let slot = &mut levels[level][coarsen(situation, keep)];
                for (count, value) in slot.iter_mut().zip(&cell[1..]) {
                    *count += f64::from(*value);
                }
            }
        }
        let k = profile.smoothing;
        let cumulative = (0..SITUATIONS)
            .map(|index| {
                let situation = Situation::from_index(index).unwrap_or(Situation {
                    street: 0,
                    strength: 0,
                    price: 0,
                    invested: 0,
                    depth: 0,
                    players: 0,
                    position: 0,
                });
                // From the coarsest level (blended with an even prior) to the finest.
                let mut probabilities = [1.0 / ANSWER_CLASSES as f64; ANSWER_CLASSES];
                for level in (0..BACKOFF.len()).rev() {
                    let counts = &levels[level][coarsen(situation, &BACKOFF[level])];
                    let total: f64 = counts.iter().sum();
                    for (p, count) in probabilities.iter_mut().zip(counts) {
                        *p = (count + k * *p) / (total + k);
                    }
                }
                feasible(situation, &mut probabilities);
                let mut running = 0.0;
                let mut cumulative = [0.0; ANSWER_CLASSES];
                for (c, p) in cumulative.iter_mut().zip(probabilities) {
                    running += p;
                    *c = running;
                }
                cumulative
            })
            .collect();
        CompiledProfile {
            name: profile.name.clone(),
            fingerprint: profile.fingerprint(),
            cumulative,
            raise_sizes: profile.raise_sizes.clone(),
        }
    }

    /// The recorded player's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// [`Profile::fingerprint`] of the profile this was compiled from.
    pub fn fingerprint(&self) -> &str {
        &self.fingerprint
    }

    /// The probability of each answer class in `situation`.
    pub fn probabilities(&self, situation: Situation) -> [f64; ANSWER_CLASSES] {
        let cumulative = &self.cumulative[situation.index()];
        let mut previous = 0.0;
        let mut probabilities = [0.0; ANSWER_CLASSES];
        for (p, c) in probabilities.iter_mut().zip(cumulative) {
            *p = c - previous;
            previous = *c;
        }
        probabilities
    }

    /// A raise of class `slot` (0 small, 1 medium, 2 large) on `street`, as a share of the
    /// pot after calling, at quantile `draw` in `0..1` of the recorded sizes (of this street,
    /// else of any street, else the class's middle).
    fn raise_share(&self, street: usize, slot: usize, draw: f64) -> f64 {
        let sizes = Some(&self.raise_sizes[street * 3 + slot])
            .filter(|sizes| !sizes.is_empty())
            .or_else(|| {
                (0..STREETS)
                    .map(|s| &self.raise_sizes[s * 3 + slot])
                    .find(|sizes| !sizes.is_empty())
            });
        match sizes {
            Some(sizes) => {
                let at = ((draw * sizes.len() as f64) as usize).min(sizes.len() - 1);
                sizes[at]
            }
            None => [0.5, 1.0, 2.0][slot],
        }
    }
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

/// A house bot that plays a [`Profile`]: in each situation it draws an answer class with the
/// recorded player's frequencies and, for a raise, one of its recorded sizes. Deterministic:
/// every draw follows from the bot's seed and the decision (hand, bet, pot, seat), so a game
/// replays from its seed; every answer is a legal, meaningful bet.
#[derive(Debug, Clone)]
pub struct ProfileBot {
    profile: Arc<CompiledProfile>,
    seed: u64,
}

impl ProfileBot {
    /// A bot playing `profile`, its draws following `seed`.
    pub fn new(profile: Arc<CompiledProfile>, seed: u64) -> ProfileBot {
        ProfileBot { profile, seed }
    }

    /// Two numbers in `0..1` for this decision.
    fn draws(&self, state: &GameState) -> (f64, f64) {
        let mut hash = self.seed ^ 0x9e37_79b9_7f4a_7c15;
        for value in [
            state.round.unwrap_or(0),
            state.bet_index.unwrap_or(0),
            state.pot.get(),
            state.current_buy_in.get(),
            state.community_cards.len() as u64,
            state.in_action().map_or(0, |seat| seat.index() as u64),
        ] {
            hash = splitmix(hash ^ value);
        }
        let first = splitmix(hash);
        let second = splitmix(first);
        let unit = |x: u64| (x >> 11) as f64 / (1u64 << 53) as f64;
        (unit(first), unit(second))
    }
}

/// SplitMix64's finaliser: a well-mixed 64-bit hash step.
fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

impl Player for ProfileBot {
    fn bet_request(&self, state: &GameState) -> Chips {
        let Some(situation) = Situation::read(state) else {
            return Chips::ZERO;
        };
        let (class_draw, size_draw) = self.draws(state);
        let cumulative = &self.profile.cumulative[situation.index()];
        let class = cumulative
            .iter()
            .position(|&c| class_draw < c)
            .map_or(AnswerClass::CheckCall, |index| AnswerClass::ALL[index]);
        match class {
            AnswerClass::Fold => Chips::ZERO,
            AnswerClass::CheckCall => state.call_amount(),
            AnswerClass::AllIn => state.all_in_amount(),
            raise => {
                let slot = raise.size_slot().unwrap_or(0);
                let share = self
                    .profile
                    .raise_share(situation.street as usize, slot, size_draw);
                let base = state.pot.saturating_add(state.call_amount()).get() as f64;
                let raise_by = Chips((share * base).round().max(0.0) as u64);
                let answer = state
                    .call_amount()
                    .saturating_add(raise_by)
                    .max(state.minimum_raise_amount());
                answer.min(state.all_in_amount())
            }
        }
    }

    fn version(&self) -> String {
        format!("profile {} {}", self.profile.name, self.profile.fingerprint)
    }
}

#[cfg(test)]
mod tests;
