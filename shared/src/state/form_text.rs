//! Form encoding (`application/x-www-form-urlencoded`) of bytes, exactly as the
//! `form_urlencoded` crate does it: ASCII alphanumerics and `*-._` kept, space as `+`, every
//! other byte as `%XX`. The one table of it, read at compile time for the fixed text of a
//! document (`json.rs` spells every key twice, as JSON and form-encoded) and at run time for
//! its strings and for any text (`protocol`).

/// Every byte's encoding, packed in a `u32`: the encoded bytes in the low three bytes (little
/// end first, unused ones zero) and their count (1 or 3) in the high byte, so that encoding a
/// byte is one load, one four-byte store and one add.
const FORM_ENCODED: [u32; 256] = {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let mut table = [0u32; 256];
    let mut byte = 0;
    while byte < 256 {
        let b = byte as u8;
        let (encoded, length) =
            if b.is_ascii_alphanumeric() || matches!(b, b'*' | b'-' | b'.' | b'_') {
                ([b, 0, 0], 1)
            } else if b == b' ' {
                ([b'+', 0, 0], 1)
            } else {
                ([b'%', HEX[(b >> 4) as usize], HEX[(b & 0x0f) as usize]], 3)
            };
        table[byte] = u32::from_le_bytes([encoded[0], encoded[1], encoded[2], length]);
        byte += 1;
    }
    table
};

/// The bytes encoded per round of [`push_form_encoded_bytes`].
const CHUNK: usize = 64;

/// Appends the form encoding of `bytes` to `out`. Each byte's packed encoding is stored whole
/// into a buffer on the stack at the current end, which then advances by the encoded length (no
/// branch on the byte's class, no capacity check per byte; the next store overwrites the
/// padding); the buffer goes to `out` once per [`CHUNK`] bytes.
pub(crate) fn push_form_encoded_bytes(out: &mut Vec<u8>, bytes: &[u8]) {
    // 3 bytes per input byte, and room for the last four-byte store.
    let mut buffer = [0u8; 3 * CHUNK + 4];
    for chunk in bytes.chunks(CHUNK) {
        let mut end = 0;
        for &byte in chunk {
            let packed = FORM_ENCODED[usize::from(byte)];
            if let Some(room) = buffer.get_mut(end..end + 4) {
                room.copy_from_slice(&packed.to_le_bytes());
            }
            end += (packed >> 24) as usize;
        }
        out.extend_from_slice(&buffer[..end]);
    }
}

/// The length of the form encoding of `bytes` (for [`form_encoded`], at compile time).
pub(crate) const fn form_encoded_len(bytes: &[u8]) -> usize {
    let mut length = 0;
    let mut index = 0;
    while index < bytes.len() {
        length += (FORM_ENCODED[bytes[index] as usize] >> 24) as usize;
        index += 1;
    }
    length
}

/// The form encoding of `bytes`, `LENGTH` bytes long ([`form_encoded_len`]), at compile time.
pub(crate) const fn form_encoded<const LENGTH: usize>(bytes: &[u8]) -> [u8; LENGTH] {
    let mut out = [0u8; LENGTH];
    let mut at = 0;
    let mut index = 0;
    while index < bytes.len() {
        let packed = FORM_ENCODED[bytes[index] as usize].to_le_bytes();
        let mut offset = 0;
        while offset < packed[3] as usize {
            out[at] = packed[offset];
            at += 1;
            offset += 1;
        }
        index += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_compile_time_and_the_run_time_encodings_agree() {
        const TEXT: &[u8] = b"{\"name\":\"a b\",\"x\":[1,2]}*-._~\xff";
        const FORM: [u8; form_encoded_len(TEXT)] = form_encoded(TEXT);
        let mut run_time = Vec::new();
        push_form_encoded_bytes(&mut run_time, TEXT);
        assert_eq!(run_time, FORM);
        // More than one chunk, every byte value.
        let long: Vec<u8> = (0..=255u8).cycle().take(3 * CHUNK + 7).collect();
        let mut encoded = Vec::new();
        push_form_encoded_bytes(&mut encoded, &long);
        let reference: String = long
            .iter()
            .map(|&byte| match byte {
                b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'*' | b'-' | b'.' | b'_' => {
                    char::from(byte).to_string()
                }
                b' ' => "+".to_string(),
                _ => format!("%{byte:02X}"),
            })
            .collect();
        assert_eq!(String::from_utf8(encoded).unwrap(), reference);
        assert_eq!(
            std::str::from_utf8(&FORM).unwrap(),
            "%7B%22name%22%3A%22a+b%22%2C%22x%22%3A%5B1%2C2%5D%7D*-._%7E%FF"
        );
    }
}
