//! Player addresses: a validated `http`/`https` URL, with credentials moved out of it into a
//! sensitive `Authorization` header, so that the URL is always safe to log.

use super::failure::one_line;
use base64::Engine as _;
use http::header::HeaderValue;
use http::Uri;
use std::fmt;
use std::str::FromStr;
use std::sync::Arc;
use thiserror::Error;
use url::{Position, Url};

/// How a player authenticates the dealer (the SDK accepts either).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AuthScheme {
    /// `Authorization: Basic …`, from the URL's userinfo (`http://team:secret@host:port/`).
    Basic,
    /// `Authorization: Bearer <secret>`.
    Bearer,
}

/// A validated player address: `http` or `https`, a host, no credentials in it (they are moved
/// to a pre-built, sensitive `Authorization` header), no fragment.
///
/// `Display` and [`PlayerEndpoint::url`] never show the secret, so both are safe for logs.
#[derive(Clone, PartialEq, Eq)]
pub struct PlayerEndpoint {
    pub(super) url: Url,
    pub(super) authorization: Option<(AuthScheme, HeaderValue)>,
    /// What every request carries, made once: the request target (path and query) and the
    /// `Host` header (shared: clones of an endpoint stay small).
    pub(super) target: Arc<RequestTarget>,
}

/// The parts of a request line and head that only depend on the URL.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct RequestTarget {
    /// The origin-form target: `/path?query`.
    pub(super) path_and_query: Uri,
    /// `host` or `host:port` (the port only when the URL names a non-default one), as HTTP
    /// clients send it.
    pub(super) host: HeaderValue,
}

impl RequestTarget {
    fn of(url: &Url) -> Result<RequestTarget, EndpointError> {
        let invalid = |what: &str| EndpointError::Syntax {
            reason: format!("the {what} cannot be sent in an HTTP request"),
        };
        let path_and_query = Uri::try_from(&url[Position::BeforePath..Position::AfterQuery])
            .map_err(|_| invalid("path"))?;
        let host = &url[Position::BeforeHost..Position::AfterPort];
        let host = HeaderValue::from_str(host).map_err(|_| invalid("host"))?;
        Ok(RequestTarget {
            path_and_query,
            host,
        })
    }
}

/// Why a player URL or token was rejected. One line, safe to print (never echoes a secret).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum EndpointError {
    /// Not a URL at all.
    #[error("invalid player URL: {reason}")]
    Syntax {
        /// What the URL parser said.
        reason: String,
    },
    /// No `scheme://` at all (`localhost:9000`).
    #[error("invalid player URL: it must start with http:// or https://{hint}")]
    MissingScheme {
        /// `" (did you mean http://…?)"`, or empty when the text may hold a secret.
        hint: String,
    },
    /// A scheme other than `http` or `https`.
    #[error("invalid player URL: scheme {0:?} is not supported (expected http:// or https://)")]
    Scheme(String),
    /// An `https` URL in a dealer built without the `tls` feature (on by default).
    #[error(
        "invalid player URL: https needs the dealer built with the `tls` feature (on by default; \
         this one was built with --no-default-features)"
    )]
    HttpsUnsupported,
    /// No host.
    #[error("invalid player URL: no host")]
    NoHost,
    /// Percent-encoded credentials that are not UTF-8.
    #[error("invalid player URL: the {0} in the userinfo is not UTF-8 once percent-decoded")]
    Credentials(&'static str),
    /// A token that cannot be sent in a header (empty, or with control or non-ASCII characters).
    #[error("invalid bearer token: it must be non-empty visible ASCII")]
    Token,
}

impl PlayerEndpoint {
    /// Validates a player URL such as `http://127.0.0.1:9000/` or
    /// `http://team:secret@10.0.0.7:8080/`. Userinfo becomes Basic credentials (percent-decoded,
    /// so a secret with `@` or `:` is written `%40`, `%3A`; `http://team@host/` sends an empty
    /// password) and is removed from the URL. A path and query are kept; a fragment is dropped.
    ///
    /// ```
    /// use dealer::seat::PlayerEndpoint;
    /// let endpoint = PlayerEndpoint::parse("http://team:s3cret@127.0.0.1:9000").unwrap();
    /// assert_eq!(endpoint.to_string(), "http://127.0.0.1:9000/");
    /// assert!(PlayerEndpoint::parse("localhost:9000").unwrap_err().to_string()
    ///     .contains("did you mean http://localhost:9000?"));
    /// ```
    ///
    /// # Errors
    /// An [`EndpointError`] saying what is wrong.
    pub fn parse(text: &str) -> Result<PlayerEndpoint, EndpointError> {
        let hint = || {
            // Never echo something that may hold a secret.
            if text.contains('@') || text.chars().count() > 100 {
                String::new()
            } else {
                format!(" (did you mean http://{}?)", text.trim())
            }
        };
        if !text.contains("://") {
            return Err(EndpointError::MissingScheme { hint: hint() });
        }
        let mut url = Url::parse(text).map_err(|error| EndpointError::Syntax {
            reason: error.to_string(),
        })?;
        match url.scheme() {
            "http" => {}
            "https" if cfg!(feature = "tls") => {}
            "https" => return Err(EndpointError::HttpsUnsupported),
            other => return Err(EndpointError::Scheme(one_line(other))),
        }
        if url.host_str().is_none_or(str::is_empty) {
            return Err(EndpointError::NoHost);
        }
        let authorization = if !url.username().is_empty() || url.password().is_some() {
            let username = percent_decoded(url.username(), "username")?;
            let password = percent_decoded(url.password().unwrap_or(""), "password")?;
            // Both calls only fail for URLs without a host, rejected above.
            let _ = url.set_username("");
            let _ = url.set_password(None);
            Some((AuthScheme::Basic, basic_header(&username, &password)))
        } else {
            None
        };
        url.set_fragment(None);
        let target = Arc::new(RequestTarget::of(&url)?);
        Ok(PlayerEndpoint {
            url,
            authorization,
            target,
        })
    }

    /// Uses `Authorization: Bearer <token>` instead of any credentials from the URL (the
    /// runner's per-player token option).
    ///
    /// # Errors
    /// [`EndpointError::Token`] for an empty token or one that is not visible ASCII.
    pub fn with_bearer_token(mut self, token: &str) -> Result<PlayerEndpoint, EndpointError> {
        if token.is_empty() || !token.bytes().all(|byte| byte.is_ascii_graphic()) {
            return Err(EndpointError::Token);
        }
        let mut value =
            HeaderValue::from_str(&format!("Bearer {token}")).map_err(|_| EndpointError::Token)?;
        value.set_sensitive(true);
        self.authorization = Some((AuthScheme::Bearer, value));
        Ok(self)
    }

    /// The URL requests go to, without credentials: safe for logs.
    pub fn url(&self) -> &Url {
        &self.url
    }

    /// How the dealer authenticates, if it does.
    pub fn auth_scheme(&self) -> Option<AuthScheme> {
        self.authorization.as_ref().map(|(scheme, _)| *scheme)
    }
}

impl FromStr for PlayerEndpoint {
    type Err = EndpointError;
    fn from_str(text: &str) -> Result<PlayerEndpoint, EndpointError> {
        PlayerEndpoint::parse(text)
    }
}

impl fmt::Display for PlayerEndpoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.url.as_str())
    }
}

impl fmt::Debug for PlayerEndpoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PlayerEndpoint")
            .field("url", &self.url.as_str())
            .field("auth", &self.auth_scheme())
            .finish()
    }
}

fn percent_decoded(text: &str, what: &'static str) -> Result<String, EndpointError> {
    percent_encoding::percent_decode_str(text)
        .decode_utf8()
        .map(|decoded| decoded.into_owned())
        .map_err(|_| EndpointError::Credentials(what))
}

fn basic_header(username: &str, password: &str) -> HeaderValue {
    let encoded =
        base64::engine::general_purpose::STANDARD.encode(format!("{username}:{password}"));
    // Base64 output is always a valid header value.
    let mut value = HeaderValue::from_str(&format!("Basic {encoded}"))
        .unwrap_or_else(|_| HeaderValue::from_static("Basic"));
    value.set_sensitive(true);
    value
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_are_validated_with_clear_errors() {
        let ok = PlayerEndpoint::parse("http://127.0.0.1:9000").unwrap();
        assert_eq!(ok.url().as_str(), "http://127.0.0.1:9000/");
        assert_eq!(ok.auth_scheme(), None);
        let with_path = PlayerEndpoint::parse("http://example.test/bots/a?x=1#frag").unwrap();
        assert_eq!(with_path.to_string(), "http://example.test/bots/a?x=1");

        let error = |text: &str| PlayerEndpoint::parse(text).unwrap_err().to_string();
        assert_eq!(
            error("ftp://host/"),
            "invalid player URL: scheme \"ftp\" is not supported (expected http:// or https://)"
        );
        assert_eq!(
            error("localhost:9000"),
            "invalid player URL: it must start with http:// or https:// \
             (did you mean http://localhost:9000?)"
        );
        assert!(error("127.0.0.1:9000").contains("did you mean http://127.0.0.1:9000?"));
        assert!(error("http://").starts_with("invalid player URL: "));
        assert!(error("http://[::1").starts_with("invalid player URL: "));
        assert!(error("").starts_with("invalid player URL: "));
        if !cfg!(feature = "tls") {
            assert_eq!(
                error("https://host/"),
                "invalid player URL: https needs the dealer built with the `tls` feature (on by \
                 default; this one was built with --no-default-features)"
            );
        }
    }

    #[test]
    fn the_request_target_and_host_header_come_from_the_url() {
        let target = |text: &str| {
            let endpoint = PlayerEndpoint::parse(text).unwrap();
            let target = endpoint.target.as_ref().clone();
            (
                target.path_and_query.to_string(),
                target.host.to_str().unwrap().to_string(),
            )
        };
        let pair = |path: &str, host: &str| (path.to_string(), host.to_string());
        assert_eq!(target("http://127.0.0.1:9000"), pair("/", "127.0.0.1:9000"));
        // A default port is not named, as HTTP clients send it.
        assert_eq!(target("http://bot.test:80/"), pair("/", "bot.test"));
        assert_eq!(target("https://bot.test:443/a"), pair("/a", "bot.test"));
        assert_eq!(
            target("http://team:pw@[::1]:8080/bots/a?x=1#frag"),
            pair("/bots/a?x=1", "[::1]:8080")
        );
        // Non-ASCII in the path is percent-encoded by the URL parser, and the host punycoded.
        assert_eq!(
            target("http://bücher.test/é"),
            pair("/%C3%A9", "xn--bcher-kva.test")
        );
    }

    #[test]
    fn credentials_move_from_the_url_to_a_sensitive_header() {
        let endpoint = PlayerEndpoint::parse("http://team:s%40cret@127.0.0.1:9000/").unwrap();
        assert_eq!(endpoint.to_string(), "http://127.0.0.1:9000/");
        assert_eq!(endpoint.auth_scheme(), Some(AuthScheme::Basic));
        let (_, value) = endpoint.authorization.as_ref().unwrap();
        // base64("team:s@cret")
        assert_eq!(value.to_str().unwrap(), "Basic dGVhbTpzQGNyZXQ=");
        assert!(value.is_sensitive());
        let debug = format!("{endpoint:?}");
        assert!(
            !debug.contains("cret") && !debug.contains("dGVhb"),
            "{debug}"
        );

        let error = PlayerEndpoint::parse("team:secret@host:9000").unwrap_err();
        assert!(!error.to_string().contains("secret"), "{error}");

        let bearer = endpoint.with_bearer_token("t0ken").unwrap();
        assert_eq!(bearer.auth_scheme(), Some(AuthScheme::Bearer));
        assert_eq!(
            bearer.authorization.as_ref().unwrap().1.to_str().unwrap(),
            "Bearer t0ken"
        );
        let plain = PlayerEndpoint::parse("http://h/").unwrap();
        assert_eq!(
            plain.clone().with_bearer_token(""),
            Err(EndpointError::Token)
        );
        assert_eq!(plain.with_bearer_token("a b\n"), Err(EndpointError::Token));
    }
}
