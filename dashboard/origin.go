package dashboard

import (
	"net"
	"net/http"
	"net/url"
	"strings"
)

// The origin of every request. DNS rebinding makes a page of another site
// talk to the table under that site's name: the Host header then names
// the attacker's domain, so a Host must be an address (an IP literal, not
// a name anyone can point anywhere), localhost, or a name the table was
// configured with (base URL, allowed origins, Opts.Hosts). A browser's
// websocket or state-changing request (any method but GET and HEAD) must
// carry an Origin that is the dashboard's own or an allowed one: without
// it, a page elsewhere could drive the table (cross-site request forgery).

// hostAllowed reports whether host (a Host header: name[:port]) is the
// table's.
func (s *Server) hostAllowed(host string) bool {
	name := host
	if h, _, err := net.SplitHostPort(host); err == nil {
		name = h
	}
	name = strings.TrimSuffix(strings.Trim(name, "[]"), ".")
	if name == "" {
		return false
	}
	if net.ParseIP(name) != nil || strings.EqualFold(name, "localhost") {
		return true
	}
	for _, h := range s.hosts {
		if strings.EqualFold(name, h) {
			return true
		}
	}
	return false
}

// configuredHosts are the host names of the base URL, the allowed origins
// and the extra names.
func configuredHosts(opts Opts) []string {
	var out []string
	add := func(raw string) {
		if u, err := url.Parse(raw); err == nil && u.Hostname() != "" {
			out = append(out, u.Hostname())
		}
	}
	if opts.BaseURL != "" {
		add(opts.BaseURL)
	}
	for _, o := range opts.AllowedOrigins {
		add(o)
	}
	for _, h := range opts.Hosts {
		out = append(out, strings.TrimSuffix(h, "."))
	}
	return out
}

// originAllowed reports whether the request's Origin is the dashboard's
// own (same host as the request's), the base URL's, or an allowed one. A
// missing Origin is not allowed: this is for websockets and
// state-changing requests, which every browser sends it with.
func (s *Server) originAllowed(r *http.Request) bool {
	origin := r.Header.Get("Origin")
	if origin == "" || origin == "null" {
		return false
	}
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return false
	}
	if strings.EqualFold(u.Host, r.Host) && s.hostAllowed(u.Host) {
		return true
	}
	if s.opts.BaseURL != "" && strings.EqualFold(origin, s.opts.BaseURL) {
		return true
	}
	for _, o := range s.opts.AllowedOrigins {
		if strings.EqualFold(strings.TrimRight(o, "/"), origin) {
			return true
		}
	}
	return false
}

// guardOrigin wraps the routes: a foreign Host is refused (421), a
// websocket or state-changing request without a matching Origin too
// (403), as is a request a browser marks as cross-site.
func (s *Server) guardOrigin(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.hostAllowed(r.Host) {
			httpError(w, http.StatusMisdirectedRequest, "this table answers to its own address only", "cette table ne répond qu'à sa propre adresse")
			return
		}
		changes := r.Method != http.MethodGet && r.Method != http.MethodHead
		upgrade := strings.EqualFold(r.Header.Get("Upgrade"), "websocket")
		if (changes || upgrade) && !s.originAllowed(r) {
			httpError(w, http.StatusForbidden, "request from another site, or with no Origin: refused", "requête d'un autre site, ou sans origine : refusée")
			return
		}
		if r.Header.Get("Sec-Fetch-Site") == "cross-site" && (changes || upgrade || strings.HasPrefix(r.URL.Path, "/download/") || strings.HasPrefix(r.URL.Path, "/qr/")) {
			httpError(w, http.StatusForbidden, "request from another site: refused", "requête d'un autre site : refusée")
			return
		}
		next.ServeHTTP(w, r)
	})
}

// noListing answers 404 for a directory (a path ending in /) instead of
// listing its files.
func noListing(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "" || strings.HasSuffix(r.URL.Path, "/") {
			http.NotFound(w, r)
			return
		}
		next.ServeHTTP(w, r)
	})
}
