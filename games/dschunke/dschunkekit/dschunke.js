// Dschunke: the round, the market card's prices and the goods sold, the
// five junks with their holds seen from above (the visible crate of each
// cell, in its owner's colour), the merchants and helpers, the piles of
// special cards; on a seat's phone its own goods cards, money, secret
// special cards and sealed bid. Returns {board, side, truth}: side is
// every player's public side (palettes, cards in hand, special cards, bid
// status), truth the bidding: sealed, then the bids revealed and the
// sales, drawn large on the table's screen.
//
// A junk a pawn may act on now, and a special card the player may play,
// are tappable (data-target, class tappable, ctx.tap) when the seat's
// actions (ctx.actions) have one with that target. Nothing here sends a
// command: the prompt's actions do (dschunkekit/play.go describes them).
// Registered in app.js's renderer table; texts in I18N; styles in
// dschunke.css.
"use strict";
window.RENDERERS = window.RENDERERS || {};

(function () {
  Object.assign(window.I18N.fr, {
    "dj.round": "Tour", "dj.of": "sur", "dj.phase": "Phase", "dj.first": "Premier joueur", "dj.turnOf": "À jouer",
    "dj.hands": "mains de départ", "dj.market": "carte marché à retourner", "dj.exchange": "échanges",
    "dj.events": "événements", "dj.draw": "carte spéciale à prendre", "dj.actions": "actions",
    "dj.restock": "réapprovisionnement", "dj.bidding": "enchère secrète", "dj.sale": "vente", "dj.over": "partie terminée",
    "dj.marketCard": "Carte marché", "dj.marketsLeft": "cartes marché restantes", "dj.sold": "vendu", "dj.special": "carte spéciale",
    "dj.junks": "Jonques", "dj.merchant": "marchand", "dj.crates": "caisses visibles", "dj.cardsLeft": "cartes",
    "dj.layer": "couche", "dj.layers": "couches", "dj.pawns": "Marchands et aides", "dj.with-merchant": "marchand", "dj.with-helper": "aide 1", "dj.with-helper2": "aide 2",
    "dj.act-load": "charger", "dj.act-income": "revenus", "dj.act-goods": "marchandises", "dj.square": "case",
    "dj.piles": "Paquets de cartes spéciales", "dj.players": "Joueurs", "dj.palettes": "palettes", "dj.palette": "palette", "dj.hand": "cartes en main", "dj.handOne": "carte en main",
    "dj.restockN": "réappro.", "dj.secret": "cartes spéciales cachées", "dj.secretOne": "carte spéciale cachée", "dj.bid": "Mise", "dj.acted": "a joué",
    "dj.wealth": "fortune annoncée", "dj.sealed": "scellée", "dj.none": "rien", "dj.waitBid": "en attente",
    "dj.biddings": "Mises révélées", "dj.biddingN": "Enchère", "dj.now": "en cours", "dj.sales": "Ventes", "dj.yuan": "yuan", "dj.yuans": "yuans", "dj.nobody": "personne",
    "dj.me": "Votre jeu (secret)", "dj.money": "Votre argent", "dj.myCards": "Vos cartes marchandises", "dj.mySpecial": "Vos cartes spéciales cachées",
    "dj.myBid": "Votre mise scellée", "dj.allSecrets": "Jeux révélés", "dj.bluff": "bluff, compte pour rien",
  });
  Object.assign(window.I18N.en, {
    "dj.round": "Round", "dj.of": "of", "dj.phase": "Phase", "dj.first": "First player", "dj.turnOf": "To play",
    "dj.hands": "starting hands", "dj.market": "market card to turn over", "dj.exchange": "exchanges",
    "dj.events": "events", "dj.draw": "special card to take", "dj.actions": "actions",
    "dj.restock": "restock", "dj.bidding": "secret bidding", "dj.sale": "sale", "dj.over": "game over",
    "dj.marketCard": "Market card", "dj.marketsLeft": "market cards left", "dj.sold": "sold", "dj.special": "special card",
    "dj.junks": "Junks", "dj.merchant": "merchant", "dj.crates": "visible crates", "dj.cardsLeft": "cards",
    "dj.layer": "layer", "dj.layers": "layers", "dj.pawns": "Merchants and helpers", "dj.with-merchant": "merchant", "dj.with-helper": "helper 1", "dj.with-helper2": "helper 2",
    "dj.act-load": "load", "dj.act-income": "income", "dj.act-goods": "goods", "dj.square": "square",
    "dj.piles": "Special card piles", "dj.players": "Players", "dj.palettes": "palettes", "dj.palette": "palette", "dj.hand": "cards in hand", "dj.handOne": "card in hand",
    "dj.restockN": "restock", "dj.secret": "hidden special cards", "dj.secretOne": "hidden special card", "dj.bid": "Bid", "dj.acted": "acted",
    "dj.wealth": "announced wealth", "dj.sealed": "sealed", "dj.none": "nothing", "dj.waitBid": "waiting",
    "dj.biddings": "Revealed bids", "dj.biddingN": "Bidding", "dj.now": "now", "dj.sales": "Sales", "dj.yuan": "yuan", "dj.yuans": "yuans", "dj.nobody": "nobody",
    "dj.me": "Your game (secret)", "dj.money": "Your money", "dj.myCards": "Your goods cards", "dj.mySpecial": "Your hidden special cards",
    "dj.myBid": "Your sealed bid", "dj.allSecrets": "Hands revealed", "dj.bluff": "a bluff, counts as nothing",
  });

  // Player colours, with a text colour readable on each (WCAG AA).
  const PAINT = { blue: ["#1f618d", "#fff"], green: ["#1d7a45", "#fff"], red: ["#b03a2e", "#fff"], yellow: ["#f1c40f", "#1f1a14"] };
  const JUNK = { brown: "#8d6e63", white: "#eceff1", orange: "#f0a04b", purple: "#9b59b6", grey: "#9e9e9e" };

  function named(map, key, lang) {
    return (map && map[key] && (map[key][lang] || map[key].en)) || key;
  }

  window.RENDERERS.dschunke = function (v, f, c) {
    const h = c.h, t = c.t, lang = c.lang, info = c.info || {};
    const sep = lang === "fr" ? " : " : ": ";
    const name = (s) => (s >= 0 ? c.playerName(s) : "–");
    const paint = (s) => PAINT[(v.players[s] || {}).colour] || ["#777", "#fff"];
    const me = f.role === "seat" ? f.seat : -1;
    const waiting = v.waiting || []; // null once the game is over
    const goodsName = (g) => named(info.goods, g, lang);
    const cap = (x) => x.charAt(0).toUpperCase() + x.slice(1);
    // "Jonque brune" / "Brown junk".
    const junkName = (key) => { const n = named(info.extra, "junk-" + key, lang); return lang === "fr" ? "Jonque " + n : cap(n) + " junk"; };
    // one: the singular for n, French keeping 0 in the singular.
    const one = (n) => n === 1 || (lang === "fr" && n === 0);
    const yuans = (n) => n + " " + t(one(n) ? "dj.yuan" : "dj.yuans");
    const goodsList = (obj) => {
      const keys = Object.keys(obj || {}).filter((k) => obj[k] > 0).sort();
      return keys.length ? keys.map((k) => goodsName(k) + " ×" + obj[k]).join(", ") : "–";
    };
    // bidText turns "fish:3", "fish:1+rice:1", "none" or "sealed" into words.
    const bidText = (b) => {
      if (!b || b === "none") return t("dj.none");
      if (b === "sealed") return "🔒 " + t("dj.sealed");
      const parts = b.split("+").map((p) => { const [g, n] = p.split(":"); return goodsName(g) + " ×" + n; });
      return parts.join(" + ") + (parts.length > 1 ? " (" + t("dj.bluff") + ")" : "");
    };

    // What the seat may tap: the targets of its actions.
    const targets = new Set((c.actions || []).filter((a) => a.target).map((a) => a.target));
    const tap = (el, key) => {
      if (!key || !targets.has(key) || typeof c.tap !== "function") return el;
      el.classList.add("tappable");
      el.setAttribute("data-target", key);
      el.setAttribute("role", "button");
      el.tabIndex = 0;
      el.addEventListener("click", () => c.tap(key));
      el.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); c.tap(key); } });
      return el;
    };

    // The board.
    const board = [];
    const status = [h("span", {}, t("dj.round") + " " + v.round + " " + t("dj.of") + " 10"),
      h("span", { class: "phase" }, t("dj.phase") + sep, h("strong", {}, t("dj." + v.phase))),
      h("span", {}, t("dj.first") + sep + name(v.first) + " ⚓")];
    if (v.turn >= 0) status.push(h("span", {}, t("dj.turnOf") + sep, h("strong", {}, name(v.turn))));
    board.push(h("p", { class: "dj-status" }, status));

    // The market card: each goods' price, the goods sold.
    if (v.market) {
      const sold = new Set(v.sold || []);
      board.push(h("div", { class: "dj-market", id: "dj-market", "data-market": v.market },
        h("h3", {}, t("dj.marketCard"), h("span", { class: "dj-muted" }, " · " + v.marketsLeft + " " + t("dj.marketsLeft"))),
        h("ul", { class: "dj-prices" }, Object.keys(v.prices).sort().map((g) => h("li", { class: sold.has(g) ? "sold" : "", "data-goods": g },
          h("span", { class: "dj-swatch", style: "background:" + (JUNK[(info.goods && info.goods[g] && info.goods[g].colour)] || "#ccc") }),
          h("span", {}, cap(goodsName(g))), h("strong", {}, v.prices[g] === "S" ? t("dj.special") : yuans(Number(v.prices[g]))),
          sold.has(g) ? h("span", { class: "dj-sold" }, "● " + t("dj.sold")) : null)))));
    } else {
      board.push(h("p", { class: "dj-muted" }, v.marketsLeft + " " + t("dj.marketsLeft")));
    }

    // The junks, seen from above; the pawns on them.
    const pawnsOn = {};
    v.pawns.forEach((p) => { if (p.junk) (pawnsOn[p.junk] = pawnsOn[p.junk] || []).push(p); });
    const junks = v.junks.map((j) => {
      const grid = h("div", { class: "dj-hold", role: "img", "aria-label": t("dj.crates") }, j.visible.map((s, i) => {
        const [bg, fg] = s >= 0 ? paint(s) : ["", ""];
        return h("span", { class: "dj-crate" + (s < 0 ? " bare" : ""), "data-cell": i, style: s >= 0 ? "background:" + bg + ";color:" + fg : "" },
          s >= 0 ? name(s).slice(0, 1) : "");
      }));
      const crates = j.crates.map((n, s) => (n ? name(s) + " " + n : null)).filter(Boolean).join(", ");
      const layers = j.layers.length;
      const el = h("div", { class: "dj-junk", "data-junk": j.key, style: "--junk:" + (JUNK[j.key] || "#ccc") },
        h("h4", {}, junkName(j.key)),
        j.merchant ? h("p", { class: "dj-pawn" }, "⚑ " + t("dj.merchant") + " · " + t("dj.act-" + j.merchant) + ((pawnsOn[j.key] || []).some((p) => p.used) ? " ✓" : "")) : null,
        grid,
        h("p", { class: "dj-junkinfo" }, layers + " " + t(one(layers) ? "dj.layer" : "dj.layers") +
          (j.goods ? " · " + goodsName(j.goods) + " ×" + j.cards : "")),
        h("p", { class: "dj-junkinfo" }, t("dj.crates") + sep + (crates || "–")));
      return tap(el, j.key);
    });
    board.push(h("div", { class: "dj-junks", id: "dj-junks" }, h("h3", {}, t("dj.junks")), h("div", { class: "dj-junkgrid" }, junks)));

    board.push(h("p", { class: "dj-pawns" }, h("strong", {}, t("dj.pawns") + sep),
      v.pawns.map((p, i) => h("span", { class: "dj-pawnitem" + (p.used ? " used" : "") }, (i ? " · " : "") + t("dj.with-" + p.with) + " (" + t("dj.act-" + p.action) + ")" +
        (p.junk ? " · " + junkName(p.junk) : "") + (p.square ? " " + t("dj.square") + " " + p.square + (p.event ? " " + p.event : "") : "") +
        (p.used ? " ✓" : "")))));
    board.push(h("p", { class: "dj-piles" }, h("strong", {}, t("dj.piles") + sep),
      v.piles.map((p) => named(info.decks, p.key, lang) + " " + p.cards).join(" · ")));

    // A seat's secrets, its special cards tappable when playable.
    if (v.me) {
      const m = v.me;
      const mine = v.players[me] || {};
      board.push(h("div", { class: "dj-me", id: "dj-me" }, h("h3", {}, t("dj.me")),
        h("p", { class: "dj-money" }, t("dj.money") + sep, h("strong", { id: "money" }, yuans(m.money))),
        h("p", {}, t("dj.myCards") + sep, h("span", { id: "hand" }, goodsList(m.hand))),
        m.special && m.special.length ? h("div", { class: "dj-mycards" }, h("p", {}, t("dj.mySpecial") + sep),
          h("ul", { class: "dj-cardlist" }, m.special.map((id) => tap(h("li", { class: "dj-card", "data-card": id }, named(info.cards, id, lang)), id)))) : null,
        (mine.always || []).length ? h("ul", { class: "dj-cardlist" }, mine.always.map((id) => tap(h("li", { class: "dj-card up", "data-card": id }, named(info.cards, id, lang)), id))) : null,
        m.bid ? h("p", { class: "dj-mybid" }, t("dj.myBid") + sep, h("strong", { id: "mybid" }, goodsList(m.bid) === "–" ? t("dj.none") : goodsList(m.bid))) : null));
    }

    // The players' public side.
    const side = h("ul", { class: "dj-side", id: "dj-players" }, v.players.map((p) => {
      const [bg, fg] = paint(p.seat);
      const specials = [...(p.always || []).map((id) => named(info.cards, id, lang)), ...(p.played || []).map((id) => named(info.cards, id, lang) + " ✓")];
      if (p.secret) specials.push(p.secret + " " + t(one(p.secret) ? "dj.secretOne" : "dj.secret"));
      return h("li", { class: "dj-player" + (p.seat === me ? " me" : "") + (waiting.includes(p.seat) ? " active" : ""), "data-seat": p.seat },
        h("p", { class: "dj-pname" }, h("span", { class: "dj-dot", style: "background:" + bg + ";color:" + fg }, p.name.slice(0, 1)), " ", h("strong", {}, p.name),
          p.seat === v.first ? " ⚓" : "", p.acted ? h("span", { class: "dj-muted" }, " · " + t("dj.acted")) : null),
        h("p", {}, p.palettes + " " + t(one(p.palettes) ? "dj.palette" : "dj.palettes") + " · " + p.cards + " " + t(one(p.cards) ? "dj.handOne" : "dj.hand") +
          " · " + t("dj.restockN") + " " + p.restock),
        specials.length ? h("p", { class: "dj-muted" }, specials.join(", ")) : null,
        p.bid || v.phase === "bidding" ? h("p", { class: "dj-bidstate", id: "bid-" + p.seat, "data-bid": p.bid || "" }, t("dj.bid") + sep + (p.bid ? bidText(p.bid) : t("dj.waitBid"))) : null,
        p.announced !== undefined ? h("p", {}, t("dj.wealth") + sep + yuans(p.announced)) : null);
    }));
    const sideParts = [side];
    // At the end every secret is public.
    if (v.staffSecrets && v.staffSecrets.length) {
      sideParts.push(h("div", { class: "dj-secrets" }, h("h3", {}, t("dj.allSecrets")), h("ul", {}, v.staffSecrets.map((p) => h("li", {},
        h("strong", {}, name(p.seat)), sep + yuans(p.money) + " · " + goodsList(p.hand) +
        (p.special && p.special.length ? " · " + p.special.map((id) => named(info.cards, id, lang)).join(", ") : ""))))));
    }

    // The moment of truth: the bidding, sealed, then revealed, and the
    // sales; a column per bidding of the round, a row per player.
    let truth = null;
    const biddings = v.biddings || [];
    if (biddings.length || v.phase === "bidding") {
      const cols = biddings.map((b, i) => ({ head: String(i + 1), cell: (s) => bidText(b[s]), revealed: true }));
      if (v.phase === "bidding") cols.push({ head: (biddings.length + 1) + " (" + t("dj.now") + ")", cell: (s) => (v.players[s].bid ? bidText(v.players[s].bid) : "… " + t("dj.waitBid")), revealed: false });
      const parts = [h("h3", {}, biddings.length ? t("dj.biddings") : cap(t("dj.bidding"))),
        h("table", { class: "dj-bids" },
          h("thead", {}, h("tr", {}, h("th", {}, t("dj.biddingN")), cols.map((col) => h("th", {}, col.head)))),
          h("tbody", {}, v.players.map((p) => h("tr", { "data-seat": p.seat }, h("th", {}, p.name),
            cols.map((col) => h("td", { class: col.revealed ? "revealed" : "sealed", "data-seat": p.seat }, col.cell(p.seat)))))))];
      if (v.sales && v.sales.length) {
        parts.push(h("ul", { class: "dj-sales", id: "dj-sales" }, v.sales.map((s) => h("li", {},
          h("strong", {}, goodsName(s.goods)), sep + ((s.winners || []).length ? s.winners.map(name).join(", ") : t("dj.nobody")) +
          (s.special ? " · " + t("dj.special") : s.yuans ? " · " + yuans(s.yuans) : (s.winners || []).length ? " · " + t("dj.none") : "")))));
      }
      truth = h("div", { class: "dj-truth" + (c.tv ? " dj-tv" : "") + (cols.length > 2 ? " dj-many" : ""), id: "dj-biddings" }, parts);
    }

    return {
      board: h("div", { class: "dschunke dj-board" + (c.tv ? " dj-tv" : "") }, board),
      side: h("div", { class: "dschunke dj-sidebox" + (c.tv ? " dj-tv" : "") }, sideParts),
      truth: truth,
    };
  };
})();
