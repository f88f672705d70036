// What a room sees on the broadcast in a few minutes: an event of twelve house bots (two of
// each kind, the all-in bot included) at the default settings, its /broadcast watched at 1x in
// headless Chromium. Prints each game shown (number, why the director picked it, the hands it
// played, seconds on screen), the banners seen, and the games finished and lead changes
// meanwhile. Needs the browser tests' packages (npm ci in dealer/tests/browser) and Debian's
// chromium (or $CHROMIUM).
//
// Usage: node dealer/benches/broadcast_pace.mjs path/to/dealer [seconds=180] [seed=11]
import { startDealerServe } from '../tests/browser/dealer.mjs';
import { launchChromium } from '../tests/browser/harness.mjs';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dealer = process.argv[2];
const seconds = Number(process.argv[3] || 180);
const seed = Number(process.argv[4] || 11);
if (!dealer) throw new Error('usage: broadcast_pace.mjs DEALER_BIN [seconds] [seed]');

const kinds = ['all-in', 'equity', 'raiser', 'calling-station', 'random', 'folder'];
const work = mkdtempSync(join(tmpdir(), 'broadcast-pace-'));
const config = join(work, 'event.toml');
writeFileSync(config, `seed = ${seed}\n${kinds.concat(kinds).map((kind, i) => `[[bot]]\nname = "Team ${i + 1} ${kind}"\nkind = "${kind}"\n`).join('')}`);
const { server, url } = await startDealerServe(dealer, ['--config', config, '--data', join(work, 'data'), '--bind', '127.0.0.1:0'], 'ignore');
const base = url.replace(/event$/, '');
const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
  await page.goto(`${base}broadcast?speed=1`);
  await page.evaluate(() => {
    window.__games = [];
    window.__banners = {};
    const root = document.getElementById('broadcast-root');
    const banner = () => document.querySelector('[data-testid=banner]');
    let lastBanner = null;
    new MutationObserver(() => {
      const current = window.__games[window.__games.length - 1];
      if (root.dataset.game && (!current || current.game !== root.dataset.game)) {
        window.__games.push({ game: root.dataset.game, pick: root.dataset.pick, at: performance.now() });
      }
      const playing = window.__games[window.__games.length - 1];
      if (playing && playing.game === root.dataset.game) playing.hands = root.dataset.handsPlayed;
      const kind = banner()?.dataset.kind;
      const shown = kind && `${root.dataset.game} ${kind} ${banner().textContent}`;
      if (shown && shown !== lastBanner) window.__banners[kind] = (window.__banners[kind] || 0) + 1;
      lastBanner = shown;
    }).observe(root, { subtree: true, attributes: true, childList: true, characterData: true });
  });
  await page.waitForTimeout(seconds * 1000);
  const seen = await page.evaluate(() => ({ games: window.__games, banners: window.__banners, now: performance.now() }));
  const status = await (await fetch(`${base}api/event`)).json();
  const history = await (await fetch(`${base}api/event/history`)).json();
  console.log(`watched ${seconds} s at 1x: ${seen.games.length} games shown`);
  seen.games.forEach((game, i) => {
    const end = i + 1 < seen.games.length ? seen.games[i + 1].at : seen.now;
    const last = i + 1 === seen.games.length ? ' (still on screen)' : '';
    console.log(`  game ${game.game} (${game.pick}): hands ${(game.hands || '').split(',').map((r) => Number(r) + 1).join(', ')}, ${((end - game.at) / 1000).toFixed(1)} s${last}`);
  });
  console.log(`banners: ${JSON.stringify(seen.banners)}`);
  console.log(`meanwhile: ${status.games_finished} games finished, ${history.lead_changes_total} lead changes (after games ${history.lead_changes.map((c) => c.game).join(', ')})`);
} finally {
  await browser.close();
  server.kill();
  rmSync(work, { recursive: true, force: true });
}
