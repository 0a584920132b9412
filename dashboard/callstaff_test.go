package dashboard

import (
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"comptoir/engine"
	"comptoir/engine/enginetest"
)

// fakeCaller is a café's call for staff; the test answers it.
type fakeCaller struct {
	mu                 sync.Mutex
	called, answered   time.Time
	raised, closedCall int // guarded by mu
}

func (f *fakeCaller) CallStaff(on bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if on {
		if f.called.IsZero() {
			f.called = time.Now()
			f.answered = time.Time{}
		}
		f.raised++
	} else {
		f.called, f.answered = time.Time{}, time.Time{}
		f.closedCall++
	}
}

func (f *fakeCaller) StaffCall() (time.Time, time.Time) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.called, f.answered
}

func (f *fakeCaller) raisedCount() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.raised
}

func (f *fakeCaller) answer() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.answered = time.Now()
}

func callStaffRig(t *testing.T, caller StaffCaller, screens []string) *rig {
	t.Helper()
	sess := newMemSession(t, enginetest.Rules{}, engine.Setup{Game: "tally", Players: []string{"Anna", "Bruno"}})
	opts := DefaultOpts
	opts.StaffPIN = "2468"
	opts.CallStaff = caller
	opts.ScreenAddrs = screens
	return newRig(t, sess, opts)
}

// callStaff makes a request to /api/call-staff: origin "" sends none.
func (r *rig) callStaff(method, origin, token, body string) (int, callStaffState, map[string]string) {
	r.t.Helper()
	req, _ := http.NewRequest(method, r.http.URL+"/api/call-staff", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if origin != "" {
		req.Header.Set("Origin", origin)
	}
	if token != "" {
		req.Header.Set(SeatTokenHeader, token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		r.t.Fatal(err)
	}
	defer resp.Body.Close()
	var raw json.RawMessage
	json.NewDecoder(resp.Body).Decode(&raw)
	var st callStaffState
	var words map[string]string
	json.Unmarshal(raw, &st)
	json.Unmarshal(raw, &words)
	return resp.StatusCode, st, words
}

// TestCallStaffAPI: a seated phone raises the call (Origin-checked, its
// seat token required; a stranger is refused in both languages), the
// floor's answer is read back, the calls are rate-limited, and a table
// not in a café has no call.
func TestCallStaffAPI(t *testing.T) {
	caller := &fakeCaller{}
	// The loopback test client is not the table's screen here.
	r := callStaffRig(t, caller, []string{"192.0.2.7"})
	own := r.http.URL
	token := r.join(1)
	for _, c := range []struct {
		name, origin, token string
		want                int
	}{
		{"no Origin", "", token, http.StatusForbidden},
		{"another site", "http://evil.example", token, http.StatusForbidden},
		{"no seat token, not the screen", own, "", http.StatusForbidden},
		{"a made-up token", own, strings.Repeat("ab", 32), http.StatusForbidden},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, _, words := r.callStaff("POST", c.origin, c.token, `{"on":true}`)
			if code != c.want || words["en"] == "" || words["fr"] == "" {
				t.Errorf("POST from %s = %d %v, want %d with words in French and English", c.name, code, words, c.want)
			}
		})
	}
	if n := caller.raisedCount(); n != 0 {
		t.Fatalf("refused requests raised the call %d times", n)
	}
	if code, _, _ := r.callStaff("POST", own, token, `{"on":"yes"}`); code != http.StatusBadRequest {
		t.Errorf("a malformed body = %d, want 400", code)
	}
	code, st, _ := r.callStaff("POST", own, token, `{"on":true}`)
	if code != http.StatusOK || !st.Called || st.Answered || caller.raisedCount() != 1 {
		t.Fatalf("seat 1 calls = %d %+v (raised %d), want 200, called, not answered", code, st, caller.raisedCount())
	}
	caller.answer()
	if code, st, _ := r.callStaff("GET", "", "", ""); code != http.StatusOK || !st.Called || !st.Answered || st.At.IsZero() {
		t.Fatalf("GET after the floor's answer = %d %+v, want called and answered", code, st)
	}
	if code, st, _ := r.callStaff("POST", own, token, `{"on":false}`); code != http.StatusOK || st.Called || st.Answered {
		t.Fatalf("closing the call = %d %+v, want nothing open", code, st)
	}
	// callStaffBurst calls at once, then one every callStaffEvery: the
	// burst less the two just made, then a refusal.
	for i := 0; i < callStaffBurst-2; i++ {
		if code, _, _ := r.callStaff("POST", own, token, `{"on":true}`); code != http.StatusOK {
			t.Fatalf("call %d of the burst = %d, want 200", i+3, code)
		}
	}
	code, _, words := r.callStaff("POST", own, token, `{"on":true}`)
	if code != http.StatusTooManyRequests || words["fr"] == "" {
		t.Fatalf("a call past the burst = %d %v, want 429 in words", code, words)
	}

	t.Run("the table's screen", func(t *testing.T) {
		caller := &fakeCaller{}
		r := callStaffRig(t, caller, nil) // loopback is the screen
		if code, st, _ := r.callStaff("POST", r.http.URL, "", `{"on":true}`); code != http.StatusOK || !st.Called {
			t.Fatalf("the screen calls = %d %+v, want 200 and called", code, st)
		}
	})
	t.Run("not in a café", func(t *testing.T) {
		r := callStaffRig(t, nil, nil)
		for _, m := range []string{"GET", "POST"} {
			if code, _, _ := r.callStaff(m, r.http.URL, "", `{"on":true}`); code != http.StatusNotFound {
				t.Errorf("%s without a café = %d, want 404", m, code)
			}
		}
	})
}
