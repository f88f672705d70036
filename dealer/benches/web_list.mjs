// The viewer's list endpoints with a run of 10,000 games (read-only mode), over HTTP from a
// real `dealer serve`: p50 / p99 / max of `/api/runs` and `/api/runs/{run}` (the games list),
// from the cache, and the first request after a new game folder appears (the cache rebuilt).
//
// Usage: node dealer/benches/web_list.mjs path/to/dealer [games] [requests]
// The folder is made from one real game (`dealer run`, four house bots): its results.json
// entry repeated for games 1..N and N `game-<n>/` folders whose log.json is a hard link to its
// log (no disk space per game).
import { playHouseGame, startDealerServe } from '../tests/browser/dealer.mjs';
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync, linkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dealer = process.argv[2];
const games = Number(process.argv[3] || 10000);
const requests = Number(process.argv[4] || 1000);
if (!dealer) throw new Error('usage: web_list.mjs DEALER_BIN [games] [requests]');

const work = mkdtempSync(join(tmpdir(), 'web-list-'));
const seed = join(work, 'seed');
playHouseGame(dealer, seed);
const results = JSON.parse(readFileSync(join(seed, 'results.json'), 'utf8'));
const entry = results.games[0];
const run = join(work, 'served', 'big');
mkdirSync(run, { recursive: true });
results.games = [];
for (let game = 1; game <= games; game++) {
  results.games.push({ ...entry, game, dir: `game-${game}` });
  mkdirSync(join(run, `game-${game}`));
  linkSync(join(seed, 'game-1', 'log.json'), join(run, `game-${game}`, 'log.json'));
}
results.games_planned = games;
writeFileSync(join(run, 'results.json'), JSON.stringify(results));

const { server, url } = await startDealerServe(dealer, ['--out', join(work, 'served'), '--bind', '127.0.0.1:0']);

async function time(path) {
  const start = process.hrtime.bigint();
  const response = await fetch(url + path);
  const body = await response.arrayBuffer();
  if (!response.ok) throw new Error(`${path}: ${response.status}`);
  return [Number(process.hrtime.bigint() - start) / 1e6, body.byteLength];
}

function summary(label, times, bytes) {
  times.sort((a, b) => a - b);
  const at = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))].toFixed(2);
  console.log(`${label}: ${times.length} requests, p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${times[times.length - 1].toFixed(2)} ms, ${bytes} bytes`);
}

try {
  // The first request builds the cache.
  const [first] = await time('api/runs/big');
  console.log(`first /api/runs/big (cache built from ${games} folders and results.json): ${first.toFixed(1)} ms`);
  for (const path of ['api/runs', 'api/runs/big']) {
    const times = [];
    let bytes = 0;
    for (let i = 0; i < requests; i++) {
      const [ms, size] = await time(path);
      times.push(ms);
      bytes = size;
    }
    summary(`/${path} (cached)`, times, bytes);
  }
  // A new game folder: the next request rebuilds the run's summary.
  const rebuilt = [];
  for (let i = 0; i < 20; i++) {
    mkdirSync(join(run, `game-${games + 1 + i}`));
    const [ms] = await time('api/runs/big');
    rebuilt.push(ms);
  }
  summary('/api/runs/big after a new game folder (rebuilt)', rebuilt, 0);
} finally {
  server.kill();
  rmSync(work, { recursive: true, force: true });
}
