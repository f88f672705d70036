// Starts a `dealer serve` for the scripts that drive one: the browser tests here and the web
// benches (dealer/benches/web_*.mjs). Plain Node, no package needed.
import { execFileSync, spawn } from 'node:child_process';

// Spawns `dealer serve ARGS...` and resolves to `{ server, url }` once it printed the address
// it serves at (its first line ends ` at http://...`). Rejects if it exits first or stays
// silent for 30 s. `stderr` is passed to spawn's stdio: 'inherit' shows the dealer's errors.
export function startDealerServe(dealerBin, args, stderr = 'inherit') {
  const server = spawn(dealerBin, ['serve', ...args], { stdio: ['ignore', 'pipe', stderr] });
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error('the server did not start in 30 s')), 30000);
    server.stdout.on('data', (chunk) => {
      out += chunk;
      const match = out.match(/ at (http:\/\/\S+)/);
      if (match) {
        clearTimeout(timer);
        resolve({ server, url: match[1] });
      }
    });
    server.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (${code})`));
    });
  });
}

// Plays one reproducible `dealer run` of four house bots (seed 5) into `out`: a real game's
// files to serve, for the benches.
export function playHouseGame(dealerBin, out) {
  execFileSync(dealerBin, ['run', '--quiet', '--reproducible', '--seed', '5', '--bot', 'a=raiser', '--bot', 'b=calling-station',
    '--bot', 'c=random', '--bot', 'd=folder', '--out', out], { stdio: 'ignore' });
}
