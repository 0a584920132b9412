package dashboard

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"comptoir/input"
)

// Frames sent for inspection: the staff's button saves the camera's last
// frame read and the reader's verdict on it in Opts.InspectDir
// (<time>.jpg and <time>.json), keeps at most InspectKeep of them and
// InspectBytes in all (the oldest go first), lists them on the staff
// page and serves them to the staff (the PIN in StaffPINHeader).

// Defaults of the inspection folder's bounds.
const (
	DefaultInspectKeep  = 50
	DefaultInspectBytes = 50 << 20
	// snapshotWait bounds the camera's answer.
	snapshotWait = 10 * time.Second
)

// inspection is a frame saved for inspection, as the staff page lists it.
type inspection struct {
	Name    string             `json:"name"` // the files' name without extension
	Saved   time.Time          `json:"saved"`
	Bytes   int64              `json:"bytes"`
	Reading *input.DiceReading `json:"reading,omitempty"`
}

// inspectName is a saved frame's name: its UTC time, to the millisecond.
var inspectName = regexp.MustCompile(`^[0-9]{8}T[0-9]{6}\.[0-9]{3}Z(-[0-9]+)?$`)

func (s *Server) inspectRoutes(m *http.ServeMux) {
	m.HandleFunc("POST /api/inspect", s.serveInspect)
	m.HandleFunc("GET /api/inspect", s.serveInspections)
	m.HandleFunc("GET /download/inspect/{file}", s.serveInspectFile)
	m.HandleFunc("POST /api/calibrate", s.serveCalibrate) // calibrate.go
}

// staffOnly checks the staff PIN of an HTTP request; it answers the
// refusal itself.
func (s *Server) staffOnly(w http.ResponseWriter, r *http.Request) bool {
	return s.staffHTTP(w, r, func() {
		httpError(w, http.StatusUnauthorized, "the staff's PIN is needed", "le code du personnel est nécessaire")
	})
}

// serveInspect saves the camera's last frame and its verdict.
func (s *Server) serveInspect(w http.ResponseWriter, r *http.Request) {
	if !s.staffOnly(w, r) {
		return
	}
	if s.opts.Dice == nil || s.opts.InspectDir == "" {
		httpError(w, http.StatusNotFound, "this table has no dice camera", "cette table n'a pas de caméra des dés")
		return
	}
	got, err := s.inspect(r.Context())
	switch {
	case errors.Is(err, ErrNoFrame):
		httpError(w, http.StatusConflict, "the camera has no frame yet: wait until it has seen the tray still for a moment, then send again", "la caméra n'a pas encore d'image : attendez qu'elle ait vu le plateau immobile un instant, puis renvoyez")
		return
	case errors.Is(err, ErrNoCamera):
		httpError(w, http.StatusServiceUnavailable, "the dice reader is not running (see the devices): try again once the camera is back", "le lecteur de dés ne tourne pas (voir les appareils) : réessayez quand la caméra est revenue")
		return
	case err != nil:
		s.logf("dashboard: inspect: %v", err)
		httpError(w, http.StatusInternalServerError, "the frame could not be saved: "+err.Error(), "l'image n'a pas pu être enregistrée : "+err.Error())
		return
	}
	s.notifyCamera()
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(got)
}

// inspect saves the last frame and its verdict, then prunes the folder.
func (s *Server) inspect(ctx context.Context) (inspection, error) {
	s.inspectMu.Lock()
	defer s.inspectMu.Unlock()
	dir := s.opts.InspectDir
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return inspection{}, fmt.Errorf("inspect: %w", err)
	}
	now := s.opts.Clock.Now().UTC()
	name := now.Format("20060102T150405.000Z")
	for n := 2; ; n++ {
		if _, err := os.Stat(filepath.Join(dir, name+".jpg")); errors.Is(err, os.ErrNotExist) {
			break
		}
		name = now.Format("20060102T150405.000Z") + fmt.Sprintf("-%d", n)
	}
	jpg := filepath.Join(dir, name+".jpg")
	ctx, cancel := context.WithTimeout(ctx, snapshotWait)
	defer cancel()
	reading, err := s.opts.Dice.Snapshot(ctx, jpg)
	if err != nil {
		os.Remove(jpg)
		return inspection{}, err
	}
	fi, err := os.Stat(jpg)
	if err != nil {
		return inspection{}, fmt.Errorf("inspect: the camera's frame: %w", err)
	}
	got := inspection{Name: name, Saved: now, Bytes: fi.Size(), Reading: &reading}
	data, err := json.MarshalIndent(got, "", "  ")
	if err != nil {
		return inspection{}, err
	}
	if err := os.WriteFile(filepath.Join(dir, name+".json"), append(data, '\n'), 0o644); err != nil {
		os.Remove(jpg)
		return inspection{}, fmt.Errorf("inspect: %w", err)
	}
	got.Bytes += int64(len(data) + 1)
	s.pruneInspections()
	return got, nil
}

// keepBounds are the folder's bounds, the defaults for zero.
func (s *Server) keepBounds() (int, int64) {
	n, b := s.opts.InspectKeep, s.opts.InspectBytes
	if n <= 0 {
		n = DefaultInspectKeep
	}
	if b <= 0 {
		b = DefaultInspectBytes
	}
	return n, b
}

// inspections lists the saved frames, newest first.
func (s *Server) inspections() []inspection {
	dir := s.opts.InspectDir
	if dir == "" {
		return nil
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	byName := map[string]*inspection{}
	for _, e := range entries {
		ext := filepath.Ext(e.Name())
		name := strings.TrimSuffix(e.Name(), ext)
		if (ext != ".jpg" && ext != ".json") || !inspectName.MatchString(name) {
			continue
		}
		fi, err := e.Info()
		if err != nil {
			continue
		}
		in := byName[name]
		if in == nil {
			in = &inspection{Name: name, Saved: fi.ModTime().UTC()}
			byName[name] = in
		}
		in.Bytes += fi.Size()
		if ext == ".json" {
			var saved inspection
			if data, err := os.ReadFile(filepath.Join(dir, e.Name())); err == nil && json.Unmarshal(data, &saved) == nil {
				in.Reading, in.Saved = saved.Reading, saved.Saved
			}
		}
	}
	out := make([]inspection, 0, len(byName))
	for _, in := range byName {
		out = append(out, *in)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name > out[j].Name })
	return out
}

// pruneInspections removes the oldest frames beyond the bounds.
func (s *Server) pruneInspections() {
	keep, bytes := s.keepBounds()
	var total int64
	for i, in := range s.inspections() {
		total += in.Bytes
		if i < keep && (total <= bytes || i == 0) {
			continue
		}
		for _, ext := range []string{".jpg", ".json"} {
			if err := os.Remove(filepath.Join(s.opts.InspectDir, in.Name+ext)); err != nil && !errors.Is(err, os.ErrNotExist) {
				s.logf("dashboard: inspect: %v", err)
			}
		}
	}
}

// serveInspections lists the saved frames.
func (s *Server) serveInspections(w http.ResponseWriter, r *http.Request) {
	if !s.staffOnly(w, r) {
		return
	}
	list := s.inspections()
	if list == nil {
		list = []inspection{}
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(list)
}

// serveInspectFile serves one saved frame or its verdict.
func (s *Server) serveInspectFile(w http.ResponseWriter, r *http.Request) {
	if !s.staffOnly(w, r) {
		return
	}
	file := r.PathValue("file")
	ext := filepath.Ext(file)
	if s.opts.InspectDir == "" || (ext != ".jpg" && ext != ".json") || !inspectName.MatchString(strings.TrimSuffix(file, ext)) {
		http.NotFound(w, r)
		return
	}
	f, err := os.Open(filepath.Join(s.opts.InspectDir, file))
	if err != nil {
		http.NotFound(w, r)
		return
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="dice-%s"`, file))
	http.ServeContent(w, r, file, fi.ModTime(), f)
}
