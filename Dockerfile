# A Lean Poker player image: your team's bot (player/team) by default, or any example bot:
#
#   docker build -t my-player .
#   docker build -t calling-station --build-arg PACKAGE=lean-poker-examples --build-arg BIN=calling-station .
#   docker run --rm -p 1337:1337 my-player          # PORT, PLAYER_AUTH, RUST_LOG... as env vars
#   docker build --target dealer -t dealer .         # the dealer (no build arguments needed)
#
# player/sdk/tests/dockerfile.rs builds and starts the binary this file builds, with the same
# command, so the two cannot drift apart (there is no Docker engine in CI).

ARG RUST_VERSION=1.95

# --- Rust toolchain with cargo-chef, which caches the dependency build as its own layer ---
FROM rust:${RUST_VERSION}-slim-bookworm AS chef
RUN cargo install cargo-chef --locked --version ^0.1
WORKDIR /app

# --- The recipe: only the manifests and lock file matter, so it changes only when they do ---
FROM chef AS planner
COPY . .
RUN cargo chef prepare --recipe-path recipe.json

# --- Build: dependencies first (cached layer), then the workspace sources ---
FROM chef AS builder
ARG PACKAGE=team
ARG BIN=player
COPY --from=planner /app/recipe.json recipe.json
RUN cargo chef cook --release --locked --package "$PACKAGE" --bin "$BIN" --recipe-path recipe.json
COPY . .
RUN cargo build --release --locked --package "$PACKAGE" --bin "$BIN"
RUN cp "target/release/$BIN" /app/player-binary

# --- The dealer's build, a stage of its own so that `--target dealer` needs no build
#     arguments (the player stage's PACKAGE and BIN do not apply to it) ---
FROM chef AS dealer-builder
COPY --from=planner /app/recipe.json recipe.json
RUN cargo chef cook --release --locked --package lean-poker-dealer --bin dealer --recipe-path recipe.json
COPY . .
RUN cargo build --release --locked --package lean-poker-dealer --bin dealer
RUN cp "target/release/dealer" /app/dealer-binary

# --- The dealer, for examples/docker-compose.yml: `docker build --target dealer -t dealer .`
#     (before `runtime`, so that a plain `docker build .` still builds the player). It reaches
#     https players with the system's CA certificates, or those in SSL_CERT_FILE. ---
FROM debian:bookworm-slim AS dealer
RUN apt-get update && apt-get install -y --no-install-recommends ca-certificates \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 --no-create-home --shell /usr/sbin/nologin dealer \
    && mkdir -p /data/games && chown -R 10001:10001 /data
COPY --from=dealer-builder /app/dealer-binary /usr/local/bin/dealer
USER 10001:10001
# Runs write ./games/<time>/ here; a named volume keeps them (see the compose file).
WORKDIR /data
ENV RUST_LOG=warn
# SIGTERM (docker stop) stops the run gracefully: logs finished, results.json written.
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/local/bin/dealer"]

# --- Runtime: a slim Debian with the single binary, run as a non-root user ---
FROM debian:bookworm-slim AS runtime
ARG PORT=1337
RUN useradd --system --uid 10001 --no-create-home --shell /usr/sbin/nologin player
COPY --from=builder /app/player-binary /usr/local/bin/player
USER 10001:10001
ENV PORT=${PORT} \
    RUST_LOG=info
EXPOSE ${PORT}
# The binary checks itself (GET / on 127.0.0.1:$PORT), so the image needs no curl.
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s --retries=3 \
    CMD ["/usr/local/bin/player", "--healthcheck"]
# SIGTERM (docker stop) makes the server finish requests in progress and exit.
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/local/bin/player"]
