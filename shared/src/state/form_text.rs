//! Form encoding (`application/x-www-form-urlencoded`) of bytes, exactly as the
//! `form_urlencoded` crate does it: ASCII alphanumerics and `*-._` kept, space as `+`, every
//! other byte as `%XX`. The one table of it, read at compile time for the fixed text of a
//! document (`json.rs` spells every key twice, as JSON and form-encoded) and at run time for
//! its strings and for any text (`protocol`).

/// Every byte's encoding (padded to three bytes) and its length.
pub(crate) const FORM_ENCODED: [([u8; 3], u8); 256] = {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let mut table = [([0u8; 3], 0u8); 256];
    let mut byte = 0;
    while byte < 256 {
        let b = byte as u8;
        table[byte] = if b.is_ascii_alphanumeric() || matches!(b, b'*' | b'-' | b'.' | b'_') {
            ([b, 0, 0], 1)
        } else if b == b' ' {
            ([b'+', 0, 0], 1)
        } else {
            ([b'%', HEX[(b >> 4) as usize], HEX[(b & 0x0f) as usize]], 3)
        };
        byte += 1;
    }
    table
};

/// Appends the form encoding of `bytes` to `out`: one table lookup and one three-byte copy per
/// byte into room reserved up front, the length advanced by the byte's encoded length (no
/// branch on the byte's class, no capacity check per byte).
pub(crate) fn push_form_encoded_bytes(out: &mut Vec<u8>, bytes: &[u8]) {
    let start = out.len();
    // The copy of the i-th byte ends at most 3 * (i + 1) bytes in: it always fits.
    out.resize(start + 3 * bytes.len(), 0);
    let mut at = start;
    for &byte in bytes {
        let (encoded, length) = FORM_ENCODED[usize::from(byte)];
        if let Some(room) = out.get_mut(at..at + 3) {
            room.copy_from_slice(&encoded);
        }
        at += usize::from(length);
    }
    out.truncate(at);
}

/// The length of the form encoding of `bytes` (for [`form_encoded`], at compile time).
pub(crate) const fn form_encoded_len(bytes: &[u8]) -> usize {
    let mut length = 0;
    let mut index = 0;
    while index < bytes.len() {
        length += FORM_ENCODED[bytes[index] as usize].1 as usize;
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
        let (encoded, length) = FORM_ENCODED[bytes[index] as usize];
        let mut offset = 0;
        while offset < length as usize {
            out[at] = encoded[offset];
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
        const TEXT: &[u8] = b"{\"name\":\"a b\",\"x\":[1,2]}*-._~";
        const FORM: [u8; form_encoded_len(TEXT)] = form_encoded(TEXT);
        let mut run_time = Vec::new();
        push_form_encoded_bytes(&mut run_time, TEXT);
        assert_eq!(run_time, FORM);
        assert_eq!(
            std::str::from_utf8(&FORM).unwrap(),
            "%7B%22name%22%3A%22a+b%22%2C%22x%22%3A%5B1%2C2%5D%7D*-._%7E"
        );
    }
}
