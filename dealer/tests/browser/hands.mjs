// End-to-end test of a team's hands to look at (/event#/team/ID, issue 32) in a real headless
// browser. Starts `dealer serve --data` with house bots and one HTTP player served here that
// answers one chip more than a call every time (a raise below the minimum, which the dealer
// reads as a call). Once every team is paused and every game valued, the team's view must list
// the costliest hands and the answers read differently as /api/event/teams/ID gives them
// (which the Rust tests check against every game's record); a hand's link must open the
// viewer's table at that hand; nothing may scroll sideways at 1024 x 768. Writes
// docs/screenshots/event-hands.png.
//
// Environment: DEALER_BIN (the built dealer), CHROMIUM (default /usr/bin/chromium).
import { check, checkNothingRan, cleanUp, equal, eventClient, finish, launchChromium, sleep } from './harness.mjs';
import { startDealerServe } from './dealer.mjs';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const screenshots = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'docs', 'screenshots');
const dealerBin = process.env.DEALER_BIN;
if (!dealerBin) throw new Error('set DEALER_BIN (run ./run.sh)');
const TOKEN = 'browser-organiser';
const TEAM = 'Min Raise Misser';


// The misreading player: Lean Poker's four actions as form bodies.
const player = createServer((request, response) => {
  let body = '';
  request.on('data', (chunk) => { body += chunk; });
  request.on('end', () => {
    const form = new URLSearchParams(body);
    let answer = 'OK';
    if (form.get('action') === 'version') answer = 'misser 1';
    if (form.get('action') === 'bet_request') {
      const state = JSON.parse(form.get('game_state'));
      const me = state.players[state.in_action];
      answer = String(Math.max(0, state.current_buy_in - me.bet) + 1);
    }
    response.writeHead(200, { 'content-type': 'text/plain' });
    response.end(answer);
  });
});
await new Promise((resolve) => player.listen(0, '127.0.0.1', resolve));
const playerUrl = `http://127.0.0.1:${player.address().port}/`;

const work = mkdtempSync(join(tmpdir(), 'event-hands-'));
const config = join(work, 'event.toml');
const data = join(work, 'data');
writeFileSync(config, `seed = 32
table_size = 4
hand_limit = 80
pause_ms = 10
recheck_ms = 500
timeout_ms = 5000
[[player]]
name = "${TEAM}"
url = "${playerUrl}"
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
const { server, url: eventUrl } = await startDealerServe(dealerBin, serveArgs, 'ignore');
const apiBase = eventUrl.replace(/event$/, '');
const { api, organise, until } = eventClient(() => apiBase, TOKEN);

const browser = await launchChromium();
try {
  const { body: listed } = await api('/api/event/players');
  const id = listed.find((p) => p.name === TEAM).id;
  const teamPath = `/api/event/teams/${id}`;
  await until(teamPath, (view) => view.hands && view.hands.costly.length >= 5 && view.hands.answers.length > 0, `${TEAM}'s hands noted`);

  // Every team paused, no game running, every game valued: the figures stand still.
  const { body: players } = await api('/api/event/players');
  for (const p of players) {
    if (p.status === 'active') await organise('PATCH', `/api/event/players/${p.id}`, { status: 'paused' });
  }
  await until('/api/event/games?per_page=1', (page) => page.running.length === 0, 'the games in play end');
  const view = await until(teamPath, (v) => v.versions.every((version) => version.waiting === 0), 'every game valued');
  const hands = view.hands;
  equal(hands.version, 'misser 1', 'the newest version\'s hands');

  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 }, locale: 'en-GB' });
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('response', (response) => {
    if (response.status() >= 404) problems.push(`${response.status()}: ${response.url()}`);
  });
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().includes('Failed to load resource')) problems.push(`console: ${message.text()}`);
  });

  await page.goto(`${eventUrl}#/team/${id}`);
  await page.waitForSelector('[data-testid=team-hands] [data-testid=hand-row]');
  const rows = await page.$$eval('[data-testid=team-hands] [data-testid=hand-row]', (trs) => trs.map((tr) => ({
    link: tr.querySelector('[data-testid=hand-link]').getAttribute('href'),
    cost: tr.querySelector('[data-testid=hand-cost]').textContent,
  })));
  equal(rows, hands.costly.map((n) => ({ link: `/#/run/${n.run}/game/${n.game}/hand/${n.round + 1}`, cost: n.cost.toFixed(2) })),
    'the costliest hands and their costs, as the API gives them');
  check(hands.costly.every((n, i) => i === 0 || hands.costly[i - 1].cost >= n.cost), 'costliest first');
  const answers = await page.$$eval('[data-testid=hand-answers] [data-testid=hand-answer]', (lis) => lis.map((li) => li.dataset.kind));
  equal(answers, hands.answers.map((n) => n.kind), 'the answers read differently, as the API gives them');
  check(answers.length > 0 && answers.every((kind) => kind === 'misread'), `its raises below the minimum are listed: ${answers}`);
  const counts = await page.textContent('[data-testid=hand-answer-counts]');
  check(counts.includes(`${hands.answer_counts.misread} read differently`), `how many in all: ${counts}`);
  const firstAnswer = await page.textContent('[data-testid=hand-answers] [data-testid=hand-answer]');
  const a = hands.answers[0];
  check(firstAnswer.includes(`answered ${a.answer}, read as ${a.action}`), `the answer and how it was read: ${firstAnswer}`);

  // Nothing to scroll sideways on a projector.
  await page.setViewportSize({ width: 1024, height: 768 });
  await sleep(300);
  const sizes = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: window.innerWidth }));
  check(sizes.scroll <= sizes.width, `nothing to scroll sideways at 1024 x 768: ${JSON.stringify(sizes)}`);
  await page.locator('[data-testid=team-hands]').scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(screenshots, 'event-hands.png') });

  // A hand's link opens the table at that hand.
  const costliest = hands.costly[0];
  await page.click('[data-testid=team-hands] [data-testid=hand-row] [data-testid=hand-link]');
  await page.waitForSelector('[data-testid=round]');
  await page.waitForFunction((hand) => document.querySelector('[data-testid=round]').textContent === hand, String(costliest.round + 1));
  check(page.url().endsWith(`#/run/${costliest.run}/game/${costliest.game}/hand/${costliest.round + 1}`), `the viewer's hand route: ${page.url()}`);
  equal(await page.textContent('[data-testid=round]'), String(costliest.round + 1), 'the table shows the hand');
  equal(await page.getAttribute('[data-testid=hand-input]', 'placeholder'), String(costliest.round + 1), 'the hand counter shows the hand');
  const message = await page.textContent('[data-testid=message]');
  check(message === 'A new hand starts.' || message.length > 0, `the hand's first entry: ${message}`);
  // A hand the game does not have says so.
  await page.goto(`${apiBase}#/run/${costliest.run}/game/${costliest.game}/hand/9999`);
  await page.waitForFunction(() => (document.querySelector('[data-testid=message]') || {}).textContent?.includes('There is no hand 9999'));
  check(true, 'a hand the game does not have is said to be missing');
  await checkNothingRan(page, problems);
} finally {
  await cleanUp(browser, server, work);
  player.close();
}

finish('hands to look at');
