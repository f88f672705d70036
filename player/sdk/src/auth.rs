//! Optional caller authentication: a shared secret the dealer must present.
//!
//! Accepted forms (the dealer sends Basic when the player URL carries userinfo,
//! `http://team:secret@host:port/`, or a Bearer token):
//! - `Authorization: Bearer <secret>`;
//! - `Authorization: Basic base64(<user>:<secret>)`, any user name.
//!
//! The comparison is constant-time for equal lengths, so response timing does not reveal how
//! much of a guess was right.

use base64::Engine as _;
use subtle::ConstantTimeEq;

/// The shared secret. `Debug` never prints it.
#[derive(Clone)]
pub(crate) struct Secret(String);

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Secret(***)")
    }
}

/// The value of `WWW-Authenticate` challenges sent with a `401`.
pub(crate) const CHALLENGES: [&str; 2] = [
    "Basic realm=\"lean-poker-player\", charset=\"UTF-8\"",
    "Bearer realm=\"lean-poker-player\"",
];

/// Why a request was not let in (the text of the `401` body).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Denied {
    /// No `Authorization` header.
    Missing,
    /// A header that is not valid Basic or Bearer.
    Malformed,
    /// Well-formed, but the secret does not match.
    WrongSecret,
}

impl Denied {
    /// One line for the response body and the log.
    pub(crate) const fn reason(self) -> &'static str {
        match self {
            Denied::Missing => {
                "authentication required: send Authorization: Bearer <secret> or Basic auth"
            }
            Denied::Malformed => "malformed Authorization header (expected Bearer or Basic)",
            Denied::WrongSecret => "wrong credentials",
        }
    }
}

impl Secret {
    /// A secret; `None` for an empty text, which means "authentication off".
    pub(crate) fn new(text: impl Into<String>) -> Option<Secret> {
        let text = text.into();
        (!text.is_empty()).then_some(Secret(text))
    }

    fn matches(&self, candidate: &[u8]) -> bool {
        self.0.as_bytes().ct_eq(candidate).into()
    }

    /// Checks the raw `Authorization` header value, if any.
    pub(crate) fn check(&self, header: Option<&[u8]>) -> Result<(), Denied> {
        let header = header.ok_or(Denied::Missing)?;
        let text = std::str::from_utf8(header).map_err(|_| Denied::Malformed)?;
        let (scheme, credentials) = text.trim().split_once(' ').ok_or(Denied::Malformed)?;
        let credentials = credentials.trim();
        if scheme.eq_ignore_ascii_case("bearer") {
            return if self.matches(credentials.as_bytes()) {
                Ok(())
            } else {
                Err(Denied::WrongSecret)
            };
        }
        if scheme.eq_ignore_ascii_case("basic") {
            let decoded = base64::engine::general_purpose::STANDARD
                .decode(credentials)
                .map_err(|_| Denied::Malformed)?;
            let colon = decoded
                .iter()
                .position(|&b| b == b':')
                .ok_or(Denied::Malformed)?;
            return if self.matches(&decoded[colon + 1..]) {
                Ok(())
            } else {
                Err(Denied::WrongSecret)
            };
        }
        Err(Denied::Malformed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn basic(user_and_password: &str) -> String {
        format!(
            "Basic {}",
            base64::engine::general_purpose::STANDARD.encode(user_and_password)
        )
    }

    #[test]
    fn empty_secret_means_off() {
        assert!(Secret::new("").is_none());
        assert!(Secret::new("s3cret").is_some());
    }

    #[test]
    fn bearer_and_basic_with_any_user() {
        let secret = Secret::new("s3cret").unwrap();
        assert_eq!(secret.check(Some(b"Bearer s3cret")), Ok(()));
        assert_eq!(secret.check(Some(b"bearer  s3cret ")), Ok(()));
        assert_eq!(secret.check(Some(basic("team:s3cret").as_bytes())), Ok(()));
        assert_eq!(secret.check(Some(basic(":s3cret").as_bytes())), Ok(()));
        // Only the first colon separates the user: the password may contain colons.
        let colon = Secret::new("a:b").unwrap();
        assert_eq!(colon.check(Some(basic("team:a:b").as_bytes())), Ok(()));
    }

    #[test]
    fn everything_else_is_denied() {
        let secret = Secret::new("s3cret").unwrap();
        assert_eq!(secret.check(None), Err(Denied::Missing));
        assert_eq!(secret.check(Some(b"Bearer nope")), Err(Denied::WrongSecret));
        assert_eq!(
            secret.check(Some(b"Bearer s3cre")),
            Err(Denied::WrongSecret)
        );
        assert_eq!(
            secret.check(Some(basic("s3cret:nope").as_bytes())),
            Err(Denied::WrongSecret)
        );
        assert_eq!(
            secret.check(Some(basic("s3cret").as_bytes())),
            Err(Denied::Malformed)
        );
        assert_eq!(secret.check(Some(b"Basic !!!")), Err(Denied::Malformed));
        assert_eq!(secret.check(Some(b"s3cret")), Err(Denied::Malformed));
        assert_eq!(secret.check(Some(b"Digest s3cret")), Err(Denied::Malformed));
        assert_eq!(secret.check(Some(b"Bearer \xff")), Err(Denied::Malformed));
        assert!(!format!("{secret:?}").contains("s3cret"));
    }
}
