// Lean Poker live event page (/event): the leaderboard (refreshed without reload), a chart of
// every team's points over the event, the players with their status, the games (running and
// ended, linking to the viewer's table view) and the organiser's buttons; a team's name opens
// its own view (#/team/ID): its points by version, raw and with the luck of the cards taken
// out, its newest version against the one before, and the hands to look at. On the viewer's
// page (/) it only adds a link to /event when the server runs an event.
//
// Team names, versions and reasons are untrusted: everything goes on the page with
// textContent or as an attribute value, never as HTML.
'use strict';

(() => {
  const REFRESH_MS = 2000;
  // A screen as narrow as event.css's narrow layout pairs some columns.
  const narrow = window.matchMedia('(max-width: 1200px)');
  const TOKEN_KEY = 'lean-poker-organiser-token';
  const root = document.getElementById('event-root');

  // el, svg, replace, alertBox and getJson are in common.js, loaded first.

  // ---------- On the viewer's page: a link to the event ----------
  if (!root) {
    getJson('/api/mode').then((mode) => {
      if (!mode || mode.event !== true) return;
      const top = document.querySelector('header.top');
      if (top) top.append(el('a', { class: 'event-link', href: '/event', 'data-testid': 'event-link', text: 'Event leaderboard' }));
    }).catch(() => {});
    return;
  }

  // ---------- The event page ----------
  // teamColour, teamSwatch, leaderboardTable and pointsChart are in standings.js, loaded
  // first: the broadcast (/broadcast) draws the same colours, rows and lines.
  const gameHref = (run, number) => `/#/run/${encodeURIComponent(run)}/game/${encodeURIComponent(number)}`;
  // The viewer's table at one hand, numbered from 1 as it shows them (`round` is from 0).
  const handHref = (run, number, round) => `${gameHref(run, number)}/hand/${round + 1}`;

  const banner = el('div', { 'data-testid': 'event-status' });
  const board = el('section', { class: 'event-board' });
  const chart = el('section', { class: 'event-chart' });
  const games = el('section', { class: 'event-games' });
  const organiser = el('section', { class: 'event-organiser' });
  const organiserTitle = el('h2', { text: 'Organiser' });
  // The event as a whole, or one team's own view (#/team/ID), reached from its leaderboard row.
  const overview = el('div', { 'data-testid': 'overview' },
    el('h1', { text: 'Leaderboard' }), banner, board,
    el('h2', { text: 'Points over the event' }), chart,
    el('h2', { text: 'Games' }), games,
    organiserTitle, organiser);
  const teamView = el('section', { class: 'team-view', 'data-testid': 'team-view' });
  replace(root, overview, teamView);
  const teamHref = (p) => `#/team/${encodeURIComponent(p.id)}`;
  const shownTeam = () => {
    const match = /^#\/team\/(\d+)$/.exec(location.hash);
    return match ? Number(match[1]) : null;
  };
  function showRoute() {
    const team = shownTeam();
    overview.hidden = team !== null;
    teamView.hidden = team === null;
    if (team === null) document.title = 'Lean Poker event';
  }

  function renderBoard(data) {
    const status = data.event;
    replace(banner,
      status.storage_error
        ? el('div', { class: 'alert', role: 'alert', 'data-testid': 'storage-error', text: `Games cannot be recorded: ${status.storage_error}` })
        : null,
      status.play_paused
        ? el('div', { class: 'alert', role: 'alert', 'data-testid': 'play-paused', text: `Play paused since ${clockTime(status.play_paused.since)}: ${status.play_paused.reason}` })
        : null,
      !status.play_paused && status.play_resumed
        ? el('p', { class: 'muted', 'data-testid': 'play-resumed', text: `Play resumed at ${clockTime(status.play_resumed.resumed_at)} after a pause from ${clockTime(status.play_resumed.paused_at)} (${status.play_resumed.reason}).` })
        : null,
      el('p', { class: 'muted', text: `${status.games_finished} games finished · tables of up to ${status.table_size} · seed ${status.seed}` }),
      status.disk_budget ? diskBudgetNote(status.disk_budget) : null,
      status.read_only
        ? el('p', { class: 'muted', 'data-testid': 'read-only', text: 'Read-only: the standings as the event\'s database has them (dealer serve --out); no games are played here.' })
        : null);
    // Served read-only, nothing can be changed: no organiser controls to try.
    organiserTitle.hidden = organiser.hidden = Boolean(status.read_only);
    const columns = narrow.matches
      ? ['rank', 'team', 'points', 'form', 'rating', 'games', 'winsSeconds', 'bansAbsences', 'version', 'status', 'lastSeen']
      : ['rank', 'team', 'points', 'form', 'rating', 'games', 'wins', 'seconds', 'bans', 'absences', 'version', 'status', 'lastSeen'];
    replace(board, leaderboardTable(data, columns, {}, data.players.length, teamHref),
    el('p', { class: 'muted legend-note', 'data-testid': 'form-note', text: `Last ${data.form_games}: points in the team's last ${data.form_games} games, the best in bold: who is climbing now. Rating: the team's skill as the rating model reads every game's finishing order. Times are this computer's.` }));
  }

  const diskSize = (bytes) => (bytes >= 1e9 ? `${(bytes / 1e9).toFixed(2)} GB` : `${(bytes / 1e6).toFixed(1)} MB`);

  // The disk budget, and whether it had to make recent games' files smaller than
  // compress_after alone would have (the games then open from their records).
  function diskBudgetNote(disk) {
    const used = disk.usage == null ? '' : `${diskSize(disk.usage)} of `;
    const forced = [];
    if (disk.compressed_early) forced.push(`compressed ${disk.compressed_early} games early`);
    if (disk.dropped_early) forced.push(`deleted the files of ${disk.dropped_early} recent games (they open from their records)`);
    return el('p', { class: 'muted', 'data-testid': 'disk-budget',
      text: `Disk: ${used}the ${diskSize(disk.budget)} budget, ${diskSize(disk.in_play_allowance)} held for the games in play`
        + (forced.length ? `; the budget ${forced.join(' and ')}.` : '.') });
  }

  function renderChart(history) {
    replace(chart, pointsChart(history));
  }

  function gameRow(game) {
    const who = game.standings.length
      ? game.standings.map((s) => `${s.place}. ${s.name}${s.banned ? ' (banned)' : ''}${s.absent ? ' (absent)' : ''}`).join(' · ')
      : game.players.join(' · ');
    return el('tr', { class: game.state === 'abandoned' ? 'bad' : '' },
      el('td', {}, game.files === 'pruned' && !game.has_record
        ? el('span', { 'data-testid': 'log-pruned', title: 'its folder was deleted; its points stay', text: `game ${game.number} (log pruned)` })
        : el('a', { href: gameHref(game.run, game.number), text: `game ${game.number}`, title: game.files === 'pruned' ? 'its files are regenerated from its record when opened' : '' })),
      el('td', { class: 'num', text: `${game.round}/${game.table}` }),
      el('td', { text: game.state === 'abandoned' ? `abandoned: ${game.reason || ''}`
        : game.files === 'incomplete' ? `${game.state} (files cut by a full disk: shown from its record)` : game.state }),
      el('td', { class: 'num', text: game.hands == null ? '–' : game.hands }),
      el('td', { class: 'name', text: who }),
      el('td', { text: clockTime(game.ended_at || game.started_at) }));
  }

  // Which page of ended games is shown (1: the newest); kept across refreshes.
  let gamesPage = 1;
  const GAMES_PER_PAGE = 20;

  function renderGames(page) {
    const head = el('thead', {}, el('tr', {}, ['Game', 'Round/table', 'State', 'Hands', 'Players (places)', 'Time'].map((h) => el('th', { text: h }))));
    const first = (page.page - 1) * page.per_page + 1;
    const last = first + page.games.length - 1;
    const shown = page.games.length ? `ended ${first}–${last} of ${page.total}, newest first` : `${page.total} ended`;
    const go = (to) => () => { gamesPage = to; refresh(); };
    const newer = el('button', { type: 'button', text: '← Newer', 'data-testid': 'games-newer', onclick: go(Math.max(1, page.page - 1)) });
    newer.disabled = page.page <= 1;
    const older = el('button', { type: 'button', text: 'Older →', 'data-testid': 'games-older', onclick: go(page.page + 1) });
    older.disabled = page.page * page.per_page >= page.total;
    replace(games,
      el('table', { class: 'grid', 'data-testid': 'games' }, head,
        el('tbody', {}, page.page === 1 ? page.running.map(gameRow) : [], page.games.map(gameRow))),
      el('p', { class: 'muted controls', 'data-testid': 'games-paging' }, `${page.running.length} running · ${shown} `, newer, ' ', older));
  }

  // ---------- Organiser ----------
  const tokenInput = el('input', { type: 'password', placeholder: 'organiser token', autocomplete: 'off', 'data-testid': 'token' });
  tokenInput.value = sessionStorage.getItem(TOKEN_KEY) || '';
  tokenInput.addEventListener('change', () => sessionStorage.setItem(TOKEN_KEY, tokenInput.value));
  const message = el('p', { class: 'muted', role: 'status', 'data-testid': 'organiser-message' });
  const nameInput = el('input', { placeholder: 'team name', 'data-testid': 'new-name' });
  const urlInput = el('input', { placeholder: 'http://10.0.0.5:8080/ or bot:raiser', size: 34, 'data-testid': 'new-url' });
  const playerList = el('div');

  async function organise(method, path, body) {
    const response = await fetch(path, {
      method,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${tokenInput.value}` },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const answer = await response.json().catch(() => ({}));
    message.textContent = response.ok ? 'Done.' : `Refused (${response.status}): ${answer.error || ''}`;
    refresh();
    return response.ok;
  }

  async function addPlayer(event) {
    event.preventDefault();
    const target = urlInput.value.trim();
    const body = target.startsWith('bot:') ? { name: nameInput.value, bot: target.slice(4) } : { name: nameInput.value, url: target };
    // Cleared once the team is in, so the next team starts from an empty form; kept on a
    // refusal, so a typo can be fixed.
    if (await organise('POST', '/api/event/players', body)) {
      nameInput.value = '';
      urlInput.value = '';
    }
  }

  function renderPlayers(players) {
    const rows = players.map((p) => {
      if (p.status === 'removed') {
        // Off the leaderboard, but one click brings the team back as itself (its games,
        // points and colour); adding its name again does the same at a new address.
        return el('tr', { class: 'removed', 'data-testid': 'removed-player' },
          el('td', { class: 'name', text: p.name, title: p.name }),
          el('td', { class: 'mono', text: p.address }),
          el('td', { text: p.status }),
          el('td', {}, el('button', { type: 'button', text: 'Bring back', onclick: () => organise('PATCH', `/api/event/players/${p.id}`, { status: 'active' }) })));
      }
      const rename = el('input', { value: p.name, 'aria-label': `new name for ${p.name}` });
      return el('tr', {},
        el('td', { class: 'name', text: p.name, title: p.name }),
        el('td', { class: 'mono', text: p.address }),
        el('td', { text: p.status }),
        el('td', {},
          el('button', { type: 'button', text: p.status === 'paused' ? 'Resume' : 'Pause', onclick: () => organise('PATCH', `/api/event/players/${p.id}`, { status: p.status === 'paused' ? 'active' : 'paused' }) }),
          ' ', rename,
          el('button', { type: 'button', text: 'Rename', onclick: () => organise('PATCH', `/api/event/players/${p.id}`, { name: rename.value }) }),
          ' ',
          el('button', { type: 'button', class: 'danger', text: 'Remove', onclick: () => { if (confirm(`Remove ${p.name}?`)) organise('DELETE', `/api/event/players/${p.id}`); } })));
    });
    replace(playerList, el('table', { class: 'grid', 'data-testid': 'players' },
      el('thead', {}, el('tr', {}, ['Team', 'Address', 'Status', ''].map((h) => el('th', { text: h })))),
      el('tbody', {}, rows)));
  }

  replace(organiser,
    el('div', { class: 'controls' }, el('label', {}, 'Token ', tokenInput)),
    el('form', { class: 'controls', onsubmit: addPlayer }, nameInput, urlInput, el('button', { type: 'submit', text: 'Add player' })),
    message, playerList);

  // ---------- A team's own view ----------
  const pointsText = (interval) => (interval == null ? '–'
    : `${interval.mean.toFixed(2)} ± ${interval.half_width == null ? '?' : interval.half_width.toFixed(2)}`);
  const VERDICT_CLASS = { better: 'better', worse: 'worse', cant_tell_yet: 'undecided' };

  function versionRow(v) {
    const notes = [];
    if (v.waiting) notes.push(`${v.waiting} still being valued`);
    if (v.counted_raw) notes.push(`${v.counted_raw} without a record count raw`);
    if (v.adjusted_games) notes.push(`luck weighed ${v.luck_coefficient.toFixed(2)}`);
    return el('tr', { 'data-testid': 'version-row', 'data-deploy': v.deploy },
      el('td', { class: 'mono version', 'data-testid': 'version-label', text: v.label, title: v.label }),
      el('td', { class: 'num', 'data-testid': 'version-games', text: v.games }),
      el('td', { class: 'num', text: v.first_game === v.last_game ? `${v.first_game}` : `${v.first_game}–${v.last_game}` }),
      el('td', { class: 'num', text: `${v.wins} / ${v.bans}` }),
      el('td', { class: 'num', 'data-testid': 'version-points', text: pointsText(v.points) }),
      el('td', { class: 'num strong', 'data-testid': 'version-adjusted', text: pointsText(v.adjusted) }),
      el('td', { class: 'num', 'data-testid': 'version-luck', text: `${v.luck >= 0 ? '+' : ''}${v.luck.toFixed(2)}` }),
      el('td', { class: 'note', text: notes.join('; ') }));
  }

  function verdictLine(view) {
    const c = view.comparison;
    if (c) {
      return el('p', { class: `verdict ${VERDICT_CLASS[c.verdict] || ''}`, 'data-testid': 'team-verdict', 'data-verdict': c.verdict, text: c.summary });
    }
    const versions = view.versions;
    const text = versions.length === 0 ? 'No game finished yet.'
      : versions.length === 1 ? `One version so far (${versions[0].label}): the next one will be compared with it.`
        : `${versions[0].label} against ${versions[1].label}: waiting for their games' luck to be valued.`;
    return el('p', { class: 'verdict undecided', 'data-testid': 'team-verdict', 'data-verdict': 'none', text });
  }

  // ---------- Its hands to look at ----------
  const SUIT_SIGNS = { s: '♠', h: '♥', d: '♦', c: '♣' };
  const cardsOf = (text) => (text || '').split(' ').filter(Boolean)
    .map((card) => `${card.slice(0, -1)}${SUIT_SIGNS[card.slice(-1)] || card.slice(-1)}`).join(' ');
  const handLink = (n) => el('a', { href: handHref(n.run, n.game, n.round), 'data-testid': 'hand-link', text: `game ${n.game}, hand ${n.round + 1}` });

  // The dealer's words for its readings (the API says `allin`).
  const actionWord = (action) => (action === 'allin' ? 'all-in' : action);
  function decisionText(n) {
    if (!n.street) return 'not asked';
    const answer = n.answer == null ? 'no valid answer' : `answered ${n.answer}`;
    const read = n.action === 'fold' || n.action === 'check' ? n.action : `${actionWord(n.action)} ${n.put_in}`;
    return `${n.street}: price ${n.price}, pot ${n.pot}; ${answer} → ${read}`;
  }

  const ANSWER_KINDS = { misread: 'read differently', forgiven: 'forgiven', timeout: 'timeout', banned: 'banned' };
  function answerItem(n) {
    const what = n.kind === 'misread' ? `answered ${n.answer}, read as ${actionWord(n.action)}${n.put_in ? ` ${n.put_in}` : ''} (${n.street}, price ${n.price})`
      : `${n.reason || 'no reason'}${n.kind === 'banned' ? '' : `, counted as ${actionWord(n.action)}`}`;
    return el('li', { 'data-testid': 'hand-answer', 'data-kind': n.kind }, handLink(n), ` · ${ANSWER_KINDS[n.kind] || n.kind}: ${what}`);
  }

  function handsSection(view) {
    const hands = view.hands;
    if (!hands) return [];
    const rows = hands.costly.map((n) => el('tr', { 'data-testid': 'hand-row' },
      el('td', {}, handLink(n)),
      el('td', { class: 'cards mono', text: cardsOf(n.hole) }),
      el('td', { class: 'cards mono', text: cardsOf(n.board) || '–' }),
      el('td', { class: 'decisions', text: decisionText(n) }),
      el('td', { class: 'num cost', 'data-testid': 'hand-cost', text: n.cost == null ? '–' : n.cost.toFixed(2) })));
    const counts = Object.entries(hands.answer_counts).map(([kind, count]) => `${count} ${ANSWER_KINDS[kind] || kind}`);
    return [
      el('h2', { text: `Hands to look at (${hands.version})` }),
      rows.length
        ? el('div', { class: 'table-box' }, el('table', { class: 'grid event-table hands', 'data-testid': 'team-hands' },
          el('thead', {}, el('tr', {}, ['Game, hand', 'Cards', 'Board', 'Biggest decision', 'Cost (points)'].map((h) => el('th', { text: h })))),
          el('tbody', {}, rows)))
        : el('p', { class: 'muted', 'data-testid': 'team-hands-none', text: 'No costly hand valued yet.' }),
      el('p', { class: 'muted legend-note', text: 'The hands this version lost the most in, with the luck of the cards taken out: its tournament points (ICM of the stacks) before the hand less after it, plus what the cards gave it in the hand. Its biggest decision: the answer with the most chips at stake, the price to call and the pot before it, what it answered and how the dealer read it. A link opens the table at that hand.' }),
      el('h3', { text: 'Answers read differently, timeouts and bans' }),
      counts.length ? el('p', { 'data-testid': 'hand-answer-counts', text: `In all: ${counts.join(', ')}. The newest:` })
        : el('p', { class: 'muted', 'data-testid': 'hand-answer-counts', text: 'None: every answer was read as it says.' }),
      el('ul', { class: 'hand-answers', 'data-testid': 'hand-answers' }, hands.answers.map(answerItem)),
    ];
  }

  // ---------- The arena against this event ----------
  // `cargo arena --field-from` this event's address, this team left out by name: the command a
  // team copies to play its bot against profiles of the other teams' newest versions. Hidden,
  // with why, when the organiser turned the event's hand histories off (read once a page).
  let handHistoriesServed = null;
  function arenaSection(view) {
    const plain = /^[A-Za-z0-9._-]+$/.test(view.name);
    const me = plain ? view.name : `'${view.name.replace(/'/g, "'\\''")}'`;
    const command = `cargo arena --field-from ${location.origin}/ --me ${me}`;
    const section = el('section', { class: 'arena-command', 'data-testid': 'arena-section' });
    const fill = () => {
      if (handHistoriesServed === false) {
        replace(section, el('h2', { text: 'Your bot against this event' }),
          el('p', { class: 'muted', 'data-testid': 'arena-off', text: 'The organiser turned this event\'s hand histories off, so cargo arena cannot fit its teams.' }));
        return;
      }
      replace(section, el('h2', { text: 'Your bot against this event' }),
        el('pre', { class: 'command mono', 'data-testid': 'arena-command', text: command }),
        el('p', { class: 'muted legend-note', text: 'Run it in your repository: cargo arena fetches this event\'s games (the next run only the newer ones), fits one profile a team from its newest version, leaves your team out and plays your bot against them.' }));
    };
    fill();
    if (handHistoriesServed === null) {
      getJson('/api/event').then((status) => {
        handHistoriesServed = status.hand_histories !== false;
        fill();
      }).catch(() => {});
    }
    return section;
  }

  function renderTeam(view) {
    document.title = `${view.name} · Lean Poker event`;
    replace(teamView,
      el('p', {}, el('a', { href: '#/', 'data-testid': 'back-to-leaderboard', text: '← Leaderboard' })),
      el('h1', { class: 'team-title' }, teamSwatch(view.player_id), el('span', { class: 'name', 'data-testid': 'team-name', text: view.name })),
      verdictLine(view),
      el('h2', { text: 'Points by version' }),
      el('div', { class: 'table-box' }, el('table', { class: 'grid event-table versions', 'data-testid': 'team-versions' },
        el('thead', {}, el('tr', {}, ['Version', 'Games', 'Game numbers', 'Wins / bans', 'Points a game', 'Luck taken out', 'Luck of the cards', ''].map((h) => el('th', { text: h })))),
        el('tbody', {}, view.versions.map(versionRow)))),
      el('p', { class: 'muted legend-note', 'data-testid': 'versions-note', text: 'Newest first. Points a game with their 95% interval. Luck taken out: each game\'s points less what its cards gave the team beyond their expectation (a correction of zero mean, so the figure keeps its expectation and loses most of the cards\' noise); the verdict compares the newest version with the one before on it, at 95% confidence, so it is wrong about one time in twenty when the versions are equal. Versions play different games against opponents that change too. Luck of the cards: its sum over the version\'s games, in points; the share of it taken out (luck weighed) is fitted to the version\'s own games, less than 1 for a style whose points follow its chips less than the cards\' value says. A version is a version string and a deploy: when the player comes back after being down (a failed check, a game it missed or was banned from because nothing answered) or after being removed, its next games are a new version, named by its first game when the string did not change.' }),
      handsSection(view),
      arenaSection(view));
  }

  async function refreshTeam(id) {
    try {
      const view = await getJson(`/api/event/teams/${encodeURIComponent(id)}`);
      if (shownTeam() === id) renderTeam(view);
    } catch (error) {
      if (shownTeam() === id) replace(teamView, el('p', {}, el('a', { href: '#/', text: '← Leaderboard' })), alertBox(`This team cannot be shown: ${error.message}`));
    }
    root.dataset.ready = 'true';
  }

  // ---------- Refresh ----------
  let busy = false;
  // A refresh asked for while one runs (a click to another view) runs right after it.
  let again = false;
  async function refresh() {
    if (busy) {
      again = true;
      return;
    }
    busy = true;
    showRoute();
    const team = shownTeam();
    if (team !== null) {
      try {
        await refreshTeam(team);
      } finally {
        busy = false;
      }
      if (again) {
        again = false;
        refresh();
      }
      return;
    }
    try {
      const [leaderboard, history, page, players] = await Promise.all([
        getJson('/api/event/leaderboard'), getJson('/api/event/history'),
        getJson(`/api/event/games?per_page=${GAMES_PER_PAGE}&page=${gamesPage}`), getJson('/api/event/players')]);
      renderBoard(leaderboard);
      renderChart(history);
      renderGames(page);
      // Keep what the organiser is typing: redraw the player list only when not editing it.
      const editing = document.activeElement && document.activeElement.tagName === 'INPUT' && playerList.contains(document.activeElement);
      if (!editing) renderPlayers(players);
      root.dataset.ready = 'true';
    } catch (error) {
      replace(banner, alertBox(`The event server does not answer: ${error.message}`));
    } finally {
      busy = false;
    }
    if (again) {
      again = false;
      refresh();
    }
  }
  window.addEventListener('hashchange', () => {
    root.dataset.ready = 'false';
    replace(teamView);
    refresh();
  });
  refresh();
  setInterval(refresh, REFRESH_MS);
})();
