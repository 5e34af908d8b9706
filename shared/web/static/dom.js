// Building HTML and SVG from data with text nodes only: names and ids typed by players never become markup.

const SVG_NS = "http://www.w3.org/2000/svg";

function fill(node, attrs, children) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.setAttribute("class", value);
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export function el(tag, attrs = {}, ...children) {
  return fill(document.createElement(tag), attrs, children);
}

export function svg(tag, attrs = {}, ...children) {
  return fill(document.createElementNS(SVG_NS, tag), attrs, children);
}

export function title(text) {
  return svg("title", {}, text);
}

export const $ = (selector, root = document) => root.querySelector(selector);
export const $$ = (selector, root = document) => [...root.querySelectorAll(selector)];

export function replace(node, ...children) {
  node.replaceChildren(...children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false)
    .map((c) => (c instanceof Node ? c : document.createTextNode(String(c)))));
  return node;
}

export const SEAT_COLOURS = ["#e5534b", "#4c9aff", "#e3b341", "#3fb950", "#bc8cff", "#39c5cf", "#ff8c42", "#f778ba"];
export const seatColour = (seat) => SEAT_COLOURS[seat % SEAT_COLOURS.length];
export const LETTERS = "ABCDEFGHIJKLMNOP";

/** The label of a seat: the player's registered name, else the bot that plays it ("greedy bot 2"), else the
 * player's id, else "seat n". */
export function seatName(names, players, seat, bots) {
  const name = names && names[seat];
  if (name) return name;
  const bot = bots && bots[seat];
  if (bot) return `${bot} bot ${seat + 1}`;
  const id = players && players[seat];
  return id ? shortId(id) : `seat ${seat + 1}`;
}

export function shortId(id) {
  return id.length > 14 ? `${id.slice(0, 12)}…` : id;
}

export function who(seat, label, attrs = {}) {
  return el("span", { class: "who", ...attrs },
    el("span", { class: "seat-dot", style: `background:${seatColour(seat)}` }), label);
}

export const fmt = (n, digits = 1) => (n === null || n === undefined ? "–" : Number(n).toFixed(digits));

export function ago(iso) {
  if (!iso) return "";
  const seconds = Math.max(0, (Date.now() - Date.parse(iso)) / 1000);
  if (seconds < 60) return `${Math.round(seconds)} s ago`;
  if (seconds < 3600) return `${Math.round(seconds / 60)} min ago`;
  if (seconds < 86400) return `${Math.round(seconds / 3600)} h ago`;
  return new Date(iso).toLocaleDateString();
}

export async function getJSON(url, options = {}) {
  const response = await fetch(url, options);
  if (!response.ok) {
    let detail = "";
    try { detail = (await response.json()).message || ""; } catch { /* not JSON */ }
    const error = new Error(`${response.status} ${detail || response.statusText}`);
    error.status = response.status;
    throw error;
  }
  return response.json();
}

/** Every page of a paged /v1 list (`{items, next}`). */
export async function allPages(url, most = 5000) {
  let items = [];
  let after = null;
  for (;;) {
    const sep = url.includes("?") ? "&" : "?";
    const page = await getJSON(`${url}${sep}limit=500${after ? `&after=${encodeURIComponent(after)}` : ""}`);
    items = items.concat(page.items);
    if (!page.next || items.length >= most) return items;
    after = page.next;
  }
}

export function logErrors() {
  window.__errors = window.__errors || [];
  addEventListener("error", (e) => window.__errors.push(String(e.message)));
  addEventListener("unhandledrejection", (e) => window.__errors.push(String(e.reason && e.reason.message || e.reason)));
}
