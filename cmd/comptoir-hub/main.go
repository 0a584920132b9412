// Command comptoir-hub is the café's hub: the floor page that shows every
// table live, the history of the plays and their statistics, fed by the
// tables over NATS JetStream.
//
// Usage:
//
//	comptoir-hub --state /var/lib/comptoir-hub --tables /etc/comptoir/tables.yaml [--listen :8090] [--nats-listen :4222]
//	comptoir-hub --state DIR --nats nats://server:4222 --nats-user hub --nats-password PW
//	comptoir-hub add-table --tables /etc/comptoir/tables.yaml NAME
//
// By default the hub runs its own NATS server (JetStream on disk under
// --state), where each table of --tables logs in with its own password and
// may publish only under its own name. add-table adds a table to the file
// with a new password and prints the cafe: section of its configuration.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"comptoir/cafe"
	"comptoir/hub"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(2)
		}
		fmt.Fprintln(os.Stderr, "comptoir-hub:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "add-table" {
		return addTable(args[1:], stdout, stderr)
	}
	fs := flag.NewFlagSet("comptoir-hub", flag.ContinueOnError)
	fs.SetOutput(stderr)
	state := fs.String("state", "/var/lib/comptoir-hub", "the hub's state `folder`: history, NATS store")
	tables := fs.String("tables", "", "the tables' credentials `file` (version: 1, tables: {name: password})")
	listen := fs.String("listen", ":8090", "the floor page's `address`")
	natsListen := fs.String("nats-listen", ":4222", "the embedded NATS server's `address`")
	natsURL := fs.String("nats", "", "an existing NATS server's `URL` instead of the embedded one")
	natsUser := fs.String("nats-user", hub.HubUser, "the hub's `user` on --nats")
	natsPassword := fs.String("nats-password", "", "the hub's `password` on --nats")
	leaf := fs.String("leaf", "", "a central cluster's leaf node `URL` this café's server joins (chains of cafés)")
	location := fs.String("location", "", "the café's `name`, in BG Stats plays")
	if err := fs.Parse(args); err != nil {
		return err
	}
	logger := log.New(stderr, "comptoir-hub: ", log.LstdFlags)
	if err := os.MkdirAll(*state, 0o755); err != nil {
		return err
	}
	creds, err := hub.LoadCredentials(*tables, *state)
	if err != nil {
		return err
	}
	url, user, pw := *natsURL, *natsUser, *natsPassword
	if url == "" {
		host, port, err := splitHostPort(*natsListen)
		if err != nil {
			return fmt.Errorf("--nats-listen %q: %w", *natsListen, err)
		}
		so := hub.ServerOpts{Dir: filepath.Join(*state, "jetstream"), Host: host, Port: port, Tables: creds.Tables, HubPassword: creds.Hub, Name: "comptoir-hub"}
		if *leaf != "" {
			so.LeafRemotes = []string{*leaf}
		}
		srv, err := hub.StartServer(so)
		if err != nil {
			return err
		}
		defer srv.WaitForShutdown()
		defer srv.Shutdown()
		url, user, pw = srv.ClientURL(), hub.HubUser, creds.Hub
		logger.Printf("NATS server on %s, %d tables known", srv.Addr(), len(creds.Tables))
	}
	hist, err := hub.OpenHistory(filepath.Join(*state, "history.db"))
	if err != nil {
		return err
	}
	defer hist.Close()
	nc, err := hub.Connect(url, user, pw, logger.Printf)
	if err != nil {
		return err
	}
	defer nc.Close()
	h, err := hub.New(hub.Opts{Conn: nc, History: hist, Logf: logger.Printf})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		return fmt.Errorf("floor page: %w", err)
	}
	srv := &http.Server{Handler: h.Handler(hub.WebOpts{Location: *location}), ReadHeaderTimeout: 10 * time.Second}
	logger.Printf("floor on http://%s", displayAddr(ln.Addr()))
	errc := make(chan error, 2)
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

func splitHostPort(addr string) (string, int, error) {
	host, p, err := net.SplitHostPort(addr)
	if err != nil {
		return "", 0, err
	}
	var port int
	if _, err := fmt.Sscanf(p, "%d", &port); err != nil {
		return "", 0, fmt.Errorf("port %q", p)
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
		return err
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
	pw := hub.NewPassword()
	data = append(data, fmt.Sprintf("  %s: %q\n", name, pw)...)
	if err := os.WriteFile(*tables, data, 0o600); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "# in table %s's configuration (restart the hub to let it in):\ncafe:\n  url: %s\n  name: %s\n  password: %q\n", name, *url, name, pw)
	return nil
}
