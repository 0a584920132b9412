// Comptoir's dashboard: the table's screen (/), a player's phone (/seat),
// the staff page (/staff) and the join page (/join). Everything the page
// shows comes from the server's frames over one websocket; the server
// builds each frame for this page's seat only.
"use strict";

(function () {
  const TOKEN_KEY = "comptoir.token";
  const LANG_KEY = "comptoir.lang";
  const PIN_KEY = "comptoir.pin";

  let lang = localStorage.getItem(LANG_KEY) ||
    ((navigator.language || "fr").toLowerCase().startsWith("fr") ? "fr" : "en");
  const mode = { "/": "table", "/seat": "seat", "/staff": "staff", "/join": "join" }[location.pathname] || "table";

  let ws = null;
  let frame = null;      // the latest frame
  let nextID = 1;
  const pending = new Map(); // message id -> callback
  let retry = 500;
  let staffIn = false;
  let info = null;      // the game's fixed data (/api/game)
  let infoFor = "";
  let pastGames = null; // the journal's games, on the staff page once asked for (/api/plays)

  window.RENDERERS = window.RENDERERS || {};

  function t(key) {
    return (I18N[lang] && I18N[lang][key]) || I18N.en[key] || key;
  }
  function say(obj) { // a server text {fr, en}
    return (obj && (obj[lang] || obj.en)) || "";
  }

  // h builds an element: h("p", {class: "x"}, "text", child, ...).
  function h(tag, attrs, ...kids) {
    const el = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
      else if (k === "class") el.className = v;
      else if (k === "style") el.style.cssText = v; // CSSOM: allowed by the page's CSP, unlike a style attribute
      else el.setAttribute(k, v === true ? "" : v);
    }
    for (const kid of kids.flat()) {
      if (kid === null || kid === undefined || kid === false) continue;
      el.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
    }
    return el;
  }
  window.H = h;
  window.T = t;

  function toast(kind, text) {
    const el = document.getElementById("toast");
    el.textContent = kind && text ? t(kind) + (lang === "fr" ? " : " : ": ") + text : kind ? t(kind) : text;
    el.dataset.kind = kind || "";
    el.hidden = false;
    clearTimeout(toast.timer);
    toast.timer = setTimeout(() => { el.hidden = true; }, 6000);
  }

  function send(msg, done) {
    if (!ws || ws.readyState !== WebSocket.OPEN) {
      toast("error", t("disconnected"));
      return;
    }
    msg.id = nextID++;
    if (done) pending.set(msg.id, done);
    ws.send(JSON.stringify(msg));
  }

  function connect() {
    const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws";
    ws = new WebSocket(url);
    ws.onopen = () => {
      retry = 500;
      setConn(true);
      if (mode === "seat") {
        const token = localStorage.getItem(TOKEN_KEY);
        if (token) send({ type: "hello", token: token });
        else render();
      }
      if (mode === "staff") {
        const pin = sessionStorage.getItem(PIN_KEY);
        if (pin) send({ type: "hello", role: "staff", pin: pin });
      }
    };
    ws.onmessage = (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch (e) { return; }
      onMessage(msg);
    };
    ws.onclose = () => {
      setConn(false);
      staffIn = false;
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 8000);
    };
  }

  function setConn(up) {
    const el = document.getElementById("conn");
    el.dataset.state = up ? "up" : "down";
    el.textContent = up ? t("connected") : t("disconnected");
  }

  function onMessage(msg) {
    switch (msg.type) {
      case "state":
        frame = msg;
        loadInfo();
        render();
        return;
      case "welcome":
        if (msg.role === "staff") staffIn = true;
        render();
        break;
      case "accepted":
        toast("accepted", "");
        break;
      case "refused":
        toast("refused", say(msg));
        break;
      case "error":
        if (msg.code === "unknown-token") {
          localStorage.removeItem(TOKEN_KEY);
        }
        if (msg.code === "bad-pin" || msg.code === "staff-expired") {
          sessionStorage.removeItem(PIN_KEY);
          staffIn = false;
        }
        toast("error", say(msg));
        render();
        break;
    }
    const cb = pending.get(msg.id);
    if (cb) { pending.delete(msg.id); cb(msg); }
  }

  // loadInfo fetches the game's fixed data (board, card texts) once per
  // game and variant.
  function loadInfo() {
    const key = frame.game + "/" + (frame.variant || "") + "/" + (frame.info || "");
    if (infoFor === key) return;
    infoFor = key;
    fetch("/api/game").then((r) => r.json()).then((j) => { info = j; render(); }).catch(() => { infoFor = ""; });
  }

  function playerName(seat) {
    if (!frame || seat < 0 || seat >= frame.players.length) return "?";
    return frame.players[seat].name;
  }

  // --- sections ---------------------------------------------------------

  function header() {
    document.documentElement.lang = lang;
    document.getElementById("lang").textContent = lang === "fr" ? "EN" : "FR";
    const who = document.getElementById("who");
    if (!frame) { who.textContent = ""; return; }
    document.getElementById("title").textContent = "Comptoir · " + frame.game + (frame.variant ? " (" + frame.variant + ")" : "");
    if (frame.role === "seat") who.textContent = t("seat") + " " + (frame.seat + 1) + " · " + playerName(frame.seat);
    else who.textContent = t(frame.role);
    who.dataset.role = frame.role;
  }

  function turnSection() {
    const names = frame.waiting.map(playerName);
    return h("section", { id: "turn", class: "turn" },
      h("span", { class: "label" }, t(frame.over ? "over" : "turn") + " "),
      frame.over ? null : h("strong", {}, names.length ? names.join(", ") : t("nobody")),
      h("span", { class: "seq" }, " · " + t("seq") + " " + frame.seq));
  }

  function playersSection() {
    const rows = frame.players.map((p) => {
      const me = frame.role === "seat" && frame.seat === p.seat;
      const li = h("li", { class: "player" + (me ? " me" : "") + (frame.waiting.includes(p.seat) ? " active" : ""), "data-seat": p.seat },
        h("span", { class: "name" }, (p.seat + 1) + ". " + p.name + (me ? " (" + t("you") + ")" : "")),
        h("span", { class: "state" }, p.free ? t("free") : t("joined")));
      if (p.join) {
        li.append(h("figure", { class: "qr" },
          h("img", { src: "/qr/" + (p.seat + 1) + ".png?c=" + encodeURIComponent(p.join), alt: "QR " + p.name, width: 160, height: 160 }),
          h("figcaption", {}, t("scanToJoin") + " · ", h("a", { class: "join", href: p.join }, t("joinLink")))));
      }
      return li;
    });
    return h("section", { id: "players" }, h("h2", {}, t("players")), h("ul", { class: "players" }, rows));
  }

  function viewSection() {
    const r = window.RENDERERS[frame.game];
    let body;
    try {
      body = r ? r(frame.view, frame, { h, t, lang, send: command, propose, playerName, info }) : genericView(frame.view);
    } catch (e) {
      body = genericView(frame.view);
    }
    return h("section", { id: "view", class: "view" }, body);
  }

  // genericView shows any view as nested lists.
  function genericView(v) {
    if (v === null || typeof v !== "object") return h("span", { class: "value" }, String(v));
    if (Array.isArray(v)) return h("ol", { class: "tree" }, v.map((x) => h("li", {}, genericView(x))));
    return h("dl", { class: "tree" }, Object.entries(v).map(([k, x]) => [h("dt", {}, k), h("dd", {}, genericView(x))]));
  }

  function command(line) {
    send({ type: "command", line: line });
  }

  function propose(line) {
    send({ type: "propose", line: line });
  }

  function proposalsSection() {
    const ps = frame.proposals || [];
    if (!ps.length) return null;
    const items = ps.map((p) => {
      const mine = frame.role === "seat" && p.from === frame.seat;
      const li = h("li", { class: "proposal " + p.status, "data-id": p.id },
        h("span", {}, (mine ? t("yourProposal") : playerName(p.from) + " " + t("proposes")) + (lang === "fr" ? " : " : ": ")), h("code", {}, p.line), " ",
        h("em", { class: "status" }, t("prop-" + p.status) + (p.en ? " (" + say(p) + ")" : "")));
      if (p.status === "pending" && frame.role === "seat" && p.to === frame.seat) {
        li.append(" ", h("button", { type: "button", class: "accept", onclick: () => send({ type: "answer", proposal: p.id, accept: true }) }, t("accept")),
          " ", h("button", { type: "button", class: "refuse", onclick: () => send({ type: "answer", proposal: p.id, accept: false }) }, t("refuse")));
      }
      return li;
    });
    return h("section", { id: "proposals" }, h("h2", {}, t("proposals")), h("ul", {}, items));
  }

  function actionsSection() {
    const legal = frame.legal || [];
    // One button per action, or a list when a command has many choices
    // (64 rolls of the dice).
    const input = h("input", { type: "text", name: "line", list: "commands", placeholder: t("commandHint"), autocomplete: "off", autocapitalize: "off" });
    const groups = new Map();
    for (const a of legal) {
      if (!groups.has(a.name)) groups.set(a.name, []);
      groups.get(a.name).push(a);
    }
    const buttons = [];
    for (const [name, acts] of groups) {
      if (acts.length <= 8) {
        for (const a of acts) {
          buttons.push(h("span", { class: "choice" },
            h("button", { type: "button", class: "action", "data-line": a.line, onclick: () => command(a.line) }, a.line),
            h("button", { type: "button", class: "edit", title: t("edit"), "aria-label": t("edit"), onclick: () => { input.value = a.line; input.focus(); } }, "✎")));
        }
        continue;
      }
      const sel = h("select", { name: name, "aria-label": name }, acts.map((a) => h("option", { value: a.line }, a.line)));
      buttons.push(h("span", { class: "choice" }, sel, h("button", { type: "button", class: "action", onclick: () => command(sel.value) }, t("send"))));
    }
    const form = h("form", { class: "command", onsubmit: (e) => { e.preventDefault(); if (input.value.trim()) command(input.value.trim()); } },
      h("label", {}, t("freeCommand") + " ", input), h("button", { type: "submit" }, t("send")),
      h("datalist", { id: "commands" }, (frame.commands || []).map((c) => h("option", { value: c + " " }))));
    return h("section", { id: "actions" }, h("h2", {}, t("yourActions")),
      buttons.length ? h("div", { class: "buttons" }, buttons) : h("p", { class: "hint" }, t("noActions")), form);
  }

  function refusalSection() {
    if (!frame.refusal) return null;
    return h("section", { id: "refusal", class: "refusal" }, h("strong", {}, t("refusalTable") + (lang === "fr" ? " : " : ": ")), say(frame.refusal));
  }

  function logSection() {
    const lines = frame.log.slice().reverse().map((l) => h("li", { "data-seq": l.seq }, say(l)));
    return h("section", { id: "log" }, h("h2", {}, t("log")), h("ul", { class: "log" }, lines));
  }

  function resultSection() {
    if (!frame.result) return null;
    const res = frame.result;
    const parts = [];
    for (const s of res.scores) for (const p of s.parts || []) if (!parts.some((q) => q.name === p.name)) parts.push(p);
    const head = h("tr", {}, h("th", {}, t("rank")), h("th", {}, t("players")),
      parts.map((p) => h("th", {}, lang === "fr" ? p.nameFr : p.nameEn)), h("th", {}, t("total")));
    const rows = res.scores.slice().sort((a, b) => a.rank - b.rank).map((s) => h("tr", { class: s.rank === 1 ? "winner" : "" },
      h("td", {}, s.rank), h("td", {}, s.player),
      parts.map((p) => { const q = (s.parts || []).find((x) => x.name === p.name); return h("td", {}, q ? q.points : ""); }),
      h("td", {}, h("strong", {}, s.total))));
    return h("section", { id: "result" }, h("h2", {}, t("result")), h("table", { class: "scores" }, h("thead", {}, head), h("tbody", {}, rows)),
      h("h3", {}, t("downloads")),
      h("p", { class: "downloads" }, h("a", { href: "/download/record", download: "" }, t("record")), " · ",
        h("a", { href: "/download/bgsplay", download: "" }, t("bgstats")), " · ",
        h("a", { href: "/bgstats" }, t("bgstatsOpen"))),
      h("p", { class: "bgstats-qr" }, h("img", { src: "/qr/bgstats.png", alt: t("bgstatsOpen"), width: 160, height: 160 })));
  }

  function devicesSection() {
    if (!frame.devices && !frame.unknown) return null;
    return h("section", { id: "devices" }, h("h2", {}, t("devices")),
      h("ul", {}, (frame.devices || []).map((d) => h("li", { class: d.ok ? "ok" : "fault" }, d.device + (d.detail ? " · " + (lang === "fr" && d.fr ? d.fr : d.detail) : "")))),
      frame.unknown ? h("p", {}, t("unknownTags") + " : " + frame.unknown.join(", ")) : null);
  }

  // The staff's edit of the game's fixed data (kit.Editor), sent as a
  // "cell" request (an item and what it becomes). A game that lists its
  // items (/api/game's edit: Dschunke's stand-in values) gets a list of
  // them with their values now; otherwise the item is typed (Genoa's
  // cells). The item picked and the value typed outlive the page being
  // drawn again at every step.
  let editPick = null;
  function dataForm(form, field, staffSend) {
    const items = info && info.edit;
    if (!items || !items.length) {
      return form(t("cell"), [field("cell", t("cellHint")), field("square", t("squareHint"))], (e) => staffSend({ action: "cell", cell: e.cell.value, square: e.square.value }));
    }
    const id = (it) => it.key === "checked" ? "checked:" + it.value : it.key;
    let at = editPick ? items.findIndex((it) => id(it) === editPick.id) : -1;
    if (at < 0) { at = 0; editPick = null; }
    const select = h("select", { name: "item", id: "edit-item", onchange: () => {
      const it = items[select.selectedIndex];
      editPick = { id: id(it), value: it.value };
      input.value = it.value;
    } }, items.map((it, i) => h("option", { value: String(i), selected: i === at }, it.key === "checked" ? t("editChecked") + " " + it.value : it.key + " = " + it.value)));
    const input = h("input", { type: "text", name: "value", id: "edit-value", autocomplete: "off", value: editPick ? editPick.value : items[at].value,
      oninput: () => { editPick = { id: id(items[select.selectedIndex]), value: input.value }; } });
    return form(t("editData"), [h("p", { class: "hint" }, t("editDataHint")), select, " ", input], () => {
      const it = items[select.selectedIndex];
      staffSend({ action: "cell", cell: it.key, square: input.value });
      editPick = null;
    });
  }

  function staffSection() {
    const pin = () => sessionStorage.getItem(PIN_KEY) || "";
    // The connection is logged in as staff; each request carries a new
    // nonce, so that a replayed one is refused.
    const nonce = () => Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
    const staffSend = (m) => { m.type = "staff"; m.nonce = nonce(); send(m); };
    const pair = async () => {
      try {
        const r = await fetch("/api/pair", { method: "POST", headers: { "X-Comptoir-Staff-Pin": pin() } });
        const body = await r.json();
        toast(r.ok ? "" : "error", r.ok ? t("paired") : say(body));
      } catch (e) { toast("error", String(e)); }
    };
    const field = (name, hint) => h("input", { type: "text", name, placeholder: hint, autocomplete: "off" });
    const form = (title, fields, submit) => {
      const f = h("form", { class: "staff-form", onsubmit: (e) => { e.preventDefault(); submit(f.elements); } },
        h("h3", {}, title), fields, h("button", { type: "submit" }, t("send")));
      return f;
    };
    return h("section", { id: "staff" }, h("h2", {}, t("staff")),
      form(t("undo"), [field("reason", t("reason"))], (e) => staffSend({ action: "undo", reason: e.reason.value })),
      form(t("correct"), [field("line", "…"), field("reason", t("reason"))], (e) => staffSend({ action: "correct", line: e.line.value, reason: e.reason.value })),
      form(t("reassign"), [h("select", { name: "seat" }, frame.players.map((p) => h("option", { value: p.seat + 1 }, (p.seat + 1) + ". " + p.name)))],
        (e) => staffSend({ action: "reassign", seat: Number(e.seat.value) })),
      dataForm(form, field, staffSend),
      form(t("end"), [field("reason", t("reason"))], (e) => staffSend({ action: "end", reason: e.reason.value })),
      form(t("abandon"), [field("reason", t("reason"))], (e) => staffSend({ action: "abandon", reason: e.reason.value })),
      frame.over ? form(t("newGame"), [h("input", { type: "text", name: "line", value: frame.players.map((p) => p.name).join(", "), autocomplete: "off" })],
        (e) => staffSend({ action: "new-game", line: e.line.value })) : null,
      h("p", {}, h("button", { type: "button", id: "pair", onclick: pair }, t("pairScreen"))),
      pastGamesSection(pin));
  }

  // The journal's games, each finished one downloadable for BG Stats: the
  // requests carry the staff PIN in a header, so the file is fetched and
  // saved from here rather than by a plain link.
  function pastGamesSection(pin) {
    const headers = () => ({ "X-Comptoir-Staff-Pin": pin() });
    const load = () => fetch("/api/plays", { headers: headers() }).then((r) => r.ok ? r.json() : []).then((list) => { pastGames = list; render(); });
    const save = (g) => fetch("/download/bgsplay?game=" + g.game, { headers: headers() }).then((r) => r.blob()).then((b) => {
      const a = h("a", { href: URL.createObjectURL(b), download: g.rules + "-" + g.game + ".bgsplay" });
      document.body.appendChild(a); a.click(); a.remove();
    });
    const open = (g) => fetch("/bgstats?format=json&game=" + g.game, { headers: headers() }).then((r) => r.json()).then((j) => { if (j.link) location.href = j.link; });
    const rows = (pastGames || []).map((g) => h("tr", {},
      h("td", {}, g.game), h("td", {}, g.rules + (g.variant ? " " + g.variant : "")), h("td", {}, g.players.join(", ")),
      h("td", {}, g.started), h("td", {}, g.minutes || ""), h("td", {}, g.outcome || t("playing")),
      h("td", {}, g.outcome === "over" ? [h("button", { onclick: () => save(g) }, t("bgstats")), " ", h("button", { onclick: () => open(g) }, t("bgstatsApp"))] : "")));
    return h("section", { id: "past-games" }, h("h3", {}, t("pastGames")),
      h("button", { onclick: load }, t(pastGames ? "refresh" : "show")),
      pastGames ? h("table", { class: "scores" }, h("tbody", {}, rows)) : null);
  }

  function pinSection() {
    const input = h("input", { type: "password", name: "pin", autocomplete: "off", autocapitalize: "off" }); // a PIN or the generated secret (letters)
    return h("form", { id: "pin", onsubmit: (e) => {
      e.preventDefault();
      sessionStorage.setItem(PIN_KEY, input.value);
      send({ type: "hello", role: "staff", pin: input.value });
    } }, h("label", {}, t("pin") + " ", input), h("button", { type: "submit" }, t("enter")));
  }

  function render() {
    header();
    const app = document.getElementById("app");
    const kids = [];
    if (mode === "join") {
      kids.push(h("p", { id: "joining" }, t("joining")));
    } else if (mode === "staff" && !staffIn) {
      kids.push(pinSection());
    } else if (mode === "seat" && (!localStorage.getItem(TOKEN_KEY))) {
      kids.push(h("p", { id: "noseat", class: "refusal" }, t("noSeat")));
    }
    if (frame && frame.staff_lock) {
      kids.push(h("p", { id: "stafflock", class: "refusal" }, t("staffLocked") + " " + new Date(frame.staff_lock.until).toLocaleTimeString()));
    }
    if (frame && mode !== "join") {
      kids.push(turnSection());
      if (frame.role !== "table") kids.push(refusalSection());
      else if (frame.refusal) kids.push(refusalSection());
      kids.push(resultSection());
      kids.push(viewSection());
      if (frame.role !== "table") kids.push(proposalsSection());
      if (frame.role !== "table" && !frame.over) kids.push(actionsSection());
      kids.push(playersSection());
      if (frame.role === "staff") kids.push(staffSection());
      kids.push(logSection());
      if (frame.role !== "seat" || frame.devices) kids.push(devicesSection());
    }
    app.replaceChildren(...kids.filter(Boolean));
    document.body.dataset.role = frame ? frame.role : mode;
  }

  async function join() {
    const q = new URLSearchParams(location.search);
    render();
    try {
      const r = await fetch("/api/join", { method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ seat: Number(q.get("seat")), code: q.get("code") || "" }) });
      const body = await r.json();
      if (!r.ok) {
        document.getElementById("app").replaceChildren(h("p", { id: "joinfailed", class: "refusal" }, t("joinFailed") + " : " + say(body)));
        return;
      }
      localStorage.setItem(TOKEN_KEY, body.token);
      location.replace("/seat");
    } catch (e) {
      document.getElementById("app").replaceChildren(h("p", { class: "refusal" }, t("joinFailed") + " : " + e));
    }
  }

  document.getElementById("lang").addEventListener("click", () => {
    lang = lang === "fr" ? "en" : "fr";
    localStorage.setItem(LANG_KEY, lang);
    setConn(ws && ws.readyState === WebSocket.OPEN);
    render();
  });

  if (mode === "join") join();
  else { render(); connect(); }
})();
