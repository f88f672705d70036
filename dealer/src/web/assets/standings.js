// The event's standings as both of its pages draw them: the event page (/event, event.js) and
// the broadcast (/broadcast, broadcast.js). A team's colour, its row in the leaderboard and its
// line in the points chart are made here only, so a team looks the same on every page and
// every projector. Names go on the page with textContent or as attribute values (common.js).
'use strict';

// Twelve colours a projector tells apart, each with a name a room can say: yellow, blue, red,
// green, magenta, cyan, orange, lavender, white, olive, peach, grey. Every pair differs by at
// least 25 in CIEDE2000 (27.4 at the closest, magenta and lavender) and each stands out from
// the pages' dark backgrounds by a contrast of 4.5:1 or more (the browser test measures both).
// The first teams added get the most distinct ones.
const TEAM_PALETTE = ['#ffff0a', '#008cff', '#ff3f00', '#39e883', '#ff2097', '#2dc4cf', '#ffa511',
  '#cca4ff', '#fcfff6', '#849400', '#ffb8b2', '#898889'];
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

// A moment in the viewer's own time zone: the time of day, with the date when it is not today.
function clockTime(ms) {
  if (!ms) return '–';
  const when = new Date(ms);
  const time = when.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false });
  return when.toDateString() === new Date().toDateString() ? time : `${when.toLocaleDateString()} ${time}`;
}

// A team's recent form: its points in its last `form_games` games (fewer for a team that has
// played fewer, said so), from /api/event/leaderboard.
function formText(p) {
  if (!p.form || !p.form.games) return '–';
  return p.form.games < FORM_GAMES.count ? [String(p.form.points), el('span', { class: 'form-games', text: ` in ${p.form.games}` })] : String(p.form.points);
}
// How many games the form counts (the leaderboard's `form_games`; set by leaderboardTable).
const FORM_GAMES = { count: 100 };

// A team's rating (the event's rating model over every game it played) and its uncertainty.
const ratingText = (p) => (p.form && p.form.rating ? p.form.rating.rating.toFixed(1) : '–');
const ratingTitle = (p) => (p.form && p.form.rating ? `rating ${p.form.rating.rating.toFixed(2)} ± ${p.form.rating.uncertainty.toFixed(2)}` : '');

// A team's status as the page can know it. Served read-only (dealer serve --out), nothing
// checks the players: "up" would be a guess, so only what was recorded is said.
function statusText(p, readOnly) {
  if (p.status === 'paused') return 'paused';
  if (readOnly) return p.up ? '–' : `was down: ${p.down_reason || ''}`;
  return p.up ? 'up' : `down: ${p.down_reason || ''}`;
}

// The leaderboard's columns: a heading and a cell for player `p` at place `i` (0-based).
const LEADERBOARD_COLUMNS = {
  rank: ['#', (p, i) => el('td', { class: 'num', text: i + 1 })],
  // With `teamHref` (the event page), the name opens the team's own view.
  team: ['Team', (p, i, best, readOnly, teamHref) => el('td', { class: 'team' }, teamSwatch(p.id), teamHref
    ? el('a', { class: 'name', 'data-testid': 'name', href: teamHref(p), text: p.name, title: p.name, 'aria-label': `${p.name}: points by version, and the hands to look at` })
    : el('span', { class: 'name', 'data-testid': 'name', text: p.name, title: p.name }))],
  points: ['Points', (p) => el('td', { class: 'num strong', 'data-testid': 'points', text: p.points })],
  form: [() => `Last ${FORM_GAMES.count}`, (p, i, best) => el('td', { class: `num form${best && p.form && p.form.points === best ? ' best' : ''}`, 'data-testid': 'form', title: p.form ? `${p.form.points} points in its last ${p.form.games} games` : '' }, formText(p))],
  rating: ['Rating', (p) => el('td', { class: 'num', 'data-testid': 'rating', title: ratingTitle(p), text: ratingText(p) })],
  games: ['Games', (p) => el('td', { class: 'num', 'data-testid': 'games', text: p.games })],
  wins: ['Wins', (p) => el('td', { class: 'num', 'data-testid': 'wins', text: p.wins })],
  seconds: ['2nd', (p) => el('td', { class: 'num', text: p.seconds })],
  bans: ['Bans', (p) => el('td', { class: 'num', text: p.bans })],
  absences: ['Absent', (p) => el('td', { class: 'num', text: p.absences })],
  // The same figures in pairs, for a narrow screen.
  winsSeconds: ['Wins / 2nd', (p) => el('td', { class: 'num', 'data-testid': 'wins', text: `${p.wins} / ${p.seconds}` })],
  bansAbsences: ['Bans / absent', (p) => el('td', { class: 'num', text: `${p.bans} / ${p.absences}` })],
  version: ['Version', (p) => el('td', { class: 'mono version', 'data-testid': 'version', text: p.version || '–', title: p.version || '' })],
  status: ['Status', (p, i, best, readOnly) => el('td', { class: 'state', 'data-testid': 'status', text: statusText(p, readOnly) })],
  lastSeen: ['Last seen', (p) => el('td', { class: 'seen', text: clockTime(p.last_seen) })],
};

// The leaderboard (`/api/event/leaderboard`'s answer: its players, in order) as a table of
// `columns`. The best recent form is marked: the team climbing fastest. `teamHref(p)`, when
// given, links each team's name to its own view.
function leaderboardTable(board, columns, attrs = {}, rows = board.players.length, teamHref = null) {
  if (board.form_games) FORM_GAMES.count = board.form_games;
  const readOnly = Boolean(board.event && board.event.read_only);
  const best = Math.max(0, ...board.players.map((p) => (p.form ? p.form.points : 0)));
  const picked = columns.map((key) => LEADERBOARD_COLUMNS[key]);
  return el('table', { class: 'grid leaderboard event-table', 'data-testid': 'leaderboard', ...attrs },
    el('thead', {}, el('tr', {}, picked.map(([head], c) => el('th', { class: `col-${columns[c]}`, text: typeof head === 'function' ? head() : head })))),
    el('tbody', {}, board.players.slice(0, rows).map((p, i) => el('tr', { class: p.up || readOnly ? '' : 'bad', 'data-player': p.id },
      picked.map(([, cell]) => cell(p, i, best, readOnly, teamHref))))));
}

// A round step for about `parts` divisions of `span`: 1, 2 or 5 times a power of ten.
function niceStep(span, parts) {
  const raw = Math.max(1, span / parts);
  const power = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].map((m) => m * power).find((step) => step >= raw);
}

// Every team's points after each game (`/api/event/history`) as an SVG line chart with its
// axes (points up the side, game numbers along the bottom, each with round ticks), a dashed
// line in the new leader's colour at each change of leader, and a legend; or a line of text
// before the first game ends. `size` is the drawing's width and height in its own units (the
// CSS scales it) and its labels' font size in the same units; with `endLabels`, each line is
// named at its end (a legend that reads from across a room) and the list below only explains
// the dashed lines.
const END_LABEL_CHARS = 13;
function pointsChart(history, size = { width: 900, height: 320, font: 12 }) {
  const { width, height } = size;
  const font = size.font || 12;
  const short = (name) => (name.length > END_LABEL_CHARS ? `${name.slice(0, END_LABEL_CHARS - 1)}…` : name);
  const labelRoom = size.endLabels
    ? Math.min(width * 0.4, Math.max(...history.series.map((s) => short(s.name).length), 1) * font * 0.66 + font * 0.8)
    : 0;
  const count = history.games.length;
  if (count === 0) return [el('p', { class: 'muted', text: 'No game finished yet.' })];
  const highest = Math.max(1, ...history.series.flatMap((s) => s.points));
  const yStep = niceStep(highest, 4);
  const top = Math.ceil(highest / yStep) * yStep;
  const labelWidth = String(top).length * font * 0.62;
  // Room for the labels: the top one is half a line above the axis's end, never cut.
  const pad = { left: labelWidth + font * 1.9, right: font * 0.8 + labelRoom, top: font * 0.9, bottom: font * 2.7 };
  const first = history.games[0];
  const last = history.games[count - 1];
  const x = (game) => pad.left + (last === first ? 0 : ((game - first) / (last - first)) * (width - pad.left - pad.right));
  const y = (v) => height - pad.bottom - (v / top) * (height - pad.top - pad.bottom);
  const yTicks = [];
  for (let v = 0; v <= top; v += yStep) yTicks.push(v);
  const xStep = niceStep(last - first, 4);
  const xTicks = [first];
  for (let game = Math.ceil((first + xStep * 0.6) / xStep) * xStep; game < last - xStep * 0.6; game += xStep) xTicks.push(game);
  if (last !== first) xTicks.push(last);
  const colourOf = new Map(history.series.map((s) => [s.id, teamColour(s.id)]));
  const changes = (history.lead_changes || []).filter((c) => c.game >= first && c.game <= last);
  const picture = svg('svg', { viewBox: `0 0 ${width} ${height}`, class: 'points-chart', role: 'img', 'font-size': font, 'aria-label': 'Points of every team after each game, with the changes of leader', 'data-testid': 'chart' },
    yTicks.map((v) => [
      svg('line', { x1: pad.left, y1: y(v), x2: width - pad.right, y2: y(v), class: v === 0 ? 'axis' : 'grid-line' }),
      svg('text', { x: pad.left - font * 0.4, y: y(v) + font * 0.35, class: 'tick', 'text-anchor': 'end', 'data-testid': 'y-tick', text: v })]),
    svg('line', { x1: pad.left, y1: pad.top, x2: pad.left, y2: y(0), class: 'axis' }),
    xTicks.map((game) => svg('text', { x: x(game), y: y(0) + font * 1.2, class: 'tick', 'text-anchor': game === first ? 'start' : game === last ? 'end' : 'middle', 'data-testid': 'x-tick', text: game })),
    svg('text', { x: (pad.left + width - pad.right) / 2, y: height - font * 0.3, class: 'tick axis-title', 'text-anchor': 'middle', text: 'game' }),
    svg('text', { x: font * 0.9, y: (pad.top + y(0)) / 2, class: 'tick axis-title', 'text-anchor': 'middle', transform: `rotate(-90 ${font * 0.9} ${(pad.top + y(0)) / 2})`, text: 'points' }),
    changes.map((c) => svg('line', { x1: x(c.game), y1: pad.top, x2: x(c.game), y2: y(0), class: 'lead-mark', stroke: colourOf.get(c.id) || teamColour(c.id), 'data-game': c.game, 'data-player': c.id },
      svg('title', { text: `game ${c.game}: ${c.name || 'a removed team'} takes the lead` }))),
    history.series.map((s) => svg('polyline', {
      points: s.points.map((v, i) => `${x(history.games[i]).toFixed(1)},${y(v).toFixed(1)}`).join(' '),
      stroke: teamColour(s.id), class: 'series', 'data-player': s.id,
    }, svg('title', { text: `${s.name}: ${s.points[s.points.length - 1]}` }))),
    size.endLabels ? endLabels(history, y, width - pad.right + font * 0.4, font, short, pad.top, y(0)) : null);
  const total = history.lead_changes_total || 0;
  const legend = el('ul', { class: 'legend', 'data-testid': 'chart-legend' },
    size.endLabels ? [] : history.series.map((s) => el('li', { 'data-player': s.id },
      teamSwatch(s.id), el('span', { class: 'name', text: s.name, title: s.name }))),
    el('li', { class: 'lead-key', 'data-testid': 'lead-key' }, el('span', { class: 'lead-key-line' }),
      total ? `lead changes (${total})` : 'no change of leader yet'));
  return [picture, legend];
}

// Each team's name at the end of its line, in its colour, moved apart just enough not to
// overlap (highest total on top), within the plot's height.
function endLabels(history, y, x, font, short, top, bottom) {
  const gap = font * 1.05;
  const labels = history.series
    .map((s) => ({ s, want: y(s.points[s.points.length - 1]) + font * 0.35 }))
    .sort((a, b) => a.want - b.want);
  let previous = top + font * 0.35 - gap;
  for (const label of labels) {
    label.at = Math.max(label.want, previous + gap);
    previous = label.at;
  }
  let next = bottom + font * 0.35 + gap;
  for (const label of [...labels].reverse()) {
    label.at = Math.min(label.at, next - gap);
    next = label.at;
  }
  return labels.map(({ s, at }) => svg('text', { x, y: at, class: 'end-label', fill: teamColour(s.id), 'data-player': s.id, 'data-testid': 'end-label', text: short(s.name) },
    svg('title', { text: `${s.name}: ${s.points[s.points.length - 1]}` })));
}
