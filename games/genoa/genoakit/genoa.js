// The Traders of Genoa: the board with the pawn's path this turn and the
// squares it can still reach, the round track, and on a seat's phone its
// own money and cards; beside it every player's public holdings; and the
// deal on the table (who offered for the action of the building where the
// pawn stands, who will take it). Registered in app.js's renderer table.
//
// The board's squares and the hand's cards that an action of this phone
// is about (ctx.actions, each with its target: a square's key or a card's
// ID) are marked with data-target and the class "tappable", and a tap
// opens them (ctx.tap). Nothing here writes a command: the page sends the
// actions the server described.
//
// Returns {board, side, truth}: board is the board and the hand, side the
// players' public holdings, truth the deal on the table (null when there
// is none). On the table's screen (ctx.tv) the board is drawn large.
"use strict";
window.RENDERERS = window.RENDERERS || {};

(function () {
  // The players' colours (red, blue, green, gold, purple), a shade per
  // place that reaches WCAG AA (4.5:1): the text shade on the page's
  // background in the light and in the dark scheme (--genoa-pN, set in
  // CSS below), and a dark shade for the owner's mark on the board's
  // squares, which are light in both schemes (--genoa-bN).
  const NCOLOURS = 5;
  const COLOUR = (i) => "var(--genoa-p" + (i % NCOLOURS) + ")";
  const OWNER = (i) => "var(--genoa-b" + (i % NCOLOURS) + ")";
  const PHASES = {
    start: { fr: "lancer des dés", en: "roll the dice" },
    move: { fr: "déplacement du marchand", en: "the merchant moves" },
    acquire: { fr: "acquisition des bâtiments", en: "acquiring buildings" },
    over: { fr: "partie terminée", en: "game over" },
  };
  const W = {
    fr: { round: "Manche", of: "sur", track: "Piste des manches", phase: "Phase", merchant: "Marchand",
      move: "déplacement restant", moves: "déplacements restants",
      actor: "Action pour", acquirer: "Acquiert", board: "Plateau", goods: "Marchandises", tiles: "Tuiles",
      marker: "marqueur", markers: "marqueurs", cards: "Cartes", action: "action", actions: "actions", yourMoney: "Votre argent",
      ducat: "ducat", ducats: "ducats", yourCards: "Vos cartes", contracts: "Vos contrats valent", supply: "Réserve", decks: "Pioches",
      drawing: "Pioche", path: "Chemin", corrections: "Corrections du personnel", none: "aucune",
      deal: "Négociation", offersFor: "Offres pour l'action", offered: "a fait une offre", willAct: "fera l'action", gives: "rapporte",
      card: "carte", cardsN: "cartes", players: "Avoirs des joueurs", noCards: "Aucune carte" },
    en: { round: "Round", of: "of", track: "Round track", phase: "Phase", merchant: "Merchant",
      move: "move left", moves: "moves left",
      actor: "Action for", acquirer: "Acquiring", board: "Board", goods: "Goods", tiles: "Tiles",
      marker: "marker", markers: "markers", cards: "Cards", action: "action", actions: "actions", yourMoney: "Your money",
      ducat: "ducat", ducats: "ducats", yourCards: "Your cards", contracts: "Your contracts are worth", supply: "Supply", decks: "Decks",
      drawing: "Drawing", path: "Path", corrections: "Staff corrections", none: "none",
      deal: "Negotiation", offersFor: "Offers for the action", offered: "made an offer", willAct: "will take the action", gives: "gives",
      card: "card", cardsN: "cards", players: "Players' holdings", noCards: "No cards" },
  };

  // The renderer's own styles, through the CSSOM (the page's policy
  // refuses inline style elements): tappable squares and cards, the
  // players' holdings as blocks that wrap, the deal pane, the board large
  // on the table's screen.
  const CSS = `
:root { --genoa-p0: #c0392b; --genoa-p1: #2471a3; --genoa-p2: #1c8046; --genoa-p3: #8c6a00; --genoa-p4: #7d3c98;
  --genoa-b0: #8c2a1f; --genoa-b1: #1a5175; --genoa-b2: #145830; --genoa-b3: #614900; --genoa-b4: #6c3484; }
@media (prefers-color-scheme: dark) {
  :root { --genoa-p0: #db695d; --genoa-p1: #3092d1; --genoa-p2: #239f57; --genoa-p3: #b08500; --genoa-p4: #b074c8; }
}
.genoa .cell.tappable { cursor: pointer; box-shadow: inset 0 0 0 3px #1b5e20; }
.genoa .cell.tappable:focus-visible, .genoa li.card.tappable:focus-visible { outline: 3px solid #1b5e20; outline-offset: 1px; }
.genoa .cell.pawn.tappable { box-shadow: inset 0 0 0 3px #8a3b12, inset 0 0 0 6px #1b5e20; }
.genoa .cell .pawnmark { position: absolute; left: 50%; top: 50%; transform: translate(-50%, -50%); font-size: 1.1rem; line-height: 1; }
.genoa ul.cards { list-style: none; padding: 0; margin: 0; display: grid; gap: .3rem; }
.genoa li.card { min-height: 44px; box-sizing: border-box; padding: .35rem .5rem; border: 1px solid var(--line, #bbb); border-radius: .4rem; overflow-wrap: anywhere; }
.genoa li.card.tappable { cursor: pointer; border: 2px solid #1b5e20; }
.genoa li.card .deck { font-weight: 700; margin-right: .3rem; }
.genoa-side { display: grid; gap: .3rem; }
.genoa-side .player { border-left: 6px solid var(--seat, #888); padding: .2rem .5rem; overflow-wrap: anywhere; }
.genoa-side .player.me { font-weight: 700; }
.genoa-side .player .what { display: block; font-weight: 400; font-size: .9rem; }
.genoa-side .supply { font-size: .9rem; overflow-wrap: anywhere; }
.genoa-truth { border: 3px solid #8a3b12; border-radius: .6rem; padding: .4rem .7rem; }
.genoa-truth h3 { margin: 0 0 .3rem; font-size: 1.15em; }
.genoa-truth p { margin: .2rem 0; }
.genoa-truth ul { margin: 0; padding-left: 1.1rem; }
.genoa-status, .genoa .path { overflow-wrap: anywhere; }
.genoa.tv .board { max-width: min(100%, 68vh); }
main.tv .tv-board .genoa.tv .board { width: min(100%, calc(100vh - 16rem)); margin: 0 auto; }
.genoa.tv .cell { font-size: .95rem; }
.genoa.tv .cell .step, .genoa.tv .cell .pawnmark { font-size: 1.6rem; }
.genoa-truth.tv { font-size: 1.5rem; }
.genoa-side.tv { grid-template-columns: repeat(auto-fill, minmax(13rem, 1fr)); font-size: .9rem; }
.genoa-side.tv h3, .genoa-side.tv .supply { grid-column: 1 / -1; margin: 0; }
.genoa-side.tv .player .what, .genoa-side.tv .supply { font-size: .85rem; }
`;
  let styled = false;
  function style() {
    if (styled || typeof CSSStyleSheet === "undefined" || !document.adoptedStyleSheets) return;
    styled = true;
    try {
      const sheet = new CSSStyleSheet();
      sheet.replaceSync(CSS);
      document.adoptedStyleSheets = document.adoptedStyleSheets.concat([sheet]);
    } catch (e) { /* the board still works unstyled */ }
  }

  // The engine names a street by its cell ("3-2"); the board's data by
  // "street-3-2".
  const engineKey = (k) => k.replace(/^street-/, "");
  function square(info, key) {
    if (!info || !info.squares) return null;
    return info.squares.find((s) => s.key === key || engineKey(s.key) === key) || null;
  }
  function nameOf(info, key, lang) {
    const sq = square(info, key);
    return sq ? sq[lang] || sq.en : "";
  }
  function itemName(map, key, lang) {
    return (map && map[key] && (map[key][lang] || map[key].en)) || key;
  }
  function holdings(map, obj, lang) {
    const keys = Object.keys(obj || {}).filter((k) => obj[k] > 0).sort();
    if (!keys.length) return "–";
    return keys.map((k) => obj[k] + " " + itemName(map, k, lang)).join(", ");
  }
  // The decks' names for one card (info.decks names them in the plural).
  const DECK_ONE = {
    fr: { "large-order": "grosse commande", "small-order": "petite commande", message: "message", contract: "contrat" },
    en: { "large-order": "large order", "small-order": "small order", message: "message", contract: "contract" },
  };
  function cardCounts(info, obj, lang) {
    const keys = Object.keys(obj || {}).filter((k) => obj[k] > 0).sort();
    if (!keys.length) return "–";
    return keys.map((k) => obj[k] + " " + (obj[k] === 1 ? DECK_ONE[lang][k] || k : itemName(info && info.decks, k, lang))).join(", ");
  }
  function count(n, one, many, lang) {
    return n + " " + (n === 1 || (lang === "fr" && n === 0) ? one : many);
  }

  // tappable gives an element the target's tap when this phone has an
  // action about it.
  function tappable(attrs, cls, target, targets, c, label) {
    if (!targets.has(target)) return;
    cls.push("tappable");
    attrs["data-target"] = target;
    attrs.tabindex = "0";
    if (label) attrs["aria-label"] = label;
    attrs.onclick = () => c.tap(target);
    attrs.onkeydown = (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); c.tap(target); } };
  }

  function board(h, v, info, lang, w, targets, c) {
    const grid = h("div", { class: "board", role: "grid", "aria-label": w.board });
    if (!info || !info.squares) return grid;
    const pathIdx = {};
    (v.path || []).forEach((k, i) => { pathIdx[k] = i + 1; });
    const reach = new Set((v.reachable || []).map((r) => r.square));
    const here = v.path && v.path.length ? v.path[v.path.length - 1] : null;
    const discs = new Set(v.discs || []);
    for (const sq of info.squares) {
      const key = engineKey(sq.key);
      const name = sq[lang] || sq.en;
      sq.cells.forEach((cell, i) => {
        const cls = ["cell", sq.kind];
        if (pathIdx[key]) cls.push("path");
        if (reach.has(key)) cls.push("reach");
        if (key === here) cls.push("pawn");
        if (discs.has(key)) cls.push("disc");
        const owner = v.owners ? v.owners[key] : undefined;
        const attrs = { "data-key": key, title: name,
          style: "grid-column:" + cell[0] + ";grid-row:" + cell[1] + (owner !== undefined ? ";--owner:" + OWNER(owner) : "") };
        tappable(attrs, cls, key, targets, c, name);
        attrs.class = cls.join(" ");
        grid.append(h("div", attrs,
          i === 0 && sq.kind !== "street" ? h("span", { class: "sqname" }, name) : null,
          i === 0 && pathIdx[key] ? h("span", { class: "step" }, pathIdx[key]) : null,
          i === 0 && key === here ? h("span", { class: "pawnmark", "aria-hidden": "true" }, "♟") : null,
          i === 0 && owner !== undefined ? h("span", { class: "owner" }, "●") : null));
      });
    }
    return grid;
  }

  // hand is a seat's own money and cards, each card named as printed and
  // tappable when an action is about it (an order to deliver).
  function hand(h, v, info, lang, w, targets, c, sep) {
    const m = v.mine;
    const cards = (m.cards || []).map((id) => {
      const ci = info && info.cards && info.cards[id];
      const cls = ["card"];
      const attrs = { "data-card": id };
      const text = ci ? ci[lang] || ci.en : "";
      tappable(attrs, cls, id, targets, c, text);
      attrs.class = cls.join(" ");
      return h("li", attrs, text);
    });
    return h("div", { class: "mine" },
      h("p", { class: "money" }, w.yourMoney + sep, h("strong", { id: "ducats" }, m.ducats), " " + (m.ducats === 1 ? w.ducat : w.ducats)),
      h("p", {}, w.contracts + " " + count(m.contractsWorth, w.ducat, w.ducats, lang)),
      // The staff's corrections of this seat's money: only its own view has them.
      m.corrections ? h("p", { class: "corrections" }, w.corrections + sep +
        m.corrections.map((x) => (x.ducats > 0 ? "+" : "") + x.ducats + " " + w.ducats + " (" + x.reason + ")").join(", ")) : null,
      h("h3", {}, w.yourCards), cards.length ? h("ul", { class: "cards" }, cards) : h("p", {}, w.noCards));
  }

  // truth is the deal on the table: the building where the pawn stands,
  // the offers for its action and who will take it. Null when none.
  function truth(h, v, info, lang, w, name, sep, tv) {
    const here = v.path && v.path.length ? v.path[v.path.length - 1] : null;
    const sq = here && square(info, here);
    if (v.phase !== "move" || !sq || sq.kind !== "building" || (v.actionsTaken || []).includes(here)) return null;
    if (!(v.offers && v.offers.length) && !(v.actor >= 0)) return null;
    // Who offered is public; what, the merchant's phone shows (the
    // amounts are not in the table's view).
    const items = (v.offers || []).map((s) => h("li", { "data-seat": s },
      h("strong", { style: "color:" + COLOUR(s) }, name(s)), " " + w.offered));
    return h("section", { class: "genoa-truth" + (tv ? " tv" : ""), "aria-live": "polite" },
      h("h3", {}, w.deal + sep + (sq[lang] || sq.en)),
      v.actor >= 0 ? h("p", {}, h("strong", { style: "color:" + COLOUR(v.actor) }, name(v.actor)), " " + w.willAct) : null,
      items.length ? [h("p", {}, w.offersFor), h("ul", {}, items)] : null);
  }

  window.RENDERERS.genoa = function (v, f, c) {
    style();
    const h = c.h, lang = c.lang, w = W[lang] || W.en, info = c.info, tv = !!c.tv;
    const sep = lang === "fr" ? " : " : ": ";
    const name = (s) => (s >= 0 ? c.playerName(s) : "–");
    const targets = new Set((c.actions || []).map((a) => a.target).filter((x) => x));
    if (!c.tap) targets.clear();

    const status = [
      h("span", { class: "round" }, w.round + " " + v.round + " " + w.of + " " + v.rounds),
      h("span", {}, w.phase + sep + ((PHASES[v.phase] || {})[lang] || "")),
      h("span", {}, w.merchant + sep, h("strong", { style: "color:" + COLOUR(v.merchant) }, name(v.merchant))),
    ];
    if (v.phase === "move") status.push(h("span", {}, v.movesLeft + " " + (v.movesLeft === 1 || (lang === "fr" && v.movesLeft === 0) ? w.move : w.moves)));
    if (v.actor >= 0) status.push(h("span", {}, w.actor + sep + name(v.actor)));
    if (v.acquirer >= 0) status.push(h("span", {}, w.acquirer + sep + name(v.acquirer)));
    if (v.drawing) status.push(h("span", { class: "drawing" }, w.drawing + sep + name(v.drawing.seat) + " · " + cardCounts(info, { [v.drawing.deck]: v.drawing.n }, lang)));
    // The round track: one box per round, the marker on the track's space.
    const track = [];
    for (let i = 1; i <= v.rounds; i++) {
      track.push(h("span", { class: "space" + (i === v.track ? " here" : "") + (i < v.track ? " past" : ""), title: w.round + " " + i }, i));
    }
    const boardPart = [h("p", { class: "genoa-status" }, status), h("div", { class: "track", role: "img", "aria-label": w.track + " " + v.track + " " + w.of + " " + v.rounds }, track),
      board(h, v, info, lang, w, targets, c)];
    if (v.path && v.path.length) {
      boardPart.push(h("p", { class: "path" }, w.path + sep + v.path.map((k) => nameOf(info, k, lang)).join(" → ")));
    }
    if (v.mine) boardPart.push(hand(h, v, info, lang, w, targets, c, sep));

    const players = (v.players || []).map((p, i) => h("div", { class: "player" + (f.role === "seat" && f.seat === i ? " me" : ""), "data-seat": i,
      style: "--seat:" + COLOUR(i) },
      h("span", { class: "name" }, p.name + (i === v.merchant ? " · " + w.merchant : "")),
      h("span", { class: "what" }, w.goods + sep + holdings(info && info.goods, p.goods, lang)),
      h("span", { class: "what" }, w.tiles + sep + holdings(info && info.tiles, p.tiles, lang)),
      h("span", { class: "what" }, count(p.markers, w.marker, w.markers, lang) + " · " + w.cards + sep + cardCounts(info, p.cards, lang) +
        " · " + count(p.actionsTaken, w.action, w.actions, lang))));
    const side = h("div", { class: "genoa-side" + (tv ? " tv" : "") }, h("h3", {}, w.players), players,
      h("p", { class: "supply" }, w.supply + sep + holdings(info && info.goods, v.supply, lang) + " · " +
        w.tiles + sep + holdings(info && info.tiles, v.tiles, lang) + " · " + w.decks + sep + cardCounts(info, v.decks, lang)));

    return {
      board: h("div", { class: "genoa" + (tv ? " tv" : "") }, boardPart),
      side: side,
      truth: truth(h, v, info, lang, w, name, sep, tv),
    };
  };
})();
