// The event page and the broadcast say why play paused (issue 26): `dealer serve --data` with a
// free-space margin no disk has (`--min-free-space "1000 TB"`) pauses before its first game;
// /event shows the reason in an alert and /broadcast a line in its header, at 1024x768, with
// nothing going wrong on either page.
//
// Environment: DEALER_BIN (the built dealer), CHROMIUM (default /usr/bin/chromium).
import { check, checkNothingRan, cleanUp, finish, launchChromium } from './harness.mjs';
import { startDealerServe } from './dealer.mjs';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dealerBin = process.env.DEALER_BIN;
if (!dealerBin) throw new Error('set DEALER_BIN (run ./run.sh)');

const work = mkdtempSync(join(tmpdir(), 'event-pause-'));
const config = join(work, 'event.toml');
writeFileSync(config, `seed = 26
recheck_ms = 200
[[bot]]
name = "Aces High"
kind = "equity"
[[bot]]
name = "Calling Station"
kind = "calling-station"
`);
const { server, url: eventUrl } = await startDealerServe(dealerBin, ['--config', config, '--data', join(work, 'data'), '--bind', '127.0.0.1:0', '--min-free-space', '1000 TB'], 'ignore');
const base = eventUrl.replace(/event$/, '');
const browser = await launchChromium();
try {
  const status = await (await fetch(`${base}api/event`)).json();
  check(status.play_paused === null || typeof status.play_paused === 'object', `/api/event has play_paused: ${JSON.stringify(status)}`);
  const problems = [];
  const page = await browser.newPage({ viewport: { width: 1024, height: 768 } });
  page.on('pageerror', (error) => problems.push(String(error)));
  page.on('console', (message) => { if (message.type() === 'error') problems.push(message.text()); });
  await page.goto(eventUrl);
  const alert = await page.waitForSelector('[data-testid=play-paused]', { timeout: 15000 });
  const text = await alert.textContent();
  check(text.startsWith('Play paused since ') && text.includes('min_free_space') && !text.includes('reserve'), `the page says why play paused: ${text}`);
  const paused = await (await fetch(`${base}api/event`)).json();
  check(paused.play_paused && paused.play_paused.reason.includes('margin'), `/api/event says why: ${JSON.stringify(paused.play_paused)}`);
  check(paused.games_finished === 0, 'no game was played');
  await checkNothingRan(page, problems);

  const broadcastProblems = [];
  const broadcast = await browser.newPage({ viewport: { width: 1024, height: 768 } });
  broadcast.on('pageerror', (error) => broadcastProblems.push(String(error)));
  broadcast.on('console', (message) => { if (message.type() === 'error') broadcastProblems.push(message.text()); });
  await broadcast.goto(`${base}broadcast`);
  await broadcast.waitForFunction(() => {
    const line = document.querySelector('[data-testid=play-paused]');
    return line && line.textContent.startsWith('Play paused since ') && line.title.includes('min_free_space');
  }, null, { timeout: 15000 });
  check(true, 'the broadcast says why play paused (the whole reason on hover)');
  const layout = await broadcast.evaluate(() => ({ page: document.documentElement.scrollWidth, window: window.innerWidth }));
  check(layout.page <= layout.window, `the pause line fits the 1024 px header: ${JSON.stringify(layout)}`);
  await checkNothingRan(broadcast, broadcastProblems);
} finally {
  await cleanUp(browser, server, work);
}
finish('event_pause.mjs');
