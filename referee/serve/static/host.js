// The host page: enter any event for anyone, decide contradictions, deal the next
// hand, and show each seat's join link and QR code (a fresh one for a lost phone).
"use strict";
(() => {
  const {el, put, post, toast} = referee;
  const table = location.pathname.split("/")[2];
  const key = table + ":host";
  const tokenValue = referee.token(key);
  function problem(text) { put("problem", text).classList.remove("hidden"); }
  if (!tokenValue) { problem("This page needs the host link."); return; }

  async function act(path, body) {
    const answer = await post("/api/tables/" + table + path, Object.assign({token: tokenValue}, body || {}));
    toast(answer.message || (answer.accepted ? "done" : "refused"), answer.accepted ? "good" : "bad");
    return answer;
  }
  document.getElementById("send").addEventListener("click", async () => {
    const input = document.getElementById("typed");
    if (input.value.trim() && (await act("/events", {text: input.value})).accepted) input.value = "";
  });
  document.getElementById("typed").addEventListener("keydown", (e) => {
    if (e.key === "Enter") document.getElementById("send").click();
  });
  document.getElementById("accept").addEventListener("click", () => act("/accept"));
  document.getElementById("drop").addEventListener("click", () => act("/undo"));
  document.getElementById("undo").addEventListener("click", () => act("/undo"));
  document.getElementById("done").addEventListener("click", () => act("/done"));
  document.getElementById("next").addEventListener("click", () => act("/next"));

  // The moves of the seats that may act, as the typist would enter them (no hand is
  // known here): answers and draws at once; an ask by who asks, then whom, then what.
  let asker = null, target = null;
  function renderMoves(data) {
    const section = document.getElementById("moves");
    const legal = data.legal || [];
    if (!legal.length) { section.classList.add("hidden"); return; }
    section.classList.remove("hidden");
    const asks = new Map();  // who asks -> whom -> [[what, line]]
    const others = [];
    for (const line of legal) {
      const at = line.indexOf(" asks ");
      if (at < 0) { others.push(line); continue; }
      const who = line.slice(0, at), rest = line.slice(at + 6);
      const whom = rest.split(/[\s:]/)[0];
      const what = rest.slice(whom.length).replace(/^:?\s*(for\s+|to lay out\s+)?/, "");
      if (!asks.has(who)) asks.set(who, new Map());
      if (!asks.get(who).has(whom)) asks.get(who).set(whom, []);
      asks.get(who).get(whom).push([what, line]);
    }
    if (asker && !asks.has(asker)) { asker = null; target = null; }
    if (asker && target && !asks.get(asker).has(target)) target = null;
    const play = async (line) => {
      if ((await act("/events", {text: line})).accepted) { asker = null; target = null; }
    };
    const children = [el("h2", {}, "Moves now")];
    if (others.length) {
      children.push(el("div", {class: "buttons wide"}, others.map((line) =>
        el("button", {onclick: () => play(line)}, line))));
    }
    if (asks.size) {
      const back = el("button", {onclick: () => { if (target) target = null; else asker = null; renderMoves(data); }}, "← back");
      if (!asker) {
        children.push(el("div", {class: "buttons", style: "margin-top:8px"}, [...asks.keys()].map((who) =>
          el("button", {class: "primary", onclick: () => { asker = who; renderMoves(data); }}, who + " asks…"))));
      } else if (!target) {
        children.push(el("div", {class: "muted"}, asker + " asks whom?"),
          el("div", {class: "buttons"}, [...asks.get(asker).keys()].map((whom) =>
            el("button", {class: "primary", onclick: () => { target = whom; renderMoves(data); }}, whom))), back);
      } else {
        children.push(el("div", {class: "muted"}, asker + " asks " + target + " for:"),
          el("div", {class: "buttons"}, asks.get(asker).get(target).map(([what, line]) =>
            el("button", {class: what.length <= 3 ? "card " + (referee.isRed(what) ? "red" : "") : "",
                          onclick: () => play(line)}, what))), back);
      }
    }
    section.replaceChildren(...children);
  }

  async function loadLinks() {
    const response = await fetch("/api/tables/" + table + "/links?token=" + encodeURIComponent(tokenValue));
    if (!response.ok) { put("links", "The links could not be loaded."); return; }
    const links = await response.json();
    const svg = (text) => { const box = el("div", {class: "qr"}); box.innerHTML = text; return box; };  // our own SVG
    put("links",
      el("div", {class: "seatlink"}, el("strong", {class: "seatname"}, "Shared screen"), svg(links.qr[""]),
        el("div", {}, el("a", {href: links.screen, target: "_blank"}, "open the screen"))),
      Object.entries(links.seats).map(([name, seat]) => el("div", {class: "seatlink", style: "margin-top:16px"},
        el("strong", {class: "seatname"}, name), svg(links.qr[name]), el("div", {},
          el("a", {href: seat.url, target: "_blank"}, "join link"), el("br"),
          el("button", {onclick: async () => {
            if (!confirm("Issue a fresh link for " + name + "? The old one stops working.")) return;
            const answer = await post("/api/tables/" + table + "/relink", {token: tokenValue, player: name});
            if (answer.token) { toast("a fresh link for " + name, "good"); loadLinks(); }
          }}, "Lost phone: new link")))));
  }

  referee.connect(table, tokenValue, (data) => {
    const view = data.view;
    put("title", "Host · " + data.title + (view.match_hand ? " · hand " + view.match_hand : ""));
    put("awaiting", view.awaiting);
    put("last", view.last ? "Last: " + view.last : "");
    put("outcome", referee.outcome(data));
    document.getElementById("decide").classList.toggle("hidden", data.awaiting.phase !== "contradiction");
    document.getElementById("status").classList.toggle("yours", data.awaiting.phase === "contradiction");
    document.getElementById("next").classList.toggle("hidden", !data.next_hand);
    put("notices", referee.notices(data, 3));
    put("table", referee.tableRows(data));
    put("scores", referee.setsAndScores(view));
    renderMoves(data);
  }, (state) => {
    document.getElementById("dot").classList.toggle("on", state === true);
    if (state === "forbidden") { referee.forget(key); problem("This is not this table's host link."); }
  });
  loadLinks();
})();
