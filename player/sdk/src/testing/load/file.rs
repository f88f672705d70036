//! One recording file read: a `game_state` JSON, a list of them, a viewer log or a dealer's
//! `requests.jsonl`, each with errors that name the file and the line.

use super::*;

pub(super) fn load_file(path: &Path, out: &mut Vec<Recorded>) -> Result<(), LoadError> {
    if is_gzip(path) {
        return Err(LoadError::NotRecording {
            path: path.to_path_buf(),
            reason: "gzip-compressed: the testing kit reads no gzip (the player crate has no \
                     decoder, to keep deploy builds short); `gunzip -k` it and load the result"
                .to_string(),
        });
    }
    if is_jsonl(path) {
        let text = read(path)?;
        if file_name(path) != "requests.jsonl" && !holds_request_records(&text) {
            return Err(LoadError::NotRecording {
                path: path.to_path_buf(),
                reason: "not a requests.jsonl: its first line has no game_state (a game's \
                         decks.jsonl holds cards, not decisions)"
                    .to_string(),
            });
        }
        load_jsonl(path, &text, out)
    } else {
        load_json_file(path, out, NotRecorded::Fail)
    }
}

pub(super) fn load_json_file(
    path: &Path,
    out: &mut Vec<Recorded>,
    not_recorded: NotRecorded,
) -> Result<(), LoadError> {
    let text = read(path)?;
    if !holds_game_states(&text) {
        return match not_recorded {
            NotRecorded::Skip => Ok(()),
            NotRecorded::Fail => Err(LoadError::NotRecording {
                path: path.to_path_buf(),
                reason: "no game_state in it: not a recording (a dealer's results.json, \
                         game.json and result.json describe games; log.json and \
                         requests.jsonl record them)"
                    .to_string(),
            }),
        };
    }
    let first = out.len();
    load_json(path, &text, out)?;
    rebuild_log_decisions(&mut out[first..]);
    Ok(())
}

/// Whether a JSON text is a game state, a viewer log or an array of game states (judged by
/// the first object's keys), rather than some other document. Text that is not JSON counts
/// as a recording, so that its error is reported; an empty file (a dealer's `game.json` of a
/// game stopped before its first hand) holds nothing.
pub(super) fn holds_game_states(text: &str) -> bool {
    if text.trim().is_empty() {
        return false;
    }
    let Ok(top) = serde_json::from_str::<&RawValue>(text) else {
        return true;
    };
    let first = if top.get().starts_with('[') {
        match serde_json::from_str::<Vec<&RawValue>>(top.get()) {
            Ok(entries) => match entries.first() {
                Some(first) => *first,
                None => return false,
            },
            Err(_) => return true,
        }
    } else {
        top
    };
    match serde_json::from_str::<HashMap<String, &RawValue>>(first.get()) {
        Ok(keys) => ["game_state", "community_cards", "current_buy_in"]
            .iter()
            .any(|key| keys.contains_key(*key)),
        Err(_) => true,
    }
}

/// Fills `asked` on the decisions of a viewer log (see the module docs, and
/// [`shared::records::asked_states`], the one rule); `records` are one file's, in order. Does
/// nothing to records that are not viewer-log entries.
pub(super) fn rebuild_log_decisions(records: &mut [Recorded]) {
    let entries: Vec<ViewerLogEntry<&GameState>> = records
        .iter()
        .map_while(|record| match &record.origin {
            Origin::LogEntry {
                kind,
                message,
                on_turn,
                ..
            } => Some(ViewerLogEntry {
                kind: *kind,
                on_turn: *on_turn,
                message: message.clone(),
                game_state: &record.state,
            }),
            _ => None,
        })
        .collect();
    let asked_states = shared::records::asked_states(&entries);
    for (record, state) in records.iter_mut().zip(asked_states) {
        if let (Origin::LogEntry { asked, .. }, Some(state)) = (&mut record.origin, state) {
            *asked = Some(Box::new(state));
        }
    }
}

/// 1-based line number of byte `offset` in `text`.
pub(super) fn line_at(text: &str, offset: usize) -> usize {
    1 + text.as_bytes()[..offset.min(text.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
}

/// Byte offset of `part` inside `whole` (`part` borrows from `whole`).
pub(super) fn offset_in(whole: &str, part: &str) -> usize {
    (part.as_ptr() as usize).saturating_sub(whole.as_ptr() as usize)
}

pub(super) fn json_error(path: &Path, first_line: usize, error: &serde_json::Error) -> LoadError {
    let full = error.to_string();
    let suffix = format!(" at line {} column {}", error.line(), error.column());
    LoadError::Json {
        at: Source {
            path: path.to_path_buf(),
            line: first_line + error.line().saturating_sub(1),
            entry: None,
        },
        column: error.column(),
        message: full.strip_suffix(&suffix).unwrap_or(&full).to_string(),
    }
}

/// Parses one `game_state` whose text starts at `source.line`; errors point at the right line.
pub(super) fn parse_state(json: &str, source: &Source) -> Result<GameState, LoadError> {
    GameState::from_json(json).map_err(|error| LoadError::State {
        at: Source {
            line: source.line + error.line.saturating_sub(1),
            ..source.clone()
        },
        column: error.column,
        error,
    })
}

pub(super) fn load_json(path: &Path, text: &str, out: &mut Vec<Recorded>) -> Result<(), LoadError> {
    let top: &RawValue = serde_json::from_str(text).map_err(|e| json_error(path, 1, &e))?;
    let top_text = top.get();
    let source_at = |part: &str, entry| Source {
        path: path.to_path_buf(),
        line: line_at(text, offset_in(text, part)),
        entry,
    };
    if top_text.starts_with('[') {
        let entries: Vec<&RawValue> =
            serde_json::from_str(top_text).map_err(|e| json_error(path, 1, &e))?;
        for (index, entry) in entries.into_iter().enumerate() {
            let source = source_at(entry.get(), Some(index));
            out.push(load_object(text, entry.get(), source)?);
        }
        Ok(())
    } else if top_text.starts_with('{') {
        let source = source_at(top_text, None);
        out.push(load_object(text, top_text, source)?);
        Ok(())
    } else {
        Err(LoadError::Shape {
            at: source_at(top_text, None),
            message: "expected a game_state object, an array of them, or a viewer log".into(),
        })
    }
}

/// One object: a `game_state`, or a viewer-log entry holding one.
pub(super) fn load_object(
    whole: &str,
    object: &str,
    source: Source,
) -> Result<Recorded, LoadError> {
    if !object.starts_with('{') {
        return Err(LoadError::Shape {
            at: source,
            message: "expected a JSON object (a game_state or a viewer-log entry)".into(),
        });
    }
    let keys: HashMap<String, &RawValue> =
        serde_json::from_str(object).map_err(|e| json_error(&source.path, source.line, &e))?;
    if !keys.contains_key("game_state") {
        let state = parse_state(object, &source)?;
        return Ok(Recorded {
            source,
            state,
            origin: Origin::State,
        });
    }
    let entry: ViewerLogEntry<&RawValue> =
        serde_json::from_str(object).map_err(|e| LoadError::Shape {
            at: source.clone(),
            message: format!("not a viewer-log entry: {e}"),
        })?;
    let state_source = Source {
        line: line_at(whole, offset_in(whole, entry.game_state.get())),
        ..source.clone()
    };
    let state = parse_state(entry.game_state.get(), &state_source)?;
    Ok(Recorded {
        source,
        state,
        origin: Origin::LogEntry {
            kind: entry.kind,
            message: entry.message,
            on_turn: entry.on_turn,
            asked: None,
        },
    })
}

pub(super) fn load_jsonl(
    path: &Path,
    text: &str,
    out: &mut Vec<Recorded>,
) -> Result<(), LoadError> {
    for (index, line) in text.lines().enumerate() {
        let line_number = index + 1;
        if line.trim().is_empty() {
            continue;
        }
        let source = Source {
            path: path.to_path_buf(),
            line: line_number,
            entry: None,
        };
        let record: RequestRecord<&RawValue> =
            serde_json::from_str(line).map_err(|e| json_error(path, line_number, &e))?;
        let raw = record.game_state.get();
        let state = if raw.starts_with('"') {
            // A string holding the JSON text, as some loggers write it.
            let inner: String =
                serde_json::from_str(raw).map_err(|e| json_error(path, line_number, &e))?;
            parse_state(&inner, &source)?
        } else {
            parse_state(raw, &source)?
        };
        out.push(Recorded {
            source,
            state,
            origin: Origin::DealerRequest(record.map_state(|_| ())),
        });
    }
    Ok(())
}
