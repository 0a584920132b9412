package dashboard

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"comptoir/engine"
	"comptoir/engine/enginetest"
)

// cameraRig is a Tally dashboard with a fake dice camera and a folder
// for inspection bounded by keep frames and bytes.
func cameraRig(t *testing.T, keep int, bytes int64) (*rig, *fakeCamera, string) {
	sess := newMemSession(t, enginetest.Rules{}, engine.Setup{Game: "tally", Players: []string{"Anna", "Bruno"}})
	cam := newFakeCamera()
	dir := filepath.Join(t.TempDir(), "inspect")
	opts := DefaultOpts
	opts.StaffPIN = "2468"
	opts.Dice, opts.InspectDir, opts.InspectKeep, opts.InspectBytes = cam, dir, keep, bytes
	return newRig(t, sess, opts), cam, dir
}

// call makes an HTTP request to the rig; pin and origin "" leave the
// header out.
func (r *rig) call(method, path, pin, origin string) (int, []byte) {
	r.t.Helper()
	req, _ := http.NewRequest(method, r.http.URL+path, nil)
	if pin != "" {
		req.Header.Set(StaffPINHeader, pin)
	}
	if origin != "" {
		req.Header.Set("Origin", origin)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		r.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b
}

// TestInspect checks the staff's frames sent for inspection: refused
// without the PIN, from another site, without a camera or before its
// first frame (in both languages); saved with the verdict as real files;
// bounded in number and bytes, the oldest removed first; downloaded by
// the staff only, and nothing else of the folder's neighbours.
func TestInspect(t *testing.T) {
	checkLeaks(t)
	t.Run("refusals", func(t *testing.T) {
		r, cam, dir := cameraRig(t, 0, 0)
		own := r.http.URL
		for _, tc := range []struct {
			name, pin, origin string
			code              int
			words             string
		}{
			{"no PIN", "", own, http.StatusUnauthorized, "PIN"},
			{"wrong PIN", "1111", own, http.StatusForbidden, ""},
			{"another site", "2468", "http://evil.example", http.StatusForbidden, "another site"},
			{"no frame yet", "2468", own, http.StatusConflict, "no frame yet"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				code, body := r.call("POST", "/api/inspect", tc.pin, tc.origin)
				var words struct{ EN, FR string }
				json.Unmarshal(body, &words)
				if code != tc.code || !strings.Contains(words.EN, tc.words) || words.FR == "" {
					t.Errorf("%d %s, want %d saying %q in English and French", code, body, tc.code, tc.words)
				}
			})
		}
		if files, _ := os.ReadDir(dir); len(files) != 0 {
			t.Errorf("refused inspections left %d files", len(files))
		}
		cam.mu.Lock()
		snapped := cam.snapped
		cam.mu.Unlock()
		if snapped != 1 {
			t.Errorf("the camera was asked %d times, want once (the PIN and origin are checked first)", snapped)
		}
		bare := newRig(t, newMemSession(t, enginetest.Rules{}, engine.Setup{Game: "tally", Players: []string{"Anna", "Bruno"}}), Opts{StaffPIN: "2468"})
		if code, _ := bare.call("POST", "/api/inspect", "2468", bare.http.URL); code != http.StatusNotFound {
			t.Errorf("a table without a camera: %d, want 404", code)
		}
	})
	t.Run("saved and bounded", func(t *testing.T) {
		r, cam, dir := cameraRig(t, 3, 0)
		cam.add(unreadThrow(time.Now()))
		var names []string
		for range 5 {
			code, body := r.call("POST", "/api/inspect", "2468", r.http.URL)
			var got inspection
			if err := json.Unmarshal(body, &got); code != http.StatusOK || err != nil || got.Reading == nil || got.Reading.Red.Reason != "numeral unclear" || got.Reading.Red.ReasonFR != "chiffre peu net" {
				t.Fatalf("inspect: %d %s", code, body)
			}
			names = append(names, got.Name)
			time.Sleep(2 * time.Millisecond)
		}
		files, _ := os.ReadDir(dir)
		if len(files) != 6 {
			t.Errorf("%d files, want the 3 newest frames and their verdicts", len(files))
		}
		for i, n := range names {
			_, err := os.Stat(filepath.Join(dir, n+".jpg"))
			if kept := i >= 2; kept != (err == nil) {
				t.Errorf("frame %d (%s) kept=%v, want %v", i, n, err == nil, kept)
			}
		}
		var list []inspection
		_, body := r.call("GET", "/api/inspect", "2468", "")
		json.Unmarshal(body, &list)
		if len(list) != 3 || list[0].Name != names[4] || list[0].Reading == nil {
			t.Errorf("list %s, want the 3 newest first with their verdicts", body)
		}
		want, _ := os.ReadFile(filepath.Join(dir, names[4]+".jpg"))
		for _, tc := range []struct {
			path, pin string
			code      int
		}{
			{"/download/inspect/" + names[4] + ".jpg", "2468", http.StatusOK},
			{"/download/inspect/" + names[4] + ".json", "2468", http.StatusOK},
			{"/download/inspect/" + names[4] + ".jpg", "", http.StatusUnauthorized},
			{"/download/inspect/" + names[0] + ".jpg", "2468", http.StatusNotFound},
			{"/download/inspect/..%2Ftokens.json", "2468", http.StatusNotFound},
			{"/download/inspect/x.jpg", "2468", http.StatusNotFound},
		} {
			code, b := r.call("GET", tc.path, tc.pin, "")
			if code != tc.code || (strings.HasSuffix(tc.path, ".jpg") && code == http.StatusOK && string(b) != string(want)) {
				t.Errorf("GET %s: %d (%d bytes), want %d", tc.path, code, len(b), tc.code)
			}
		}
	})
	t.Run("bytes", func(t *testing.T) {
		r, cam, dir := cameraRig(t, 50, 1)
		cam.add(unreadThrow(time.Now()))
		for range 3 {
			if code, body := r.call("POST", "/api/inspect", "2468", r.http.URL); code != http.StatusOK {
				t.Fatalf("inspect: %d %s", code, body)
			}
			time.Sleep(2 * time.Millisecond)
		}
		// One byte allowed: only the newest is kept (never none).
		if files, _ := os.ReadDir(dir); len(files) != 2 {
			t.Errorf("%d files over a 1-byte bound, want the newest frame and its verdict", len(files))
		}
	})
}

// TestCameraOnStaffFrame checks that the staff's frame carries the dice
// camera's throws, sent again as each one comes with no step of the
// game, and that the table's and the seats' frames never carry them.
func TestCameraOnStaffFrame(t *testing.T) {
	checkLeaks(t)
	r, cam, _ := cameraRig(t, 0, 0)
	staff := r.dial()
	staff.send(map[string]string{"type": "hello", "role": "staff", "pin": "2468"})
	tv := r.dial()
	for {
		f := staff.must("state")
		if f["role"] == "staff" {
			c, _ := f["camera"].(map[string]any)
			if c == nil || len(c["throws"].([]any)) != 0 {
				t.Fatalf("first staff frame's camera %v, want no throw yet", f["camera"])
			}
			break
		}
	}
	cam.add(unreadThrow(time.Now()))
	f := staff.must("state")
	throws := f["camera"].(map[string]any)["throws"].([]any)
	if len(throws) != 1 || throws[0].(map[string]any)["red"].(map[string]any)["reason"] != "numeral unclear" || throws[0].(map[string]any)["red"].(map[string]any)["reason_fr"] != "chiffre peu net" {
		t.Errorf("staff frame after a throw: %v", f["camera"])
	}
	for _, raw := range drain(tv) {
		if strings.Contains(raw, `"camera"`) {
			t.Errorf("the table's screen got the camera: %s", raw)
		}
	}
}

// drain returns what a client received so far, waiting a moment.
func drain(c *wsClient) []string {
	var out []string
	timeout := time.After(300 * time.Millisecond)
	for {
		select {
		case b := <-c.raw:
			out = append(out, string(b))
		case <-timeout:
			return out
		}
	}
}
