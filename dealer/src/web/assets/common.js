// What both pages share, loaded before their own script: the viewer's (/, app.js) and the live
// event's (/event, event.js). DOM nodes are built here without HTML: everything that comes
// from a file or the API goes on the page with textContent or as an attribute value, never
// parsed as HTML (team names and bot output are untrusted). And the one way to read the JSON API.
'use strict';

// ---------- DOM helpers (no innerHTML anywhere) ----------

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  setAttrs(node, attrs);
  append(node, children);
  return node;
}

const SVG_NS = 'http://www.w3.org/2000/svg';
function svg(tag, attrs, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  setAttrs(node, attrs);
  append(node, children);
  return node;
}

function setAttrs(node, attrs) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'text') node.textContent = String(value);
    else if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, String(value));
  }
}

function append(node, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

function clear(node) {
  while (node.firstChild) node.firstChild.remove();
}

function replace(node, ...children) {
  clear(node);
  append(node, children);
}

function alertBox(message) {
  return el('div', { class: 'alert', role: 'alert', 'data-testid': 'error', text: message });
}

// ---------- The JSON API ----------

// A failure to show as it is: the server's own sentence, or why it could not be asked.
class ApiError extends Error {}

// GETs `url` as JSON, never from the browser's cache (both pages poll what is being played).
async function getJson(url) {
  let response;
  try {
    response = await fetch(url, { headers: { Accept: 'application/json' }, cache: 'no-store' });
  } catch (error) {
    throw new ApiError(`The server cannot be reached (${error.message}).`);
  }
  let body = null;
  try {
    body = await response.json();
  } catch (error) {
    body = null;
  }
  if (!response.ok) {
    const why = body && typeof body.error === 'string' ? body.error : `${url}: HTTP ${response.status} ${response.statusText}`.trim();
    throw new ApiError(why);
  }
  return body;
}
