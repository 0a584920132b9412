package dashboard

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"comptoir/engine"
	"comptoir/engine/enginetest"
)

// post sends body to the rig; pin and origin "" leave the header out.
func (r *rig) post(path, pin, origin, body string) (int, []byte) {
	r.t.Helper()
	req, _ := http.NewRequest("POST", r.http.URL+path, bytes.NewBufferString(body))
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

// TestCalibrate checks POST /api/calibrate: refused without the PIN, from
// another site, with bad faces or actions, before the camera's first
// frame and without a camera, in both languages and without asking the
// camera; then learns throws (a die the reader sees otherwise refused
// with the state), refuses to save too early, saves, and the staff frame
// carries the calibration.
func TestCalibrate(t *testing.T) {
	checkLeaks(t)
	r, cam, _ := cameraRig(t, 0, 0)
	own := r.http.URL
	learn := `{"action":"learn","blue":5,"red":3}`
	t.Run("refusals", func(t *testing.T) {
		for _, tc := range []struct {
			name, pin, origin, body string
			code                    int
			words                   string
		}{
			{"no PIN", "", own, learn, http.StatusUnauthorized, "PIN"},
			{"wrong PIN", "1111", own, learn, http.StatusForbidden, ""},
			{"another site", "2468", "http://evil.example", learn, http.StatusForbidden, "another site"},
			{"no Origin", "2468", "", learn, http.StatusForbidden, "no Origin"},
			{"blue 0", "2468", own, `{"action":"learn","blue":0,"red":3}`, http.StatusBadRequest, "1 to 8"},
			{"red 9", "2468", own, `{"action":"learn","blue":5,"red":9}`, http.StatusBadRequest, "1 to 8"},
			{"faces left out", "2468", own, `{"action":"learn"}`, http.StatusBadRequest, "1 to 8"},
			{"not JSON", "2468", own, `learn 5 3`, http.StatusBadRequest, "action"},
			{"unknown action", "2468", own, `{"action":"forget"}`, http.StatusBadRequest, "learn"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				code, body := r.post("/api/calibrate", tc.pin, tc.origin, tc.body)
				var words struct{ EN, FR string }
				json.Unmarshal(body, &words)
				if code != tc.code || !strings.Contains(words.EN, tc.words) || words.FR == "" {
					t.Errorf("%d %s, want %d saying %q in English and French", code, body, tc.code, tc.words)
				}
			})
		}
		cam.mu.Lock()
		asked := cam.calibrate
		cam.mu.Unlock()
		if asked != 0 {
			t.Errorf("the camera was asked %d times by refused requests", asked)
		}
		t.Run("no frame yet", func(t *testing.T) {
			code, body := r.post("/api/calibrate", "2468", own, learn)
			var words struct{ EN, FR string }
			json.Unmarshal(body, &words)
			if code != http.StatusConflict || !strings.Contains(words.EN, "no frame yet") || words.FR == "" {
				t.Errorf("%d %s, want 409 no frame yet", code, body)
			}
		})
		t.Run("no camera", func(t *testing.T) {
			bare := newRig(t, newMemSession(t, enginetest.Rules{}, engine.Setup{Game: "tally", Players: []string{"Anna", "Bruno"}}), Opts{StaffPIN: "2468"})
			code, body := bare.post("/api/calibrate", "2468", bare.http.URL, learn)
			var words struct{ EN, FR string }
			json.Unmarshal(body, &words)
			if code != http.StatusNotFound || !strings.Contains(words.EN, "no dice camera") || words.FR == "" {
				t.Errorf("%d %s, want 404 no dice camera", code, body)
			}
		})
	})
	t.Run("learn and save", func(t *testing.T) {
		throw := unreadThrow(time.Now())
		throw.Red.Face, throw.Red.Confidence = 3, 0.9
		cam.add(throw) // blue 5, red 3
		code, body := r.post("/api/calibrate", "2468", own, `{"action":"save"}`)
		var refused struct {
			EN, FR      string
			Calibration DiceCalibration
		}
		json.Unmarshal(body, &refused)
		if code != http.StatusUnprocessableEntity || !strings.Contains(refused.EN, "4 more") || refused.FR == "" {
			t.Errorf("save before any throw: %d %s, want 422 saying how many more", code, body)
		}
		code, body = r.post("/api/calibrate", "2468", own, learn)
		var got DiceCalibration
		if err := json.Unmarshal(body, &got); code != http.StatusOK || err != nil || !slices.Equal(got.Blue, []int{5}) || !slices.Equal(got.Red, []int{3}) || got.Need != 2 {
			t.Fatalf("learn 5 3: %d %s", code, body)
		}
		code, body = r.post("/api/calibrate", "2468", own, `{"action":"learn","blue":6,"red":3}`)
		refused.Calibration = DiceCalibration{}
		json.Unmarshal(body, &refused)
		if code != http.StatusUnprocessableEntity || !strings.Contains(refused.EN, "blue die, face 6") || refused.FR == "" ||
			refused.Calibration.Dice != 3 || !slices.Equal(refused.Calibration.Learned, []string{"red"}) {
			t.Errorf("learn a mistyped blue: %d %s, want 422 with the red learned", code, body)
		}
		code, body = r.post("/api/calibrate", "2468", own, learn)
		if code != http.StatusOK {
			t.Fatalf("learn again: %d %s", code, body)
		}
		code, body = r.post("/api/calibrate", "2468", own, `{"action":"save"}`)
		got = DiceCalibration{}
		if err := json.Unmarshal(body, &got); code != http.StatusOK || err != nil || !got.Saved || !slices.Equal(got.Faces, []int{3, 5}) {
			t.Errorf("save: %d %s, want saved with faces 3 and 5", code, body)
		}
		if c := r.srv.camera(); c == nil || c.Calibration == nil || !c.Calibration.Saved || c.Calibration.Dice != 5 {
			t.Errorf("the staff frame's camera %+v, want the calibration saved", c)
		}
	})
	t.Run("start again", func(t *testing.T) {
		cam.mu.Lock()
		asked := cam.calibrate
		cam.mu.Unlock()
		for _, tc := range []struct{ pin, origin string }{{"", own}, {"2468", "http://evil.example"}} {
			if code, _ := r.post("/api/calibrate", tc.pin, tc.origin, `{"action":"reset"}`); code == http.StatusOK {
				t.Errorf("reset with PIN %q from %s: %d, want refused", tc.pin, tc.origin, code)
			}
		}
		cam.mu.Lock()
		if cam.calibrate != asked {
			t.Errorf("refused resets asked the camera")
		}
		cam.mu.Unlock()
		code, body := r.post("/api/calibrate", "2468", own, `{"action":"reset"}`)
		var got DiceCalibration
		if err := json.Unmarshal(body, &got); code != http.StatusOK || err != nil || got.Dice != 0 || got.Need != 4 || got.Saved || len(got.Earlier) != 0 {
			t.Errorf("reset: %d %s, want nothing learned", code, body)
		}
		if c := r.srv.camera(); c == nil || c.Calibration == nil || c.Calibration.Dice != 0 {
			t.Errorf("the staff frame's camera %+v after the reset, want nothing learned", c)
		}
	})
	t.Run("the camera moved", func(t *testing.T) {
		for _, tc := range []struct{ pin, origin string }{{"", own}, {"2468", "http://evil.example"}} {
			if code, _ := r.post("/api/calibrate", tc.pin, tc.origin, `{"action":"forget-camera"}`); code == http.StatusOK {
				t.Errorf("forget-camera with PIN %q from %s: %d, want refused", tc.pin, tc.origin, code)
			}
		}
		cam.mu.Lock()
		if cam.forgot != 0 {
			t.Errorf("refused requests made the camera forget")
		}
		cam.mu.Unlock()
		if code, body := r.post("/api/calibrate", "2468", own, `{"action":"forget-camera"}`); code != http.StatusOK {
			t.Fatalf("forget-camera: %d %s", code, body)
		}
		cam.mu.Lock()
		if cam.forgot != 1 {
			t.Errorf("the camera was asked to forget %d times, want once", cam.forgot)
		}
		cam.mu.Unlock()
		c := r.srv.camera()
		if c == nil || len(c.Throws) == 0 || c.Throws[len(c.Throws)-1].View == nil || c.Throws[len(c.Throws)-1].View.FlatNeed != 12 {
			t.Errorf("the staff frame's camera %+v after forget-camera, want the last throw's view knowing nothing of the camera", c)
		}
	})
}
