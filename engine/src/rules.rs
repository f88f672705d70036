//! How one sit'n'go is played: starting stack, blind schedule, what happens to bad answers,
//! odd chips, the board after an early end and an optional hand limit. How long a player may
//! take to answer is no rule of poker but the transport's deadline: see
//! the dealer's `seat::HttpSettings` and `settings` for the run's settings.
//!
//! Every field has the live server's behaviour as its default, so `GameRules::default()` plays
//! like LIVE (spec §5–§7). The struct is serde-(de)serialisable (`results.json` records it as
//! `config`; the run's config file shares its blind schedule and odd-chip forms); unknown keys
//! are rejected so that a typo never silently falls back to a default:
//!
//! ```
//! use engine::rules::{BadAnswerPolicy, BlindSchedule, GameRules};
//! let config: GameRules = toml::from_str(
//!     r#"
//!     starting_stack = 2000
//!     blinds = "classic"
//!     bad_answers = "forgive"
//!     hand_limit = 300
//!     "#,
//! )
//! .unwrap();
//! assert_eq!(config.blinds, BlindSchedule::Classic);
//! assert_eq!(config.bad_answers, BadAnswerPolicy::Forgive);
//! assert!(config.deal_out_board); // default kept
//! config.validate().unwrap();
//! ```

use serde::{Deserialize, Serialize};
use shared::Chips;
use thiserror::Error;

/// The largest starting stack accepted. Keeps every sum of chips at a table of
/// [`crate::MAX_SEATS`] players far from `u64` overflow, whatever a player answers.
pub const MAX_STARTING_STACK: Chips = Chips(1_000_000_000_000_000);

/// The largest small blind a schedule may name (the big blind is twice as much).
pub const MAX_SMALL_BLIND: Chips = Chips(1_000_000_000_000_000);

/// The configuration of one sit'n'go. See the module docs for the TOML form.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct GameRules {
    /// Chips every player starts with (spec §7: 1000).
    pub starting_stack: Chips,
    /// How the blinds grow (spec §7): `live` (default), `classic` or a custom list.
    pub blinds: BlindSchedule,
    /// What an invalid `bet_request` answer does (spec §6): ban (LIVE, default) or forgive.
    pub bad_answers: BadAnswerPolicy,
    /// Stop after this many hands even if several players still have chips; survivors are
    /// then ranked by chips (see [`crate`]). `None`: play until one player is left.
    pub hand_limit: Option<u64>,
    /// Who gets the chips a split pot cannot divide evenly (spec §5 decision).
    pub odd_chips: OddChipRule,
    /// Deal the board out to five cards after a hand ended early (LIVE does; OSS does not).
    pub deal_out_board: bool,
}

impl Default for GameRules {
    fn default() -> Self {
        GameRules {
            starting_stack: Chips(1000),
            blinds: BlindSchedule::Live,
            bad_answers: BadAnswerPolicy::Ban,
            hand_limit: None,
            odd_chips: OddChipRule::LeftOfButton,
            deal_out_board: true,
        }
    }
}

impl GameRules {
    /// Checks the values a TOML file or a command line could get wrong.
    ///
    /// # Errors
    /// The first problem found: a zero or huge starting stack, a zero hand
    /// limit, or a malformed custom blind schedule.
    pub fn validate(&self) -> Result<(), RulesError> {
        if self.starting_stack.is_zero() {
            return Err(RulesError::ZeroStartingStack);
        }
        if self.starting_stack > MAX_STARTING_STACK {
            return Err(RulesError::StartingStackTooLarge {
                stack: self.starting_stack,
                max: MAX_STARTING_STACK,
            });
        }
        if self.hand_limit == Some(0) {
            return Err(RulesError::ZeroHandLimit);
        }
        self.blinds.validate()
    }
}

/// A problem with a [`GameRules`].
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RulesError {
    /// `starting_stack` is 0.
    #[error("starting_stack must be at least 1 chip")]
    ZeroStartingStack,
    /// `starting_stack` is beyond [`MAX_STARTING_STACK`].
    #[error("starting_stack {stack} is larger than the maximum {max}")]
    StartingStackTooLarge {
        /// The configured stack.
        stack: Chips,
        /// The largest accepted.
        max: Chips,
    },
    /// `hand_limit` is 0.
    #[error("hand_limit must be at least 1 hand (leave it out for no limit)")]
    ZeroHandLimit,
    /// A custom schedule has no levels.
    #[error("a custom blind schedule needs at least one level")]
    NoBlindLevels,
    /// The first custom level does not start at round 0.
    #[error("the first blind level must start at round 0, not {0}")]
    FirstLevelNotAtZero(u64),
    /// Custom levels are not in strictly increasing `from_round` order.
    #[error("blind levels must be in increasing from_round order: {later} comes after {earlier}")]
    LevelsOutOfOrder {
        /// The earlier level's `from_round`.
        earlier: u64,
        /// The following level's `from_round`.
        later: u64,
    },
    /// A small blind of 0 or beyond [`MAX_SMALL_BLIND`].
    #[error("small blind {0} at a level is not between 1 and {max}", max = MAX_SMALL_BLIND)]
    BadSmallBlind(Chips),
}

/// What an invalid answer to `bet_request` does (spec §6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BadAnswerPolicy {
    /// LIVE and OSS: the player is banned: stack and bet are removed from the game (they
    /// vanish), status `out`, eliminated at that moment; the turn counts as a fold.
    #[default]
    Ban,
    /// The turn counts as a check when nothing is owed, else a fold; the player stays in the
    /// game and the answer is recorded as a warning.
    Forgive,
}

/// Who gets the odd chips of a pot that does not split evenly (spec §5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OddChipRule {
    /// Our decision: the odd chips go one by one to the winners in seat order starting at
    /// the first seat left of the button. No chip is ever created or destroyed.
    #[default]
    LeftOfButton,
    /// The open-source croupier's arithmetic, for replaying old games: every winner gets
    /// `pot / winners` rounded down, minus one chip for the first `pot % winners` winners in
    /// examination order. Those chips leave the game (31 split two ways pays 14 and 15).
    DiscardLikeOss,
}

/// One step of a custom blind schedule: from hand `from_round` on, the small blind is
/// `small_blind` (the big blind is always twice as much).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BlindLevel {
    /// The first hand (0-based `round`) played at this level.
    pub from_round: u64,
    /// The small blind at this level.
    pub small_blind: Chips,
}

/// How the blinds grow during a sit'n'go (spec §7).
///
/// In TOML: `blinds = "live"`, `blinds = "classic"`, or a custom list:
///
/// ```
/// use engine::rules::{BlindSchedule, GameRules};
/// use shared::Chips;
/// let config: GameRules = toml::from_str(
///     r#"
///     [[blinds.custom]]
///     from_round = 0
///     small_blind = 10
///     [[blinds.custom]]
///     from_round = 20
///     small_blind = 25
///     "#,
/// )
/// .unwrap();
/// assert_eq!(config.blinds.small_blind(19, 6), Chips(10));
/// assert_eq!(config.blinds.small_blind(20, 6), Chips(25));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BlindSchedule {
    /// The live server (2017–2024 captures): the small blind steps every 10 hands through
    /// 2, 3, 5, 10, 15, 20, 30, 40, 50, 70, 100, 150, 200, 300, 500, 1000 and stays at 2000
    /// from hand 160 on.
    #[default]
    Live,
    /// The open-source croupier: 10/20, doubling every 3 orbits
    /// (`small_blind = 10 × 2^(orbits / 3)`, `orbits = round / seats`).
    Classic,
    /// Explicit levels, in increasing `from_round` order, the first at round 0.
    Custom(Vec<BlindLevel>),
}

/// The two forms a schedule is written in: a preset's name, or a table of custom levels.
#[derive(Deserialize)]
#[serde(untagged)]
enum BlindScheduleForm {
    Preset(String),
    Levels(CustomLevels),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CustomLevels {
    custom: Vec<BlindLevel>,
}

impl<'de> Deserialize<'de> for BlindSchedule {
    /// `"live"`, `"classic"` or `{ custom = [levels] }`. Written by hand so that an unknown
    /// name lists the presets and the table form, instead of offering `custom` as a name.
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        let form = BlindScheduleForm::deserialize(deserializer).map_err(|_| {
            D::Error::custom(
                "blinds must be \"live\", \"classic\" or custom levels \
                 ([[blinds.custom]] tables with from_round and small_blind)",
            )
        })?;
        match form {
            BlindScheduleForm::Preset(name) => match name.as_str() {
                "live" => Ok(BlindSchedule::Live),
                "classic" => Ok(BlindSchedule::Classic),
                other => Err(D::Error::custom(format!(
                    "unknown blind schedule {other:?}: use \"live\", \"classic\", or custom \
                     levels ([[blinds.custom]] tables with from_round and small_blind)"
                ))),
            },
            BlindScheduleForm::Levels(levels) => Ok(BlindSchedule::Custom(levels.custom)),
        }
    }
}

/// The small blinds of [`BlindSchedule::Live`], one per 10 hands; the last one stays.
pub const LIVE_SMALL_BLINDS: [u64; 17] = [
    2, 3, 5, 10, 15, 20, 30, 40, 50, 70, 100, 150, 200, 300, 500, 1000, 2000,
];

/// Hands per level in [`BlindSchedule::Live`].
pub const LIVE_HANDS_PER_LEVEL: u64 = 10;

impl BlindSchedule {
    /// The small blind for hand `round` at a table of `seat_count` registered seats (out
    /// players count, as in `orbits`). The big blind is always twice as much.
    ///
    /// ```
    /// use engine::rules::BlindSchedule;
    /// use shared::Chips;
    /// assert_eq!(BlindSchedule::Live.small_blind(0, 6), Chips(2));
    /// assert_eq!(BlindSchedule::Live.small_blind(47, 3), Chips(15)); // capture 05
    /// assert_eq!(BlindSchedule::Live.small_blind(162, 8), Chips(2000)); // capture 16
    /// assert_eq!(BlindSchedule::Classic.small_blind(18, 6), Chips(20)); // capture 23
    /// ```
    pub fn small_blind(&self, round: u64, seat_count: usize) -> Chips {
        match self {
            BlindSchedule::Live => {
                let level = (round / LIVE_HANDS_PER_LEVEL).min(LIVE_SMALL_BLINDS.len() as u64 - 1);
                Chips(LIVE_SMALL_BLINDS[level as usize])
            }
            BlindSchedule::Classic => {
                let orbits = round / (seat_count.max(1) as u64);
                let doublings = orbits / 3;
                // Capped long before u64 overflow; no sit'n'go lasts that long anyway.
                let small = if doublings >= 50 {
                    MAX_SMALL_BLIND.get()
                } else {
                    (10u64 << doublings).min(MAX_SMALL_BLIND.get())
                };
                Chips(small)
            }
            BlindSchedule::Custom(levels) => levels
                .iter()
                .take_while(|level| level.from_round <= round)
                .last()
                .map_or(Chips(1), |level| level.small_blind),
        }
    }

    /// Checks a custom schedule (the presets are always valid).
    ///
    /// # Errors
    /// No levels, a first level after round 0, levels out of order, or a small blind of 0 or
    /// beyond [`MAX_SMALL_BLIND`].
    pub fn validate(&self) -> Result<(), RulesError> {
        let BlindSchedule::Custom(levels) = self else {
            return Ok(());
        };
        let first = levels.first().ok_or(RulesError::NoBlindLevels)?;
        if first.from_round != 0 {
            return Err(RulesError::FirstLevelNotAtZero(first.from_round));
        }
        for pair in levels.windows(2) {
            if pair[1].from_round <= pair[0].from_round {
                return Err(RulesError::LevelsOutOfOrder {
                    earlier: pair[0].from_round,
                    later: pair[1].from_round,
                });
            }
        }
        for level in levels {
            if level.small_blind.is_zero() || level.small_blind > MAX_SMALL_BLIND {
                return Err(RulesError::BadSmallBlind(level.small_blind));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_7_live_schedule_steps_every_ten_hands() {
        let live = BlindSchedule::Live;
        let expected = [
            (0, 2),
            (9, 2),
            (10, 3),
            (19, 3),
            (20, 5),
            (23, 5),
            (30, 10),
            (41, 15),
            (48, 15),
            (56, 20),
            (60, 30),
            (70, 40),
            (80, 50),
            (90, 70),
            (100, 100),
            (109, 100),
            (110, 150),
            (120, 200),
            (130, 300),
            (140, 500),
            (150, 1000),
            (160, 2000),
            (162, 2000),
            (100_000, 2000),
        ];
        for (round, small) in expected {
            assert_eq!(live.small_blind(round, 6), Chips(small), "round {round}");
        }
    }

    #[test]
    fn spec_7_classic_schedule_doubles_every_three_orbits() {
        let classic = BlindSchedule::Classic;
        // 6 seats: an orbit is 6 hands, a doubling every 18 hands.
        assert_eq!(classic.small_blind(0, 6), Chips(10));
        assert_eq!(classic.small_blind(17, 6), Chips(10));
        assert_eq!(classic.small_blind(18, 6), Chips(20));
        assert_eq!(classic.small_blind(36, 6), Chips(40));
        // 4 seats: every 12 hands.
        assert_eq!(classic.small_blind(11, 4), Chips(10));
        assert_eq!(classic.small_blind(12, 4), Chips(20));
        assert_eq!(classic.small_blind(u64::MAX, 2), MAX_SMALL_BLIND);
    }

    #[test]
    fn custom_schedule_is_validated() {
        let level = |from_round, small| BlindLevel {
            from_round,
            small_blind: Chips(small),
        };
        assert_eq!(
            BlindSchedule::Custom(vec![]).validate(),
            Err(RulesError::NoBlindLevels)
        );
        assert_eq!(
            BlindSchedule::Custom(vec![level(1, 5)]).validate(),
            Err(RulesError::FirstLevelNotAtZero(1))
        );
        assert!(matches!(
            BlindSchedule::Custom(vec![level(0, 5), level(0, 6)]).validate(),
            Err(RulesError::LevelsOutOfOrder { .. })
        ));
        assert_eq!(
            BlindSchedule::Custom(vec![level(0, 0)]).validate(),
            Err(RulesError::BadSmallBlind(Chips(0)))
        );
        let good = BlindSchedule::Custom(vec![level(0, 5), level(3, 7)]);
        good.validate().unwrap();
        assert_eq!(good.small_blind(2, 3), Chips(5));
        assert_eq!(good.small_blind(3, 3), Chips(7));
    }

    #[test]
    fn config_defaults_are_live() {
        let config = GameRules::default();
        assert_eq!(config.starting_stack, Chips(1000));
        assert!(config.deal_out_board);
        config.validate().unwrap();
        let empty: GameRules = toml::from_str("").unwrap();
        assert_eq!(empty, config);
        assert!(toml::from_str::<GameRules>("starting_stak = 5").is_err());
        let bad = GameRules {
            hand_limit: Some(0),
            ..GameRules::default()
        };
        assert_eq!(bad.validate(), Err(RulesError::ZeroHandLimit));
        // The HTTP deadline is the transport's, not a rule of the game.
        assert!(toml::from_str::<GameRules>("request_timeout_ms = 5").is_err());
    }

    #[test]
    fn blind_schedule_names_the_presets_and_the_table_form() {
        let error = toml::from_str::<GameRules>("blinds = \"turbo\"").unwrap_err();
        let message = error.to_string();
        assert!(
            message.contains("unknown blind schedule \"turbo\": use \"live\", \"classic\""),
            "{message}"
        );
        assert!(!message.contains("`custom`"), "{message}");
        let error = toml::from_str::<GameRules>("blinds = \"custom\"").unwrap_err();
        assert!(error
            .to_string()
            .contains("unknown blind schedule \"custom\""));
        let error = toml::from_str::<GameRules>("blinds = 5").unwrap_err();
        assert!(error.to_string().contains("blinds must be"), "{error}");
        let classic: GameRules = toml::from_str("blinds = \"classic\"").unwrap();
        assert_eq!(classic.blinds, BlindSchedule::Classic);
        let json: BlindSchedule = serde_json::from_str("{\"custom\":[]}").unwrap();
        assert_eq!(json, BlindSchedule::Custom(vec![]));
    }

    #[test]
    fn config_round_trips_through_toml() {
        let config = GameRules {
            blinds: BlindSchedule::Custom(vec![BlindLevel {
                from_round: 0,
                small_blind: Chips(7),
            }]),
            hand_limit: Some(50),
            odd_chips: OddChipRule::DiscardLikeOss,
            deal_out_board: false,
            ..GameRules::default()
        };
        let text = toml::to_string(&config).unwrap();
        assert_eq!(toml::from_str::<GameRules>(&text).unwrap(), config);
        let defaults = toml::to_string(&GameRules::default()).unwrap();
        assert_eq!(
            toml::from_str::<GameRules>(&defaults).unwrap(),
            GameRules::default()
        );
        let json = serde_json::to_string(&GameRules::default()).unwrap();
        assert_eq!(
            serde_json::from_str::<GameRules>(&json).unwrap(),
            GameRules::default()
        );
    }
}
