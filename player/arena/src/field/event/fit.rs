//! Choosing each team's versions from the index, and fitting one profile a team from the
//! segments where they played.

use super::*;

/// What a team is fitted from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamChoice {
    /// The team.
    pub team: String,
    /// Its versions fitted, newest first (one unless pooled).
    pub versions: Vec<String>,
    /// Games of those versions.
    pub games: u64,
    /// Their decisions (as the index counted them).
    pub decisions: u64,
    /// Whether its newest version alone had fewer than the decisions asked for, so earlier
    /// versions were pooled with it.
    pub pooled: bool,
    /// Whether even all its versions have fewer decisions than asked for (no seat of its own).
    pub thin: bool,
}

/// Each team's versions to fit from, in team-name order: its newest version when that has
/// `min_decisions`, else pooled with the versions before it (newest first) until they have
/// (see the [module docs](super)).
pub fn choose(index: &CacheIndex, min_decisions: u64) -> Vec<TeamChoice> {
    let mut by_team: BTreeMap<&str, Vec<&VersionFigures>> = BTreeMap::new();
    for figures in &index.versions {
        by_team.entry(&figures.team).or_default().push(figures);
    }
    by_team
        .into_iter()
        .map(|(team, mut versions)| {
            versions.sort_by(|a, b| {
                b.last_game
                    .cmp(&a.last_game)
                    .then_with(|| b.first_game.cmp(&a.first_game))
                    .then_with(|| a.version.cmp(&b.version))
            });
            let mut choice = TeamChoice {
                team: team.to_string(),
                versions: Vec::new(),
                games: 0,
                decisions: 0,
                pooled: false,
                thin: false,
            };
            for figures in versions {
                choice.versions.push(figures.version.clone());
                choice.games += figures.games;
                choice.decisions += figures.decisions;
                if choice.decisions >= min_decisions {
                    break;
                }
            }
            choice.pooled = choice.versions.len() > 1;
            choice.thin = choice.decisions < min_decisions;
            choice
        })
        .collect()
}

/// One team's fit.
#[derive(Debug, Clone, PartialEq)]
pub struct FittedTeam {
    /// What it was fitted from.
    pub choice: TeamChoice,
    /// Its profile (named by the team) and its style.
    pub fitted: FittedPlayer,
}

/// What one thread counted.
#[derive(Default)]
struct TeamCounts {
    decisions: ProfileCounts,
    hands: u64,
    style: StyleCounts,
}

/// Fits a profile for each of `choices` from the cache's segments where their versions played,
/// on `threads` threads (the result does not depend on their number).
///
/// # Errors
/// A segment cannot be read.
pub fn fit_teams(
    cache: &EventCache,
    index: &CacheIndex,
    choices: &[TeamChoice],
    threads: usize,
) -> Result<Vec<FittedTeam>, String> {
    let wanted: HashMap<(&str, &str), usize> = choices
        .iter()
        .enumerate()
        .flat_map(|(at, choice)| {
            choice
                .versions
                .iter()
                .map(move |version| ((choice.team.as_str(), version.as_str()), at))
        })
        .collect();
    let segments: Vec<&Segment> = index
        .segments
        .iter()
        .filter(|segment| {
            segment
                .versions
                .iter()
                .any(|(team, version)| wanted.contains_key(&(team.as_str(), version.as_str())))
        })
        .collect();
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<(usize, SegmentCounts)>> = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..threads.clamp(1, segments.len().max(1)) {
            scope.spawn(|| loop {
                let at = next.fetch_add(1, Ordering::Relaxed);
                let Some(segment) = segments.get(at) else {
                    break;
                };
                let counted = count_segment(cache, segment, &wanted, choices.len());
                results
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .push((at, counted));
            });
        }
    });
    let mut results = results.into_inner().unwrap_or_else(|e| e.into_inner());
    results.sort_by_key(|(at, _)| *at);
    let mut totals: Vec<TeamCounts> = choices.iter().map(|_| TeamCounts::default()).collect();
    for (_, counted) in results {
        for (total, part) in totals.iter_mut().zip(counted?) {
            total.decisions.merge(&part.decisions);
            total.hands += part.hands;
            total.style.merge(&part.style);
        }
    }
    Ok(choices
        .iter()
        .zip(totals)
        .map(|(choice, counts)| {
            let source = format!(
                "{} version {}",
                index.address,
                choice
                    .versions
                    .iter()
                    .map(|v| format!("{v:?}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            FittedTeam {
                choice: choice.clone(),
                fitted: FittedPlayer {
                    profile: counts
                        .decisions
                        .finish(&choice.team, counts.hands, vec![source]),
                    style: counts.style,
                },
            }
        })
        .collect())
}

/// Each wanted team's counts in one segment, or why it cannot be read.
type SegmentCounts = Result<Vec<TeamCounts>, String>;

/// Counts the wanted teams' decisions in one segment file.
fn count_segment(
    cache: &EventCache,
    segment: &Segment,
    wanted: &HashMap<(&str, &str), usize>,
    teams: usize,
) -> SegmentCounts {
    let path = cache.folder().join(&segment.file);
    let counts = std::cell::RefCell::new(
        (0..teams)
            .map(|_| (TeamCounts::default(), StyleMeter::default()))
            .collect::<Vec<_>>(),
    );
    // Each listed player's team, for the hand being read (`None`: not wanted).
    let seated = std::cell::RefCell::new(HashMap::<String, usize>::new());
    let hand_number = std::cell::Cell::new(0u64);
    // Each team's memory of the hand under way, as its bot would track it; a game's hands end
    // with it.
    let trackers = std::cell::RefCell::new(vec![HandTracker::default(); teams]);
    let count_game = |text: &str| {
        trackers.borrow_mut().fill_with(HandTracker::default);
        read_event_hands(
            text,
            |hand| {
                hand_number.set(hand_number.get() + 1);
                let mut seated = seated.borrow_mut();
                seated.clear();
                for (name, version) in versions_of(hand) {
                    if let Some(&team) = wanted.get(&(name, version)) {
                        seated.insert(name.to_string(), team);
                    }
                }
            },
            |name| {
                if let Some(&team) = seated.borrow().get(name) {
                    counts.borrow_mut()[team].0.hands += 1;
                }
            },
            |decision| {
                if let Some(&team) = seated.borrow().get(decision.player) {
                    let (counts, style) = &mut counts.borrow_mut()[team];
                    let tracker = &mut trackers.borrow_mut()[team];
                    if counts
                        .decisions
                        .add_answer(decision.state, decision.answer, tracker)
                    {
                        style.observe(hand_number.get(), decision.state, decision.answer);
                    }
                }
            },
        );
    };
    // Game by game: a segment's text is tens of megabytes, a game's tens of kilobytes.
    let file =
        std::fs::File::open(&path).map_err(|error| format!("{}: {error}", path.display()))?;
    let mut lines = std::io::BufReader::new(flate2::read::GzDecoder::new(file));
    let mut game: Option<u32> = None;
    let mut text = String::new();
    let mut line = String::new();
    loop {
        line.clear();
        let read = std::io::BufRead::read_line(&mut lines, &mut line)
            .map_err(|error| format!("{}: {error}", path.display()))?;
        let number = line
            .strip_prefix('[')
            .and_then(|name| game_of_table(name.split(']').next().unwrap_or("")));
        if read == 0 || (number.is_some() && number != game) {
            if !text.is_empty() {
                count_game(&text);
                text.clear();
            }
            game = number;
        }
        if read == 0 {
            break;
        }
        text.push_str(&line);
    }
    Ok(counts
        .into_inner()
        .into_iter()
        .map(|(mut counts, meter)| {
            counts.style.merge(&meter.finish());
            counts
        })
        .collect())
}
