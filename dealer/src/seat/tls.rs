//! https players (the `tls` feature, on by default): rustls with the ring provider, HTTP/1.1
//! only (ALPN `http/1.1`).
//!
//! Trusted roots are Mozilla's (built in, so a slim image without CA files works) and the
//! system's store, which `SSL_CERT_FILE` replaces when set, as in OpenSSL. The file is also read
//! here, so that a missing file or one without a certificate is a clear error at start-up
//! instead of every https player failing its handshake later.

use super::failure::error_chain;
use super::http_settings::ClientError;
use std::sync::{Arc, OnceLock};
use tokio_rustls::rustls::pki_types::pem::PemObject;
use tokio_rustls::rustls::pki_types::{CertificateDer, ServerName};
use tokio_rustls::rustls::{self, ClientConfig, RootCertStore};

/// Makes TLS connections to players; made once per client.
///
/// `SSL_CERT_FILE` is read and checked when the client is made, so that a bad file is an error
/// at start-up; the rest (Mozilla's roots and the system's store, a few hundred certificates
/// decoded from PEM: about 24 million instructions, more than a thousand requests to a plain
/// HTTP player cost) waits for the first https connection, which a run of plain HTTP players
/// never makes.
#[derive(Clone)]
pub(super) struct TlsConnector {
    /// The certificates of `SSL_CERT_FILE`, already checked.
    file_roots: Arc<RootCertStore>,
    /// The connector, made at the first https connection (an error stays an error for every
    /// later connection).
    made: Arc<OnceLock<Result<tokio_rustls::TlsConnector, String>>>,
}

impl std::fmt::Debug for TlsConnector {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("TlsConnector")
    }
}

/// The TLS side of a connection to a player.
pub(super) type TlsStream = tokio_rustls::client::TlsStream<tokio::net::TcpStream>;

impl TlsConnector {
    /// Checks `SSL_CERT_FILE`; the roots described in the module docs are loaded at the first
    /// https connection.
    pub(super) fn new() -> Result<TlsConnector, ClientError> {
        let mut file_roots = RootCertStore::empty();
        for certificate in ssl_cert_file()? {
            file_roots
                .add(certificate)
                .map_err(|error| ClientError::Build(format!("SSL_CERT_FILE: {error}")))?;
        }
        Ok(TlsConnector {
            file_roots: Arc::new(file_roots),
            made: Arc::default(),
        })
    }

    /// The rustls connector with every root: Mozilla's, the system's store, `SSL_CERT_FILE`'s.
    fn make(file_roots: &RootCertStore) -> Result<tokio_rustls::TlsConnector, String> {
        let mut roots = RootCertStore::empty();
        roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned());
        // The system's store (or `SSL_CERT_FILE`): stores often hold a few certificates that
        // rustls cannot parse; those are skipped, as every rustls client does.
        let native = rustls_native_certs::load_native_certs();
        for certificate in native.certs {
            if let Err(error) = roots.add(certificate) {
                tracing::debug!(%error, "a certificate of the system's store was skipped");
            }
        }
        roots.extend(file_roots.roots.iter().cloned());
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let mut config = ClientConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .map_err(|error| error_chain(&error))?
            .with_root_certificates(roots)
            .with_no_client_auth();
        config.alpn_protocols = vec![b"http/1.1".to_vec()];
        Ok(tokio_rustls::TlsConnector::from(Arc::new(config)))
    }

    /// The TLS handshake with `host` (a DNS name or an IP address, without brackets) on `tcp`.
    pub(super) async fn connect(
        &self,
        host: &str,
        tcp: tokio::net::TcpStream,
    ) -> std::io::Result<TlsStream> {
        let name = ServerName::try_from(host.to_owned())
            .map_err(|error| std::io::Error::new(std::io::ErrorKind::InvalidInput, error))?;
        let connector = self
            .made
            .get_or_init(|| TlsConnector::make(&self.file_roots))
            .as_ref()
            .map_err(|error| std::io::Error::other(format!("TLS configuration: {error}")))?;
        connector.connect(name, tcp).await
    }
}

/// A failed handshake in one line, with what to do about the two failures an organiser meets
/// most: a player whose certificate comes from the event's own CA while the dealer was not
/// told to trust it, and an `https://` URL given for a player that speaks plain HTTP.
pub(super) fn handshake_failure(error: &std::io::Error) -> String {
    let text = error_chain(error);
    let rustls_error = error
        .get_ref()
        .and_then(|inner| inner.downcast_ref::<rustls::Error>());
    let hint = match rustls_error {
        Some(rustls::Error::InvalidCertificate(rustls::CertificateError::UnknownIssuer)) => {
            " (the player's certificate is signed by a CA this dealer does not trust: set \
             SSL_CERT_FILE to the event's CA file)"
        }
        Some(rustls::Error::InvalidMessage(rustls::InvalidMessage::InvalidContentType)) => {
            " (the port answered in plain HTTP, not TLS: give this player an http:// URL)"
        }
        _ if error.kind() == std::io::ErrorKind::UnexpectedEof => {
            " (the player closed the connection during the TLS handshake: is its port plain \
             HTTP? then give it an http:// URL)"
        }
        _ => "",
    };
    text + hint
}

/// The certificates of `SSL_CERT_FILE` (none when it is not set): an unreadable file, a bad
/// PEM section or a file without any certificate is an error naming the file.
fn ssl_cert_file() -> Result<Vec<CertificateDer<'static>>, ClientError> {
    let Some(path) = std::env::var_os("SSL_CERT_FILE").filter(|path| !path.is_empty()) else {
        return Ok(Vec::new());
    };
    let problem = |reason: String| {
        let shown = std::path::Path::new(&path).display();
        ClientError::Build(format!("SSL_CERT_FILE={shown}: {reason}"))
    };
    let pem = std::fs::read(&path).map_err(|error| problem(error.to_string()))?;
    let certificates = CertificateDer::pem_slice_iter(&pem)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|error| problem(error.to_string()))?;
    if certificates.is_empty() {
        return Err(problem("no PEM certificate in it".to_string()));
    }
    Ok(certificates)
}
