//! The subset of TOML that hand histories use, read into values: `key = value` lines,
//! integers, double-quoted strings, arrays (across lines), `#` comments and `[table]` headers.
//! A comment on an array item's own line is kept with the item (` #` and its text appended):
//! the dealer notes there what a PHH action cannot say (a ban, a raise written as a call).

use std::collections::HashMap;

/// A value of the TOML subset.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Value {
    Integer(i64),
    Text(String),
    Array(Vec<Value>),
}

impl Value {
    pub(super) fn integers(&self) -> Option<Vec<u64>> {
        match self {
            Value::Array(items) => items
                .iter()
                .map(|item| match item {
                    Value::Integer(n) => u64::try_from(*n).ok(),
                    _ => None,
                })
                .collect(),
            _ => None,
        }
    }

    pub(super) fn texts(&self) -> Option<Vec<&str>> {
        match self {
            Value::Array(items) => items
                .iter()
                .map(|item| match item {
                    Value::Text(text) => Some(text.as_str()),
                    _ => None,
                })
                .collect(),
            _ => None,
        }
    }

    pub(super) fn integer(&self) -> Option<u64> {
        match self {
            Value::Integer(n) => u64::try_from(*n).ok(),
            _ => None,
        }
    }
}

pub(super) type Fields = HashMap<String, Value>;

/// The hands of a file: the whole file, or each `[table]` of a multi-hand file.
pub(super) fn tables(text: &str) -> Vec<(Option<String>, Result<Fields, String>)> {
    let mut hands = Vec::new();
    let mut current: Option<String> = None;
    let mut body = String::new();
    let mut flush = |name: Option<String>, body: &mut String| {
        // A multi-hand file's preamble holds only comments.
        if name.is_some() || !skip_space_and_comments(body).is_empty() {
            hands.push((name, parse_fields(body)));
        }
        body.clear();
    };
    for line in text.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with('[') && !trimmed.starts_with("[[") && body_is_balanced(&body) {
            let name = trimmed
                .trim_start_matches('[')
                .split(']')
                .next()
                .unwrap_or("")
                .trim()
                .to_string();
            flush(current.take(), &mut body);
            current = Some(name);
            continue;
        }
        body.push_str(line);
        body.push('\n');
    }
    flush(current, &mut body);
    hands
}

/// Whether every array opened in `body` is closed (a `[` at a line's start inside an open
/// array is a value, not a table header).
fn body_is_balanced(body: &str) -> bool {
    let mut depth = 0i32;
    let mut in_string = false;
    let mut escaped = false;
    for line in body.lines() {
        for character in line.chars() {
            if in_string {
                match character {
                    _ if escaped => escaped = false,
                    '\\' => escaped = true,
                    '"' => in_string = false,
                    _ => {}
                }
                continue;
            }
            match character {
                '"' => in_string = true,
                '#' => break,
                '[' => depth += 1,
                ']' => depth -= 1,
                _ => {}
            }
        }
    }
    depth <= 0
}

/// `key = value` pairs of one hand.
fn parse_fields(body: &str) -> Result<Fields, String> {
    let mut fields = HashMap::new();
    let mut rest = body;
    loop {
        rest = skip_space_and_comments(rest);
        if rest.is_empty() {
            return Ok(fields);
        }
        let end = rest
            .find('=')
            .ok_or_else(|| format!("a line without '=': {:?}", first_line(rest)))?;
        let key = rest[..end].trim();
        if key.is_empty() || key.contains('\n') {
            return Err(format!("a line without a key: {:?}", first_line(rest)));
        }
        let (value, after) = parse_value(&rest[end + 1..])?;
        fields.insert(key.trim_matches('"').to_string(), value);
        rest = after;
    }
}

fn first_line(text: &str) -> &str {
    text.lines().next().unwrap_or("")
}

fn skip_space_and_comments(mut text: &str) -> &str {
    loop {
        text = text.trim_start();
        if let Some(comment) = text.strip_prefix('#') {
            text = comment.split_once('\n').map_or("", |(_, rest)| rest);
        } else {
            return text;
        }
    }
}

fn parse_value(text: &str) -> Result<(Value, &str), String> {
    let text = skip_space_and_comments(text);
    if let Some(rest) = text.strip_prefix('[') {
        let mut items = Vec::new();
        let mut rest = rest;
        loop {
            rest = skip_space_and_comments(rest);
            if let Some(after) = rest.strip_prefix(']') {
                return Ok((Value::Array(items), after));
            }
            let (mut item, after) = parse_value(rest)?;
            let after = after.trim_start_matches([' ', '\t']);
            let comma = after.starts_with(',');
            let after = after.strip_prefix(',').unwrap_or(after);
            let after = after.trim_start_matches([' ', '\t']);
            // A comment on the item's own line belongs to it: the dealer notes there what a
            // PHH action cannot say (a ban, a raise written as the call it amounts to).
            if let (Value::Text(text), Some(comment)) = (&mut item, after.strip_prefix('#')) {
                text.push_str(" #");
                text.push_str(first_line(comment));
            }
            items.push(item);
            rest = skip_space_and_comments(after);
            if comma {
                continue;
            } else if !rest.starts_with(']') {
                return Err(format!(
                    "an array item not followed by ',' or ']': {:?}",
                    first_line(rest)
                ));
            }
        }
    }
    if let Some(rest) = text.strip_prefix('"') {
        let mut value = String::new();
        let mut characters = rest.char_indices();
        while let Some((at, character)) = characters.next() {
            match character {
                '"' => return Ok((Value::Text(value), &rest[at + 1..])),
                '\\' => match characters.next() {
                    Some((_, 'n')) => value.push('\n'),
                    Some((_, 't')) => value.push('\t'),
                    Some((_, 'u')) => {
                        let hex: String = characters.by_ref().take(4).map(|(_, c)| c).collect();
                        let code = u32::from_str_radix(&hex, 16)
                            .ok()
                            .and_then(char::from_u32)
                            .ok_or_else(|| format!("a bad escape \\u{hex}"))?;
                        value.push(code);
                    }
                    Some((_, other)) => value.push(other),
                    None => break,
                },
                '\n' => break,
                other => value.push(other),
            }
        }
        return Err(format!("an unterminated string: {:?}", first_line(text)));
    }
    let end = text.find([',', ']', '\n', '#']).unwrap_or(text.len());
    let word = text[..end].trim();
    let number = word.replace('_', "");
    if let Ok(integer) = number.parse::<i64>() {
        return Ok((Value::Integer(integer), &text[end..]));
    }
    if let Ok(float) = number.parse::<f64>() {
        if float.fract() == 0.0 && float.abs() < 9.0e15 {
            return Ok((Value::Integer(float as i64), &text[end..]));
        }
    }
    // Booleans, dates and the like: kept as text, never read.
    Ok((Value::Text(word.to_string()), &text[end..]))
}
