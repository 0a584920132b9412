// Négoce 2: every player's coins (public in this game) and card count, the
// Contraband auction, the market with the seller's coins on his card, the
// buyers' offers as their owners laid them (a card laid face down shows
// its back to everyone but its owner), the good named in a forced sale and
// the cards it revealed, the winner's hand; on a seat's phone its own hand
// with the card of its offer marked, and forms to offer, bid, set a bonus
// and name a good. Registered in app.js's renderer table; texts in I18N.
"use strict";
window.RENDERERS = window.RENDERERS || {};

(function () {
  Object.assign(window.I18N.fr, {
    "ng.phase": "Phase", "ng.deal": "donne des cartes (scanner)", "ng.auction": "enchère de la Contrebande",
    "ng.lay": "le vendeur pose sa carte", "ng.negotiate": "négociation", "ng.force-name": "vente forcée : le vendeur nomme une marchandise",
    "ng.force-pick": "vente forcée : le vendeur choisit une carte", "ng.over": "partie terminée",
    "ng.sales": "Ventes", "ng.seller": "Vendeur", "ng.coins": "Pièces", "ng.cards": "Cartes", "ng.passed": "a passé",
    "ng.auctionTitle": "Enchère de la Contrebande", "ng.price": "Prix", "ng.high": "Meilleure offre", "ng.turnBid": "À enchérir",
    "ng.notOpened": "pas encore ouverte : le premier qui mise 1 l'ouvre",
    "ng.market": "Marché", "ng.bonus": "Pièces du vendeur sur sa carte", "ng.offers": "Offres", "ng.noOffer": "aucune offre",
    "ng.back": "carte face cachée", "ng.hiddenMine": "face cachée (vous seul la voyez)", "ng.named": "Marchandise demandée",
    "ng.revealed": "Cartes montrées", "ng.hand": "Votre main", "ng.hands": "Toutes les mains (personnel)", "ng.offered": "offerte", "ng.winner": "Gagnant", "ng.winnerHand": "Main du gagnant",
    "ng.offerTitle": "Faire une offre", "ng.card": "Carte", "ng.noCard": "aucune carte", "ng.up": "face visible",
    "ng.send": "Offrir", "ng.bonusTitle": "Poser des pièces sur votre carte", "ng.set": "Poser", "ng.plus": "et",
    "ng.coinsWord": "pièce(s)", "ng.nameTitle": "Nommer une marchandise", "ng.dealHint": "Posez vos huit cartes sur le lecteur, chacun à son tour dans l'ordre des places.",
  });
  Object.assign(window.I18N.en, {
    "ng.phase": "Phase", "ng.deal": "dealing the cards (scanner)", "ng.auction": "Contraband auction",
    "ng.lay": "the seller lays his card", "ng.negotiate": "negotiation", "ng.force-name": "forced sale: the seller names a good",
    "ng.force-pick": "forced sale: the seller picks a card", "ng.over": "game over",
    "ng.sales": "Sales", "ng.seller": "Seller", "ng.coins": "Coins", "ng.cards": "Cards", "ng.passed": "passed",
    "ng.auctionTitle": "Contraband auction", "ng.price": "Price", "ng.high": "Highest bid", "ng.turnBid": "To bid",
    "ng.notOpened": "not opened yet: whoever bids 1 first opens it",
    "ng.market": "Market", "ng.bonus": "Seller's coins on his card", "ng.offers": "Offers", "ng.noOffer": "no offer",
    "ng.back": "face-down card", "ng.hiddenMine": "face down (only you see it)", "ng.named": "Good asked for",
    "ng.revealed": "Cards shown", "ng.hand": "Your hand", "ng.hands": "Every hand (staff)", "ng.offered": "offered", "ng.winner": "Winner", "ng.winnerHand": "Winner's hand",
    "ng.offerTitle": "Make an offer", "ng.card": "Card", "ng.noCard": "no card", "ng.up": "face up",
    "ng.send": "Offer", "ng.bonusTitle": "Lay coins on your card", "ng.set": "Lay", "ng.plus": "and",
    "ng.coinsWord": "coin(s)", "ng.nameTitle": "Name a good", "ng.dealHint": "Lay your eight cards on the reader, each in turn in seat order.",
  });

  const COLOURS = ["#c0392b", "#2471a3", "#229954", "#c99a06"];

  // The page is drawn again at every step of the game, anyone's: what a
  // player is typing in a form is kept here, with the field he is in, and
  // put back in the new form.
  const draft = {};
  function keep(form, key) {
    const d = draft[key] || (draft[key] = {});
    for (const el of form.elements) {
      if (!el.name) continue;
      if (el.name in d) { if (el.type === "checkbox") el.checked = d[el.name]; else el.value = d[el.name]; }
      el.addEventListener("input", () => { d[el.name] = el.type === "checkbox" ? el.checked : el.value; });
      el.addEventListener("change", () => { d[el.name] = el.type === "checkbox" ? el.checked : el.value; });
      el.addEventListener("focus", () => { draft.focus = key + "/" + el.name; });
      // A blur while the field is still on the page is the player's; a
      // field taken away by the new drawing keeps its focus for the next.
      el.addEventListener("blur", () => setTimeout(() => { if (document.contains(el) && draft.focus === key + "/" + el.name) draft.focus = ""; }, 0));
      if (draft.focus === key + "/" + el.name) setTimeout(() => { if (document.contains(el)) el.focus(); }, 0);
    }
    form.addEventListener("submit", () => { delete draft[key]; });
    return form;
  }

  // card draws a card as the viewer may see it: its face, or its back.
  function card(h, t, lang, cv, extra) {
    if (!cv.card) {
      return h("span", { class: "ncard back", title: t("ng.back") }, h("span", { class: "nback", "aria-hidden": "true" }, "✦"), " ", t("ng.back"));
    }
    const name = lang === "fr" ? cv.nameFr : cv.nameEn;
    return h("span", { class: "ncard face" + (cv.up ? " up" : " down") + (cv.good ? " g-" + cv.good : " contraband"), "data-card": cv.card },
      cv.number ? h("span", { class: "num" }, cv.number) : null, " ", name, " ", h("small", {}, "(" + cv.card + ")"),
      cv.up ? null : h("em", { class: "mine-down" }, " · " + t("ng.hiddenMine")), extra || null);
  }

  window.RENDERERS.negoce = function (v, f, c) {
    const h = c.h, t = c.t, lang = c.lang;
    const sep = lang === "fr" ? " : " : ": ";
    const name = (s) => (s >= 0 ? c.playerName(s) : "–");
    const me = f.role === "seat" ? f.seat : -1;
    const out = [];

    const status = [h("span", { class: "phase" }, t("ng.phase") + sep, h("strong", {}, t("ng." + v.phase))),
      h("span", {}, t("ng.sales") + sep + v.sales)];
    if (v.seller >= 0) status.push(h("span", { class: "seller" }, t("ng.seller") + sep, h("strong", {}, name(v.seller))));
    out.push(h("p", { class: "ng-status" }, status));
    if (v.phase === "deal") out.push(h("p", { class: "hint" }, t("ng.dealHint")));

    // Players: coins are public in Négoce.
    const rows = v.players.map((p) => h("tr", { class: (p.seat === me ? "me" : "") + (p.seat === v.seller ? " seller" : "") + (v.waiting.includes(p.seat) ? " active" : ""), "data-seat": p.seat },
      h("td", {}, h("span", { class: "dot", style: "color:" + COLOURS[p.seat % COLOURS.length] }, "● "), p.name, p.seat === v.seller ? " ⚖" : ""),
      h("td", { class: "coins" }, p.coins),
      h("td", { class: "count" }, p.cards),
      h("td", {}, p.passed ? t("ng.passed") : "")));
    out.push(h("div", { class: "scroll" }, h("table", { class: "holdings ng-players", id: "ng-players" },
      h("thead", {}, h("tr", {}, [t("players"), t("ng.coins"), t("ng.cards"), ""].map((x) => h("th", {}, x)))),
      h("tbody", {}, rows))));

    if (v.auction) {
      const a = v.auction;
      out.push(h("div", { class: "ng-auction", id: "ng-auction" }, h("h3", {}, t("ng.auctionTitle")),
        a.opened ? h("p", {}, t("ng.price") + sep, h("strong", { class: "price" }, a.price), " · " + t("ng.high") + sep + name(a.high) + " · " + t("ng.turnBid") + sep + name(a.turn))
          : h("p", { class: "hint" }, t("ng.notOpened"))));
    }

    // The market and the seller's coins.
    out.push(h("div", { class: "ng-market", id: "ng-market" }, h("h3", {}, t("ng.market")),
      v.market.length ? h("div", { class: "ncards" }, v.market.map((cv) => card(h, t, lang, cv))) : h("p", { class: "hint" }, "–"),
      v.bonus ? h("p", { class: "bonus" }, t("ng.bonus") + sep, h("strong", {}, v.bonus)) : null));

    // The offers, as their owners laid them.
    if (v.phase === "negotiate" || v.offers.length) {
      const items = v.offers.map((o) => h("li", { class: "offer", "data-by": o.by },
        h("strong", {}, name(o.by)), sep,
        o.card ? card(h, t, lang, o.card) : null,
        o.card && o.coins ? " " + t("ng.plus") + " " : null,
        o.coins ? h("span", { class: "ocoins" }, o.coins + " " + t("ng.coinsWord")) : null));
      out.push(h("div", { class: "ng-offers", id: "ng-offers" }, h("h3", {}, t("ng.offers")),
        items.length ? h("ul", {}, items) : h("p", { class: "hint" }, t("ng.noOffer"))));
    }

    if (v.named) {
      out.push(h("div", { class: "ng-named", id: "ng-named" }, h("h3", {}, t("ng.named") + sep + (lang === "fr" ? v.named.nameFr : v.named.nameEn) + " (" + v.named.number + ")"),
        h("ul", {}, (v.revealed || []).map((r) => h("li", { "data-by": r.by }, h("strong", {}, name(r.by)), sep, card(h, t, lang, r.card))))));
    }

    if (v.winner >= 0) {
      out.push(h("div", { class: "ng-winner", id: "ng-winner" }, h("h3", {}, t("ng.winner") + sep + name(v.winner)),
        h("p", {}, t("ng.winnerHand")), h("div", { class: "ncards" }, (v.winnerHand || []).map((cv) => card(h, t, lang, cv)))));
    }

    // A seat's own hand, its offered card marked.
    if (v.hand) {
      out.push(h("div", { class: "mine ng-hand", id: "ng-hand" }, h("h3", {}, t("ng.hand") + " (" + v.hand.length + ")"),
        h("ul", { class: "ncards" }, v.hand.map((cv) => h("li", { class: cv.offered ? "offered" : "", "data-card": cv.card },
          card(h, t, lang, cv), cv.offered ? h("strong", { class: "offered-mark" }, " ← " + t("ng.offered")) : null)))));
    }

    // The staff see every hand.
    if (v.hands) {
      out.push(h("div", { class: "ng-hands", id: "ng-hands" }, h("h3", {}, t("ng.hands")),
        h("ul", {}, v.hands.map((hand, s) => h("li", { "data-seat": s }, h("strong", {}, name(s)), sep,
          h("span", { class: "ncards" }, hand.map((cv) => card(h, t, lang, cv))))))));
    }

    // Forms for the seat's phone.
    if (f.role === "seat" && !f.over) {
      const legal = f.legal || [];
      if (v.phase === "negotiate" && me !== v.seller && legal.some((a) => a.name === "offer")) {
        const sel = h("select", { name: "card" }, h("option", { value: "" }, t("ng.noCard")),
          (v.hand || []).map((cv) => h("option", { value: cv.card }, (lang === "fr" ? cv.nameFr : cv.nameEn) + " (" + cv.card + ")")));
        const up = h("input", { type: "checkbox", name: "up" });
        const coins = h("input", { type: "number", name: "coins", min: 0, step: 1, value: 0, inputmode: "numeric" });
        out.push(keep(h("form", { class: "ng-offer", onsubmit: (e) => {
          e.preventDefault();
          let line = "offer";
          if (sel.value) line += " card=" + sel.value + (up.checked ? " up=true" : "");
          if (Number(coins.value) > 0) line += " coins=" + Number(coins.value);
          c.send(line);
        } }, h("h3", {}, t("ng.offerTitle")),
          h("label", {}, t("ng.card") + " ", sel), h("label", { class: "check" }, up, " " + t("ng.up")),
          h("label", {}, t("ng.coins") + " ", coins), h("button", { type: "submit" }, t("ng.send"))), "offer"));
      }
      if (v.phase === "negotiate" && me === v.seller && legal.some((a) => a.name === "bonus")) {
        const coins = h("input", { type: "number", name: "bonus", min: 0, step: 1, value: v.bonus || 0, inputmode: "numeric" });
        out.push(keep(h("form", { class: "ng-bonus", onsubmit: (e) => { e.preventDefault(); c.send("bonus coins=" + Number(coins.value)); } },
          h("h3", {}, t("ng.bonusTitle")), h("label", {}, t("ng.coins") + " ", coins), h("button", { type: "submit" }, t("ng.set"))), "bonus"));
      }
      const names = legal.filter((a) => a.name === "name");
      if (names.length) {
        out.push(h("div", { class: "ng-name" }, h("h3", {}, t("ng.nameTitle")), h("div", { class: "buttons" }, names.map((a) => {
          const g = (a.args && a.args.good) || "";
          const info = c.info && c.info.goods && c.info.goods[g];
          return h("button", { type: "button", class: "action", "data-line": a.line, onclick: () => c.send(a.line) }, info ? info[lang] || info.en : a.line);
        }))));
      }
    }
    return h("div", { class: "negoce" }, out);
  };
})();
