// Tally, the test game: the pile and, on a seat, its own coins. The pile
// is tappable when the seat may take coins (kit.Play's target "pile").
window.RENDERERS = window.RENDERERS || {};
window.RENDERERS.tally = function (v, f, c) {
  const acts = c.actions || [];
  const tappable = acts.some((a) => a.target === "pile");
  const pile = c.h("dd", { id: "pile", "data-target": "pile", class: tappable ? "tappable" : null,
    onclick: tappable && c.tap ? () => c.tap("pile") : null }, v.pile);
  const board = c.h("dl", { class: "tally" },
    c.h("dt", {}, c.t("tallyPile")), pile,
    v.mine !== undefined ? [c.h("dt", {}, c.t("tallyMine")), c.h("dd", { id: "mine" }, v.mine)] : null);
  if (!c.say) return board; // an older page: the board alone
  const side = c.h("ul", { class: "tally-side" }, f.players.map((p) =>
    c.h("li", { "data-seat": p.seat, class: v.turn === p.seat && !v.over ? "turn" : null }, p.name + (v.turn === p.seat && !v.over ? " ◀" : ""))));
  return { board, side, truth: null };
};
