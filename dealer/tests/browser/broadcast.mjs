// End-to-end test of the event's broadcast (/broadcast) in a real headless browser. Starts
// `dealer serve --data` with no team (the page must wait), adds house bots from the organiser
// API (one all-in bot, one hostile name, one long name, one bot that answers garbage and is
// banned), then checks what a room sees: the table changes over time, an ALL-IN banner shows,
// the page moves on to a newer game when one ends, the teams' colours equal the event page's
// and survive a reload (with the chosen speed), nothing scrolls at 1920 x 1080 or 1024 x 768,
// the page rides out a server restart, and no name runs as HTML. And the race: the director
// offers lead changes first and the page tells them (a banner, the leader box), plays only the
// hands the director marked decisive, numbers hands from 1, shows each team's recent form and
// rating; at both sizes the banner never covers the narration, a bet never covers a name,
// a stack or cards, and the chart has its axes (the top value whole) and a label per line.
// Writes docs/screenshots/broadcast-1920.png and broadcast-1024.png.
//
// Environment: DEALER_BIN (the built dealer), CHROMIUM (default /usr/bin/chromium).
import { check, checkNothingRan, cleanUp, equal, eventClient, finish, launchChromium, sleep } from './harness.mjs';
import { startDealerServe } from './dealer.mjs';
import { createServer } from 'node:http';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..', '..', '..');
const screenshots = join(repo, 'docs', 'screenshots');
const dealerBin = process.env.DEALER_BIN;
if (!dealerBin) throw new Error('set DEALER_BIN (run ./run.sh)');
const TOKEN = 'broadcast-organiser';
const HOSTILE = '<img src=x onerror="window.__xss=1">';
const LONG = 'The Extraordinarily Long Team Name Of The Back Row 2026';


// Runs in the page (again after a reload): see where it is installed.
function installWatcher() {
  window.__bannerKinds = window.__bannerKinds || [];
  window.__bannerTexts = window.__bannerTexts || {};
  window.__problems = window.__problems || [];
  window.__played = window.__played || {};
  window.__picks = window.__picks || [];
  window.__bets = window.__bets || 0;
  const over = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
  const note = (problem) => { if (window.__problems.length < 20 && !window.__problems.includes(problem)) window.__problems.push(problem); };
  const root = document.getElementById('broadcast-root');
  new MutationObserver(() => {
    const banner = document.querySelector('[data-testid=banner]');
    const kind = banner?.dataset.kind;
    if (kind && !window.__bannerKinds.includes(kind)) {
      window.__bannerKinds.push(kind);
      window.__bannerTexts[kind] = [banner.querySelector('.bc-banner-text')?.textContent, banner.querySelector('.bc-banner-detail')?.textContent];
    }
    // The play column keeps to its side of the screen, whatever a banner or a name holds.
    const side = document.querySelector('.bc-side').getBoundingClientRect();
    for (const part of ['[data-testid=banner]', '[data-testid=message]', '.felt', '.seat:not(.empty)']) {
      for (const node of document.querySelectorAll(part)) {
        if (node.getBoundingClientRect().right > side.left + 0.5) note(`${part} runs into the standings at ${window.innerWidth} px`);
      }
    }
    const slots = [...document.querySelectorAll('[data-testid=board] .card')].map((card) => card.getBoundingClientRect());
    if (slots.length) {
      const cards = { left: Math.min(...slots.map((r) => r.left)), right: Math.max(...slots.map((r) => r.right)), top: Math.min(...slots.map((r) => r.top)), bottom: Math.max(...slots.map((r) => r.bottom)) };
      for (const seat of document.querySelectorAll('.seat:not(.empty)')) if (over(cards, seat.getBoundingClientRect())) note(`the board covers a seat at ${window.innerWidth} px`);
    }
    if (kind) {
      const box = banner.getBoundingClientRect();
      if (over(box, document.querySelector('[data-testid=message]').getBoundingClientRect())) note(`the ${kind} banner covers the narration`);
      for (const seat of document.querySelectorAll('.seat:not(.empty)')) if (over(box, seat.getBoundingClientRect())) note(`the ${kind} banner covers a seat`);
      if (/\bhand 0\b/.test(banner.textContent)) note(`a banner says hand 0: ${banner.textContent}`);
    }
    const round = document.querySelector('[data-testid=round]');
    if (round && round.textContent === '0') note('the table says hand 0');
    const message = document.querySelector('[data-testid=message]')?.textContent || '';
    if (/^Hand 0\b/.test(message)) note(`the narration says ${message}`);
    for (const seat of document.querySelectorAll('.seat:not(.empty)')) {
      const bet = seat.querySelector('.seat-bet:not(.empty)');
      if (!bet) continue;
      window.__bets += 1;
      const chip = bet.getBoundingClientRect();
      const inside = seat.getBoundingClientRect();
      if (chip.left < inside.left - 0.5 || chip.right > inside.right + 0.5 || chip.top < inside.top - 0.5 || chip.bottom > inside.bottom + 0.5) note('a bet sticks out of its seat');
      for (const part of ['[data-testid=seat-name]', '[data-testid=seat-stack]', '[data-testid=seat-cards]']) {
        if (over(chip, seat.querySelector(part).getBoundingClientRect())) note(`a bet covers ${part} at ${window.innerWidth} px`);
      }
    }
    if (root.dataset.game && root.dataset.handsPlayed !== undefined) window.__played[root.dataset.game] = root.dataset.handsPlayed;
    if (root.dataset.game && !window.__picks.some(([game]) => game === root.dataset.game)) window.__picks.push([root.dataset.game, root.dataset.pick]);
  }).observe(root, { subtree: true, attributes: true, childList: true, characterData: true });
}

// The chart and the standings beside the table, as a room reads them.
async function standingsOnScreen(page) {
  return page.evaluate(() => {
    const picture = document.querySelector('[data-testid=chart]');
    const box = picture.getBoundingClientRect();
    const inside = (node) => {
      const r = node.getBoundingClientRect();
      return r.top >= box.top - 0.5 && r.bottom <= box.bottom + 0.5 && r.left >= box.left - 0.5 && r.right <= box.right + 0.5;
    };
    const yTicks = [...picture.querySelectorAll('[data-testid=y-tick]')];
    const title = document.querySelector('[data-testid=bc-title]');
    return {
      heads: [...document.querySelectorAll('[data-testid=leaderboard] th')].map((c) => c.textContent),
      forms: document.querySelectorAll('[data-testid=leaderboard] [data-testid=form]').length,
      ratings: [...document.querySelectorAll('[data-testid=leaderboard] [data-testid=rating]')].map((c) => c.textContent),
      yTicks: yTicks.map((t) => Number(t.textContent)), cutLabels: [...picture.querySelectorAll('.tick, .end-label')].filter((n) => !inside(n)).map((n) => n.textContent),
      xTicks: picture.querySelectorAll('[data-testid=x-tick]').length,
      labels: [...picture.querySelectorAll('[data-testid=end-label]')].map((l) => Number(l.dataset.player)).sort(),
      lines: [...picture.querySelectorAll('polyline')].map((l) => Number(l.dataset.player)).sort(),
      highest: Math.max(...[...picture.querySelectorAll('polyline title')].map((t) => Number(t.textContent.split(': ').pop()))),
      leader: document.querySelector('[data-testid=leader-name]')?.textContent,
      top: document.querySelector('[data-testid=leaderboard] tbody tr [data-testid=name]')?.textContent,
      changes: document.querySelector('[data-testid=lead-changes]')?.textContent || '',
      titleCut: title.scrollWidth > title.clientWidth + 1,
    };
  });
}

function checkStandings(shown, size) {
  check(shown.heads.includes('Last 100') && shown.heads.includes('Rating') && shown.forms >= 5, `${size}: the leaderboard shows recent form and rating: ${JSON.stringify(shown.heads)}`);
  check(shown.ratings.every((r) => /^\d+\.\d$/.test(r)), `${size}: every team has a rating: ${shown.ratings}`);
  check(shown.yTicks.length >= 3 && Math.max(...shown.yTicks) >= shown.highest, `${size}: the chart's points axis reaches its top value: ${JSON.stringify(shown)}`);
  equal(shown.cutLabels, [], `${size}: no label of the chart is cut`);
  check(shown.xTicks >= 2, `${size}: the chart has a games axis`);
  equal(shown.labels, shown.lines, `${size}: every line of the chart is named at its end`);
  equal(shown.leader, shown.top, `${size}: the leader box names the leaderboard's first team`);
  check(!shown.titleCut, `${size}: the game's title is whole`);
}
async function until(what, condition, timeoutMs) {
  const start = Date.now();
  while (Date.now() - start < timeoutMs) {
    if (await condition()) return true;
    await sleep(200);
  }
  check(false, `${what} (not within ${timeoutMs / 1000} s)`);
  return false;
}

// A team whose bot answers every bet request with words: the dealer bans it (spec §6).
const garbage = createServer((request, response) => {
  let body = '';
  request.on('data', (chunk) => { body += chunk; });
  request.on('end', () => {
    const action = new URLSearchParams(body).get('action');
    response.end(action === 'version' ? 'garbage 1.0' : action === 'bet_request' ? 'all of them' : 'OK');
  });
});
await new Promise((resolve) => garbage.listen(0, '127.0.0.1', resolve));
const garbageUrl = `http://127.0.0.1:${garbage.address().port}/`;

const work = mkdtempSync(join(tmpdir(), 'broadcast-page-'));
const config = join(work, 'event.toml');
const data = join(work, 'data');
writeFileSync(config, `seed = 33
table_size = 6
hand_limit = 12
pause_ms = 300
recheck_ms = 1000
`);

const serveArgs = (bind) => ['--config', config, '--data', data, '--bind', bind, '--admin-token', TOKEN];
let { server, url: eventUrl } = await startDealerServe(dealerBin, serveArgs('127.0.0.1:0'), 'ignore');
const base = eventUrl.replace(/event$/, '');
const { api, organise } = eventClient(() => base, TOKEN);

const browser = await launchChromium();

try {
  const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
  const problems = [];
  page.on('dialog', (dialog) => { problems.push(`dialog: ${dialog.message()}`); dialog.dismiss(); });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`${response.status()}: ${response.url()}`);
  });
  // Failed loads while the server restarts are expected (and shown on the page).
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().includes('Failed to load resource')) problems.push(`console: ${message.text()}`);
  });

  // No team yet: the page waits, saying so.
  await page.goto(`${base}broadcast`);
  await page.waitForSelector('#broadcast-root[data-ready=true]');
  // Every kind of banner the page shows, with the first text of each, as a person would have
  // seen them go by (at 4x a banner stays 0.65 s: polling for it could miss it on a busy
  // machine, an observer does not). The same observer measures, at every change, what must
  // never happen on screen: a banner over the narration or a seat, a bet over a seat's name,
  // stack or cards, a hand numbered 0; and keeps the hands each game played.
  await page.evaluate(installWatcher);
  await page.waitForSelector('[data-testid=waiting]', { timeout: 15000 });
  check(await page.getAttribute('#broadcast-root', 'data-state') === 'waiting', 'with no game ended the page shows the waiting screen');

  for (const [name, bot] of [['All In Andy', 'all-in'], [HOSTILE, 'raiser'], [LONG, 'calling-station'], ['Aces High', 'equity'], ['Random Walk', 'random']]) {
    const { status } = await organise('POST', '/api/event/players', { name, bot });
    equal(status, 201, `${name} added`);
  }
  equal((await organise('POST', '/api/event/players', { name: 'Garbage Answers', url: garbageUrl })).status, 201, 'the garbage bot added');

  // A game ends: the page plays it.
  await page.waitForSelector('#broadcast-root[data-state=playing]', { timeout: 60000 });
  const firstGame = Number(await page.getAttribute('#broadcast-root', 'data-game'));
  check(firstGame >= 1, `a game is on screen: ${firstGame}`);
  // The table changes over time (cards dealt, bets made), at 1×.
  const seen = new Set();
  for (let i = 0; i < 16; i++) {
    seen.add(await page.evaluate(() => [document.querySelector('[data-testid=message]').textContent,
      document.querySelector('[data-testid=board]').textContent, document.querySelector('[data-testid=pot]').textContent].join('|')));
    await sleep(500);
  }
  check(seen.size >= 4, `the table changes as the game is played back: ${seen.size} different views in 8 s`);
  const seatNames = await page.$$eval('[data-testid=seat-name]', (cells) => cells.map((c) => c.textContent));
  check(seatNames.includes(HOSTILE), `the hostile name is a seat's text: ${seatNames}`);

  // Faster, for the rest of the test; the choice is remembered.
  await page.selectOption('[data-testid=speed]', '4');
  check(await page.isChecked('[data-testid=decisive-only]'), 'only decisive hands are played by default');

  // An all-in gets its banner, naming the player.
  if (await until('an ALL-IN banner is shown', async () => (await page.evaluate(() => window.__bannerKinds)).includes('all_in'), 90000)) {
    const text = await page.evaluate(() => window.__bannerTexts.all_in);
    check(/^ALL-IN · \S/.test(text), `the banner names the player: ${text}`);
  }

  // The layout at 1920 x 1080: nothing scrolls.
  const fits = () => page.evaluate(() => ({
    width: document.documentElement.scrollWidth, height: document.documentElement.scrollHeight,
    bodyWidth: document.body.scrollWidth, bodyHeight: document.body.scrollHeight,
    innerWidth: window.innerWidth, innerHeight: window.innerHeight,
  }));
  const big = await fits();
  check(big.width <= big.innerWidth && big.bodyWidth <= big.innerWidth, `no horizontal scrolling at 1920 x 1080: ${JSON.stringify(big)}`);
  check(big.height <= big.innerHeight && big.bodyHeight <= big.innerHeight, `no vertical scrolling at 1920 x 1080: ${JSON.stringify(big)}`);
  await page.waitForSelector('#broadcast-root[data-standings=true]');
  checkStandings(await standingsOnScreen(page), '1920 x 1080');
  await page.screenshot({ path: join(screenshots, 'broadcast-1920.png') });

  // On to a newer game when this one ends, after the winner's banner; the bot that answers
  // garbage was banned on screen.
  await until('the page moves on to a newer game', async () => Number(await page.getAttribute('#broadcast-root', 'data-game')) > firstGame, 180000);
  await until('a ban is shown', async () => (await page.evaluate(() => window.__bannerKinds)).includes('banned'), 120000);
  // The race is told: the director offers lead changes first, so one comes on screen with
  // its banner at the end of the game.
  await until('the takes-the-lead banner is shown', async () => (await page.evaluate(() => window.__bannerKinds)).includes('takes_lead'), 240000);
  const kinds = await page.evaluate(() => window.__bannerKinds);
  check(kinds.includes('all_in') && kinds.includes('winner') && kinds.includes('banned'), `the banners seen: ${kinds}`);

  // The teams' colours are the event page's, by player id, on the leaderboard and the seats.
  await page.waitForSelector('#broadcast-root[data-standings=true]');
  const swatches = (p) => p.$$eval('[data-testid=leaderboard] tbody tr', (rows) => rows.map((row) => [
    row.querySelector('[data-testid=name]').title, getComputedStyle(row.querySelector('.swatch')).backgroundColor]));
  const onBroadcast = new Map(await swatches(page));
  const eventPage = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  await eventPage.goto(eventUrl);
  await eventPage.waitForSelector('#event-root[data-ready=true]');
  await eventPage.waitForSelector('[data-testid=leaderboard] tbody tr');
  const onEvent = new Map(await swatches(eventPage));
  check(onBroadcast.size >= 5, `the broadcast's leaderboard lists the teams: ${[...onBroadcast.keys()]}`);
  check([...onBroadcast].every(([name, colour]) => onEvent.get(name) === colour), `every team has its /event colour: ${JSON.stringify([...onBroadcast])} vs ${JSON.stringify([...onEvent])}`);
  check(await eventPage.$('[data-testid=broadcast-link]') !== null, 'the event page links to the broadcast');
  await eventPage.close();
  const seatColours = await page.$$eval('.seat:not(.empty)', (seats) => seats.map((seat) => [
    seat.querySelector('[data-testid=seat-name]').textContent, getComputedStyle(seat.querySelector('.seat-team')).backgroundColor]));
  check(seatColours.length >= 2 && seatColours.every(([name, colour]) => !onBroadcast.has(name) || onBroadcast.get(name) === colour),
    `each seat wears its team's colour: ${JSON.stringify(seatColours)}`);

  // A reload keeps the colours and the speed.
  const seenBefore = await page.evaluate(() => ({ problems: window.__problems, played: window.__played, picks: window.__picks, bets: window.__bets, kinds: window.__bannerKinds, texts: window.__bannerTexts }));
  await page.reload();
  await page.evaluate(installWatcher);
  await page.waitForSelector('#broadcast-root[data-standings=true]');
  const afterReload = new Map(await swatches(page));
  check([...onBroadcast].every(([name, colour]) => afterReload.get(name) === colour), 'every team keeps its colour across a reload');
  equal(await page.inputValue('[data-testid=speed]'), '4', 'the speed is remembered across a reload');

  // A long name is cut with an ellipsis, the whole name on hover.
  const longCell = await page.$(`[data-testid=leaderboard] [data-testid=name][title="${LONG}"]`);
  check(longCell !== null, 'the long name is on the leaderboard with its full text as the hover title');

  // The layout at 1024 x 768: nothing scrolls either way.
  await page.setViewportSize({ width: 1024, height: 768 });
  await page.waitForSelector('#broadcast-root[data-state=playing]', { timeout: 60000 });
  await sleep(1500);
  const small = await fits();
  check(small.width <= small.innerWidth && small.bodyWidth <= small.innerWidth, `no horizontal scrolling at 1024 x 768: ${JSON.stringify(small)}`);
  check(small.height <= small.innerHeight && small.bodyHeight <= small.innerHeight, `no vertical scrolling at 1024 x 768: ${JSON.stringify(small)}`);
  // Every seat is inside the window.
  const outside = await page.$$eval('.seat:not(.empty)', (seats) => seats.map((s) => s.getBoundingClientRect())
    .filter((r) => r.left < 0 || r.top < 0 || r.right > window.innerWidth || r.bottom > window.innerHeight).length);
  equal(outside, 0, 'every seat is on screen at 1024 x 768');
  await until('the standings are drawn for 1024 x 768', async () => (await page.$$eval('[data-testid=end-label]', (labels) => labels.length)) > 0, 15000);
  checkStandings(await standingsOnScreen(page), '1024 x 768');
  // Let a hand or two play at this size, bets and banners measured.
  await sleep(8000);
  await page.screenshot({ path: join(screenshots, 'broadcast-1024.png') });

  // What was on screen at both sizes.
  const after = await page.evaluate(() => ({ problems: window.__problems, played: window.__played, picks: window.__picks, bets: window.__bets, kinds: window.__bannerKinds }));
  equal([...seenBefore.problems, ...after.problems], [], 'no banner over the narration or a seat, no board over a seat, no bet over a name, stack or cards, no hand 0');
  check(seenBefore.bets > 0 && after.bets > 0, `bets were on screen at both sizes: ${seenBefore.bets}, ${after.bets}`);
  const allInText = seenBefore.texts.all_in;
  check(!allInText || /hand [1-9]\d*$/.test(allInText[1]), `the all-in banner numbers its hand from 1: ${allInText}`);

  // The director: lead changes first, then first wins, then the newest; each game's decisive
  // hands, at most 3, the final one among them; the page played exactly those.
  const { body: offered } = await api('/api/event/broadcast?candidates=40');
  const order = ['lead_change', 'first_win', 'newest'];
  const picks = offered.games.map((g) => g.pick);
  check(picks.every((pick, i) => i === 0 || order.indexOf(picks[i - 1]) <= order.indexOf(pick)), `race games first: ${picks}`);
  check(offered.games.every((g) => { const shown = g.hands.filter((h) => h.shown); return shown.length >= 1 && shown.length <= 3 && g.hands[g.hands.length - 1].shown; }),
    'each game shows at most 3 decisive hands, its final one among them');
  const allInHands = offered.games.flatMap((g) => g.hands);
  check(allInHands.filter((h) => h.moments.length).length < allInHands.length / 2, `the all-in bot does not make every hand decisive: ${allInHands.filter((h) => h.moments.length).length} of ${allInHands.length}`);
  const compared = Object.entries({ ...seenBefore.played, ...after.played }).filter(([game]) => offered.games.some((g) => String(g.number) === game));
  const playedRight = compared.filter(([game, played]) => {
    const hands = offered.games.find((g) => String(g.number) === game).hands.filter((h) => h.shown).map((h) => h.round).join(',');
    return hands.startsWith(played) && played.length > 0;
  });
  check(compared.length === 0 || playedRight.length === compared.length, `the page played the decisive hands: ${JSON.stringify(compared)}`);
  // The race was told: a lead change came on screen, tagged and with its banner.
  const allPicks = [...seenBefore.picks, ...after.picks];
  check(allPicks.some(([, pick]) => pick === 'lead_change'), `a lead-change game was played: ${JSON.stringify(allPicks)}`);
  const { body: history } = await api('/api/event/history');
  check(history.lead_changes_total === 0 || /change/.test(await page.textContent('[data-testid=lead-changes]')), 'the leader box counts the changes of leader');

  // The director marks the garbage bot's bans, names the event, and finds first wins.
  const { body: director } = await api('/api/event/broadcast?candidates=40');
  const { body: status } = await api('/api/event');
  equal(director.tournament_id, status.tournament_id, 'the director names the event');
  const marked = director.games.flatMap((g) => g.highlights).filter((h) => h.kind === 'banned');
  check(marked.length > 0 && marked.every((h) => h.player === 'Garbage Answers'), `the bans marked are the garbage bot's: ${JSON.stringify(marked.slice(0, 2))}`);

  // The server restarts: the page says it is not answering, then goes on.
  const port = new URL(base).port;
  const before = Number(await page.getAttribute('#broadcast-root', 'data-game'));
  server.kill('SIGKILL');
  await until('the page says the server is not answering', async () => (await page.textContent('[data-testid=connection]')).includes('not answering'), 30000);
  ({ server } = await startDealerServe(dealerBin, serveArgs(`127.0.0.1:${port}`), 'ignore'));
  await until('the page reconnects', async () => (await page.textContent('[data-testid=connection]')) === '', 60000);
  await until('the page goes on to a newer game after the restart', async () => Number(await page.getAttribute('#broadcast-root', 'data-game')) > before, 180000);

  await checkNothingRan(page, problems);
} finally {
  garbage.close();
  await cleanUp(browser, server, work);
}

finish('broadcast page');
