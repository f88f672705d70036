// Lean Poker results viewer: runs, leaderboards, the table view of a game's viewer log, and a
// team's view of its own bot. Everything that comes from a file is put on the page with
// textContent or as an attribute value, never parsed as HTML: team names and bot output are
// untrusted.
'use strict';

const app = document.getElementById('app');
const crumbs = document.getElementById('crumbs');

// The DOM helpers and getJson are in common.js, loaded first.

function show(...nodes) {
  replace(app, ...nodes);
}

function setCrumbs(items) {
  clear(crumbs);
  items.forEach(([label, href], i) => {
    if (i > 0) crumbs.append(' › ');
    crumbs.append(href ? el('a', { href, text: label }) : el('span', { text: label }));
  });
}

const enc = encodeURIComponent;
const runHref = (run) => `#/run/${enc(run)}`;
const gameHref = (run, game) => `#/run/${enc(run)}/game/${enc(game)}`;
const playerHref = (run, game, name) => `#/run/${enc(run)}/game/${enc(game)}/player/${enc(name)}`;
const apiGame = (run, game) => `/api/runs/${enc(run)}/games/${enc(game)}`;

// cardNode, cardsText and pokerTable (the felt) are in table.js, loaded first.

// ---------- Routing ----------

let stopCurrent = () => {};

async function route() {
  stopCurrent();
  stopCurrent = () => {};
  const parts = location.hash.replace(/^#\/?/, '').split('/').filter((p) => p !== '').map(decodeURIComponent);
  try {
    if (parts[0] === 'run' && parts.length === 2) await runPage(parts[1]);
    else if (parts[0] === 'run' && parts[2] === 'live' && parts.length === 3) await followNewest(parts[1]);
    else if (parts[0] === 'run' && parts[2] === 'game' && parts.length === 4) await gamePage(parts[1], parts[3]);
    else if (parts[0] === 'run' && parts[2] === 'game' && parts[4] === 'player' && parts.length === 6) await playerPage(parts[1], parts[3], parts[5]);
    // A hand of a game, numbered from 1 as the table shows it (the event's hands to look at).
    else if (parts[0] === 'run' && parts[2] === 'game' && parts[4] === 'hand' && parts.length === 6) await gamePage(parts[1], parts[3], { hand: Number(parts[5]) });
    else await runsPage(parts.length === 0);
  } catch (error) {
    show(alertBox(error instanceof ApiError ? error.message : `Something went wrong: ${error.message}`));
  }
}

window.addEventListener('hashchange', route);
window.addEventListener('DOMContentLoaded', route);

// ---------- Runs ----------

async function runsPage(isHome) {
  setCrumbs([['Runs']]);
  const runs = await getJson('/api/runs');
  if (isHome && runs.length === 1) {
    location.replace(runHref(runs[0].id));
    return;
  }
  if (runs.length === 0) {
    show(el('h1', { text: 'Runs' }), el('p', { text: 'No run found in the served folder (a run has results.json, game-<n>/ folders or a log.json).' }));
    return;
  }
  const rows = runs.map((run) => el('tr', {},
    el('td', {}, el('a', { href: runHref(run.id), text: run.folder })),
    el('td', { text: run.tournament_id || '–' }),
    el('td', { class: 'num', text: run.games_planned == null ? run.games_found : `${run.games_found} / ${run.games_planned}` }),
    el('td', { text: run.running > 0 ? `playing (${run.running} running)` : run.complete == null ? (run.results_error ? 'results.json unreadable' : 'no results.json') : (run.complete ? 'complete' : 'stopped early') }),
    el('td', { text: run.leader || '–' }),
    el('td', { text: run.modified ? clockTime(run.modified * 1000) : '' })));
  show(el('h1', { text: 'Runs' }),
    el('table', { class: 'grid', 'data-testid': 'runs' },
      el('thead', {}, el('tr', {}, ['Folder', 'Tournament', 'Games', 'State', 'Leader', 'Modified'].map((h) => el('th', { text: h })))),
      el('tbody', {}, rows)));
}

async function runPage(runId) {
  setCrumbs([['Runs', '#/'], [runId === '_' ? 'this run' : runId]]);
  const summary = await getJson(`/api/runs/${enc(runId)}`);
  const results = summary.results;
  const nodes = [el('h1', { text: summary.run.folder === '.' ? 'This run' : `Run ${summary.run.folder}` })];
  if (summary.run.results_error) nodes.push(alertBox(summary.run.results_error));
  if (results) {
    const config = results.config || {};
    nodes.push(el('p', { class: 'muted', text:
      `Tournament ${results.tournament_id} · seed ${results.seed}${results.reproducible ? ' (reproducible)' : ''} · ` +
      `${summary.games.filter((g) => g.recorded).length} of ${results.games_planned} games · ` +
      `stack ${config.starting_stack} · blinds ${config.blinds} · bad answers: ${config.bad_answers}` +
      (results.stopped_because ? ` · stopped: ${results.stopped_because}` : '') }));
    nodes.push(el('h2', { text: 'Leaderboard' }));
    nodes.push(el('table', { class: 'grid leaderboard', 'data-testid': 'leaderboard' },
      el('thead', {}, el('tr', {}, ['#', 'Player', 'Points', 'Games', 'Wins', '2nd', 'Bans', 'Absent'].map((h) => el('th', { text: h })))),
      el('tbody', {}, (results.totals || []).map((total, i) => el('tr', { 'data-testid': 'leaderboard-row' },
        el('td', { class: 'num', text: i + 1 }),
        el('td', { class: 'name', 'data-testid': 'leader-name', text: total.name }),
        el('td', { class: 'num strong', 'data-testid': 'leader-points', text: total.points }),
        el('td', { class: 'num', text: total.games }),
        el('td', { class: 'num', text: total.wins }),
        el('td', { class: 'num', text: total.seconds }),
        el('td', { class: 'num', text: total.bans }),
        el('td', { class: 'num', text: total.absent }))))));
  }
  nodes.push(el('h2', { text: 'Games' }));
  const running = summary.games.filter((g) => g.status === 'running');
  if (running.length) {
    nodes.push(el('p', { class: 'live-note' }, el('span', { class: 'live-dot', text: '●' }), ` ${running.length} game${running.length === 1 ? '' : 's'} being played · `,
      el('a', { href: `#/run/${enc(runId)}/live`, 'data-testid': 'follow-newest', text: 'follow the newest game live (for a projector)' })));
  }
  if (summary.games.length === 0) nodes.push(el('p', { text: 'No game folder yet.' }));
  else nodes.push(el('table', { class: 'grid', 'data-testid': 'games' },
    el('thead', {}, el('tr', {}, ['Game', 'Winner', 'Hands', 'Banned', 'State'].map((h) => el('th', { text: h })))),
    el('tbody', {}, summary.games.map((game) => el('tr', { 'data-testid': `game-row-${game.game}`, 'data-status': game.status },
      el('td', {}, game.has_log || game.recorded || game.status === 'running' ? el('a', { href: gameHref(runId, game.game), 'data-testid': 'game-link', text: `game ${game.game}` }) : `game ${game.game}`),
      el('td', { class: 'name', text: game.winner || '–' }),
      el('td', { class: 'num', text: game.hands_played == null ? '–' : game.hands_played }),
      el('td', { class: 'name', text: game.banned.length ? game.banned.join(', ') : '' }),
      el('td', { 'data-testid': 'game-state' }, gameState(game)))))));
  show(...nodes);
  // While games are played, the list follows them (new games, finished ones).
  if (running.length || (results && !results.complete && !results.stopped_because)) {
    const shown = JSON.stringify(summary.games);
    const timer = setInterval(async () => {
      try {
        const fresh = await getJson(`/api/runs/${enc(runId)}`);
        if (JSON.stringify(fresh.games) !== shown || JSON.stringify(fresh.results) !== JSON.stringify(results)) {
          clearInterval(timer);
          const y = window.scrollY;
          await runPage(runId);
          window.scrollTo(0, y);
        }
      } catch (error) { /* keep the page; the next poll may work */ }
    }, 2000);
    stopCurrent = () => clearInterval(timer);
  }
}

function gameState(game) {
  switch (game.status) {
    case 'running': return [el('span', { class: 'live-dot', text: '● ' }), 'playing now'];
    case 'finished': return game.has_log ? 'finished' : 'finished, no log.json';
    case 'interrupted': return 'interrupted (run stopped)';
    default: return 'not in results.json';
  }
}

// The newest game being played, followed live; when it ends, the next one (a projector page).
async function followNewest(runId) {
  setCrumbs([['Runs', '#/'], [runId === '_' ? 'this run' : runId, runHref(runId)], ['live']]);
  const summary = await getJson(`/api/runs/${enc(runId)}`);
  const running = summary.games.filter((g) => g.status === 'running');
  if (running.length === 0) {
    show(el('h1', { text: 'Live' }), el('p', { 'data-testid': 'no-live-game', text: 'No game is being played in this run right now; this page waits for the next one.' }));
    const timer = setInterval(async () => {
      try {
        const fresh = await getJson(`/api/runs/${enc(runId)}`);
        if (fresh.games.some((g) => g.status === 'running')) {
          clearInterval(timer);
          route();
        }
      } catch (error) { /* try again */ }
    }, 2000);
    stopCurrent = () => clearInterval(timer);
    return;
  }
  const newest = running[running.length - 1];
  await gamePage(runId, String(newest.game), { next: () => setTimeout(() => { if (location.hash === `#/run/${enc(runId)}/live`) route(); }, 4000) });
}

// ---------- Table view ----------

const SPEEDS = [['slow', 1200], ['normal', 600], ['fast', 250], ['fastest', 60]];

async function gamePage(runId, gameId, options = {}) {
  if (!options.next) {
    const game = options.hand ? [[`game ${gameId}`, gameHref(runId, gameId)], [`hand ${options.hand}`]] : [[`game ${gameId}`]];
    setCrumbs([['Runs', '#/'], [runId === '_' ? 'this run' : runId, runHref(runId)], ...game]);
  }
  const details = await getJson(apiGame(runId, gameId));
  const header = [el('h1', { text: `Game ${gameId}` })];
  const result = details.result;
  if (result) {
    header.push(el('p', { class: 'muted', 'data-testid': 'game-summary', text:
      `${result.standings.map((s) => `${s.place}. ${s.name} (${s.points} pts)`).join(' · ')} · ${result.hands_played} hands · ended: ${result.ended_by}` }));
  }
  const stopped = details.interrupted;
  if (!result && stopped) {
    const hands = stopped.hands_played == null ? '' : ` after ${stopped.hands_played} hands`;
    header.push(el('p', { class: 'notice', 'data-testid': 'game-interrupted', text: `Interrupted${hands}: ${stopped.reason}` }));
  }
  if (details.players.length) {
    header.push(el('p', { class: 'players-links' }, 'Each team\'s requests and answers: ',
      details.players.map((p, i) => [i ? ' · ' : '', el('a', { href: playerHref(runId, gameId, p.name), 'data-testid': 'player-link', text: p.name })])));
  }
  let log;
  try {
    log = await getJson(`${apiGame(runId, gameId)}/log`);
  } catch (error) {
    if (details.status === 'running') {
      // The game has just started: its log has no complete entry yet.
      show(...header, el('p', { class: 'muted', 'data-testid': 'waiting', text: 'The game is starting; its first entry is not written yet…' }));
      const timer = setTimeout(() => gamePage(runId, gameId, options).catch((e) => show(alertBox(e.message))), 1000);
      stopCurrent = () => clearTimeout(timer);
      return;
    }
    show(...header, alertBox(`This game's log cannot be shown: ${error.message}`));
    return;
  }
  const live = details.status === 'running' ? { url: apiGame(runId, gameId), next: options.next } : null;
  const colourOf = await teamColours(runId, gameId);
  const startRound = Number.isInteger(options.hand) && options.hand > 0 ? options.hand - 1 : null;
  show(...header, tableView(log, result, live, details.interrupted, colourOf, startRound));
}

// The colour of each seat's team: an event's game (served by `dealer serve --data`, or
// `--out` on an event's folder) gives its seats their event player ids, so a team has its
// colour of /event and /broadcast (standings.js's teamColour); any other game colours its
// seats in order, from the same palette.
let eventMode = null;
async function teamColours(runId, gameId) {
  const bySeat = (seat) => teamColour(seat + 1);
  if (eventMode === null) eventMode = getJson('/api/mode').then((mode) => Boolean(mode && mode.event)).catch(() => false);
  if (!(await eventMode) || runId !== 'games') return bySeat;
  try {
    const teams = await getJson(`/api/event/games/${enc(gameId)}/teams`);
    const ids = new Map(teams.seats.map((seat) => [seat.name, seat.player_id]));
    return (seat, name) => (ids.has(name) ? teamColour(ids.get(name)) : bySeat(seat));
  } catch (error) {
    return bySeat;
  }
}

// startRound: the hand (`round`, from 0) to open at, instead of the first entry (or the
// newest, live).
function tableView(log, result, live, interrupted, colourOf = (seat) => teamColour(seat + 1), startRound = null) {
  const entries = log.entries;
  const seats = Math.max(...entries.map((e) => e.game_state.players.length));
  let index = live ? entries.length - 1 : 0;
  let following = Boolean(live);
  let timer = null;
  let speed = SPEEDS[1][1];

  // Fixed structure, built once; stepping only changes text and classes (no layout jump).
  const table = pokerTable(seats, { teamColour: (seat, player) => colourOf(seat, player.name) });
  const felt = table.node;

  const message = el('div', { class: 'message', 'data-testid': 'message' });
  const position = el('span', { class: 'position', 'data-testid': 'entry-index' });
  const playButton = el('button', { type: 'button', 'data-testid': 'play', onclick: () => (timer ? pause() : play()), text: '▶ Play' });
  // Hands are numbered from 1 on screen; the log's `round` is from 0.
  const handInput = el('input', { type: 'number', min: 1, 'aria-label': 'hand number', 'data-testid': 'hand-input', class: 'hand-input' });
  const speedSelect = el('select', { 'aria-label': 'speed', onchange: () => { speed = Number(speedSelect.value); if (timer) { pause(); play(); } } },
    SPEEDS.map(([label, ms]) => el('option', { value: ms, selected: ms === speed, text: label })));
  const controls = el('div', { class: 'controls' },
    el('button', { type: 'button', title: 'previous hand (↑)', 'data-testid': 'prev-hand', onclick: () => jumpHand(-1), text: '« Hand' }),
    el('button', { type: 'button', title: 'step back (←)', 'data-testid': 'prev', onclick: () => go(index - 1), text: '◀ Back' }),
    playButton,
    el('button', { type: 'button', title: 'step forward (→)', 'data-testid': 'next', onclick: () => go(index + 1), text: 'Step ▶' }),
    el('button', { type: 'button', title: 'next hand (↓)', 'data-testid': 'next-hand', onclick: () => jumpHand(1), text: 'Hand »' }),
    el('form', { class: 'jump', onsubmit: (event) => { event.preventDefault(); goHand(Number(handInput.value) - 1); } },
      el('label', {}, 'Hand ', handInput), el('button', { type: 'submit', 'data-testid': 'hand-go', text: 'Go' })),
    speedSelect, position);
  const liveLabel = el('span', { class: 'live-label', 'data-testid': 'live-state' });
  if (live) {
    controls.append(el('button', { type: 'button', title: 'the newest entry (End)', 'data-testid': 'go-live', onclick: () => go(entries.length - 1), text: 'Live »' }), liveLabel);
  }

  const banBox = el('div', { class: 'bans', 'data-testid': 'bans' });
  function renderBans() {
    clear(banBox);
    if (!log.bans.length) return;
    banBox.append(el('h3', { text: 'Bans' }),
      el('ul', {}, log.bans.map((ban) => el('li', {},
        el('a', { href: '#', onclick: (event) => { event.preventDefault(); go(ban.entry); } , text: `entry ${ban.entry + 1}` }),
        `: ${ban.player} — ${ban.reason}`))));
  }
  renderBans();

  const chartBox = el('div', { class: 'chart-box' });
  let chart;
  function renderChart() {
    chart = stackChart(log, (entry) => go(entry), colourOf);
    chartBox.replaceChildren(...chart.nodes);
  }
  renderChart();

  function currentHand() {
    let hand = 0;
    for (let i = 0; i < log.hands.length; i++) if (log.hands[i].entry <= index) hand = i;
    return hand;
  }

  function jumpHand(delta) {
    const hand = currentHand();
    const target = delta < 0 && log.hands[hand].entry < index ? hand : hand + delta;
    if (target >= 0 && target < log.hands.length) go(log.hands[target].entry);
  }

  function goHand(round) {
    const hand = log.hands.find((h) => h.round === round);
    if (hand) go(hand.entry);
    else message.textContent = `There is no hand ${round + 1} in this log (hands ${log.hands[0].round + 1}–${log.hands[log.hands.length - 1].round + 1}).`;
  }

  function play() {
    if (index >= entries.length - 1) go(0);
    playButton.textContent = '⏸ Pause';
    timer = setInterval(() => {
      if (index >= entries.length - 1) pause();
      else go(index + 1);
    }, speed);
  }

  function pause() {
    clearInterval(timer);
    timer = null;
    playButton.textContent = '▶ Play';
  }

  function go(target) {
    index = Math.max(0, Math.min(entries.length - 1, target));
    following = Boolean(live) && index === entries.length - 1;
    draw();
  }

  function draw() {
    const entry = entries[index];
    const banHere = log.bans.find((b) => b.entry === index);
    table.draw(entry, {
      round: log.hands[currentHand()].round,
      banned: (name) => log.bans.find((b) => b.player === name && b.entry <= index),
    });
    message.textContent = entry.message || (index === 0 || !entry.type ? 'A new hand starts.' : '');
    message.className = `message${banHere ? ' banned' : ''}`;
    position.textContent = `entry ${index + 1} / ${entries.length}`;
    if (live) liveLabel.classList.toggle('behind', !following);
    handInput.placeholder = String(log.hands[currentHand()].round + 1);
    chart.mark(currentHand());
  }

  const onKey = (event) => {
    if (event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement) return;
    const actions = { ArrowRight: () => go(index + 1), ArrowLeft: () => go(index - 1), ArrowDown: () => jumpHand(1), ArrowUp: () => jumpHand(-1), ' ': () => (timer ? pause() : play()), Home: () => go(0), End: () => go(entries.length - 1) };
    const action = actions[event.key];
    if (action) {
      event.preventDefault();
      action();
    }
  };
  document.addEventListener('keydown', onKey);
  const follower = live ? follow(live, log, {
    added(chunk) {
      for (const entry of chunk.entries) entries.push(entry);
      for (const hand of chunk.hands) log.hands.push(hand);
      for (const ban of chunk.bans) log.bans.push(ban);
      if (chunk.bans.length) renderBans();
      if (chunk.hands.length) renderChart();
      if (following) go(entries.length - 1);
      else position.textContent = `entry ${index + 1} / ${entries.length}`;
    },
    replaced(fresh) {
      // The whole log again (the game is over: every hole card can be shown now).
      entries.length = 0;
      for (const entry of fresh.entries) entries.push(entry);
      log.hands = fresh.hands;
      log.bans = fresh.bans;
      log.cards_hidden = fresh.cards_hidden;
      renderBans();
      renderChart();
      go(following ? entries.length - 1 : index);
    },
    state(text, over) {
      liveLabel.textContent = text;
      liveLabel.classList.toggle('over', Boolean(over));
    },
  }) : null;
  stopCurrent = () => {
    pause();
    document.removeEventListener('keydown', onKey);
    if (follower) follower.stop();
  };

  draw();
  if (startRound != null) goHand(startRound);
  const notes = [];
  if (!result && !live && !interrupted) notes.push(el('p', { class: 'muted', text: 'This game is not in a results.json (a log from another dealer, or a game that was cut off).' }));
  if (log.partial && !live) notes.push(el('p', { class: 'notice', 'data-testid': 'partial', text: log.partial }));
  if (live) notes.push(el('p', { class: 'muted', text: 'Followed live: new entries appear as they are played; hole cards show at the showdown. Step back to look at earlier entries; "Live" comes back.' }));
  return el('section', { class: 'game' }, notes, controls, felt, message,
    el('p', { class: 'muted keys', text: 'Keys: ← → step, ↑ ↓ hand, space play/pause, Home/End (End follows live).' }),
    el('div', { class: 'below' }, chartBox, banBox));
}

// Follows a game being played: server-sent events from /live, or polling /log every 2 s when
// they fail. Calls on.added with new entries, on.replaced with the whole log once it is over.
function follow(live, log, on) {
  let source = null;
  let poller = null;
  let stopped = false;
  const stop = () => {
    stopped = true;
    if (source) source.close();
    if (poller) clearInterval(poller);
  };
  const finish = async (text) => {
    stop();
    try {
      on.replaced(await getJson(`${live.url}/log`));
    } catch (error) { /* keep what is shown */ }
    on.state(text, true);
    if (live.next) live.next();
  };
  const add = (chunk) => {
    if (chunk.first > log.entries.length) return false;
    const skip = log.entries.length - chunk.first;
    if (skip >= chunk.entries.length) return true;
    on.added({
      entries: chunk.entries.slice(skip),
      hands: chunk.hands.filter((h) => h.entry >= log.entries.length),
      bans: chunk.bans.filter((b) => b.entry >= log.entries.length),
    });
    return true;
  };
  const poll = () => {
    on.state('● live (polling)');
    poller = setInterval(async () => {
      try {
        const details = await getJson(live.url);
        const fresh = await getJson(`${live.url}/log`);
        add({ first: 0, entries: fresh.entries, hands: fresh.hands, bans: fresh.bans });
        if (details.status !== 'running') finish(details.status === 'interrupted' ? 'game interrupted' : 'game over');
      } catch (error) {
        on.state(`● live (polling: ${error.message})`);
      }
    }, 2000);
  };
  if (typeof EventSource === 'undefined') {
    poll();
  } else {
    on.state('● live');
    source = new EventSource(`${live.url}/live?from=${log.entries.length}`);
    source.addEventListener('entries', (event) => {
      const chunk = JSON.parse(event.data);
      if (!add(chunk)) {
        // A gap (should not happen): start over from what the page has.
        source.close();
        if (!stopped) poll();
      }
      on.state('● live');
    });
    source.addEventListener('end', (event) => {
      const end = JSON.parse(event.data);
      finish(end.status === 'finished' || end.status === 'interrupted' ? `game ${end.status === 'finished' ? 'over' : 'interrupted'}` : `stopped following: ${end.reason}`);
    });
    source.addEventListener('error', () => {
      if (stopped) return;
      if (source.readyState === EventSource.CLOSED) poll();
      else on.state('● live (reconnecting…)');
    });
  }
  return { stop };
}

// Every player's stack at the start of each hand (and after the last entry), as an SVG chart,
// each line in its seat's team colour (`colourOf(seat, name)`).
function stackChart(log, onPick, colourOf) {
  const entries = log.entries;
  const points = log.hands.map((hand) => entries[hand.entry].game_state.players.map((p) => p.stack + (p.bet || 0)));
  points.push(entries[entries.length - 1].game_state.players.map((p) => p.stack + (p.bet || 0)));
  const names = entries[0].game_state.players.map((p) => p.name);
  const max = Math.max(1, ...points.flat());
  const width = 720;
  const height = 240;
  const pad = { left: 56, right: 12, top: 12, bottom: 28 };
  const x = (i) => pad.left + ((width - pad.left - pad.right) * i) / Math.max(1, points.length - 1);
  const y = (v) => height - pad.bottom - ((height - pad.top - pad.bottom) * v) / max;
  const chart = svg('svg', { viewBox: `0 0 ${width} ${height}`, class: 'chart', role: 'img', 'aria-label': 'Stacks over the hands', 'data-testid': 'stack-chart' });
  chart.append(svg('line', { x1: pad.left, y1: y(0), x2: width - pad.right, y2: y(0), class: 'axis' }));
  chart.append(svg('line', { x1: pad.left, y1: pad.top, x2: pad.left, y2: y(0), class: 'axis' }));
  chart.append(svg('text', { x: pad.left - 6, y: y(max) + 4, class: 'tick end', text: max }));
  chart.append(svg('text', { x: pad.left - 6, y: y(0), class: 'tick end', text: 0 }));
  chart.append(svg('text', { x: width - pad.right, y: height - 6, class: 'tick end', text: `hand ${log.hands[log.hands.length - 1].round + 1}` }));
  chart.append(svg('text', { x: pad.left, y: height - 6, class: 'tick', text: `hand ${log.hands[0].round + 1}` }));
  names.forEach((name, seat) => {
    const line = points.map((row, i) => `${x(i).toFixed(1)},${y(row[seat] ?? 0).toFixed(1)}`).join(' ');
    chart.append(svg('polyline', { points: line, class: 'series', stroke: colourOf(seat, name) }, svg('title', { text: name })));
  });
  const marker = svg('line', { x1: x(0), y1: pad.top, x2: x(0), y2: y(0), class: 'marker' });
  chart.append(marker);
  chart.addEventListener('click', (event) => {
    const box = chart.getBoundingClientRect();
    const at = ((event.clientX - box.left) / box.width) * width;
    const hand = Math.round(((at - pad.left) / (width - pad.left - pad.right)) * Math.max(1, points.length - 1));
    if (hand >= 0 && hand < log.hands.length) onPick(log.hands[hand].entry);
  });
  const legend = el('ul', { class: 'legend' }, names.map((name, seat) => {
    const swatch = el('span', { class: 'swatch' });
    swatch.style.background = colourOf(seat, name);
    return el('li', {}, swatch, el('span', { text: name }));
  }));
  return {
    nodes: [el('h3', { text: 'Stacks (chips + bet) at the start of each hand — click to jump' }), chart, legend],
    mark(hand) {
      marker.setAttribute('x1', x(hand));
      marker.setAttribute('x2', x(hand));
    },
  };
}

// ---------- A team's view of its own bot ----------

async function playerPage(runId, gameId, name) {
  setCrumbs([['Runs', '#/'], [runId === '_' ? 'this run' : runId, runHref(runId)], [`game ${gameId}`, gameHref(runId, gameId)], [name]]);
  const data = await getJson(`${apiGame(runId, gameId)}/players/${enc(name)}`);
  const nodes = [el('h1', {}, 'Requests to ', el('span', { class: 'name', 'data-testid': 'player-name', text: data.name }), data.seat == null ? '' : ` (seat ${data.seat})`)];
  nodes.push(el('p', { class: 'muted', text:
    'Every bet_request this player got in the game and what it answered. "game_state.json" downloads the exact document sent: a fixture for the SDK\'s testing kit (player::testing::load).' }));
  if (data.held_back) nodes.push(el('p', { class: 'notice', 'data-testid': 'held-back', text: data.held_back }));
  for (const problem of data.problems) nodes.push(alertBox(problem));
  if (data.requests.length === 0) nodes.push(el('p', { text: 'No bet_request recorded for this player (requests.jsonl is missing or the player was never asked).' }));
  else nodes.push(el('table', { class: 'grid requests', 'data-testid': 'requests' },
    el('thead', {}, el('tr', {}, ['Hand', 'Hole cards', 'Board', 'Pot', 'To call', 'Stack', 'Answer', 'Read as', 'Latency', 'Fixture'].map((h) => el('th', { text: h })))),
    el('tbody', {}, data.requests.map((request) => {
      const state = request.game_state || {};
      const me = (state.players || [])[request.seat] || {};
      const toCall = Math.max(0, (state.current_buy_in || 0) - (me.bet || 0));
      return el('tr', { class: request.error ? 'bad' : '', 'data-testid': 'request-row' },
        el('td', { class: 'num', text: request.round + 1 }),
        el('td', { text: cardsText(me.hole_cards) }),
        el('td', { text: cardsText(state.community_cards) || '–' }),
        el('td', { class: 'num', text: state.pot ?? '' }),
        el('td', { class: 'num', text: toCall }),
        el('td', { class: 'num', text: me.stack ?? '' }),
        el('td', { class: 'mono', text: request.answer == null ? '(no answer)' : JSON.stringify(request.answer) }),
        el('td', { text: `${request.action || '–'}${request.amount ? ` ${request.amount}` : ''}${request.error ? ` — ${request.error}` : ''}` }),
        el('td', { class: 'num', text: request.latency_us == null ? '' : `${request.latency_us} µs` }),
        el('td', {}, el('a', { href: `${apiGame(runId, gameId)}/requests/${request.line}`, download: `game-${gameId}-round-${request.round}-line-${request.line}.json`, 'data-testid': 'fixture-link', text: 'game_state.json' })));
    }))));
  if (data.log != null) {
    nodes.push(el('details', { class: 'raw-log' }, el('summary', { text: `The player's log (players/<name>.log)${data.log_cut ? ', first 2 MiB' : ''}` }),
      el('pre', { 'data-testid': 'player-log', text: data.log })));
  }
  show(...nodes);
}
