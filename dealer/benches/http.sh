#!/usr/bin/env bash
# Whole sit'n'gos per second over HTTP (six player processes on 127.0.0.2-7) and in process,
# through the dealer's runner and tournament. See dealer/benches/http.rs for what is measured.
#
#   dealer/benches/http.sh              # 20 sit'n'gos per HTTP scenario, 100 in process
#   dealer/benches/http.sh 40           # more games per scenario
#   HTTP_BENCH_FILTER="HTTP, 6 template" dealer/benches/http.sh
#   HTTP_BENCH_RUNTIME=multi dealer/benches/http.sh     # force the dealer's runtime (multi|current);
#                                                       # default: as `dealer run` (one thread at --parallel 1)
#   HTTP_BENCH_PLAYERS=/tmp/old dealer/benches/http.sh  # ready-made player binaries from /tmp/old
set -euo pipefail
cd "$(dirname "$0")/../.."
HTTP_BENCH_GAMES=${1:-${HTTP_BENCH_GAMES:-20}} exec cargo bench --locked -p lean-poker-dealer --bench http
