//! Form encoding (`application/x-www-form-urlencoded`) of request bodies, byte for byte as the
//! `form_urlencoded` crate does it, in one pass: the dealer encodes and every player decodes a
//! game state per request.

use crate::state::{push_form_encoded_bytes, GameState, GameStateError};

/// Appends `text` form-encoded exactly as `form_urlencoded::byte_serialize` does (ASCII
/// alphanumerics and `*-._` kept, space as `+`, every other byte as `%XX`).
pub(super) fn push_form_encoded(out: &mut String, text: &str) {
    let mut bytes = std::mem::take(out).into_bytes();
    push_form_encoded_bytes(&mut bytes, text.as_bytes());
    // Only ASCII was pushed onto what was already a valid String.
    *out = String::from_utf8(bytes).unwrap_or_default();
}

/// The `name=value` pairs of a form body, still encoded, exactly as `form_urlencoded::parse`
/// splits them: on `&`, skipping empty pieces, then on the first `=` (no `=`: an empty value).
pub(super) fn form_fields(body: &[u8]) -> impl Iterator<Item = (&[u8], &[u8])> {
    body.split(|&byte| byte == b'&')
        .filter(|piece| !piece.is_empty())
        .map(|piece| match piece.iter().position(|&byte| byte == b'=') {
            Some(equals) => (&piece[..equals], &piece[equals + 1..]),
            None => (piece, &[][..]),
        })
}

/// A field name, decoded only when it has something to decode (names are almost always plain).
pub(super) fn form_key(encoded: &[u8]) -> std::borrow::Cow<'_, str> {
    if encoded.iter().any(|&byte| matches!(byte, b'%' | b'+')) {
        std::borrow::Cow::Owned(form_decode_text(encoded))
    } else {
        String::from_utf8_lossy(encoded)
    }
}

/// The value of every byte as a hex digit; `0xFF` for bytes that are not hex digits.
const HEX_VALUE: [u8; 256] = {
    let mut table = [0xFF; 256];
    let mut digit = 0;
    while digit < 10 {
        table[b'0' as usize + digit] = digit as u8;
        digit += 1;
    }
    let mut letter = 0;
    while letter < 6 {
        table[b'a' as usize + letter] = 10 + letter as u8;
        table[b'A' as usize + letter] = 10 + letter as u8;
        letter += 1;
    }
    table
};

/// Appends the form-decoded bytes of `encoded` to `out` in one pass, as `form_urlencoded` decodes
/// a value before its UTF-8 step: `+` is a space, `%` and two hex digits are that byte, and any
/// other `%` is kept as it is. (One table lookup per hex digit: about twice as fast as
/// `form_urlencoded` on a game state, which is mostly escapes.)
fn form_decode_into(encoded: &[u8], out: &mut Vec<u8>) {
    out.reserve(encoded.len());
    let mut rest = encoded;
    while let Some((&byte, tail)) = rest.split_first() {
        rest = tail;
        match byte {
            b'%' => {
                if let [high, low, after @ ..] = tail {
                    let (high, low) = (HEX_VALUE[usize::from(*high)], HEX_VALUE[usize::from(*low)]);
                    if high | low < 16 {
                        out.push(high << 4 | low);
                        rest = after;
                        continue;
                    }
                }
                out.push(b'%');
            }
            b'+' => out.push(b' '),
            other => out.push(other),
        }
    }
}

/// A form-decoded value as text, invalid UTF-8 replaced by U+FFFD (as `form_urlencoded` does).
pub(super) fn form_decode_text(encoded: &[u8]) -> String {
    let mut bytes = Vec::new();
    form_decode_into(encoded, &mut bytes);
    String::from_utf8(bytes)
        .unwrap_or_else(|invalid| String::from_utf8_lossy(invalid.as_bytes()).into_owned())
}

/// Parses a form-encoded `game_state` value: decoded into one buffer and parsed from the bytes.
///
/// The result is exactly that of decoding the value to text with invalid UTF-8 replaced by
/// U+FFFD and parsing that text, without the separate UTF-8 pass on the common, valid document:
/// the JSON parser checks the UTF-8 of every string it reads, and any other non-ASCII byte is a
/// syntax error, so a document that parses either was valid UTF-8 or had invalid bytes only in
/// strings it skipped (unknown fields, whose text never reaches the result). Only a document that
/// fails is checked, and parsed again from its replaced text if it was not UTF-8.
pub(super) fn parse_form_encoded_state(encoded: &[u8]) -> Result<GameState, GameStateError> {
    let mut json = Vec::new();
    form_decode_into(encoded, &mut json);
    match GameState::from_slice(&json) {
        Ok(state) => Ok(state),
        Err(error) => match std::str::from_utf8(&json) {
            Ok(_) => Err(error),
            Err(_) => GameState::from_json(&String::from_utf8_lossy(&json)),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn form_encoding_matches_form_urlencoded_byte_for_byte() {
        let mut samples: Vec<String> = vec![
            String::new(),
            " ~!*'();:@&=+$,/?#[]%\"{}<>|^`\\-._".to_string(),
            "Ultimate chan killer \u{e9}\u{1f0cf}\u{0}\n\t".to_string(),
            include_str!(
                "../../tests/fixtures/gamestates/10-preflop-r23-8-seats-facing-all-in.json"
            )
            .to_string(),
        ];
        samples.push((0u8..=127).map(char::from).collect());
        // Every byte value a UTF-8 text can hold, in one- to four-byte characters.
        samples.push(
            ('\u{80}'..='\u{7ff}')
                .chain(['\u{ffff}', '\u{10ffff}'])
                .collect(),
        );
        for sample in samples {
            let mut ours = String::new();
            push_form_encoded(&mut ours, &sample);
            let theirs: String = form_urlencoded::byte_serialize(sample.as_bytes()).collect();
            assert_eq!(ours, theirs, "{sample:?}");
        }
    }
}
