package hub

import (
	"embed"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gorilla/websocket"
	"github.com/skip2/go-qrcode"
)

//go:embed web
var webFS embed.FS

// Timing of the floor's websockets.
const (
	writeWait  = 5 * time.Second
	pingPeriod = 20 * time.Second
	pongWait   = 45 * time.Second
	// maxRead caps what the floor page may send.
	maxRead = 1 << 10
	// frameEvery is the least time between two frames to a page: the
	// changes of a busy floor (a thousand tables, a step a second each)
	// go as one frame per tick, not a frame per step.
	frameEvery = 50 * time.Millisecond
)

// WebOpts configure the floor's web app.
type WebOpts struct {
	// Location is the café's name, in BG Stats plays.
	Location string
	// Secret opens the floor (FloorSecret): every route but the page's
	// files and the login asks for the session it opens. Empty: the floor
	// is open to whoever reaches it (tests).
	Secret string
	Logf   func(string, ...any)
}

// Handler is the floor's web app: the page, its websocket, the history,
// the statistics.
func (h *Hub) Handler(o WebOpts) http.Handler {
	if o.Logf == nil {
		o.Logf = h.opts.Logf
	}
	var guard *floorGuard
	if o.Secret != "" {
		guard = newFloorGuard(o.Secret, h.opts.Now)
	}
	mux := http.NewServeMux()
	static, _ := fs.Sub(webFS, "web")
	mux.Handle("GET /", http.FileServerFS(static))
	mux.HandleFunc("POST /api/login", guard.serveLogin)
	mux.HandleFunc("POST /api/logout", guard.serveLogout)
	mux.HandleFunc("GET /api/session", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) })
	// The guard checked the Origin.
	up := websocket.Upgrader{ReadBufferSize: 1024, WriteBufferSize: 32 << 10, CheckOrigin: func(*http.Request) bool { return true }}
	mux.HandleFunc("GET /ws", func(w http.ResponseWriter, r *http.Request) {
		c, err := up.Upgrade(w, r, nil)
		if err != nil {
			return
		}
		h.serveWS(c)
	})
	mux.HandleFunc("GET /api/table/{name}", func(w http.ResponseWriter, r *http.Request) {
		c, ok := h.Floor.Detail(r.PathValue("name"))
		if !ok {
			http.Error(w, "no such table", http.StatusNotFound)
			return
		}
		writeJSON(w, c)
	})
	mux.HandleFunc("POST /api/answer/{name}", func(w http.ResponseWriter, r *http.Request) {
		if err := h.Answer(r.PathValue("name")); err != nil {
			http.Error(w, err.Error(), http.StatusConflict)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("POST /api/ack", func(w http.ResponseWriter, r *http.Request) {
		id := r.FormValue("id")
		if id == "" {
			http.Error(w, "id: the alert to acknowledge", http.StatusBadRequest)
			return
		}
		if err := h.Ack(id); err != nil {
			h.opts.Logf("%v", err)
			http.Error(w, "the acknowledgement could not be saved", http.StatusInternalServerError)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("GET /api/stats", func(w http.ResponseWriter, r *http.Request) { writeJSON(w, h.Stats()) })
	mux.HandleFunc("GET /api/history", func(w http.ResponseWriter, r *http.Request) {
		plays, err := h.plays(r)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		type row struct {
			Play
			Minutes int      `json:"minutes"`
			Winners []string `json:"winners"`
			BGStats string   `json:"bgstats"`
		}
		out := []row{}
		for _, p := range plays {
			out = append(out, row{Play: p, Minutes: int(p.Duration().Minutes() + 0.5), Winners: p.Winners(), BGStats: BGStatsLink(p, o.Location)})
		}
		writeJSON(w, out)
	})
	mux.HandleFunc("GET /api/history.csv", func(w http.ResponseWriter, r *http.Request) {
		plays, err := h.plays(r)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "text/csv; charset=utf-8")
		w.Header().Set("Content-Disposition", `attachment; filename="plays.csv"`)
		cw := csv.NewWriter(w)
		cw.Write([]string{"finished", "minutes", "table", "game", "edition", "players", "scores", "winners", "outcome"})
		for _, p := range plays {
			var scores []string
			if p.Result != nil {
				for _, s := range p.Result.Scores {
					scores = append(scores, fmt.Sprintf("%s %d", s.Player, s.Total))
				}
			}
			cw.Write([]string{p.Finished.Local().Format("2006-01-02 15:04"), strconv.Itoa(int(p.Duration().Minutes() + 0.5)), p.Table, p.Name, p.Variant,
				strings.Join(p.Players, "; "), strings.Join(scores, "; "), strings.Join(p.Winners(), "; "), p.Outcome})
		}
		cw.Flush()
	})
	mux.HandleFunc("GET /api/play/{table}/{game}/qr.png", func(w http.ResponseWriter, r *http.Request) {
		game, _ := strconv.ParseInt(r.PathValue("game"), 10, 64)
		plays, err := h.opts.History.Plays(Filter{Table: r.PathValue("table")})
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		for _, p := range plays {
			if p.Game == game {
				png, err := qrcode.Encode(BGStatsLink(p, o.Location), qrcode.Low, 320)
				if err != nil {
					http.Error(w, err.Error(), http.StatusInternalServerError)
					return
				}
				w.Header().Set("Content-Type", "image/png")
				w.Write(png)
				return
			}
		}
		http.Error(w, "no such play", http.StatusNotFound)
	})
	mux.HandleFunc("GET /api/plot/{name}", func(w http.ResponseWriter, r *http.Request) {
		plays, err := h.plays(r)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		svg, err := svgBuffer(strings.TrimSuffix(r.PathValue("name"), ".svg"), r.FormValue("lang"), plays)
		if err != nil {
			http.Error(w, err.Error(), http.StatusNotFound)
			return
		}
		w.Header().Set("Content-Type", "image/svg+xml")
		w.Write(svg)
	})
	return guard.guard(mux)
}

// plays reads the history's filters from the request: game, table,
// players, from and to (dates, 2006-01-02, to excluded).
func (h *Hub) plays(r *http.Request) ([]Play, error) {
	f := Filter{Name: r.FormValue("game"), Table: r.FormValue("table")}
	if s := r.FormValue("players"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			return nil, fmt.Errorf("players=%q: want a number of players", s)
		}
		f.Players = n
	}
	for _, d := range []struct {
		key string
		dst *time.Time
	}{{"from", &f.From}, {"to", &f.To}} {
		if s := r.FormValue(d.key); s != "" {
			t, err := time.ParseInLocation("2006-01-02", s, time.Local)
			if err != nil {
				return nil, fmt.Errorf("%s=%q: want a date like 2026-11-25", d.key, s)
			}
			*d.dst = t
		}
	}
	return h.opts.History.Plays(f)
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
}

// serveWS sends the floor to one page: one writer (this goroutine), one
// reader that only watches the connection.
func (h *Hub) serveWS(c *websocket.Conn) {
	defer c.Close()
	sub := h.Floor.Subscribe()
	defer sub.Close()
	closed := make(chan struct{})
	c.SetReadLimit(maxRead)
	c.SetReadDeadline(time.Now().Add(pongWait))
	c.SetPongHandler(func(string) error { return c.SetReadDeadline(time.Now().Add(pongWait)) })
	go func() {
		defer close(closed)
		for {
			if _, _, err := c.NextReader(); err != nil {
				return
			}
		}
	}()
	ping := time.NewTicker(pingPeriod)
	defer ping.Stop()
	var sent time.Time
	for {
		select {
		case <-closed:
			return
		case <-sub.Ready():
			if wait := frameEvery - time.Since(sent); wait > 0 {
				// The changes coming meanwhile join this frame.
				select {
				case <-closed:
					return
				case <-time.After(wait):
				}
			}
			data := sub.Next()
			if data == nil {
				continue
			}
			sent = time.Now()
			c.SetWriteDeadline(time.Now().Add(writeWait))
			if err := c.WriteMessage(websocket.TextMessage, data); err != nil {
				return
			}
		case <-ping.C:
			c.SetWriteDeadline(time.Now().Add(writeWait))
			if err := c.WriteMessage(websocket.PingMessage, nil); err != nil {
				return
			}
		}
	}
}
