//! The house bots, simplest first: the example bots a team reads (re-exported by the
//! `lean-poker-examples` crate, which serves each one as a binary), the opponents of the
//! dealer's `--bot NAME=KIND` and of the arena (`cargo arena --vs KIND,...`).
//!
//! Two families: the teaching bots ([`CallingStation`], [`Folder`], [`Raiser`], [`AllIn`],
//! [`RandomBot`], [`EquityBot`]: one idea each, most of them suicidal at a real table), and
//! the field ([`field`]: [`TightBot`], [`LooseBot`], [`PushFoldBot`], [`SolidBot`],
//! [`ShoverBot`]), which plays the way teams at an event play and is the arena's default
//! table ([`BotKind::FIELD`]).
//!
//! A crate of their own beside the SDK, so that the arena plays them in process without the
//! dealer crate, and the deployed player (which never plays another bot) does not build them.
//! Every answer they give is a legal, meaningful bet (see [`player::check_bet`]): they use the
//! [`GameState`] helpers instead of arithmetic.
#![warn(missing_docs)]

pub mod field;
pub mod preflop;
pub mod profile;
mod spot;

pub use field::{LooseBot, PushFoldBot, ShoverBot, SolidBot, TightBot};

use player::shared::equity::Scenario;
use player::{Chips, GameState, Player};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::fmt;
use std::str::FromStr;
use std::sync::{Arc, Mutex};

/// A teaching bot whose whole strategy is one [`GameState`] helper: a unit struct and its
/// [`Player`] impl, written once for the four of them. A team reading them for the trait's
/// shape finds it written out in [`RandomBot`] and [`EquityBot`] below.
macro_rules! one_move_bot {
    ($(#[$doc:meta])* $name:ident, $version:literal, |$state:ident| $answer:expr) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, Default)]
        pub struct $name;

        impl Player for $name {
            fn bet_request(&self, $state: &GameState) -> Chips {
                $answer
            }

            fn version(&self) -> String {
                $version.to_string()
            }
        }
    };
}

one_move_bot!(
    /// Calls everything, never raises: the classic "calling station". It answers what it costs
    /// to stay in (the whole stack if that is less: then it is an all-in).
    CallingStation,
    "calling station 1",
    |state| state.call_amount()
);

one_move_bot!(
    /// Checks when it is free, folds otherwise: what every official template starts as (0 is a
    /// check when nothing is owed and a fold otherwise).
    Folder,
    "folder 1",
    |_state| Chips::ZERO
);

one_move_bot!(
    /// Makes the smallest legal raise every time: annoying, and easy to exploit. It answers
    /// the call plus the minimum raise, or the whole stack when that is all there is.
    Raiser,
    "raiser 1",
    |state| state.minimum_raise_amount()
);

one_move_bot!(
    /// Pushes every chip in, every time: the maniac. It answers exactly the stack: a bigger
    /// number would also read as all-in, but says less.
    AllIn,
    "all-in 1",
    |state| state.all_in_amount()
);

/// Picks a random legal move: fold (or check), call, minimum raise, pot-sized raise, all-in.
///
/// Seedable, so a game with random bots can be replayed. The random generator is behind a
/// `Mutex` because one bot answers requests from several threads (see the `player` crate docs
/// on learning state).
#[derive(Debug)]
pub struct RandomBot {
    rng: Mutex<ChaCha8Rng>,
}

impl RandomBot {
    /// A bot whose choices follow from `seed`.
    pub fn with_seed(seed: u64) -> RandomBot {
        RandomBot {
            rng: Mutex::new(ChaCha8Rng::seed_from_u64(seed)),
        }
    }
}

impl Default for RandomBot {
    /// Seed 0.
    fn default() -> Self {
        RandomBot::with_seed(0)
    }
}

impl Player for RandomBot {
    fn bet_request(&self, state: &GameState) -> Chips {
        // A poisoned lock only means another call panicked: the generator is still fine.
        let roll: u32 = {
            let mut rng = self.rng.lock().unwrap_or_else(|e| e.into_inner());
            rng.random_range(0..100)
        };
        match roll {
            0..=24 => Chips::ZERO,
            25..=64 => state.call_amount(),
            65..=84 => state.minimum_raise_amount(),
            85..=94 => {
                // Raise to the current bet plus the pot, at least a minimum raise.
                let pot_raise =
                    state.raise_to_amount(state.current_buy_in.saturating_add(state.pot));
                pot_raise
                    .max(state.minimum_raise_amount())
                    .min(state.all_in_amount())
            }
            _ => state.all_in_amount(),
        }
    }

    fn version(&self) -> String {
        "random 1".to_string()
    }
}

/// Plays by equity: its expected share of the pot against the players still in the hand
/// (random deals of their cards and the rest of the board, `shared::equity`), on every street.
///
/// - clearly more than a fair share (twice `1 / players in the hand`, at most 80%): bet or
///   raise about the size of the pot;
/// - otherwise, call when the equity beats the pot odds (`call / (pot + call)`);
/// - otherwise check or fold.
#[derive(Debug, Clone, Copy)]
pub struct EquityBot {
    /// Random deals per decision: 2,000 take about a millisecond in a release build.
    pub trials: u64,
}

impl Default for EquityBot {
    fn default() -> Self {
        EquityBot { trials: 2_000 }
    }
}

impl EquityBot {
    /// The expected share of the pot, or `None` when it cannot be known (no cards, nobody
    /// left to play against).
    pub fn equity(&self, state: &GameState) -> Option<f64> {
        let opponents = state.active_opponents().count();
        let scenario = Scenario::new(state.my_cards(), &state.community_cards, opponents).ok()?;
        // Seeded by the hand number: the same decision always gets the same estimate.
        let result = scenario
            .estimate(self.trials.max(1), state.round.unwrap_or(0))
            .ok()?;
        Some(result.equity())
    }
}

impl Player for EquityBot {
    fn bet_request(&self, state: &GameState) -> Chips {
        let Some(equity) = self.equity(state) else {
            return Chips::ZERO;
        };
        let players_in_hand = state.active_opponents().count() + 1;
        let fair_share = 1.0 / players_in_hand as f64;
        if equity >= (2.0 * fair_share).min(0.8) {
            // Raise to the current bet plus the pot, at least a minimum raise, at most all-in.
            let pot_raise = state.raise_to_amount(state.current_buy_in.saturating_add(state.pot));
            return pot_raise
                .max(state.minimum_raise_amount())
                .min(state.all_in_amount());
        }
        match state.pot_odds() {
            Some(price) if equity > price => state.call_amount(),
            _ => Chips::ZERO,
        }
    }

    fn version(&self) -> String {
        "equity 1".to_string()
    }
}

/// Every house bot by kind, as the dealer and the arena play them (`dealer run --bot
/// NAME=KIND`, `dealer demo --bots KIND,...`, `cargo arena --vs KIND,...`). The command-line
/// name of a kind is its kebab-case name (`calling-station`); [`BotKind::name`] gives it.
///
/// ```
/// use bots::BotKind;
/// let kind: BotKind = "calling-station".parse().unwrap();
/// assert_eq!(kind.build(0).version(), "calling station 1");
/// assert!("nope".parse::<BotKind>().unwrap_err().to_string().contains("folder, calling-station"));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BotKind {
    /// Checks when free, folds otherwise.
    Folder,
    /// Calls everything, never raises.
    CallingStation,
    /// Always makes the smallest legal raise.
    Raiser,
    /// Pushes every chip in, every time.
    AllIn,
    /// A random legal move, from a seed.
    Random,
    /// Bets by its Monte Carlo equity against the pot odds.
    Equity,
    /// All-in with the best quarter of hands, or with two pair after the flop; else check/fold.
    Shover,
    /// The solid equity player: raises the best hands, calls the right price.
    Solid,
    /// Tight-aggressive: a preflop chart, equity after the flop, push/fold when short.
    Tight,
    /// Loose-aggressive: opens wide, bets when checked to, bluffs.
    Loose,
    /// The short-stack specialist: all-in or fold from 15 big blinds down.
    PushFold,
    /// A real team bot's recorded play (profile `real-a`, fitted from recordings).
    RealA,
    /// A real team bot's recorded play (profile `real-b`).
    RealB,
    /// A real team bot's recorded play (profile `real-c`).
    RealC,
    /// A real team bot's recorded play (profile `real-d`).
    RealD,
    /// A real team bot's recorded play (profile `real-e`).
    RealE,
    /// A real team bot's recorded play (profile `real-f`).
    RealF,
}

/// `first` then `then`, as one array: a list that ends with another is written from it.
/// `N` must be `A + B` (checked when compiled, as a constant's value).
const fn joined<const A: usize, const B: usize, const N: usize>(
    first: [BotKind; A],
    then: [BotKind; B],
) -> [BotKind; N] {
    assert!(
        A + B == N,
        "the joined list's length is the sum of its parts'"
    );
    let mut all = [BotKind::Folder; N];
    let mut index = 0;
    while index < N {
        all[index] = if index < A {
            first[index]
        } else {
            then[index - A]
        };
        index += 1;
    }
    all
}

/// A name that is no [`BotKind`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown bot kind {kind:?} (known kinds: {known})", known = BotKind::names().join(", "))]
pub struct UnknownBotKind {
    /// The name asked for.
    pub kind: String,
}

impl BotKind {
    /// Every kind: the teaching bots in order of sophistication, the house field, then the
    /// real field.
    pub const ALL: [BotKind; 17] = joined(
        [
            BotKind::Folder,
            BotKind::CallingStation,
            BotKind::Raiser,
            BotKind::AllIn,
            BotKind::Random,
            BotKind::Equity,
            BotKind::Shover,
            BotKind::Solid,
            BotKind::Tight,
            BotKind::Loose,
            BotKind::PushFold,
        ],
        BotKind::REAL_FIELD,
    );

    /// Six real team bots from past Lean Poker events, each played by the profile fitted from
    /// its recorded games ([`profile`]): the arena's default opponents.
    pub const REAL_FIELD: [BotKind; 6] = [
        BotKind::RealA,
        BotKind::RealB,
        BotKind::RealC,
        BotKind::RealD,
        BotKind::RealE,
        BotKind::RealF,
    ];

    /// The house field: five bots written to the archetypes of an event's teams, the dealer
    /// demo's lineup and the arena's default before [`BotKind::REAL_FIELD`]
    /// (`player/arena/README.md`, "The house field").
    pub const FIELD: [BotKind; 5] = [
        BotKind::Tight,
        BotKind::Loose,
        BotKind::PushFold,
        BotKind::Solid,
        BotKind::Shover,
    ];

    /// The kind's command-line name.
    pub fn name(self) -> &'static str {
        match self {
            BotKind::Folder => "folder",
            BotKind::CallingStation => "calling-station",
            BotKind::Raiser => "raiser",
            BotKind::AllIn => "all-in",
            BotKind::Random => "random",
            BotKind::Equity => "equity",
            BotKind::Shover => "shover",
            BotKind::Solid => "solid",
            BotKind::Tight => "tight",
            BotKind::Loose => "loose",
            BotKind::PushFold => "push-fold",
            BotKind::RealA => "real-a",
            BotKind::RealB => "real-b",
            BotKind::RealC => "real-c",
            BotKind::RealD => "real-d",
            BotKind::RealE => "real-e",
            BotKind::RealF => "real-f",
        }
    }

    /// Every kind's command-line name, in [`BotKind::ALL`] order.
    pub fn names() -> Vec<&'static str> {
        BotKind::ALL.iter().map(|kind| kind.name()).collect()
    }

    /// One line saying what the kind plays, for `dealer bots`.
    pub fn description(self) -> &'static str {
        match self {
            BotKind::Folder => "checks when free, folds otherwise",
            BotKind::CallingStation => "calls everything, never raises",
            BotKind::Raiser => "always makes the smallest legal raise",
            BotKind::AllIn => "pushes every chip in, every time",
            BotKind::Random => "a random legal move (seeded: games replay)",
            BotKind::Equity => "bets by its Monte Carlo equity against the pot odds",
            BotKind::Shover => "all-in with the best 25% of hands, or two pair after the flop",
            BotKind::Solid => "raises the best hands, calls when its equity beats the price",
            BotKind::Tight => "tight-aggressive chart, equity after the flop, push/fold when short",
            BotKind::Loose => "opens 40% of hands, bets when checked to, bluffs (seeded)",
            BotKind::PushFold => "short-stack specialist: all-in or fold from 15 big blinds down",
            BotKind::RealA
            | BotKind::RealB
            | BotKind::RealC
            | BotKind::RealD
            | BotKind::RealE
            | BotKind::RealF => "a real team bot's recorded play (a profile fitted from its games)",
        }
    }

    /// A fresh bot of this kind. A bot with random choices (`random`, `loose`) or sampled
    /// deals (the field) draws them from `seed`, so a game with house bots replays exactly from
    /// its seed.
    pub fn build(self, seed: u64) -> Arc<dyn Player> {
        match self {
            BotKind::Folder => Arc::new(Folder),
            BotKind::CallingStation => Arc::new(CallingStation),
            BotKind::Raiser => Arc::new(Raiser),
            BotKind::AllIn => Arc::new(AllIn),
            BotKind::Random => Arc::new(RandomBot::with_seed(seed)),
            BotKind::Equity => Arc::new(EquityBot::default()),
            BotKind::Shover => Arc::new(ShoverBot),
            BotKind::Solid => Arc::new(SolidBot { seed }),
            BotKind::Tight => Arc::new(TightBot { seed }),
            BotKind::Loose => Arc::new(LooseBot { seed }),
            BotKind::PushFold => Arc::new(PushFoldBot { seed }),
            BotKind::RealA
            | BotKind::RealB
            | BotKind::RealC
            | BotKind::RealD
            | BotKind::RealE
            | BotKind::RealF => {
                let index = BotKind::REAL_FIELD
                    .iter()
                    .position(|kind| *kind == self)
                    .unwrap_or(0);
                Arc::new(profile::ProfileBot::new(profile::shipped(index), seed))
            }
        }
    }
}

/// A house bot's seat at a table: a kind, or a profile fitted from recorded games
/// ([`profile`]). What the arena and the dealer seat.
#[derive(Debug, Clone)]
pub enum Opponent {
    /// A house bot kind.
    Kind(BotKind),
    /// A bot playing a fitted profile.
    Profile(Arc<profile::CompiledProfile>),
}

impl Opponent {
    /// The seat's name: the kind's command-line name, or the profile's player.
    pub fn name(&self) -> &str {
        match self {
            Opponent::Kind(kind) => kind.name(),
            Opponent::Profile(profile) => profile.name(),
        }
    }

    /// What tells two opponents apart in saved results: the kind's name, or the profile's
    /// name and fingerprint (`team-a@1f2e3d4c`), so that a refitted profile is another
    /// opponent.
    pub fn key(&self) -> String {
        match self {
            Opponent::Kind(kind) => kind.name().to_string(),
            Opponent::Profile(profile) => format!("{}@{}", profile.name(), profile.fingerprint()),
        }
    }

    /// A fresh bot for one game, its random choices following `seed`.
    pub fn build(&self, seed: u64) -> Arc<dyn Player> {
        match self {
            Opponent::Kind(kind) => kind.build(seed),
            Opponent::Profile(profile) => Arc::new(profile::ProfileBot::new(profile.clone(), seed)),
        }
    }
}

impl From<BotKind> for Opponent {
    fn from(kind: BotKind) -> Opponent {
        Opponent::Kind(kind)
    }
}

impl PartialEq for Opponent {
    fn eq(&self, other: &Opponent) -> bool {
        self.key() == other.key()
    }
}

impl Eq for Opponent {}

impl fmt::Display for Opponent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for BotKind {
    type Err = UnknownBotKind;

    /// A kind by its command-line name, exactly as spelled.
    fn from_str(name: &str) -> Result<BotKind, UnknownBotKind> {
        BotKind::ALL
            .into_iter()
            .find(|kind| kind.name() == name)
            .ok_or_else(|| UnknownBotKind {
                kind: name.to_string(),
            })
    }
}

impl fmt::Display for BotKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use player::testing::{check_dealer_states, DealerStates};

    #[test]
    fn the_real_field_plays_its_shipped_profiles_legally() {
        for (index, kind) in BotKind::REAL_FIELD.into_iter().enumerate() {
            let (name, text) = profile::SHIPPED[index];
            assert_eq!(kind.name(), name);
            let read = profile::Profile::from_json(text).unwrap();
            assert_eq!(read.name, name);
            assert!(
                read.decisions > 100_000,
                "{name}: {} decisions",
                read.decisions
            );
            let bot = kind.build(3);
            assert!(bot.version().starts_with(&format!("profile {name} ")));
            let report = check_dealer_states(&*bot, &DealerStates::default());
            assert_eq!((report.failed, report.panicked), (0, 0), "{name}: {report}");
        }
    }

    #[test]
    fn names_parse_back_and_unknown_names_list_the_kinds() {
        for kind in BotKind::ALL {
            assert_eq!(kind.name().parse::<BotKind>(), Ok(kind));
            assert_eq!(kind.to_string(), kind.name());
        }
        assert_eq!(
            "calling_station"
                .parse::<BotKind>()
                .unwrap_err()
                .to_string(),
            "unknown bot kind \"calling_station\" (known kinds: folder, \
             calling-station, raiser, all-in, random, equity, shover, solid, tight, loose, \
             push-fold, real-a, real-b, real-c, real-d, real-e, real-f)"
        );
        assert!("Folder".parse::<BotKind>().is_err());
    }
}
