package dashboard

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"

	"comptoir/engine"
	"comptoir/internal/leaktest"
)

// oracle is the leak tests' independent scan for secrets, built from the
// engine's views alone (package leaktest; the dashboard keeps secrets by
// construction and has no such scan). Fed the game's states in order, it
// knows for each state and seat the seat's secret words and money. A
// frame is checked against the secrets of its state, and each line of its
// log against the secrets of the state its step made: a line told in the
// past is checked at its own time, when a secret it named was still one,
// not against the state now (after the card went back face down, or left
// every view).
type oracle struct {
	*leaktest.Secrets
	undos map[int64]bool      // the steps that are undos
	lines map[string][]string // a log line's leaks, by step, viewer and text
}

func newOracle(vocab []string) *oracle {
	return &oracle{Secrets: leaktest.New(vocab), lines: map[string][]string{}}
}

// check fails the test if the frame for viewer leaks (see leaks).
func (o *oracle) check(t *testing.T, seq int64, raw []byte, viewer engine.Seat) {
	t.Helper()
	for _, l := range o.leaks(seq, raw, viewer) {
		t.Error(l)
	}
}

// leaks says where the frame of seq for viewer holds another seat's
// secret word or money figure: its log lines against the secrets of their
// own steps, the rest of it against those of seq.
func (o *oracle) leaks(seq int64, raw []byte, viewer engine.Seat) []string {
	if viewer == engine.Staff {
		return nil
	}
	var f map[string]json.RawMessage
	json.Unmarshal(raw, &f)
	var log []LogLine
	json.Unmarshal(f["log"], &log)
	delete(f, "log")
	if a, ok := f["actions"]; ok {
		f["actions"] = withoutDecks(a)
	}
	rest, _ := json.Marshal(f)
	var out []string
	out = append(out, o.scan(seq, string(rest), viewer, "frame", seq)...)
	for _, l := range log {
		// A line is the same in every frame: scanned once per viewer.
		key := fmt.Sprintf("%d %d %s\n%s", l.Seq, viewer, l.FR, l.EN)
		found, ok := o.lines[key]
		if !ok {
			found = o.scan(l.Seq, l.FR+"\n"+l.EN, viewer, "log line", seq)
			o.lines[key] = found
		}
		out = append(out, found...)
	}
	return out
}

// withoutDecks drops the options of the actions' fields that list a
// whole deck (kit.Field.Deck: the cards one may have drawn, the same
// wherever the others' cards are).
func withoutDecks(raw json.RawMessage) json.RawMessage {
	var acts []map[string]any
	if err := json.Unmarshal(raw, &acts); err != nil {
		return raw
	}
	for _, a := range acts {
		fields, _ := a["fields"].([]any)
		for _, f := range fields {
			if m, ok := f.(map[string]any); ok && m["deck"] == true {
				delete(m, "options")
			}
		}
	}
	out, _ := json.Marshal(acts)
	return out
}

// scan checks a text against the secrets of the state of seq.
func (o *oracle) scan(seq int64, text string, viewer engine.Seat, what string, frameSeq int64) []string {
	sa := o.At(seq)
	if sa == nil {
		return nil
	}
	// The views hold numbers everywhere: the money check is for a
	// frame's texts.
	moneyText := text
	if what == "frame" {
		moneyText = frameTexts(text)
	}
	var out []string
	for k := range sa.Words {
		if engine.Seat(k) == viewer {
			continue
		}
		words := o.Words
		if what != "frame" && o.undos[seq] {
			// An undo's line must not tell what the undone step did
			// either: a card drawn then put back is no one's now.
			words = o.PastWords
		}
		for _, h := range o.Find(text, words(seq, k, viewer)) {
			out = append(out, fmt.Sprintf("seq %d: a %s of step %d for %v holds seat %d's secret %v", frameSeq, what, seq, viewer, k+1, h))
		}
		for _, h := range o.Find(moneyText, o.Money(seq, k, viewer)) {
			out = append(out, fmt.Sprintf("seq %d: a %s of step %d for %v tells seat %d's money %s: %q", frameSeq, what, seq, viewer, k+1, h.Word, moneyText))
		}
	}
	return out
}

// frameTexts are the texts of a frame: its refusal, its proposals and
// what was said.
func frameTexts(frame string) string {
	var f struct {
		Refusal   *Refused   `json:"refusal"`
		Proposals []proposal `json:"proposals"`
		Said      []announced
	}
	json.Unmarshal([]byte(frame), &f)
	text := ""
	if f.Refusal != nil {
		text += f.Refusal.FR + "\n" + f.Refusal.EN + "\n"
	}
	for _, p := range f.Proposals {
		text += p.FR + "\n" + p.EN + "\n" + p.Line + "\n"
	}
	for _, s := range f.Said {
		text += s.Line + "\n"
	}
	return text
}

// checkFrames checks every frame each connection received (connection 0
// is the table's screen, connection i the phone of seat i), in the order
// of the game's steps, against the oracle fed with the states so far. It
// returns how many frames it checked.
//
// named are the words of each seat's own commands: a seat may read back
// what it wrote ("David does not hold jade-2" after David offered jade-2).
// undos are the steps that are undos: their lines are checked against
// every secret held until then, not only the secrets of their own step.
func checkFrames(t *testing.T, frames [][][]byte, history map[int64]engine.State, vocab []string, named map[engine.Seat]map[string]bool, undos map[int64]bool) int {
	t.Helper()
	type seen struct {
		seq    int64
		viewer engine.Seat
		raw    []byte
	}
	var all []seen
	for i, fs := range frames {
		for _, raw := range fs {
			var f struct {
				Type string `json:"type"`
				Seq  int64  `json:"seq"`
			}
			json.Unmarshal(raw, &f)
			if f.Type == "state" {
				all = append(all, seen{f.Seq, engine.Seat(i - 1), raw})
			}
		}
	}
	sort.SliceStable(all, func(a, b int) bool { return all[a].seq < all[b].seq })
	var o *oracle
	var seqs []int64
	for q := range history {
		seqs = append(seqs, q)
	}
	sort.Slice(seqs, func(a, b int) bool { return seqs[a] < seqs[b] })
	next := 0
	for _, s := range all {
		for next < len(seqs) && seqs[next] <= s.seq {
			st := history[seqs[next]]
			if o == nil {
				o = newOracle(vocab)
				o.Named, o.undos = named, undos
			}
			o.See(seqs[next], st)
			next++
		}
		if o == nil || o.At(s.seq) == nil {
			t.Fatalf("frame of seq %d: no such state", s.seq)
		}
		checkFrame(t, s.raw, s.viewer, history, o)
	}
	return len(all)
}

// TestOracle checks the oracle on a made-up game (leaktest.TwoSteps): a log line is judged
// by the secrets of its own step, even once the card left every view; a
// card once public is no secret; money is a secret figure in texts only.
func TestOracle(t *testing.T) {
	o := newOracle([]string{"silk"})
	for i, st := range leaktest.TwoSteps() {
		o.See(int64(i+1), st)
	}
	if got := o.Words(1, 0, 1); strings.Join(got, ",") != "L05" {
		t.Errorf("Anna's secrets for Bruno at step 1 = %q, want L05 (silk is vocabulary, P1 public)", got)
	}
	if got := o.Words(2, 1, 0); len(got) != 0 {
		t.Errorf("Bruno's secrets at step 2 = %q, want none (L07 became public)", got)
	}
	for _, tt := range []struct {
		frame string
		fail  bool
	}{
		{`{"type":"state","seq":2,"log":[{"seq":1,"en":"Anna draws a card"}]}`, false},
		{`{"type":"state","seq":2,"log":[{"seq":1,"en":"Anna draws L05"}]}`, true},
		{`{"type":"state","seq":2,"log":[{"seq":2,"en":"Anna discards a card"}]}`, false},
		{`{"type":"state","seq":2,"refusal":{"en":"Anna holds 23 ducats"}}`, true},
		{`{"type":"state","seq":2,"proposals":[{"en":"Anna cannot give 23 ducats"}]}`, true},
		{`{"type":"state","seq":2,"view":{"round":23},"log":[{"seq":2,"en":"round 4"}]}`, false},
		{`{"type":"state","seq":2,"log":[{"seq":1,"en":"Anna pays 23 ducats"}]}`, true},
		{`{"type":"state","seq":2,"log":[{"seq":1,"en":"Bruno plays L05-bis"}]}`, false},
	} {
		if got := o.leaks(2, []byte(tt.frame), 1); (len(got) > 0) != tt.fail {
			t.Errorf("leaks(%s) = %q, want a leak: %v", tt.frame, got, tt.fail)
		}
	}
}

// TestOracleEverySeat: a frame is checked for the secrets of every other
// seat, the third as well as the second (the money check once read the
// frame's texts in place of the frame, so a third seat's card in the
// frame and its money in a refusal went unseen).
func TestOracleEverySeat(t *testing.T) {
	o := newOracle(nil)
	o.See(1, leaktest.Views{Table: map[string]any{"pile": "P1"}, Seats: []map[string]any{
		{"mine": map[string]any{"cards": []any{"L05"}, "ducats": 23}},
		{"mine": map[string]any{"cards": []any{"L07"}, "ducats": 31}},
		{"mine": map[string]any{"cards": []any{"L09"}, "ducats": 47}},
	}})
	for _, tt := range []struct {
		frame string
		fail  bool
	}{
		{`{"type":"state","seq":1,"view":{"pile":"P1"},"refusal":{"en":"not now"}}`, false},
		{`{"type":"state","seq":1,"view":{"pile":"L07"}}`, true},
		{`{"type":"state","seq":1,"view":{"pile":"L09"}}`, true},
		{`{"type":"state","seq":1,"refusal":{"en":"Bruno holds 31 ducats"}}`, true},
		{`{"type":"state","seq":1,"refusal":{"en":"Chloé holds 47 ducats"}}`, true},
		{`{"type":"state","seq":1,"proposals":[{"en":"Chloé cannot give 47 ducats"}]}`, true},
		{`{"type":"state","seq":1,"view":{"round":47}}`, false},
	} {
		if got := o.leaks(1, []byte(tt.frame), 0); (len(got) > 0) != tt.fail {
			t.Errorf("leaks(%s) for Anna = %q, want a leak: %v", tt.frame, got, tt.fail)
		}
	}
}
