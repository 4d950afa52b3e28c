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
  }, (state) => {
    document.getElementById("dot").classList.toggle("on", state === true);
    if (state === "forbidden") { referee.forget(key); problem("This is not this table's host link."); }
  });
  loadLinks();
})();
