// The poker table, drawn by the viewer's table view (/, app.js) and the broadcast (/broadcast,
// broadcast.js): a felt with seats on an ellipse, the board, the pot and the blinds, built once
// for a number of seats and redrawn from one viewer-log entry. Stepping only changes text and
// classes, so nothing on the table moves. Names are set with textContent (common.js's el).
'use strict';

const SUITS = { spades: '♠', hearts: '♥', diamonds: '♦', clubs: '♣' };
const RED_SUITS = new Set(['hearts', 'diamonds']);

// A card as a chip of text (`A♠`); an empty slot when there is no card.
function cardNode(card) {
  if (!card) return el('span', { class: 'card slot' });
  const suit = String(card.suit || '').toLowerCase();
  const label = `${card.rank}${SUITS[suit] || suit}`;
  return el('span', { class: `card${RED_SUITS.has(suit) ? ' red' : ''}`, title: `${card.rank} of ${suit}`, text: label });
}

const cardsText = (cards) => (cards || []).map((c) => `${c.rank}${SUITS[String(c.suit).toLowerCase()] || c.suit}`).join(' ');

// A table of `seats` seats. `options.teamColour(seat, player)`, when given, colours a bar on
// each seat (the teams' colours of standings.js). Returns the felt node and
// `draw(entry, context)`, where context gives the hand's number (`round`, the wire's, from 0,
// for logs without one) and `banned(name)`, the ban of that player shown so far, if any.
// Hands are numbered from 1 on screen. A seat's bet is a chip in the seat's own bottom row,
// beside its stack (where its folded / won / banned badge shows when it has no bet): laid out
// in the row, it never covers a name, a stack, another seat or the board, at any size and
// with any number of seats.
function pokerTable(seats, options = {}) {
  const seatNodes = [];
  const felt = el('div', { class: 'felt', 'data-testid': 'table' });
  for (let seat = 0; seat < seats; seat++) {
    const angle = Math.PI / 2 + (2 * Math.PI * seat) / seats;
    const node = {
      box: el('div', { class: 'seat', 'data-testid': `seat-${seat}` }),
      team: el('div', { class: 'seat-team' }),
      name: el('div', { class: 'seat-name', 'data-testid': 'seat-name' }),
      version: el('div', { class: 'seat-version' }),
      stack: el('div', { class: 'seat-stack', 'data-testid': 'seat-stack' }),
      cards: el('div', { class: 'seat-cards', 'data-testid': 'seat-cards' }),
      bet: el('div', { class: 'seat-bet', 'data-testid': 'seat-bet' }),
      badge: el('div', { class: 'seat-badge', 'data-testid': 'seat-badge' }),
      button: el('div', { class: 'button-chip', title: 'dealer button', text: 'D' }),
    };
    if (options.teamColour) {
      node.box.append(node.team);
    }
    node.box.append(node.button, node.name, node.version, node.cards,
      el('div', { class: 'seat-foot' }, node.bet, node.badge, node.stack));
    // Seats on an ellipse, clockwise from the bottom centre.
    node.box.style.left = `${50 + 41 * Math.cos(angle)}%`;
    node.box.style.top = `${50 + 38 * Math.sin(angle)}%`;
    felt.append(node.box);
    seatNodes.push(node);
  }
  const boardSlots = [0, 1, 2, 3, 4].map(() => el('span', { class: 'board-slot' }));
  const board = el('div', { class: 'board', 'data-testid': 'board' }, boardSlots);
  const pot = el('span', { 'data-testid': 'pot' });
  const blinds = el('span', { 'data-testid': 'blinds' });
  const roundLabel = el('span', { 'data-testid': 'round' });
  felt.append(el('div', { class: 'centre' }, board,
    el('div', { class: 'pot' }, 'Pot ', pot), el('div', { class: 'blinds' }, el('span', { class: 'round' }, 'Hand ', roundLabel), ' · Blinds ', blinds)));

  function draw(entry, context = {}) {
    const state = entry.game_state;
    const bannedOf = context.banned || (() => undefined);
    state.players.forEach((player, seat) => {
      const node = seatNodes[seat];
      if (!node) return;
      node.box.className = `seat status-${player.status}${entry.on_turn === seat ? ' on-turn' : ''}${player.amount_won ? ' winner' : ''}${options.teamColour ? ' has-team' : ''}`;
      node.name.textContent = player.name;
      node.name.title = player.name;
      node.version.textContent = player.version || '';
      node.version.title = player.version || '';
      node.stack.textContent = player.stack;
      node.bet.textContent = player.bet ? player.bet : '';
      node.bet.title = player.bet ? `bet ${player.bet}` : '';
      node.bet.className = `seat-bet${player.bet ? '' : ' empty'}`;
      node.badge.hidden = Boolean(player.bet);
      clear(node.cards);
      const cards = player.hole_cards || [];
      for (let i = 0; i < 2; i++) node.cards.append(cardNode(cards[i]));
      const banned = bannedOf(player.name);
      node.badge.textContent = player.amount_won ? `won ${player.amount_won}` : banned ? 'BANNED' : player.status === 'active' ? '' : player.status;
      node.badge.title = banned ? banned.reason : '';
      node.button.className = `button-chip${state.dealer === seat ? '' : ' hidden'}`;
      if (options.teamColour) node.team.style.backgroundColor = options.teamColour(seat, player);
    });
    for (let seat = state.players.length; seat < seats; seat++) seatNodes[seat].box.className = 'seat empty';
    boardSlots.forEach((slot, i) => {
      clear(slot);
      slot.append(cardNode(state.community_cards[i]));
    });
    pot.textContent = state.pot ?? '–';
    blinds.textContent = `${state.small_blind ?? '?'}/${state.big_blind ?? (state.small_blind != null ? state.small_blind * 2 : '?')}`;
    const round = state.round ?? context.round;
    roundLabel.textContent = round == null ? '' : String(round + 1);
  }

  return { node: felt, draw };
}
