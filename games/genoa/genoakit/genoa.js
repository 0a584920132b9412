// The Traders of Genoa: the board with the pawn's path this turn and the
// squares it can still reach, the round track, every player's public
// holdings, the offers, and on a seat's phone its own money and cards with
// what each card needs, and a form to offer the merchant a deal for a
// square. Registered in app.js's renderer table.
"use strict";
window.RENDERERS = window.RENDERERS || {};

(function () {
  const COLOURS = ["#c0392b", "#2471a3", "#229954", "#c99a06", "#7d3c98"];
  const PHASES = {
    start: { fr: "lancer des dés", en: "roll the dice" },
    move: { fr: "déplacement du marchand", en: "the merchant moves" },
    acquire: { fr: "acquisition des bâtiments", en: "acquiring buildings" },
    over: { fr: "partie terminée", en: "game over" },
  };
  const W = {
    fr: { round: "Manche", of: "sur", track: "piste", phase: "Phase", merchant: "Marchand", moves: "déplacements restants",
      actor: "Action pour", acquirer: "Acquiert", offers: "Offres pour cette action", board: "Plateau",
      goods: "Marchandises", tiles: "Tuiles", markers: "Marqueurs", cards: "Cartes", actions: "Actions",
      yourMoney: "Votre argent", ducats: "ducats", yourCards: "Vos cartes", contracts: "Vos contrats valent",
      supply: "Réserve", decks: "Pioches", owners: "Propriétaires", dealTitle: "Proposer un marché au marchand",
      target: "Case visée", pay: "Ducats", payGoods: "Marchandises (ex. soie:1)", propose: "Proposer",
      drawing: "Carte à tirer", reach: "accessible", path: "chemin", corrections: "Corrections du personnel" },
    en: { round: "Round", of: "of", track: "track", phase: "Phase", merchant: "Merchant", moves: "moves left",
      actor: "Action for", acquirer: "Acquiring", offers: "Offers for this action", board: "Board",
      goods: "Goods", tiles: "Tiles", markers: "Markers", cards: "Cards", actions: "Actions",
      yourMoney: "Your money", ducats: "ducats", yourCards: "Your cards", contracts: "Your contracts are worth",
      supply: "Supply", decks: "Decks", owners: "Owners", dealTitle: "Offer the merchant a deal",
      target: "Target square", pay: "Ducats", payGoods: "Goods (e.g. silk:1)", propose: "Propose",
      drawing: "Card to draw", reach: "reachable", path: "path", corrections: "Staff corrections" },
  };

  function nameOf(info, key, lang) {
    if (!info || !info.squares) return key;
    const sq = info.squares.find((s) => s.key === key);
    return sq ? sq[lang] || sq.en : key;
  }
  function itemName(map, key, lang) {
    return (map && map[key] && (map[key][lang] || map[key].en)) || key;
  }
  function holdings(h, map, obj, lang) {
    const keys = Object.keys(obj || {}).filter((k) => obj[k] > 0).sort();
    if (!keys.length) return "–";
    return keys.map((k) => itemName(map, k, lang) + " ×" + obj[k]).join(", ");
  }

  function board(h, v, info, lang, w) {
    const grid = h("div", { class: "board", role: "grid", "aria-label": w.board });
    if (!info || !info.squares) return grid;
    const pathIdx = {};
    (v.path || []).forEach((k, i) => { pathIdx[k] = i + 1; });
    const reach = new Set((v.reachable || []).map((r) => r.square));
    const here = v.path && v.path.length ? v.path[v.path.length - 1] : null;
    const discs = new Set(v.discs || []);
    for (const sq of info.squares) {
      sq.cells.forEach((c, i) => {
        const cls = ["cell", sq.kind];
        if (pathIdx[sq.key]) cls.push("path");
        if (reach.has(sq.key)) cls.push("reach");
        if (sq.key === here) cls.push("pawn");
        if (discs.has(sq.key)) cls.push("disc");
        const owner = v.owners ? v.owners[sq.key] : undefined;
        const el = h("div", { class: cls.join(" "), "data-key": sq.key, "data-cell": c[0] + "-" + c[1],
          style: "grid-column:" + c[0] + ";grid-row:" + c[1] + (owner !== undefined ? ";--owner:" + COLOURS[owner % COLOURS.length] : ""),
          title: sq[lang] || sq.en },
          i === 0 && sq.kind !== "street" ? h("span", { class: "sqname" }, sq[lang] || sq.en) : null,
          i === 0 && pathIdx[sq.key] ? h("span", { class: "step" }, pathIdx[sq.key]) : null,
          i === 0 && owner !== undefined ? h("span", { class: "owner" }, "●") : null);
        grid.append(el);
      });
    }
    return grid;
  }

  window.RENDERERS.genoa = function (v, f, c) {
    const h = c.h, lang = c.lang, w = W[lang] || W.en, info = c.info;
    const sep = lang === "fr" ? " : " : ": ";
    const name = (s) => (s >= 0 ? c.playerName(s) : "–");
    const out = [];
    const status = [
      h("span", { class: "round" }, w.round + " " + v.round + " " + w.of + " " + v.rounds + " (" + w.track + " " + v.track + ")"),
      h("span", {}, w.phase + sep + ((PHASES[v.phase] || {})[lang] || v.phase)),
      h("span", {}, w.merchant + sep, h("strong", { style: "color:" + COLOURS[v.merchant % COLOURS.length] }, name(v.merchant))),
    ];
    if (v.phase === "move") status.push(h("span", {}, v.movesLeft + " " + w.moves));
    if (v.actor >= 0) status.push(h("span", {}, w.actor + sep + name(v.actor)));
    if (v.acquirer >= 0) status.push(h("span", {}, w.acquirer + sep + name(v.acquirer)));
    if (v.drawing) status.push(h("span", { class: "drawing" }, w.drawing + sep + name(v.drawing.seat) + " · " + itemName(info && info.decks, v.drawing.deck, lang) + " ×" + v.drawing.n));
    out.push(h("p", { class: "genoa-status" }, status));
    // The round track: one box per round, the marker on the track's space.
    const track = [];
    for (let i = 1; i <= v.rounds; i++) {
      track.push(h("span", { class: "space" + (i === v.track ? " here" : "") + (i < v.track ? " past" : ""), title: w.round + " " + i }, i));
    }
    out.push(h("div", { class: "track", "aria-label": w.track }, track));
    out.push(board(h, v, info, lang, w));
    if (v.path && v.path.length) {
      out.push(h("p", { class: "path" }, w.path + sep + v.path.map((k) => nameOf(info, k, lang)).join(" → ")));
    }
    if (v.offers && v.offers.length) {
      // Who offered is the rules'; what, the dashboard heard (f.said).
      const said = (s) => { const a = (f.said || []).find((x) => x.seat === s); return a ? name(s) + " (" + a.line + ")" : name(s); };
      out.push(h("p", { class: "offers" }, w.offers + sep + v.offers.map(said).join(", ")));
    }
    if (v.mine) {
      const cards = (v.mine.cards || []).map((id) => {
        const ci = info && info.cards && info.cards[id];
        return h("li", { class: "card", "data-card": id }, h("strong", {}, id), " ", ci ? ci[lang] || ci.en : "");
      });
      out.push(h("div", { class: "mine" },
        h("p", { class: "money" }, w.yourMoney + sep, h("strong", { id: "ducats" }, v.mine.ducats), " " + w.ducats),
        h("p", {}, w.contracts + " " + v.mine.contractsWorth + " " + w.ducats),
        // The staff's corrections of this seat's money: only its own view has them.
        v.mine.corrections ? h("p", { class: "corrections" }, w.corrections + sep +
          v.mine.corrections.map((c) => (c.ducats > 0 ? "+" : "") + c.ducats + " " + w.ducats + " (" + c.reason + ")").join(", ")) : null,
        h("h3", {}, w.yourCards), h("ul", { class: "cards" }, cards)));
    }
    const rows = (v.players || []).map((p, i) => h("tr", { class: f.role === "seat" && f.seat === i ? "me" : "", "data-seat": i },
      h("td", {}, h("span", { class: "dot", style: "color:" + COLOURS[i % COLOURS.length] }, "● "), p.name),
      h("td", {}, holdings(h, info && info.goods, p.goods, lang)),
      h("td", {}, holdings(h, info && info.tiles, p.tiles, lang)),
      h("td", {}, p.markers),
      h("td", {}, holdings(h, info && info.decks, p.cards, lang)),
      h("td", {}, p.actionsTaken)));
    out.push(h("div", { class: "scroll" }, h("table", { class: "holdings" },
      h("thead", {}, h("tr", {}, [c.t("players"), w.goods, w.tiles, w.markers, w.cards, w.actions].map((x) => h("th", {}, x)))),
      h("tbody", {}, rows))));
    out.push(h("p", { class: "supply" }, w.supply + sep + holdings(h, info && info.goods, v.supply, lang) + " · " +
      w.tiles + sep + holdings(h, info && info.tiles, v.tiles, lang) + " · " + w.decks + sep + holdings(h, info && info.decks, v.decks, lang)));

    // A seat that is not the merchant may offer a deal for a square the
    // pawn can reach: the merchant's phone shows it to accept or refuse.
    if (f.role === "seat" && v.phase === "move" && f.seat !== v.merchant && (v.reachable || []).length) {
      const target = h("select", { name: "to" }, v.reachable.map((r) => h("option", { value: r.square }, nameOf(info, r.square, lang))));
      const ducats = h("input", { type: "number", name: "ducats", min: 0, step: 5, value: 5, inputmode: "numeric" });
      const goods = h("input", { type: "text", name: "goods", placeholder: "silk:1", autocomplete: "off", autocapitalize: "off" });
      const form = h("form", { class: "deal", onsubmit: (e) => {
        e.preventDefault();
        let line = "deal from=" + (f.seat + 1) + " to=" + target.value;
        if (Number(ducats.value) > 0) line += " ducats=" + Number(ducats.value);
        if (goods.value.trim()) line += " goods=" + goods.value.trim().replace(/\s+/g, "");
        c.propose(line);
      } }, h("h3", {}, w.dealTitle),
        h("label", {}, w.target + " ", target), h("label", {}, w.pay + " ", ducats), h("label", {}, w.payGoods + " ", goods),
        h("button", { type: "submit" }, w.propose));
      out.push(form);
    }
    return h("div", { class: "genoa" }, out);
  };
})();
