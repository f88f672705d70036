// End-to-end test of the results viewer in a real headless browser (Debian's chromium driven by
// playwright-core). Plays a real `dealer run` (house bots, hostile team names, reproducible),
// serves it with `dealer serve` next to another dealer's log, the open-source croupier's log
// and cut-off logs, then checks on screen: the leaderboard against results.json,
// board/pot/stacks at every step of a hand against log.json, jumping to a hand, a team's
// requests against requests.jsonl and its fixture download, the other dealers' logs, the
// cut-off logs' messages, that no team name ran as HTML, and a game followed live while
// `dealer run --live` plays it (against a slow player served here), to its end.
// Writes the README's screenshots to docs/screenshots/.
//
// Environment: DEALER_BIN (the built dealer; `dealer serve` is the viewer), CHROMIUM (default /usr/bin/chromium).
import { check, checkNothingRan, cleanUp, equal, finish, launchChromium } from './harness.mjs';
import { startDealerServe } from './dealer.mjs';
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, copyFileSync, writeFileSync, readFileSync, existsSync, utimesSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..', '..', '..');
const fixtures = join(here, '..', 'fixtures', 'web');
const screenshots = join(repo, 'docs', 'screenshots');
const dealerBin = process.env.DEALER_BIN;
if (!dealerBin) throw new Error('set DEALER_BIN (run ./run.sh)');


// ---------- The served folder ----------
const work = mkdtempSync(join(tmpdir(), 'results-viewer-'));
const served = join(work, 'served');
execFileSync(dealerBin, ['run', '--quiet', '--config', join(fixtures, 'run.toml'), '--out', join(served, 'run')], { stdio: ['ignore', 'ignore', 'inherit'] });
mkdirSync(join(served, 'other'), { recursive: true });
copyFileSync(join(fixtures, 'other-dealer', 'log.json'), join(served, 'other', 'log.json'));
mkdirSync(join(served, 'cut', 'game-1'), { recursive: true });
const realLog = readFileSync(join(served, 'run', 'game-1', 'log.json'), 'utf8');
writeFileSync(join(served, 'cut', 'game-1', 'log.json'), realLog.slice(0, Math.floor(realLog.length / 3)));
mkdirSync(join(served, 'cut', 'game-2'), { recursive: true });
writeFileSync(join(served, 'cut', 'game-2', 'log.json'), realLog.slice(0, 40));
// Cut off long ago (not a game being written now).
const longAgo = new Date(Date.now() - 3600 * 1000);
for (const game of ['game-1', 'game-2']) utimesSync(join(served, 'cut', game, 'log.json'), longAgo, longAgo);
mkdirSync(join(served, 'oss'), { recursive: true });
copyFileSync(join(fixtures, 'oss-croupier', 'log.json'), join(served, 'oss', 'log.json'));

const results = JSON.parse(readFileSync(join(served, 'run', 'results.json'), 'utf8'));
const log = JSON.parse(realLog);
const requestLines = readFileSync(join(served, 'run', 'game-1', 'requests.jsonl'), 'utf8').split('\n').filter((l) => l).map((l) => JSON.parse(l));

const t0 = Date.now();
const lap = (what) => console.log(`${((Date.now() - t0) / 1000).toFixed(1)} s: ${what}`);

// ---------- The server ----------
const { server, url } = await startDealerServe(dealerBin, ['--out', served, '--bind', '127.0.0.1:0']);

const browser = await launchChromium();

const SUITS = { spades: '♠', hearts: '♥', diamonds: '♦', clubs: '♣' };
const cardText = (c) => `${c.rank}${SUITS[c.suit] || c.suit}`;

try {
  const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
  const problems = [];
  page.on('dialog', (dialog) => {
    problems.push(`a dialog opened: ${dialog.message()}`);
    dialog.dismiss();
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error' && !msg.text().includes('Failed to load resource')) problems.push(`console error: ${msg.text()}`);
  });

  // Runs list.
  await page.goto(url);
  await page.waitForSelector('[data-testid=runs]');
  equal(await page.locator('[data-testid=runs] tbody tr').count(), 4, 'four runs listed');

  // Leaderboard against results.json.
  await page.goto(`${url}#/run/run`);
  await page.waitForSelector('[data-testid=leaderboard]');
  const names = await page.locator('[data-testid=leader-name]').allTextContents();
  const points = await page.locator('[data-testid=leader-points]').allTextContents();
  equal(names, results.totals.map((t) => t.name), 'leaderboard names (hostile ones as text)');
  equal(points.map(Number), results.totals.map((t) => t.points), 'leaderboard points');
  await page.screenshot({ path: join(screenshots, 'leaderboard.png'), fullPage: true });

  // Table view of game 1: step through the first two hands, comparing with log.json.
  await page.click('[data-testid=game-link] >> nth=0');
  await page.waitForSelector('[data-testid=table]');
  const screen = async () => page.evaluate(() => {
    const text = (sel) => document.querySelector(sel).textContent;
    const seats = [...document.querySelectorAll('.felt > .seat')].filter((s) => !s.classList.contains('empty'));
    return {
      position: text('[data-testid=entry-index]'),
      pot: text('[data-testid=pot]'),
      board: [...document.querySelectorAll('[data-testid=board] .card:not(.slot)')].map((c) => c.textContent),
      names: seats.map((s) => s.querySelector('[data-testid=seat-name]').textContent),
      stacks: seats.map((s) => s.querySelector('[data-testid=seat-stack]').textContent),
      cards: seats.map((s) => [...s.querySelectorAll('.card:not(.slot)')].map((c) => c.textContent)),
      message: text('[data-testid=message]'),
    };
  });
  // A hash change keeps the page, so the previous game's table is still on screen until the
  // new log has loaded: wait for the new game's first entry, not just for a table.
  const openFirstEntry = async (address, entries) => {
    await page.goto(address);
    await page.waitForFunction(
      (count) => document.querySelector('[data-testid=entry-index]')?.textContent === `entry 1 / ${count}`,
      entries,
    );
  };
  const expected = (index, entries = log) => {
    const state = entries[index].game_state;
    return {
      position: `entry ${index + 1} / ${entries.length}`,
      pot: String(state.pot),
      board: state.community_cards.map(cardText),
      names: state.players.map((p) => p.name),
      stacks: state.players.map((p) => String(p.stack)),
      cards: state.players.map((p) => p.hole_cards.map(cardText)),
      message: entries[index].message || 'A new hand starts.',
    };
  };
  const secondHand = log.findIndex((e, i) => i > 0 && e.game_state.round === 1);
  const thirdHand = log.findIndex((e) => e.game_state.round === 2);
  let mismatches = 0;
  let steps = 0;
  for (let index = 0; index < thirdHand; index++) {
    if (index > 0) await page.keyboard.press('ArrowRight');
    const got = await screen();
    const want = expected(index);
    if (JSON.stringify(got) !== JSON.stringify(want)) {
      mismatches += 1;
      if (mismatches < 4) console.error(`entry ${index}: screen ${JSON.stringify(got)}\n  log ${JSON.stringify(want)}`);
    }
    steps += 1;
  }
  equal(mismatches, 0, `board, pot, stacks, cards and message match log.json at each of ${steps} steps`);
  check(steps > 10 && secondHand > 0, 'the first two hands have steps');
  await page.keyboard.press('ArrowLeft');
  equal(await screen(), expected(thirdHand - 2), 'step back');
  await page.keyboard.press('ArrowUp');
  equal((await screen()).position, expected(secondHand).position, 'previous hand goes to its first entry');

  // Jump to a hand with a full board for the screenshot and the check.
  const showdownIndex = log.findIndex((e) => e.type === 'showdown') >= 0 ? log.findIndex((e) => e.type === 'showdown') : log.length - 1;
  const round = log[showdownIndex].game_state.round;
  // Hands are numbered from 1 on screen: hand N is the log's round N - 1.
  await page.fill('[data-testid=hand-input]', String(round + 1));
  await page.click('[data-testid=hand-go]');
  const firstOfRound = log.findIndex((e) => e.game_state.round === round);
  equal(await screen(), expected(firstOfRound), `jump to hand ${round + 1}`);
  equal(await page.textContent('[data-testid=round]'), String(round + 1), 'the table says the hand\'s number from 1');
  for (let index = firstOfRound; index < showdownIndex; index++) await page.keyboard.press('ArrowRight');
  equal(await screen(), expected(showdownIndex), 'showdown entry after stepping');
  check(await page.locator('[data-testid=stack-chart] polyline').count() === log[0].game_state.players.length, 'one stack line per player');
  await page.screenshot({ path: join(screenshots, 'table.png'), fullPage: true });

  // Play/pause moves forward.
  await page.click('[data-testid=play]');
  await page.waitForTimeout(1500);
  await page.click('[data-testid=play]');
  const after = await screen();
  check(after.position !== expected(showdownIndex).position, 'play advances');

  // A team's view of its own bot.
  const player = results.games[0].players[0];
  await page.goto(`${url}#/run/run/game/1/player/${encodeURIComponent(player)}`);
  await page.waitForSelector('[data-testid=player-name]');
  equal(await page.textContent('[data-testid=player-name]'), player, 'player view title is the exact name');
  equal(await page.locator('[data-testid=request-row]').count(), requestLines.filter((l) => l.player === player).length, 'one row per bet_request of the player');
  const href = await page.getAttribute('[data-testid=fixture-link] >> nth=0', 'href');
  const fixture = await (await fetch(new URL(href, url))).text();
  const first = requestLines.find((l) => l.player === player);
  equal(JSON.parse(fixture), first.game_state, 'the fixture link downloads the game_state sent');
  await page.screenshot({ path: join(screenshots, 'player.png') });

  // Another dealer's log (live captures 17-23): every entry opens.
  const other = JSON.parse(readFileSync(join(fixtures, 'other-dealer', 'log.json'), 'utf8'));
  await openFirstEntry(`${url}#/run/other/game/1`, other.length);
  let otherMismatches = 0;
  for (let index = 0; index < other.length; index++) {
    if (index > 0) await page.keyboard.press('ArrowRight');
    const got = await screen();
    const state = other[index].game_state;
    if (got.pot !== String(state.pot) || JSON.stringify(got.stacks) !== JSON.stringify(state.players.map((p) => String(p.stack)))) otherMismatches += 1;
  }
  equal(otherMismatches, 0, 'another dealer\'s log: pot and stacks at every entry');

  // The open-source croupier's layout (no `type`, no `round`, ",\n" between entries).
  const oss = JSON.parse(readFileSync(join(fixtures, 'oss-croupier', 'log.json'), 'utf8'));
  await openFirstEntry(`${url}#/run/oss/game/1`, oss.length);
  let ossMismatches = 0;
  for (let index = 0; index < oss.length; index++) {
    if (index > 0) await page.keyboard.press('ArrowRight');
    const got = await screen();
    const want = expected(index, oss);
    if (JSON.stringify(got) !== JSON.stringify(want)) {
      ossMismatches += 1;
      if (ossMismatches < 3) console.error(`oss entry ${index}: screen ${JSON.stringify(got)}\n  log ${JSON.stringify(want)}`);
    }
  }
  equal(ossMismatches, 0, 'the open-source croupier\'s log: board, pot, stacks, cards and message at every entry');

  // A log cut mid-hand: its complete entries, with a note, not an error.
  await page.goto(`${url}#/run/cut/game/1`);
  await page.waitForSelector('[data-testid=partial]');
  const note = await page.textContent('[data-testid=partial]');
  check(note.includes('not closed'), `cut-off log note: ${note}`);
  const cutEntries = (await screen()).position.split(' / ')[1];
  check(Number(cutEntries) > 10 && Number(cutEntries) < log.length, `the cut log shows its complete entries (${cutEntries})`);
  // Cut inside its first entry: a clear message.
  await page.goto(`${url}#/run/cut/game/2`);
  await page.waitForSelector('[data-testid=error]');
  const message = await page.textContent('[data-testid=error]');
  check(message.includes('cut off'), `cut-off log message: ${message}`);


  lap('replays checked');
  // A game followed live while `dealer run --live` plays it against a slow player (answers
  // after 80 ms), so the game lasts seconds.
  const slow = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => { body += chunk; });
    request.on('end', () => {
      const action = new URLSearchParams(body).get('action');
      if (action === 'version') response.end('slow node 1');
      else if (action === 'bet_request') setTimeout(() => response.end('0'), 80);
      else response.end('OK');
    });
  });
  await new Promise((resolve) => slow.listen(0, '127.0.0.1', resolve));
  const liveOut = join(served, 'live');
  const runner = spawn(dealerBin, ['run', '--quiet', '--live', '--seed', '3', '--games', '1', '--hand-limit', '30',
    '--player', `slow=http://127.0.0.1:${slow.address().port}/`, '--bot', 'station=calling-station', '--bot', 'raiser=raiser', '--out', liveOut],
  { stdio: ['ignore', 'ignore', 'inherit'] });
  const runnerDone = new Promise((resolve) => runner.on('exit', resolve));
  const startedAt = Date.now();
  while (!existsSync(join(liveOut, 'game-1', 'log.json')) && Date.now() - startedAt < 20000) await new Promise((r) => setTimeout(r, 50));
  await page.goto(`${url}#/run/live`);
  await page.waitForSelector('[data-testid=game-row-1][data-status=running]', { timeout: 10000 });
  check(await page.locator('[data-testid=follow-newest]').count() === 1, 'the games list offers to follow the running game');
  await page.click('[data-testid=game-row-1] [data-testid=game-link]');
  await page.waitForSelector('[data-testid=table]');
  await page.waitForFunction(() => document.querySelector('[data-testid=live-state]').textContent.includes('live'));
  const entryCount = async () => Number((await screen()).position.split(' / ')[1]);
  const before = await entryCount();
  await page.waitForTimeout(800);
  const livePosition = (await screen()).position;
  const grown = Number(livePosition.split(' / ')[1]);
  check(grown > before, `the page advances live (${before} → ${grown} entries in 0.8 s)`);
  const [at, total] = livePosition.replace('entry ', '').split(' / ');
  check(at === total || Number(total) - Number(at) <= 2, `the page shows the newest entry (${livePosition})`);
  // While the game is played, a hole card shows only after a showdown message of its hand.
  const hiddenOk = await page.evaluate(() => {
    const message = document.querySelector('[data-testid=message]').textContent;
    const shown = [...document.querySelectorAll('.felt > .seat')].filter((s) => s.querySelector('.card:not(.slot)'));
    return shown.every((s) => message.includes('showed') || message.includes(' won ') || s.classList.contains('winner'));
  });
  check(hiddenOk, 'hole cards are hidden while the game is played');
  await page.screenshot({ path: join(screenshots, 'live.png'), fullPage: true });
  // Step back: the page stays there while entries keep coming; "Live" comes back.
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  const held = (await screen()).position.split(' / ')[0];
  await page.waitForTimeout(500);
  equal((await screen()).position.split(' / ')[0], held, 'stepping back holds the position while the game goes on');
  await page.keyboard.press('End');
  const code = await runnerDone;
  equal(code, 0, 'dealer run --live finished');
  await page.waitForFunction(() => document.querySelector('[data-testid=live-state]').textContent.includes('game over'), null, { timeout: 15000 });
  const liveLog = JSON.parse(readFileSync(join(liveOut, 'game-1', 'log.json'), 'utf8'));
  equal(await screen(), expected(liveLog.length - 1, liveLog), 'after the game: the last entry of log.json, every card shown');
  slow.close();
  lap('live game followed');

  await checkNothingRan(page, problems);
} finally {
  await cleanUp(browser, server, work);
}

finish('browser');
