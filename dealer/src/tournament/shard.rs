//! Sharded runs: shard `K/N` plays the games of the run whose number `n` has
//! `(n - 1) mod N = K`, exactly as the unsharded run would play them (the unit of work is one
//! sit'n'go with its derived seed); `merge.rs` combines the shard folders into the one run.
//! `K` counts from 0, as a Kubernetes completion index does. This file is the [`Shard`] alone,
//! so that `results.json`'s record of it sits below the code that merges results.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// One part of a sharded run: `index` of `count`, written `K/N`.
///
/// ```
/// use dealer::tournament::Shard;
/// let shard: Shard = "1/3".parse().unwrap();
/// assert!(shard.plays(2) && shard.plays(5) && !shard.plays(3));
/// assert_eq!(shard.to_string(), "1/3");
/// assert!("3/3".parse::<Shard>().is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub struct Shard {
    index: u32,
    count: u32,
}

/// A shard that is not `K/N` with `0 <= K < N`.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("a shard is K/N with K from 0 to N-1 (like 0/4), not {0:?}")]
pub struct BadShard(String);

impl Shard {
    /// Shard `index` of `count`.
    ///
    /// # Errors
    /// `index` not below `count`.
    pub fn new(index: u32, count: u32) -> Result<Shard, BadShard> {
        if index < count {
            Ok(Shard { index, count })
        } else {
            Err(BadShard(format!("{index}/{count}")))
        }
    }

    /// `K`, from 0.
    pub fn index(&self) -> u32 {
        self.index
    }

    /// `N`.
    pub fn count(&self) -> u32 {
        self.count
    }

    /// Whether this shard plays game `number` (1-based).
    pub fn plays(&self, number: u32) -> bool {
        number >= 1 && (number - 1) % self.count == self.index
    }

    /// How many of the games numbered 1 to `games` this shard plays.
    ///
    /// ```
    /// use dealer::tournament::Shard;
    /// let counts: Vec<u32> = (0..3).map(|k| Shard::new(k, 3).unwrap().games_of(7)).collect();
    /// assert_eq!(counts, [3, 2, 2]);
    /// assert_eq!(Shard::new(2, 3).unwrap().games_of(1), 0);
    /// ```
    pub fn games_of(&self, games: u32) -> u32 {
        if games <= self.index {
            return 0;
        }
        (games - self.index - 1) / self.count + 1
    }
}

impl FromStr for Shard {
    type Err = BadShard;
    fn from_str(text: &str) -> Result<Shard, BadShard> {
        let bad = || BadShard(text.to_string());
        let (index, count) = text.split_once('/').ok_or_else(bad)?;
        let index = index.trim().parse().map_err(|_| bad())?;
        let count = count.trim().parse().map_err(|_| bad())?;
        Shard::new(index, count).map_err(|_| bad())
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl From<Shard> for String {
    fn from(shard: Shard) -> String {
        shard.to_string()
    }
}

impl TryFrom<String> for Shard {
    type Error = BadShard;
    fn try_from(text: String) -> Result<Shard, BadShard> {
        text.parse()
    }
}
