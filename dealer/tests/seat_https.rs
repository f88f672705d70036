//! https players in the default build (the `tls` feature): a player behind TLS, with a
//! certificate from a CA made in this test (as an event's own CA would be), is reached when
//! `SSL_CERT_FILE` names that CA, and refused when nothing trusts it. A missing or empty
//! `SSL_CERT_FILE` is a clear error when the client is built.
//!
//! One test in its own binary: it sets `SSL_CERT_FILE` for the whole process.
#![cfg(feature = "tls")]

use dealer::seat::{HttpClient, HttpSettings, PlayerEndpoint};
use player::{Player, ServerBuilder};
use rcgen::{BasicConstraints, CertificateParams, DnType, IsCa, KeyPair};
use shared::{Chips, GameState};
use std::net::SocketAddr;
use std::sync::Arc;
use tokio_rustls::rustls::pki_types::{PrivateKeyDer, PrivatePkcs8KeyDer};
use tokio_rustls::rustls::{self, ServerConfig};

struct Caller;

impl Player for Caller {
    fn bet_request(&self, state: &GameState) -> Chips {
        state.call_amount()
    }
    fn version(&self) -> String {
        "behind TLS 1".into()
    }
}

/// A CA and a certificate for `localhost` and 127.0.0.1 signed by it: (CA PEM, server config).
fn event_ca_and_server_config() -> (String, ServerConfig) {
    let ca_key = KeyPair::generate().unwrap();
    let mut ca_params = CertificateParams::new(Vec::<String>::new()).unwrap();
    ca_params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    ca_params
        .distinguished_name
        .push(DnType::CommonName, "Lean Poker test event CA");
    let ca = ca_params.self_signed(&ca_key).unwrap();
    let player_key = KeyPair::generate().unwrap();
    let player_params =
        CertificateParams::new(vec!["localhost".to_string(), "127.0.0.1".to_string()]).unwrap();
    let player_certificate = player_params.signed_by(&player_key, &ca, &ca_key).unwrap();
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(
            vec![player_certificate.der().clone()],
            PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(player_key.serialize_der())),
        )
        .unwrap();
    (ca.pem(), config)
}

/// Terminates TLS on a free port and passes the bytes on to `player`.
async fn tls_front(config: ServerConfig, player: SocketAddr) -> u16 {
    let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(config));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    tokio::spawn(async move {
        while let Ok((tcp, _)) = listener.accept().await {
            let acceptor = acceptor.clone();
            tokio::spawn(async move {
                // A client that refuses the certificate ends the handshake: nothing to pass on.
                let Ok(mut tls) = acceptor.accept(tcp).await else {
                    return;
                };
                let Ok(mut plain) = tokio::net::TcpStream::connect(player).await else {
                    return;
                };
                let _ = tokio::io::copy_bidirectional(&mut tls, &mut plain).await;
            });
        }
    });
    port
}

fn client() -> Result<HttpClient, String> {
    HttpClient::new(HttpSettings::default()).map_err(|error| error.to_string())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_https_player_is_reached_when_ssl_cert_file_trusts_its_ca() {
    let (ca_pem, config) = event_ca_and_server_config();
    let server = ServerBuilder::new(Caller)
        .address(([127, 0, 0, 1], 0).into())
        .workers(1)
        .start()
        .unwrap();
    let port = tls_front(config, server.local_addr()).await;
    let endpoint = PlayerEndpoint::parse(&format!("https://localhost:{port}/")).unwrap();

    // Nothing trusts the event's CA yet: the handshake fails, as a failed check.
    std::env::remove_var("SSL_CERT_FILE");
    let untrusting = client().unwrap().seat(endpoint.clone());
    let refused = untrusting.check().await;
    let failure = refused
        .failure()
        .expect("an untrusted certificate is refused")
        .to_string();
    assert!(
        failure.contains("UnknownIssuer") && failure.contains("set SSL_CERT_FILE"),
        "the refusal says what to do: {failure}"
    );
    assert!(refused.status.is_none(), "{refused:?}");

    // An https:// URL for a player that speaks plain HTTP says so.
    let plain = PlayerEndpoint::parse(&format!(
        "https://localhost:{}/",
        server.local_addr().port()
    ))
    .unwrap();
    let mixed_up = client().unwrap().seat(plain).check().await;
    let failure = mixed_up
        .failure()
        .expect("TLS to a plain-HTTP port fails")
        .to_string();
    assert!(
        failure.contains("plain HTTP") && failure.contains("http:// URL"),
        "the failure names the mix-up: {failure}"
    );

    let dir = tempfile::tempdir().unwrap();
    let ca_file = dir.path().join("event-ca.pem");
    std::fs::write(&ca_file, &ca_pem).unwrap();
    std::env::set_var("SSL_CERT_FILE", &ca_file);
    let seat = client().unwrap().seat(endpoint);
    let check = seat.check().await;
    assert!(check.failure().is_none(), "{check:?}");
    assert_eq!(check.status, Some(200));
    let version = seat.version().await;
    assert_eq!(version.outcome.as_deref().ok(), Some("behind TLS 1"));
    let state = shared::testing_state();
    let bet = seat.bet_request(&state).await;
    assert_eq!(bet.outcome.ok(), Some(state.call_amount()));

    // A missing file, or one without a certificate, stops the dealer with a clear message.
    std::env::set_var("SSL_CERT_FILE", dir.path().join("missing.pem"));
    let error = client().unwrap_err();
    assert!(
        error.contains("SSL_CERT_FILE=") && error.contains("missing.pem"),
        "{error}"
    );
    let empty = dir.path().join("empty.pem");
    std::fs::write(&empty, "not a certificate\n").unwrap();
    std::env::set_var("SSL_CERT_FILE", &empty);
    let error = client().unwrap_err();
    assert!(error.contains("no PEM certificate"), "{error}");
    std::env::remove_var("SSL_CERT_FILE");
    server.stop().await.unwrap();
}
