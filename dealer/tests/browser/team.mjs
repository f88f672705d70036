// End-to-end test of a team's own view on the event page (/event#/team/ID, issue 32) in a
// real headless browser (Debian's chromium driven by playwright-core). Starts `dealer serve
// --data` with house bots; one team deploys a new version (its bot swapped for another kind,
// which reports another version). Once every team is paused and every game valued, the view
// reached from the team's leaderboard row must show what /api/event/teams/ID says (which the
// Rust tests check against the database): each version's games and points a game, raw and
// with the luck taken out, and the verdict in the arena's words; nothing to scroll sideways at
// 1024 x 768 and 1920 x 1080; the broadcast announcing the verdict in the same words; the
// `cargo arena --field-from` command for the event; and, after a restart (with the hand
// histories turned off: no command), the same figures. Writes
// docs/screenshots/event-team.png.
//
// Environment: DEALER_BIN (the built dealer), CHROMIUM (default /usr/bin/chromium).
import { check, checkNothingRan, cleanUp, equal, eventClient, finish, launchChromium, sleep } from './harness.mjs';
import { startDealerServe } from './dealer.mjs';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..', '..', '..');
const screenshots = join(repo, 'docs', 'screenshots');
const dealerBin = process.env.DEALER_BIN;
if (!dealerBin) throw new Error('set DEALER_BIN (run ./run.sh)');
const TOKEN = 'browser-organiser';
const TEAM = 'Deploy Often';


const work = mkdtempSync(join(tmpdir(), 'event-team-'));
const config = join(work, 'event.toml');
const data = join(work, 'data');
writeFileSync(config, `seed = 32
table_size = 4
hand_limit = 80
pause_ms = 10
recheck_ms = 1000
[[bot]]
name = "${TEAM}"
kind = "folder"
[[bot]]
name = "Raise Lord"
kind = "raiser"
[[bot]]
name = "Calling Station"
kind = "calling-station"
[[bot]]
name = "Random Walk"
kind = "random"
`);

const serveArgs = ['--config', config, '--data', data, '--bind', '127.0.0.1:0', '--admin-token', TOKEN];
let { server, url: eventUrl } = await startDealerServe(dealerBin, serveArgs, 'ignore');
let apiBase = eventUrl.replace(/event$/, '');
const { api, organise, until } = eventClient(() => apiBase, TOKEN);

// How the page writes a figure with its interval (event.js's pointsText).
const pointsText = (interval) => (interval == null ? '–'
  : `${interval.mean.toFixed(2)} ± ${interval.half_width == null ? '?' : interval.half_width.toFixed(2)}`);

async function rowsOnPage(page) {
  return page.$$eval('[data-testid=team-versions] [data-testid=version-row]', (rows) => rows.map((row) => ({
    version: row.querySelector('td.version').textContent,
    games: row.querySelector('[data-testid=version-games]').textContent,
    points: row.querySelector('[data-testid=version-points]').textContent,
    adjusted: row.querySelector('[data-testid=version-adjusted]').textContent,
  })));
}

const rowsOfApi = (view) => view.versions.map((v) => ({
  version: v.label, games: String(v.games), points: pointsText(v.points), adjusted: pointsText(v.adjusted),
}));

const browser = await launchChromium();
try {
  // The first version plays, then the team deploys another (same name, same player id).
  await until('/api/event/teams/1', (view) => view.versions.length === 1 && view.versions[0].games >= 12, `${TEAM}'s first version plays`);
  equal((await organise('DELETE', '/api/event/players/1')).status, 200, 'the team is taken off');
  const added = await organise('POST', '/api/event/players', { name: TEAM, bot: 'equity' });
  equal([added.status, added.body && added.body.id], [201, 1], 'the team comes back with its new version, as itself');
  await until('/api/event/teams/1', (view) => view.versions.length === 2 && view.versions[0].games >= 16, `${TEAM}'s new version plays`);

  // Every team paused, no game running, every game valued: the figures stand still.
  const { body: players } = await api('/api/event/players');
  for (const player of players) {
    if (player.status === 'active') await organise('PATCH', `/api/event/players/${player.id}`, { status: 'paused' });
  }
  await until('/api/event/games?per_page=1', (page) => page.running.length === 0, 'the games in play end');
  const view = await until('/api/event/teams/1', (v) => v.versions.every((version) => version.waiting === 0) && v.comparison, 'every game valued');

  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 }, locale: 'en-GB' });
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('response', (response) => {
    // The unknown team's 404 is the one expected (the view asks again on every refresh).
    if (response.status() >= 404 && !response.url().endsWith('/api/event/teams/99')) problems.push(`${response.status()}: ${response.url()}`);
  });
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().includes('Failed to load resource')) problems.push(`console: ${message.text()}`);
  });

  // Reached from the team's leaderboard row.
  await page.goto(eventUrl);
  await page.waitForSelector('#event-root[data-ready=true] [data-testid=leaderboard]');
  await page.click(`[data-testid=leaderboard] a[data-testid=name]:text-is("${TEAM}")`);
  await page.waitForSelector('[data-testid=team-versions] [data-testid=version-row]');
  check(page.url().endsWith('#/team/1'), `the row opened the team's view: ${page.url()}`);
  equal(await page.textContent('[data-testid=team-name]'), TEAM, 'the view is the team\'s');
  check(await page.isHidden('[data-testid=overview]'), 'the leaderboard makes way for the team\'s view');
  // The arena's command for this event, the team left out by its name, quoted for a shell.
  await page.waitForSelector('[data-testid=arena-command]');
  equal(await page.textContent('[data-testid=arena-command]'), `cargo arena --field-from ${apiBase} --me '${TEAM}'`,
    'the command that fits cargo arena\'s field from this event');

  // The page and the API agree.
  equal(await rowsOnPage(page), rowsOfApi(view), 'each version\'s games and points a game, raw and with the luck taken out, as the API gives them');
  equal(await page.textContent('[data-testid=team-verdict]'), view.comparison.summary, 'the verdict in the arena\'s words, as the API gives it');
  equal(await page.getAttribute('[data-testid=team-verdict]', 'data-verdict'), view.comparison.verdict, 'the verdict\'s kind');
  check(view.comparison.summary.startsWith(`${view.versions[0].label} against ${view.versions[1].label}: `), `newest against previous: ${view.comparison.summary}`);
  // Folding everything against playing by equity: the new version is better, and says so.
  equal(view.comparison.verdict, 'better', `the better version is judged better: ${view.comparison.summary}`);
  await page.screenshot({ path: join(screenshots, 'event-team.png'), fullPage: true });

  // Nothing to scroll sideways on a projector or a large screen.
  for (const [width, height] of [[1024, 768], [1920, 1080]]) {
    await page.setViewportSize({ width, height });
    await sleep(300);
    const sizes = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: window.innerWidth }));
    check(sizes.scroll <= sizes.width, `nothing to scroll sideways at ${width} x ${height}: ${JSON.stringify(sizes)}`);
  }

  // Back to the leaderboard.
  await page.click('[data-testid=back-to-leaderboard]');
  await page.waitForSelector('[data-testid=overview]:not([hidden]) [data-testid=leaderboard]');
  check(await page.isHidden('[data-testid=team-view]'), 'the team\'s view closes');
  // An unknown team says so.
  await page.goto(`${eventUrl}#/team/99`);
  await page.waitForSelector('[data-testid=team-view] .alert');
  const unknown = await page.textContent('[data-testid=team-view] .alert');
  check(unknown.includes('cannot be shown'), `an unknown team is said to be unknown: ${unknown}`);

  // The broadcast says it once the new version has played enough to tell.
  const projector = await context.newPage();
  projector.on('pageerror', (error) => problems.push(`broadcast page error: ${error.message}`));
  await projector.setViewportSize({ width: 1920, height: 1080 });
  await projector.goto(`${apiBase}broadcast`);
  await projector.waitForSelector('[data-testid=version-news]:not([hidden])');
  equal(await projector.textContent('[data-testid=version-news-text]'), view.comparison.summary, 'the broadcast gives the verdict in the same words');
  check((await projector.textContent('[data-testid=version-news]')).includes(`${TEAM} plays BETTER`), 'the broadcast names the team and its verdict');
  await projector.close();

  // A restart keeps every figure.
  server.kill();
  await new Promise((resolve) => server.once('exit', resolve));
  // (with the hand histories turned off: the view says the arena cannot fit this event)
  ({ server, url: eventUrl } = await startDealerServe(dealerBin, [...serveArgs, '--hand-histories', 'off'], 'ignore'));
  apiBase = eventUrl.replace(/event$/, '');
  const again = await context.newPage();
  again.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  await again.goto(`${eventUrl}#/team/1`);
  await again.waitForSelector('[data-testid=team-versions] [data-testid=version-row]');
  equal(await rowsOnPage(again), rowsOfApi(view), 'after a restart, the same figures');
  equal(await again.textContent('[data-testid=team-verdict]'), view.comparison.summary, 'after a restart, the same verdict');
  await again.waitForSelector('[data-testid=arena-off]');
  check(await again.isHidden('[data-testid=arena-command]'), 'no command while the organiser keeps the hand histories off');
  await checkNothingRan(page, problems);
} finally {
  await cleanUp(browser, server, work);
}

finish('team view');
