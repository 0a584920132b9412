package dashboard

import (
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"time"
)

// StaffCaller is the café's call for staff as the dashboard needs it: a
// table in a café (the daemon's café publisher) raises the call on the
// floor and hears the floor's answer. The dashboard names no café: any
// value with these methods will do (Opts.CallStaff).
type StaffCaller interface {
	// CallStaff raises (on) or closes (off) the table's call for staff.
	// It must not block.
	CallStaff(on bool)
	// StaffCall tells when the open call was raised and when the floor
	// answered it ("on my way"); zero times when there is none or no
	// answer yet.
	StaffCall() (called, answered time.Time)
}

// SeatTokenHeader carries a phone's seat token on HTTP requests made on
// behalf of its seat (the call for staff).
const SeatTokenHeader = "X-Comptoir-Seat"

// Limits of the calls for staff of one table: a few at once, then one
// every callStaffEvery (a phone tapped again and again, or a script on
// the café's network, cannot flood the floor).
const (
	callStaffBurst = 4
	callStaffEvery = 10 * time.Second
)

// callStaffState is what GET /api/call-staff answers.
type callStaffState struct {
	Called   bool      `json:"called"`
	Answered bool      `json:"answered"`
	Since    time.Time `json:"since,omitzero"`
	At       time.Time `json:"answeredAt,omitzero"`
}

// callStaffHandler serves /api/call-staff: GET tells where the table's call
// is (anyone at the table may see it, as the table's screen shows it);
// POST {"on":true|false} raises or closes it, from a seated phone (its
// token in SeatTokenHeader) or the table's screen only, rate-limited. A
// dashboard without Opts.CallStaff (no café) answers 404, and the page's
// button stays hidden.
func (s *Server) callStaffHandler() http.Handler {
	limit := newSharedBucket(s.opts.Clock, 1/callStaffEvery.Seconds(), callStaffBurst)
	state := func(w http.ResponseWriter) {
		called, answered := s.opts.CallStaff.StaffCall()
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		json.NewEncoder(w).Encode(callStaffState{Called: !called.IsZero(), Answered: !answered.IsZero(), Since: called, At: answered})
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.opts.CallStaff == nil {
			httpError(w, http.StatusNotFound, "this table is not in a café: no call for staff", "cette table n'est pas reliée à un café : pas d'appel du personnel")
			return
		}
		switch r.Method {
		case http.MethodGet, http.MethodHead:
			state(w)
			return
		case http.MethodPost:
		default:
			w.Header().Set("Allow", "GET, POST")
			httpError(w, http.StatusMethodNotAllowed, "GET or POST", "GET ou POST")
			return
		}
		if !s.global.allow() {
			httpError(w, http.StatusTooManyRequests, "too many requests: wait a moment", "trop de requêtes : attendez un instant")
			return
		}
		who := ""
		if tok := r.Header.Get(SeatTokenHeader); tok != "" {
			if seat, err := s.tok.seat(tok); err == nil {
				who = "seat " + strconv.Itoa(int(seat)+1)
			}
		}
		if who == "" && s.trustedScreen(r) {
			who = "the table's screen"
		}
		if who == "" {
			httpError(w, http.StatusForbidden, "only a seated player's phone or the table's screen may call the staff", "seuls le téléphone d'un joueur assis et l'écran de la table peuvent appeler le personnel")
			return
		}
		var req struct {
			On bool `json:"on"`
		}
		dec := json.NewDecoder(io.LimitReader(r.Body, maxMessage))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&req); err != nil {
			httpError(w, http.StatusBadRequest, `want {"on": true} or {"on": false}`, `attendu {"on": true} ou {"on": false}`)
			return
		}
		if !limit.allow() {
			w.Header().Set("Retry-After", strconv.Itoa(int(callStaffEvery.Seconds())))
			httpError(w, http.StatusTooManyRequests, "the staff was called a moment ago: wait a little", "le personnel vient d'être appelé : patientez un peu")
			return
		}
		s.opts.CallStaff.CallStaff(req.On)
		if req.On {
			s.logf("dashboard: staff called by %s", who)
		} else {
			s.logf("dashboard: call for staff closed by %s", who)
		}
		state(w)
	})
}
