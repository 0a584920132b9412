package table

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"comptoir/engine"
	"comptoir/engine/enginetest"
	"comptoir/games"
	"comptoir/games/dschunke"
	"comptoir/games/negoce"
	"comptoir/input"
	"comptoir/notation"
)

// cardTag is the UID of the test sticker enrolled for a card.
func cardTag(id string) string { return "C-" + id }

// cardTags enrolls a sticker per card id, and one square sticker.
func cardTags(ids []string) TagLookup {
	tags := map[string]Target{"S-3-4": {Kind: "square", ID: "3-4"}}
	for _, id := range ids {
		tags[cardTag(id)] = Target{Kind: "card", ID: id}
	}
	return func(uid string) (Target, bool) { t, ok := tags[uid]; return t, ok }
}

// playAtTable plays a game record at a table session: the lines of the
// table that scan (scan returns the card laid on the reader) are taps of
// that card's sticker, the others are phones' commands. After every tap
// the journal's last step must be the record's line: the tap became the
// right command. It returns the number of scans the table was not
// waiting for (AwaitsTable false).
func playAtTable(t *testing.T, rules engine.Rules, file string, ids []string, scan func(engine.Command) (string, bool)) (*rig, int) {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", file))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rec, err := notation.Read(f, file)
	if err != nil {
		t.Fatal(err)
	}
	acts, err := rec.Actions(rules.Codec())
	if err != nil {
		t.Fatal(err)
	}
	r := newRigWith(t, "", rules, rec.Setup, cardTags(ids))
	codec := rules.Codec()
	ctx := context.Background()
	unawaited := 0
	for i, a := range acts {
		line := rec.Lines[i]
		where := file + ":" + itoa(line.N)
		want := codec.FormatCommand(a.Cmd, rec.Setup.Players)
		card, scanned := "", false
		if a.By == engine.NoSeat {
			card, scanned = scan(a.Cmd)
		}
		if !scanned {
			if err := r.s.Submit(ctx, a); err != nil {
				t.Fatalf("%s: %s from a phone: %v", where, want, err)
			}
			continue
		}
		if !r.s.adapter.AwaitsTable(r.latest().State) {
			unawaited++
		}
		before := r.latest().Seq
		r.input(input.TagTapped{At: time.Now(), UID: cardTag(card)})
		u := r.latest()
		if u.Seq != before+1 {
			t.Fatalf("%s: the tap of %s played nothing (refusal %+v)", where, card, u.Refusal)
		}
		steps := r.game.Steps()
		if got := steps[len(steps)-1]; got.Command != want || got.By != engine.NoSeat {
			t.Fatalf("%s: the tap of %s became %q by %v, want %q by the table", where, card, got.Command, got.By, want)
		}
	}
	return r, unawaited
}

func itoa(n int) string {
	var b [20]byte
	i := len(b)
	for {
		i--
		b[i] = byte('0' + n%10)
		if n /= 10; n == 0 {
			return string(b[i:])
		}
	}
}

// TestNegoceAtTable records a deal, a sale and its offers from card scans
// (table/testdata/negoce-sale.txt) with the auction and the offers' coins
// from the phones, and checks what the scans mean.
func TestNegoceAtTable(t *testing.T) {
	checkLeaks(t)
	cat, err := negoce.DefaultCatalog()
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, id := range cat.IDs() {
		ids = append(ids, string(id))
	}
	r, unawaited := playAtTable(t, negoce.New(), "negoce-sale.txt", ids, func(c engine.Command) (string, bool) {
		l, ok := c.(negoce.Lay)
		return string(l.Card), ok && !l.Up
	})
	// The deal and the cards for sale are awaited; the two offers' cards
	// are welcome during the negotiation but not waited for.
	if unawaited != 2 {
		t.Errorf("%d scans were not awaited, want 2 (the offers' cards)", unawaited)
	}
	// Anna sells the Contraband card, scanned: face down, hidden from the
	// table, seen by her.
	st := r.latest().State
	table := st.View(engine.NoSeat).(negoce.View)
	if len(table.Market) != 1 || table.Market[0].Up || table.Market[0].Card != "" {
		t.Errorf("the table sees the market %+v, want one face-down card without its id", table.Market)
	}
	anna := st.View(0).(negoce.View)
	if len(anna.Market) != 1 || anna.Market[0].Card != "contraband" {
		t.Errorf("Anna sees the market %+v, want her Contraband card", anna.Market)
	}

	tests := []struct {
		name string
		ev   input.Event
		uid  string
		code string // a refusal's code; "" when the input is ignored
		seq  int64  // steps played by the input
	}{
		{name: "a square sticker", ev: input.TagTapped{UID: "S-3-4"}, code: "table.tag-not-for-game"},
		{name: "the card already for sale", ev: input.TagTapped{UID: cardTag("contraband")}, code: "any"},
		{name: "dice", ev: input.DiceRolled{Blue: 3, Red: 4, Confidence: 1}},
		{name: "the confirm button", ev: input.Button{Name: "confirm"}},
		{name: "an unknown sticker", ev: input.TagTapped{UID: "04FFFF"}, uid: "04FFFF"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := r.latest()
			r.input(tt.ev)
			u := r.latest()
			if u.Seq != before.Seq {
				t.Errorf("Seq %d → %d, want no step", before.Seq, u.Seq)
			}
			switch {
			case tt.code == "":
				if u.Refusal != nil && (before.Refusal == nil || u.Refusal.Seq != before.Refusal.Seq || u.Refusal.Code != before.Refusal.Code) {
					t.Errorf("refusal %+v, want the input ignored", u.Refusal)
				}
			case u.Refusal == nil || (tt.code != "any" && u.Refusal.Code != tt.code) || u.Refusal.EN == "" || u.Refusal.FR == "":
				t.Errorf("refusal %+v, want %s with a reason in both languages", u.Refusal, tt.code)
			}
			if tt.uid != "" {
				found := false
				for _, x := range u.Unknown {
					found = found || x.UID == tt.uid
				}
				if !found {
					t.Errorf("unknown tags %v, want %s reported", u.Unknown, tt.uid)
				}
			}
		})
	}
}

// TestDschunkeAtTable plays the rules text's bidding example
// (table/testdata/dschunke-round.txt) with the market card and the special
// card taken scanned at the table, everything else from the phones.
func TestDschunkeAtTable(t *testing.T) {
	checkLeaks(t)
	d, err := dschunke.LoadData()
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, m := range d.Market {
		ids = append(ids, m.ID)
	}
	for _, s := range d.Special {
		ids = append(ids, s.ID)
	}
	r, unawaited := playAtTable(t, dschunke.New(), "dschunke-round.txt", ids, func(c engine.Command) (string, bool) {
		switch c := c.(type) {
		case dschunke.Reveal:
			return c.Market, true
		case dschunke.Draw:
			return c.Card, c.Pile == ""
		}
		return "", false
	})
	if unawaited != 0 {
		t.Errorf("%d scans were not awaited, want 0", unawaited)
	}
	// Round 2 has begun: its market card is awaited. A special card now
	// is refused by the rules, with the buzzer; a square sticker is
	// refused by the table.
	if !r.s.adapter.AwaitsTable(r.latest().State) {
		t.Error("round 2: the market card is not awaited")
	}
	for _, tt := range []struct{ uid, code string }{
		{cardTag(d.Special[0].ID), "any"},
		{"S-3-4", "table.tag-not-for-game"},
	} {
		before := r.latest().Seq
		r.input(input.TagTapped{UID: tt.uid})
		u := r.latest()
		if u.Seq != before || u.Refusal == nil || (tt.code != "any" && u.Refusal.Code != tt.code) || u.Refusal.EN == "" {
			t.Errorf("tap of %s: Seq %d→%d refusal %+v, want refused (%s)", tt.uid, before, u.Seq, u.Refusal, tt.code)
		}
	}
	// The market card of round 2, scanned, is turned over.
	before := r.latest().Seq
	r.input(input.TagTapped{UID: cardTag("market-05")})
	if u := r.latest(); u.Seq != before+1 {
		t.Fatalf("the scan of market-05: refusal %+v, want it revealed", u.Refusal)
	}
	if v := r.latest().State.View(engine.NoSeat).(dschunke.View); v.Market != "market-05" {
		t.Errorf("after the scan the market card is %q, want market-05", v.Market)
	}
}

// TestCardAdaptersTranslate checks the adapters alone, on the wrong
// state and on inputs they do not use.
func TestCardAdaptersTranslate(t *testing.T) {
	tally, err := enginetest.Rules{}.Start(tallySetup)
	if err != nil {
		t.Fatal(err)
	}
	for _, game := range []string{"negoce", "dschunke"} {
		k, err := games.Lookup(game)
		if err != nil || k.Adapter == nil {
			t.Fatalf("no adapter for %s: %v", game, err)
		}
		a := k.Adapter(k.Rules())
		t.Run(game, func(t *testing.T) {
			if _, err := a.Translate(tally, input.TagTapped{UID: "x"}, Target{Kind: "card", ID: "x"}); !errors.Is(err, ErrNoCommand) {
				t.Errorf("on a Tally state: %v, want ErrNoCommand", err)
			}
			if a.AwaitsTable(tally) {
				t.Error("AwaitsTable on a Tally state = true")
			}
			if _, err := a.Translate(tally, input.Button{Name: "confirm"}, Target{}); !errors.Is(err, ErrNoCommand) || !strings.Contains(err.Error(), game) {
				t.Errorf("a button: %v, want ErrNoCommand naming the game", err)
			}
		})
	}
}
