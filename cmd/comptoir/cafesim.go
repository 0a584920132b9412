package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime/pprof"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"

	"comptoir/cafe/cafesim"
	"comptoir/hub"
)

func init() {
	commands["cafe-sim"] = command{
		summary: "simulate a café: N tables playing random legal games against a real hub; prints step-to-floor latency, hub memory, catch-up time, lost and duplicated steps",
		run:     cafeSim,
	}
}

// simFigures are what cafe-sim measures.
type simFigures struct {
	Tables               int
	Journalled, Recorded int64
	Plays, Finished      int
	Redelivered          int64
	Latencies            []time.Duration
	HubLatencies         []time.Duration // from the hub's receiving the step to the page
	HubRSS               int64           // bytes, the largest seen; 0 with the hub in process
	HubAnon, HubFile     int64           // bytes, the anonymous and file-backed parts of that largest
	HubCommand           string
	CatchUpSteps         int
	CatchUp              time.Duration // -1: not caught up
	Paced                int64         // steps the paced tables played
	TablesCPU            time.Duration // the table processes' CPU over the play
	TablesSteps          int64         // the steps played in that time
}

func (f *simFigures) percentile(p float64) time.Duration { return percentile(f.Latencies, p) }

func percentile(lat []time.Duration, p float64) time.Duration {
	if len(lat) == 0 {
		return 0
	}
	l := append([]time.Duration(nil), lat...)
	sort.Slice(l, func(i, j int) bool { return l[i] < l[j] })
	return l[min(len(l)-1, int(float64(len(l))*p))]
}

func cafeSim(args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "--child" {
		// A child simulating its share of the tables (see --procs).
		return runChild(args[1:], os.Stdin, stdout)
	}
	fs := flag.NewFlagSet("cafe-sim", flag.ContinueOnError)
	n := fs.Int("tables", 10, "how many tables")
	rate := fs.Float64("rate", 1, "steps per second at each table")
	duration := fs.Duration("duration", 30*time.Second, "how long the tables play")
	catchup := fs.Int("catchup", 3600, "steps a table plays offline before it reconnects (0: none)")
	dir := fs.String("dir", "", "the folder for journals and the hub's state (default: a new one under /dev/shm or the temp folder, removed after)")
	inProcess := fs.Bool("hub-in-process", false, "run the hub in this process (no memory figure): for tests")
	watchURL := fs.String("watch", "", "internal: be the floor page's websocket client of the floor at this `URL` (cafe-sim starts one in its own process, apart from the simulated tables)")
	watchSecret := fs.String("watch-secret", "", "internal: the `file` of the floor's secret, with --watch")
	hubBin := fs.String("hub", "", "the hub's `program`; default: comptoir-hub beside this program if it is there (what a café runs), else this program's hub command")
	profile := fs.String("profile", "", "write CPU profiles of the hub and of the simulated tables over the middle half of the play, and the hub's heap at its end, to this `folder` (hub-cpu.pprof, sim-cpu.pprof, hub-heap.pprof, and hub-heap-mid.txt, the heap while the tables play)")
	procs := fs.Int("procs", 0, "how many `processes` simulate the tables, each with its share (re-running this program); 0: one per "+fmt.Sprint(tablesPerProc)+" tables, on at most half the cores")
	simNice := fs.Int("procs-nice", 5, "with --procs above 1, how much `nicer` than the hub the table processes run (nice(1)): the tables are other computers in a café, here they must not starve the hub; 0: as nice as the hub")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: comptoir cafe-sim [--tables N] [--rate R] [--duration D] [--catchup STEPS] [--procs P]\n\nSimulated tables (random legal games) against a real hub in its own process: prints the step-to-floor latency at a floor page's websocket, the hub's resident memory, the catch-up time of a table back after --catchup steps offline, and steps lost and duplicated.\nflags:")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args, stderr); err != nil {
		return err
	}
	if *watchURL != "" {
		return serveWatch(*watchURL, *watchSecret, os.Stdin, stdout)
	}
	if *n < 1 || *rate <= 0 {
		return errors.New("cafe-sim: --tables at least 1 and --rate above 0")
	}
	if *dir == "" {
		base := ""
		if st, err := os.Stat("/dev/shm"); err == nil && st.IsDir() {
			base = "/dev/shm"
		}
		d, err := os.MkdirTemp(base, "cafe-sim")
		if err != nil {
			return err
		}
		defer os.RemoveAll(d)
		*dir = d
	}
	if *profile != "" {
		if err := os.MkdirAll(*profile, 0o755); err != nil {
			return err
		}
	}
	if *procs == 0 {
		*procs = autoProcs(*n)
	}
	if !*inProcess {
		setSimGC()
	}
	f, err := runCafeSim(*dir, *n, *rate, *duration, *catchup, *procs, *simNice, *inProcess, *hubBin, *profile, stderr)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "tables: %d at %.3g steps/s each for %v\n", f.Tables, *rate, *duration)
	fmt.Fprintf(stdout, "step -> floor page (websocket client): p50 %v, p99 %v, max %v over %d steps\n",
		f.percentile(0.50).Round(time.Millisecond/10), f.percentile(0.99).Round(time.Millisecond/10), f.percentile(1).Round(time.Millisecond/10), len(f.Latencies))
	fmt.Fprintf(stdout, "  of which in the hub (received from NATS -> floor page): p50 %v, p99 %v\n",
		percentile(f.HubLatencies, 0.50).Round(time.Millisecond/10), percentile(f.HubLatencies, 0.99).Round(time.Millisecond/10))
	if f.HubRSS > 0 {
		fmt.Fprintf(stdout, "hub resident memory (%s, NATS server included): max %.1f MB (anonymous %.1f MB, file-backed %.1f MB)\n",
			f.HubCommand, float64(f.HubRSS)/(1<<20), float64(f.HubAnon)/(1<<20), float64(f.HubFile)/(1<<20))
	}
	switch {
	case f.CatchUp < 0:
		fmt.Fprintf(stdout, "catch-up: %d steps played offline had not reached the floor 3 minutes after the table reconnected\n", f.CatchUpSteps)
	case f.CatchUpSteps > 0:
		fmt.Fprintf(stdout, "catch-up: %d steps played offline reached the floor in %v after the table reconnected\n", f.CatchUpSteps, f.CatchUp.Round(time.Millisecond))
	}
	fmt.Fprintf(stdout, "steps played by the paced tables: %d (%.0f/s)\n", f.Paced, float64(f.Paced)/duration.Seconds())
	if f.TablesSteps > 0 {
		fmt.Fprintf(stdout, "CPU of the table processes during the play: %v per step (%v for %d steps)\n",
			(f.TablesCPU / time.Duration(f.TablesSteps)).Round(time.Microsecond), f.TablesCPU.Round(time.Millisecond), f.TablesSteps)
	}
	fmt.Fprintf(stdout, "steps and ends journalled: %d, recorded by the hub: %d, lost: %d, duplicated: 0 (history keyed on table/game/step), delivered again and dropped: %d\n",
		f.Journalled, f.Recorded, f.Journalled-f.Recorded, f.Redelivered)
	fmt.Fprintf(stdout, "plays finished: %d, in the history: %d\n", f.Finished, f.Plays)
	if f.Journalled != f.Recorded || f.Finished != f.Plays {
		return fmt.Errorf("cafe-sim: %d steps lost, %d plays missing", f.Journalled-f.Recorded, f.Finished-f.Plays)
	}
	return nil
}

// simHub is the hub under test: a child process (comptoir hub) or in
// process.
type simHub struct {
	natsURL, floorURL string
	command           string // how the hub was started
	pprofURL          string // the hub's profiles, "" when not asked
	stop              func() error
	pid               int
	stats             func() (hub.Stats, error)
}

var addrRe = regexp.MustCompile(`(NATS server on|floor on http://)\s*(\S+)`)

var pprofRe = regexp.MustCompile(`pprof on (http://\S+)`)

func startSimHub(dir string, inProcess bool, hubBin string, profile bool, stderr io.Writer) (*simHub, error) {
	state := filepath.Join(dir, "hub")
	tables := filepath.Join(dir, "tables.yaml")
	args := []string{"--state", state, "--tables", tables, "--listen", "127.0.0.1:0", "--nats-listen", "127.0.0.1:0", "--floor-secret-file", filepath.Join(dir, "floor.secret")}
	if profile {
		args = append(args, "--pprof", "127.0.0.1:0")
	}
	pr, pw := io.Pipe()
	h := &simHub{}
	done := make(chan error, 1)
	if inProcess {
		ctx, cancel := context.WithCancel(context.Background())
		go func() { done <- hub.Command(ctx, args, io.Discard, pw); pw.Close() }()
		h.stop = func() error { cancel(); return <-done }
	} else {
		exe, err := os.Executable()
		if err != nil {
			return nil, err
		}
		if hubBin == "" {
			if beside := filepath.Join(filepath.Dir(exe), "comptoir-hub"); fileExists(beside) {
				hubBin = beside
			}
		}
		cmd := exec.Command(exe, append([]string{"hub"}, args...)...)
		h.command = filepath.Base(exe) + " hub"
		if hubBin != "" {
			cmd = exec.Command(hubBin, args...)
			h.command = filepath.Base(hubBin)
		}
		cmd.Stderr = pw
		if err := cmd.Start(); err != nil {
			return nil, err
		}
		h.pid = cmd.Process.Pid
		go func() { done <- cmd.Wait(); pw.Close() }()
		h.stop = func() error {
			cmd.Process.Signal(os.Interrupt)
			select {
			case err := <-done:
				return err
			case <-time.After(10 * time.Second):
				cmd.Process.Kill()
				return errors.New("the hub did not stop within 10s")
			}
		}
	}
	logf, err := os.Create(filepath.Join(dir, "hub.log"))
	if err != nil {
		return nil, err
	}
	found := make(chan struct{})
	go func() {
		defer logf.Close()
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			fmt.Fprintln(logf, sc.Text())
			if m := pprofRe.FindStringSubmatch(sc.Text()); m != nil {
				h.pprofURL = m[1]
			}
			if m := addrRe.FindStringSubmatch(sc.Text()); m != nil {
				if strings.HasPrefix(m[1], "NATS") {
					h.natsURL = "nats://" + m[2]
				} else {
					h.floorURL = "http://" + m[2]
				}
				if h.natsURL != "" && h.floorURL != "" {
					close(found)
				}
			}
		}
	}()
	select {
	case <-found:
	case err := <-done:
		return nil, fmt.Errorf("the hub stopped: %v (see %s)", err, logf.Name())
	case <-time.After(30 * time.Second):
		h.stop()
		return nil, fmt.Errorf("the hub did not start within 30s (see %s)", logf.Name())
	}
	var client *http.Client
	h.stats = func() (hub.Stats, error) {
		var s hub.Stats
		if client == nil {
			c, err := floorClient(h.floorURL, filepath.Join(dir, "floor.secret"))
			if err != nil {
				return s, err
			}
			client = c
		}
		r, err := client.Get(h.floorURL + "/api/stats")
		if err != nil {
			return s, err
		}
		defer r.Body.Close()
		return s, json.NewDecoder(r.Body).Decode(&s)
	}
	fmt.Fprintf(stderr, "cafe-sim: hub: NATS %s, floor %s\n", h.natsURL, h.floorURL)
	return h, nil
}

// floorWatch is a websocket client of the floor page: it times every step
// from the table's journal to the page.
type floorWatch struct {
	mu   sync.Mutex
	seen map[string]bool     // table/game/seq, guarded by mu
	last map[string][2]int64 // table's last (game, seq), guarded by mu
	lat  []time.Duration     // guarded by mu
	hub  []time.Duration     // the hub's part of lat, guarded by mu
	from time.Time           // latencies of steps before are not kept
	conn *websocket.Conn
	done chan struct{}
}

// floorClient logs in to the floor with the secret kept in secretFile:
// a client with its session cookie.
func floorClient(floorURL, secretFile string) (*http.Client, error) {
	secret, _, err := hub.FloorSecret("", secretFile)
	if err != nil {
		return nil, err
	}
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, Timeout: 10 * time.Second}
	req, _ := http.NewRequest(http.MethodPost, floorURL+"/api/login", strings.NewReader(url.Values{"secret": {secret}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", floorURL)
	r, err := c.Do(req)
	if err != nil {
		return nil, err
	}
	r.Body.Close()
	if r.StatusCode != http.StatusNoContent {
		return nil, fmt.Errorf("floor login: %s", r.Status)
	}
	return c, nil
}

func watchFloor(floorURL, secretFile string) (*floorWatch, error) {
	hc, err := floorClient(floorURL, secretFile)
	if err != nil {
		return nil, err
	}
	hdr := http.Header{"Origin": {floorURL}}
	d := websocket.Dialer{Jar: hc.Jar, HandshakeTimeout: 10 * time.Second}
	c, _, err := d.Dial("ws"+strings.TrimPrefix(floorURL, "http")+"/ws", hdr)
	if err != nil {
		return nil, err
	}
	w := &floorWatch{seen: map[string]bool{}, last: map[string][2]int64{}, conn: c, done: make(chan struct{})}
	go func() {
		defer close(w.done)
		for {
			_, data, err := c.ReadMessage()
			if err != nil {
				return
			}
			now := time.Now()
			var f hub.Frame
			if json.Unmarshal(data, &f) != nil {
				continue
			}
			cards := f.Cards
			w.mu.Lock()
			for _, c := range cards {
				if c.Seq == 0 {
					continue
				}
				k := fmt.Sprintf("%s/%d/%d", c.Table, c.Game, c.Seq)
				if !w.seen[k] {
					w.seen[k] = true
					if !w.from.IsZero() && c.At.After(w.from) && f.Type == "update" && c.Table != "catch-up" {
						w.lat = append(w.lat, now.Sub(c.At))
						w.hub = append(w.hub, now.Sub(c.Received))
					}
				}
				if l := w.last[c.Table]; c.Game > l[0] || (c.Game == l[0] && c.Seq > l[1]) {
					w.last[c.Table] = [2]int64{c.Game, c.Seq}
				}
			}
			w.mu.Unlock()
		}
	}()
	return w, nil
}

func (w *floorWatch) lastOf(table string) [2]int64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.last[table]
}

func (w *floorWatch) setFrom(t time.Time) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.from = t
}

func (w *floorWatch) latencies() (all, hub []time.Duration, err error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]time.Duration(nil), w.lat...), append([]time.Duration(nil), w.hub...), nil
}

func (w *floorWatch) close() {
	w.conn.Close()
	<-w.done
}

// watcher is the floor page's client that times the steps: in this
// process (tests), or in a process of its own so that the simulated
// tables' goroutines do not hold up its reading (what the figures use:
// the counter's screen is not the tables' computer).
type watcher interface {
	setFrom(time.Time)
	lastOf(table string) [2]int64
	// latencies ends the watch's timing and returns the step-to-page
	// latencies and their part in the hub.
	latencies() (all, hub []time.Duration, err error)
	close()
}

// serveWatch is the watcher's own process (cafe-sim --watch URL): it reads
// "from UNIXNANO" and "end" on in, writes "catch-up GAME SEQ" whenever the
// catch-up table moves, and at "end" the latencies as one JSON line.
func serveWatch(floorURL, secretFile string, in io.Reader, out io.Writer) error {
	w, err := watchFloor(floorURL, secretFile)
	if err != nil {
		return err
	}
	defer w.close()
	var outMu sync.Mutex
	stop := make(chan struct{})
	go func() {
		var last [2]int64
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
			}
			if l := w.lastOf("catch-up"); l != last {
				last = l
				outMu.Lock()
				fmt.Fprintf(out, "catch-up %d %d\n", l[0], l[1])
				outMu.Unlock()
			}
		}
	}()
	defer close(stop)
	sc := bufio.NewScanner(in)
	for sc.Scan() {
		cmd, arg, _ := strings.Cut(sc.Text(), " ")
		switch cmd {
		case "from":
			var ns int64
			fmt.Sscan(arg, &ns)
			w.setFrom(time.Unix(0, ns))
		case "end":
			all, hub, _ := w.latencies()
			data, err := json.Marshal(watchFigures{all, hub})
			if err != nil {
				return err
			}
			outMu.Lock()
			fmt.Fprintf(out, "figures %s\n", data)
			outMu.Unlock()
			return nil
		}
	}
	return sc.Err()
}

type watchFigures struct {
	All, Hub []time.Duration
}

// procWatch is a watcher in its own process.
type procWatch struct {
	cmd   *exec.Cmd
	in    io.WriteCloser
	mu    sync.Mutex
	last  [2]int64 // the catch-up table's, guarded by mu
	figs  chan watchFigures
	ended chan struct{} // the process's output is read
}

func startWatch(floorURL, secretFile string) (*procWatch, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	w := &procWatch{figs: make(chan watchFigures, 1), ended: make(chan struct{})}
	w.cmd = exec.Command(exe, "cafe-sim", "--watch", floorURL, "--watch-secret", secretFile)
	w.cmd.Stderr = os.Stderr
	if w.in, err = w.cmd.StdinPipe(); err != nil {
		return nil, err
	}
	out, err := w.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := w.cmd.Start(); err != nil {
		return nil, err
	}
	go func() {
		defer close(w.ended)
		sc := bufio.NewScanner(out)
		sc.Buffer(nil, 256<<20)
		for sc.Scan() {
			cmd, arg, _ := strings.Cut(sc.Text(), " ")
			switch cmd {
			case "catch-up":
				var l [2]int64
				fmt.Sscan(arg, &l[0], &l[1])
				w.mu.Lock()
				w.last = l
				w.mu.Unlock()
			case "figures":
				var f watchFigures
				if json.Unmarshal([]byte(arg), &f) == nil {
					w.figs <- f
				}
			}
		}
	}()
	return w, nil
}

func (w *procWatch) setFrom(t time.Time) { fmt.Fprintf(w.in, "from %d\n", t.UnixNano()) }

func (w *procWatch) lastOf(table string) [2]int64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.last
}

func (w *procWatch) latencies() (all, hub []time.Duration, err error) {
	fmt.Fprintln(w.in, "end")
	select {
	case f := <-w.figs:
		return f.All, f.Hub, nil
	case <-w.ended:
		return nil, nil, errors.New("the floor watcher stopped without its figures")
	case <-time.After(30 * time.Second):
		return nil, nil, errors.New("the floor watcher gave no figures within 30s")
	}
}

func (w *procWatch) close() {
	w.in.Close()
	select {
	case <-w.ended:
	case <-time.After(5 * time.Second):
		w.cmd.Process.Kill()
	}
	w.cmd.Wait()
}

func runCafeSim(dir string, n int, rate float64, duration time.Duration, catchup, procs, simNice int, inProcess bool, hubBin, profile string, stderr io.Writer) (*simFigures, error) {
	stderr = &syncWriter{w: stderr}
	names := make([]string, n)
	var creds strings.Builder
	creds.WriteString("version: 1\ntables:\n")
	pws := map[string]string{}
	for i := range names {
		names[i] = simTableName(i)
	}
	if catchup > 0 {
		names = append(names, "catch-up")
	}
	for _, name := range names {
		pws[name] = hub.NewPassword()
		fmt.Fprintf(&creds, "  %s: %q\n", name, pws[name])
	}
	if err := os.MkdirAll(filepath.Join(dir, "hub"), 0o755); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, "tables.yaml"), []byte(creds.String()), 0o600); err != nil {
		return nil, err
	}
	h, err := startSimHub(dir, inProcess, hubBin, profile != "", stderr)
	if err != nil {
		return nil, err
	}
	hubStopped := false
	defer func() {
		if !hubStopped {
			h.stop()
		}
	}()
	var watch watcher
	if inProcess {
		watch, err = watchFloor(h.floorURL, filepath.Join(dir, "floor.secret"))
	} else {
		watch, err = startWatch(h.floorURL, filepath.Join(dir, "floor.secret"))
	}
	if err != nil {
		return nil, err
	}
	defer watch.close()

	f := &simFigures{Tables: n, HubCommand: h.command}
	var rssMax, rssAnon, rssFile atomic.Int64
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var bg sync.WaitGroup
	if h.pid != 0 {
		bg.Add(1)
		go func() {
			defer bg.Done()
			t := time.NewTicker(250 * time.Millisecond)
			defer t.Stop()
			for {
				if r, err := readRSS(h.pid); err == nil && r.Total<<10 > rssMax.Load() {
					rssMax.Store(r.Total << 10)
					rssAnon.Store(r.Anon << 10)
					rssFile.Store(r.File << 10)
				}
				select {
				case <-ctx.Done():
					return
				case <-t.C:
				}
			}
		}()
	}
	var fl fleet
	if procs > 1 {
		fl, err = startProcFleet(dir, h.natsURL, n, procs, rate, simNice, profile, stderr)
	} else {
		fl, err = openLocalFleet(dir, h.natsURL, pws, 0, n, rate)
	}
	if err != nil {
		return nil, err
	}
	defer func() {
		if fl != nil {
			fl.close()
		}
	}()
	var catchTable *cafesim.Table
	catchPub := newPublishers(1)
	if catchup > 0 {
		if catchTable, err = openSimTable(dir, h.natsURL, "catch-up", pws, n); err != nil {
			return nil, err
		}
		defer func() {
			catchPub.stopAll()
			catchTable.Close()
		}()
	}
	fmt.Fprintf(stderr, "cafe-sim: %d tables connected (%d processes); playing for %v\n", n, max(procs, 1), duration)
	time.Sleep(time.Second)
	watch.setFrom(time.Now())

	// The tables play at rate, each on its own phase.
	pctx, stopPlay := context.WithTimeout(ctx, duration)
	defer stopPlay()
	if profile != "" {
		bg.Add(1)
		go func() {
			defer bg.Done()
			if err := profileMiddle(pctx, h.pprofURL, profile, duration); err != nil {
				fmt.Fprintf(stderr, "cafe-sim: profile: %v\n", err)
			}
		}()
	}
	fl.play(duration)
	// Meanwhile the catch-up table plays offline, as fast as it can.
	var count fleetCount
	if catchup > 0 {
		var game, seq int64
		for i := 0; i < catchup; i++ {
			if game, seq, _, err = catchTable.Step(time.Now()); err != nil {
				return nil, err
			}
		}
		if count, err = fl.wait(); err != nil {
			return nil, err
		}
		start := time.Now()
		catchPub.start(0, catchTable)
		f.CatchUpSteps = catchup
		for watch.lastOf("catch-up") != [2]int64{game, seq} {
			if time.Since(start) > 3*time.Minute {
				fmt.Fprintf(stderr, "cafe-sim: the catch-up table has not caught up in 3 minutes (floor at %v, journal at %d/%d)\n", watch.lastOf("catch-up"), game, seq)
				f.CatchUp = -1
				break
			}
			time.Sleep(time.Millisecond)
		}
		if f.CatchUp == 0 {
			f.CatchUp = time.Since(start)
		}
		c, err := countJournals([]*cafesim.Table{catchTable})
		if err != nil {
			return nil, err
		}
		count.add(c)
	} else if count, err = fl.wait(); err != nil {
		return nil, err
	}
	f.Paced, f.Journalled, f.Finished = count.Paced, count.Journalled, count.Finished
	f.TablesCPU, f.TablesSteps = count.CPU, count.Played
	switch {
	case procs <= 1 && inProcess:
		f.TablesSteps = 0 // the hub's CPU is in it too: no figure
	case procs <= 1:
		// The catch-up table played offline in this process meanwhile.
		f.TablesSteps += int64(f.CatchUpSteps)
	}
	deadline := time.Now().Add(5 * time.Minute)
	for {
		st, err := h.stats()
		if err == nil && st.Recorded >= f.Journalled {
			break
		}
		if time.Now().After(deadline) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if st, err := h.stats(); err == nil {
		f.Redelivered = st.Duplicates
	}
	if profile != "" {
		if err := fetchTo(h.pprofURL+"/debug/pprof/heap", filepath.Join(profile, "hub-heap.pprof")); err != nil {
			fmt.Fprintf(stderr, "cafe-sim: profile: %v\n", err)
		}
	}
	if err := fl.close(); err != nil {
		fmt.Fprintf(stderr, "cafe-sim: %v\n", err)
	}
	fl = nil
	cancel()
	bg.Wait()
	f.HubRSS, f.HubAnon, f.HubFile = rssMax.Load(), rssAnon.Load(), rssFile.Load()
	if f.Latencies, f.HubLatencies, err = watch.latencies(); err != nil {
		return nil, err
	}
	hubStopped = true
	if err := h.stop(); err != nil {
		fmt.Fprintf(stderr, "cafe-sim: stopping the hub: %v\n", err)
	}
	hist, err := hub.OpenHistory(filepath.Join(dir, "hub", "history.db"))
	if err != nil {
		return nil, err
	}
	defer hist.Close()
	if f.Recorded, err = hist.StepCount(); err != nil {
		return nil, err
	}
	plays, err := hist.Plays(hub.Filter{})
	if err != nil {
		return nil, err
	}
	f.Plays = len(plays)
	return f, nil
}

// profileMiddle profiles the hub (through its pprof address) and this
// process over the middle half of the play.
func profileMiddle(ctx context.Context, hubPprof, dir string, duration time.Duration) error {
	select {
	case <-ctx.Done():
		return nil
	case <-time.After(duration / 4):
	}
	if hubPprof == "" {
		return errors.New("the hub gave no pprof address")
	}
	out, err := os.Create(filepath.Join(dir, "sim-cpu.pprof"))
	if err != nil {
		return err
	}
	defer out.Close()
	if err := pprof.StartCPUProfile(out); err != nil {
		return err
	}
	defer pprof.StopCPUProfile()
	secs := max(1, int((duration / 2).Seconds()))
	if err := fetchTo(fmt.Sprintf("%s/debug/pprof/profile?seconds=%d", hubPprof, secs), filepath.Join(dir, "hub-cpu.pprof")); err != nil {
		return err
	}
	// The heap while the tables play, with the runtime's memory figures.
	return fetchTo(hubPprof+"/debug/pprof/heap?debug=1", filepath.Join(dir, "hub-heap-mid.txt"))
}

// fetchTo saves what url answers in file.
func fetchTo(url, file string) error {
	r, err := http.Get(url)
	if err != nil {
		return err
	}
	defer r.Body.Close()
	if r.StatusCode != http.StatusOK {
		return fmt.Errorf("%s: %s", url, r.Status)
	}
	data, err := io.ReadAll(r.Body)
	if err != nil {
		return err
	}
	return os.WriteFile(file, data, 0o644)
}

func fileExists(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular()
}
