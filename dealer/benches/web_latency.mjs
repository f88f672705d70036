// How soon a page following a game sees an action: a real game's log.json is written entry by
// entry (as `dealer run --live` writes it) into a served run whose results.json says the game
// is being played, and a client on `/live` (server-sent events) times each entry from the
// moment it was written to the moment it arrived. Prints p50 / p99 / max.
//
// Usage: node dealer/benches/web_latency.mjs path/to/dealer [entries=300] [pause_ms=20]
import { playHouseGame, startDealerServe } from '../tests/browser/dealer.mjs';
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync, openSync, writeSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dealer = process.argv[2];
const count = Number(process.argv[3] || 300);
const pause = Number(process.argv[4] || 20);
if (!dealer) throw new Error('usage: web_latency.mjs DEALER_BIN [entries] [pause_ms]');

const work = mkdtempSync(join(tmpdir(), 'web-latency-'));
const played = join(work, 'played');
playHouseGame(dealer, played);
const entries = JSON.parse(readFileSync(join(played, 'game-1', 'log.json'), 'utf8')).slice(0, count);
const results = JSON.parse(readFileSync(join(played, 'results.json'), 'utf8'));
results.games = [];
results.complete = false;
const run = join(work, 'served', 'run');
mkdirSync(join(run, 'game-1'), { recursive: true });
writeFileSync(join(run, 'results.json'), JSON.stringify(results));
const log = openSync(join(run, 'game-1', 'log.json'), 'w');
writeSync(log, '[' + JSON.stringify(entries[0]));

const { server, url } = await startDealerServe(dealer, ['--out', join(work, 'served'), '--bind', '127.0.0.1:0']);

const writtenAt = [performance.now()];
const latencies = [];
let received = 0;
const response = await fetch(`${url}api/runs/run/games/1/live?from=1`);
const reader = response.body.getReader();
const decoder = new TextDecoder();
let buffer = '';
const reading = (async () => {
  while (received < entries.length - 1) {
    const { value, done } = await reader.read();
    if (done) break;
    const now = performance.now();
    buffer += decoder.decode(value, { stream: true });
    let at;
    while ((at = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, at);
      buffer = buffer.slice(at + 2);
      const data = block.split('\n').find((line) => line.startsWith('data: '));
      if (!block.startsWith('event: entries') || !data) continue;
      const chunk = JSON.parse(data.slice(6));
      for (let i = 0; i < chunk.entries.length; i++) {
        latencies.push(now - writtenAt[chunk.first + i]);
        received += 1;
      }
    }
  }
})();
for (let i = 1; i < entries.length; i++) {
  await new Promise((r) => setTimeout(r, pause));
  writeSync(log, ',' + JSON.stringify(entries[i]));
  writtenAt[i] = performance.now();
}
await Promise.race([reading, new Promise((r) => setTimeout(r, 5000))]);
server.kill();
rmSync(work, { recursive: true, force: true });
latencies.sort((a, b) => a - b);
const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))].toFixed(1);
console.log(`${latencies.length} of ${entries.length - 1} entries received; write → page: p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${latencies[latencies.length - 1].toFixed(1)} ms`);
