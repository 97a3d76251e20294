// The public REST API, as the page's reader (a seat's token, or none: a spectator).
// The token comes from the URL fragment (#token=...), never from the query: a browser does not
// send the fragment to any server, so the token never reaches a server log.

export class ApiError extends Error {
  constructor(status, problem, retryAfter = null) {
    const detail = (problem && (problem.detail || problem.title)) || `HTTP ${status}`;
    super(detail);
    this.status = status;
    this.problem = problem || {};
    this.retryAfter = retryAfter;  // seconds (a 429's or 503's Retry-After), else null
  }
}

// What a quota's RateLimit-* headers say of an answer: the requests left in the window and the
// seconds until it resets (null when the operation counts against no quota).
function quotaOf(response) {
  const remaining = response.headers.get("ratelimit-remaining");
  const reset = response.headers.get("ratelimit-reset");
  return remaining === null ? null : { remaining: Number(remaining), reset: Number(reset) || 0 };
}

export function tokenFromFragment(hash = window.location.hash) {
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  const token = params.get("token");
  return token && token.trim() ? token.trim() : null;
}

export function gameIdFromPath(path = window.location.pathname) {
  const match = path.match(/\/play\/([0-9a-fA-F-]{36})/);
  return match ? match[1].toLowerCase() : null;
}

export class Api {
  constructor(token = null) {
    this.token = token;
    this.quota = null;  // the last answer's quota headers (quotaOf)
  }

  headers(extra = {}) {
    const headers = { Accept: "application/json", ...extra };
    if (this.token) headers.Authorization = `Bearer ${this.token}`;
    return headers;
  }

  async request(method, path, { params, body, headers } = {}) {
    let url = path;
    if (params) {
      const query = new URLSearchParams();
      for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null) query.set(k, String(v));
      const text = query.toString();
      if (text) url += `?${text}`;
    }
    const init = { method, headers: this.headers(headers), cache: "no-store" };
    if (body !== undefined) {
      init.body = JSON.stringify(body);
      init.headers["Content-Type"] = "application/json";
    }
    const response = await fetch(url, init);
    const text = await response.text();
    let data = null;
    if (text) {
      try { data = JSON.parse(text); } catch { data = { detail: text }; }
    }
    this.quota = quotaOf(response);
    if (!response.ok) {
      const retry = Number(response.headers.get("retry-after"));
      throw new ApiError(response.status, data, Number.isFinite(retry) && retry > 0 ? retry : null);
    }
    return data;
  }

  get(path, params) { return this.request("GET", path, { params }); }

  // A text body (e.g. the JSON Lines of GET /games/{id}/export), sent with this page's token.
  async text(path, accept = "application/jsonl") {
    const response = await fetch(path, { headers: this.headers({ Accept: accept }), cache: "no-store" });
    const body = await response.text();
    if (!response.ok) {
      let data = null;
      try { data = JSON.parse(body); } catch { data = { detail: body }; }
      throw new ApiError(response.status, data);
    }
    return body;
  }
  post(path, body, headers) { return this.request("POST", path, { body, headers }); }

  // Every event of a game (pages of /events), oldest first.
  async allEvents(gameId, { after = 0, limit = 1000 } = {}) {
    const events = [];
    let cursor = after;
    for (;;) {
      const page = await this.get(`/games/${gameId}/events`, { after: cursor, limit });
      events.push(...page.events);
      if (page.next_after === null || page.next_after === undefined) return events;
      cursor = page.next_after;
    }
  }

  // Send one command as this page's seat; the answer is the CommandResult.
  command(gameId, command, expectedVersion) {
    const body = { command };
    if (expectedVersion !== undefined && expectedVersion !== null) body.expected_version = expectedVersion;
    const key = (crypto.randomUUID && crypto.randomUUID()) || `${Date.now()}-${Math.random()}`;
    return this.post(`/games/${gameId}/commands`, body, { "Idempotency-Key": key });
  }
}

// Content of a ruleset, fetched once per page (public, the same for every reader).
const contentCache = new Map();
export function content(api, path) {
  if (!contentCache.has(path)) {
    contentCache.set(path, api.get(path).catch((e) => { contentCache.delete(path); throw e; }));
  }
  return contentCache.get(path);
}

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on") && typeof v === "function") node.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(node.dataset, v);
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
  return node;
}

// A refusal or a failure in a plain sentence; the problem's own words (its rule and section) stay
// behind a toggle for a dispute.
export function problemSentence(error) {
  if (!(error instanceof ApiError)) return error && error.message ? error.message : "Something went wrong.";
  const problem = error.problem || {};
  const type = String(problem.type || "");
  if (error.status === 409) return "Someone played first — the table has been refreshed. Look at the board and play again.";
  if (error.status === 401) return "This link's token is not valid for this game. Ask for your seat's link again.";
  if (error.status === 403) return "This seat may not do that now.";
  if (error.status === 404) return "This game does not exist (or no longer exists).";
  if (error.status === 429) return "Too many requests at once — wait a moment and try again.";
  if (error.status >= 500 || error.status === 0) return "The server could not answer. Try again in a moment.";
  if (type.endsWith("game.over") || problem.code === "game.over") return "The game has ended: nothing more can be played.";
  const detail = problem.detail || problem.title || "";
  return detail ? `Not allowed: ${detail.charAt(0).toLowerCase()}${detail.slice(1)}` : "That is not allowed now.";
}
