package dashboard

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"comptoir/engine"
	"comptoir/games"
	"comptoir/games/tally"
	"comptoir/internal/leaktest"
	"comptoir/journal"
	"comptoir/table"
)

// TestNoFrameLeaksAcrossUndoAndRestart is TestNoFrameLeaksSecrets on the
// real table session over a journal file, with the two things the memory
// session has not: the staff's undo and a restart. For every game in the
// list (and Tally) it plays a game from a fixed seed (random legal moves,
// illegal ones from other seats mixed in; at most maxSteps), the staff
// undoing a step from the table's screen every few steps (sometimes two
// in a row), and twice (early, and well into the game) it restarts the
// table: the session and the dashboard stop, a new session resumes from
// the journal file, a new dashboard reads the same token file, and the
// phones and the screen reconnect with their tokens. Every frame each
// connection received, before and after the restarts, is checked by the
// oracle like TestNoFrameLeaksSecrets: the view is the engine's view for
// the seat, no other seat's secret word or money figure in the frame, and
// each log line (the undo lines, and the log the restarted session
// rebuilt from the journal) against the secrets of its own step. The
// resumed game must also be the game that was stopped, seat by seat.
func TestNoFrameLeaksAcrossUndoAndRestart(t *testing.T) {
	for i, k := range append(games.All(), tally.Game()) {
		rules := k.Rules()
		variant, n := "", 3
		if c, ok := rules.(engine.Catalog); ok {
			if v := c.Variants(); len(v) > 0 {
				variant = v[len(v)-1]
			}
			n = c.PlayerCounts()[0]
		}
		var vocab []string
		if k.Vocabulary != nil {
			vocab = k.Vocabulary()
		}
		setup := engine.Setup{Game: k.Name, Variant: variant, Players: []string{"Anna", "Bruno", "Chloé", "David", "Emma", "Félix"}[:n]}
		t.Run(fmt.Sprintf("%s %s %d", k.Name, variant, n), func(t *testing.T) {
			checkLeaks(t)
			p := &undoRestartPlay{t: t, rules: rules, setup: setup, dir: t.TempDir(), rng: rand.New(rand.NewSource(int64(100 + i))),
				history: map[int64]engine.State{}, undoSeqs: map[int64]bool{}, named: map[engine.Seat]map[string]bool{}}
			p.play()
			checked := checkFrames(t, p.frames, p.history, vocab, p.named, p.undoSeqs)
			t.Logf("%d steps, %d undone, restarted at seqs %v, %d frames checked", p.steps, p.undos, p.restarts, checked)
			if p.undos == 0 || len(p.restarts) == 0 {
				t.Errorf("%d undos, restarts at seqs %v: the test did not exercise both", p.undos, p.restarts)
			}
		})
	}
}

// undoRestartPlay is one game of TestNoFrameLeaksAcrossUndoAndRestart.
type undoRestartPlay struct {
	t     *testing.T
	rules engine.Rules
	setup engine.Setup
	dir   string
	rng   *rand.Rand

	sess  *table.Session
	rig   *rig
	stop  func()
	conns []*wsClient // the table's screen, then one phone per seat
	toks  []string

	frames   [][][]byte                      // what each connection received, in order
	seen     []int64                         // the last seq of a frame each connection received for its viewer
	history  map[int64]engine.State          // the state of each seq
	named    map[engine.Seat]map[string]bool // the words of each seat's commands
	steps    int
	undos    int
	undoSeqs map[int64]bool // the seqs of the undos
	restarts []int64        // the seqs the table restarted at
}

const staffPIN = "2468"

// undoSteps is how far into a game the staff undo: an undo every ninth
// step slows a game, and past this the game plays to its end (Négoce
// would take thousands of steps).
const undoSteps = 120

// maxSteps is where a game stops if it has not ended: Négoce can take
// many hundred steps, each journalled, and whole games are
// TestNoFrameLeaksSecrets' (in memory, quick); here the steps after the
// undos and restarts are what matter.
const maxSteps = 200

// start opens the journal and runs a session and a dashboard over it:
// a new game, or the one the journal holds.
func (p *undoRestartPlay) start(resume bool) {
	t := p.t
	store, err := journal.Open(filepath.Join(p.dir, "table.db"))
	if err != nil {
		t.Fatal(err)
	}
	var g *journal.Game
	if resume {
		g, err = store.Resume(p.rules)
	} else {
		g, err = store.Begin(p.rules, p.setup, time.Now())
	}
	if err != nil {
		t.Fatal(err)
	}
	topts := table.DefaultOpts
	topts.Rules, topts.Game, topts.Store = p.rules, g, store
	topts.Kit = kitOf(t, p.rules)
	sess, stopSess := runSession(t, topts)
	opts := DefaultOpts
	opts.StaffPIN, opts.TokenFile = staffPIN, filepath.Join(p.dir, "tokens.json")
	opts.RatePerSecond = 1000 // the script's undos come faster than a staff's
	r := newRig(t, FromTable(sess, TableOpts{Store: store}), opts)
	p.sess, p.rig = sess, r
	p.stop = func() {
		for _, c := range p.conns {
			c.close()
		}
		r.stop()
		stopSess()
		store.Close()
	}
}

// connect dials the table's screen and a phone per seat (joining the
// seats the first time, with the tokens they had after a restart).
func (p *undoRestartPlay) connect() {
	t := p.t
	n := len(p.setup.Players)
	if p.toks == nil {
		for i := range n {
			p.toks = append(p.toks, p.rig.join(i+1))
		}
		p.frames = make([][][]byte, n+1)
	}
	p.seen = make([]int64, n+1)
	for i := range p.seen {
		p.seen[i] = -1
	}
	p.conns = []*wsClient{p.rig.dial()}
	for i := range n {
		c := p.rig.dial()
		c.send(Message{Type: msgHello, Token: p.toks[i]})
		p.conns = append(p.conns, c)
	}
	for i, c := range p.conns[1:] {
		if m := p.collect(c, i+1, "welcome"); m["type"] != "welcome" {
			t.Fatalf("seat %d hello: %v", i+1, m)
		}
	}
}

// collect records what connection i receives until a message of type
// typ, which it returns.
func (p *undoRestartPlay) collect(c *wsClient, i int, typ string) map[string]any {
	p.t.Helper()
	deadline := time.After(20 * time.Second)
	for {
		select {
		case raw := <-c.raw:
			m := <-c.in // its decoded copy
			p.keep(i, raw)
			if m["type"] == typ || m["type"] == "refused" || m["type"] == "error" {
				return m
			}
		case <-deadline:
			p.t.Fatalf("connection %d: no %s", i, typ)
		}
	}
}

// record notes the session's state at its seq; it is called after each
// change, so the oracle knows every state a frame may show.
func (p *undoRestartPlay) record() int64 {
	t := p.t
	u, err := p.sess.Current(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if old, ok := p.history[u.Seq]; ok {
		sameViews(t, u.Seq, old, u.State) // the same step (after a restart)
	}
	p.history[u.Seq] = u.State
	return u.Seq
}

// keep records a message connection i received.
func (p *undoRestartPlay) keep(i int, raw []byte) {
	p.frames[i] = append(p.frames[i], raw)
	var f struct {
		Type string `json:"type"`
		Seq  int64  `json:"seq"`
		Role string `json:"role"`
	}
	json.Unmarshal(raw, &f)
	if f.Type == "state" && (i == 0 || f.Role == roleSeat) {
		p.seen[i] = max(p.seen[i], f.Seq)
	}
}

// waitAll waits until every connection saw a frame of the session's seq
// or later (so no frame is coalesced away), and returns that seq.
func (p *undoRestartPlay) waitAll() int64 {
	t := p.t
	u, err := p.sess.Current(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range p.conns {
		deadline := time.After(20 * time.Second)
		for p.seen[i] < u.Seq {
			select {
			case raw := <-c.raw:
				<-c.in
				p.keep(i, raw)
			case <-deadline:
				t.Fatalf("connection %d never saw seq %d", i, u.Seq)
			}
		}
	}
	return u.Seq
}

// sameViews fails the test unless a and b look the same to every viewer:
// the resumed game is the game that was stopped.
func sameViews(t *testing.T, seq int64, a, b engine.State) {
	t.Helper()
	for seat := engine.NoSeat; int(seat) < len(a.Setup().Players); seat++ {
		if !reflect.DeepEqual(leaktest.ToJSON(a.View(seat)), leaktest.ToJSON(b.View(seat))) {
			t.Fatalf("seq %d: after the restart the view for %v differs from before", seq, seat)
		}
	}
}

// submit plays a seat's action on the session, remembering its words (a
// seat may read back what it wrote).
func (p *undoRestartPlay) submit(st engine.State, a engine.Action) error {
	if p.named[a.By] == nil {
		p.named[a.By] = map[string]bool{}
	}
	line := p.rules.Codec().FormatCommand(a.Cmd, st.Setup().Players)
	for _, w := range strings.FieldsFunc(line, func(r rune) bool { return r == ' ' || r == '=' || r == ',' || r == ':' }) {
		p.named[a.By][w] = true
	}
	err := p.sess.Submit(p.t.Context(), a)
	if err == nil {
		p.record()
	}
	return err
}

// undo asks the staff's undo from the table's screen.
func (p *undoRestartPlay) undo(why string) {
	p.t.Helper()
	p.conns[0].send(Message{Type: msgStaff, Nonce: nonce(), PIN: staffPIN, Action: "undo", Reason: why})
	if m := p.collect(p.conns[0], 0, "accepted"); m["type"] != "accepted" {
		p.t.Fatalf("staff undo (%s): %v", why, m)
	}
	p.undoSeqs[p.record()] = true
	p.undos++
}

// play plays the game to its end: random legal actions, another seat's
// action every seventh step, a staff undo every ninth (two every
// twenty-seventh) in the first undoSteps, and the restarts after the
// sixth and fortieth steps.
func (p *undoRestartPlay) play() {
	t := p.t
	p.start(false)
	defer func() { p.stop() }()
	p.connect()
	p.record()
	p.waitAll()
	for ; p.steps < maxSteps; p.steps++ {
		u := p.sess.Latest()
		st := u.State
		if st.Result().Over {
			break
		}
		legal := st.Legal()
		if len(legal) == 0 {
			t.Fatalf("step %d: no legal action and the game is not over", p.steps)
		}
		a := legal[p.rng.Intn(len(legal))]
		otherPlayed := false
		if p.steps%7 == 3 {
			if other := engine.Seat(p.rng.Intn(len(st.Setup().Players))); other != a.By {
				otherPlayed = p.submit(st, engine.Action{By: other, Cmd: a.Cmd}) == nil
			}
		}
		if err := p.submit(st, a); err != nil {
			if _, ok := engine.AsRefusal(err); !ok || !otherPlayed {
				t.Fatalf("step %d: listed action %s by %v refused: %v", p.steps, p.rules.Codec().FormatCommand(a.Cmd, st.Setup().Players), a.By, err)
			}
			for _, b := range legal {
				if p.submit(st, b) == nil {
					break
				}
			}
		}
		seq := p.waitAll()
		if p.steps%9 == 5 && p.steps < undoSteps {
			p.undo(fmt.Sprintf("step %d misread", p.steps))
			if p.steps%27 == 14 {
				p.undo("and the one before")
			}
			seq = p.waitAll()
		}
		if p.steps == 6 || p.steps == 40 {
			p.stop()
			p.restarts = append(p.restarts, seq)
			p.start(true)
			p.connect()
			p.record()
			if got := p.waitAll(); got != seq {
				t.Fatalf("after the restart the game is at seq %d, want %d", got, seq)
			}
		}
	}
	if !p.sess.Latest().State.Result().Over {
		t.Logf("the game is not over after %d steps (TestNoFrameLeaksSecrets plays whole games)", p.steps)
	}
}
