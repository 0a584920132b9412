// The Traders of Genoa: the board, the pawn's path this turn, the squares
// it can still reach, the round track, every player's public holdings, and
// on a seat's phone its own money and cards. Filled in app.js's registry.
"use strict";
window.RENDERERS = window.RENDERERS || {};
