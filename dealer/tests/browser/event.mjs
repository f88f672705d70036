// End-to-end test of the live event page in a real headless browser (Debian's chromium driven by
// playwright-core). Starts `dealer serve --data` with house bots (one with a hostile name), then
// checks on screen: the leaderboard refreshes without a reload, the chart has a line per team,
// the games link to the viewer's table view, the organiser's token and buttons work (add, pause),
// and, once every team is paused and no game runs, the leaderboard on the page equals the API's
// (which the Rust tests check against the database). No team name runs as HTML. And what a
// room reads: each team's recent form and rating beside its total, the chart's axes, legend
// and changes of leader, times in the viewer's own time zone, full names, versions and reasons
// at 1024 x 768 and 1920 x 1080, twelve team colours a projector tells apart, the table view
// of a game in its teams' colours with its hands numbered from 1, and, served read-only after
// the event, no team called "up". Writes docs/screenshots/event-leaderboard.png and
// event-1024.png.
//
// Environment: DEALER_BIN (the built dealer), CHROMIUM (default /usr/bin/chromium).
import { check, checkNothingRan, cleanUp, equal, eventClient, finish, launchChromium, sleep } from './harness.mjs';
import { startDealerServe } from './dealer.mjs';
import { checkPalette } from './colours.mjs';
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

// HH:MM:SS as seconds, across midnight.
const toSeconds = (text) => {
  const [h, m, s] = text.split(':').map(Number);
  return h * 3600 + m * 60 + s;
};

// What a narrow or wide screen cuts: every name, version and status shown whole (nothing
// wider than its box), and how many lines the down team's status takes.
async function fullTexts(page) {
  return page.evaluate(() => {
    const cut = [...document.querySelectorAll('[data-testid=leaderboard] [data-testid=name], [data-testid=leaderboard] td.version, [data-testid=leaderboard] td.state')]
      .filter((node) => node.scrollWidth > node.clientWidth + 1 || node.scrollHeight > node.clientHeight + 1)
      .map((node) => node.textContent);
    const down = document.querySelector('[data-testid=leaderboard] tr.bad td.state');
    const style = down && getComputedStyle(down);
    const lines = down ? Math.round((down.getBoundingClientRect().height - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom)) / parseFloat(style.lineHeight)) : 0;
    return { cut, downLines: lines, scroll: document.documentElement.scrollWidth, width: window.innerWidth };
  });
}

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

let { server, url: eventUrl } = await startDealerServe(dealerBin, ['--config', config, '--data', join(work, 'data'), '--bind', '127.0.0.1:0', '--admin-token', TOKEN], 'ignore');
const base = eventUrl.replace(/event$/, '');
let apiBase = base;
const { api, organise } = eventClient(() => apiBase, TOKEN);

const browser = await launchChromium();

try {
  // A viewer far from UTC: the page's times must be this computer's.
  const TIME_ZONE = 'Asia/Kolkata';
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 }, timezoneId: TIME_ZONE, locale: 'en-GB' });
  const page = await context.newPage();
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
  // The default 2 GB budget: what the folder takes and the room held for the games in play.
  const disk = await page.textContent('[data-testid=disk-budget]');
  check(/^Disk: ([\d.]+ MB of )?the 2\.00 GB budget, [\d.]+ MB held for the games in play\.$/.test(disk), `the disk budget line: ${disk}`);
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

  // Twelve colours a projector tells apart.
  await checkPalette(page);

  // Recent form and rating beside the totals, as the API has them.
  const { body: withForm } = await api('/api/event/leaderboard');
  const heads = await page.$$eval('[data-testid=leaderboard] th', (cells) => cells.map((c) => c.textContent));
  check(heads.includes(`Last ${withForm.form_games}`) && heads.includes('Rating'), `the leaderboard has recent form and rating columns: ${heads}`);
  check(await page.isVisible('[data-testid=form-note]'), 'the page says what "Last 100" counts');

  // The chart: axes with round ticks, the top one not cut, a legend, and the lead changes.
  const chart = await page.evaluate(() => {
    const picture = document.querySelector('[data-testid=chart]');
    const box = picture.getBoundingClientRect();
    const ticks = (id) => [...picture.querySelectorAll(`[data-testid=${id}]`)];
    const inside = (node) => {
      const r = node.getBoundingClientRect();
      return r.top >= box.top - 0.5 && r.bottom <= box.bottom + 0.5 && r.left >= box.left - 0.5 && r.right <= box.right + 0.5;
    };
    const values = ticks('y-tick').map((t) => Number(t.textContent));
    return {
      yTicks: values, yInside: ticks('y-tick').every(inside), xTicks: ticks('x-tick').length, xInside: ticks('x-tick').every(inside),
      legend: document.querySelectorAll('[data-testid=chart-legend] li[data-player]').length,
      lines: picture.querySelectorAll('polyline').length, marks: picture.querySelectorAll('.lead-mark').length,
      key: document.querySelector('[data-testid=lead-key]')?.textContent,
    };
  });
  const { body: chartData } = await api('/api/event/history');
  // The highest total the chart drew (each line's title ends with its last, highest, total).
  const highest = Math.max(...await page.$$eval('[data-testid=chart] polyline title', (titles) => titles.map((t) => Number(t.textContent.split(': ').pop()))));
  check(chart.yTicks.length >= 3 && Math.max(...chart.yTicks) >= highest && chart.yInside, `the points axis has round ticks up to the top, none cut: ${JSON.stringify(chart)}`);
  check(chart.xTicks >= 2 && chart.xInside, `the games axis has ticks: ${JSON.stringify(chart)}`);
  equal(chart.legend, chart.lines, 'the chart has a legend entry per line');
  check(chartData.lead_changes_total === 0 || chart.marks > 0, `the lead changes are marked on the chart: ${JSON.stringify(chart)} for ${chartData.lead_changes_total}`);
  check((chart.key || '').includes('lead change'), `the legend explains the lead marks: ${chart.key}`);

  // Times in the viewer's own zone, with no "UTC" left on the page.
  const seen = await page.$$eval('[data-testid=leaderboard] tbody tr', (rows) => rows.map((row) => [Number(row.dataset.player), row.querySelector('td.seen').textContent]));
  const { body: seenNow } = await api('/api/event/leaderboard');
  const local = new Intl.DateTimeFormat('en-GB', { timeZone: TIME_ZONE, hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false });
  const seenOk = seen.filter(([id, text]) => {
    const p = seenNow.players.find((q) => q.id === id);
    return p && (p.last_seen ? Math.abs(toSeconds(text) - toSeconds(local.format(new Date(p.last_seen)))) <= 3 : text === '–');
  });
  check(seenOk.length >= seen.length - 1, `"last seen" is in the viewer's time zone (${TIME_ZONE}): ${JSON.stringify(seen)}`);
  check(!(await page.textContent('body')).includes('UTC'), 'no time on the page is said to be UTC');

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
  const narrow = await fullTexts(page);
  check(narrow.scroll <= narrow.width, `no horizontal scrolling at 1024 px: ${JSON.stringify(narrow)}`);
  equal(narrow.cut, [], 'at 1024 x 768 no name, version or status is cut (they wrap)');
  check(narrow.downLines >= 1 && narrow.downLines <= 2, `the down team's status takes at most 2 lines at 1024 px: ${JSON.stringify(narrow)}`);
  await page.screenshot({ path: join(screenshots, 'event-1024.png'), fullPage: true });
  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.waitForFunction(() => document.querySelector('[data-testid=leaderboard] th.col-wins') !== null);
  const wide = await fullTexts(page);
  check(wide.scroll <= wide.width, `no horizontal scrolling at 1920 px: ${JSON.stringify(wide)}`);
  equal(wide.cut, [], 'at 1920 x 1080 every name, version and status is whole');
  equal(wide.downLines, 1, 'the down team\'s status is one line at 1920 px');
  await page.setViewportSize({ width: 1400, height: 1000 });
  await page.screenshot({ path: join(screenshots, 'event-leaderboard.png'), fullPage: true });

  // A game of the list opens in the viewer's table view.
  const href = await page.getAttribute('[data-testid=games] tbody tr:last-child a', 'href');
  check(/^\/#\/run\/games\/game\/\d+$/.test(href), `game link ${href}`);
  const game = await context.newPage();
  await game.goto(`${base}${href.slice(1)}`);
  await game.waitForSelector('[data-testid=table]', { timeout: 15000 }).catch(() => {});
  check(await game.$('[data-testid=table]') !== null, 'the game opens in the table view');
  // In the teams' colours (standings.js's teamColour of each seat's player id), seats and
  // stack lines alike; the first hand is hand 1.
  await game.waitForSelector('[data-testid=entry-index]');
  const { body: teams } = await api(`/api/event/games/${href.match(/(\d+)$/)[1]}/teams`);
  const tableColours = await game.evaluate((seats) => {
    const css = (colour) => { const probe = document.createElement('span'); probe.style.color = colour; document.body.append(probe); const value = getComputedStyle(probe).color; probe.remove(); return value; };
    const expected = seats.map((s) => css(teamColour(s.player_id)));
    const bars = [...document.querySelectorAll('.seat:not(.empty)')].map((seat) => [seat.querySelector('[data-testid=seat-name]').textContent, getComputedStyle(seat.querySelector('.seat-team')).backgroundColor]);
    const lines = [...document.querySelectorAll('[data-testid=stack-chart] polyline')].map((line) => css(line.getAttribute('stroke')));
    return { expected, names: seats.map((s) => s.name), bars, lines };
  }, teams.seats);
  check(tableColours.bars.length === teams.seats.length && tableColours.bars.every(([name, colour]) => colour === tableColours.expected[tableColours.names.indexOf(name)]),
    `each seat of the table view wears its team's colour: ${JSON.stringify(tableColours)}`);
  equal(tableColours.lines, tableColours.expected, 'the stack chart draws each seat in its team\'s colour');
  equal(await game.textContent('[data-testid=round]'), '1', 'the first hand is hand 1');
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
    Number(row.querySelector('[data-testid=games]').textContent),
    row.querySelector('[data-testid=form]').textContent,
    row.querySelector('[data-testid=rating]').textContent]));
  // Recent form: the points of the last `form_games` games, "P in G" while fewer were played.
  const formText = (p) => (!p.form.games ? '–' : p.form.games < board.form_games ? `${p.form.points} in ${p.form.games}` : String(p.form.points));
  equal(onPage, board.players.map((p) => [p.name, p.points, p.games, formText(p), p.form.rating.rating.toFixed(1)]),
    'the leaderboard on the page, recent form and rating included, equals the API');
  check(board.players.reduce((sum, p) => sum + p.points, 0) > 0, 'points were won');

  await checkNothingRan(page, problems);

  // After the event, served read-only: nothing checks the players, so no team is "up", not
  // even those that were when it stopped.
  for (const player of players) {
    if (player.status !== 'removed') await organise('PATCH', `/api/event/players/${player.id}`, { status: 'active' });
  }
  for (let i = 0; i < 100; i++) {
    const { body } = await api('/api/event/leaderboard');
    if (body.players.filter((p) => p.up && p.status === 'active').length >= 6) break;
    await sleep(100);
  }
  server.kill();
  await new Promise((resolve) => server.once('exit', resolve));
  ({ server, url: eventUrl } = await startDealerServe(dealerBin, ['--out', join(work, 'data'), '--bind', '127.0.0.1:0'], 'ignore'));
  apiBase = eventUrl.replace(/event$/, '');
  const after = await context.newPage();
  await after.goto(eventUrl);
  await after.waitForSelector('[data-testid=read-only]');
  await after.waitForSelector('[data-testid=leaderboard] tbody tr');
  const statuses = await after.$$eval('[data-testid=leaderboard] [data-testid=status]', (cells) => cells.map((c) => c.textContent));
  check(statuses.length >= 6 && !statuses.some((s) => /\bup\b/.test(s)), `no team is "up" in the read-only view of a stopped event: ${statuses}`);
  check(statuses.some((s) => s.includes('was down')), `the team that was down is said to have been: ${statuses}`);
  const { body: readOnlyBoard } = await api('/api/event/leaderboard');
  check(readOnlyBoard.players.every((p) => p.form && p.form.rating), 'the read-only leaderboard has the form and ratings too');
  await after.close();
} finally {
  await cleanUp(browser, server, work);
}

finish('event page');
