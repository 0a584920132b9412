// The dice camera on the staff page: the reader's verdict on the last
// throws die by die (face, confidence, why a die was not read) and what
// the table did with each, live from the staff's frames (frame.camera);
// and the frames sent for inspection: a button saves the camera's last
// frame read with its verdict (POST /api/inspect), and each saved one
// downloads with the staff PIN in a header.
"use strict";

(function () {
  const T = {
    fr: {
      title: "Caméra des dés", time: "Heure", blue: "Bleu", red: "Rouge", why: "Raison", fate: "Suite",
      none: "Aucun lancer lu depuis le démarrage.", unread: "illisible",
      accepted: "accepté", refused: "refusé", unreadable: "demandé aux joueurs", corrected: "relu par la caméra",
      misread: "mal lu, corrigé", held: "en attente du journal", entered: "saisi par les joueurs", pending: "…", step: "étape",
      inspect: "Envoyer l'image pour inspection", inspections: "Images envoyées pour inspection",
      noInspections: "Aucune image envoyée.", saved: "Image enregistrée", picture: "image", verdict: "lecture",
      notFound: "pas trouvé",
      calibrate: "Calibrer ces dés", calibHint: "Lancez les deux dés, vérifiez les faces, touchez Apprendre ; 8 lancers suffisent.",
      learn: "Apprendre", saveUse: "Enregistrer et utiliser", learnedFaces: "Faces apprises",
      diceLearned: "dés appris", more: "encore", beforeSave: "avant d'enregistrer", canSave: "assez pour enregistrer",
      inUse: "calibration enregistrée et utilisée", learnedOk: "Lancer appris", savedOk: "Calibration enregistrée et utilisée",
      earlier: "Déjà appris", earlierHint: "Les faces de la calibration utilisée sont gardées : ce que vous apprenez s'y ajoute.",
      reset: "Recommencer", resetAsk: "Oublier tout ce qui est appris, la calibration utilisée comprise ? Elle reste utilisée jusqu'au prochain enregistrement.",
      resetYes: "Oui, tout oublier", resetNo: "Annuler", resetOk: "Calibration recommencée à zéro",
      cameraMoved: "La caméra a été déplacée",
      cameraMovedAsk: "Oublier où cette caméra montre le chiffre d'un dé à plat et la taille des dés ? Le lecteur les apprend de nouveau aux prochains lancers ; ce qu'il a appris des dés reste.",
      cameraMovedYes: "Oui, oublier la caméra", cameraMovedNo: "Annuler", cameraMovedOk: "Le lecteur a oublié la caméra : il l'apprend aux prochains lancers.",
      leans: (n, of) => "La caméra est inclinée : " + n + " des " + of + " dés appris, posés à plat, ont paru penchés au lecteur réglé à la main ; à cette table, le réseau de pose juge ces dés. Fixée droit au-dessus du plateau, la caméra en lirait davantage.",
      flatNeed: (n) => "Encore " + n + (n === 1 ? " dé appris" : " dés appris") + ", et la calibration saura où cette caméra montre le chiffre d'un dé à plat, pour refuser dès le premier lancer un dé cassé contre le bord du plateau au lieu de lire la face qu'il tourne vers elle (sans elle, le lecteur l'apprend au fil du jeu).",
      flatOk: (n) => n + " dés appris montrent où cette caméra voit le chiffre d'un dé à plat : le lecteur refuse un dé cassé contre le bord du plateau.",
      colour: (die, from, to, ownFrom, ownTo) => "Couleur du dé " + (die === "blue" ? "bleu" : "rouge") + " apprise : le lecteur ne le trouvait pas à ses propres teintes (" + ownFrom + "° à " + ownTo + "°) ; avec cette calibration, il le cherche de " + from + "° à " + to + "°.",
      small: (n, under) => "Les dés font environ " + n + " pixels de large dans l'image de la caméra : en dessous de " + under + ", le lecteur en lit beaucoup moins. Descendez la caméra (ou zoomez) jusqu'à ce qu'un dé fasse au moins " + under + " pixels, puis calibrez à nouveau.",
      smallPlay: (n, under) => "Les dés font environ " + n + " pixels de large dans l'image de la caméra : en dessous de " + under + ", le lecteur en lit beaucoup moins. Descendez la caméra (ou zoomez) jusqu'à ce qu'un dé fasse au moins " + under + " pixels.",
      guardOn: (n) => "Dés cassés : le lecteur sait où cette caméra montre le chiffre d'un dé à plat (" + n + " dés à plat) et refuse un dé dont le chiffre est ailleurs, cassé contre le bord du plateau.",
      guardNeed: (n) => "Dés cassés : le lecteur apprend où cette caméra montre le chiffre d'un dé à plat ; après encore " + n + (n === 1 ? " dé lu" : " dés lus") + " à plat, il refusera un dé dont le chiffre est ailleurs, cassé contre le bord du plateau. Calibrer ces dés le lui apprend d'un coup.",
      moved: (n) => "La caméra semble avoir été déplacée" + (n > 1 ? " (" + n + " fois)" : "") + " : le lecteur a oublié les dés appris avant et apprend cette caméra à nouveau.",
      glare: (n, of) => "La lampe éblouit les dés : " + n + " des " + of + " derniers dés au repos montraient une face du dessus blanche, sans chiffre visible, et ont été refusés. Écartez la lampe du plateau ou baissez-la.",
    },
    en: {
      title: "Dice camera", time: "Time", blue: "Blue", red: "Red", why: "Why", fate: "Then",
      none: "No throw read since the start.", unread: "unreadable",
      accepted: "accepted", refused: "refused", unreadable: "asked the players", corrected: "read again by the camera",
      misread: "misread, corrected", held: "waiting for the journal", entered: "entered by the players", pending: "…", step: "step",
      inspect: "Send the frame for inspection", inspections: "Frames sent for inspection",
      noInspections: "No frame sent.", saved: "Frame saved", picture: "picture", verdict: "reading",
      notFound: "not found",
      calibrate: "Calibrate these dice", calibHint: "Throw both dice, check the faces, tap Learn; 8 throws are enough.",
      learn: "Learn", saveUse: "Save and use", learnedFaces: "Faces learned",
      diceLearned: "dice learned", more: "", beforeSave: "more before saving", canSave: "enough to save",
      inUse: "calibration saved and in use", learnedOk: "Throw learned", savedOk: "Calibration saved and in use",
      earlier: "Learned before", earlierHint: "The faces of the calibration in use are kept: what you learn adds to them.",
      reset: "Start again", resetAsk: "Drop everything learned, the calibration in use included? It stays in use until the next save.",
      resetYes: "Yes, drop it all", resetNo: "Cancel", resetOk: "Calibration started again from nothing",
      cameraMoved: "The camera was moved",
      cameraMovedAsk: "Forget where this camera shows a flat die's numeral and how large it shows the dice? The reader learns them again from the next throws; what it learned of the dice stays.",
      cameraMovedYes: "Yes, forget the camera", cameraMovedNo: "Cancel", cameraMovedOk: "The reader forgot the camera: it learns it from the next throws.",
      leans: (n, of) => "The camera leans: " + n + " of the " + of + " dice learned, lying flat, looked tilted to the hand-tuned reader; at this table the pose network judges those dice. Mounted straight above the tray, the camera would read more of them.",
      flatNeed: (n) => n + (n === 1 ? " more die" : " more dice") + " learned, and the calibration will know where this camera shows a flat die's numeral, to refuse from the first throw a die cocked against the tray's wall instead of reading the face it turns to the camera (without it, the reader learns that as the table plays).",
      flatOk: (n) => n + " dice learned show where this camera sees a flat die's numeral: the reader refuses a die cocked against the tray's wall.",
      colour: (die, from, to, ownFrom, ownTo) => "Learned the colour of the " + die + " die: the reader did not find it by its own hues (" + ownFrom + "° to " + ownTo + "°); with this calibration it looks for it from " + from + "° to " + to + "°.",
      small: (n, under) => "The dice are about " + n + " pixels across in the camera's picture: under " + under + " the reader reads far fewer of them. Bring the camera lower (or zoom in) until a die is at least " + under + " pixels across, then calibrate again.",
      smallPlay: (n, under) => "The dice look about " + n + " pixels across in the camera's picture: under " + under + " the reader reads far fewer of them. Bring the camera lower (or zoom in) until a die is at least " + under + " pixels across.",
      guardOn: (n) => "Cocked dice: the reader knows where this camera shows a flat die's numeral (" + n + " flat dice) and refuses a die whose numeral lies elsewhere, cocked against the tray's wall.",
      guardNeed: (n) => "Cocked dice: the reader is learning where this camera shows a flat die's numeral; after " + n + (n === 1 ? " more die" : " more dice") + " read flat it will refuse a die whose numeral lies elsewhere, cocked against the tray's wall. Calibrating these dice teaches it at once.",
      moved: (n) => "The camera seems to have been moved" + (n > 1 ? " (" + n + " times)" : "") + ": the reader forgot the dice it had learned before and learns this camera afresh.",
      glare: (n, of) => "The lamp washes the dice out: " + n + " of the last " + of + " dice at rest showed a white top face, no numeral on it, and were refused. Move the lamp aside from the tray or dim it.",
    },
  };

  // The faces in the calibration form, kept across the frames: filled
  // with each new throw's faces as the table knows them (read by the
  // camera, or entered by the players or the staff when it could not read
  // them or misread them), then as the staff set them.
  const pick = { at: null, blue: 1, red: 1 };
  // confirming is set while the panel asks to confirm "Start again",
  // confirmingMove while the section asks to confirm "The camera was
  // moved".
  let confirming = false;
  let confirmingMove = false;

  // calibrateSection is the "Calibrate these dice" panel: the faces of
  // the last throw to confirm, Learn (POST /api/calibrate learn: the
  // camera learns its last frame as that throw), a grid of the faces each
  // die has learned (and those kept from the calibration in use), "Save
  // and use" once the reader can, and "Start again" (confirmed first)
  // that drops everything learned.
  function calibrateSection(camera, ctx, t) {
    const { h, say, toast, pin } = ctx;
    const last = camera.throws.length ? camera.throws[camera.throws.length - 1] : null;
    const known = last && (last.entered || [last.blue.face, last.red.face]);
    const key = last && last.t + " " + known.join(" ");
    if (last && key !== pick.at) {
      pick.at = key;
      if (known[0]) pick.blue = known[0];
      if (known[1]) pick.red = known[1];
    }
    const cal = camera.calibration || { blue: [], red: [], dice: 0, need: 4 };
    const post = async (body, ok) => {
      try {
        const r = await fetch("/api/calibrate", { method: "POST", headers: { "X-Comptoir-Staff-Pin": pin(), "Content-Type": "application/json" }, body: JSON.stringify(body) });
        const got = await r.json();
        toast(r.ok ? "" : "error", r.ok ? ok : say(got));
      } catch (e) { toast("error", String(e)); }
    };
    const earlier = cal.earlier || [];
    // "Start again" asks first, in the panel; the frames redraw it.
    const redraw = () => { const s = document.getElementById("calibrate-dice"); if (s) s.replaceWith(calibrateSection(camera, ctx, t)); };
    const reset = confirming ?
      h("p", { id: "calib-reset-confirm", class: "confirm" }, t("resetAsk"), " ",
        h("button", { type: "button", id: "calib-reset-yes", onclick: () => { confirming = false; redraw(); post({ action: "reset" }, t("resetOk")); } }, t("resetYes")), " ",
        h("button", { type: "button", id: "calib-reset-no", class: "secondary", onclick: () => { confirming = false; redraw(); } }, t("resetNo"))) :
      h("button", { type: "button", id: "calib-reset", class: "secondary", disabled: !camera.calibration || (cal.dice === 0 && !earlier.length && !cal.saved), onclick: () => { confirming = true; redraw(); } }, t("reset"));
    const select = (die) => h("select", { name: die, id: "calib-" + die, "aria-label": t(die), onchange: (e) => { pick[die] = Number(e.target.value); } },
      [1, 2, 3, 4, 5, 6, 7, 8].map((f) => h("option", { value: f, selected: f === pick[die] }, String(f))));
    const faces = [1, 2, 3, 4, 5, 6, 7, 8];
    const grid = h("table", { id: "calib-grid", class: "scores" },
      h("thead", {}, h("tr", {}, h("th", {}, t("learnedFaces")), faces.map((f) => h("th", {}, String(f))))),
      h("tbody", {}, ["blue", "red"].concat(earlier.length ? ["earlier"] : []).map((die) => h("tr", { class: die, "data-die": die },
        h("th", {}, t(die)), faces.map((f) => {
          const has = (die === "earlier" ? earlier : cal[die] || []).includes(f);
          return h("td", { class: has ? "learned" : "missing", "data-face": f, "data-learned": has ? "1" : "0" }, has ? "\u2713" : "·");
        })))));
    const status = cal.saved ? t("inUse") + " (" + (cal.faces || []).join(" ") + ")" :
      cal.dice + " " + t("diceLearned") + (cal.need > 0 ? " · " + (t("more") ? t("more") + " " : "") + cal.need + " " + t("beforeSave") : " · " + t("canSave"));
    return h("section", { id: "calibrate-dice" }, h("h4", {}, t("calibrate")),
      h("p", { class: "hint" }, t("calibHint")),
      h("form", { id: "calibrate", onsubmit: (e) => { e.preventDefault(); post({ action: "learn", blue: pick.blue, red: pick.red }, t("learnedOk")); } },
        h("label", {}, t("blue"), " ", select("blue")), " ", h("label", {}, t("red"), " ", select("red")), " ",
        h("button", { type: "submit", id: "calib-learn" }, t("learn"))),
      grid,
      earlier.length ? h("p", { class: "hint", id: "calib-earlier" }, t("earlierHint")) : null,
      cal.leans ? h("p", { class: "hint", id: "calib-leans" }, t("leans")(cal.tilted, cal.shown)) : null,
      (cal.colours || []).map((c) => h("p", { class: "hint calib-colour", id: "calib-colour-" + c.die, "data-from": c.from, "data-to": c.to }, t("colour")(c.die, c.from, c.to, c.own_from, c.own_to))),
      cal.small ? h("p", { class: "hint", id: "calib-small", "data-across": cal.across }, t("small")(cal.across, cal.small_under)) : null,
      cal.flat_need > 0 ? h("p", { class: "hint", id: "calib-flat", "data-need": cal.flat_need }, t("flatNeed")(cal.flat_need)) :
        cal.flat > 0 ? h("p", { class: "hint", id: "calib-flat", "data-need": 0 }, t("flatOk")(cal.flat)) : null,
      h("p", { id: "calib-status" }, status),
      h("p", {}, h("button", { type: "button", id: "calib-save", disabled: !camera.calibration || cal.need > 0, onclick: () => post({ action: "save" }, t("savedOk")) }, t("saveUse")), " ", reset));
  }

  // DICE_CAMERA draws the section from the staff frame's camera; app.js
  // calls it with its helpers.
  window.DICE_CAMERA = function (camera, ctx) {
    const { h, say, toast, pin } = ctx;
    const t = (k) => T[ctx.lang === "en" ? "en" : "fr"][k];
    const pct = (c) => Math.round((c || 0) * 100) + "\u00a0%";
    // the reader's reason in the page's language (older readers say it
    // in English only)
    const reason = (x) => (ctx.lang !== "en" && x.reason_fr) || x.reason || "";
    const die = (d) => d.face ? h("span", { class: "face" }, h("strong", {}, String(d.face)), " ", pct(d.confidence)) :
      h("span", { class: "face unread" }, (d.found ? t("unread") : t("notFound")) + " " + pct(d.confidence));
    const fate = (x) => {
      let s = x.fate ? t(x.fate) : t("pending");
      if (x.seq && (x.fate === "accepted" || x.fate === "misread" || x.fate === "corrected" || x.fate === "entered")) s += " (" + t("step") + " " + x.seq + ")";
      if (x.entered && x.fate === "entered") s += " · " + t("blue") + " " + x.entered[0] + ", " + t("red") + " " + x.entered[1];
      if (x.why) s += " · " + say(x.why);
      return s;
    };
    const sep = ctx.lang === "en" ? ": " : "\u00a0: ";
    const why = (x) => [x.blue.face ? "" : t("blue") + sep + reason(x.blue), x.red.face ? "" : t("red") + sep + reason(x.red)].filter(Boolean).join(ctx.lang === "en" ? "; " : " ; ");
    const rows = camera.throws.slice().reverse().map((x) => h("tr", { class: "throw fate-" + (x.fate || "pending"), "data-fate": x.fate || "" },
      h("td", {}, new Date(x.t).toLocaleTimeString()), h("td", { class: "blue", "data-label": t("blue") }, die(x.blue)), h("td", { class: "red", "data-label": t("red") }, die(x.red)),
      h("td", { class: "why" }, why(x)), h("td", { class: "fate" }, fate(x))));
    const headers = () => ({ "X-Comptoir-Staff-Pin": pin() });
    const inspect = async () => {
      try {
        const r = await fetch("/api/inspect", { method: "POST", headers: headers() });
        const body = await r.json();
        toast(r.ok ? "" : "error", r.ok ? t("saved") + " " + body.name : say(body));
      } catch (e) { toast("error", String(e)); }
    };
    const save = (name) => fetch("/download/inspect/" + name, { headers: headers() }).then((r) => r.blob()).then((b) => {
      const a = h("a", { href: URL.createObjectURL(b), download: "dice-" + name });
      document.body.appendChild(a); a.click(); a.remove();
    });
    const reading = (x) => x ? [x.blue, x.red].map((d, i) => (i ? t("red") : t("blue")) + " " + (d.face || "?") + " " + pct(d.confidence)).join(", ") + (x.reason ? " · " + reason(x) : "") : "";
    const saved = camera.inspections.map((x) => h("li", { class: "inspection", "data-name": x.name },
      h("span", {}, new Date(x.saved).toLocaleString() + " · " + reading(x.reading) + " "),
      h("button", { type: "button", class: "secondary", onclick: () => save(x.name + ".jpg") }, t("picture")), " ",
      h("button", { type: "button", class: "secondary", onclick: () => save(x.name + ".json") }, t("verdict"))));
    // what the reader had learned of its camera by the last throw (it
    // learns as the table plays): where it shows a flat die's numeral,
    // and how large the dice look
    const view = (camera.throws.filter((x) => x.view).pop() || {}).view;
    const guard = (v) => h("p", { class: "hint", id: "dice-guard", "data-need": v.flat_need, "data-moved": v.moved || 0 },
      v.flat_need > 0 ? t("guardNeed")(v.flat_need) : t("guardOn")(v.flat), v.moved ? " " + t("moved")(v.moved) : "");
    const small = (v) => v.small ? h("p", { class: "hint", id: "dice-small", "data-across": v.across }, t("smallPlay")(v.across, v.small_under)) : null;
    const glare = (v) => v.glare ? h("p", { class: "hint", id: "dice-glare", "data-blank": v.blank }, t("glare")(v.blank, v.blank_of)) : null;
    // "The camera was moved" (confirmed first): the reader forgets where
    // it showed a flat die's numeral and how large it showed the dice
    // (POST /api/calibrate forget-camera)
    const forget = async () => {
      try {
        const r = await fetch("/api/calibrate", { method: "POST", headers: Object.assign(headers(), { "Content-Type": "application/json" }), body: JSON.stringify({ action: "forget-camera" }) });
        const got = await r.json();
        toast(r.ok ? "" : "error", r.ok ? t("cameraMovedOk") : say(got));
      } catch (e) { toast("error", String(e)); }
    };
    const moved = () => {
      const redraw = () => { const p = document.getElementById("camera-moved"); if (p) p.replaceWith(moved()); };
      return confirmingMove ?
        h("p", { id: "camera-moved", class: "confirm" }, t("cameraMovedAsk"), " ",
          h("button", { type: "button", id: "camera-moved-yes", onclick: () => { confirmingMove = false; redraw(); forget(); } }, t("cameraMovedYes")), " ",
          h("button", { type: "button", id: "camera-moved-no", class: "secondary", onclick: () => { confirmingMove = false; redraw(); } }, t("cameraMovedNo"))) :
        h("p", { id: "camera-moved" }, h("button", { type: "button", id: "camera-moved-ask", class: "secondary", onclick: () => { confirmingMove = true; redraw(); } }, t("cameraMoved")));
    };
    return h("section", { id: "dice-camera" }, h("h3", {}, t("title")),
      rows.length ? h("div", { class: "table-scroll" }, h("table", { id: "dice-throws", class: "scores" },
        h("thead", {}, h("tr", {}, [t("time"), t("blue"), t("red"), t("why"), t("fate")].map((x) => h("th", {}, x)))),
        h("tbody", {}, rows))) : h("p", { class: "hint", id: "dice-throws-none" }, t("none")),
      view ? guard(view) : null,
      view ? small(view) : null,
      view ? glare(view) : null,
      view ? moved() : null,
      h("p", {}, h("button", { type: "button", id: "inspect", onclick: inspect }, t("inspect"))),
      calibrateSection(camera, ctx, t),
      h("h4", {}, t("inspections")),
      saved.length ? h("ul", { id: "inspections" }, saved) : h("p", { class: "hint" }, t("noInspections")));
  };
})();
