package hub

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/pprof"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"

	"comptoir/cafe"
)

// ErrUsage is wrapped by Command's error when its arguments are wrong or
// ask for help (the flag package has printed the usage): exit status 2,
// or 0 for -h.
var ErrUsage = errors.New("usage")

// usageErr wraps a flag parsing error in ErrUsage.
func usageErr(err error) error { return fmt.Errorf("%w: %w", ErrUsage, err) }

// Command runs the hub's command line (comptoir-hub, or comptoir hub)
// until ctx ends: args are the arguments after the command's name.
func Command(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "add-table" {
		return addTable(args[1:], stdout, stderr)
	}
	fs := flag.NewFlagSet("hub", flag.ContinueOnError)
	fs.SetOutput(stderr)
	state := fs.String("state", "/var/lib/comptoir-hub", "the hub's state `folder`: history, NATS store")
	tables := fs.String("tables", "", "the tables' credentials `file` (version: 1, tables: {name: password})")
	listen := fs.String("listen", ":8090", "the floor page's `address`")
	natsListen := fs.String("nats-listen", ":4222", "the embedded NATS server's `address`")
	natsURL := fs.String("nats", "", "an existing NATS server's `URL` instead of the embedded one")
	natsUser := fs.String("nats-user", HubUser, "the hub's `user` on --nats")
	natsPassword := fs.String("nats-password", "", "the hub's `password` on --nats")
	leaf := fs.String("leaf", "", "a central cluster's leaf node `URL` this café's server joins (chains of cafés)")
	location := fs.String("location", "", "the café's `name`, in BG Stats plays")
	name := fs.String("name", "cafe", "the café's NATS server `name`, and its JetStream domain in a chain of cafés (unique in the chain)")
	pprofAddr := fs.String("pprof", "", "serve Go's profiles (net/http/pprof) on this `address`, for example 127.0.0.1:6060; empty: none")
	floorPIN := fs.String("floor-pin", "", "the floor page's `secret` (PIN); empty: the one in --floor-secret-file, made at first start")
	floorFile := fs.String("floor-secret-file", "", "the `file` keeping the floor page's secret (default STATE/floor.secret)")
	ackWait := fs.Duration("ack-wait", DefaultOpts.AckWait, "how long a step delivered to a hub that died waits before it is delivered again")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: comptoir-hub [flags]     (or comptoir hub [flags])\n       comptoir-hub add-table [--tables FILE] [--url URL] NAME\n\nRuns the café's hub: the floor page of every table, the history and the statistics, over NATS JetStream.\nflags:")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return usageErr(err)
	}
	logger := log.New(stderr, "comptoir-hub: ", log.LstdFlags)
	if os.Getenv("GOMEMLIMIT") == "" {
		// A soft limit: the collector works harder before the hub
		// outgrows a Pi's share.
		debug.SetMemoryLimit(MemoryLimit)
	}
	if os.Getenv("GOGC") == "" {
		// The hub has CPU to spare and a Pi's memory to keep to: the
		// heap may grow by half its live size between collections, not
		// double.
		debug.SetGCPercent(GCPercent)
	}
	if err := os.MkdirAll(*state, 0o755); err != nil {
		return err
	}
	creds, err := LoadCredentials(*tables, *state)
	if err != nil {
		return err
	}
	if *floorFile == "" {
		*floorFile = filepath.Join(*state, "floor.secret")
	}
	secret, made, err := FloorSecret(*floorPIN, *floorFile)
	if err != nil {
		return err
	}
	switch {
	case *floorPIN != "" && len(*floorPIN) < 6:
		logger.Printf("warning: the floor's PIN is short (%d characters): anyone on the café's network may try it; 8 or more, please", len(*floorPIN))
	case made:
		logger.Printf("the floor's secret, made now and kept in %s (told once): %s", *floorFile, secret)
	case *floorPIN == "":
		logger.Printf("the floor's secret is in %s", *floorFile)
	}
	url, user, pw := *natsURL, *natsUser, *natsPassword
	if url == "" {
		host, port, err := splitHostPort(*natsListen)
		if err != nil {
			return fmt.Errorf("--nats-listen %q: %w", *natsListen, err)
		}
		so := ServerOpts{Dir: filepath.Join(*state, "jetstream"), Host: host, Port: port, Tables: creds.Tables, HubPassword: creds.Hub}
		so.Name = *name
		if *leaf != "" {
			so.LeafRemotes, so.Domain = []string{*leaf}, *name
		}
		srv, err := StartServer(so)
		if err != nil {
			return err
		}
		defer srv.WaitForShutdown()
		defer srv.Shutdown()
		url, user, pw = srv.ClientURL(), HubUser, creds.Hub
		logger.Printf("NATS server on %s (%d tables known)", srv.Addr(), len(creds.Tables))
	}
	hist, err := OpenHistory(filepath.Join(*state, "history.db"))
	if err != nil {
		return err
	}
	defer hist.Close()
	nc, err := Connect(url, user, pw, logger.Printf)
	if err != nil {
		return err
	}
	defer nc.Close()
	h, err := New(Opts{Conn: nc, History: hist, AckWait: *ackWait, Logf: logger.Printf})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		return fmt.Errorf("floor page: %w", err)
	}
	srv := &http.Server{Handler: h.Handler(WebOpts{Location: *location, Secret: secret}), ReadHeaderTimeout: 10 * time.Second}
	logger.Printf("floor on http://%s", displayAddr(ln.Addr()))
	errc := make(chan error, 3)
	if *pprofAddr != "" {
		pln, err := net.Listen("tcp", *pprofAddr)
		if err != nil {
			return fmt.Errorf("--pprof: %w", err)
		}
		psrv := &http.Server{Handler: pprofHandler(), ReadHeaderTimeout: 10 * time.Second}
		defer psrv.Close()
		logger.Printf("pprof on http://%s", pln.Addr())
		go func() {
			if err := psrv.Serve(pln); !errors.Is(err, http.ErrServerClosed) {
				errc <- err
			}
		}()
	}
	hctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() { errc <- h.Run(hctx) }()
	go func() {
		if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
			errc <- err
		}
	}()
	var failure error
	select {
	case <-ctx.Done():
	case failure = <-errc:
	}
	shut, cancelShut := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancelShut()
	srv.Shutdown(shut)
	cancel()
	return failure
}

// pprofHandler serves net/http/pprof's profiles under /debug/pprof/.
func pprofHandler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	return mux
}

// GCPercent is the hub's GOGC (the GOGC variable overrides it).
const GCPercent = 50

// MemoryLimit is the hub's soft memory limit (GOMEMLIMIT overrides it).
const MemoryLimit = 160 << 20

func splitHostPort(addr string) (string, int, error) {
	host, p, err := net.SplitHostPort(addr)
	if err != nil {
		return "", 0, err
	}
	var port int
	if _, err := fmt.Sscanf(p, "%d", &port); err != nil {
		return "", 0, fmt.Errorf("port %q", p)
	}
	if port == 0 {
		port = -1 // the NATS server's "any free port"
	}
	return host, port, nil
}

func displayAddr(a net.Addr) string {
	t, ok := a.(*net.TCPAddr)
	if !ok || !t.IP.IsUnspecified() {
		return a.String()
	}
	return fmt.Sprintf("localhost:%d", t.Port)
}

// addTable adds a table with a new password to the credentials file.
func addTable(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("comptoir-hub add-table", flag.ContinueOnError)
	fs.SetOutput(stderr)
	tables := fs.String("tables", "tables.yaml", "the tables' credentials `file`")
	url := fs.String("url", "nats://HUB-ADDRESS:4222", "the hub's NATS `URL` as the tables reach it")
	if err := fs.Parse(args); err != nil {
		return usageErr(err)
	}
	if fs.NArg() != 1 {
		return errors.New("usage: comptoir-hub add-table [--tables FILE] NAME")
	}
	name := fs.Arg(0)
	if err := cafe.CheckName(name); err != nil {
		return err
	}
	data, err := os.ReadFile(*tables)
	if errors.Is(err, os.ErrNotExist) {
		data = []byte("version: 1\ntables:\n")
	} else if err != nil {
		return err
	}
	if strings.Contains(string(data), "\n  "+name+":") {
		return fmt.Errorf("%s: table %s is there already", *tables, name)
	}
	pw := NewPassword()
	data = append(data, fmt.Sprintf("  %s: %q\n", name, pw)...)
	if err := os.WriteFile(*tables, data, 0o600); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "# in table %s's configuration (restart the hub to let it in):\ncafe:\n  url: %s\n  name: %s\n  password: %q\n", name, *url, name, pw)
	return nil
}
