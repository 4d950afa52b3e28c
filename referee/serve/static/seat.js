// A seat's page: its own hand (entered by tapping), what it may know, and its own
// moves as buttons: whom to ask, then for what; claims by set, then teammate per card.
"use strict";
(() => {
  const {el, put, post, toast, cardChip} = referee;
  const parts = location.pathname.split("/");
  const table = parts[2], me = decodeURIComponent(parts.slice(4).join("/"));
  const key = table + ":seat:" + me;
  const tokenValue = referee.token(key);
  let data = null, askTarget = null, claim = null, picked = new Set(), editing = false;
  let drawPicker = false, showing = new Set();

  document.title = me + " · referee";
  put("who", me);
  document.getElementById("typed").placeholder = "e.g. asks … for … (your name is put in front)";
  if (!tokenValue) return problem("This page needs its join link: ask the host for it.");

  function problem(text) {
    const node = put("problem", text);
    node.classList.remove("hidden");
  }

  async function send(path, body) {
    const answer = await post("/api/tables/" + table + path, Object.assign({token: tokenValue}, body));
    if (answer.status === 403) { referee.forget(key); }
    toast(answer.message || (answer.accepted ? "done" : "refused"), answer.accepted ? "good" : "bad");
    return answer;
  }

  async function play(text) {
    const answer = await send("/events", {text});
    if (answer.accepted) { askTarget = null; claim = null; drawPicker = false; }
    return answer;
  }

  document.getElementById("send").addEventListener("click", async () => {
    const input = document.getElementById("typed");
    if (!input.value.trim()) return;
    const answer = await play(input.value);
    if (answer.accepted) input.value = "";
  });

  document.getElementById("enter-hand").addEventListener("click", async () => {
    const typed = document.getElementById("hand-typed");
    const cards = typed.value.trim() ? typed.value.trim().split(/[\s,]+/) : [...picked];
    const answer = await send("/hand", {cards});
    if (answer.accepted) { editing = false; picked = new Set(); typed.value = ""; render(); }
  });

  function own(line) { return line.startsWith(me + " ") ? line.slice(me.length + 1) : line; }

  function renderMoves() {
    const section = document.getElementById("moves");
    const legal = data.legal || [];
    const claims = data.claims || {};
    if (!data.legal_ready && data.acting) {
      section.classList.remove("hidden");
      section.replaceChildren(el("h2", {}, "Your move"), el("div", {class: "muted"}, "Finding your moves…"));
      return;
    }
    if (data.awaiting.phase === "show" && data.acting) {
      section.classList.remove("hidden");
      section.replaceChildren(...renderShow());
      return;
    }
    if (!legal.length && !(claims.sets || []).length) { section.classList.add("hidden"); return; }
    section.classList.remove("hidden");
    const asks = legal.filter((m) => m.startsWith(me + " asks "));
    const others = legal.filter((m) => !asks.includes(m) && m !== me + " draws");
    const children = [el("h2", {}, "Your move")];
    if (asks.length) {
      const byTarget = new Map();
      for (const line of asks) {
        const rest = line.slice((me + " asks ").length);
        const target = rest.split(/[\s:]/)[0];
        const item = rest.slice(target.length).replace(/^:?\s*(for\s+)?/, "");
        if (!byTarget.has(target)) byTarget.set(target, []);
        byTarget.get(target).push([item, line]);
      }
      if (askTarget && !byTarget.has(askTarget)) askTarget = null;
      children.push(el("div", {class: "muted"}, askTarget ? "Ask " + askTarget + " for:" : "Ask whom?"));
      if (!askTarget) {
        children.push(el("div", {class: "buttons"}, [...byTarget.keys()].map((target) =>
          el("button", {class: "primary", onclick: () => { askTarget = target; render(); }}, target))));
      } else {
        children.push(el("div", {class: "buttons"}, byTarget.get(askTarget).map(([item, line]) =>
          el("button", {class: item.length <= 3 ? "card " + (referee.isRed(item) ? "red" : "") : "",
                        onclick: () => play(line)}, item))));
        children.push(el("div", {class: "buttons", style: "margin-top:8px"},
          el("button", {onclick: () => { askTarget = null; render(); }}, "← someone else")));
      }
    }
    if (legal.includes(me + " draws")) {
      children.push(el("div", {class: "buttons wide", style: "margin-top:8px"},
        el("button", {class: "primary", onclick: () => play(me + " draws")}, "I drew a card"),
        el("button", {onclick: () => { drawPicker = !drawPicker; render(); }},
          "I drew a card I must show…")));
      if (drawPicker) {
        const mine = new Set(data.view.hand || []);
        children.push(el("div", {class: "cards"}, data.cards.filter((c) => !mine.has(c)).map((c) =>
          el("button", {class: "card small " + (referee.isRed(c) ? "red" : ""),
                        onclick: () => play(me + " draws " + c)}, c))));
      }
    }
    if (others.length) {
      children.push(el("div", {class: "buttons wide", style: "margin-top:8px"}, others.map((line) =>
        el("button", {onclick: () => play(line)}, own(line)))));
    }
    if ((claims.sets || []).length) children.push(renderClaim(claims));
    section.replaceChildren(...children);
  }

  // After a claim, each holder shows the set's cards they hold: tap them, then Show.
  function renderShow() {
    const view = data.view;
    const choices = view.unknown ? data.cards : view.hand;
    return [el("h2", {}, "Show your cards of the set claimed"),
      el("div", {class: "muted"}, "Tap each card of the set you hold."),
      el("div", {class: "cards", style: "margin-top:8px"}, choices.map((card) => el("button", {
        class: "card small " + (referee.isRed(card) ? "red " : "") + (showing.has(card) ? "on" : ""),
        "aria-pressed": showing.has(card) ? "true" : "false",
        onclick: () => { showing.has(card) ? showing.delete(card) : showing.add(card); render(); }}, card))),
      el("div", {class: "buttons", style: "margin-top:8px"},
        el("button", {class: "primary", disabled: showing.size ? null : "disabled", onclick: async () => {
          if ((await play(me + " shows " + [...showing].join(" "))).accepted) showing = new Set();
        }}, "Show " + (showing.size ? [...showing].join(" ") : "")))];
  }

  function renderClaim(claims) {
    const box = el("div", {style: "margin-top:12px"});
    if (!claim) {
      box.append(el("div", {class: "muted"}, "Claim a set:"),
        el("div", {class: "buttons"}, claims.sets.map((name) => el("button", {onclick: () => {
          const mine = new Set(data.view.hand || []);
          claim = {set: name, holders: Object.fromEntries(data.sets[name].map((c) =>
            [c, mine.has(c) ? me : null]))};
          render();
        }}, name))));
      return box;
    }
    box.append(el("div", {class: "muted"}, "Claim " + claim.set + ": who holds each card?"));
    for (const card of Object.keys(claim.holders)) {
      box.append(el("div", {class: "claimcard"}, cardChip(card, "small"),
        claims.teammates.map((mate) => el("button", {
          class: claim.holders[card] === mate ? "primary" : "",
          onclick: () => { claim.holders[card] = mate; render(); }}, mate))));
    }
    const ready = Object.values(claim.holders).every((h) => h);
    box.append(el("div", {class: "buttons"},
      el("button", {class: "danger", disabled: ready ? null : "disabled", onclick: () => {
        const groups = claims.teammates.map((mate) => [mate, Object.keys(claim.holders)
          .filter((c) => claim.holders[c] === mate)]).filter(([, cards]) => cards.length);
        play(me + " claims " + claim.set + ": " + groups.map(([m, cs]) => m + " " + cs.join(" ")).join(", "));
      }}, "Claim " + claim.set),
      el("button", {onclick: () => { claim = null; render(); }}, "Cancel")));
    return box;
  }

  function renderEntry() {
    const entered = data.entered.includes(me);
    const section = document.getElementById("entry");
    put("entry-toggle", data.hidden && entered ? el("button", {onclick: () => {
      editing = !editing; picked = new Set(data.view.hand); render(); }},
      editing ? "Close" : "Correct my hand") : null);
    if (!data.hidden || (entered && !editing)) { section.classList.add("hidden"); return; }
    section.classList.remove("hidden");
    // Only the card grid is redrawn: the typed cards, the focus and the button stay as
    // they are while other seats' changes arrive.
    put("entry-count", "Tap each card you were dealt: " + picked.size + " chosen.");
    put("entry-cards", Object.entries(data.sets).map(([name, cards]) => el("div", {style: "margin:8px 0"},
      el("div", {class: "muted"}, name),
      el("div", {class: "cards"}, cards.map((card) => el("button", {
        class: "card small " + (referee.isRed(card) ? "red " : "") + (picked.has(card) ? "on" : ""),
        "aria-pressed": picked.has(card) ? "true" : "false",
        onclick: () => { picked.has(card) ? picked.delete(card) : picked.add(card); render(); }}, card))))));
  }

  function render() {
    if (!data) return;
    const view = data.view;
    const mine = data.acting;
    const status = document.getElementById("status");
    status.classList.toggle("yours", mine);
    put("awaiting", (mine ? "Your move: " : "") + view.awaiting);
    put("last", view.last ? "Last: " + view.last : "");
    put("outcome", referee.outcome(data));
    put("notices", referee.notices(data, 2));
    put("hand", (view.hand || []).map((c) => cardChip(c)));
    put("unknown", view.unknown ? view.unknown + " cards the referee does not know" +
        (data.hidden && !data.entered.includes(me) ? " (enter your hand above)" : "") : (view.hand || []).length + " cards");
    renderEntry();
    renderMoves();
    put("table", referee.tableRows(data));
    put("scores", referee.setsAndScores(view));
  }

  referee.connect(table, tokenValue, (view) => { data = view; render(); }, (state) => {
    document.getElementById("dot").classList.toggle("on", state === true);
    if (state === "forbidden") {
      referee.forget(key);
      problem("This link no longer works: the host may have issued a new one for this seat.");
    }
  });
})();
