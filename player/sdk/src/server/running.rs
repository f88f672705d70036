//! A server once bound: starting it on actix-web, stopping it, and [`serve`] for a team's
//! `main`.

use super::ServerBuilder;
use crate::service::{self, ServiceState};
use crate::strategy_pool::StrategyPool;
use crate::Player;
use actix_web::{web, App, HttpServer};
use std::future::Future;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, TcpListener};

use super::ServeError;

/// A server whose socket is bound but which does not serve yet.
#[derive(Debug)]
pub struct BoundServer {
    pub(super) builder: ServerBuilder,
    pub(super) listener: TcpListener,
    pub(super) local_addr: SocketAddr,
}

impl BoundServer {
    /// The bound address, with the real port when port 0 was asked for.
    pub fn local_addr(&self) -> SocketAddr {
        self.local_addr
    }

    /// Starts serving in the background of the current Tokio runtime.
    ///
    /// # Errors
    /// [`ServeError::NoRuntime`] outside a runtime, [`ServeError::Threads`] if the strategy
    /// pool cannot be created, [`ServeError::Bind`] if the socket cannot be handed to actix.
    pub fn start(self) -> Result<RunningServer, ServeError> {
        let BoundServer {
            builder,
            listener,
            local_addr,
        } = self;
        let runtime = tokio::runtime::Handle::try_current().map_err(|_| ServeError::NoRuntime)?;
        let strategies = StrategyPool::new(builder.max_in_flight, builder.time_budget)
            .map_err(ServeError::Threads)?;
        let state = web::Data::new(ServiceState {
            player: builder.player,
            strategies,
            fallback: builder.fallback,
            secret: builder.secret.clone(),
            body_limit: builder.body_limit,
        });
        let mut server = HttpServer::new(move || {
            App::new()
                .app_data(state.clone())
                .default_service(web::to(service::handle))
        })
        // Counted per I/O thread: a thread with one connection may wait for a quick
        // strategy's answer on the spot (strategy_pool.rs, QUICK_WAIT).
        .on_connect(service::count_connection)
        .disable_signals()
        .shutdown_timeout(builder.shutdown_timeout.as_secs().max(1))
        // An answer is one small write that must leave at once (actix leaves Nagle on).
        .tcp_nodelay(true)
        .backlog(1024);
        if let Some(workers) = builder.workers {
            server = server.workers(workers);
        }
        if builder.stop_on_signals {
            server = server.shutdown_signal(termination_signal());
        }
        let server = server
            .listen(listener)
            .map_err(|source| ServeError::Bind {
                address: local_addr,
                source,
            })?
            .run();
        let server = ServerTask::spawn(server, &runtime);
        tracing::info!(
            address = %local_addr,
            time_budget_ms = builder.time_budget.as_millis() as u64,
            auth = builder.secret.is_some(),
            "player listening"
        );
        Ok(RunningServer { local_addr, server })
    }
}

/// Waits for SIGTERM (what containers get) or SIGINT (Ctrl-C).
async fn termination_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        match signal(SignalKind::terminate()) {
            Ok(mut terminate) => {
                tokio::select! {
                    _ = terminate.recv() => tracing::info!("SIGTERM: stopping gracefully"),
                    _ = tokio::signal::ctrl_c() => tracing::info!("Ctrl-C: stopping gracefully"),
                }
            }
            Err(error) => {
                tracing::warn!(%error, "cannot listen for SIGTERM; only Ctrl-C stops the server");
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
        tracing::info!("Ctrl-C: stopping gracefully");
    }
}

/// Stops a running server from anywhere (clone it freely).
#[derive(Debug, Clone)]
pub struct ShutdownHandle(actix_web::dev::ServerHandle);

impl ShutdownHandle {
    /// Asks the server to stop: at once, or `graceful`ly (finishing requests in progress, up to
    /// the shutdown timeout). The request is sent immediately; await the future to wait for the
    /// stop to complete.
    pub fn stop(&self, graceful: bool) -> impl Future<Output = ()> + use<> {
        self.0.stop(graceful)
    }
}

/// An actix-web server running on a Tokio task: stopped gracefully or waited for, and stopped
/// at once when dropped. The SDK's [`RunningServer`] and the dealer's results viewer are both
/// one of these and an address.
#[derive(Debug)]
pub struct ServerTask {
    stop: ShutdownHandle,
    task: Option<tokio::task::JoinHandle<std::io::Result<()>>>,
}

impl ServerTask {
    /// Runs `server` on `runtime`.
    pub fn spawn(server: actix_web::dev::Server, runtime: &tokio::runtime::Handle) -> ServerTask {
        ServerTask {
            stop: ShutdownHandle(server.handle()),
            task: Some(runtime.spawn(server)),
        }
    }

    /// A handle that can stop the server from elsewhere.
    pub fn stop_handle(&self) -> ShutdownHandle {
        self.stop.clone()
    }

    /// Stops gracefully and waits until the server is down.
    ///
    /// # Errors
    /// The server's error if it had failed.
    pub async fn stop(self) -> std::io::Result<()> {
        self.stop.stop(true).await;
        self.wait().await
    }

    /// Waits until the server is stopped (by a signal, if enabled, or a [`ShutdownHandle`]).
    ///
    /// # Errors
    /// The server's error if it failed (a panic of its task is one).
    pub async fn wait(mut self) -> std::io::Result<()> {
        let Some(task) = self.task.take() else {
            return Ok(());
        };
        match task.await {
            Ok(result) => result,
            Err(join_error) => Err(std::io::Error::other(join_error)),
        }
    }
}

impl Drop for ServerTask {
    fn drop(&mut self) {
        if self.task.is_some() {
            // The command is sent now; the returned future only waits for completion.
            drop(self.stop.stop(false));
        }
    }
}

/// A server that is serving. Dropping it stops it (not gracefully); use
/// [`RunningServer::stop`] for a graceful stop or [`RunningServer::wait`] to serve until a
/// signal or a [`ShutdownHandle`] stops it.
#[derive(Debug)]
pub struct RunningServer {
    local_addr: SocketAddr,
    server: ServerTask,
}

impl RunningServer {
    /// The bound address.
    pub fn local_addr(&self) -> SocketAddr {
        self.local_addr
    }

    /// A URL to reach the server from this machine (`0.0.0.0` becomes `127.0.0.1`), with a
    /// trailing slash: `http://127.0.0.1:1337/`.
    pub fn url(&self) -> String {
        local_url(self.local_addr)
    }

    /// A handle that can stop the server from elsewhere.
    pub fn stop_handle(&self) -> ShutdownHandle {
        self.server.stop_handle()
    }

    /// Stops gracefully and waits until the server is down.
    ///
    /// # Errors
    /// [`ServeError::Server`] if the server had failed.
    pub async fn stop(self) -> Result<(), ServeError> {
        self.server.stop().await.map_err(ServeError::Server)
    }

    /// Serves until the server is stopped (by a signal, if enabled, or a [`ShutdownHandle`]).
    ///
    /// # Errors
    /// [`ServeError::Server`] if the server failed.
    pub async fn wait(self) -> Result<(), ServeError> {
        self.server.wait().await.map_err(ServeError::Server)
    }
}

/// Serves `player` the way a team's `main` wants: logs set up from `RUST_LOG`, settings from
/// the environment (`PORT`, default 1337, on `0.0.0.0`; see [`ServerBuilder::from_env`]), until
/// SIGTERM or Ctrl-C, then a graceful stop.
///
/// # Errors
/// A [`ServeError`] for a bad setting, a port in use, or a server failure.
pub fn serve(player: impl Player) -> Result<(), ServeError> {
    crate::init_logging();
    ServerBuilder::new(player)
        .from_env()?
        .stop_on_signals(true)
        .run_blocking()
}

/// The URL that reaches a server bound at `address` from this machine, with a trailing slash
/// (`0.0.0.0` and `::` become the loopback address): `http://127.0.0.1:1337/`.
pub fn local_url(address: SocketAddr) -> String {
    let ip = match address.ip() {
        IpAddr::V4(ip) if ip.is_unspecified() => IpAddr::V4(Ipv4Addr::LOCALHOST),
        IpAddr::V6(ip) if ip.is_unspecified() => IpAddr::V6(Ipv6Addr::LOCALHOST),
        ip => ip,
    };
    format!("http://{}/", SocketAddr::new(ip, address.port()))
}
