package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"comptoir/hub"
	"comptoir/tableconfig"
)

// TestCafeDemoConfigs: the demo café's table configurations decode, and
// each table's credentials are the hub's.
func TestCafeDemoConfigs(t *testing.T) {
	creds, err := hub.LoadCredentials("../../configs/cafe/tables.yaml", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"genoa", "negoce", "dschunke"} {
		cfg, err := tableconfig.Load(filepath.Join("../../configs/cafe", name+".yaml"))
		if err != nil {
			t.Fatal(err)
		}
		if cfg.Cafe == nil || cfg.Game != name {
			t.Fatalf("%s: game %s, cafe %+v", name, cfg.Game, cfg.Cafe)
		}
		if pw := creds.Tables[cfg.Cafe.Name]; pw != cfg.Cafe.Password {
			t.Errorf("%s: password of %s is not the hub's", name, cfg.Cafe.Name)
		}
	}
}

// TestDaemonPublishesToHub runs the daemon on the demo recording with a
// cafe: section against a real embedded NATS server and hub: its steps
// reach the floor, and a call for staff from its /cafe/ page raises the
// floor's alert.
func TestDaemonPublishesToHub(t *testing.T) {
	dir := t.TempDir()
	pw := hub.NewPassword()
	srv, err := hub.StartServer(hub.ServerOpts{Dir: filepath.Join(dir, "js"), Host: "127.0.0.1", Port: -1, Tables: map[string]string{"table-1": "table-1-password"}, HubPassword: pw})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { srv.Shutdown(); srv.WaitForShutdown() }()
	hist, err := hub.OpenHistory(filepath.Join(dir, "history.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer hist.Close()
	nc, err := hub.Connect(srv.ClientURL(), hub.HubUser, pw, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	h, err := hub.New(hub.Opts{Conn: nc, History: hist})
	if err != nil {
		t.Fatal(err)
	}
	hctx, hcancel := context.WithCancel(context.Background())
	hdone := make(chan error, 1)
	go func() { hdone <- h.Run(hctx) }()
	defer func() { hcancel(); <-hdone }()

	repo, _ := filepath.Abs("../..")
	cfg := filepath.Join(dir, "t.yaml")
	os.WriteFile(cfg, []byte(fmt.Sprintf("version: 1\ngame: genoa\nvariant: alea-2001\nplayers: [Anna, Bruno, Chloé]\njournal: t.db\ntags: %s/configs/demo/tags.yaml\nreplay:\n  inputs: %s/configs/demo/genoa-inputs.jsonl\n  speed: 20\n  loop: true\n  pause: 10ms\ncafe:\n  url: %s\n  name: table-1\n  password: table-1-password\n",
		repo, repo, srv.ClientURL())), 0o644)
	addr := freeAddr(t)
	ctx, cancel := context.WithCancel(context.Background())
	var stderr syncBuf
	done := make(chan error, 1)
	go func() { done <- run(ctx, []string{"--config", cfg, "--listen", addr}, io.Discard, &stderr) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("run = %v", err)
		}
	}()
	waitFor := func(what string, ok func() bool) {
		t.Helper()
		deadline := time.Now().Add(15 * time.Second)
		for !ok() {
			if time.Now().After(deadline) {
				t.Fatalf("never: %s\n%s", what, stderr.String())
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	waitFor("the table's steps on the floor", func() bool {
		c, ok := h.Floor.Detail("table-1")
		return ok && c.Seq > 3 && c.Name == "genoa"
	})
	waitFor("the call-staff page", func() bool {
		r, err := http.Post("http://"+addr+"/cafe/call", "", nil)
		if err != nil {
			return false
		}
		r.Body.Close()
		return r.StatusCode == http.StatusNoContent
	})
	waitFor("the staff alert", func() bool {
		h.Floor.Tick(time.Now())
		for _, a := range h.Floor.Snapshot().Alerts {
			if a.Table == "table-1" && a.Kind == hub.AlertStaff {
				return true
			}
		}
		return false
	})
}
