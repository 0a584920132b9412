// Dschunke: the round, the market card's prices and the goods sold, the
// five junks with their holds seen from above (the visible crate of each
// cell, in its owner's colour), the merchants and helpers, the piles of
// special cards, every player's public side (palettes, cards in hand,
// bid status: "sealed" until the reveal), the revealed bids and the sales
// of the round; on a seat's phone its own goods cards, money, secret
// special cards and sealed bid, and the bid form while the bidding is open.
// Registered in app.js's renderer table; texts in I18N.
"use strict";
window.RENDERERS = window.RENDERERS || {};

(function () {
  Object.assign(window.I18N.fr, {
    "dj.round": "Tour", "dj.of": "sur", "dj.phase": "Phase", "dj.first": "Premier joueur", "dj.turnOf": "À jouer",
    "dj.hands": "mains de départ (téléphones)", "dj.market": "carte marché (scanner)", "dj.exchange": "échanges",
    "dj.events": "événements", "dj.draw": "carte spéciale à prendre (scanner)", "dj.actions": "actions",
    "dj.restock": "réapprovisionnement", "dj.bidding": "enchères secrètes", "dj.sale": "vente", "dj.over": "partie terminée",
    "dj.marketCard": "Carte marché", "dj.marketsLeft": "cartes marché restantes", "dj.sold": "vendu", "dj.special": "carte spéciale",
    "dj.junks": "Jonques", "dj.junk": "jonque", "dj.cards": "cartes", "dj.merchant": "marchand", "dj.crates": "caisses visibles",
    "dj.layers": "couche(s)", "dj.pawns": "Marchands et aides", "dj.with-merchant": "marchand", "dj.with-helper": "aide 1", "dj.with-helper2": "aide 2",
    "dj.act-load": "charger", "dj.act-income": "revenus", "dj.act-goods": "marchandises", "dj.used": "utilisé", "dj.square": "case",
    "dj.piles": "Paquets de cartes spéciales", "dj.players": "Joueurs", "dj.palettes": "Palettes", "dj.hand": "Cartes en main",
    "dj.restockN": "Réappro.", "dj.specials": "Cartes spéciales", "dj.secret": "cachées", "dj.bid": "Mise", "dj.acted": "a joué",
    "dj.wealth": "Fortune annoncée", "dj.sealed": "scellée", "dj.none": "rien", "dj.waitBid": "en attente",
    "dj.biddings": "Mises révélées", "dj.bidding": "Enchère", "dj.sales": "Ventes", "dj.yuans": "yuans", "dj.nobody": "personne",
    "dj.me": "Votre jeu (secret)", "dj.money": "Votre argent", "dj.myCards": "Vos cartes marchandises", "dj.mySpecial": "Vos cartes spéciales cachées",
    "dj.myBid": "Votre mise scellée", "dj.bidTitle": "Votre mise secrète", "dj.bidHint": "Une seule marchandise ; plusieurs marchandises = bluff (ne compte pas). Zéro partout : ne rien miser.",
    "dj.sendBid": "Sceller ma mise", "dj.allSecrets": "Jeux révélés",
    "dj.handTitle": "Votre main de départ", "dj.handHint": "Comptez vos 8 cartes marchandises, par marchandise (secret).", "dj.sendHand": "Enregistrer ma main",
  });
  Object.assign(window.I18N.en, {
    "dj.round": "Round", "dj.of": "of", "dj.phase": "Phase", "dj.first": "First player", "dj.turnOf": "To play",
    "dj.hands": "starting hands (phones)", "dj.market": "market card (scanner)", "dj.exchange": "exchanges",
    "dj.events": "events", "dj.draw": "special card to take (scanner)", "dj.actions": "actions",
    "dj.restock": "restock", "dj.bidding": "secret bidding", "dj.sale": "sale", "dj.over": "game over",
    "dj.marketCard": "Market card", "dj.marketsLeft": "market cards left", "dj.sold": "sold", "dj.special": "special card",
    "dj.junks": "Junks", "dj.junk": "junk", "dj.cards": "cards", "dj.merchant": "merchant", "dj.crates": "visible crates",
    "dj.layers": "layer(s)", "dj.pawns": "Merchants and helpers", "dj.with-merchant": "merchant", "dj.with-helper": "helper 1", "dj.with-helper2": "helper 2",
    "dj.act-load": "load", "dj.act-income": "income", "dj.act-goods": "goods", "dj.used": "used", "dj.square": "square",
    "dj.piles": "Special card piles", "dj.players": "Players", "dj.palettes": "Palettes", "dj.hand": "Cards in hand",
    "dj.restockN": "Restock", "dj.specials": "Special cards", "dj.secret": "hidden", "dj.bid": "Bid", "dj.acted": "acted",
    "dj.wealth": "Announced wealth", "dj.sealed": "sealed", "dj.none": "nothing", "dj.waitBid": "waiting",
    "dj.biddings": "Revealed bids", "dj.bidding": "Bidding", "dj.sales": "Sales", "dj.yuans": "yuans", "dj.nobody": "nobody",
    "dj.me": "Your game (secret)", "dj.money": "Your money", "dj.myCards": "Your goods cards", "dj.mySpecial": "Your hidden special cards",
    "dj.myBid": "Your sealed bid", "dj.bidTitle": "Your secret bid", "dj.bidHint": "One goods only; several goods are a bluff (counts as nothing). All zero: bid nothing.",
    "dj.sendBid": "Seal my bid", "dj.allSecrets": "Hands revealed",
    "dj.handTitle": "Your starting hand", "dj.handHint": "Count your 8 goods cards, goods by goods (secret).", "dj.sendHand": "Record my hand",
  });

  // The page is drawn again at every step of the game, anyone's: what a
  // player is typing in the bid form is kept here, with the field he is
  // in, and put back in the new form.
  const draft = {};
  function keep(form, key) {
    const d = draft[key] || (draft[key] = {});
    for (const el of form.elements) {
      if (!el.name) continue;
      if (el.name in d) el.value = d[el.name];
      el.addEventListener("input", () => { d[el.name] = el.value; });
      el.addEventListener("focus", () => { draft.focus = key + "/" + el.name; });
      el.addEventListener("blur", () => setTimeout(() => { if (document.contains(el) && draft.focus === key + "/" + el.name) draft.focus = ""; }, 0));
      if (draft.focus === key + "/" + el.name) setTimeout(() => { if (document.contains(el)) el.focus(); }, 0);
    }
    form.addEventListener("submit", () => { delete draft[key]; draft.focus = ""; });
    return form;
  }

  const PAINT = { blue: "#2471a3", green: "#229954", red: "#c0392b", yellow: "#d4ac0d" };
  const JUNK = { brown: "#8d6e63", white: "#eceff1", orange: "#f0a04b", purple: "#9b59b6", grey: "#9e9e9e" };

  function named(map, key, lang) {
    return (map && map[key] && (map[key][lang] || map[key].en)) || key;
  }
  function goodsList(info, obj, lang) {
    const keys = Object.keys(obj || {}).filter((k) => obj[k] > 0).sort();
    if (!keys.length) return "–";
    return keys.map((k) => named(info && info.goods, k, lang) + " ×" + obj[k]).join(", ");
  }
  // bidText turns "fish:3", "fish:1+rice:1" or "none" into words.
  function bidText(info, b, t, lang) {
    if (b === "none" || b === "") return t("dj.none");
    if (b === "sealed") return "🔒 " + t("dj.sealed");
    return b.split("+").map((p) => { const [g, n] = p.split(":"); return named(info && info.goods, g, lang) + " ×" + n; }).join(" + ");
  }

  window.RENDERERS.dschunke = function (v, f, c) {
    const h = c.h, t = c.t, lang = c.lang, info = c.info;
    const sep = lang === "fr" ? " : " : ": ";
    const name = (s) => (s >= 0 ? c.playerName(s) : "–");
    const paint = (s) => PAINT[(v.players[s] || {}).colour] || "#777";
    const me = f.role === "seat" ? f.seat : -1;
    const out = [];

    const status = [h("span", {}, t("dj.round") + " " + v.round + " " + t("dj.of") + " 10"),
      h("span", { class: "phase" }, t("dj.phase") + sep, h("strong", {}, t("dj." + v.phase))),
      h("span", {}, t("dj.first") + sep + name(v.first))];
    if (v.turn >= 0) status.push(h("span", {}, t("dj.turnOf") + sep, h("strong", {}, name(v.turn))));
    out.push(h("p", { class: "dj-status" }, status));

    // The market card.
    if (v.market) {
      const sold = new Set(v.sold || []);
      out.push(h("div", { class: "dj-market", id: "dj-market", "data-market": v.market },
        h("h3", {}, t("dj.marketCard") + sep + v.market + " · " + v.marketsLeft + " " + t("dj.marketsLeft")),
        h("ul", { class: "prices" }, Object.keys(v.prices).sort().map((g) => h("li", { class: sold.has(g) ? "sold" : "", "data-goods": g },
          h("span", { class: "swatch", style: "background:" + (JUNK[(info && info.goods && info.goods[g] && info.goods[g].colour)] || "#ccc") }), " ",
          named(info && info.goods, g, lang) + sep, h("strong", {}, v.prices[g] === "S" ? "S (" + t("dj.special") + ")" : v.prices[g] + " " + t("dj.yuans")),
          sold.has(g) ? " ● " + t("dj.sold") : "")))));
    } else {
      out.push(h("p", { class: "hint" }, v.marketsLeft + " " + t("dj.marketsLeft")));
    }

    // The junks, seen from above.
    const junks = v.junks.map((j) => {
      const grid = h("div", { class: "hold", "aria-label": t("dj.crates") }, j.visible.map((s, i) => h("span", { class: "crate" + (s < 0 ? " bare" : ""), "data-cell": i,
        style: s >= 0 ? "background:" + paint(s) : "" }, s >= 0 ? String(s + 1) : "")));
      const crates = j.crates.map((n, s) => n ? name(s) + " " + n : null).filter(Boolean).join(", ");
      return h("div", { class: "junk", "data-junk": j.key, style: "--junk:" + (JUNK[j.key] || "#ccc") },
        h("h4", {}, named(info && info.extra, "junk-" + j.key, lang) + (j.merchant ? " · ⚑ " + t("dj.merchant") + " (" + t("dj.act-" + j.merchant) + ")" : "")),
        grid,
        h("p", { class: "junkinfo" }, j.layers.length + " " + t("dj.layers") + (j.goods ? " · " + named(info && info.goods, j.goods, lang) + " ×" + j.cards : ""),
          h("br"), t("dj.crates") + sep + (crates || "–")));
    });
    out.push(h("div", { class: "dj-junks", id: "dj-junks" }, h("h3", {}, t("dj.junks")), h("div", { class: "junks" }, junks)));

    // Merchants and helpers, and the piles.
    out.push(h("p", { class: "dj-pawns" }, h("strong", {}, t("dj.pawns") + sep),
      v.pawns.map((p, i) => h("span", { class: "pawn" + (p.used ? " used" : "") }, (i ? " · " : "") + t("dj.with-" + p.with) + " (" + t("dj.act-" + p.action) + ")" +
        (p.junk ? " " + named(info && info.extra, "junk-" + p.junk, lang) : "") + (p.square ? " " + t("dj.square") + " " + p.square + (p.event ? " " + p.event : "") : "") +
        (p.used ? " ✓" : "")))));
    out.push(h("p", { class: "dj-piles" }, h("strong", {}, t("dj.piles") + sep),
      v.piles.map((p) => named(info && info.decks, p.key, lang) + " " + p.cards).join(" · ")));

    // Players, public side; the bid column is "sealed" until the reveal.
    const rows = v.players.map((p) => h("tr", { class: (p.seat === me ? "me" : "") + (v.waiting.includes(p.seat) ? " active" : ""), "data-seat": p.seat },
      h("td", {}, h("span", { class: "dot", style: "color:" + paint(p.seat) }, "■ "), p.name, p.seat === v.first ? " ⚓" : ""),
      h("td", {}, p.palettes), h("td", { class: "count" }, p.cards), h("td", {}, p.restock),
      h("td", {}, [...(p.always || []), ...(p.played || []).map((x) => x + " ✓")].map((id) => named(info && info.cards, id, lang)).join(", ") + (p.secret ? " + " + p.secret + " " + t("dj.secret") : "")),
      h("td", { class: "bid", id: "bid-" + p.seat, "data-bid": p.bid || "" }, p.bid ? bidText(info, p.bid, t, lang) : (v.phase === "bidding" ? t("dj.waitBid") : "")),
      h("td", {}, p.announced !== undefined ? String(p.announced) : "")));
    out.push(h("div", { class: "scroll" }, h("table", { class: "holdings dj-players", id: "dj-players" },
      h("thead", {}, h("tr", {}, [t("dj.players"), t("dj.palettes"), t("dj.hand"), t("dj.restockN"), t("dj.specials"), t("dj.bid"), t("dj.wealth")].map((x) => h("th", {}, x)))),
      h("tbody", {}, rows))));

    // The round's revealed bids and sales.
    if (v.biddings && v.biddings.length) {
      out.push(h("div", { class: "dj-biddings", id: "dj-biddings" }, h("h3", {}, t("dj.biddings")), h("table", { class: "holdings" },
        h("thead", {}, h("tr", {}, h("th", {}, ""), v.players.map((p) => h("th", {}, p.name)))),
        h("tbody", {}, v.biddings.map((b, i) => h("tr", {}, h("td", {}, t("dj.bidding") + " " + (i + 1)),
          b.map((x, s) => h("td", { class: "revealed", "data-seat": s }, bidText(info, x, t, lang)))))))));
    }
    if (v.sales && v.sales.length) {
      out.push(h("div", { class: "dj-sales", id: "dj-sales" }, h("h3", {}, t("dj.sales")), h("ul", {}, v.sales.map((s) => h("li", {},
        named(info && info.goods, s.goods, lang) + sep + ((s.winners || []).length ? s.winners.map(name).join(", ") : t("dj.nobody")) +
        (s.special ? " · " + t("dj.special") : s.yuans ? " · " + s.yuans + " " + t("dj.yuans") : ""))))));
    }

    // A seat's secrets.
    if (v.me) {
      const m = v.me;
      out.push(h("div", { class: "mine dj-me", id: "dj-me" }, h("h3", {}, t("dj.me")),
        h("p", { class: "money" }, t("dj.money") + sep, h("strong", { id: "money" }, m.money), " " + t("dj.yuans")),
        h("p", {}, t("dj.myCards") + sep, h("span", { id: "hand" }, goodsList(info, m.hand, lang))),
        m.special && m.special.length ? h("p", {}, t("dj.mySpecial") + sep, m.special.map((id) => named(info && info.cards, id, lang)).join(", ")) : null,
        m.bid ? h("p", { class: "mybid" }, t("dj.myBid") + sep, h("strong", { id: "mybid" }, goodsList(info, m.bid, lang) === "–" ? t("dj.none") : goodsList(info, m.bid, lang))) : null));

      // The starting hand, typed once on the phone.
      if (v.phase === "hands" && v.waiting.includes(me) && info && info.goods) {
        const inputs = Object.keys(info.goods).sort().map((g) =>
          h("label", {}, named(info.goods, g, lang), h("input", { type: "number", name: g, min: 0, max: 8, step: 1, value: 0, inputmode: "numeric" })));
        const form = h("form", { class: "dj-hand", id: "dj-hand", onsubmit: (e) => {
          e.preventDefault();
          const parts = [];
          for (const el of form.querySelectorAll("input[type=number]")) if (Number(el.value) > 0) parts.push(el.name + ":" + Number(el.value));
          c.send("hand goods=" + parts.join(","));
        } }, h("h3", {}, t("dj.handTitle")), h("p", { class: "hint" }, t("dj.handHint")), inputs, h("button", { type: "submit" }, t("dj.sendHand")));
        out.push(keep(form, "hand"));
      }

      // The bid form, while the bidding is open and this seat has not bid.
      const mine = v.players[me] || {};
      if (v.phase === "bidding" && !mine.bid && v.waiting.includes(me)) {
        const sold = new Set(v.sold || []);
        const inputs = Object.keys(m.hand || {}).filter((g) => m.hand[g] > 0 && !sold.has(g)).sort().map((g) =>
          h("label", {}, named(info && info.goods, g, lang) + " (≤ " + m.hand[g] + ")",
            h("input", { type: "number", name: g, min: 0, max: m.hand[g], step: 1, value: 0, inputmode: "numeric" })));
        const form = h("form", { class: "dj-bid", id: "dj-bid", onsubmit: (e) => {
          e.preventDefault();
          const parts = [];
          for (const el of form.querySelectorAll("input[type=number]")) if (Number(el.value) > 0) parts.push(el.name + ":" + Number(el.value));
          c.send(parts.length ? "bid goods=" + parts.join(",") : "bid");
        } }, h("h3", {}, t("dj.bidTitle")), h("p", { class: "hint" }, t("dj.bidHint")), inputs, h("button", { type: "submit" }, t("dj.sendBid")));
        out.push(keep(form, "bid-" + v.round + "-" + (v.biddings || []).length));
      }
    }
    // At the end every secret is public.
    if (v.staffSecrets && v.staffSecrets.length) {
      out.push(h("div", { class: "dj-secrets" }, h("h3", {}, t("dj.allSecrets")), h("ul", {}, v.staffSecrets.map((p) => h("li", {},
        h("strong", {}, name(p.seat)), sep + p.money + " " + t("dj.yuans") + " · " + goodsList(info, p.hand, lang) +
        (p.special && p.special.length ? " · " + p.special.map((id) => named(info && info.cards, id, lang)).join(", ") : ""))))));
    }
    return h("div", { class: "dschunke" }, out);
  };
})();
