// Package comptoir is the root of Comptoir, a table companion for trading
// board games played with the real box on a real table. It holds no code:
// see README.md for the layout, and the tests here that keep the layout's
// promises (every package documented; OpenCV only in vision/, periph.io
// only in hw/ and cmd/; the engine pure).
package comptoir
