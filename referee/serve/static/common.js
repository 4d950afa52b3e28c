// referee serve: what every page shares. Text from the server is always set as text,
// never as markup; the token moves from the link into this phone's storage at once.
"use strict";

const referee = (() => {
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (key === "onclick") node.addEventListener("click", value);
      else if (key === "class") node.className = value;
      else if (value !== false && value !== null && value !== undefined) node.setAttribute(key, value);
    }
    for (const child of children.flat(Infinity)) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  function put(id, ...children) {
    const node = document.getElementById(id);
    node.replaceChildren(...children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false));
    return node;
  }

  // The token of this page: from the link's #t=... (or ?token=...) the first time, then
  // from storage; the link is cleaned from the address bar.
  function token(key) {
    const storageKey = "referee:" + key;
    const hash = new URLSearchParams(location.hash.slice(1));
    const query = new URLSearchParams(location.search);
    const given = hash.get("t") || query.get("token");
    if (given) {
      try { localStorage.setItem(storageKey, given); } catch (e) { /* private mode */ }
      history.replaceState(null, "", location.pathname);
      return given;
    }
    try { return localStorage.getItem(storageKey); } catch (e) { return null; }
  }

  function forget(key) {
    try { localStorage.removeItem("referee:" + key); } catch (e) { /* nothing kept */ }
  }

  async function post(path, body) {
    const response = await fetch(path, {
      method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body),
    });
    let data = {};
    try { data = await response.json(); } catch (e) { /* no body */ }
    if (!response.ok) data = {accepted: false, message: data.error || response.statusText, status: response.status};
    return data;
  }

  // One WebSocket to the table, reopened after a drop with a growing wait (one timer at a
  // time), and at once when the page comes back into view.
  function connect(table, tokenValue, onView, onState) {
    let socket = null, timer = null, wait = 500, stopped = false;
    function open() {
      if (stopped || (socket && socket.readyState <= 1)) return;
      clearTimeout(timer); timer = null;
      const scheme = location.protocol === "https:" ? "wss://" : "ws://";
      socket = new WebSocket(scheme + location.host + "/ws/" + table);
      socket.onopen = () => { socket.send(JSON.stringify({token: tokenValue})); };
      socket.onmessage = (event) => {
        wait = 500; onState(true);
        const view = JSON.parse(event.data);
        onView(view);
        document.body.dataset.version = String(view.version);  // what tests wait for
      };
      socket.onclose = (event) => {
        onState(false);
        if (event.code === 4403) { stopped = true; onState("forbidden"); return; }
        later();
      };
    }
    function later() {
      if (stopped || timer !== null || document.hidden) return;
      timer = setTimeout(() => { timer = null; open(); }, wait);
      wait = Math.min(wait * 2, 15000);
    }
    document.addEventListener("visibilitychange", () => { if (!document.hidden) { wait = 500; open(); } });
    window.addEventListener("online", () => { wait = 500; open(); });
    open();
  }

  let toastTimer = null;
  function toast(text, kind) {
    let node = document.getElementById("toast");
    if (!node) {
      node = el("div", {id: "toast", role: "status"});
      node.addEventListener("click", () => node.classList.add("hidden"));  // tap to dismiss
      document.body.append(node);
    }
    node.className = "toast " + (kind || "");
    node.textContent = text;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => node.classList.add("hidden"), 6000);
  }

  function isRed(card) { return /[HD]$/.test(card); }
  function cardChip(card, extra) {
    return el("span", {class: "card " + (isRed(card) ? "red " : "") + (extra || "")}, card);
  }

  // Every hand's count, the sets and scores, whose turn: as every page shows them.
  function tableRows(data) {
    const view = data.view;
    const teamOf = {};
    for (const [team, names] of Object.entries(data.teams || {})) for (const n of names) teamOf[n] = team;
    const rows = data.players.map((name) => el("tr", {class: view.turn === name ? "turn" : ""},
      el("td", {}, (view.turn === name ? "▶ " : "") + name + (teamOf[name] ? " (team " + teamOf[name] + ")" : "")),
      el("td", {}, String(view.hands[name] ?? 0) + " cards"),
      el("td", {}, data.hidden && data.entered.includes(name) ? "hand entered" : "")));
    return el("table", {class: "players"}, el("tbody", {}, rows));
  }

  function setsAndScores(view) {
    return Object.keys(view.scores).map((side) => el("div", {},
      el("strong", {}, (view.by === "team" ? "Team " : "") + side + ": " + view.scores[side]),
      " ", el("span", {class: "muted"}, (view.sets[side] || []).join(", "))));
  }

  function notices(data, limit) {
    return data.notices.slice(-limit).reverse().map((n) => el("div", {class: "notice " + n.kind}, n.text));
  }

  function outcome(data) {
    if (!data.outcome) return null;
    return el("div", {class: "panel yours"}, el("div", {class: "awaiting"},
      "Over: " + (data.outcome.winners.join(" and ") || "no winner") + " won"));
  }

  return {el, put, token, forget, post, connect, toast, cardChip, isRed, tableRows,
          setsAndScores, notices, outcome};
})();
