package dashboard

import (
	"net/http/httptest"
	"testing"

	"comptoir/engine"
	"comptoir/engine/enginetest"
)

func TestHostAndOrigin(t *testing.T) {
	sess := newMemSession(t, enginetest.Rules{}, engine.Setup{Game: "tally", Players: []string{"Anna", "Bruno"}})
	opts := DefaultOpts
	opts.BaseURL, opts.AllowedOrigins, opts.Hosts = "http://table1.local:8080", []string{"http://desk.cafe:9000"}, []string{"comptoir.lan"}
	s, err := New(sess, opts)
	if err != nil {
		t.Fatal(err)
	}
	hosts := []struct {
		host string
		ok   bool
	}{
		{"192.168.1.20:8080", true}, {"[::1]:8080", true}, {"localhost:8080", true}, {"LOCALHOST", true},
		{"table1.local:8080", true}, {"desk.cafe", true}, {"comptoir.lan.", true},
		{"evil.example:8080", false}, {"table1.local.evil.example", false}, {"", false}, {"localhost.evil.example", false},
	}
	for _, tt := range hosts {
		if got := s.hostAllowed(tt.host); got != tt.ok {
			t.Errorf("hostAllowed(%q) = %v, want %v", tt.host, got, tt.ok)
		}
	}
	origins := []struct {
		host, origin string
		ok           bool
	}{
		{"192.168.1.20:8080", "http://192.168.1.20:8080", true},
		{"192.168.1.20:8080", "http://table1.local:8080", true},
		{"192.168.1.20:8080", "http://desk.cafe:9000", true},
		{"192.168.1.20:8080", "", false},
		{"192.168.1.20:8080", "null", false},
		{"192.168.1.20:8080", "http://evil.example", false},
		{"192.168.1.20:8080", "http://192.168.1.20:9999", false},
		{"evil.example:8080", "http://evil.example:8080", false}, // rebinding: same origin, foreign name
		{"192.168.1.20:8080", "file://192.168.1.20:8080", false},
	}
	for _, tt := range origins {
		r := httptest.NewRequest("POST", "/api/join", nil)
		r.Host = tt.host
		if tt.origin != "" {
			r.Header.Set("Origin", tt.origin)
		}
		if got := s.originAllowed(r); got != tt.ok {
			t.Errorf("originAllowed(Host %q, Origin %q) = %v, want %v", tt.host, tt.origin, got, tt.ok)
		}
	}
}
