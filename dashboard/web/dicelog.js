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
      misread: "mal lu, corrigé", held: "en attente du journal", pending: "…", step: "étape",
      inspect: "Envoyer l'image pour inspection", inspections: "Images envoyées pour inspection",
      noInspections: "Aucune image envoyée.", saved: "Image enregistrée", picture: "image", verdict: "lecture",
      notFound: "pas trouvé",
    },
    en: {
      title: "Dice camera", time: "Time", blue: "Blue", red: "Red", why: "Why", fate: "Then",
      none: "No throw read since the start.", unread: "unreadable",
      accepted: "accepted", refused: "refused", unreadable: "asked the players", corrected: "read again by the camera",
      misread: "misread, corrected", held: "waiting for the journal", pending: "…", step: "step",
      inspect: "Send the frame for inspection", inspections: "Frames sent for inspection",
      noInspections: "No frame sent.", saved: "Frame saved", picture: "picture", verdict: "reading",
      notFound: "not found",
    },
  };

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
      if (x.seq && (x.fate === "accepted" || x.fate === "misread" || x.fate === "corrected")) s += " (" + t("step") + " " + x.seq + ")";
      if (x.why) s += " · " + say(x.why);
      return s;
    };
    const sep = ctx.lang === "en" ? ": " : "\u00a0: ";
    const why = (x) => [x.blue.face ? "" : t("blue") + sep + reason(x.blue), x.red.face ? "" : t("red") + sep + reason(x.red)].filter(Boolean).join(ctx.lang === "en" ? "; " : " ; ");
    const rows = camera.throws.slice().reverse().map((x) => h("tr", { class: "throw fate-" + (x.fate || "pending"), "data-fate": x.fate || "" },
      h("td", {}, new Date(x.t).toLocaleTimeString()), h("td", { class: "blue" }, die(x.blue)), h("td", { class: "red" }, die(x.red)),
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
    return h("section", { id: "dice-camera" }, h("h3", {}, t("title")),
      rows.length ? h("table", { id: "dice-throws", class: "scores" },
        h("thead", {}, h("tr", {}, [t("time"), t("blue"), t("red"), t("why"), t("fate")].map((x) => h("th", {}, x)))),
        h("tbody", {}, rows)) : h("p", { class: "hint", id: "dice-throws-none" }, t("none")),
      h("p", {}, h("button", { type: "button", id: "inspect", onclick: inspect }, t("inspect"))),
      h("h4", {}, t("inspections")),
      saved.length ? h("ul", { id: "inspections" }, saved) : h("p", { class: "hint" }, t("noInspections")));
  };
})();
