// Package killtest is the table daemon's kill test: two phones play a
// game on the daemon's websocket while the daemon is killed with SIGKILL
// at random moments (during play, and at times while it starts), then
// started again on the same journal. After every kill it reads the journal
// and counts the acknowledged steps (answered "accepted" to a phone) that
// are lost, changed or duplicated, checks the state the phone showed
// before the kill against the journal, and, after the restart, the state
// the daemon shows against the journal and against the state shown before
// the kill.
//
// `comptoir killtest --kills 1000` runs it in full and prints the figures;
// the daemon's tests run a few kills.
package killtest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/gorilla/websocket"

	"comptoir/engine"
	"comptoir/games/tally"
	"comptoir/journal"
)

// Opts configure a kill test.
type Opts struct {
	// Daemon is the comptoird command: the program and its first
	// arguments; --config and --listen are added. Required.
	Daemon []string
	// Env is added to the daemon's environment.
	Env []string
	// Dir is the folder of the table's configuration and journal.
	// Required.
	Dir string
	// Kills is how many times the daemon is killed.
	Kills int
	// Seed seeds the random moments and commands.
	Seed int64
	// MaxPlay is the longest play before a kill; each kill comes after a
	// random time up to it (0: 300 ms).
	MaxPlay time.Duration
	// StartupKills is the share of kills made while the daemon starts,
	// before it answers (0: none; the command uses 0.1).
	StartupKills float64
	// Logf reports progress; nil: nothing.
	Logf func(format string, args ...any)
}

// Figures are what a kill test measured.
type Figures struct {
	Kills        int
	StartupKills int // kills while the daemon started
	// Acked is the number of steps acknowledged to a phone, all in all.
	Acked int
	// Lost, Changed and Duplicated count acknowledged steps missing from
	// the journal after a kill, different in it, or written more than
	// once (a step in the journal beyond the acknowledged ones other than
	// the one command in flight at the kill).
	Lost, Changed, Duplicated int
	// InFlight counts the commands in flight at a kill (sent, not yet
	// answered) that the journal holds: committed before the kill, the
	// answer lost with the daemon. Allowed: the phone was never told.
	InFlight int
	// Resumed counts the restarts whose dashboard answered at the
	// journal's last step.
	Resumed int
	// ShownChecked counts the kills where a phone had shown a state;
	// ShownWrong those where that state is not the journal's at its step.
	ShownChecked, ShownWrong int
	// AfterChecked counts the restarts whose shown state was compared
	// with the journal; AfterWrong those that differ. AfterSame counts
	// those where it is exactly the state shown before the kill (the
	// others differ by steps after the last frame shown, each checked
	// against the journal).
	AfterChecked, AfterWrong, AfterSame int
	Elapsed                             time.Duration
}

func (f Figures) String() string {
	return fmt.Sprintf(`kills: %d (%d while the daemon started), in %v
acknowledged steps: %d; lost %d, changed %d, duplicated %d
commands in flight at a kill found in the journal (never acknowledged, allowed): %d
starts resumed at the journal's last step: %d of %d (the others killed while starting)
state shown before the kill = the journal's state at that step: %d of %d (wrong: %d)
state shown after the restart = the journal's state: %d of %d (wrong: %d); exactly the state shown before the kill: %d`,
		f.Kills, f.StartupKills, f.Elapsed.Round(time.Second),
		f.Acked, f.Lost, f.Changed, f.Duplicated,
		f.InFlight,
		f.Resumed, f.Kills-f.StartupKills,
		f.ShownChecked-f.ShownWrong, f.ShownChecked, f.ShownWrong,
		f.AfterChecked-f.AfterWrong, f.AfterChecked, f.AfterWrong, f.AfterSame)
}

// OK reports whether nothing acknowledged was lost, changed or
// duplicated and every state checked was right.
func (f Figures) OK() bool {
	return f.Lost == 0 && f.Changed == 0 && f.Duplicated == 0 && f.ShownWrong == 0 && f.AfterWrong == 0 && f.Resumed == f.Kills-f.StartupKills
}

// step is one step as the phones and the journal tell it.
type step struct {
	By      engine.Seat
	Command string
}

// shown is a seat's state as its phone last showed it.
type shown struct {
	seq  int64
	view string // normalised JSON
}

// Run runs the kill test.
func Run(ctx context.Context, opts Opts) (Figures, error) {
	var f Figures
	if len(opts.Daemon) == 0 || opts.Dir == "" {
		return f, errors.New("killtest: Opts.Daemon and Opts.Dir are required")
	}
	if opts.MaxPlay <= 0 {
		opts.MaxPlay = 300 * time.Millisecond
	}
	logf := opts.Logf
	if logf == nil {
		logf = func(string, ...any) {}
	}
	rules := tally.Game().Rules()
	path := filepath.Join(opts.Dir, "kill.db")
	cfg := filepath.Join(opts.Dir, "table.yaml")
	setup := engine.Setup{Game: "tally", Players: []string{"Anna", "Bruno"}, Options: map[string]string{"pile": "100000000"}}
	body := fmt.Sprintf("version: 1\ngame: tally\nplayers: [Anna, Bruno]\noptions:\n  pile: %q\njournal: %s\ntokens: %s\nstaff_pin: \"1234\"\n", setup.Options["pile"], path, filepath.Join(opts.Dir, "tokens.json"))
	if err := os.WriteFile(cfg, []byte(body), 0o644); err != nil {
		return f, err
	}
	addr, err := freeAddr()
	if err != nil {
		return f, err
	}
	rng := rand.New(rand.NewSource(opts.Seed))
	start := time.Now()
	var acked []step     // every acknowledged step, in order: the journal's steps once checked
	var before *shown    // the state seat 0's phone showed before the last kill
	var journalLen int   // the journal's steps after the last kill
	var tokens [2]string // the phones' seat tokens, kept across restarts
	var want string      // seat 0's view of the journal after the last kill
	for k := 0; k < opts.Kills; k++ {
		if err := ctx.Err(); err != nil {
			return f, err
		}
		d, err := startDaemon(opts, cfg, addr)
		if err != nil {
			return f, err
		}
		startup := rng.Float64() < opts.StartupKills
		var play *player
		if startup {
			time.Sleep(time.Duration(rng.Int63n(int64(150 * time.Millisecond))))
			f.StartupKills++
		} else {
			if err := d.ready(20 * time.Second); err != nil {
				d.kill()
				return f, fmt.Errorf("kill %d: %w\n%s", k, err, d.logs.String())
			}
			if !strings.Contains(d.logs.String(), fmt.Sprintf("resumes at step %d", journalLen)) && journalLen > 0 {
				return f, fmt.Errorf("kill %d: the daemon did not resume at step %d:\n%s", k, journalLen, d.logs.String())
			}
			play, err = newPlayer(d.addr, rng.Int63(), &tokens)
			if err != nil {
				d.kill()
				return f, fmt.Errorf("kill %d: %w\n%s", k, err, d.logs.String())
			}
			f.Resumed++
			// The state shown after the restart, before any step.
			if k > 0 {
				first := play.firstShown()
				f.AfterChecked++
				if first.seq != int64(journalLen) || first.view != want {
					f.AfterWrong++
					logf("kill %d: after the restart the phone shows step %d %s, the journal %d %s", k, first.seq, first.view, journalLen, want)
				} else if before != nil && before.seq == first.seq && before.view == first.view {
					f.AfterSame++
				}
			}
			play.start(len(acked))
			time.Sleep(time.Duration(rng.Int63n(int64(opts.MaxPlay))))
		}
		d.kill()
		var got []step
		var inflight *step
		before = nil
		if play != nil {
			got, inflight, before = play.stop()
		}
		f.Acked += len(got)
		acked = append(acked, got...)

		// The journal after the kill.
		steps, err := readJournal(rules, path)
		if err != nil {
			return f, fmt.Errorf("kill %d: %w", k, err)
		}
		for i := range acked {
			switch {
			case i >= len(steps):
				f.Lost++
			case steps[i] != acked[i]:
				f.Changed++
			}
		}
		if extra := len(steps) - len(acked); extra > 0 {
			if extra == 1 && inflight != nil && steps[len(acked)] == *inflight {
				f.InFlight++
			} else {
				f.Duplicated += extra
				logf("kill %d: %d steps in the journal beyond the %d acknowledged", k, extra, len(acked))
			}
		}
		if before != nil {
			f.ShownChecked++
			want, err := viewAt(rules, setup, path, before.seq)
			if err != nil {
				return f, err
			}
			if want != before.view {
				f.ShownWrong++
				logf("kill %d: the phone showed at step %d %s, the journal %s", k, before.seq, before.view, want)
			}
		}
		acked = steps
		journalLen = len(steps)
		if want, err = viewAt(rules, setup, path, -1); err != nil {
			return f, err
		}
		f.Kills++
		if (k+1)%50 == 0 {
			logf("%d kills, %d steps acknowledged, %d in the journal", k+1, f.Acked, journalLen)
		}
	}
	f.Elapsed = time.Since(start)
	return f, nil
}

// readJournal opens the journal as a restart would and returns its
// running game's steps.
func readJournal(rules engine.Rules, path string) ([]step, error) {
	st, err := journal.Open(path)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	g, err := st.Resume(rules)
	if errors.Is(err, journal.ErrNoGame) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if _, err := g.State(); err != nil {
		return nil, err
	}
	var out []step
	for _, s := range g.Steps() {
		out = append(out, step{By: s.By, Command: s.Command})
	}
	return out, nil
}

// viewAt is seat 0's view (normalised JSON) after the journal's first seq
// steps (all of them for -1).
func viewAt(rules engine.Rules, setup engine.Setup, path string, seq int64) (string, error) {
	st, err := journal.Open(path)
	if err != nil {
		return "", err
	}
	defer st.Close()
	g, err := st.Resume(rules)
	var evs []engine.Event
	if err == nil {
		for _, s := range g.Steps() {
			if seq >= 0 && s.Seq > seq {
				break
			}
			evs = append(evs, s.Events...)
		}
	} else if !errors.Is(err, journal.ErrNoGame) {
		return "", err
	}
	state, err := engine.Replay(rules, setup, evs)
	if err != nil {
		return "", err
	}
	b, err := json.Marshal(state.View(0))
	if err != nil {
		return "", err
	}
	return normal(b), nil
}

func normal(b []byte) string {
	var v any
	if json.Unmarshal(b, &v) != nil {
		return string(b)
	}
	n, _ := json.Marshal(v)
	return string(n)
}

func freeAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

// daemon is a running comptoird.
type daemon struct {
	cmd  *exec.Cmd
	addr string
	logs *tail
	done chan struct{}
}

func startDaemon(opts Opts, cfg, addr string) (*daemon, error) {
	args := append(append([]string(nil), opts.Daemon[1:]...), "--config", cfg, "--listen", addr)
	cmd := exec.Command(opts.Daemon[0], args...)
	// The daemon plays Tally, the test game, only when told so (see
	// testGamesEnv in cmd/comptoird).
	cmd.Env = append(append(os.Environ(), "COMPTOIRD_TEST_GAMES=1"), opts.Env...)
	d := &daemon{cmd: cmd, addr: addr, logs: &tail{}, done: make(chan struct{})}
	cmd.Stderr = d.logs
	cmd.Stdout = d.logs
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("killtest: start %s: %w", opts.Daemon[0], err)
	}
	go func() { cmd.Wait(); close(d.done) }()
	return d, nil
}

func (d *daemon) ready(timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for {
		resp, err := http.Get("http://" + d.addr + "/")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		select {
		case <-d.done:
			return errors.New("the daemon exited while starting")
		default:
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("the daemon did not answer on %s within %v", d.addr, timeout)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (d *daemon) kill() {
	d.cmd.Process.Signal(syscall.SIGKILL)
	<-d.done
}

// tail keeps a daemon's last output.
type tail struct {
	mu sync.Mutex
	b  bytes.Buffer // guarded by mu
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.b.Len() > 64<<10 {
		rest := t.b.Bytes()[t.b.Len()-32<<10:]
		t.b = *bytes.NewBuffer(append([]byte(nil), rest...))
	}
	return t.b.Write(p)
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.b.String()
}

// player is the two seats' phones, playing in turn until the daemon dies.
type player struct {
	rng    *rand.Rand
	phones [2]*websocket.Conn

	done chan struct{}

	mu       sync.Mutex
	acked    []step // guarded by mu
	inflight *step  // guarded by mu
	shown    *shown // seat 0's last state shown; guarded by mu
	first    shown  // seat 0's first state after joining; guarded by mu
}

func newPlayer(addr string, seed int64, tokens *[2]string) (*player, error) {
	p := &player{rng: rand.New(rand.NewSource(seed)), done: make(chan struct{})}
	h := http.Header{"Origin": {"http://" + addr}}
	for seat := 0; seat < 2; seat++ {
		// The join codes change once, when the dashboard learns the
		// journal's game: a code read just before is refused; read again.
		token := tokens[seat]
		var err error
		for try := 0; try < 50 && token == ""; try++ {
			if token, err = join(addr, h, seat); err != nil {
				time.Sleep(20 * time.Millisecond)
			}
		}
		if token == "" {
			return nil, err
		}
		tokens[seat] = token
		conn, _, err := dial(addr, h)
		if err != nil {
			return nil, err
		}
		p.phones[seat] = conn
		if err := conn.WriteJSON(map[string]string{"type": "hello", "token": token}); err != nil {
			return nil, err
		}
	}
	// Seat 0's first state.
	p.phones[0].SetReadDeadline(time.Now().Add(10 * time.Second))
	for {
		m, err := readMsg(p.phones[0])
		if err != nil {
			return nil, err
		}
		if s, ok := stateOf(m); ok && m["role"] == "seat" {
			p.first = s
			p.shown = &s
			break
		}
	}
	return p, nil
}

// join takes seat with the join link the table's screen shows for it and
// returns the seat's token.
func join(addr string, h http.Header, seat int) (string, error) {
	table, _, err := dial(addr, h)
	if err != nil {
		return "", err
	}
	defer table.Close()
	table.SetReadDeadline(time.Now().Add(10 * time.Second))
	var tf struct {
		Players []struct {
			Join string `json:"join"`
		} `json:"players"`
		View json.RawMessage `json:"view"`
	}
	for tf.View == nil {
		if err := table.ReadJSON(&tf); err != nil {
			return "", fmt.Errorf("table frame: %w", err)
		}
	}
	if len(tf.Players) <= seat {
		return "", fmt.Errorf("no seat %d", seat)
	}
	u, err := url.Parse(tf.Players[seat].Join)
	if err != nil {
		return "", err
	}
	req, err := http.NewRequest("POST", "http://"+addr+"/api/join",
		strings.NewReader(fmt.Sprintf(`{"seat":%d,"code":%q}`, seat+1, u.Query().Get("code"))))
	if err != nil {
		return "", err
	}
	// The dashboard takes state-changing requests from its own pages only.
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Origin", "http://"+addr)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	var out struct{ Token string }
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || out.Token == "" {
		return "", fmt.Errorf("join seat %d: %s %v", seat, resp.Status, err)
	}
	return out.Token, nil
}

// dial opens a websocket to the dashboard. The daemon answers HTTP a
// moment before its dashboard runs (503 to a websocket meanwhile): it
// tries again for two seconds.
func dial(addr string, h http.Header) (*websocket.Conn, *http.Response, error) {
	deadline := time.Now().Add(2 * time.Second)
	for {
		c, resp, err := websocket.DefaultDialer.Dial("ws://"+addr+"/ws", h)
		if err == nil || !errors.Is(err, websocket.ErrBadHandshake) || time.Now().After(deadline) {
			return c, resp, err
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func readMsg(c *websocket.Conn) (map[string]any, error) {
	_, data, err := c.ReadMessage()
	if err != nil {
		return nil, err
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, err
	}
	return m, nil
}

func stateOf(m map[string]any) (shown, bool) {
	v, ok := m["view"]
	if !ok {
		return shown{}, false
	}
	seq, _ := m["seq"].(float64)
	b, _ := json.Marshal(v)
	return shown{seq: int64(seq), view: string(b)}, true
}

func (p *player) firstShown() shown {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.first
}

// start plays from the journal's n steps on: the seat whose turn it is
// takes 1 to 3 coins, waits for the answer, and so on, until the daemon
// dies. Seat 0's phone follows the states shown.
func (p *player) start(n int) {
	for _, c := range p.phones {
		c.SetReadDeadline(time.Time{})
	}
	replies := make(chan map[string]any, 2)
	dead := make(chan struct{})
	var once sync.Once
	var wg sync.WaitGroup
	for seat, c := range p.phones {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				m, err := readMsg(c)
				if err != nil {
					once.Do(func() { close(dead) })
					return
				}
				if s, ok := stateOf(m); ok {
					if seat == 0 && m["role"] == "seat" {
						p.mu.Lock()
						p.shown = &s
						p.mu.Unlock()
					}
					continue
				}
				if m["type"] == "accepted" || m["type"] == "refused" || m["type"] == "error" {
					select {
					case replies <- m:
					case <-dead:
					}
				}
			}
		}()
	}
	go func() {
		defer close(p.done)
		defer wg.Wait()
		defer func() {
			for _, c := range p.phones {
				c.Close()
			}
		}()
		for id := 1; ; id++ {
			seat := engine.Seat(n % 2)
			s := step{By: seat, Command: fmt.Sprintf("take n=%d", 1+p.rng.Intn(3))}
			p.mu.Lock()
			p.inflight = &s
			p.mu.Unlock()
			if err := p.phones[seat].WriteJSON(map[string]any{"type": "command", "id": id, "line": s.Command}); err != nil {
				return
			}
			var m map[string]any
			select {
			case m = <-replies:
			case <-dead:
				// An answer read before the kill still counts.
				select {
				case m = <-replies:
				default:
					return
				}
			}
			if m["type"] != "accepted" {
				// Not a step: the kill test's commands are legal.
				p.mu.Lock()
				p.inflight = nil
				p.mu.Unlock()
				continue
			}
			p.mu.Lock()
			p.acked = append(p.acked, s)
			p.inflight = nil
			p.mu.Unlock()
			n++
		}
	}()
}

// stop closes the phones once the daemon is dead and returns the steps
// acknowledged, the command in flight, and seat 0's last state shown.
func (p *player) stop() ([]step, *step, *shown) {
	for _, c := range p.phones {
		c.Close()
	}
	<-p.done
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.acked, p.inflight, p.shown
}
