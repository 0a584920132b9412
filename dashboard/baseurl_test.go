package dashboard

import (
	"crypto/tls"
	"net/http/httptest"
	"testing"
)

// TestBaseURL: the QR codes' address is the configured one, else the
// scheme and host the request came with.
func TestBaseURL(t *testing.T) {
	for _, tt := range []struct {
		base string
		tls  bool
		want string
	}{
		{"", false, "http://table.local:8080"},
		{"", true, "https://table.local:8080"},
		{"https://comptoir.example", false, "https://comptoir.example"},
		{"https://comptoir.example", true, "https://comptoir.example"},
	} {
		r := httptest.NewRequest("GET", "/qr/1.png", nil)
		r.Host = "table.local:8080"
		if tt.tls {
			r.TLS = &tls.ConnectionState{}
		}
		s := &Server{opts: Opts{BaseURL: tt.base}}
		if got := s.baseURL(r); got != tt.want {
			t.Errorf("baseURL(BaseURL %q, TLS %v) = %q, want %q", tt.base, tt.tls, got, tt.want)
		}
	}
}
