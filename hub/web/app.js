// The café floor: one card per table, live over a websocket; alerts;
// history; statistics. No framework, no network but the hub.
"use strict";
const T = {
  fr: { title: "La salle", tabFloor: "Salle", tabHistory: "Historique", tabStats: "Statistiques", game: "Jeu", table: "Table",
    players: "Joueurs", from: "Du", to: "Au", filter: "Filtrer", csv: "CSV", date: "Date", length: "Durée", scores: "Scores",
    winner: "Gagnant", close: "Fermer", round: "tour", since: "depuis le dernier coup", elapsed: "en jeu depuis",
    playing: "en jeu", staff: "attend le personnel", idle: "inactive", finished: "terminée", offline: "hors ligne",
    onMyWay: "J'arrive", answered: "« j'arrive » envoyé", ack: "Vu", aStaff: "appelle le personnel", aLong: "dure plus que d'habitude (médiane {m})",
    aDevice: "appareil en panne : {d}", aOffline: "hors ligne", qr: "QR", open: "ouvrir", min: "min", noTables: "Aucune table pour l'instant.", noStep: "aucun coup pour l'instant",
    secret: "Code de la salle", enter: "Entrer",
    dice: "dés : {r} lus sur {n} derniers lancers", diceNone: "dés : aucun lancer encore", diceEntered: "{e} saisis par les joueurs", diceMisread: "{m} mal lus, corrigés" },
  en: { title: "The floor", tabFloor: "Floor", tabHistory: "History", tabStats: "Stats", game: "Game", table: "Table",
    players: "Players", from: "From", to: "To", filter: "Filter", csv: "CSV", date: "Date", length: "Length", scores: "Scores",
    winner: "Winner", close: "Close", round: "round", since: "since the last step", elapsed: "playing for",
    playing: "playing", staff: "waiting for staff", idle: "idle", finished: "finished", offline: "offline",
    onMyWay: "On my way", answered: "\"on my way\" sent", ack: "Seen", aStaff: "calls for staff", aLong: "running long (median {m})",
    aDevice: "device down: {d}", aOffline: "offline", qr: "QR", open: "open", min: "min", noTables: "No table yet.", noStep: "no step yet",
    secret: "Floor secret", enter: "Enter",
    dice: "dice: {r} read of the last {n} throws", diceNone: "dice: no throw yet", diceEntered: "{e} entered by the players", diceMisread: "{m} misread, corrected" },
};
let lang = localStorage.getItem("lang") || (navigator.language || "fr").slice(0, 2);
if (!T[lang]) lang = "en";
const t = (k, args) => (T[lang][k] || k).replace(/\{(\w)\}/g, (_, a) => (args || {})[a] ?? "");
const cards = new Map();
let alerts = [];
const $ = (s, el = document) => el.querySelector(s);
const esc = (s) => String(s ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
const ago = (iso) => {
  if (!iso || iso.startsWith("0001")) return "";
  const s = Math.max(0, Math.round((Date.now() - new Date(iso)) / 1000));
  return s < 90 ? s + " s" : s < 5400 ? Math.round(s / 60) + " " + t("min") : (s / 3600).toFixed(1) + " h";
};

// meta says how long the table has played and how long since its last
// step, leaving out what the hub does not know yet (a table seen only by
// its status has no step).
function meta(c) {
  const played = ago(c.started), since = ago(c.at);
  return [played && `${t("elapsed")} ${played}`, since ? `${since} ${t("since")}` : t("noStep")].filter(Boolean).join(" · ");
}

function translate() {
  document.documentElement.lang = lang;
  document.querySelectorAll("[data-t]").forEach((el) => (el.textContent = t(el.dataset.t)));
  $("#lang").textContent = lang === "fr" ? "EN" : "FR";
  document.title = "Comptoir — " + t("title");
  render();
  if (!$("#stats").hidden) stats();
}
$("#lang").onclick = () => { lang = lang === "fr" ? "en" : "fr"; localStorage.setItem("lang", lang); translate(); loadHistory(); };

document.querySelectorAll("nav button").forEach((b) => (b.onclick = () => {
  document.querySelectorAll("nav button").forEach((x) => x.classList.toggle("on", x === b));
  document.querySelectorAll("main > section").forEach((s) => (s.hidden = s.id !== b.dataset.tab));
  if (b.dataset.tab === "history") loadHistory();
  if (b.dataset.tab === "stats") stats();
}));

function cardHTML(c) {
  const state = c.online === false && c.lastSeen && !c.lastSeen.startsWith("0001") ? "offline" : c.state;
  const waiting = new Set(c.waiting || []);
  const players = (c.players || []).map((p) => `<span class="${waiting.has(p) ? "turn" : ""}">${esc(p)}</span>`).join("");
  let scores = "";
  if (c.result) scores = `<div class="scores">${c.result.scores.map((s) => `${esc(s.player)} ${s.total}${s.rank === 1 ? " ★" : ""}`).join(" · ")}</div>`;
  const devices = (c.devices || []).map((d) => `<span class="${d.ok ? "dev-ok" : "dev-down"}" title="${esc(d.detail)}">${esc(d.name)} ${d.ok ? "✓" : "✗"}</span>`).join("");
  const dice = diceHTML(c.dice);
  const log = (c.log || []).slice(-2).map((l) => `<div>${esc(l[lang])}</div>`).join("");
  let staff = "";
  if (c.staffCall) staff = c.answered ? `<div class="badge">${t("answered")}</div>` : `<button class="answer" data-table="${esc(c.table)}">${t("onMyWay")}</button>`;
  return `<div class="card ${state}" data-table="${esc(c.table)}" data-seq="${c.seq}">
    <h3><span>${esc(c.table)}</span><span class="badge state">${t(state)}</span></h3>
    <div class="game">${esc(c.name)} ${esc(c.variant)}${c.round ? ` — ${t("round")} ${c.round}` : ""}</div>
    <div class="players">${players}</div>${scores}
    <div class="meta">${meta(c)}</div>
    <div class="devices">${devices}</div>${dice}<div class="log">${log}</div>${staff}</div>`;
}

// diceHTML says how the table's dice camera fared over its last throws
// (read, entered by the players, misread and corrected) and what it asks
// of the staff; nothing for a table without a camera.
function diceHTML(d) {
  if (!d) return "";
  const parts = [d.throws ? t("dice", { r: d.read, n: d.throws }) : t("diceNone")];
  if (d.entered) parts.push(t("diceEntered", { e: d.entered }));
  if (d.misread) parts.push(t("diceMisread", { m: d.misread }));
  // stands out when the camera misread a roll or asks for something (the
  // table decides when it reads too few: cmd/comptoird/dicehealth.go)
  const poor = d.misread > 0 || (d.advice || []).length > 0;
  const advice = (d.advice || []).map((l) => `<div class="advice">${esc(l[lang])}</div>`).join("");
  return `<div class="dice${poor ? " poor" : ""}">${esc(parts.join(" · "))}${advice}</div>`;
}

// render redraws only the cards whose HTML changed, so a button stays
// put under a finger while the other tables play.
const shown = new Map(); // table -> [html, element]
function render() {
  const el = $("#cards");
  if (cards.size === 0) { el.innerHTML = `<p>${t("noTables")}</p>`; shown.clear(); }
  else {
    if (shown.size === 0) el.innerHTML = "";
    const order = [...cards.values()].sort((a, b) => a.table.localeCompare(b.table));
    let prev = null;
    for (const c of order) {
      const html = cardHTML(c);
      let s = shown.get(c.table);
      if (!s || s[0] !== html) {
        const tmp = document.createElement("div");
        tmp.innerHTML = html;
        const node = tmp.firstElementChild;
        if (s) s[1].replaceWith(node);
        s = [html, node];
        shown.set(c.table, s);
      }
      if (s[1].previousElementSibling !== prev || s[1].parentNode !== el) {
        prev ? prev.after(s[1]) : el.prepend(s[1]);
      }
      prev = s[1];
    }
  }
  const msg = { staff: (a) => t("aStaff"), long: (a) => t("aLong", { m: a.detail }), device: (a) => t("aDevice", { d: a.detail }), offline: () => t("aOffline") };
  $("#alerts").innerHTML = alerts.map((a) => `<div class="alert ${a.kind} ${a.acked ? "acked" : ""}" data-id="${esc(a.id)}">
    <span>${esc(a.table)} — ${esc(msg[a.kind](a))} (${ago(a.since)})</span>
    ${a.acked ? "" : `<button class="ack" data-id="${esc(a.id)}">${t("ack")}</button>`}</div>`).join("");
}

document.addEventListener("click", async (e) => {
  const ans = e.target.closest("button.answer");
  if (ans) { e.stopPropagation(); await fetch("api/answer/" + encodeURIComponent(ans.dataset.table), { method: "POST" }); return; }
  const ack = e.target.closest("button.ack");
  if (ack) { await fetch("api/ack", { method: "POST", body: new URLSearchParams({ id: ack.dataset.id }) }); return; }
  const card = e.target.closest(".card");
  if (card) openDetail(card.dataset.table);
});

async function openDetail(name) {
  const r = await fetch("api/table/" + encodeURIComponent(name));
  if (!r.ok) return;
  const c = await r.json();
  const d = $("#detail");
  $("h2", d).textContent = `${c.table} — ${c.name} ${c.variant || ""}`;
  $(".log", d).innerHTML = (c.log || []).map((l) => `<div>${esc(l[lang])}</div>`).join("");
  $(".view", d).textContent = JSON.stringify(c.view, null, 1);
  d.showModal();
}
$("#detail .close").onclick = () => $("#detail").close();

// The floor is behind its secret: the page asks for it when the hub
// answers 401, and goes on once the session is open.
function showLogin() {
  $("main").hidden = true;
  $("#login").hidden = false;
  $("#login input").focus();
}
$("#login").onsubmit = async (e) => {
  e.preventDefault();
  const r = await fetch("api/login", { method: "POST", body: new URLSearchParams({ secret: $("#login input").value }) });
  if (r.ok) { $("#login input").value = ""; $(".err", $("#login")).textContent = ""; start(); return; }
  const msg = await r.json().catch(() => ({}));
  $(".err", $("#login")).textContent = msg[lang] || r.statusText;
};
async function start() {
  const r = await fetch("api/session").catch(() => null);
  if (r && r.status === 401) { showLogin(); return; }
  $("#login").hidden = true;
  $("main").hidden = false;
  connect();
}

function connect() {
  const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + location.pathname.replace(/[^/]*$/, "") + "ws");
  ws.onopen = () => $("#conn").className = "conn up";
  ws.onclose = () => { $("#conn").className = "conn down"; setTimeout(start, 1000); };
  ws.onmessage = (m) => {
    const f = JSON.parse(m.data);
    if (f.type === "snapshot") { cards.clear(); (f.cards || []).forEach((c) => cards.set(c.table, c)); alerts = f.alerts || []; }
    else if (f.type === "update") {
      (f.cards || []).forEach((c) => cards.set(c.table, c));
      if (f.alertsChanged) alerts = f.alerts || [];
    }
    scheduleRender();
  };
}
let pending = false;
function scheduleRender() { if (!pending) { pending = true; requestAnimationFrame(() => { pending = false; render(); }); } }
setInterval(render, 5000);

async function loadHistory(e) {
  if (e) e.preventDefault();
  const q = new URLSearchParams([...new FormData($("#filters"))].filter(([, v]) => v));
  $("#csv").href = "api/history.csv?" + q;
  const r = await fetch("api/history?" + q);
  if (r.status === 401) { showLogin(); return; }
  const plays = r.ok ? await r.json() : [];
  $("#plays tbody").innerHTML = plays.map((p) => `<tr>
    <td>${new Date(p.finished).toLocaleString(lang)}</td><td>${p.minutes} ${t("min")}</td><td>${esc(p.table)}</td>
    <td>${esc(p.name)} ${esc(p.variant)}</td><td>${esc(p.players.join(", "))}</td>
    <td>${p.result ? p.result.scores.map((s) => esc(s.player) + " " + s.total).join(", ") : esc(p.outcome)}</td>
    <td>${esc((p.winners || []).join(", "))}</td>
    <td><a href="${esc(p.bgstats)}" target="_blank" rel="noopener">BG Stats</a>
      <button class="qr" data-src="api/play/${encodeURIComponent(p.table)}/${p.game}/qr.png">${t("qr")}</button></td></tr>`).join("");
}
$("#filters").onsubmit = loadHistory;
document.addEventListener("click", (e) => {
  const b = e.target.closest("button.qr");
  if (b) { $("#qr img").src = b.dataset.src; $("#qr").hidden = false; }
});
$("#qr button").onclick = () => ($("#qr").hidden = true);

function stats() {
  $("#stats").innerHTML = ["per-day", "length", "scores", "hours"].map((n) => `<img alt="${n}" src="api/plot/${n}.svg?lang=${lang}&_=${Date.now()}">`).join("");
}

translate();
start();
