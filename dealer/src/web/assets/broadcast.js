// The event's broadcast (/broadcast): a projector page that plays the event's newest games
// back at a pace a room can follow, forever, without anyone at the keyboard. The server's
// director (/api/event/broadcast) scores the newest ended games and says where their
// highlights are; this page plays the best one it has not shown yet, entry by entry at the
// chosen speed (skipping quiet hands if asked), shows a banner on each highlight, then asks
// for the next game. The leaderboard and the points chart beside the table are the event
// page's (standings.js), in the same team colours.
//
// The games' own pace is the organiser's (pause_ms); this page only replays what was played.
// Names are untrusted: everything goes on the page with textContent (common.js's el).
'use strict';

(() => {
  const root = document.getElementById('broadcast-root');
  const SPEEDS = [0.5, 1, 2, 4];
  const SPEED_KEY = 'lean-poker-broadcast-speed';
  const SKIP_KEY = 'lean-poker-broadcast-skip-quiet';
  const SHOWN_KEY = 'lean-poker-broadcast-shown';
  const SHOWN_KEPT = 200;
  // How long each kind of entry stays on screen at 1×, in ms: slow enough to read a bet from
  // the back of a room, quick through the hole cards being dealt.
  const PACE = { handStart: 1400, holeCard: 90, boardCard: 1500, bet: 1300, showdown: 2400, winner: 2600, other: 900 };
  const BANNER_MS = 3200;
  const GAME_OVER_MS = 6000;
  const STANDINGS_MS = 5000;
  const BACKOFF_FIRST_MS = 1000;
  const BACKOFF_MAX_MS = 30000;
  const LEADERBOARD_ROWS = 10;
  // A screen of 3:2 or narrower has no room for the games column (as broadcast.css decides).
  const narrow = window.matchMedia('(max-aspect-ratio: 3/2)');

  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

  // ---------- What the room chose (kept across reloads) ----------
  const fromUrl = Number(new URLSearchParams(location.search).get('speed'));
  let speed = SPEEDS.includes(fromUrl) ? fromUrl : Number(localStorage.getItem(SPEED_KEY));
  if (!SPEEDS.includes(speed)) speed = 1;
  let skipQuiet = localStorage.getItem(SKIP_KEY) !== 'false';
  // The games this page showed, per event (game numbers start again at 1 in the next one):
  // { event: tournament id, games: [numbers] }.
  let shown = { event: null, games: [] };
  try {
    const kept = JSON.parse(localStorage.getItem(SHOWN_KEY) || 'null');
    if (kept && Array.isArray(kept.games)) shown = { event: String(kept.event), games: kept.games.filter(Number.isInteger) };
  } catch (error) { /* start afresh */ }
  function forEvent(tournamentId) {
    if (shown.event !== tournamentId) shown = { event: tournamentId, games: [] };
  }
  function markShown(number) {
    if (!shown.games.includes(number)) shown.games.push(number);
    while (shown.games.length > SHOWN_KEPT) shown.games.shift();
    localStorage.setItem(SHOWN_KEY, JSON.stringify(shown));
  }

  // ---------- The page ----------
  const title = el('div', { class: 'bc-title', 'data-testid': 'bc-title', text: 'Lean Poker' });
  const connection = el('div', { class: 'bc-connection', role: 'status', 'data-testid': 'connection' });
  // Why no new game is played (the event's disk is short of space), while it is so.
  const paused = el('div', { class: 'bc-connection down', role: 'status', 'data-testid': 'play-paused' });
  const speedSelect = el('select', { 'aria-label': 'speed', 'data-testid': 'speed' },
    SPEEDS.map((s) => el('option', { value: s, selected: s === speed, text: `${s}×` })));
  speedSelect.addEventListener('change', () => {
    speed = Number(speedSelect.value);
    localStorage.setItem(SPEED_KEY, String(speed));
  });
  const skipBox = el('input', { type: 'checkbox', 'data-testid': 'skip-quiet' });
  skipBox.checked = skipQuiet;
  skipBox.addEventListener('change', () => {
    skipQuiet = skipBox.checked;
    localStorage.setItem(SKIP_KEY, String(skipQuiet));
  });
  // A projector shows the page full screen; browsers allow it only from a click.
  const fullScreen = el('button', { type: 'button', 'data-testid': 'full-screen', text: 'Full screen',
    onclick: () => document.documentElement.requestFullscreen().catch(() => {}) });
  document.addEventListener('fullscreenchange', () => { fullScreen.hidden = Boolean(document.fullscreenElement); });
  const controls = el('div', { class: 'bc-controls' },
    el('label', {}, 'Speed ', speedSelect), el('label', {}, skipBox, ' skip quiet hands'), fullScreen,
    el('a', { href: '/event', text: 'Event page' }));
  const stage = el('section', { class: 'bc-stage', 'data-testid': 'stage' });
  const banner = el('div', { class: 'bc-banner hidden', role: 'status', 'data-testid': 'banner' });
  const message = el('div', { class: 'bc-message-text' });
  const messageBox = el('div', { class: 'bc-message', 'data-testid': 'message' }, message);
  const board = el('div', { class: 'bc-board' });
  const chart = el('div', { class: 'bc-chart' });
  const side = el('aside', { class: 'bc-side' },
    el('h2', { text: 'Leaderboard' }), board, el('h2', { text: 'Points' }), chart);
  replace(root,
    el('header', { class: 'bc-head' }, title, connection, paused, controls),
    el('main', { class: 'bc-main' }, el('div', { class: 'bc-play' }, stage, messageBox, banner), side));

  // ---------- The server, asked again with backoff while it does not answer ----------
  let standingsDown = false;
  let directorDown = false;
  function showConnection(retryMs) {
    const down = standingsDown || directorDown;
    connection.textContent = down ? `Server not answering · retrying${retryMs ? ` in ${Math.round(retryMs / 1000)} s` : ''}` : '';
    connection.classList.toggle('down', down);
  }

  // Runs `ask` until it answers, waiting longer after each failure (1 s, 2 s, 4 s… 30 s).
  async function persist(ask, mark) {
    let backoff = BACKOFF_FIRST_MS;
    for (;;) {
      try {
        const answer = await ask();
        mark(false);
        showConnection();
        return answer;
      } catch (error) {
        mark(true);
        showConnection(backoff);
        await sleep(backoff);
        backoff = Math.min(BACKOFF_MAX_MS, backoff * 2);
      }
    }
  }

  // ---------- Leaderboard and chart, refreshed on their own ----------
  let lastPlayers = [];
  function drawBoard() {
    const more = lastPlayers.length - LEADERBOARD_ROWS;
    const columns = narrow.matches ? ['rank', 'team', 'points', 'wins'] : ['rank', 'team', 'points', 'wins', 'games'];
    replace(board, leaderboardTable(lastPlayers.slice(0, LEADERBOARD_ROWS), columns),
      more > 0 ? el('p', { class: 'muted bc-more', text: `and ${more} more team${more === 1 ? '' : 's'}` }) : null);
  }
  narrow.addEventListener('change', drawBoard);

  async function refreshStandings() {
    for (;;) {
      const [leaderboard, history] = await persist(
        () => Promise.all([getJson('/api/event/leaderboard'), getJson('/api/event/history?max_points=120')]),
        (down) => { standingsDown = down; });
      lastPlayers = leaderboard.players;
      const pause = leaderboard.event && leaderboard.event.play_paused;
      paused.textContent = pause ? `Play paused since ${clockTime(pause.since)}: ${pause.reason}` : '';
      drawBoard();
      replace(chart, pointsChart(history, { width: 520, height: 400, left: 72 }));
      root.dataset.standings = 'true';
      await sleep(STANDINGS_MS);
    }
  }

  // ---------- Playing ----------
  // Waits `ms` of playing time at the current speed (a change of speed applies at once).
  async function playFor(ms) {
    let done = 0;
    let last = performance.now();
    while (done < ms) {
      await sleep(Math.min(100, Math.max(10, (ms - done) / speed)));
      const now = performance.now();
      done += (now - last) * speed;
      last = now;
    }
  }

  function showBanner(text, detail, kind, colour) {
    replace(banner, el('div', { class: 'bc-banner-text', text }), detail ? el('div', { class: 'bc-banner-detail', text: detail }) : null);
    banner.className = `bc-banner kind-${kind}`;
    banner.dataset.kind = kind;
    banner.style.borderColor = colour || '';
  }

  function hideBanner() {
    banner.className = 'bc-banner hidden';
    delete banner.dataset.kind;
  }

  function bannerOf(highlight, colourOf) {
    switch (highlight.kind) {
      case 'all_in': return [`ALL-IN · ${highlight.player}`, `${highlight.amount} chips in, hand ${highlight.hand}`, colourOf(highlight.player)];
      case 'big_pot': return [`BIG POT · ${highlight.pot}`, `hand ${highlight.hand}`, null];
      case 'banned': return [`BANNED · ${highlight.player}`, highlight.reason, colourOf(highlight.player)];
      case 'first_win': return [`First win for ${highlight.player}!`, 'their first game won today', colourOf(highlight.player)];
      case 'takes_lead': return [`${highlight.player} takes the lead`, 'top of the leaderboard after this game', colourOf(highlight.player)];
      default: return null;
    }
  }

  // How long an entry stays on screen at 1×.
  function entryPace(entry, previous) {
    switch (entry.type) {
      case undefined: case null: return PACE.handStart;
      case 'card_deal': {
        const before = previous ? previous.game_state.community_cards.length : 0;
        return entry.game_state.community_cards.length > before ? PACE.boardCard : PACE.holeCard;
      }
      case 'bet': return PACE.bet;
      case 'showdown': return PACE.showdown;
      case 'winner_announcement': return PACE.winner;
      default: return PACE.other;
    }
  }

  async function play(game, log, replay) {
    const entries = log.entries;
    const ids = new Map(game.standings.map((s) => [s.name, s.player_id]));
    const colourOf = (name) => teamColour(ids.get(name));
    const seats = Math.max(...entries.map((e) => e.game_state.players.length));
    const table = pokerTable(seats, { teamColour: (seat, player) => colourOf(player.name) });
    replace(stage, table.node);
    hideBanner();
    title.textContent = `${replay ? 'Replay · ' : ''}Game ${game.number} · round ${game.round}, table ${game.table}`;
    title.dataset.game = String(game.number);
    root.dataset.state = 'playing';
    root.dataset.game = String(game.number);
    // The game's own moments (first win, new leader) wait for its end; the others show on
    // their entry.
    const atEntry = new Map();
    const atEnd = [];
    for (const highlight of game.highlights) {
      if (highlight.kind === 'first_win' || highlight.kind === 'takes_lead') atEnd.push(highlight);
      else {
        if (!atEntry.has(highlight.entry)) atEntry.set(highlight.entry, []);
        atEntry.get(highlight.entry).push(highlight);
      }
    }
    const bans = log.bans || [];
    let skipped = 0;
    let last = null;
    for (let h = 0; h < game.hands.length; h++) {
      const hand = game.hands[h];
      if (skipQuiet && hand.quiet) {
        skipped += 1;
        continue;
      }
      for (let index = hand.first; index <= hand.last && index < entries.length; index++) {
        const entry = entries[index];
        table.draw(entry, { round: hand.round, banned: (name) => bans.find((b) => b.player === name && b.entry <= index) });
        const note = skipped ? ` (${skipped} quiet hand${skipped === 1 ? '' : 's'} skipped)` : '';
        message.textContent = entry.message || `Hand ${entry.game_state.round ?? hand.round} starts${note}.`;
        skipped = 0;
        const moments = atEntry.get(index) || [];
        await playFor(entryPace(entry, last));
        for (const highlight of moments) {
          const shownBanner = bannerOf(highlight, colourOf);
          if (!shownBanner) continue;
          showBanner(shownBanner[0], shownBanner[1], highlight.kind, shownBanner[2]);
          await playFor(BANNER_MS);
          hideBanner();
        }
        last = entry;
      }
    }
    const winner = game.standings.find((s) => s.place === 1);
    if (winner) {
      showBanner(`${winner.name} wins game ${game.number}`, game.standings.slice(1).map((s) => `${s.place}. ${s.name}${s.banned ? ' (banned)' : ''}`).join(' · '), 'winner', colourOf(winner.name));
      await playFor(BANNER_MS);
    }
    for (const highlight of atEnd) {
      const [text, detail, colour] = bannerOf(highlight, colourOf);
      showBanner(text, detail, highlight.kind, colour);
      await playFor(BANNER_MS);
    }
    await playFor(GAME_OVER_MS - BANNER_MS);
    hideBanner();
  }

  function waitingScreen(text) {
    root.dataset.state = 'waiting';
    title.textContent = 'Lean Poker';
    delete title.dataset.game;
    replace(stage, el('div', { class: 'bc-waiting', 'data-testid': 'waiting' },
      el('div', { class: 'bc-waiting-title', text: 'Waiting for the next game' }), el('div', { class: 'muted', text })));
    message.textContent = '';
  }

  // The next game to play: the director's best that this page has not shown, or (every
  // candidate shown) its best again as a replay. Waits while no game has ended.
  async function nextGame() {
    for (;;) {
      const answer = await persist(() => getJson('/api/event/broadcast'), (down) => { directorDown = down; });
      forEvent(answer.tournament_id);
      const fresh = answer.games.find((g) => !shown.games.includes(g.number));
      if (fresh) return { game: fresh, replay: false };
      if (answer.games.length) return { game: answer.games[0], replay: true };
      waitingScreen(answer.running
        ? `${answer.running} game${answer.running === 1 ? '' : 's'} being played; the first to end comes on screen.`
        : 'No game is being played right now.');
      await sleep(2000);
    }
  }

  async function broadcast() {
    for (;;) {
      const { game, replay } = await nextGame();
      markShown(game.number);
      let log;
      try {
        log = await getJson(`/api/runs/${encodeURIComponent(game.run)}/games/${encodeURIComponent(game.number)}/log`);
      } catch (error) {
        // Pruned or unreadable since the director looked: the next one.
        message.textContent = `Game ${game.number} cannot be shown (${error.message}); on to the next.`;
        await sleep(1000);
        continue;
      }
      if (!log.entries.length) {
        // Nothing to play (should not happen for an ended game): do not ask again at once.
        await sleep(1000);
        continue;
      }
      await play(game, log, replay);
    }
  }

  root.dataset.ready = 'true';
  refreshStandings();
  broadcast();
})();
