package tagmap

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"comptoir/hw/internal/leakcheck"
	"comptoir/input"
	"comptoir/strictyaml"
)

func TestDecodeFile(t *testing.T) {
	m, err := Load("testdata/tags.yaml")
	if err != nil {
		t.Fatalf("Load = %v", err)
	}
	tests := []struct {
		uid  string
		want Target
		ok   bool
	}{
		{"04A2B3C4D5E680", Target{KindSquare, "3-2", "Street 3-2"}, true},
		{"04112233445566", Target{KindSquare, "4-4", ""}, true},
		{"DEADBEEF", Target{KindCard, "L01", "Large order, Villa Colini"}, true},
		{"DEADBEEE", Target{}, false},
	}
	for _, tt := range tests {
		got, ok := m.Lookup(tt.uid)
		if got != tt.want || ok != tt.ok {
			t.Errorf("Lookup(%q) = %v, %v; want %v, %v", tt.uid, got, ok, tt.want, tt.ok)
		}
	}
	// Encode then Decode gives the same entries.
	again, err := Decode(m.Encode(), "again.yaml")
	if err != nil {
		t.Fatalf("Decode(Encode()) = %v\n%s", err, m.Encode())
	}
	if a, b := again.Entries(), m.Entries(); len(a) != len(b) {
		t.Fatalf("round trip: %d entries, want %d", len(a), len(b))
	} else {
		for i := range a {
			if a[i] != b[i] {
				t.Errorf("round trip entry %d = %v, want %v", i, a[i], b[i])
			}
		}
	}
}

func TestDecodeErrors(t *testing.T) {
	tests := []struct {
		name, yaml, want string
		sentinel         error
	}{
		{"same UID twice", "version: 1\ntags:\n  - {uid: DEADBEEF, kind: card, id: L01}\n  - {uid: deadbeef, kind: square, id: 1-1}\n",
			`t.yaml:4: key "tags[1].uid": tag already enrolled: DEADBEEF is card L01 on line 3`, ErrEnrolled},
		{"unknown key", "version: 1\ntags:\n  - {uid: DEADBEEF, kind: card, id: L01, colour: red}\n",
			`t.yaml:3: key "tags[0].colour": unknown key in tags[0]; expected one of uid, kind, id, label`, ErrFormat},
		{"missing key", "version: 1\ntags:\n  - uid: DEADBEEF\n    kind: card\n",
			`t.yaml:3: key "tags[0].id": missing in tags[0]; it is required`, ErrFormat},
		{"missing version", "tags: []\n", `t.yaml:1: key "version": missing in the tag map; it is required`, ErrFormat},
		{"version 2", "version: 2\ntags: []\n", `t.yaml:1: key "version": version 2 is not supported; this Comptoir reads version 1`, ErrFormat},
		{"tags not a list", "version: 1\ntags: {uid: DEADBEEF}\n", `t.yaml:2: key "tags": is a mapping; expected a list`, ErrFormat},
		{"tag not a mapping", "version: 1\ntags: [DEADBEEF]\n", `t.yaml:2: key "tags[0]": tags[0] is a text "DEADBEEF"; expected a mapping`, ErrFormat},
		{"uid a list", "version: 1\ntags:\n  - {uid: [DE, AD], kind: card, id: L01}\n", `t.yaml:3: key "tags[0].uid": is a list; expected a single value`, ErrFormat},
		{"key twice", "version: 1\ntags:\n  - {uid: DEADBEEF, kind: card, id: L01, id: L02}\n", `t.yaml:3: key "tags[0].id": given twice in tags[0]; keep one`, ErrFormat},
		{"empty file", "", `t.yaml:1: empty file`, ErrFormat},
		{"not yaml", "version: [1\n", `t.yaml:`, ErrFormat},
		{"bad uid wraps both", "version: 1\ntags:\n  - {uid: XYZ, kind: card, id: L01}\n", `t.yaml:3: key "tags[0].uid": bad tag UID "XYZ": want hexadecimal bytes`, ErrFormat},
		{"bad uid", "version: 1\ntags:\n  - {uid: DEADBE, kind: card, id: L01}\n",
			`t.yaml:3: key "tags[0].uid": bad tag UID "DEADBE": 3 bytes; NFC tags have 4, 7 or 10`, ErrBadUID},
		{"bad square", "version: 1\ntags:\n  - {uid: DEADBEEF, kind: square, id: 9-1}\n",
			`t.yaml:3: key "tags[0].id": bad tag map: square id "9-1": want a cell X-Y`, ErrFormat},
		{"bad kind", "version: 1\ntags:\n  - {uid: DEADBEEF, kind: tile, id: T1}\n",
			`t.yaml:3: key "tags[0].kind": bad tag map: kind "tile": want square or card`, ErrFormat},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Decode([]byte(tt.yaml), "t.yaml")
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("Decode error = %v, want it to start with %q", err, tt.want)
			}
			if !errors.Is(err, tt.sentinel) || !errors.Is(err, ErrFormat) || !errors.Is(err, strictyaml.ErrInvalid) {
				t.Errorf("errors.Is(%v, %v) = false", err, tt.sentinel)
			}
		})
	}
}

func TestAddRefusesEnrolledUID(t *testing.T) {
	m := New()
	if err := m.Add("04a2b3c4d5e680", Target{KindSquare, "3-2", "Street 3-2"}); err != nil {
		t.Fatal(err)
	}
	err := m.Add("04A2B3C4D5E680", Target{KindCard, "S07", ""})
	want := "tag already enrolled: 04A2B3C4D5E680 is square 3-2 (Street 3-2); remove it first to enroll it as card S07"
	if err == nil || err.Error() != want || !errors.Is(err, ErrEnrolled) {
		t.Errorf("second Add = %v, want %q", err, want)
	}
	if !m.Remove("04A2B3C4D5E680") || m.Len() != 0 {
		t.Error("Remove did not forget the tag")
	}
}

func TestSaveLoad(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tags.yaml")
	m, err := Load(path) // no file yet: empty map
	if err != nil || m.Len() != 0 {
		t.Fatalf("Load(missing) = %v, %v; want empty map", m, err)
	}
	if err := m.Save(path); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(path); err != nil {
		t.Fatalf("Load(empty saved map) = %v", err)
	}
	m.Add("DEADBEEF", Target{KindCard, "M12", "Message: \"quoted\""})
	if err := m.Save(path); err != nil {
		t.Fatal(err)
	}
	got, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if tg, _ := got.Lookup("DEADBEEF"); tg.Label != "Message: \"quoted\"" {
		t.Errorf("label after save and load = %q", tg.Label)
	}
	left, _ := os.ReadDir(filepath.Dir(path))
	if len(left) != 1 {
		t.Errorf("%d files in the folder after saving, want 1 (no temporary left)", len(left))
	}
}

func TestResolver(t *testing.T) {
	leakcheck.Check(t)
	m, err := Load("testdata/tags.yaml")
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 11, 21, 20, 0, 0, 0, time.UTC)
	in := make(chan input.Event, 4)
	in <- input.TagTapped{At: at, UID: "DEADBEEF"}
	in <- input.TagTapped{At: at, UID: "0499999999999999"}
	in <- input.Button{At: at, Name: "confirm"}
	close(in)
	var got []string
	for e := range NewResolver(m).Run(context.Background(), in) {
		got = append(got, e.String())
		if r, ok := e.(Resolved); ok && r.Target.ID != "L01" {
			t.Errorf("resolved target = %v, want card L01", r.Target)
		}
	}
	want := []string{"tag DEADBEEF = card L01 (Large order, Villa Colini)", "unknown tag 0499999999999999", "button confirm"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("resolved %q, want %q", got, want)
	}
}

func TestResolverStopsOnCancel(t *testing.T) {
	leakcheck.Check(t)
	ctx, cancel := context.WithCancel(context.Background())
	out := NewResolver(New()).Run(ctx, make(chan input.Event))
	cancel()
	if _, ok := <-out; ok {
		t.Error("Run sent an event after cancel")
	}
}

func TestSession(t *testing.T) {
	m := New()
	m.Add("04000000000001", Target{KindSquare, "2-1", ""}) // enrolled before: resumed over
	targets := []Target{{KindSquare, "1-1", ""}, {KindSquare, "2-1", ""}, {KindSquare, "3-1", ""}, {KindCard, "L01", ""}}
	s := NewSession(m, targets)
	step := func(uid, wantNext string, wantErr error) {
		t.Helper()
		_, err := s.Tap(uid)
		if !errors.Is(err, wantErr) {
			t.Errorf("Tap(%s) = %v, want %v", uid, err, wantErr)
		}
		next, ok := s.Next()
		if got := next.ID; (ok && got != wantNext) || (!ok && wantNext != "") {
			t.Errorf("after Tap(%s): next = %q, want %q", uid, got, wantNext)
		}
	}
	if n, _ := s.Next(); n.ID != "1-1" {
		t.Fatalf("first target = %v, want 1-1", n)
	}
	step("04000000000011", "3-1", nil)         // 1-1 enrolled, 2-1 already has a tag
	step("04000000000001", "3-1", ErrEnrolled) // the tag of 2-1 again: refused, stays on 3-1
	step("04000000000031", "L01", nil)         // 3-1
	step("DEADBEEF", "", nil)                  // L01, done
	if done, total := s.Progress(); done != 4 || total != 4 {
		t.Errorf("Progress() = %d/%d, want 4/4", done, total)
	}
	if _, err := s.Tap("DEADBEE0"); err == nil {
		t.Error("Tap after the last target = nil error")
	}
	if got := len(BoardSquares(nil)); got != 64 {
		t.Errorf("BoardSquares: %d targets, want 64", got)
	}
	if sq := BoardSquares(nil); sq[9].ID != "2-2" {
		t.Errorf("BoardSquares()[9] = %v, want 2-2 (row by row)", sq[9])
	}
}

func FuzzDecode(f *testing.F) {
	seed, err := os.ReadFile("testdata/tags.yaml")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed)
	f.Add([]byte("version: 1\ntags: []\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Decode(data, "fuzz.yaml")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.yaml") {
				t.Errorf("error %q does not name the file", err)
			}
			if !errors.Is(err, ErrFormat) || !errors.Is(err, strictyaml.ErrInvalid) {
				t.Errorf("error %q does not wrap ErrFormat and strictyaml.ErrInvalid", err)
			}
			return
		}
		again, err := Decode(m.Encode(), "again.yaml")
		if err != nil {
			t.Fatalf("a decoded map does not decode after Encode: %v\n%s", err, m.Encode())
		}
		if again.Len() != m.Len() {
			t.Errorf("round trip: %d entries, want %d", again.Len(), m.Len())
		}
	})
}

// TestShippedTagMaps decodes the tag maps shipped with the demos and the
// hardware tests.
func TestShippedTagMaps(t *testing.T) {
	files, err := filepath.Glob("../../configs/demo/*tags.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no shipped tag maps: %v", err)
	}
	files = append(files, "../testdata/tags.yaml")
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			m, err := Load(file)
			if err != nil {
				t.Fatal(err)
			}
			if m.Len() == 0 {
				t.Errorf("%s holds no tag", file)
			}
		})
	}
}
