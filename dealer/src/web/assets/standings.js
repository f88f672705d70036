// The event's standings as both of its pages draw them: the event page (/event, event.js) and
// the broadcast (/broadcast, broadcast.js). A team's colour, its row in the leaderboard and its
// line in the points chart are made here only, so a team looks the same on every page and
// every projector. Names go on the page with textContent or as attribute values (common.js).
'use strict';

// Twelve hues far apart (no two yellows or two blues), bright on the pages' dark background.
const TEAM_PALETTE = ['#f5c542', '#4fc3f7', '#ff8a3d', '#66bb6a', '#e040fb', '#26a69a', '#ef5350',
  '#b0bec5', '#a1887f', '#d4e157', '#5c6bc0', '#ffffff'];
// A seat with no team (a house bot filling a table).
const NO_TEAM_COLOUR = '#5f6b78';

// A team's colour is a function of its player id, which the event's database gives once and
// keeps all day: the same on every page, after a reload and on a second projector, whatever
// the leaderboard's order. Past the palette, hues step by the golden angle so that
// neighbouring ids stay far apart.
function teamColour(id) {
  if (id === null || id === undefined) return NO_TEAM_COLOUR;
  const n = Number(id);
  if (Number.isInteger(n) && n >= 1 && n <= TEAM_PALETTE.length) return TEAM_PALETTE[n - 1];
  const k = Number.isInteger(n) && n > 0 ? n : 0;
  return `hsl(${Math.round((k * 137.508) % 360)}, 70%, ${k % 2 ? 62 : 72}%)`;
}

// A colour chip (CSSOM, not a style attribute: the pages' CSP refuses inline styles).
function teamSwatch(id) {
  const chip = el('span', { class: 'swatch', 'data-player': id });
  chip.style.backgroundColor = teamColour(id);
  return chip;
}

const clockTime = (ms) => (ms ? new Date(ms).toISOString().replace('T', ' ').slice(11, 19) : '–');

// The leaderboard's columns: a heading and a cell for player `p` at place `i` (0-based).
const LEADERBOARD_COLUMNS = {
  rank: ['#', (p, i) => el('td', { class: 'num', text: i + 1 })],
  team: ['Team', (p) => el('td', { class: 'team' }, teamSwatch(p.id), el('span', { class: 'name', 'data-testid': 'name', text: p.name, title: p.name }))],
  points: ['Points', (p) => el('td', { class: 'num strong', 'data-testid': 'points', text: p.points })],
  games: ['Games', (p) => el('td', { class: 'num', 'data-testid': 'games', text: p.games })],
  wins: ['Wins', (p) => el('td', { class: 'num', 'data-testid': 'wins', text: p.wins })],
  seconds: ['2nd', (p) => el('td', { class: 'num', text: p.seconds })],
  bans: ['Bans', (p) => el('td', { class: 'num', text: p.bans })],
  absences: ['Absent', (p) => el('td', { class: 'num', text: p.absences })],
  version: ['Version', (p) => el('td', { class: 'mono version', text: p.version || '–', title: p.version || '' })],
  status: ['Status', (p) => el('td', { class: 'state', text: p.status === 'paused' ? 'paused' : (p.up ? 'up' : `down: ${p.down_reason || ''}`) })],
  lastSeen: ['Last seen (UTC)', (p) => el('td', { text: clockTime(p.last_seen) })],
};

// The leaderboard (`/api/event/leaderboard`'s players, in order) as a table of `columns`.
function leaderboardTable(players, columns, attrs = {}) {
  const picked = columns.map((key) => LEADERBOARD_COLUMNS[key]);
  return el('table', { class: 'grid leaderboard event-table', 'data-testid': 'leaderboard', ...attrs },
    el('thead', {}, el('tr', {}, picked.map(([head]) => el('th', { text: head })))),
    el('tbody', {}, players.map((p, i) => el('tr', { class: p.up ? '' : 'bad', 'data-player': p.id },
      picked.map(([, cell]) => cell(p, i))))));
}

// Every team's points after each game (`/api/event/history`) as an SVG line chart with its
// legend, or a line of text before the first game ends. `size` is the drawing's width and
// height in its own units (the CSS scales it) and the room left of the axis for its labels.
function pointsChart(history, size = { width: 900, height: 300, left: 48 }) {
  const { width, height } = size;
  const pad = { left: size.left || 48, right: 12, top: 12, bottom: 28 };
  const count = history.games.length;
  if (count === 0) return [el('p', { class: 'muted', text: 'No game finished yet.' })];
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
      stroke: teamColour(s.id), class: 'series', 'data-player': s.id,
    }, svg('title', { text: `${s.name}: ${s.points[s.points.length - 1]}` }))));
  const legend = el('ul', { class: 'legend' }, history.series.map((s) => el('li', {},
    teamSwatch(s.id), el('span', { class: 'name', text: s.name, title: s.name }))));
  return [picture, legend];
}
