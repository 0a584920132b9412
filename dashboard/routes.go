package dashboard

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"reflect"
	"strconv"
	"strings"

	"comptoir/engine"
)

// checkOrigin accepts a websocket from the dashboard's own pages or an
// allowed origin; one with no Origin is refused (see origin.go).
func (s *Server) checkOrigin(r *http.Request) bool { return s.originAllowed(r) }

func (s *Server) routes() {
	m := http.NewServeMux()
	static, _ := fs.Sub(webFS, "web")
	page := func(w http.ResponseWriter, r *http.Request) {
		secureHeaders(w)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(s.page)
	}
	m.HandleFunc("GET /{$}", page)
	m.HandleFunc("GET /seat", page)
	m.HandleFunc("GET /staff", page)
	m.HandleFunc("GET /join", page)
	m.Handle("GET /static/", http.StripPrefix("/static/", noListing(staticHandler(gameFS{game: s.kit, web: static}))))
	m.HandleFunc("POST /api/pair", s.servePair)
	m.HandleFunc("GET /ws", s.serveWS)
	m.HandleFunc("POST /api/join", s.serveJoin)
	m.HandleFunc("GET /qr/{seat}", s.serveQR)
	m.HandleFunc("GET /api/game", s.serveGameInfo)
	m.HandleFunc("GET /download/record", s.serveRecord)
	m.HandleFunc("GET /download/bgsplay", s.serveBGSPlay)
	m.HandleFunc("GET /bgstats", s.serveBGStatsLink)
	m.HandleFunc("GET /qr/bgstats.png", s.serveBGStatsQR)
	m.HandleFunc("GET /api/plays", s.servePlays)
	m.Handle("/api/call-staff", s.callStaffHandler())
	s.manifestRoutes(m)
	s.inspectRoutes(m)
	s.mux = m
	s.handler = s.guardOrigin(m)
}

func staticHandler(static fs.FS) http.Handler {
	files := http.FileServerFS(static)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		secureHeaders(w)
		w.Header().Set("Cache-Control", "no-cache")
		files.ServeHTTP(w, r)
	})
}

// secureHeaders keeps the pages to their own server: no script, style or
// image from elsewhere (the dashboard works with no internet access).
func secureHeaders(w http.ResponseWriter) {
	h := w.Header()
	h.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; connect-src 'self' ws: wss:; frame-ancestors 'none'")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
}

// httpError writes a JSON error in both languages.
func httpError(w http.ResponseWriter, code int, en, fr string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(map[string]string{"en": en, "fr": fr})
}

func joinPath(seat engine.Seat, code string) string {
	return "/join?seat=" + strconv.Itoa(int(seat)+1) + "&code=" + code
}

// serveJoin makes the phone a seat: {"seat":1,"code":"…"} (seat 1-based,
// as in the join link) answers {"token":"…","seat":0}.
func (s *Server) serveJoin(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Seat int    `json:"seat"`
		Code string `json:"code"`
	}
	if !s.global.allow() {
		httpError(w, http.StatusTooManyRequests, "too many requests: wait a moment", "trop de requêtes : attendez un instant")
		return
	}
	dec := json.NewDecoder(io.LimitReader(r.Body, maxMessage))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		httpError(w, http.StatusBadRequest, "bad join request: "+err.Error(), "demande invalide : "+err.Error())
		return
	}
	u := s.latestUpdate()
	if u == nil {
		httpError(w, http.StatusServiceUnavailable, "the table is starting, try again", "la table démarre, réessayez")
		return
	}
	players := u.State.Setup().Players
	if req.Seat < 1 || req.Seat > len(players) {
		httpError(w, http.StatusBadRequest, fmt.Sprintf("no seat %d: seats 1 to %d", req.Seat, len(players)), fmt.Sprintf("pas de place %d : places 1 à %d", req.Seat, len(players)))
		return
	}
	seat := engine.Seat(req.Seat - 1)
	tok, err := s.tok.join(seat, req.Code, s.opts.Clock.Now())
	switch {
	case errors.Is(err, ErrSeatTaken):
		httpError(w, http.StatusConflict, "another phone already holds this seat; ask the staff to free it", "un autre téléphone a déjà cette place ; demandez au personnel de la libérer")
		return
	case errors.Is(err, ErrBadJoinCode):
		httpError(w, http.StatusForbidden, "this join code is out of date: scan the QR code on the table's screen again", "ce code n'est plus valable : scannez à nouveau le QR code de l'écran de la table")
		return
	case err != nil:
		s.logf("dashboard: join: %v", err)
		httpError(w, http.StatusInternalServerError, "the table could not save the seat", "la table n'a pas pu enregistrer la place")
		return
	}
	s.notifySeats()
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"token": tok, "seat": seat, "name": players[seat]})
}

// serveQR serves the join QR code of a free seat (1-based) as a PNG.
func (s *Server) serveQR(w http.ResponseWriter, r *http.Request) {
	name := strings.TrimSuffix(r.PathValue("seat"), ".png")
	n, err := strconv.Atoi(name)
	u := s.latestUpdate()
	if err != nil || u == nil || n < 1 || n > len(u.State.Setup().Players) {
		http.NotFound(w, r)
		return
	}
	seat := engine.Seat(n - 1)
	if s.tok.taken(seat) {
		httpError(w, http.StatusGone, "this seat is taken", "cette place est prise")
		return
	}
	if !s.qrAllowed(r, seat) {
		http.NotFound(w, r) // the code is drawn for whoever has it only
		return
	}
	s.writeQR(w, s.baseURL(r)+joinPath(seat, s.tok.code(seat)))
}

// serveGameInfo serves the fixed data of the game being played (board
// layout, names, what each card needs): no state, no secret.
func (s *Server) serveGameInfo(w http.ResponseWriter, r *http.Request) {
	u := s.latestUpdate()
	if u == nil {
		httpError(w, http.StatusServiceUnavailable, "the table is starting, try again", "la table démarre, réessayez")
		return
	}
	info, err := s.gameInfo(u)
	if err != nil {
		s.logf("dashboard: %v", err)
		httpError(w, http.StatusInternalServerError, "the game's data could not be read", "les données du jeu n'ont pas pu être lues")
		return
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(info)
}

// revKey is what the game's fixed data is made from.
type revKey struct {
	rules   engine.Rules
	variant string
}

// same reports whether k and o are the same rules and variant (rules of a
// type that cannot be compared are never the same: the digest is made
// again).
func (k revKey) same(o revKey) bool {
	if k.variant != o.variant || k.rules == nil || o.rules == nil {
		return false
	}
	tk, to := reflect.TypeOf(k.rules), reflect.TypeOf(o.rules)
	return tk == to && tk.Comparable() && k.rules == o.rules
}

// infoRev names the version of the game's fixed data a frame goes with
// (a digest of what /api/game serves): it changes when the data does (a
// Genoa board edit makes new rules), so the pages fetch it again. "" when
// the game has no data beyond its name.
func (s *Server) infoRev(u *Update) string {
	if s.kit.Info == nil {
		return ""
	}
	key := revKey{u.Rules, u.State.Setup().Variant}
	s.revMu.Lock()
	defer s.revMu.Unlock()
	if !key.same(s.revKey) {
		info, err := s.gameInfo(u)
		if err != nil {
			return ""
		}
		data, _ := json.Marshal(info)
		sum := sha256.Sum256(data)
		s.revKey, s.rev = key, hex.EncodeToString(sum[:6])
	}
	return s.rev
}

// StaffPINHeader carries the staff PIN on a download made before the end
// of the game.
const StaffPINHeader = "X-Comptoir-Staff-Pin"

// serveRecord serves the game record (the engine's notation).
func (s *Server) serveRecord(w http.ResponseWriter, r *http.Request) {
	if s.recordSealed() && !s.staffHTTP(w, r, func() {
		httpError(w, http.StatusConflict, "the game record names every hidden card and bid: it can be downloaded once the game is over, or by the staff with the PIN", "la feuille de partie nomme toutes les cartes et mises cachées : elle se télécharge une fois la partie finie, ou par le personnel avec son code")
	}) {
		return
	}
	data, err := s.sess.Record()
	if err != nil {
		s.logf("dashboard: record: %v", err)
		httpError(w, http.StatusInternalServerError, "the game record could not be read", "la feuille de partie n'a pas pu être lue")
		return
	}
	name := "game"
	if u := s.latestUpdate(); u != nil {
		name = u.State.Setup().Game
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="%s-%s.txt"`, name, s.opts.Clock.Now().Format("2006-01-02")))
	w.Write(data)
}

// baseURL is the address the phones reach the dashboard at: Opts.BaseURL,
// else the scheme and host r came with.
func (s *Server) baseURL(r *http.Request) string {
	if s.opts.BaseURL != "" {
		return s.opts.BaseURL
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}
