// The event's broadcast (/broadcast): a projector page that shows a room the race, forever,
// without anyone at the keyboard. The server's director (/api/event/broadcast) offers the ended
// games that matter to the race first (a change of leader, a team's first win), then the
// newest, and marks each game's decisive hands and highlights; this page plays the first one
// it has not shown, entry by entry at the chosen speed (only the decisive hands, unless told
// otherwise), shows a banner under the table on each highlight, then asks for the next game.
// Beside the table: the leader and the latest changes of leader, a team's new version once it
// has played enough to be judged better or worse than the one before (the event's verdict on
// points with the luck of the cards taken out, /api/event/versions), the leaderboard with each
// team's recent form and rating, and the points chart, all from standings.js in the teams'
// colours of the event page.
//
// The games' own pace is the organiser's (pause_ms); this page only replays what was played.
// Names are untrusted: everything goes on the page with textContent (common.js's el).
'use strict';

(() => {
  const root = document.getElementById('broadcast-root');
  const SPEEDS = [0.5, 1, 2, 4];
  const SPEED_KEY = 'lean-poker-broadcast-speed';
  const SKIP_KEY = 'lean-poker-broadcast-decisive-only';
  const SHOWN_KEY = 'lean-poker-broadcast-shown';
  const SHOWN_KEPT = 200;
  // How long each kind of entry stays on screen at 1×, in ms: long enough to read a bet from
  // the back of a room, short for a fold; the hole cards are dealt in one step, the flop's
  // first two cards and every showdown after the first go by quickly; a hand's moments take
  // two banners or so (see oneBannerEach). A decisive hand takes about 15 s.
  const PACE = { handStart: 700, holeCard: 0, holeCardsDealt: 600, boardCard: 900, boardCardMore: 300, bet: 750, fold: 350, showdown: 1200, showdownMore: 600, winner: 1300, other: 600 };
  const BANNER_MS = 2000;
  const GAME_OVER_MS = 4000;
  const LEAD_NEWS_MS = 20000;
  // How long a team's new version's verdict stays on screen.
  const VERSION_NEWS_MS = 30000;
  const VERSIONS_KEY = 'lean-poker-broadcast-versions';
  // How often every team's versions are asked for.
  const VERSIONS_MS = 30000;
  let versionsAt = 0;
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
  let decisiveOnly = localStorage.getItem(SKIP_KEY) !== 'false';
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
  const skipBox = el('input', { type: 'checkbox', 'data-testid': 'decisive-only' });
  skipBox.checked = decisiveOnly;
  skipBox.addEventListener('change', () => {
    decisiveOnly = skipBox.checked;
    localStorage.setItem(SKIP_KEY, String(decisiveOnly));
  });
  // A projector shows the page full screen; browsers allow it only from a click.
  const fullScreen = el('button', { type: 'button', 'data-testid': 'full-screen', text: 'Full screen',
    onclick: () => document.documentElement.requestFullscreen().catch(() => {}) });
  document.addEventListener('fullscreenchange', () => { fullScreen.hidden = Boolean(document.fullscreenElement); });
  const controls = el('div', { class: 'bc-controls' },
    el('label', {}, 'Speed ', speedSelect), el('label', { title: 'play only the hands that decided the game: the final one, the one that left the last two, bans, big pots' }, skipBox, ' decisive hands only'), fullScreen,
    el('a', { href: '/event', text: 'Event page' }));
  const stage = el('section', { class: 'bc-stage', 'data-testid': 'stage' });
  // The banner has a row of its own between the table and the narration, kept when empty so
  // that nothing moves when one shows; it never covers the narration or a seat.
  const banner = el('div', { class: 'bc-banner hidden', role: 'status', 'data-testid': 'banner' });
  const message = el('div', { class: 'bc-message-text' });
  const messageBox = el('div', { class: 'bc-message', 'data-testid': 'message' }, message);
  const leader = el('div', { class: 'bc-leader', 'data-testid': 'leader' });
  // A team's new version that has played enough to tell: BETTER or WORSE than the one before.
  const versionNews = el('div', { class: 'bc-version-news', role: 'status', 'data-testid': 'version-news', hidden: true });
  const board = el('div', { class: 'bc-board' });
  const chart = el('div', { class: 'bc-chart' });
  const side = el('aside', { class: 'bc-side' },
    leader, versionNews, el('h2', { text: 'Leaderboard' }), board, el('h2', { text: 'Points' }), chart);
  replace(root,
    el('header', { class: 'bc-head' }, title, connection, paused, controls),
    el('main', { class: 'bc-main' }, el('div', { class: 'bc-play' }, stage, el('div', { class: 'bc-banner-slot' }, banner), messageBox), side));

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

  // ---------- Leader, leaderboard and chart, refreshed on their own ----------
  let lastBoard = null;
  function drawBoard() {
    if (!lastBoard) return;
    const more = lastBoard.players.length - LEADERBOARD_ROWS;
    const columns = ['rank', 'team', 'points', 'form', 'rating'];
    replace(board, leaderboardTable(lastBoard, columns, {}, LEADERBOARD_ROWS),
      el('p', { class: 'muted bc-more', 'data-testid': 'form-note' },
        more > 0 ? `and ${more} more team${more === 1 ? '' : 's'} · ` : '', `Last ${lastBoard.form_games}: points in a team's last ${lastBoard.form_games} games`));
  }
  narrow.addEventListener('change', drawBoard);

  // The chart is drawn in the screen's pixels, its box measured, so that its labels are
  // 0.75rem whatever the window's shape (a drawing scaled to fit would shrink them).
  let lastHistory = null;
  function drawChart() {
    if (!lastHistory) return;
    const rem = parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;
    const legendRoom = rem * 1.6;
    const width = Math.max(200, chart.clientWidth);
    const height = Math.max(120, chart.clientHeight - legendRoom);
    replace(chart, pointsChart(lastHistory, { width, height, font: rem * 0.75, endLabels: true }));
  }
  window.addEventListener('resize', drawChart);

  // The leader and the latest changes of leader; a new one is news for a while.
  let knownChanges = null;
  let newsUntil = 0;
  function drawLeader(leaderboard, history) {
    const changes = history.lead_changes || [];
    const total = history.lead_changes_total || 0;
    if (knownChanges !== null && total > knownChanges) newsUntil = Date.now() + LEAD_NEWS_MS;
    knownChanges = total;
    const top = leaderboard.players[0];
    const latest = changes[changes.length - 1];
    const news = Date.now() < newsUntil;
    leader.classList.toggle('news', news);
    leader.dataset.news = String(news);
    if (!top || !top.points) {
      replace(leader, el('div', { class: 'muted', text: 'No points yet.' }));
      return;
    }
    const since = latest && latest.id === top.id ? `since game ${latest.game} · ` : '';
    const before = latest && latest.id === top.id ? changes[changes.length - 2] : latest;
    replace(leader,
      el('div', { class: 'bc-leader-now' }, news ? el('span', { class: 'bc-leader-new', text: 'NEW LEADER' }) : null,
        teamSwatch(top.id), el('span', { class: 'name', 'data-testid': 'leader-name', text: top.name }), ' leads'),
      el('div', { class: 'bc-lead-changes muted', 'data-testid': 'lead-changes' }, since,
        total ? `${total} change${total === 1 ? '' : 's'} of leader` : 'the lead has not changed yet',
        before ? [' · before: ', teamSwatch(before.id), el('span', { class: 'name', text: before.name || 'a removed team' }), ` (game ${before.game})`] : null));
  }

  // Each verdict is news once on this projector (kept across reloads): a team, its newest
  // version and what the comparison with the one before says. They show one at a time.
  let announced = [];
  try {
    const kept = JSON.parse(localStorage.getItem(VERSIONS_KEY) || '[]');
    if (Array.isArray(kept)) announced = kept.filter((key) => typeof key === 'string');
  } catch (error) { /* start afresh */ }
  const waitingNews = [];
  let versionNewsUntil = 0;
  function collectVersionNews(teams) {
    for (const team of teams) {
      const c = team.comparison;
      if (!c || (c.verdict !== 'better' && c.verdict !== 'worse')) continue;
      const key = `${team.player_id}\u001f${c.newest}\u001f${c.verdict}`;
      if (announced.includes(key) || waitingNews.some((news) => news.key === key)) continue;
      waitingNews.push({ key, id: team.player_id, name: team.name, comparison: c });
    }
  }
  function drawVersionNews() {
    if (Date.now() < versionNewsUntil) return;
    const next = waitingNews.shift();
    if (!next) {
      versionNews.hidden = true;
      return;
    }
    announced.push(next.key);
    while (announced.length > SHOWN_KEPT) announced.shift();
    localStorage.setItem(VERSIONS_KEY, JSON.stringify(announced));
    versionNewsUntil = Date.now() + VERSION_NEWS_MS;
    const c = next.comparison;
    versionNews.dataset.verdict = c.verdict;
    replace(versionNews,
      el('div', { class: 'bc-version-head' }, el('span', { class: 'bc-leader-new', text: 'NEW VERSION' }), teamSwatch(next.id),
        el('span', { class: 'name', text: next.name }), ` plays ${c.verdict === 'better' ? 'BETTER' : 'WORSE'}`),
      el('div', { class: 'bc-version-text', 'data-testid': 'version-news-text', text: c.summary }));
    versionNews.hidden = false;
  }

  async function refreshStandings() {
    for (;;) {
      // Verdicts change over dozens of games, and every team's versions are summed again
      // whenever a game ends: asked for every VERSIONS_MS, not at every refresh.
      const wantVersions = Date.now() - versionsAt >= VERSIONS_MS;
      const [leaderboard, history, versions] = await persist(
        () => Promise.all([getJson('/api/event/leaderboard'), getJson('/api/event/history?max_points=120'),
          wantVersions ? getJson('/api/event/versions') : Promise.resolve(null)]),
        (down) => { standingsDown = down; });
      if (versions) {
        versionsAt = Date.now();
        collectVersionNews(versions);
      }
      drawVersionNews();
      lastBoard = leaderboard;
      const pause = leaderboard.event && leaderboard.event.play_paused;
      // Short for the projector's header; the whole reason on hover.
      paused.textContent = pause ? `Play paused since ${clockTime(pause.since)}: short of disk space` : '';
      paused.title = pause ? pause.reason : '';
      drawBoard();
      drawLeader(leaderboard, history);
      lastHistory = history;
      drawChart();
      root.dataset.standings = 'true';
      await sleep(STANDINGS_MS);
    }
  }

  // ---------- Playing ----------
  // Waits `ms` of playing time at the current speed (a change of speed applies at once). Time
  // waited beyond `ms` (a timer fires late on a busy machine) is taken off the next wait, so a
  // game lasts what its pace says however many steps it has.
  let overshoot = 0;
  async function playFor(ms) {
    let done = Math.min(overshoot, ms);
    overshoot -= done;
    let last = performance.now();
    while (done < ms) {
      await sleep(Math.min(100, Math.max(10, (ms - done) / speed)));
      const now = performance.now();
      done += (now - last) * speed;
      last = now;
    }
    // At most a second carried: a page throttled in the background does not then race.
    overshoot = Math.min(1000, overshoot + done - ms);
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

  // A highlight's banner: its text, a detail line and the team colour of its border. Hands
  // are numbered from 1 on screen (the wire's `round` is from 0).
  function bannerOf(highlight, colourOf) {
    const hand = `hand ${highlight.hand + 1}`;
    switch (highlight.kind) {
      case 'all_in': return [`ALL-IN · ${highlight.player}`, `${highlight.amount} chips in and called, ${hand}`, colourOf(highlight.player)];
      case 'big_pot': return [`BIG POT · ${highlight.pot}`, `${highlight.times_usual}× this table's usual pot, ${hand}`, null];
      case 'knockout': {
        const detail = highlight.left <= 1 ? `the game is decided, ${hand}` : highlight.left === 2 ? 'the last two play for 5 and 3 points' : `${highlight.left} players left, ${hand}`;
        return [`OUT · ${highlight.player}`, detail, colourOf(highlight.player)];
      }
      case 'banned': return [`BANNED · ${highlight.player}`, highlight.reason, colourOf(highlight.player)];
      case 'first_win': return [`First win for ${highlight.player}!`, 'their first game won today', colourOf(highlight.player)];
      case 'takes_lead': return [`${highlight.player} takes the lead`, 'top of the leaderboard after this game', colourOf(highlight.player)];
      default: return null;
    }
  }

  // A hand's moments as few banners as say them: a big pot stands for the all-ins that made
  // it, the first all-in for the others, one banner names every player knocked out together.
  function oneBannerEach(highlights) {
    const bigPots = new Set(highlights.filter((h) => h.kind === 'big_pot').map((h) => h.hand));
    const allIns = new Set();
    const knockouts = new Map();
    const kept = [];
    for (const highlight of highlights) {
      if (highlight.kind === 'all_in') {
        if (bigPots.has(highlight.hand) || allIns.has(highlight.hand)) continue;
        allIns.add(highlight.hand);
      }
      if (highlight.kind === 'knockout') {
        const together = knockouts.get(highlight.hand);
        if (together) {
          together.player = `${together.player} & ${highlight.player}`;
          continue;
        }
        const merged = { ...highlight };
        knockouts.set(highlight.hand, merged);
        kept.push(merged);
        continue;
      }
      kept.push(highlight);
    }
    return kept;
  }

  // How long an entry stays on screen at 1×: the hole cards go round in one step (only the
  // last one dealt waits).
  function entryPace(entry, previous, next) {
    const sameKind = next && next.type === entry.type;
    const boardOf = (e) => e.game_state.community_cards.length;
    switch (entry.type) {
      case undefined: case null: return PACE.handStart;
      case 'card_deal': {
        const before = previous ? boardOf(previous) : 0;
        if (boardOf(entry) > before) return sameKind && boardOf(next) > boardOf(entry) && boardOf(entry) < 3 ? PACE.boardCardMore : PACE.boardCard;
        return sameKind && boardOf(next) === boardOf(entry) ? PACE.holeCard : PACE.holeCardsDealt;
      }
      case 'bet': return /\(fold\)|\bfolds\b/.test(entry.message || '') ? PACE.fold : PACE.bet;
      case 'showdown': return previous && previous.type === 'showdown' ? PACE.showdownMore : PACE.showdown;
      case 'winner_announcement': return PACE.winner;
      default: return PACE.other;
    }
  }

  // Why the director picked the game, said beside its number.
  const PICKED = { lead_change: 'lead change', first_win: 'first win', newest: '' };

  // Plays `game` from its `log`; `lastHand()` is called as its last hand to play starts.
  async function play(game, log, replay, lastHand = () => {}) {
    const entries = log.entries;
    const ids = new Map(game.standings.map((s) => [s.name, s.player_id]));
    const colourOf = (name) => teamColour(ids.get(name));
    const seats = Math.max(...entries.map((e) => e.game_state.players.length));
    const table = pokerTable(seats, { teamColour: (seat, player) => colourOf(player.name) });
    replace(stage, table.node);
    hideBanner();
    replace(title, `Game ${game.number}`,
      replay ? el('span', { class: 'bc-tag', text: 'replay' }) : null,
      PICKED[game.pick] ? el('span', { class: `bc-tag pick-${game.pick}`, 'data-testid': 'pick', text: PICKED[game.pick] }) : null,
      el('span', { class: 'bc-where', text: ` round ${game.round} · table ${game.table}` }));
    root.dataset.pick = game.pick;
    title.dataset.game = String(game.number);
    root.dataset.state = 'playing';
    root.dataset.game = String(game.number);
    // The game's own moments (first win, new leader) wait for its end; the others show on
    // their entry.
    const atEntry = new Map();
    const atEnd = [];
    for (const highlight of oneBannerEach(game.highlights)) {
      if (highlight.kind === 'first_win' || highlight.kind === 'takes_lead') atEnd.push(highlight);
      else {
        if (!atEntry.has(highlight.entry)) atEntry.set(highlight.entry, []);
        atEntry.get(highlight.entry).push(highlight);
      }
    }
    const bans = log.bans || [];
    let skipped = 0;
    let last = null;
    root.dataset.handsPlayed = '';
    const toPlay = (hand) => !decisiveOnly || hand.shown;
    const finalHand = game.hands.map(toPlay).lastIndexOf(true);
    for (let h = 0; h < game.hands.length; h++) {
      const hand = game.hands[h];
      if (!toPlay(hand)) {
        skipped += 1;
        continue;
      }
      if (h === finalHand) lastHand();
      root.dataset.handsPlayed += `${root.dataset.handsPlayed ? ',' : ''}${hand.round}`;
      for (let index = hand.first; index <= hand.last && index < entries.length; index++) {
        const entry = entries[index];
        table.draw(entry, { round: hand.round, banned: (name) => bans.find((b) => b.player === name && b.entry <= index) });
        const note = skipped ? ` (${skipped} hand${skipped === 1 ? '' : 's'} skipped)` : '';
        message.textContent = entry.message || `Hand ${(entry.game_state.round ?? hand.round) + 1} of ${game.hands.length} starts${note}.`;
        skipped = 0;
        await playFor(entryPace(entry, last, entries[index + 1]));
        for (const highlight of atEntry.get(index) || []) {
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
  // Fetched ahead (`ahead`: while a game is still on screen), it does not wait: `null` when
  // there is nothing to play yet.
  async function nextGame(ahead = false) {
    for (;;) {
      const answer = await persist(() => getJson('/api/event/broadcast'), (down) => { directorDown = down; });
      forEvent(answer.tournament_id);
      const fresh = answer.games.find((g) => !shown.games.includes(g.number));
      if (fresh) return { game: fresh, replay: false };
      if (answer.games.length) return { game: answer.games[0], replay: true };
      if (ahead) return null;
      waitingScreen(answer.running
        ? `${answer.running} game${answer.running === 1 ? '' : 's'} being played; the first to end comes on screen.`
        : 'No game is being played right now.');
      await sleep(2000);
    }
  }

  // The next game with its log (or why the log cannot be had).
  async function fetchNext(ahead = false) {
    const next = await nextGame(ahead);
    if (!next) return null;
    try {
      next.log = await getJson(`/api/runs/${encodeURIComponent(next.game.run)}/games/${encodeURIComponent(next.game.number)}/log`);
    } catch (error) {
      next.failure = error;
    }
    return next;
  }

  async function broadcast() {
    // The next game is fetched while the last hand of the one on screen plays, so the room
    // never waits for a log to download.
    let upcoming = null;
    for (;;) {
      const next = (upcoming && (await upcoming)) || (await fetchNext());
      upcoming = null;
      const { game, replay, log, failure } = next;
      markShown(game.number);
      if (failure) {
        // Pruned or unreadable since the director looked: the next one.
        message.textContent = `Game ${game.number} cannot be shown (${failure.message}); on to the next.`;
        await sleep(1000);
        continue;
      }
      if (!log.entries.length) {
        // Nothing to play (should not happen for an ended game): do not ask again at once.
        await sleep(1000);
        continue;
      }
      await play(game, log, replay, () => { upcoming = fetchNext(true); });
    }
  }

  root.dataset.ready = 'true';
  refreshStandings();
  broadcast();
})();
