// End-to-end test of the live event page in a real headless browser (Debian's chromium driven by
// playwright-core). Starts `dealer serve --data` with house bots (one with a hostile name), then
// checks on screen: the leaderboard refreshes without a reload, the chart has a line per team,
// the games link to the viewer's table view, the organiser's token and buttons work (add, pause),
// and, once every team is paused and no game runs, the leaderboard on the page equals the API's
// (which the Rust tests check against the database). No team name runs as HTML. Writes
// docs/screenshots/event-leaderboard.png.
//
// Environment: DEALER_BIN (the built dealer), CHROMIUM (default /usr/bin/chromium).
import { check, checkNothingRan, cleanUp, equal, finish, launchChromium } from './harness.mjs';
import { startDealerServe } from './dealer.mjs';
import { spawn } from 'node:child_process';
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

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const work = mkdtempSync(join(tmpdir(), 'event-page-'));
const config = join(work, 'event.toml');
writeFileSync(config, `seed = 21
table_size = 4
hand_limit = 80
pause_ms = 200
recheck_ms = 1000
[[bot]]
name = "Aces High"
kind = "equity"
[[bot]]
name = "<img src=x onerror=\\"window.__xss=1\\">"
kind = "raiser"
[[bot]]
name = "Calling Station"
kind = "calling-station"
[[bot]]
name = "Random Walk"
kind = "random"
[[bot]]
name = "All In Andy"
kind = "all-in"
[[player]]
name = "Offline Team"
url = "http://127.0.0.1:9/"
`);

const { server, url: eventUrl } = await startDealerServe(dealerBin, ['--config', config, '--data', join(work, 'data'), '--bind', '127.0.0.1:0', '--admin-token', TOKEN], 'ignore');
const base = eventUrl.replace(/event$/, '');
const api = async (path, init) => {
  const response = await fetch(`${base}${path.replace(/^\//, '')}`, init);
  return { status: response.status, body: await response.json().catch(() => null) };
};
const organise = (method, path, body) => api(path, {
  method, headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: body && JSON.stringify(body),
});

const browser = await launchChromium();

try {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  const problems = [];
  page.on('dialog', (dialog) => {
    if (dialog.type() === 'confirm') dialog.accept(); else { problems.push(`dialog: ${dialog.message()}`); dialog.dismiss(); }
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  // The page's own requests are checked by status (the organiser's 401 below is on purpose);
  // the browser logs every failed load again (the favicon included: it must load too).
  page.on('response', (response) => {
    if (response.status() >= 404) problems.push(`${response.status()}: ${response.url()}`);
  });
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().includes('Failed to load resource')) problems.push(`console: ${message.text()}`);
  });

  // Wait for a few games, then open the page.
  for (let i = 0; i < 300; i++) {
    const { body } = await api('/api/event');
    if (body && body.games_finished >= 4) break;
    await sleep(100);
  }
  await page.goto(eventUrl);
  await page.waitForSelector('#event-root[data-ready=true]');
  const gamesShown = async () => Number((await page.textContent('[data-testid=event-status] p')).match(/(\d+) games finished/)[1]);
  const firstCount = await gamesShown();
  // The leaderboard refreshes without a reload.
  let refreshed = false;
  for (let i = 0; i < 100 && !refreshed; i++) {
    await sleep(100);
    refreshed = (await gamesShown()) > firstCount;
  }
  check(refreshed, 'the leaderboard refreshed without a reload');
  const names = await page.$$eval('[data-testid=leaderboard] [data-testid=name]', (cells) => cells.map((c) => c.textContent));
  check(names.includes('<img src=x onerror="window.__xss=1">'), `the hostile name is shown as text: ${names}`);
  const downRow = await page.textContent('[data-testid=leaderboard] tr.bad');
  check(downRow.includes('Offline Team') && downRow.includes('down: check failed'), `the offline team is down with its reason: ${downRow}`);
  const lines = await page.$$eval('[data-testid=chart] polyline', (polylines) => polylines.length);
  equal(lines, 6, 'one line per team in the chart');

  // A team keeps its colour across a reload (colours come from the player id, not the
  // leaderboard's order), and no two teams share one.
  const coloursOnPage = () => page.$$eval('[data-testid=leaderboard] tbody tr', (rows) => rows.map((row) => [
    row.querySelector('[data-testid=name]').textContent, getComputedStyle(row.querySelector('.swatch')).backgroundColor]));
  const coloursBefore = new Map(await coloursOnPage());
  check(new Set(coloursBefore.values()).size === coloursBefore.size, `no two teams share a colour: ${[...coloursBefore]}`);
  await page.reload();
  await page.waitForSelector('#event-root[data-ready=true]');
  await page.waitForSelector('[data-testid=leaderboard] tbody tr');
  const coloursAfter = new Map(await coloursOnPage());
  check([...coloursBefore].every(([name, colour]) => coloursAfter.get(name) === colour), 'every team keeps its colour across a reload');

  // Older games are a click away: once more than a page has ended, "Older" shows the next 20.
  for (let i = 0; i < 600; i++) {
    const { body } = await api('/api/event/games?per_page=1');
    if (body && body.total > 20) break;
    await sleep(100);
  }
  await page.waitForFunction(() => !document.querySelector('[data-testid=games-older]').disabled, null, { timeout: 15000 });
  await page.click('[data-testid=games-older]');
  await page.waitForFunction(() => document.querySelector('[data-testid=games-paging]').textContent.includes('ended 21–'), null, { timeout: 15000 });
  check(true, 'the games list pages to older games');
  await page.click('[data-testid=games-newer]');
  await page.waitForFunction(() => document.querySelector('[data-testid=games-paging]').textContent.includes('ended 1–'), null, { timeout: 15000 });

  // A 28-character name at 1024 x 768: shortened with the full name on hover, and the page
  // does not scroll sideways ("Last seen" stays on screen).
  const longName = 'The Quite Long Team Name 28c';
  await organise('POST', '/api/event/players', { name: longName, bot: 'folder' });
  await page.setViewportSize({ width: 1024, height: 768 });
  await page.waitForFunction((name) => [...document.querySelectorAll('[data-testid=leaderboard] [data-testid=name]')].some((cell) => cell.title === name), longName, { timeout: 15000 });
  const layout = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, window: window.innerWidth }));
  check(layout.page <= layout.window, `no horizontal scrolling at 1024 px: ${JSON.stringify(layout)}`);
  await page.screenshot({ path: join(screenshots, 'event-1024.png'), fullPage: true });
  await page.setViewportSize({ width: 1400, height: 1000 });
  await page.screenshot({ path: join(screenshots, 'event-leaderboard.png'), fullPage: true });

  // A game of the list opens in the viewer's table view.
  const href = await page.getAttribute('[data-testid=games] tbody tr:last-child a', 'href');
  check(/^\/#\/run\/games\/game\/\d+$/.test(href), `game link ${href}`);
  const game = await browser.newPage();
  await game.goto(`${base}${href.slice(1)}`);
  await game.waitForSelector('[data-testid=table]', { timeout: 15000 }).catch(() => {});
  check(await game.$('[data-testid=table]') !== null, 'the game opens in the table view');
  await game.close();

  // The organiser: a wrong token is refused on the page, the right one adds a player.
  await page.fill('[data-testid=token]', 'wrong');
  await page.dispatchEvent('[data-testid=token]', 'change');
  await page.fill('[data-testid=new-name]', 'Late Team');
  await page.fill('[data-testid=new-url]', 'bot:folder');
  await page.click('form button[type=submit]');
  await page.waitForFunction(() => document.querySelector('[data-testid=organiser-message]').textContent.includes('401'));
  check(true, 'a wrong token is refused with 401 on the page');
  await page.fill('[data-testid=token]', TOKEN);
  await page.dispatchEvent('[data-testid=token]', 'change');
  await page.click('form button[type=submit]');
  await page.waitForFunction(() => [...document.querySelectorAll('[data-testid=players] td.name')].some((td) => td.textContent === 'Late Team'));
  check(true, 'the organiser added a player from the page');
  check(await page.inputValue('[data-testid=new-name]') === '' && await page.inputValue('[data-testid=new-url]') === '', 'the add form is emptied once the team is in');
  check(await page.evaluate((key) => sessionStorage.getItem(key), 'lean-poker-organiser-token') === TOKEN, 'the token is kept in sessionStorage');
  // Pause it with its button.
  const lateRow = page.locator('[data-testid=players] tr', { hasText: 'Late Team' });
  await lateRow.getByRole('button', { name: 'Pause' }).click();
  await page.waitForFunction(() => [...document.querySelectorAll('[data-testid=players] tr')].some((tr) => tr.textContent.includes('Late Team') && tr.textContent.includes('paused')));
  check(true, 'the organiser paused a player from the page');
  // Removed, then brought back from the page as itself.
  await lateRow.getByRole('button', { name: 'Remove' }).click();
  await page.waitForFunction(() => [...document.querySelectorAll('[data-testid=removed-player]')].some((tr) => tr.textContent.includes('Late Team')));
  await page.locator('[data-testid=removed-player]', { hasText: 'Late Team' }).getByRole('button', { name: 'Bring back' }).click();
  await page.waitForFunction(() => [...document.querySelectorAll('[data-testid=players] tr')].some((tr) => tr.textContent.includes('Late Team') && tr.textContent.includes('active')));
  check(true, 'a removed team is brought back from the page');

  // Pause everyone; once no game runs, the page's leaderboard must equal the API's.
  const { body: players } = await api('/api/event/players');
  for (const player of players) {
    if (player.status === 'active') await organise('PATCH', `/api/event/players/${player.id}`, { status: 'paused' });
  }
  for (let i = 0; i < 300; i++) {
    const { body } = await api('/api/event/games?per_page=1');
    if (body.running.length === 0) break;
    await sleep(100);
  }
  await sleep(2500); // one refresh of the page
  const { body: board } = await api('/api/event/leaderboard');
  const onPage = await page.$$eval('[data-testid=leaderboard] tbody tr', (rows) => rows.map((row) => [
    row.querySelector('[data-testid=name]').textContent,
    Number(row.querySelector('[data-testid=points]').textContent),
    Number(row.querySelector('[data-testid=games]').textContent)]));
  equal(onPage, board.players.map((p) => [p.name, p.points, p.games]), 'the leaderboard on the page equals the API');
  check(board.players.reduce((sum, p) => sum + p.points, 0) > 0, 'points were won');

  await checkNothingRan(page, problems);
} finally {
  await cleanUp(browser, server, work);
}

finish('event page');
