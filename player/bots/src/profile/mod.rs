//! Opponent profiles: how a recorded player acts, learned from its recorded decisions, and a
//! house bot that plays it ([`ProfileBot`]).
//!
//! A [`Profile`] counts, for every [`Situation`] (street, the strength of the player's own
//! cards, the price, whether it is already in the pot, its stack in big blinds, its chips
//! against the other players', the players still in the hand, its position, and its
//! [`Memory`] of the hand: who made the last raise before this street, itself, another player
//! or nobody, and whether it checked or called or raised earlier on this street), how often
//! the player folded, checked or called, raised (small, medium or large, as a share of the
//! pot) or went all-in, and keeps the sizes of its raises. Where a situation was seen rarely,
//! it is played as its state's situation (the memory dropped), which is blended with coarser
//! ones along [`BACKOFF`] (position dropped first, then the players in the hand, the chip
//! lead, the depth, the strength, whether it was already in, and the price), each level
//! weighing as much as [`Profile::smoothing`] decisions, and tilted by what the memory
//! changes in the player's answers at a coarse level ([`MEMORY_EFFECT_LEVEL`]): a situation
//! the player met thousands of times is played as recorded, one it never met as the player
//! plays that street and price in general with that memory.
//!
//! The memory is read from the states the player was asked in earlier in the hand, by one
//! function ([`HandTracker`], inside [`Situation::read`]): the fitter feeds it a recorded
//! player's states in order, and the [`ProfileBot`] the states it is sent, one tracker per game
//! and seat ([`HandTrackers`]). So the bot needs what Lean Poker sends: `game_id` and `round`
//! to tell games and hands apart (without them, every request of a game in order), and every
//! request of the hand; a decision whose hand it did not see from its first decision (a bot
//! restarted mid-hand) is played by the state alone.
//!
//! What a profile captures: the player's answer frequencies and raise sizes by situation.
//! What it does not: what opponents did in past hands, how many raises the hand saw beyond
//! the initiative and the player's own earlier answer on the street, who the opponents are,
//! adaptation, timing tells, or anything finer than its situation classes (exact hand within
//! a class, board texture beyond made hands and draws).
//!
//! The fitting (from dealer runs, PHH hands, event folders and live logs) is the arena's
//! (`arena::field`); the shipped profiles, fitted from recordings of real team bots, are
//! [`BotKind::REAL_FIELD`](crate::BotKind::REAL_FIELD).

mod bot;
mod compiled;
mod memory;
mod shipped;
mod situation;

pub use bot::ProfileBot;
pub use compiled::{CompiledProfile, BACKOFF, MEMORY_EFFECT_LEVEL};
pub use memory::{Earlier, HandTracker, HandTrackers, Initiative, Memory, MEMORIES};
pub use shipped::{shipped, SHIPPED};
pub use situation::{
    classify, AnswerClass, Situation, ANSWER_CLASSES, DEPTHS, INVESTMENTS, LEADS, PLAYER_COUNTS,
    POSITIONS, PRICES, SITUATIONS, STATE_SITUATIONS, STREETS, STRENGTHS,
};

use player::{Chips, GameState};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use thiserror::Error;

/// The profile file format this build reads and writes. Format 2: situations have a chip lead
/// and a memory of the hand ([`Situation::index`]), raise sizes are kept by memory and by
/// whether the raise faced a bet ([`SIZE_LISTS`]).
pub const PROFILE_FORMAT: u32 = 2;

/// How many decisions a coarser situation weighs when blended into a finer one.
pub const DEFAULT_SMOOTHING: f64 = 10.0;

/// Quantiles kept of each raise class's sizes, per street.
pub const SIZE_QUANTILES: usize = 9;

/// Raise sizes are kept apart by the player's memory of the hand (a raise answering a
/// re-raise is no opening bet), also for all memories together, and by whether the raise
/// faced a bet (sized in minimum raises) or not (sized as a share of the pot).
pub const SIZE_GROUPS: usize = MEMORIES * 2;

/// Raise-size lists: by street, [`SIZE_GROUPS`] and raise class (small, medium, large).
pub const SIZE_LISTS: usize = STREETS * SIZE_GROUPS * 3;

/// The raise-size list of a raise of class `slot` (0 small, 1 medium, 2 large) on `street`
/// with `memory` (`None`: any, the group of all), facing a bet or not.
fn size_list(street: usize, memory: Option<Memory>, facing: bool, slot: usize) -> usize {
    let group = Memory::index_of(memory) * 2 + usize::from(facing);
    (street * SIZE_GROUPS + group) * 3 + slot
}

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
    /// Raise sizes as [`classify`] gives them (with nothing to call, a share of the pot, 0 for
    /// the smallest bet; facing a bet, in minimum raises), by street, by memory (the nine
    /// memories, then all decisions), by whether the raise faced a bet, and by raise class
    /// (small, medium, large): [`SIZE_QUANTILES`] quantiles each, empty when none was seen
    /// ([`SIZE_LISTS`] lists).
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
        if self.raise_sizes.len() != SIZE_LISTS {
            return Err(problem(format!(
                "{} raise-size lists, expected {SIZE_LISTS}",
                self.raise_sizes.len(),
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

    /// The answer probabilities of every situation, blended along [`BACKOFF`] and tilted by
    /// the memory's effect: what a [`ProfileBot`] plays.
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
    /// By situation number: the situations met (a player meets a few thousand of them).
    counts: BTreeMap<u32, [u32; ANSWER_CLASSES]>,
    sizes: Vec<Vec<f64>>,
    decisions: u64,
}

impl Default for ProfileCounts {
    fn default() -> Self {
        ProfileCounts {
            counts: BTreeMap::new(),
            sizes: vec![Vec::new(); SIZE_LISTS],
            decisions: 0,
        }
    }
}

impl ProfileCounts {
    /// Counts one decision: the situation, the answer's class and, for a raise of a sized
    /// class, its size as [`classify`] gives it.
    pub fn add(&mut self, situation: Situation, class: AnswerClass, size: Option<f64>) {
        let cell = &mut self.counts.entry(situation.index() as u32).or_default()[class.index()];
        *cell = cell.saturating_add(1);
        self.decisions += 1;
        if let (Some(slot), Some(size)) = (class.size_slot(), size) {
            if size.is_finite() && size >= 0.0 {
                let street = situation.street as usize;
                let facing = situation.price > 0;
                if situation.memory.is_some() {
                    self.sizes[size_list(street, situation.memory, facing, slot)].push(size);
                }
                self.sizes[size_list(street, None, facing, slot)].push(size);
            }
        }
    }

    /// Reads the decision of the player in action in `state` and its `answer`, and counts it;
    /// `false` (nothing counted) when the state has nothing to decide from. `hand` tracks the
    /// player's hand: feed it every state the player was asked in, in order.
    pub fn add_answer(&mut self, state: &GameState, answer: Chips, hand: &mut HandTracker) -> bool {
        let Some(situation) = Situation::read(state, hand) else {
            return false;
        };
        let (class, size) = classify(state, answer);
        self.add(situation, class, size);
        true
    }

    /// Adds another count (of the same player from another recording).
    pub fn merge(&mut self, other: &ProfileCounts) {
        for (index, theirs) in &other.counts {
            let mine = self.counts.entry(*index).or_default();
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
            .filter(|(_, counts)| counts.iter().any(|&c| c > 0))
            .map(|(&index, counts)| {
                let mut cell = [0u32; 1 + ANSWER_CLASSES];
                cell[0] = index;
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

#[cfg(test)]
mod tests;
