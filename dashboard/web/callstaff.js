// The call for staff, on the table's screen and on every seated phone of
// a table in a café: a button in the page's header raises the call on the
// café's floor, and the floor's answer ("on my way") is shown back here.
// It keeps to itself: it reads the call's state from GET /api/call-staff
// every few seconds (a table not in a café answers 404, and nothing is
// shown) and raises or closes the call with POST /api/call-staff, the
// phone's seat token in X-Comptoir-Seat.
"use strict";

(function () {
  const TOKEN_KEY = "comptoir.token";
  const POLL_MS = 3000;
  const T = {
    fr: {
      call: "Appeler le personnel", cancel: "Annuler l'appel", done: "C'est réglé, merci",
      called: "Personnel appelé, on vous a vus…", answered: "J'arrive ! Le personnel est en route.",
      failed: "L'appel n'est pas parti : réessayez.",
    },
    en: {
      call: "Call staff", cancel: "Cancel the call", done: "All sorted, thanks",
      called: "Staff called, we have seen you…", answered: "On my way! The staff is coming.",
      failed: "The call did not go through: try again.",
    },
  };
  const lang = () => (document.documentElement.lang || "fr").startsWith("en") ? "en" : "fr";
  const t = (k) => T[lang()][k];

  let state = null; // the server's {called, answered}
  let shownLang = "";
  let error = "";
  let box = null, button = null, status = null;

  function build() {
    const header = document.querySelector("header") || document.body;
    box = document.createElement("span");
    box.id = "callstaff";
    box.style.display = "inline-flex";
    box.style.alignItems = "center";
    box.style.gap = ".4rem";
    button = document.createElement("button");
    button.type = "button";
    button.id = "callstaff-button";
    button.style.minHeight = "44px";
    button.style.minWidth = "44px";
    button.style.fontWeight = "600";
    button.addEventListener("click", toggle);
    status = document.createElement("span");
    status.id = "callstaff-status";
    status.setAttribute("role", "status");
    status.setAttribute("aria-live", "polite");
    box.append(button, status);
    const lang = header.querySelector("#lang");
    lang ? header.insertBefore(box, lang) : header.append(box);
  }

  function render() {
    if (!state) return;
    if (!box) build();
    shownLang = lang();
    box.dataset.state = state.answered ? "answered" : state.called ? "called" : "idle";
    button.textContent = state.answered ? t("done") : state.called ? t("cancel") : t("call");
    button.setAttribute("aria-pressed", state.called ? "true" : "false");
    const text = error || (state.answered ? t("answered") : state.called ? t("called") : "");
    if (status.textContent !== text) status.textContent = text;
  }

  async function poll() {
    try {
      const r = await fetch("/api/call-staff", { cache: "no-store" });
      if (r.status === 404) return false; // not in a café: no button
      if (r.ok) { state = await r.json(); render(); }
    } catch (e) { /* the table is away: try again */ }
    return true;
  }

  async function toggle() {
    const on = !(state && state.called);
    const headers = { "Content-Type": "application/json" };
    const token = localStorage.getItem(TOKEN_KEY);
    if (token) headers["X-Comptoir-Seat"] = token;
    button.disabled = true;
    try {
      const r = await fetch("/api/call-staff", { method: "POST", headers, body: JSON.stringify({ on }) });
      const body = await r.json().catch(() => ({}));
      if (r.ok) { state = body; error = ""; }
      else error = body[lang()] || t("failed");
    } catch (e) {
      error = t("failed");
    }
    if (error) setTimeout(() => { error = ""; render(); }, 8000);
    button.disabled = false;
    render();
  }

  async function start() {
    if (location.pathname === "/join") return; // no seat yet
    if (!(await poll())) return;
    setInterval(async () => {
      await poll();
      if (shownLang !== lang()) render();
    }, POLL_MS);
    // The language button redraws the page: follow it at once.
    new MutationObserver(() => { if (shownLang !== lang()) render(); })
      .observe(document.documentElement, { attributes: true, attributeFilter: ["lang"] });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
