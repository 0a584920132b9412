package cafe

import (
	_ "embed"
	"encoding/json"
	"net/http"
	"time"
)

//go:embed callstaff.html
var callStaffPage []byte

// StaffCall tells when the table's open call for staff was raised and
// when the floor answered it; zero times when there is none or no answer
// yet. With CallStaff it makes the Publisher the dashboard's
// dashboard.StaffCaller.
func (p *Publisher) StaffCall() (called, answered time.Time) {
	pr := p.Presence()
	return pr.StaffCall, pr.Answered
}

// Handler serves the table's call-staff page under /cafe/: a button on
// the table's screen and on every phone that calls for staff, and the
// floor's answer ("on my way") shown back. POST /cafe/call raises the
// call, POST /cafe/cancel closes it, GET /cafe/status tells where it is.
func (p *Publisher) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /cafe/{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(callStaffPage)
	})
	mux.HandleFunc("POST /cafe/call", func(w http.ResponseWriter, r *http.Request) {
		p.CallStaff(true)
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("POST /cafe/cancel", func(w http.ResponseWriter, r *http.Request) {
		p.CallStaff(false)
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("GET /cafe/status", func(w http.ResponseWriter, r *http.Request) {
		pr := p.Presence()
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(struct {
			Table    string `json:"table"`
			Called   bool   `json:"called"`
			Answered bool   `json:"answered"`
		}{pr.Table, !pr.StaffCall.IsZero(), !pr.Answered.IsZero()})
	})
	return mux
}
