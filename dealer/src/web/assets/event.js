// Lean Poker live event page (/event): the leaderboard (refreshed without reload), a chart of
// every team's points over the event, the players with their status, the games (running and
// ended, linking to the viewer's table view) and the organiser's buttons. On the viewer's page
// (/) it only adds a link to /event when the server runs an event.
//
// Team names, versions and reasons are untrusted: everything goes on the page with
// textContent or as an attribute value, never as HTML.
'use strict';

(() => {
  const REFRESH_MS = 2000;
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
  // Twelve hues far apart (no two yellows or two blues), bright on the page's dark background.
  const PALETTE = ['#f5c542', '#4fc3f7', '#ff8a3d', '#66bb6a', '#e040fb', '#26a69a', '#ef5350',
    '#b0bec5', '#a1887f', '#d4e157', '#5c6bc0', '#ffffff'];
  const gameHref = (run, number) => `/#/run/${encodeURIComponent(run)}/game/${encodeURIComponent(number)}`;
  const when = (ms) => (ms ? new Date(ms).toISOString().replace('T', ' ').slice(11, 19) : '–');

  const banner = el('div', { 'data-testid': 'event-status' });
  const board = el('section', { class: 'event-board' });
  const chart = el('section', { class: 'event-chart' });
  const games = el('section', { class: 'event-games' });
  const organiser = el('section', { class: 'event-organiser' });
  const organiserTitle = el('h2', { text: 'Organiser' });
  replace(root,
    el('h1', { text: 'Leaderboard' }), banner, board,
    el('h2', { text: 'Points over the event' }), chart,
    el('h2', { text: 'Games' }), games,
    organiserTitle, organiser);

  // A team's colour is a function of its player id, which the event's database gives once
  // and keeps all day: the same on every page, after a reload and on a second projector,
  // whatever the leaderboard's order. Past the palette, hues step by the golden angle so
  // that neighbouring ids stay far apart.
  function colour(id) {
    const n = Number(id);
    if (Number.isInteger(n) && n >= 1 && n <= PALETTE.length) return PALETTE[n - 1];
    const k = Number.isInteger(n) && n > 0 ? n : 0;
    return `hsl(${Math.round((k * 137.508) % 360)}, 70%, ${k % 2 ? 62 : 72}%)`;
  }

  // A colour chip (CSSOM, not a style attribute: the page's CSP refuses inline styles).
  function swatch(id) {
    const chip = el('span', { class: 'swatch' });
    chip.style.backgroundColor = colour(id);
    return chip;
  }

  function renderBoard(data) {
    const status = data.event;
    replace(banner,
      status.storage_error
        ? el('div', { class: 'alert', role: 'alert', 'data-testid': 'storage-error', text: `Games cannot be recorded: ${status.storage_error}` })
        : null,
      el('p', { class: 'muted', text: `${status.games_finished} games finished · tables of up to ${status.table_size} · seed ${status.seed}` }),
      status.read_only
        ? el('p', { class: 'muted', 'data-testid': 'read-only', text: 'Read-only: the standings as the event\'s database has them (dealer serve --out); no games are played here.' })
        : null);
    // Served read-only, nothing can be changed: no organiser controls to try.
    organiserTitle.hidden = organiser.hidden = Boolean(status.read_only);
    const rows = data.players.map((p, i) => el('tr', { class: p.up ? '' : 'bad', 'data-player': p.id },
      el('td', { class: 'num', text: i + 1 }),
      el('td', {}, swatch(p.id), el('span', { class: 'name', 'data-testid': 'name', text: p.name, title: p.name })),
      el('td', { class: 'num strong', 'data-testid': 'points', text: p.points }),
      el('td', { class: 'num', 'data-testid': 'games', text: p.games }),
      el('td', { class: 'num', text: p.wins }),
      el('td', { class: 'num', text: p.seconds }),
      el('td', { class: 'num', text: p.bans }),
      el('td', { class: 'num', text: p.absences }),
      el('td', { class: 'mono version', text: p.version || '–', title: p.version || '' }),
      el('td', { class: 'state', text: p.status === 'paused' ? 'paused' : (p.up ? 'up' : `down: ${p.down_reason || ''}`) }),
      el('td', { text: when(p.last_seen) })));
    replace(board, el('table', { class: 'grid leaderboard event-table', 'data-testid': 'leaderboard' },
      el('thead', {}, el('tr', {}, ['#', 'Team', 'Points', 'Games', 'Wins', '2nd', 'Bans', 'Absent', 'Version', 'Status', 'Last seen (UTC)'].map((h) => el('th', { text: h })))),
      el('tbody', {}, rows)));
  }

  function renderChart(history) {
    const width = 900;
    const height = 300;
    const pad = { left: 48, right: 12, top: 12, bottom: 28 };
    const count = history.games.length;
    if (count === 0) {
      replace(chart, el('p', { class: 'muted', text: 'No game finished yet.' }));
      return;
    }
    const top = Math.max(1, ...history.series.flatMap((s) => s.points));
    const x = (i) => pad.left + (count === 1 ? 0 : (i / (count - 1)) * (width - pad.left - pad.right));
    const y = (v) => height - pad.bottom - (v / top) * (height - pad.top - pad.bottom);
    const picture = svg('svg', { viewBox: `0 0 ${width} ${height}`, class: 'points-chart', role: 'img', 'aria-label': 'Points of every team after each game', 'data-testid': 'chart' },
      svg('line', { x1: pad.left, y1: y(0), x2: width - pad.right, y2: y(0), class: 'axis' }),
      svg('line', { x1: pad.left, y1: pad.top, x2: pad.left, y2: y(0), class: 'axis' }),
      svg('text', { x: pad.left - 6, y: y(top) + 4, class: 'tick', 'text-anchor': 'end', text: top }),
      svg('text', { x: pad.left - 6, y: y(0), class: 'tick', 'text-anchor': 'end', text: 0 }),
      svg('text', { x: width - pad.right, y: height - 6, class: 'tick', 'text-anchor': 'end', text: `game ${history.games[count - 1]}` }),
      svg('text', { x: pad.left, y: height - 6, class: 'tick', text: `game ${history.games[0]}` }),
      history.series.map((s) => svg('polyline', {
        points: s.points.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' '),
        stroke: colour(s.id), class: 'series', 'data-player': s.id,
      }, svg('title', { text: `${s.name}: ${s.points[s.points.length - 1]}` }))));
    const legend = el('ul', { class: 'legend' }, history.series.map((s) => el('li', {},
      swatch(s.id), el('span', { text: s.name }))));
    replace(chart, picture, legend);
  }

  function gameRow(game) {
    const who = game.standings.length
      ? game.standings.map((s) => `${s.place}. ${s.name}${s.banned ? ' (banned)' : ''}${s.absent ? ' (absent)' : ''}`).join(' · ')
      : game.players.join(' · ');
    return el('tr', { class: game.state === 'abandoned' ? 'bad' : '' },
      el('td', {}, game.files === 'pruned'
        ? el('span', { 'data-testid': 'log-pruned', title: 'its folder was deleted (--keep-games); its points stay', text: `game ${game.number} (log pruned)` })
        : el('a', { href: gameHref(game.run, game.number), text: `game ${game.number}` })),
      el('td', { class: 'num', text: `${game.round}/${game.table}` }),
      el('td', { text: game.state === 'abandoned' ? `abandoned: ${game.reason || ''}` : game.state }),
      el('td', { class: 'num', text: game.hands == null ? '–' : game.hands }),
      el('td', { class: 'name', text: who }),
      el('td', { text: when(game.ended_at || game.started_at) }));
  }

  // Which page of ended games is shown (1: the newest); kept across refreshes.
  let gamesPage = 1;
  const GAMES_PER_PAGE = 20;

  function renderGames(page) {
    const head = el('thead', {}, el('tr', {}, ['Game', 'Round/table', 'State', 'Hands', 'Players (places)', 'Time (UTC)'].map((h) => el('th', { text: h }))));
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

  // ---------- Refresh ----------
  let busy = false;
  async function refresh() {
    if (busy) return;
    busy = true;
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
  }
  refresh();
  setInterval(refresh, REFRESH_MS);
})();
