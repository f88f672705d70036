//! Connections to players: HTTP/1.1 on hyper's connection API, each connection driven by the
//! task that sends on it (the game's), never by a task of its own.
//!
//! A general-purpose client (reqwest, hyper-util's pool) gives every connection a background
//! task: the request goes to that task and the response comes back, two cross-task wake-ups per
//! request, and on a multi-threaded runtime often a cross-thread one. Here the game's task polls
//! the connection itself while it waits for the response and the body ([`drive`]), so a request
//! costs the socket work and nothing else. Between two requests nobody polls an idle connection:
//! the kernel keeps whatever arrives (usually the player closing it), and the next user sees it
//! first ([`Connection::ready`]).
//!
//! Idle connections wait in a [`Pool`], one per player address (scheme, host and port), shared
//! by every seat of a client at that address, as a general-purpose client pools them.

use super::endpoint::PlayerEndpoint;
use super::failure::{error_chain, one_line};
use super::http_settings::{ClientError, HttpSettings};
use super::SeatFailure;
use bytes::Bytes;
use http_body_util::Full;
use hyper::client::conn::http1;
use hyper_util::rt::TokioIo;
use std::future::Future;
use std::net::SocketAddr;
use std::pin::{pin, Pin};
use std::sync::{Arc, Mutex};
use std::task::Poll;
use std::time::Instant;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpStream;
use url::Host;

/// A request body: the form, sent from one buffer.
pub(super) type RequestBody = Full<Bytes>;

/// The most idle connections kept per player address. One game asks one player at a time, so
/// a seat needs one; the rest is for parallel games and concurrent calls to the same player.
const MAX_IDLE_PER_PLAYER: usize = 32;

/// A plain or TLS stream to a player.
trait PlayerStream: AsyncRead + AsyncWrite + Send + Unpin {}
impl<T: AsyncRead + AsyncWrite + Send + Unpin> PlayerStream for T {}

type Driver = http1::Connection<TokioIo<Box<dyn PlayerStream>>, RequestBody>;

/// One HTTP/1.1 connection to a player: the handle requests are sent on, and the connection
/// state machine that must be polled for anything to happen.
pub(super) struct Connection {
    pub(super) sender: http1::SendRequest<RequestBody>,
    /// `None` once the connection ended (closed by either side, or broken).
    driver: Option<Pin<Box<Driver>>>,
    idle_since: Instant,
}

impl Connection {
    /// Runs `future` (a response, a body frame) while driving this connection, on the caller's
    /// task.
    pub(super) async fn drive<F: Future>(&mut self, future: F) -> F::Output {
        drive(&mut self.driver, future).await
    }

    /// Waits until the connection can take a request; `false` when it turned out closed (the
    /// player closed an idle connection, or answered the last request with `Connection: close`).
    pub(super) async fn ready(&mut self) -> bool {
        let Connection { sender, driver, .. } = self;
        drive(driver, sender.ready()).await.is_ok()
    }

    /// Whether the connection can be used again after a complete exchange.
    fn reusable(&self) -> bool {
        self.driver.is_some() && !self.sender.is_closed()
    }
}

/// Polls `future` and the connection `driver` together until `future` is done. The driver is
/// polled first, so that what it reads reaches `future` in the same turn; once the connection
/// ends, every request and body on it has been told (hyper fails them), and `driver` is `None`.
async fn drive<F: Future>(driver: &mut Option<Pin<Box<Driver>>>, future: F) -> F::Output {
    let mut future = pin!(future);
    std::future::poll_fn(|context| {
        if let Some(connection) = driver {
            if let Poll::Ready(ended) = connection.as_mut().poll(context) {
                if let Err(error) = ended {
                    tracing::trace!(%error, "player connection ended with an error");
                }
                *driver = None;
            }
        }
        future.as_mut().poll(context)
    })
    .await
}

/// Where connections go: the address of a player and how to reach it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) struct PoolKey {
    https: bool,
    host: Host<String>,
    port: u16,
}

impl PoolKey {
    pub(super) fn of(endpoint: &PlayerEndpoint) -> PoolKey {
        let url = endpoint.url();
        PoolKey {
            https: url.scheme() == "https",
            // A validated endpoint always has a host (checked when it is parsed).
            host: url
                .host()
                .map_or(Host::Domain(String::new()), |host| host.to_owned()),
            port: url.port_or_known_default().unwrap_or(80),
        }
    }
}

/// The idle connections to one player address, most recently used last.
pub(super) struct Pool {
    key: PoolKey,
    idle: Mutex<Vec<Connection>>,
}

impl std::fmt::Debug for Pool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let idle = self.idle.lock().map_or(0, |idle| idle.len());
        f.debug_struct("Pool").field("idle", &idle).finish()
    }
}

impl Pool {
    pub(super) fn new(key: PoolKey) -> Pool {
        Pool {
            key,
            idle: Mutex::new(Vec::new()),
        }
    }

    /// The most recently used idle connection that is younger than the idle timeout, if any
    /// (older ones are dropped: the player may be closing them right now).
    pub(super) fn take(&self, idle_timeout: std::time::Duration) -> Option<Connection> {
        let mut idle = self.idle.lock().unwrap_or_else(|e| e.into_inner());
        while let Some(connection) = idle.pop() {
            if connection.idle_since.elapsed() < idle_timeout {
                return Some(connection);
            }
        }
        None
    }

    /// Keeps `connection` for the next request, if it can take one.
    pub(super) fn put_back(&self, mut connection: Connection) {
        if !connection.reusable() {
            return;
        }
        connection.idle_since = Instant::now();
        let mut idle = self.idle.lock().unwrap_or_else(|e| e.into_inner());
        if idle.len() < MAX_IDLE_PER_PLAYER {
            idle.push(connection);
        }
    }

    /// A new connection: resolve, connect and (https) the TLS handshake, within the connect
    /// timeout when there is one.
    pub(super) async fn connect(
        &self,
        settings: &HttpSettings,
        connector: &Connector,
    ) -> Result<Connection, SeatFailure> {
        let stream = match settings.connect_timeout {
            Some(limit) => tokio::time::timeout(limit, connector.open(&self.key))
                .await
                .map_err(|_| SeatFailure::ConnectTimeout {
                    after_ms: super::failure::millis(limit),
                })??,
            None => connector.open(&self.key).await?,
        };
        let (sender, driver) = http1::Builder::new()
            .handshake(TokioIo::new(stream))
            .await
            .map_err(|error| SeatFailure::Connect(error_chain(&error)))?;
        Ok(Connection {
            sender,
            driver: Some(Box::pin(driver)),
            idle_since: Instant::now(),
        })
    }
}

/// Opens streams to players: TCP, and TLS for https players.
#[derive(Clone, Debug)]
pub(super) struct Connector {
    #[cfg(feature = "tls")]
    tls: super::tls::TlsConnector,
}

impl Connector {
    /// A connector; with the `tls` feature, its TLS configuration (see `tls.rs`).
    pub(super) fn new() -> Result<Connector, ClientError> {
        Ok(Connector {
            #[cfg(feature = "tls")]
            tls: super::tls::TlsConnector::new()?,
        })
    }

    async fn open(&self, key: &PoolKey) -> Result<Box<dyn PlayerStream>, SeatFailure> {
        let tcp = connect_tcp(&key.host, key.port).await?;
        // Requests and answers are single small writes: never wait for an acknowledgement.
        tcp.set_nodelay(true)
            .map_err(|error| SeatFailure::Connect(one_line(&error.to_string())))?;
        if !key.https {
            return Ok(Box::new(tcp));
        }
        #[cfg(feature = "tls")]
        {
            let host = match &key.host {
                Host::Domain(name) => name.clone(),
                Host::Ipv4(ip) => ip.to_string(),
                Host::Ipv6(ip) => ip.to_string(),
            };
            let stream = self
                .tls
                .connect(&host, tcp)
                .await
                .map_err(|error| SeatFailure::Connect(super::tls::handshake_failure(&error)))?;
            Ok(Box::new(stream))
        }
        #[cfg(not(feature = "tls"))]
        {
            // Refused when the endpoint is parsed; an error here rather than a panic.
            Err(SeatFailure::Connect(
                "https needs the dealer built with the `tls` feature".to_string(),
            ))
        }
    }
}

/// Connects to the first address of `host` that accepts, in the resolver's order.
async fn connect_tcp(host: &Host<String>, port: u16) -> Result<TcpStream, SeatFailure> {
    let addresses: Vec<SocketAddr> = match host {
        Host::Ipv4(ip) => vec![SocketAddr::from((*ip, port))],
        Host::Ipv6(ip) => vec![SocketAddr::from((*ip, port))],
        Host::Domain(name) => tokio::net::lookup_host((name.as_str(), port))
            .await
            .map_err(|error| {
                SeatFailure::Connect(one_line(&format!("cannot resolve {name}: {error}")))
            })?
            .collect(),
    };
    let mut last_error = None;
    for address in addresses {
        match TcpStream::connect(address).await {
            Ok(stream) => return Ok(stream),
            Err(error) => last_error = Some(error),
        }
    }
    Err(match last_error {
        Some(error) if error.kind() == std::io::ErrorKind::ConnectionRefused => {
            SeatFailure::ConnectionRefused
        }
        Some(error) => SeatFailure::Connect(one_line(&error.to_string())),
        None => SeatFailure::Connect(format!("no address for {host}")),
    })
}

/// The pools of a client, one per player address.
#[derive(Debug, Default)]
pub(super) struct Pools(Mutex<std::collections::HashMap<PoolKey, Arc<Pool>>>);

impl Pools {
    /// The pool of `endpoint`'s address, made on first use.
    pub(super) fn of(&self, endpoint: &PlayerEndpoint) -> Arc<Pool> {
        let key = PoolKey::of(endpoint);
        let mut pools = self.0.lock().unwrap_or_else(|e| e.into_inner());
        pools
            .entry(key.clone())
            .or_insert_with(|| Arc::new(Pool::new(key)))
            .clone()
    }
}
