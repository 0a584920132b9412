// Négoce 2: every player's coins (public in this game) and card count, the
// Contraband auction, the market with the seller's coins on their card,
// the buyers' offers as their owners laid them (a card laid face down
// shows its back to everyone but its owner), the good named in a forced
// sale and the cards it revealed, the winner's hand; on a seat's phone its
// own hand with the card of its offer marked.
//
// Nothing here sends a command: the phone's choices are the actions the
// server describes (ctx.actions), shown by the page in its prompt. The
// renderer makes the cards they are about tappable (data-target, class
// tappable, ctx.tap): a card of the hand (to sell it, offer it, force the
// sale with it), an offer on the table (the seller accepts it), a card
// shown in a forced sale (the seller takes it). The four cards of a good
// are alike: every card of a good in the hand stands for the first one,
// which the actions name.
//
// It returns {board, side, truth}: side is the players' coins and cards;
// truth, on the table's screen (ctx.tv), is the sale in progress drawn
// large (the auction, the card for sale with its offers, the forced
// sale's cards, the winner), null when nothing is on sale; on a phone the
// sale is part of the board, above the hand. Registered in app.js's
// renderer table; texts in I18N.
"use strict";
window.RENDERERS = window.RENDERERS || {};

(function () {
  Object.assign(window.I18N.fr, {
    "ng.phase": "Phase", "ng.deal": "distribution des cartes", "ng.auction": "enchères de la Contrebande",
    "ng.lay": "le vendeur met une carte en vente", "ng.negotiate": "négociation", "ng.force-name": "vente forcée : le vendeur annonce une marchandise",
    "ng.force-pick": "vente forcée : le vendeur choisit une carte", "ng.over": "partie terminée",
    "ng.sales": "Ventes", "ng.seller": "Vendeur", "ng.coins": "Pièces", "ng.cards": "Cartes", "ng.passed": "a passé",
    "ng.auctionTitle": "Enchères de la Contrebande", "ng.price": "Prix", "ng.high": "Meilleure enchère", "ng.turnBid": "À enchérir",
    "ng.notOpened": "pas encore ouvertes : le joueur tiré au sort ouvre à 1 pièce",
    "ng.market": "Marché", "ng.forSale": "En vente", "ng.bonus": "Pièces du vendeur sur sa carte", "ng.offers": "Offres", "ng.noOffer": "aucune offre pour l'instant",
    "ng.back": "carte face cachée", "ng.hiddenMine": "face cachée, vous seul la voyez", "ng.named": "Marchandise demandée",
    "ng.revealed": "Cartes montrées", "ng.hand": "Votre main", "ng.hands": "Toutes les mains (personnel)", "ng.offered": "offerte", "ng.winner": "Gagnant", "ng.winnerHand": "Main du gagnant",
    "ng.plus": "et", "ng.coin": "pièce", "ng.coinsN": "pièces", "ng.emptyMarket": "rien en vente",
    "ng.dealHint": "Chacun enregistre sur son téléphone les deux marchandises reçues, ou pose ses huit cartes sur le lecteur, chacun à son tour dans l'ordre des places.",
  });
  Object.assign(window.I18N.en, {
    "ng.phase": "Phase", "ng.deal": "dealing the cards", "ng.auction": "Contraband auction",
    "ng.lay": "the seller puts a card up for sale", "ng.negotiate": "negotiation", "ng.force-name": "forced sale: the seller names a good",
    "ng.force-pick": "forced sale: the seller picks a card", "ng.over": "game over",
    "ng.sales": "Sales", "ng.seller": "Seller", "ng.coins": "Coins", "ng.cards": "Cards", "ng.passed": "passed",
    "ng.auctionTitle": "Contraband auction", "ng.price": "Price", "ng.high": "Highest bid", "ng.turnBid": "To bid",
    "ng.notOpened": "not opened yet: the player drawn at random opens at 1 coin",
    "ng.market": "Market", "ng.forSale": "For sale", "ng.bonus": "Seller's coins on their card", "ng.offers": "Offers", "ng.noOffer": "no offer yet",
    "ng.back": "face-down card", "ng.hiddenMine": "face down, only you see it", "ng.named": "Good asked for",
    "ng.revealed": "Cards shown", "ng.hand": "Your hand", "ng.hands": "Every hand (staff)", "ng.offered": "offered", "ng.winner": "Winner", "ng.winnerHand": "Winner's hand",
    "ng.plus": "and", "ng.coin": "coin", "ng.coinsN": "coins", "ng.emptyMarket": "nothing for sale",
    "ng.dealHint": "Each player records the two goods they were dealt on their phone, or lays their eight cards on the reader, each in turn in seat order.",
  });

  // The players' colours: classes ng-p0 to ng-p3 of negoce.css, a shade
  // for each scheme.
  const COLOURS = 4;

  window.RENDERERS.negoce = function (v, f, c) {
    const h = c.h, t = c.t, lang = c.lang;
    const tv = !!c.tv;
    const sep = lang === "fr" ? " : " : ": ";
    const name = (s) => (s >= 0 ? c.playerName(s) : "–");
    const me = f.role === "seat" ? f.seat : -1;
    // "1 coin", "2 coins"; "0 pièce", "1 pièce", "2 pièces".
    const coins = (n) => n + " " + t((lang === "fr" ? n < 2 : n === 1) ? "ng.coin" : "ng.coinsN");

    // tappable makes el open the actions about target, if there is one.
    const targets = new Set((c.actions || []).filter((a) => a.target).map((a) => a.target));
    function tappable(el, target) {
      if (!target || !targets.has(target) || !c.tap) return el;
      el.classList.add("tappable");
      el.dataset.target = target;
      el.setAttribute("role", "button");
      el.tabIndex = 0;
      el.style.minHeight = "44px";
      el.style.minWidth = "44px";
      el.style.cursor = "pointer";
      el.addEventListener("click", () => c.tap(target));
      el.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); c.tap(target); } });
      return el;
    }

    // card draws a card as the viewer may see it: its face (the good's
    // printed number and name), or its back.
    function card(cv) {
      if (!cv || !cv.card) {
        return h("span", { class: "ncard back", title: t("ng.back") }, h("span", { class: "nback", "aria-hidden": "true" }, "✦"), " ", t("ng.back"));
      }
      const label = lang === "fr" ? cv.nameFr : cv.nameEn;
      return h("span", { class: "ncard face" + (cv.up ? " up" : " down") + (cv.good ? " g-" + cv.good : " contraband"), "data-card": cv.card },
        cv.number ? h("span", { class: "num" }, cv.number) : null, " ", label,
        cv.up ? null : h("em", { class: "mine-down" }, " · " + t("ng.hiddenMine")));
    }

    // firstOf maps each card of cards to the first card of the same kind:
    // the card the actions name.
    function firstOf(cards, keyOf) {
      const first = {}, out = {};
      for (const x of cards) {
        const k = keyOf(x);
        if (!(k in first)) first[k] = x.card;
        out[x.card] = first[k];
      }
      return out;
    }

    const status = [h("span", { class: "phase" }, t("ng.phase") + sep, h("strong", {}, t("ng." + v.phase))),
      h("span", {}, t("ng.sales") + sep + v.sales)];
    if (v.seller >= 0) status.push(h("span", { class: "seller" }, t("ng.seller") + sep, h("strong", {}, name(v.seller))));
    const head = [h("p", { class: "ng-status" }, status)];
    if (v.phase === "deal") head.push(h("p", { class: "hint" }, t("ng.dealHint")));

    // Players: coins are public in Négoce.
    const rows = v.players.map((p) => h("tr", { class: (p.seat === me ? "me" : "") + (p.seat === v.seller ? " seller" : "") + (v.waiting.includes(p.seat) ? " active" : ""), "data-seat": p.seat },
      h("td", {}, h("span", { class: "dot ng-p" + (p.seat % COLOURS), "aria-hidden": "true" }, "● "), p.name, p.seat === v.seller ? " ⚖" : ""),
      h("td", { class: "coins" }, p.coins),
      h("td", { class: "count" }, p.cards),
      h("td", {}, p.passed ? t("ng.passed") : "")));
    const side = h("div", { class: "scroll negoce-side" }, h("table", { class: "holdings ng-players", id: "ng-players" },
      h("thead", {}, h("tr", {}, [t("players"), t("ng.coins"), t("ng.cards"), ""].map((x) => h("th", {}, x)))),
      h("tbody", {}, rows)));

    // The sale in progress: the auction, the card for sale and its offers,
    // the forced sale's cards, the winner.
    const sale = [];
    if (v.auction) {
      const a = v.auction;
      sale.push(h("div", { class: "ng-auction", id: "ng-auction" }, h("h3", {}, t("ng.auctionTitle")),
        a.opened ? h("p", {}, t("ng.price") + sep, h("strong", { class: "price" }, a.price), " · " + t("ng.high") + sep + name(a.high) + " · " + t("ng.turnBid") + sep + name(a.turn))
          : h("p", { class: "hint" }, t("ng.notOpened"))));
    }
    const market = h("div", { class: "ng-market", id: "ng-market" }, h("h3", {}, t(v.phase === "deal" || v.phase === "auction" ? "ng.market" : "ng.forSale")),
      v.market.length ? h("div", { class: "ncards" }, v.market.map((cv) => card(cv))) : h("p", { class: "hint" }, t("ng.emptyMarket")),
      v.bonus ? h("p", { class: "bonus" }, t("ng.bonus") + sep, h("strong", {}, coins(v.bonus))) : null);
    sale.push(market);
    if (v.phase === "negotiate" || v.offers.length) {
      const items = v.offers.map((o) => tappable(h("li", { class: "offer", "data-by": o.by },
        h("strong", {}, name(o.by)), sep,
        o.card ? card(o.card) : null,
        o.card && o.coins ? " " + t("ng.plus") + " " : null,
        o.coins ? h("span", { class: "ocoins" }, coins(o.coins)) : null), "offer-" + o.by));
      sale.push(h("div", { class: "ng-offers", id: "ng-offers" }, h("h3", {}, t("ng.offers")),
        items.length ? h("ul", {}, items) : h("p", { class: "hint" }, t("ng.noOffer"))));
    }
    if (v.named) {
      // The cards each buyer shows, together: the seller takes one from a
      // buyer, whose cards of the good are alike.
      const by = new Map();
      for (const r of v.revealed || []) {
        if (!by.has(r.by)) by.set(r.by, []);
        by.get(r.by).push(r.card);
      }
      sale.push(h("div", { class: "ng-named", id: "ng-named" }, h("h3", {}, t("ng.named") + sep + (lang === "fr" ? v.named.nameFr : v.named.nameEn) + " (" + v.named.number + ")"),
        h("p", {}, t("ng.revealed")),
        h("ul", {}, Array.from(by, ([s, cards]) => tappable(h("li", { "data-by": s }, h("strong", {}, name(s)), sep,
          h("span", { class: "ncards" }, cards.map((cv) => card(cv)))), cards[0].card)))));
    }
    if (v.winner >= 0) {
      sale.push(h("div", { class: "ng-winner", id: "ng-winner" }, h("h3", {}, t("ng.winner") + sep + name(v.winner)),
        h("p", {}, t("ng.winnerHand")), h("div", { class: "ncards" }, (v.winnerHand || []).map((cv) => card(cv)))));
    }

    const mine = [];
    // A seat's own hand, its offered card marked; a card of each good
    // stands for the first of that good, which the actions name.
    if (v.hand) {
      const first = firstOf(v.hand, (cv) => cv.good || cv.card);
      mine.push(h("div", { class: "mine ng-hand", id: "ng-hand" }, h("h3", {}, t("ng.hand") + " (" + v.hand.length + ")"),
        h("ul", { class: "ncards" }, v.hand.map((cv) => tappable(h("li", { class: cv.offered ? "offered" : "", "data-card": cv.card },
          card(cv), cv.offered ? h("strong", { class: "offered-mark" }, " ← " + t("ng.offered")) : null), first[cv.card])))));
    }
    // The staff see every hand.
    if (v.hands) {
      mine.push(h("div", { class: "ng-hands", id: "ng-hands" }, h("h3", {}, t("ng.hands")),
        h("ul", {}, v.hands.map((hand, s) => h("li", { "data-seat": s }, h("strong", {}, name(s)), sep,
          h("span", { class: "ncards" }, hand.map((cv) => card(cv))))))));
    }

    if (!tv) {
      return { board: h("div", { class: "negoce" }, head, sale, mine), side: side, truth: null };
    }
    // The table's screen: the sale large as its moment of truth, the rest
    // (the phase, the market while nothing is on sale) on the board.
    const selling = v.auction || v.phase === "negotiate" || v.phase === "force-name" || v.named || v.winner >= 0;
    const truth = selling ? h("div", { class: "negoce ng-truth", style: "font-size:1.5rem" }, sale) : null;
    return { board: h("div", { class: "negoce ng-board", style: "font-size:1.3rem" }, head, selling ? null : market, mine), side: side, truth: truth };
  };
})();
