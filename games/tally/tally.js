// Tally, the test game: the pile and, on a seat, its own coins.
window.RENDERERS = window.RENDERERS || {};
window.RENDERERS.tally = function (v, f, c) {
  return c.h("dl", { class: "tally" },
    c.h("dt", {}, c.t("tallyPile")), c.h("dd", { id: "pile" }, v.pile),
    v.mine !== undefined ? [c.h("dt", {}, c.t("tallyMine")), c.h("dd", { id: "mine" }, v.mine)] : null);
};
