//! Small text helpers shared by the observers: card names as the Lean Poker log writes them,
//! JSON and TOML string literals, RFC 3339 timestamps, and file names made from player names.
//!
//! Everything here appends to a caller's buffer, so a hot loop reuses one allocation.

use shared::{Card, Rank, Suit};
use std::fmt::Write as _;
use std::time::{SystemTime, UNIX_EPOCH};

/// The rank as the Lean Poker log spells it: `2`..`10`, `Jack`, `Queen`, `King`, `Ace`.
pub(crate) const fn rank_name(rank: Rank) -> &'static str {
    match rank {
        Rank::Jack => "Jack",
        Rank::Queen => "Queen",
        Rank::King => "King",
        Rank::Ace => "Ace",
        // The numbers are spelled as on the wire.
        number => number.as_wire(),
    }
}

/// The suit as the Lean Poker log spells it: `Hearts`, `Diamonds`, `Spades`, `Clubs`.
pub(crate) const fn suit_name(suit: Suit) -> &'static str {
    match suit {
        Suit::Hearts => "Hearts",
        Suit::Diamonds => "Diamonds",
        Suit::Spades => "Spades",
        Suit::Clubs => "Clubs",
    }
}

/// Appends `Queen of Clubs`, `10 of Hearts`, ...
pub(crate) fn push_card_name(out: &mut String, card: Card) {
    out.push_str(rank_name(card.rank));
    out.push_str(" of ");
    out.push_str(suit_name(card.suit));
}

/// Appends `text` as a JSON string literal (quotes and escapes included).
///
/// A text with nothing to escape (almost every message and name) is copied as it is, which is
/// what serde_json writes for it; any other goes through serde_json.
pub(crate) fn push_json_str(out: &mut Vec<u8>, text: &str) {
    // Every byte is looked at (no early exit), which lets the compiler test many at a time.
    let plain = !text.bytes().fold(false, |any, byte| {
        any | (byte < 0x20 || byte == b'"' || byte == b'\\')
    });
    if plain {
        out.reserve(text.len() + 2);
        out.push(b'"');
        out.extend_from_slice(text.as_bytes());
        out.push(b'"');
    } else {
        // Writing a string into a Vec cannot fail.
        let _ = serde_json::to_writer(&mut *out, text);
    }
}

/// Appends `text` as a TOML basic string literal: `"..."` with `\"`, `\\` and every control
/// character escaped, so any player name fits on one line and parses back unchanged.
pub(crate) fn push_toml_str(out: &mut String, text: &str) {
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if c.is_control() => {
                let _ = write!(out, "\\u{:04X}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// Text for a one-line comment: control characters (line breaks included) become spaces.
pub(crate) fn push_one_line(out: &mut String, text: &str) {
    out.extend(text.chars().map(|c| if c.is_control() { ' ' } else { c }));
}

/// Appends `value` in decimal digits: the logs write several numbers per request, and `write!`
/// through the formatting machinery cost a few hundred instructions each.
pub(crate) fn push_number(out: &mut String, value: u64) {
    out.push_str(itoa::Buffer::new().format(value));
}

/// Appends `time` in RFC 3339, UTC, with microseconds: `2017-11-13T13:10:56.123456Z`.
/// Times before 1970 (a clock set wrong) are written as the epoch.
pub(crate) fn push_rfc3339(out: &mut String, time: SystemTime) {
    let since_epoch = time.duration_since(UNIX_EPOCH).unwrap_or_default();
    let seconds = since_epoch.as_secs();
    let micros = since_epoch.subsec_micros();
    let days = seconds / 86_400;
    let of_day = seconds % 86_400;
    let (year, month, day) = civil_from_days(days);
    let text = fixed_width_rfc3339(year, month, day, of_day, micros);
    // Only ASCII digits went into an ASCII template.
    let text = std::str::from_utf8(&text).unwrap_or_default();
    if year > 9999 {
        let _ = write!(out, "{year}");
        out.push_str(&text[4..]);
    } else {
        out.push_str(text);
    }
}

/// The timestamp text with a four-digit year, digit by digit into a fixed template: one per
/// request in the players' logs, where `write!` with padded fields cost 2,000 instructions.
fn fixed_width_rfc3339(year: u64, month: u64, day: u64, of_day: u64, micros: u32) -> [u8; 27] {
    let mut text = *b"0000-00-00T00:00:00.000000Z";
    let fields = [
        (0..4, year),
        (5..7, month),
        (8..10, day),
        (11..13, of_day / 3600),
        (14..16, of_day % 3600 / 60),
        (17..19, of_day % 60),
        (20..26, u64::from(micros)),
    ];
    for (range, mut value) in fields {
        for digit in text[range].iter_mut().rev() {
            *digit = b'0' + (value % 10) as u8;
            value /= 10;
        }
    }
    text
}

/// The proleptic Gregorian date `days` after 1970-01-01 (Howard Hinnant's `civil_from_days`,
/// for non-negative day counts).
fn civil_from_days(days: u64) -> (u64, u64, u64) {
    let z = days + 719_468;
    let era = z / 146_097;
    let day_of_era = z - era * 146_097;
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_index = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_index + 2) / 5 + 1;
    let month = if month_index < 10 {
        month_index + 3
    } else {
        month_index - 9
    };
    let year = year_of_era + era * 400 + u64::from(month <= 2);
    (year, month, day)
}

/// The longest file-name stem made from a player name, in bytes.
const FILE_STEM_LIMIT: usize = 64;

/// File-name stems for every player, in seat order: safe on every common file system and
/// unique within the game, even when two names clean up to the same text or differ only in
/// case (macOS and Windows file systems ignore case).
///
/// A stem keeps ASCII letters, digits, `-`, `_` and `.`; anything else (path separators,
/// spaces, quotes, control characters, non-ASCII letters, emoji) becomes `_`. A leading `.`
/// becomes `_` (no hidden files, no `..`), the stem is cut at 64 bytes, an empty result is
/// `player`, and Windows device names (`CON`, `NUL`, `COM1`, ...) get a trailing `_`. A stem
/// already taken by an earlier seat gets `-seat<N>` appended.
pub(crate) fn file_stems<S: AsRef<str>>(names: &[S]) -> Vec<String> {
    let mut taken: Vec<String> = Vec::with_capacity(names.len());
    let mut stems = Vec::with_capacity(names.len());
    for (seat, name) in names.iter().enumerate() {
        let mut stem = clean_stem(name.as_ref());
        if taken.contains(&stem.to_ascii_lowercase()) {
            stem = format!("{stem}-seat{seat}");
        }
        taken.push(stem.to_ascii_lowercase());
        stems.push(stem);
    }
    stems
}

fn clean_stem(name: &str) -> String {
    let mut stem: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '_'
            }
        })
        .take(FILE_STEM_LIMIT)
        .collect();
    if stem.starts_with('.') {
        stem.replace_range(..1, "_");
    }
    // Windows drops trailing dots and spaces; keep names as they will be stored.
    while stem.ends_with('.') {
        stem.pop();
        stem.push('_');
    }
    if stem.is_empty() {
        stem.push_str("player");
    }
    let device = stem.split('.').next().unwrap_or("").to_ascii_uppercase();
    let reserved = matches!(device.as_str(), "CON" | "PRN" | "AUX" | "NUL")
        || ((device.starts_with("COM") || device.starts_with("LPT"))
            && device.len() == 4
            && device.as_bytes()[3].is_ascii_digit());
    if reserved {
        stem.push('_');
    }
    stem
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn json_strings_are_serde_jsons_with_or_without_escapes() {
        let mut samples: Vec<String> = vec![
            String::new(),
            "veithGolang won 4202".into(),
            "Al \"the\" \\ Bot\t\u{7f}\u{e9}\u{1f0cf}".into(),
        ];
        samples.extend((0u8..0x80).map(|byte| format!("a{}b", char::from(byte))));
        for sample in samples {
            let mut ours = b"x".to_vec();
            push_json_str(&mut ours, &sample);
            let theirs = format!("x{}", serde_json::to_string(&sample).unwrap());
            assert_eq!(String::from_utf8(ours).unwrap(), theirs, "{sample:?}");
        }
    }

    #[test]
    fn card_names_match_the_live_log() {
        let mut text = String::new();
        for (card, name) in [
            ("9c", "9 of Clubs"),
            ("Ad", "Ace of Diamonds"),
            ("Th", "10 of Hearts"),
            ("Js", "Jack of Spades"),
        ] {
            text.clear();
            push_card_name(&mut text, card.parse().unwrap());
            assert_eq!(text, name);
        }
    }

    #[test]
    fn timestamps_are_rfc3339_utc() {
        let mut text = String::new();
        push_rfc3339(&mut text, UNIX_EPOCH);
        assert_eq!(text, "1970-01-01T00:00:00.000000Z");
        text.clear();
        // 2017-11-13T13:10:56.123456Z
        push_rfc3339(
            &mut text,
            UNIX_EPOCH + Duration::from_micros(1_510_578_656_123_456),
        );
        assert_eq!(text, "2017-11-13T13:10:56.123456Z");
        text.clear();
        // A leap day and the end of a century year.
        push_rfc3339(&mut text, UNIX_EPOCH + Duration::from_secs(951_782_400));
        assert_eq!(text, "2000-02-29T00:00:00.000000Z");
        text.clear();
        push_rfc3339(&mut text, UNIX_EPOCH + Duration::from_secs(4_107_542_399));
        text.push(' ');
        // Past year 9999 the year takes the digits it needs.
        push_rfc3339(
            &mut text,
            UNIX_EPOCH + Duration::from_secs(253_402_300_800) + Duration::from_micros(7),
        );
        assert_eq!(
            text,
            "2100-02-28T23:59:59.000000Z 10000-01-01T00:00:00.000007Z"
        );
    }

    #[test]
    fn toml_strings_escape_everything_needed() {
        let mut text = String::new();
        push_toml_str(&mut text, "a \"b\" \\ c\nd\u{7}é🃏");
        assert_eq!(text, r#""a \"b\" \\ c\nd\u0007é🃏""#);
        let parsed: toml::Value = toml::from_str(&format!("x = {text}")).unwrap();
        assert_eq!(parsed["x"].as_str(), Some("a \"b\" \\ c\nd\u{7}é🃏"));
    }

    #[test]
    fn file_stems_are_safe_and_unique() {
        let names = [
            "Team Stuttgart",
            "../etc/passwd",
            ".hidden",
            "team_stuttgart",
            "Team/Stuttgart",
            "🃏",
            "",
            "nul",
            "con.txt",
            "dots...",
        ];
        let stems = file_stems(&names);
        assert_eq!(
            stems,
            [
                "Team_Stuttgart",
                "_._etc_passwd",
                "_hidden",
                "team_stuttgart-seat3",
                "Team_Stuttgart-seat4",
                "_",
                "player",
                "nul_",
                "con.txt_",
                "dots.._",
            ]
        );
        for stem in &stems {
            assert!(!stem.contains('/') && !stem.contains('\\') && !stem.starts_with('.'));
        }
        let long = "x".repeat(500);
        assert_eq!(file_stems(&[long.as_str()])[0].len(), FILE_STEM_LIMIT);
    }
}
