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
  const MUTE_KEY = "comptoir.mute";
  let sheet = null;      // the action whose fields are open: {id, seq}
  let tapFilter = null;  // a board square or card tapped with several actions: its target
  let refusal = null;    // the last refusal of this phone's own step: {text, seq}, until dismissed or the next step
  let notice = null;     // what happened to this phone's seat (freed, new game): a server text
  let myTurn = false;    // the seat had something to do in the last frame
  let audio = null;      // the WebAudio context of the "your turn" beep, made at the first tap
  let diceAsked = -1;    // the dice ask that opened the roll's sheet (once: the player may close it)
  let tvDice = null;     // the table's screen's choice of faces for the dice ask: {seq, blue, red}

  window.RENDERERS = window.RENDERERS || {};

  function t(key) {
    return (I18N[lang] && I18N[lang][key]) || I18N.en[key] || key;
  }
  function q() { // a question mark, with French typography in French
    return lang === "fr" ? "\u00a0?" : "?";
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
    el.textContent = kind && text ? t(kind) + (lang === "fr" ? "\u00a0: " : ": ") + text : kind ? t(kind) : text;
    el.dataset.kind = kind || "";
    el.hidden = false;
    clearTimeout(toast.timer);
    toast.timer = setTimeout(() => { el.hidden = true; }, kind === "error" ? 8000 : 2500);
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
        // Another player's step keeps an open sheet and what was typed in
        // it while its action is still there (Négoce's buyers make their
        // offers at once); the server checks the values on the new state.
        if (frame && frame.seq !== msg.seq) {
          const still = (fn) => (msg.actions || []).some(fn);
          if (sheet && !still((a) => a.id === sheet.id)) sheet = null;
          if (tapFilter && !still((a) => a.target === tapFilter)) tapFilter = null;
        }
        frame = msg;
        // The camera could not read the dice: the roll's sheet opens at once.
        if (msg.dice_ask && msg.dice_ask.action && diceAsked !== msg.dice_ask.id) {
          diceAsked = msg.dice_ask.id;
          sheet = { id: msg.dice_ask.action, seq: msg.seq };
          tapFilter = null;
        }
        loadInfo();
        render();
        turnNotice();
        return;
      case "welcome":
        if (msg.role === "staff") staffIn = true;
        render();
        break;
      case "accepted":
        toast("accepted", "");
        break;
      case "proposed":
        toast("proposed", "");
        break;
      case "refused":
        // A refusal stays in the prompt until dismissed or the next step.
        refusal = { text: say(msg), fr: msg.fr, en: msg.en, seq: frame ? frame.seq : 0 };
        render();
        break;
      case "notice":
        notice = msg;
        if (msg.code === "seat-freed" || msg.code === "game-replaced") localStorage.removeItem(TOKEN_KEY);
        render();
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
    const name = frame.title || frame.game;
    document.getElementById("title").textContent = name;
    document.title = (myTurn ? "● " + t("yourTurn") + " · " : "") + name + " · Comptoir";
    const mute = document.getElementById("mute");
    mute.hidden = frame.role !== "seat";
    mute.textContent = localStorage.getItem(MUTE_KEY) ? "♪\u00a0✕" : "♪";
    mute.setAttribute("aria-label", t(localStorage.getItem(MUTE_KEY) ? "soundOff" : "soundOn"));
    if (frame.role === "seat") who.textContent = t("seat") + " " + (frame.seat + 1) + " · " + playerName(frame.seat);
    else who.textContent = t(frame.role);
    who.dataset.role = frame.role;
  }

  function turnSection() {
    const names = frame.waiting.map(playerName);
    return h("section", { id: "turn", class: "turn" },
      h("span", { class: "label" }, t(frame.over ? "over" : "turn") + " "),
      frame.over ? null : h("strong", {}, names.length ? names.join(", ") : t("nobody")));
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

  // drawView calls the game's renderer: it returns a Node, or {board,
  // side, truth} (the board and hand; the players' public holdings; the
  // game's moment of truth, drawn large on the table's screen).
  function drawView() {
    const r = window.RENDERERS[frame.game];
    let out;
    try {
      out = r ? r(frame.view, frame, rendererCtx()) : genericView(frame.view);
    } catch (e) {
      console.error(e);
      out = genericView(frame.view);
    }
    if (!out || out instanceof Node) return { board: out || null, side: null, truth: null };
    return { board: out.board || null, side: out.side || null, truth: out.truth || null };
  }

  function rendererCtx() {
    return {
      h, t, lang, send: command, propose, playerName, info,
      actions: frame.actions || [],
      tap, act: (id, values) => act(id, values), tv: frame.role === "table", say,
    };
  }

  function viewSection(v) {
    return h("section", { id: "view", class: "view" }, v.board);
  }

  // --- acting in words (kit.Play) ----------------------------------------

  // fill writes an action's label with its fields' values: a number with
  // its unit, singular or plural by each language's rule.
  function fill(a, values) {
    let text = say(a.label);
    for (const f of a.fields || []) {
      const v = values && values[f.key] !== undefined ? String(values[f.key]) : (f.options && f.options.length ? "…" : String(f.value || 0));
      let shown = v;
      if (f.options && f.options.length) {
        const o = f.options.find((x) => x.value === v);
        shown = o ? say(o.label) : "…";
      } else {
        const n = Number(v);
        const plural = isNaN(n) || (lang === "fr" ? Math.abs(n) >= 2 : Math.abs(n) !== 1); // a range "1–3" is plural
        const unit = plural && f.units && say(f.units) ? say(f.units) : say(f.unit);
        shown = unit ? v + "\u00a0" + unit : v;
      }
      text = text.split("{" + f.key + "}").join(shown);
    }
    return text;
  }

  function act(id, values) {
    const fix = frame.dice_correct;
    if (fix && fix.action.id === id) { // the thrower corrects the camera's reading
      sheet = null; refusal = null;
      send({ type: "dice", seq: fix.seq, values: values || {} });
      render();
      return;
    }
    const a = (frame.actions || []).find((x) => x.id === id);
    if (!a) return;
    const go = () => {
      sheet = null; tapFilter = null; refusal = null;
      send({ type: "act", seq: frame.seq, action: id, values: values || {} });
      render();
    };
    if (a.confirm) ask(fill(a, values) + q(), go);
    else go();
  }

  // choose starts an action: one tap sends it, or its fields open.
  function choose(a) {
    if (a.fields && a.fields.length) {
      sheet = { id: a.id, seq: frame.seq };
      render();
      const p = document.getElementById("prompt");
      if (p) p.scrollIntoView({ block: "start" });
      return;
    }
    act(a.id, {});
  }

  // tap is a board square's or card's tap (data-target): its action, or
  // the choice of its actions in the prompt.
  function tap(target) {
    const acts = (frame.actions || []).filter((a) => a.target === target);
    if (acts.length === 0) return;
    if (acts.length === 1) { choose(acts[0]); return; }
    tapFilter = target;
    render();
    const p = document.getElementById("prompt");
    if (p) p.scrollIntoView({ block: "start" });
  }

  // actionButton is an action's button; an amount shows its range
  // ("Take 1–3 coins…"), a choice waits for the sheet.
  function actionButton(a) {
    const preview = {};
    for (const f of a.fields || []) {
      if (!(f.options && f.options.length) && (f.min || 0) !== (f.max || 0)) preview[f.key] = (f.min || 0) + "–" + (f.max || 0);
    }
    return h("button", { type: "button", class: "action group-" + a.group, "data-action": a.id, "data-group": a.group,
      onclick: () => choose(a) }, fill(a, preview) + (a.fields && a.fields.length ? "…" : ""));
  }

  // fieldInput is one field of the sheet: a stepper with − and +, option
  // buttons (dice faces, cards by name), or a list when there are many.
  function fieldInput(a, f, values, changed) {
    const id = "field-" + f.key;
    const label = h("label", { for: id, class: "field-label" }, say(f.label));
    if (f.options && f.options.length) {
      if (f.options.length > 24) {
        const sel = h("select", { id, name: f.key, onchange: () => { values[f.key] = sel.value; changed(); } },
          h("option", { value: "" }, "…"),
          f.options.map((o) => h("option", { value: o.value, selected: values[f.key] === o.value }, say(o.label))));
        return h("div", { class: "field" }, label, sel);
      }
      const hidden = h("input", { type: "hidden", id, name: f.key, value: values[f.key] || "" });
      const buttons = f.options.map((o) => h("button", { type: "button", class: "option" + (f.colour ? " colour-" + f.colour : ""),
        "data-value": o.value, "aria-pressed": values[f.key] === o.value ? "true" : "false",
        onclick: () => { values[f.key] = o.value; changed(); } },
        o.picture ? h("img", { src: "/static/" + o.picture, alt: "", loading: "lazy" }) : null, say(o.label)));
      return h("div", { class: "field", role: "group", "aria-labelledby": id + "-l" },
        h("span", { class: "field-label", id: id + "-l" }, say(f.label)), hidden,
        h("div", { class: "options" + (f.colour ? " dice" : "") }, buttons));
    }
    const min = f.min || 0, max = f.max || 0;
    const input = h("input", { type: "number", id, name: f.key, inputmode: "numeric", min, max, value: values[f.key],
      oninput: () => { values[f.key] = input.value; changed(false); } });
    const step = (d) => {
      const n = Math.min(max, Math.max(min, (Number(values[f.key]) || 0) + d));
      values[f.key] = String(n);
      changed();
    };
    return h("div", { class: "field" }, label,
      h("div", { class: "stepper" },
        h("button", { type: "button", class: "step less", "aria-label": t("less"), disabled: Number(values[f.key]) <= min, onclick: () => step(-1) }, "−"),
        input,
        h("button", { type: "button", class: "step more", "aria-label": t("more"), disabled: Number(values[f.key]) >= max, onclick: () => step(1) }, "+")),
      h("span", { class: "range" }, min + "–" + max));
  }

  let sheetValues = {};
  function sheetForm(a) {
    if (!sheet.values) {
      sheet.values = {};
      for (const f of a.fields) {
        if (f.options && f.options.length) { if (f.options.length === 1) sheet.values[f.key] = f.options[0].value; }
        else sheet.values[f.key] = String(f.value || f.min || 0);
      }
    }
    // A choice no longer offered (the state moved on) is chosen again.
    for (const f of a.fields) {
      if (f.options && f.options.length && sheet.values[f.key] !== undefined && !f.options.some((o) => o.value === sheet.values[f.key])) delete sheet.values[f.key];
    }
    sheetValues = sheet.values;
    const ready = () => a.fields.every((f) => sheetValues[f.key] !== undefined && sheetValues[f.key] !== "");
    const changed = (redraw) => { if (redraw === false) { title.textContent = fill(a, sheetValues); send_.disabled = !ready(); return; } render(); };
    const title = h("p", { class: "sheet-title" }, fill(a, sheetValues));
    const send_ = h("button", { type: "submit", id: "sheet-send", class: "primary", disabled: !ready() }, t("send"));
    return h("form", { id: "sheet", class: "sheet", "data-action": a.id, onsubmit: (e) => { e.preventDefault(); if (ready()) act(a.id, Object.assign({}, sheetValues)); } },
      title,
      a.fields.map((f) => fieldInput(a, f, sheetValues, changed)),
      h("div", { class: "sheet-buttons" }, send_,
        h("button", { type: "button", id: "sheet-cancel", class: "secondary", onclick: () => { sheet = null; render(); } }, t("cancel"))));
  }

  // promptSection is the top of a seat's page: what the game waits for,
  // the refusal of this phone's last try, the proposals to answer, and
  // the seat's actions as buttons.
  function promptSection() {
    const acts = frame.actions || [];
    const kids = [];
    const asks = [];
    const text = frame.over ? t("over") : (frame.prompt ? say(frame.prompt) : waitingText());
    kids.push(h("p", { id: "prompt-text", class: "prompt-text" }, text));
    if (refusal && refusal.seq === frame.seq) {
      kids.push(h("div", { id: "refusal", class: "refusal", role: "alert" }, h("span", {}, refusal.text),
        h("button", { type: "button", class: "dismiss secondary", "aria-label": t("dismiss"), onclick: () => { refusal = null; render(); } }, t("dismiss"))));
    } else if (frame.refusal && frame.refusal.seq === frame.seq && frame.role === "seat") {
      kids.push(h("div", { id: "refusal", class: "refusal", role: "alert" }, say(frame.refusal)));
    }
    for (const p of frame.proposals || []) {
      if (p.status === "pending" && (p.need || [p.to]).includes(frame.seat) && p.from !== frame.seat) asks.push(proposalItem(p));
    }
    if (asks.length) kids.push(h("ul", { class: "proposals asks" }, asks));
    const fix = frame.dice_correct;
    const a = sheet && (acts.find((x) => x.id === sheet.id) || (fix && fix.action.id === sheet.id ? fix.action : null));
    if (a) {
      kids.push(sheetForm(a));
    } else if (!frame.over) {
      let shown = acts;
      if (tapFilter) {
        shown = acts.filter((x) => x.target === tapFilter);
        if (!shown.length) { tapFilter = null; shown = acts; }
      }
      const groups = new Map();
      for (const x of shown) {
        if (!groups.has(x.group)) groups.set(x.group, []);
        groups.get(x.group).push(x);
      }
      for (const [g, list] of groups) kids.push(h("div", { class: "group", "data-group": g }, list.map(actionButton)));
      if (tapFilter) kids.push(h("button", { type: "button", class: "secondary", onclick: () => { tapFilter = null; render(); } }, t("showAll")));
    }
    if (frame.dice_ask) kids.splice(1, 0, diceAskText());
    if (fix) kids.splice(1, 0, diceCorrectOffer(fix, a === fix.action));
    if (frame.take_back && !a) {
      kids.push(h("button", { type: "button", id: "take-back", class: "secondary takeback",
        onclick: () => send({ type: "takeback", seq: frame.seq }) }, t("takeBack")));
    }
    const mine = acts.length > 0;
    return h("section", { id: "prompt", class: "prompt" + (mine ? " mine" : ""), "aria-live": "polite" }, kids);
  }

  // diceAskText says the camera could not read the dice, and why.
  function diceAskText() {
    return h("p", { id: "dice-ask", class: "refusal dice-ask", role: "alert" }, h("strong", {}, t("diceAsk")), " ", say(frame.dice_ask));
  }

  // diceCorrectOffer is the thrower's offer to correct the camera's
  // reading: what it read, and (unless its sheet is open) the button
  // that opens a row of faces per die.
  function diceCorrectOffer(fix, open) {
    return h("div", { id: "dice-correct", class: "dice-correct" }, h("span", {}, say(fix)),
      open ? null : h("button", { type: "button", id: "dice-correct-open", class: "secondary",
        onclick: () => { sheet = { id: fix.action.id, seq: frame.seq }; tapFilter = null; render(); } }, t("diceCorrect")));
  }

  // diceAskTV is the table screen's request for the roll: a row of
  // buttons per die, and Send, on the table's own screen.
  function diceAskTV() {
    const ask = frame.dice_ask;
    if (!tvDice || tvDice.seq !== ask.seq) tvDice = { seq: ask.seq };
    const row = (key, colour, label) => h("div", { class: "field", role: "group", "aria-label": label },
      h("span", { class: "field-label" }, label),
      h("div", { class: "options dice" }, (ask.faces || []).map((n) => h("button", { type: "button", class: "option colour-" + colour,
        "data-die": key, "data-value": String(n), "aria-pressed": tvDice[key] === n ? "true" : "false",
        onclick: () => { tvDice[key] = n; render(); } }, String(n)))));
    const ready = tvDice.blue && tvDice.red;
    return h("section", { id: "dice-ask", class: "dice-ask", role: "alert" },
      h("p", { class: "refusal" }, h("strong", {}, t("diceAsk")), " ", say(ask)),
      ask.enter ? [row("blue", "blue", t("blueDie")), row("red", "red", t("redDie")),
        h("button", { type: "button", id: "dice-send", class: "primary", disabled: !ready,
          onclick: () => send({ type: "dice", seq: frame.seq, values: { blue: String(tvDice.blue), red: String(tvDice.red) } }) }, t("send"))] :
        h("p", { class: "hint" }, t("diceAskPhone")));
  }

  function waitingText() {
    const names = frame.waiting.map(playerName);
    return names.length ? t("turn") + (lang === "fr" ? "\u00a0: " : ": ") + names.join(", ") : t("nobody");
  }

  // --- the player's attention ---------------------------------------------

  function turnNotice() {
    const now = frame.role === "seat" && !frame.over && (frame.actions || []).length > 0;
    if (now && !myTurn) {
      if (navigator.vibrate) navigator.vibrate(200);
      beep();
    }
    if (now !== myTurn) { myTurn = now; header(); }
  }

  function beep() {
    if (localStorage.getItem(MUTE_KEY) || !audio) return;
    try {
      const o = audio.createOscillator(), g = audio.createGain();
      o.frequency.value = 880;
      g.gain.setValueAtTime(0.15, audio.currentTime);
      g.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.25);
      o.connect(g); g.connect(audio.destination);
      o.start(); o.stop(audio.currentTime + 0.25);
    } catch (e) { /* no sound */ }
  }

  // ask is a confirmation in the page (never window.confirm): text, then
  // ok() if confirmed.
  function ask(text, ok) {
    const dlg = document.getElementById("dialog");
    document.getElementById("dialog-text").textContent = text;
    const yes = document.getElementById("dialog-ok"), no = document.getElementById("dialog-cancel");
    yes.textContent = t("confirm"); no.textContent = t("cancel");
    const close = () => { dlg.hidden = true; yes.onclick = null; no.onclick = null; };
    yes.onclick = () => { close(); ok(); };
    no.onclick = close;
    dlg.hidden = false;
    yes.focus();
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

  function proposalText(p) {
    return p.label ? say(p.label) : (p.line || "");
  }

  function proposalItem(p) {
    const mine = frame.role === "seat" && p.from === frame.seat;
    const sep = lang === "fr" ? "\u00a0: " : ": ";
    const li = h("li", { class: "proposal " + p.status, "data-id": p.id },
      h("p", {}, h("span", {}, (mine ? t("yourProposal") : playerName(p.from) + " " + t("proposes")) + sep), h("strong", {}, proposalText(p))),
      h("p", { class: "status" }, t("prop-" + p.status) + (p.en ? " (" + say(p) + ")" : "")));
    if (p.status === "pending" && frame.role === "seat" && (p.need || [p.to]).includes(frame.seat) && !mine) {
      li.append(h("div", { class: "answer" },
        h("button", { type: "button", class: "accept primary", onclick: () => send({ type: "answer", proposal: p.id, accept: true }) }, t("accept")),
        h("button", { type: "button", class: "refuse secondary", onclick: () => send({ type: "answer", proposal: p.id, accept: false }) }, t("refuse"))));
    }
    return li;
  }

  // proposalsSection lists the proposals other than those waiting for
  // this seat's answer (those are in the prompt).
  function proposalsSection() {
    const words = Array.isArray(frame.actions);
    const ps = (frame.proposals || []).filter((p) => !(words && frame.role === "seat" && p.status === "pending" && (p.need || [p.to]).includes(frame.seat) && p.from !== frame.seat));
    if (!ps.length) return null;
    return h("section", { id: "proposals" }, h("h2", {}, t("proposals")), h("ul", { class: "proposals" }, ps.map(proposalItem)));
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

  // seatOfLine is the seat whose name begins a log line, -1 if none: the
  // line is drawn in that player's colour.
  function seatOfLine(text) {
    let best = -1, len = 0;
    for (const p of frame.players) if (text.startsWith(p.name) && p.name.length > len) { best = p.seat; len = p.name.length; }
    return best;
  }

  function logSection(max) {
    let log = frame.log;
    if (max) log = log.slice(-max);
    const lines = log.slice().reverse().map((l) => {
      const text = say(l), seat = seatOfLine(text);
      return h("li", { "data-seq": l.seq, class: seat >= 0 ? "p" + (seat % 6) : "" }, text);
    });
    return h("section", { id: "log" }, h("h2", {}, t("log")), h("ul", { class: "log" }, lines));
  }

  // winnerBanner says who won, and how a tie on points was broken.
  function winnerBanner() {
    const res = frame.result;
    if (!res || !res.scores || !res.scores.length) return null;
    const winners = (res.winners || []).map(playerName);
    const kids = [h("p", { class: "winner-name" }, winners.length === 1 ? t("wins").replace("{name}", winners[0]) :
      winners.length ? t("winTie").replace("{names}", winners.join(lang === "fr" ? " et " : " and ")) : t("over"))];
    const sorted = res.scores.slice().sort((a, b) => a.rank - b.rank);
    const top = sorted[0];
    const tied = sorted.filter((x) => x.total === top.total);
    if (tied.length > 1 && tied.some((x) => x.tieBreak !== top.tieBreak)) {
      kids.push(h("p", { class: "tiebreak" }, t("tieBroken").replace("{points}", top.total) + " " +
        tied.map((x) => x.player + " " + x.tieBreak).join(", ") + "."));
    }
    return h("section", { id: "winner", class: "winner-banner", role: "status" }, kids);
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
      frame.unknown ? h("p", {}, t("unknownTags") + (lang === "fr" ? "\u00a0: " : ": ") + frame.unknown.join(", ")) : null);
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
    const select = h("select", { name: "item", id: "edit-item", "aria-label": t("editData"), onchange: () => {
      const it = items[select.selectedIndex];
      editPick = { id: id(it), value: it.value };
      input.value = it.value;
    } }, items.map((it, i) => h("option", { value: String(i), selected: i === at }, it.key === "checked" ? t("editChecked") + " " + it.value : it.key + " = " + it.value)));
    const input = h("input", { type: "text", name: "value", id: "edit-value", "aria-label": t("editData"), autocomplete: "off", value: editPick ? editPick.value : items[at].value,
      oninput: () => { editPick = { id: id(items[select.selectedIndex]), value: input.value }; } });
    return form(t("editData"), [h("p", { class: "hint" }, t("editDataHint")), select, " ", input], () => {
      const it = items[select.selectedIndex];
      staffSend({ action: "cell", cell: it.key, square: input.value });
      editPick = null;
    });
  }

  // The dice as the players see them (a roll the camera could not read or
  // read wrong): the session plays them, and journals a wrong reading
  // undone as a misread.
  function diceForm(form, staffSend) {
    const die = (name, label) => h("label", { class: "field" }, label + " ",
      h("select", { name }, [1, 2, 3, 4, 5, 6, 7, 8].map((n) => h("option", { value: String(n) }, String(n)))));
    return form(t("diceEntered"), [die("blue", t("blueDie")), die("red", t("redDie"))],
      (e) => staffSend({ action: "dice", values: { blue: e.blue.value, red: e.red.value } }));
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
    const field = (name, hint) => h("label", { class: "field" }, hint + " ", h("input", { type: "text", name, autocomplete: "off" }));
    const form = (title, fields, submit) => {
      const f = h("form", { class: "staff-form", onsubmit: (e) => { e.preventDefault(); submit(f.elements); } },
        h("h3", {}, title), fields, h("button", { type: "submit" }, t("send")));
      return f;
    };
    return h("section", { id: "staff" }, h("h2", {}, t("staff")),
      form(t("undo"), [frame.last ? h("p", { class: "last-step", id: "last-step" }, t("undoes") + " " + (frame.last.log || []).map(say).join(" ") + " (" + frame.last.line + ")") : h("p", { class: "hint" }, t("nothingToUndo")),
        field("reason", t("reason"))], (e) => {
        const reason = e.reason.value;
        const what = frame.last ? (frame.last.log || []).map(say).join(" ") || frame.last.line : "";
        ask(t("undo") + (lang === "fr" ? "\u00a0: " : ": ") + what + q(), () => staffSend({ action: "undo", reason }));
      }),
      form(t("correct"), [field("line", "…"), field("reason", t("reason"))], (e) => staffSend({ action: "correct", line: e.line.value, reason: e.reason.value })),
      form(t("reassign"), [h("select", { name: "seat", "aria-label": t("reassign") }, frame.players.map((p) => h("option", { value: p.seat + 1 }, (p.seat + 1) + ". " + p.name)))],
        (e) => staffSend({ action: "reassign", seat: Number(e.seat.value) })),
      dataForm(form, field, staffSend),
      info && info.dice ? diceForm(form, staffSend) : null,
      form(t("end"), [field("reason", t("reason"))], (e) => { const reason = e.reason.value; ask(t("endAsk"), () => staffSend({ action: "end", reason })); }),
      form(t("abandon"), [field("reason", t("reason"))], (e) => { const reason = e.reason.value; ask(t("abandonAsk"), () => staffSend({ action: "abandon", reason })); }),
      frame.over ? form(t("newGame"), [h("input", { type: "text", name: "line", "aria-label": t("newGame"), value: frame.players.map((p) => p.name).join(", "), autocomplete: "off" })],
        (e) => staffSend({ action: "new-game", line: e.line.value })) : null,
      h("p", {}, h("button", { type: "button", id: "pair", onclick: pair }, t("pairScreen"))),
      window.DICE_CAMERA && frame.camera ? window.DICE_CAMERA(frame.camera, { h, say, lang, toast, pin, render }) : null,
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

  function noticeSection() {
    if (!notice) return null;
    return h("section", { id: "notice", class: "refusal", role: "alert" }, h("p", {}, say(notice)),
      h("button", { type: "button", class: "secondary", onclick: () => { notice = null; render(); } }, t("dismiss")));
  }

  function render() {
    header();
    const app = document.getElementById("app");
    const kids = [];
    app.className = "";
    if (mode === "join") {
      kids.push(h("p", { id: "joining" }, t("joining")));
    } else if (mode === "staff" && !staffIn) {
      kids.push(pinSection());
    } else if (mode === "seat" && (!localStorage.getItem(TOKEN_KEY))) {
      kids.push(noticeSection() || h("p", { id: "noseat", class: "refusal" }, t("noSeat")));
    }
    if (frame && frame.staff_lock) {
      kids.push(h("p", { id: "stafflock", class: "refusal" }, t("staffLocked") + " " + new Date(frame.staff_lock.until).toLocaleTimeString()));
    }
    if (frame && mode !== "join") {
      if (frame.role === "table") tvLayout(kids);
      else phoneLayout(kids);
    }
    app.replaceChildren(...kids.filter(Boolean));
    document.body.dataset.role = frame ? frame.role : mode;
    document.body.dataset.seq = frame ? String(frame.seq) : "";
  }

  // phoneLayout: the prompt with its buttons on top, then the board, the
  // holdings, the proposals, the players and the log.
  function phoneLayout(kids) {
    const words = frame.role === "seat" && Array.isArray(frame.actions);
    const v = drawView();
    kids.push(winnerBanner());
    if (words || frame.role === "seat" && frame.prompt) kids.push(promptSection());
    else kids.push(turnSection(), frame.prompt ? h("section", { id: "prompt", class: "prompt" }, h("p", { id: "prompt-text", class: "prompt-text" }, say(frame.prompt))) : null, refusalSection());
    kids.push(viewSection(v));
    if (v.truth) kids.push(h("section", { id: "truth", class: "truth" }, v.truth));
    if (v.side) kids.push(h("section", { id: "side", class: "side" }, v.side));
    kids.push(proposalsSection());
    // The notation's buttons and field: the staff's, and a seat's while
    // its game has no actions in words.
    if (!words && !frame.over) kids.push(actionsSection());
    kids.push(resultSection());
    kids.push(playersSection());
    if (frame.role === "staff") kids.push(staffSection());
    kids.push(logSection());
    if (frame.role !== "seat" || frame.devices) kids.push(devicesSection());
  }

  // tvLayout: the table's screen, a grid that fits the screen without
  // scrolling: whose turn and what is awaited on top, the board large,
  // beside it the moment of truth, the holdings, the players and the last
  // lines of the log.
  function tvLayout(kids) {
    const v = drawView();
    document.getElementById("app").className = "tv";
    const top = h("section", { id: "prompt", class: "prompt tv-top" },
      h("p", { id: "prompt-text", class: "prompt-text" }, frame.over ? t("over") : (frame.prompt ? say(frame.prompt) : waitingText())),
      frame.dice_ask ? diceAskTV() : frame.refusal ? h("p", { id: "refusal", class: "refusal" }, say(frame.refusal)) : null);
    kids.push(top);
    kids.push(h("section", { id: "view", class: "view tv-board" }, v.board));
    const aside = [winnerBanner()];
    if (frame.result) aside.push(resultSection());
    if (v.truth) aside.push(h("section", { id: "truth", class: "truth" }, v.truth));
    if (v.side) aside.push(h("section", { id: "side", class: "side" }, v.side));
    aside.push(playersSection(), logSection(8), devicesSection());
    kids.push(h("div", { class: "tv-side" }, aside.filter(Boolean)));
  }

  async function join() {
    const q = new URLSearchParams(location.search);
    render();
    try {
      const r = await fetch("/api/join", { method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ seat: Number(q.get("seat")), code: q.get("code") || "" }) });
      const body = await r.json();
      if (!r.ok) {
        document.getElementById("app").replaceChildren(h("p", { id: "joinfailed", class: "refusal" }, t("joinFailed") + (lang === "fr" ? "\u00a0: " : ": ") + say(body)));
        return;
      }
      localStorage.setItem(TOKEN_KEY, body.token);
      location.replace("/seat");
    } catch (e) {
      document.getElementById("app").replaceChildren(h("p", { class: "refusal" }, t("joinFailed") + (lang === "fr" ? "\u00a0: " : ": ") + e));
    }
  }

  document.getElementById("mute").addEventListener("click", () => {
    if (localStorage.getItem(MUTE_KEY)) localStorage.removeItem(MUTE_KEY);
    else localStorage.setItem(MUTE_KEY, "1");
    header();
  });
  // The beep's audio may only start after a tap on the page.
  document.addEventListener("pointerdown", () => {
    if (audio) return;
    try { audio = new (window.AudioContext || window.webkitAudioContext)(); } catch (e) { audio = null; }
  }, { once: true });

  document.getElementById("lang").addEventListener("click", () => {
    lang = lang === "fr" ? "en" : "fr";
    localStorage.setItem(LANG_KEY, lang);
    setConn(ws && ws.readyState === WebSocket.OPEN);
    render();
  });

  if (mode === "join") join();
  else { render(); connect(); }
})();
