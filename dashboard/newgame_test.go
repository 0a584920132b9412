package dashboard

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"comptoir/engine"
	"comptoir/engine/enginetest"
	"comptoir/games/genoa"
	"comptoir/games/genoa/board"
	"comptoir/games/genoa/genoakit"
	"comptoir/journal"
	"comptoir/table"
)

// realTable runs a real table session over a journal, with the dashboard
// on it.
func realTable(t *testing.T, rules engine.Rules, setup engine.Setup, adapter table.Adapter) (*rig, *table.Session) {
	t.Helper()
	store, err := journal.Open(filepath.Join(t.TempDir(), "table.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	game, err := store.Begin(rules, setup, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	topts := table.DefaultOpts
	topts.Rules, topts.Game, topts.Store, topts.Adapter = rules, game, store, adapter
	topts.Kit = kitOf(t, rules)
	sess, stop := runSession(t, topts)
	t.Cleanup(stop)
	opts := DefaultOpts
	opts.StaffPIN = "2468"
	r := newRig(t, FromTable(sess, TableOpts{Store: store}), opts)
	t.Cleanup(r.stop) // before the session stops (cleanups run last first)
	return r, sess
}

// players returns the names in a frame.
func players(f map[string]any) string {
	var out []string
	for _, p := range f["players"].([]any) {
		out = append(out, p.(map[string]any)["name"].(string))
	}
	return strings.Join(out, ", ")
}

// TestStaffNewGame begins the next game from the staff page: refused
// while the game runs; after an abandon, with new players; after an end,
// with the same players.
func TestStaffNewGame(t *testing.T) {
	r, _ := realTable(t, enginetest.Rules{}, engine.Setup{Game: "tally", Players: []string{"Anna", "Bruno"}}, nil)
	staff := r.dial()
	staff.send(Message{Type: msgHello, Role: "staff", PIN: "2468"})
	staff.reply()
	staff.must("state")

	steps := []struct {
		name   string
		msg    Message
		reply  string // the reply's type
		detail string // in a refusal
		want   string // the players of the next game, "" for none
	}{
		{"while the game runs", Message{Type: msgStaff, Nonce: nonce(), PIN: "2468", Action: "new-game"}, "refused", "", ""},
		{"a player twice", Message{Type: msgStaff, Nonce: nonce(), PIN: "2468", Action: "new-game", Line: "Anna, anna"}, "refused", "seated twice", ""},
		{"abandon", Message{Type: msgStaff, Nonce: nonce(), PIN: "2468", Action: "abandon", Reason: "they left"}, "accepted", "", ""},
		{"new players", Message{Type: msgStaff, Nonce: nonce(), PIN: "2468", Action: "new-game", Line: " Chloé, David ,Émile"}, "accepted", "", "Chloé, David, Émile"},
		{"end", Message{Type: msgStaff, Nonce: nonce(), PIN: "2468", Action: "end", Reason: "closing time"}, "accepted", "", ""},
		{"same players", Message{Type: msgStaff, Nonce: nonce(), PIN: "2468", Action: "new-game"}, "accepted", "", "Chloé, David, Émile"},
	}
	for _, s := range steps {
		staff.send(s.msg)
		m := staff.reply()
		if m["type"] != s.reply {
			t.Fatalf("%s: reply %v, want %s", s.name, m, s.reply)
		}
		if s.detail != "" {
			b, _ := json.Marshal(m)
			if !strings.Contains(string(b), s.detail) {
				t.Errorf("%s: reply %s does not say %q", s.name, b, s.detail)
			}
		}
		if s.want == "" {
			continue
		}
		// The next frame of a running game with those players.
		deadline := time.Now().Add(5 * time.Second)
		for {
			f := staff.must("state")
			if players(f) == s.want && f["over"] == false {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: no frame of a new game with %s; last %s over=%v", s.name, s.want, players(f), f["over"])
			}
		}
	}
}

// swapped returns the default board with two buildings' places swapped
// (the first pair the rules accept), one of them and the cells it has
// moved to.
func swapped(t *testing.T) (engine.Rules, *board.Board, string, [][2]int) {
	t.Helper()
	b := board.Default()
	sqs := b.Squares()
	for i, x := range sqs {
		for _, y := range sqs[i+1:] {
			if x.Kind != board.Building || y.Kind != board.Building || len(x.Cells) != len(y.Cells) {
				continue
			}
			var edits []board.Edit
			var moved [][2]int
			for _, c := range x.Cells {
				edits = append(edits, board.Edit{X: c.X, Y: c.Y, Key: y.Key})
				moved = append(moved, [2]int{c.X, c.Y})
			}
			for _, c := range y.Cells {
				edits = append(edits, board.Edit{X: c.X, Y: c.Y, Key: x.Key})
			}
			nb, err := b.WithCells(edits...)
			if err != nil {
				continue
			}
			if rules, err := genoa.WithBoard(nb); err == nil {
				return rules, nb, y.Key, moved
			}
		}
	}
	t.Fatal("no two buildings of the default board can swap places")
	return nil, nil, "", nil
}

// TestBoardFollowsSession edits the board's layout under a running Genoa
// game: the frames name a new version of the game's data, and the game's
// data (GET /api/game) draws the new layout.
func TestBoardFollowsSession(t *testing.T) {
	rules := genoa.New()
	r, sess := realTable(t, rules, engine.Setup{Game: "genoa", Variant: "alea-2001", Players: []string{"Anna", "Bruno", "Chloé"}}, genoakit.Adapter(board.Default()))
	c := r.dial()
	before := c.must("state")["info"]
	if before == nil || before == "" {
		t.Fatal("a Genoa frame names no version of the game's data")
	}
	nr, nb, key, cells := swapped(t)
	if err := sess.Staff(context.Background(), table.StaffRequest{Kind: table.StaffRules, Rules: nr, Adapter: genoakit.Adapter(nb)}); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		f := c.must("state")
		if f["info"] != before {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no frame names a new version of the game's data after the board edit")
		}
	}
	var info GameInfo
	resp := r.get("/api/game")
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(&info); err != nil {
		t.Fatal(err)
	}
	for _, sq := range info.Squares {
		if sq.Key == key {
			if fmt.Sprint(sq.Cells) != fmt.Sprint(cells) {
				t.Errorf("%s is drawn on %v, want the edited %v", key, sq.Cells, cells)
			}
			return
		}
	}
	t.Errorf("no square %s in the game's data", key)
}
