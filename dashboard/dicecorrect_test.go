package dashboard

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"comptoir/engine"
	"comptoir/input"
)

// TestDiceCorrect: the camera's reading standing, the phone of the seat
// that threw (Anna, Genoa's merchant) is offered to correct it, in both
// languages, with a row of faces per die; no other frame carries the
// offer, not even in its bytes. The "dice" message from a seat is judged
// by the session: another seat, a stale step, the faces read, a face the
// dice do not have are refused; Anna's faces undo the reading as a
// misread in her name and play her roll, which every screen sees.
func TestDiceCorrect(t *testing.T) {
	checkLeaks(t)
	r, sess, in := genoaDiceRig(t, DefaultOpts)
	anna, bruno, tv := r.dial(), r.dial(), r.dial()
	anna.send(map[string]string{"type": "hello", "token": r.join(1)})
	bruno.send(map[string]string{"type": "hello", "token": r.join(2)})
	seq := sess.Latest().Seq
	in <- input.DiceRolled{At: time.Now(), Blue: 3, Red: 5, Confidence: 1}
	read := seq + 1
	frameOf := func(c *wsClient, role string, seq int64) map[string]any {
		t.Helper()
		for {
			if f := c.stateAt(seq); f["role"] == role {
				return f
			}
		}
	}
	f := frameOf(anna, "seat", read)
	fix, _ := f["dice_correct"].(map[string]any)
	if fix == nil {
		t.Fatalf("Anna's frame at the reading has no dice_correct: %v", f)
	}
	if fix["seq"] != float64(read) || fix["blue"] != 3.0 || fix["red"] != 5.0 ||
		fix["en"] != "Camera read blue 3 · red 5 — not what the dice show?" ||
		fix["fr"] != "La caméra a lu bleu 3 · rouge 5 — ce n'est pas ce que montrent les dés ?" {
		t.Errorf("Anna's offer %v, want the reading 3 · 5 of step %d in both languages", fix, read)
	}
	act, _ := fix["action"].(map[string]any)
	fields, _ := act["fields"].([]any)
	if act["id"] != "dice-correct" || len(fields) != 2 {
		t.Fatalf("the offer's sheet %v, want dice-correct with a field per die", act)
	}
	for i, key := range []string{"blue", "red"} {
		fd := fields[i].(map[string]any)
		if fd["key"] != key || fd["colour"] != key || len(fd["options"].([]any)) != 8 {
			t.Errorf("field %d = %v, want %s with eight faces", i, fd, key)
		}
	}
	for _, c := range []struct {
		name string
		c    *wsClient
		role string
	}{{"Bruno", bruno, "seat"}, {"the table", tv, "table"}} {
		if g := frameOf(c.c, c.role, read); g["dice_correct"] != nil {
			t.Errorf("%s's frame carries %v", c.name, g["dice_correct"])
		}
	}

	dice := func(c *wsClient, seq int64, blue, red string) map[string]any {
		t.Helper()
		c.send(map[string]any{"type": "dice", "seq": seq, "values": map[string]string{"blue": blue, "red": red}})
		return c.reply()
	}
	for _, tc := range []struct {
		name      string
		c         *wsClient
		seq       int64
		blue, red string
		code      string
	}{
		{"another seat", bruno, read, "4", "5", "table.not-thrower"},
		{"a stale step", anna, read - 1, "4", "5", "table.misread-late"},
		{"the faces read", anna, read, "3", "5", "table.same-roll"},
		{"a face the dice do not have", anna, read, "9", "5", "table.not-a-roll"},
		{"not a face", anna, read, "x", "5", "bad-argument"},
	} {
		if rep := dice(tc.c, tc.seq, tc.blue, tc.red); rep["type"] != "refused" || rep["code"] != tc.code || rep["en"] == "" || rep["fr"] == "" {
			t.Errorf("%s: %v, want refused %s in both languages", tc.name, rep, tc.code)
		}
	}
	if s := sess.Record().Lines; len(s) != int(read) || s[len(s)-1].Command != "roll blue=3 red=5" {
		t.Fatalf("after the refusals the game is %+v, want the reading standing", s[len(s)-1])
	}
	if rep := dice(anna, read, "4", "5"); rep["type"] != "accepted" {
		t.Fatalf("Anna's correction: %v", rep)
	}
	s := sess.Record().Lines
	if last := s[len(s)-1]; last.By != engine.NoSeat || last.Command != "roll blue=4 red=5" {
		t.Errorf("last step %+v, want the table's roll blue=4 red=5", last)
	}
	// The undo and the roll: everyone sees them, the offer is gone.
	for _, c := range []struct {
		c    *wsClient
		role string
	}{{anna, "seat"}, {bruno, "seat"}, {tv, "table"}} {
		g := frameOf(c.c, c.role, read+2)
		if g["dice_correct"] != nil {
			t.Errorf("%s frame after the correction still offers %v", c.role, g["dice_correct"])
		}
		var log strings.Builder
		for _, l := range g["log"].([]any) {
			log.WriteString(l.(map[string]any)["en"].(string) + "\n")
		}
		if !strings.Contains(log.String(), "The last step is undone (dice misread: the camera read blue 3, red 5; Anna saw blue 4, red 5).") {
			t.Errorf("%s log:\n%s\nwant the misread's undo, public", c.role, log.String())
		}
	}
	if rep := dice(anna, read+2, "5", "5"); rep["type"] != "refused" || rep["code"] != "table.misread-late" {
		t.Errorf("a correction of the roll entered: %v, want table.misread-late", rep)
	}
	for {
		select {
		case raw := <-bruno.raw:
			if bytes.Contains(raw, []byte("dice_correct")) || bytes.Contains(raw, []byte("not what the dice show")) {
				t.Errorf("Bruno received the offer: %s", raw)
			}
			continue
		default:
		}
		break
	}
}
