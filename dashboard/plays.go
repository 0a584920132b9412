package dashboard

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"comptoir/bgstats"
	"comptoir/games"
	"comptoir/journal"
)

// pastGames is implemented by sessions that read the table's journal
// (FromTable with a Store): the BG Stats export of any finished game,
// dated and timed by the journal.
type pastGames interface {
	play(id int64) (bgstats.Play, error)
	games() ([]journal.Info, error)
}

// games lists the table journal's games.
func (t *tableSession) games() ([]journal.Info, error) {
	if t.opts.Store == nil {
		return nil, errNoStore
	}
	return t.opts.Store.Games()
}

// playInfo is a game of the journal, as /api/plays lists it.
type playInfo struct {
	Game    int64    `json:"game"`
	Rules   string   `json:"rules"`
	Variant string   `json:"variant,omitempty"`
	Players []string `json:"players"`
	Started string   `json:"started"` // local time, "2006-01-02 15:04"
	Minutes int      `json:"minutes"` // 0 while it runs
	Outcome string   `json:"outcome"` // "over", "abandoned" or "" while it runs
}

// servePlays lists the journal's games, newest first, for the staff page
// (the staff PIN in the X-Comptoir-Staff-Pin header): each finished one
// can be downloaded for BG Stats with ?game=N.
func (s *Server) servePlays(w http.ResponseWriter, r *http.Request) {
	if !s.staffHTTP(w, r, func() {
		httpError(w, http.StatusForbidden, "the list of games is for the staff, with the PIN", "la liste des parties est pour le personnel, avec son code")
	}) {
		return
	}
	pg, ok := s.sess.(pastGames)
	if !ok {
		httpError(w, http.StatusNotFound, "this table keeps no journal", "cette table ne tient pas de journal")
		return
	}
	infos, err := pg.games()
	if err != nil {
		s.logf("dashboard: plays: %v", err)
		httpError(w, http.StatusInternalServerError, "the journal could not be read", "le journal n'a pas pu être lu")
		return
	}
	zone := s.bgstatsOpts().Zone
	out := []playInfo{}
	for i := len(infos) - 1; i >= 0; i-- {
		in := infos[i]
		p := playInfo{Game: in.ID, Rules: in.Setup.Game, Variant: in.Setup.Variant, Players: in.Setup.Players,
			Started: in.Started.In(zone).Format("2006-01-02 15:04"), Outcome: in.Outcome}
		if !in.Finished.IsZero() {
			p.Minutes = int(in.Finished.Sub(in.Started).Round(time.Minute) / time.Minute)
		}
		out = append(out, p)
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	json.NewEncoder(w).Encode(out)
}

var errNoStore = errors.New("dashboard: the table has no journal")

// play reads finished game id of the table's journal.
func (t *tableSession) play(id int64) (bgstats.Play, error) {
	if t.opts.Store == nil {
		return bgstats.Play{}, errNoStore
	}
	infos, err := t.opts.Store.Games()
	if err != nil {
		return bgstats.Play{}, err
	}
	k, rules := t.Kit(), t.s.Rules()
	for _, in := range infos {
		if in.ID == id && in.Setup.Game != k.Name {
			// An earlier game of another game at this table.
			if k, err = games.Lookup(in.Setup.Game); err != nil {
				return bgstats.Play{}, err
			}
			rules = k.Rules()
		}
	}
	return bgstats.Read(t.opts.Store, rules, id, BGStatsGame(k))
}

// bgstatsOpts are the table's settings for a BG Stats play.
func (s *Server) bgstatsOpts() bgstats.Opts {
	zone := s.opts.TimeZone
	if zone == nil {
		zone = time.Local
	}
	return bgstats.Opts{Location: s.opts.Location, Zone: zone}
}

// requestedPlay is the play a download asks for: ?game=N (a game other
// than the latest takes the staff PIN, in the X-Comptoir-Staff-Pin
// header), else the latest game, which must be over. It writes the error
// answer itself and returns ok=false.
func (s *Server) requestedPlay(w http.ResponseWriter, r *http.Request) (bgstats.Play, bool) {
	u := s.latestUpdate()
	id := int64(0)
	if u != nil {
		id = u.Game
	}
	if q := r.URL.Query().Get("game"); q != "" {
		n, err := strconv.ParseInt(q, 10, 64)
		if err != nil || n < 1 {
			httpError(w, http.StatusBadRequest, "game= is a game's number in the journal, like game=3", "game= est le numéro d'une partie du journal, comme game=3")
			return bgstats.Play{}, false
		}
		if u == nil || n != u.Game {
			if !s.staffHTTP(w, r, func() {
				httpError(w, http.StatusForbidden, "an earlier game is downloaded by the staff, with the PIN", "une partie précédente se télécharge par le personnel, avec son code")
			}) {
				return bgstats.Play{}, false
			}
		}
		id = n
	}
	if pg, ok := s.sess.(pastGames); ok {
		p, err := pg.play(id)
		switch {
		case err == nil:
			return p, true
		case errors.Is(err, bgstats.ErrNotFinished):
			httpError(w, http.StatusConflict, "the game is not over yet", "la partie n'est pas finie")
			return bgstats.Play{}, false
		case errors.Is(err, bgstats.ErrNoSuchGame):
			httpError(w, http.StatusNotFound, fmt.Sprintf("no game %d in the table's journal", id), fmt.Sprintf("pas de partie %d dans le journal de la table", id))
			return bgstats.Play{}, false
		case !errors.Is(err, errNoStore):
			s.logf("dashboard: bgstats: game %d: %v", id, err)
			httpError(w, http.StatusInternalServerError, "the BG Stats play could not be made", "la partie BG Stats n'a pas pu être créée")
			return bgstats.Play{}, false
		}
	}
	// A session without a journal: the latest game only, timed to now.
	if u == nil || id != u.Game || !(u.State.Result().Over || u.Outcome == "over") {
		httpError(w, http.StatusConflict, "the game is not over yet", "la partie n'est pas finie")
		return bgstats.Play{}, false
	}
	p, err := bgstats.FromState(u.State, u.Started, s.opts.Clock.Now(), BGStatsGame(s.kit))
	if err != nil {
		s.logf("dashboard: bgstats: %v", err)
		httpError(w, http.StatusInternalServerError, "the BG Stats play could not be made", "la partie BG Stats n'a pas pu être créée")
		return bgstats.Play{}, false
	}
	p.ID = id
	return p, true
}

// serveBGSPlay serves the BG Stats import file of a finished game.
func (s *Server) serveBGSPlay(w http.ResponseWriter, r *http.Request) {
	p, ok := s.requestedPlay(w, r)
	if !ok {
		return
	}
	data, err := p.File(s.bgstatsOpts())
	if err != nil {
		s.logf("dashboard: bgsplay: %v", err)
		httpError(w, http.StatusInternalServerError, "the BG Stats file could not be made", "le fichier BG Stats n'a pas pu être créé")
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="%s-%d-%s.bgsplay"`, p.Setup.Game, p.ID, p.Started.In(s.bgstatsOpts().Zone).Format("2006-01-02")))
	w.Write(data)
}

// serveBGStatsLink sends the phone to BG Stats' import link of a finished
// game (a redirection), or with ?format=json answers {"link": ...}.
func (s *Server) serveBGStatsLink(w http.ResponseWriter, r *http.Request) {
	p, ok := s.requestedPlay(w, r)
	if !ok {
		return
	}
	link, err := p.Link(s.bgstatsOpts())
	if err != nil {
		s.logf("dashboard: bgstats link: %v", err)
		httpError(w, http.StatusInternalServerError, "the BG Stats link could not be made", "le lien BG Stats n'a pas pu être créé")
		return
	}
	if r.URL.Query().Get("format") == "json" {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]string{"link": link})
		return
	}
	http.Redirect(w, r, link, http.StatusSeeOther)
}

// serveBGStatsQR serves a QR code of the table's /bgstats address for the
// latest game, once it is over: a phone that scans it on the end screen
// is sent on to BG Stats with the play (the table's short address keeps
// the code small; the play itself would make a dense one).
func (s *Server) serveBGStatsQR(w http.ResponseWriter, r *http.Request) {
	u := s.latestUpdate()
	if u == nil || !(u.State.Result().Over || u.Outcome == "over") {
		httpError(w, http.StatusConflict, "the game is not over yet", "la partie n'est pas finie")
		return
	}
	s.writeQR(w, fmt.Sprintf("%s/bgstats?game=%d", s.baseURL(r), u.Game))
}
