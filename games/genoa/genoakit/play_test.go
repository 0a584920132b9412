package genoakit

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"comptoir/engine"
	"comptoir/games/genoa"
	"comptoir/games/kit"
	"comptoir/notation"
)

var names = []string{"Anna", "Bruno", "Chloé", "Denis", "Emma"}

// visit calls check on every state of the example records in
// ../testdata (played by a player that likes deals, deliveries and
// acquisitions) and of random legal games with fixed seeds.
func visit(t *testing.T, check func(t *testing.T, s *genoa.State)) {
	t.Helper()
	r := genoa.New()
	files, err := filepath.Glob(filepath.Join("..", "testdata", "*.txt"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no example records: %v", err)
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			rec, err := notation.Read(f, path)
			if err != nil {
				t.Fatal(err)
			}
			acts, err := rec.Actions(r.Codec())
			if err != nil {
				t.Fatal(err)
			}
			s, err := r.Start(rec.Setup)
			if err != nil {
				t.Fatal(err)
			}
			defer func() { t.Logf("%d states", len(acts)+1) }()
			for i, a := range acts {
				check(t, s.(*genoa.State))
				if t.Failed() {
					t.Fatalf("at line %d of %s", i+1, path)
				}
				if s, _, err = engine.Play(s, a); err != nil {
					t.Fatal(err)
				}
			}
			check(t, s.(*genoa.State))
		})
	}
	games := 8
	if testing.Short() {
		games = 4
	}
	for i := range games {
		ed := []string{"alea-2001", "filosofia-2008"}[i%2]
		n := 2 + i%4
		t.Run(fmt.Sprintf("random-%s-%dp-%d", ed, n, i), func(t *testing.T) {
			s, err := r.Start(engine.Setup{Game: "genoa", Variant: ed, Players: names[:n]})
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(uint64(i), 16))
			step := 0
			defer func() { t.Logf("%d states", step+1) }()
			for ; !s.(*genoa.State).Over(); step++ {
				check(t, s.(*genoa.State))
				if t.Failed() {
					t.Fatalf("at step %d", step)
				}
				legal := s.Legal()
				if s, _, err = engine.Play(s, legal[rng.IntN(len(legal))]); err != nil {
					t.Fatal(err)
				}
			}
			check(t, s.(*genoa.State))
		})
	}
}

// atoms are the strings and numbers written in a command's JSON.
func atoms(v any, out map[string]bool) {
	switch x := v.(type) {
	case map[string]any:
		for k, y := range x {
			out[k] = true
			atoms(y, out)
		}
	case []any:
		for _, y := range x {
			atoms(y, out)
		}
	case string:
		out[x] = true
	case float64:
		out[strconv.Itoa(int(x))] = true
	}
}

// lookup finds a stepper's value in a command's JSON by the field's key:
// "ducats" is the ducats, "good:silk" the silk of the goods.
func lookup(js map[string]any, key string) (string, bool) {
	k, sub, _ := strings.Cut(key, ":")
	v, ok := js[k]
	if !ok {
		v, ok = js[k+"s"]
	}
	if !ok {
		return "", false
	}
	if sub != "" {
		m, isMap := v.(map[string]any)
		if !isMap {
			return "", false
		}
		if v, ok = m[sub]; !ok {
			return "0", true
		}
	}
	if f, isNum := v.(float64); isNum {
		return strconv.Itoa(int(f)), true
	}
	return "", false
}

func cmdJSON(c engine.Command) string {
	b, err := json.Marshal(c)
	if err != nil {
		panic(err)
	}
	return c.Name() + " " + string(b)
}

// target is a legal command to build: its JSON, decoded, and its atoms.
type target struct {
	js    string
	v     map[string]any
	atoms map[string]bool
}

func targetOf(c engine.Command) target {
	tg := target{js: cmdJSON(c), atoms: map[string]bool{}}
	b, _ := json.Marshal(c)
	_ = json.Unmarshal(b, &tg.v)
	atoms(tg.v, tg.atoms)
	return tg
}

// builds reports whether some values of a's fields build the command
// want: the values are searched among a's options and the amounts written
// in want. An action about a square or a card builds only commands that
// name it, when want names any of targets.
func builds(a kit.Action, want target, targets map[string]bool) bool {
	if a.Target != "" && !want.atoms[a.Target] {
		for x := range want.atoms {
			if targets[x] {
				return false
			}
		}
	}
	cands := make([][]string, len(a.Fields))
	for i, f := range a.Fields {
		if len(f.Options) > 0 {
			for j, o := range f.Options {
				if len(f.Options) <= 4 || j == 0 || want.atoms[o.Value] {
					cands[i] = append(cands[i], o.Value)
				}
			}
			continue
		}
		if v, ok := lookup(want.v, f.Key); ok {
			cands[i] = []string{v}
		} else {
			cands[i] = []string{"0", strconv.Itoa(f.Value)}
		}
	}
	values := map[string]string{}
	var try func(i int) bool
	try = func(i int) bool {
		if i == len(a.Fields) {
			c, err := a.Build(values)
			return err == nil && c.Name() == want.js[:len(c.Name())] && cmdJSON(c) == want.js
		}
		for _, v := range cands[i] {
			values[a.Fields[i].Key] = v
			if try(i + 1) {
				return true
			}
		}
		return false
	}
	return try(0)
}

// TestActionsReachEveryLegalCommand: every legal command of each seat is
// built by exactly one of that seat's actions, played as that seat, and
// every draw the table waits for by exactly one action of one phone,
// played as the table.
func TestActionsReachEveryLegalCommand(t *testing.T) {
	visit(t, func(t *testing.T, s *genoa.State) {
		n := len(s.Setup().Players)
		all := make([][]kit.Action, n)
		// What each action builds, to try only the actions of the legal
		// command's kind.
		kind := map[string]string{}
		targets := map[string]bool{}
		for seat := range n {
			all[seat] = play.Actions(s, engine.Seat(seat))
			ids := map[string]bool{}
			for _, a := range all[seat] {
				if ids[a.ID] {
					t.Errorf("seat %d: action ID %q twice", seat, a.ID)
				}
				ids[a.ID] = true
				targets[a.Target] = a.Target != ""
				if c, err := a.Build(nil); err == nil {
					kind[fmt.Sprint(seat, a.ID)] = c.Name()
				}
			}
		}
		for _, l := range s.Legal() {
			want := targetOf(l.Cmd)
			var found []string
			for seat, acts := range all {
				if l.By != engine.NoSeat && engine.Seat(seat) != l.By {
					continue
				}
				for _, a := range acts {
					if k, ok := kind[fmt.Sprint(seat, a.ID)]; ok && k != l.Cmd.Name() {
						continue
					}
					if a.By == l.By && builds(a, want, targets) {
						found = append(found, fmt.Sprintf("seat %d %s", seat, a.ID))
					}
				}
			}
			if len(found) != 1 {
				t.Errorf("legal %s by %v: built by %d actions %v, want 1", cmdJSON(l.Cmd), l.By, len(found), found)
			}
		}
	})
}

// TestActionDefaultsAreDecided: each action's command with the values the
// page starts from is accepted, or refused by the rules with words for
// players (a card drawn that is in another hand, a deal beyond the
// payer's secret money), never an error that is not a refusal.
func TestActionDefaultsAreDecided(t *testing.T) {
	refusedAt := map[string]int{}
	total := 0
	visit(t, func(t *testing.T, s *genoa.State) {
		for seat := range len(s.Setup().Players) {
			for _, a := range play.Actions(s, engine.Seat(seat)) {
				total++
				cmd, err := a.Build(map[string]string{})
				if err != nil {
					t.Errorf("%s: Build(defaults): %v", a.ID, err)
					continue
				}
				_, err = s.Decide(engine.Action{By: a.By, Cmd: cmd})
				if err == nil {
					continue
				}
				ref, ok := engine.AsRefusal(err)
				if !ok || ref.EN == "" || ref.FR == "" {
					t.Errorf("%s: %s refused without words: %v", a.ID, cmdJSON(cmd), err)
				}
				group := a.Group
				refusedAt[group]++
				if group != "draw" && group != "deal" {
					t.Errorf("%s by %v: the default %s is refused: %v", a.ID, a.By, cmdJSON(cmd), err)
				}
			}
		}
	})
	t.Logf("%d actions, refused with their defaults: %v", total, refusedAt)
}

// Notation in words for people: a command, a square's key, a grid cell, a
// card's ID.
var notationRE = regexp.MustCompile(`=|\b[1-8]-[1-8]\b|\b[LSMC][0-9][0-9]\b|\b(guild-hall|town-hall|post-office|cathedral|villa-[a-z]+|warehouse-[a-z]+|trattoria|taverna|palazzo|harbour|park|coach-house|large-order|small-order)\b`)

// TestActionWords: every label, field label, unit and option label is
// set in both languages, holds no notation, and an action's label differs
// between French and English.
func TestActionWords(t *testing.T) {
	seen := map[string]bool{}
	visit(t, func(t *testing.T, s *genoa.State) {
		check := func(what string, x kit.Text, differ bool) {
			if x.EN == "" || x.FR == "" {
				t.Errorf("%s: %+v: a language is missing", what, x)
			}
			for _, w := range []string{x.EN, x.FR} {
				if m := notationRE.FindString(w); m != "" {
					t.Errorf("%s: %q holds notation %q", what, w, m)
				}
			}
			if differ && x.EN == x.FR {
				t.Errorf("%s: %q is the same in French and English", what, x.EN)
			}
		}
		for seat := range len(s.Setup().Players) {
			for _, a := range play.Actions(s, engine.Seat(seat)) {
				seen[a.Group] = true
				check(a.ID, a.Label, true)
				for _, f := range a.Fields {
					check(a.ID+" field "+f.Key, f.Label, false)
					if len(f.Options) == 0 {
						check(a.ID+" unit "+f.Key, f.Unit, false)
						check(a.ID+" units "+f.Key, f.Units, false)
						if f.Min > f.Value || f.Value > f.Max {
							t.Errorf("%s field %s: %d not in %d..%d", a.ID, f.Key, f.Value, f.Min, f.Max)
						}
					}
					for _, o := range f.Options {
						check(a.ID+" option "+o.Value, o.Label, false)
					}
				}
			}
		}
	})
	for _, g := range []string{"draw", "roll", "move", "deal", "offer", "accept", "act", "end", "acquire", "pass"} {
		if !seen[g] {
			t.Errorf("no %q action in the games played: the test did not see it", g)
		}
	}
}

// TestPrompt: the prompt names the waiting player to everyone else and
// speaks to that player directly, in both languages, with the right
// plurals.
func TestPrompt(t *testing.T) {
	visit(t, func(t *testing.T, s *genoa.State) {
		w := s.Waiting()
		players := s.Setup().Players
		viewers := []engine.Seat{engine.NoSeat, engine.Staff}
		for i := range players {
			viewers = append(viewers, engine.Seat(i))
		}
		for _, v := range viewers {
			p := play.Prompt(s, v)
			if p.EN == "" || p.FR == "" || p.EN == p.FR {
				t.Fatalf("Prompt(%v) = %+v", v, p)
			}
			for _, bad := range []string{"1 moves", "1 déplacements", "0 déplacements", "(s)"} {
				if strings.Contains(p.EN+p.FR, bad) {
					t.Errorf("Prompt(%v) = %+v: %q", v, p, bad)
				}
			}
			if len(w) == 0 {
				continue
			}
			name := players[w[0]] + ", "
			if v == w[0] && (strings.HasPrefix(p.EN, name) || strings.HasPrefix(p.FR, name)) {
				t.Errorf("Prompt(%v) = %+v: the waiting player is spoken to, not named", v, p)
			}
			if v != w[0] && (!strings.HasPrefix(p.EN, name) || !strings.HasPrefix(p.FR, name)) {
				t.Errorf("Prompt(%v) = %+v: does not name %s, whom the game waits for", v, p, players[w[0]])
			}
		}
	})
}

// start returns a 3-player game after the starting hands are dealt.
func start(t *testing.T, edition string) engine.State {
	t.Helper()
	s, err := genoa.New().Start(engine.Setup{Game: "genoa", Variant: edition, Players: names[:3]})
	if err != nil {
		t.Fatal(err)
	}
	for len(s.Waiting()) > 0 && s.View(engine.NoSeat).(genoa.View).Drawing != nil {
		s = tap(t, s, s.View(engine.NoSeat).(genoa.View).Drawing.Seat, "draw", nil)
	}
	return s
}

// tap plays the action id of seat's phone with values, as the dashboard
// would, drawing a card that is still in the deck.
func tap(t *testing.T, s engine.State, seat engine.Seat, id string, values map[string]string) engine.State {
	t.Helper()
	a, err := kit.Find(play.Actions(s, seat), id)
	if err != nil {
		t.Fatalf("seat %d has no action %q: %v", seat, id, ids(s, seat))
	}
	if id == "draw" && values == nil {
		for _, o := range a.Fields[0].Options {
			cmd, _ := a.Build(map[string]string{"card": o.Value})
			if _, err := s.Decide(engine.Action{By: a.By, Cmd: cmd}); err == nil {
				values = map[string]string{"card": o.Value}
				break
			}
		}
	}
	cmd, err := a.Build(values)
	if err != nil {
		t.Fatalf("%s: %v", id, err)
	}
	next, _, err := engine.Play(s, engine.Action{By: a.By, Cmd: cmd})
	if err != nil {
		t.Fatalf("%s %v: %v", id, values, err)
	}
	return next
}

func ids(s engine.State, seat engine.Seat) []string {
	var out []string
	for _, a := range play.Actions(s, seat) {
		out = append(out, a.ID)
	}
	return out
}

// TestATurnByTaps plays the start of a turn from the phones only and
// checks the prompts and the labels on the way, word for word.
func TestATurnByTaps(t *testing.T) {
	s := start(t, "filosofia-2008")
	for _, tc := range []struct {
		viewer engine.Seat
		en, fr string
	}{
		{0, "Roll the dice", "Lancez les dés"},
		{1, "Anna, roll the dice", "Anna, lancez les dés"},
		{engine.NoSeat, "Anna, roll the dice", "Anna, lancez les dés"},
	} {
		if p := play.Prompt(s, tc.viewer); p.EN != tc.en || p.FR != tc.fr {
			t.Errorf("Prompt(%v) = %+v, want %q / %q", tc.viewer, p, tc.en, tc.fr)
		}
	}
	if got := ids(s, 1); len(got) != 0 {
		t.Errorf("Bruno's actions before the roll: %v, want none", got)
	}
	// Blue 2, red 2 is a street; its neighbours include Villa Monetti.
	s = tap(t, s, 0, "roll", map[string]string{"blue": "2", "red": "2"})
	want := []struct {
		moves  int
		en, fr string
	}{{4, "4 moves left", "4 déplacements restants"}, {3, "3 moves left", "3 déplacements restants"}, {2, "2 moves left", "2 déplacements restants"}, {1, "1 move left", "1 déplacement restant"}}
	for i, w := range want {
		p := play.Prompt(s, 1)
		if !strings.Contains(p.EN, "("+w.en+")") || !strings.Contains(p.FR, "("+w.fr+")") {
			t.Errorf("after %d moves: Prompt(Bruno) = %+v, want %q / %q", i, p, w.en, w.fr)
		}
		// Move to a street next to the pawn, to stay free of offers.
		var next string
		for _, a := range play.Actions(s, 0) {
			if a.Group == "move" && strings.Contains(a.Label.EN, "street") && !strings.Contains(a.Label.EN, "moves)") {
				next = a.ID
				break
			}
		}
		if next == "" {
			t.Fatalf("no street next to the pawn: %v", ids(s, 0))
		}
		s = tap(t, s, 0, next, nil)
	}
	if p := play.Prompt(s, 0); p.EN != "End the movement" || p.FR != "Terminez le déplacement" {
		t.Errorf("after 4 moves: Prompt(Anna) = %+v", p)
	}
	// Nobody holds a marker yet: the acquisition is skipped, Bruno is
	// the next merchant.
	s = tap(t, s, 0, "end", nil)
	if p := play.Prompt(s, engine.NoSeat); p.EN != "Bruno, roll the dice" || p.FR != "Bruno, lancez les dés" {
		t.Errorf("next turn: Prompt(table) = %+v", p)
	}
}

// TestDealNeedsConsent: the merchant's deal takes the other player's
// ducats, so that player must accept it; the player's own proposal of a
// deal moves the merchant's pawn, so the merchant must accept it; an
// offer, its acceptance, a move need nobody.
func TestDealNeedsConsent(t *testing.T) {
	s := start(t, "alea-2001")
	s = tap(t, s, 0, "roll", map[string]string{"blue": "2", "red": "2"})
	var deal kit.Action
	for _, a := range play.Actions(s, 0) {
		if a.Group == "deal" && strings.HasPrefix(a.ID, "deal:1:") {
			deal = a
			break
		}
	}
	if deal.ID == "" {
		t.Fatalf("the merchant has no deal with Bruno: %v", ids(s, 0))
	}
	if !strings.HasPrefix(deal.Label.EN, "Deal with Bruno: Bruno pays, the merchant goes to ") {
		t.Errorf("deal label %q", deal.Label.EN)
	}
	if deal.Fields[0].Key != "ducats" || deal.Fields[0].Max != ducatsMax {
		t.Errorf("deal's ducats field %+v: its top must not tell Bruno's money", deal.Fields[0])
	}
	cmd, err := deal.Build(map[string]string{"ducats": "12"})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmd.(genoa.Deal); d.From != 1 || d.Ducats != 12 {
		t.Errorf("deal built %+v", d)
	}
	if _, err := deal.Build(map[string]string{"ducats": "-1"}); !errors.Is(err, engine.ErrIllegal) {
		t.Errorf("ducats -1: %v, want a refusal", err)
	}
	// Bruno's own phone proposes a deal for the same square, up to his
	// money, played as the table once Anna accepts.
	to := strings.TrimPrefix(deal.ID, "deal:1:")
	prop, err := kit.Find(play.Actions(s, 1), "propose:"+to)
	if err != nil {
		t.Fatalf("Bruno cannot propose a deal for %s: %v", to, ids(s, 1))
	}
	if prop.By != engine.NoSeat || prop.Target != to || prop.Fields[0].Max != s.View(1).(genoa.View).Mine.Ducats {
		t.Errorf("Bruno's proposal %+v", prop)
	}
	pcmd, err := prop.Build(map[string]string{"ducats": "7"})
	if err != nil {
		t.Fatal(err)
	}
	if d := pcmd.(genoa.Deal); d.From != 1 || d.Ducats != 7 || string(d.To) != to {
		t.Errorf("proposal built %+v", d)
	}
	if _, err := s.Decide(engine.Action{By: prop.By, Cmd: pcmd}); err != nil {
		t.Errorf("the accepted proposal is refused: %v", err)
	}
	for _, tc := range []struct {
		a    engine.Action
		want []engine.Seat
	}{
		{engine.Action{By: prop.By, Cmd: pcmd}, []engine.Seat{0}},
		{engine.Action{By: 0, Cmd: cmd}, []engine.Seat{1}},
		{engine.Action{By: engine.NoSeat, Cmd: cmd}, []engine.Seat{0}},
		{engine.Action{By: engine.Staff, Cmd: cmd}, nil},
		{engine.Action{By: 0, Cmd: genoa.Move{To: "3-2"}}, nil},
		{engine.Action{By: 1, Cmd: genoa.Offer{Ducats: 5}}, nil},
		{engine.Action{By: 0, Cmd: genoa.Accept{From: 1}}, nil},
	} {
		if got := play.Consent(s, tc.a); !slices.Equal(got, tc.want) {
			t.Errorf("Consent(%s by %v) = %v, want %v", cmdJSON(tc.a.Cmd), tc.a.By, got, tc.want)
		}
	}
}

// TestUndoable: moves, offers, deals and acquisitions may be taken back;
// the dice, a card drawn and a card shown may not.
func TestUndoable(t *testing.T) {
	s := start(t, "alea-2001")
	check := func(what string, s engine.State, a engine.Action, want bool) {
		t.Helper()
		_, evs, err := engine.Play(s, a)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if got := play.Undoable(s, a, evs); got != want {
			t.Errorf("Undoable(%s) = %v, want %v", what, got, want)
		}
	}
	check("roll", s, engine.Action{By: 0, Cmd: genoa.Roll{Blue: 2, Red: 2}}, false)
	s2, _, err := engine.Play(s, engine.Action{By: 0, Cmd: genoa.Roll{Blue: 2, Red: 2}})
	if err != nil {
		t.Fatal(err)
	}
	check("move", s2, engine.Action{By: 0, Cmd: genoa.Move{To: "3-2"}}, true)
	check("end", s2, engine.Action{By: 0, Cmd: genoa.End{}}, true)
	check("deal", s2, engine.Action{By: 0, Cmd: genoa.Deal{From: 1, To: "3-2", Ducats: 5}}, true)
	mine := s2.View(1).(genoa.View).Mine.Cards[0]
	check("deal with a card", s2, engine.Action{By: 0, Cmd: genoa.Deal{From: 1, To: "3-2", Cards: []string{mine}}}, false)
	check("staff correction", s2, engine.Action{By: engine.Staff, Cmd: genoa.Move{To: "3-2"}}, false)
	// A card drawn, played as the table.
	s0, err := genoa.New().Start(engine.Setup{Game: "genoa", Variant: "alea-2001", Players: names[:3]})
	if err != nil {
		t.Fatal(err)
	}
	a := play.Actions(s0, 0)[0]
	cmd, _ := a.Build(nil)
	check("draw", s0, engine.Action{By: a.By, Cmd: cmd}, false)
}

// TestDrawOnTheDrawersPhone: the card drawn is chosen on the drawing
// player's phone only, by name, among every card of the deck that player
// does not hold (cards in other hands included, so that the list tells
// nothing of them).
func TestDrawOnTheDrawersPhone(t *testing.T) {
	s, err := genoa.New().Start(engine.Setup{Game: "genoa", Variant: "filosofia-2008", Players: names[:3]})
	if err != nil {
		t.Fatal(err)
	}
	g := s.(*genoa.State)
	for range 5 { // Anna's four cards, then Bruno's first
		s = tap(t, s, s.View(engine.NoSeat).(genoa.View).Drawing.Seat, "draw", nil)
	}
	d := s.View(engine.NoSeat).(genoa.View).Drawing
	if d.Seat != 1 {
		t.Fatalf("drawing: %+v, want Bruno", d)
	}
	for seat, want := range []int{0, 1, 0} {
		if got := len(play.Actions(s, engine.Seat(seat))); got != want {
			t.Errorf("seat %d has %d actions while Bruno draws, want %d", seat, got, want)
		}
	}
	a := play.Actions(s, 1)[0]
	if a.ID != "draw" || a.By != engine.NoSeat {
		t.Fatalf("Bruno's action %+v", a)
	}
	var opts []string
	for _, o := range a.Fields[0].Options {
		opts = append(opts, o.Value)
	}
	deck := g.DeckCards(d.Deck)
	if !slices.Equal(opts, deck) {
		t.Errorf("Bruno's choices %v, want the whole %s deck %v (Anna's card included)", opts, d.Deck, deck)
	}
	if want := "I drew a " + genoa.DeckName(d.Deck, "en") + " card"; a.Label.EN != want {
		t.Errorf("label %q, want %q", a.Label.EN, want)
	}
}

func TestCount(t *testing.T) {
	for _, tc := range []struct {
		n        int
		lang, is string
	}{
		{0, "en", "0 moves"}, {1, "en", "1 move"}, {2, "en", "2 moves"},
		{0, "fr", "0 déplacement"}, {1, "fr", "1 déplacement"}, {2, "fr", "2 déplacements"},
	} {
		one, many := "move", "moves"
		if tc.lang == "fr" {
			one, many = "déplacement", "déplacements"
		}
		if got := genoa.Count(tc.n, one, many, tc.lang); got != tc.is {
			t.Errorf("Count(%d, %s) = %q, want %q", tc.n, tc.lang, got, tc.is)
		}
	}
}

// TestWaitingSeatHasAnAction: whenever the game waits for a seat, that
// seat's phone has something to tap (no step is left to a card reader or
// a dice camera).
func TestWaitingSeatHasAnAction(t *testing.T) {
	visit(t, func(t *testing.T, s *genoa.State) {
		for _, w := range s.Waiting() {
			if len(play.Actions(s, w)) == 0 {
				t.Errorf("the game waits for seat %d, whose phone has no action (%+v)", w, s.View(engine.NoSeat).(genoa.View).Drawing)
			}
		}
	})
}

// TestRoundsByTapsOnly plays games from the deal of the hands by tapping
// only: each step, a phone the game waits for taps one of its actions
// (seeded choice), with values picked among its options and steppers; a
// refused tap is followed by another. Every game must get through two
// rounds, and every deal is played only once its payer accepted.
func TestRoundsByTapsOnly(t *testing.T) {
	for i, tc := range []struct {
		edition string
		players int
	}{{"alea-2001", 3}, {"filosofia-2008", 2}, {"filosofia-2008", 4}, {"alea-2001", 5}} {
		t.Run(fmt.Sprintf("%s-%dp", tc.edition, tc.players), func(t *testing.T) {
			s, err := genoa.New().Start(engine.Setup{Game: "genoa", Variant: tc.edition, Players: names[:tc.players]})
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(uint64(i), 3))
			taps, refused, consents := 0, 0, 0
			for s.(*genoa.State).Round < 3 {
				if taps > 3000 {
					t.Fatalf("round %d after %d taps (%d refused)", s.(*genoa.State).Round, taps, refused)
				}
				w := s.Waiting()[0]
				acts := play.Actions(s, w)
				// Another phone sometimes acts first (an offer, a tile).
				if o := engine.Seat(rng.IntN(tc.players)); o != w && rng.IntN(4) == 0 {
					if more := play.Actions(s, o); len(more) > 0 {
						acts = more
					}
				}
				a := acts[rng.IntN(len(acts))]
				values := map[string]string{}
				for _, f := range a.Fields {
					switch {
					case len(f.Options) > 0:
						values[f.Key] = f.Options[rng.IntN(len(f.Options))].Value
					case rng.IntN(2) == 0:
						values[f.Key] = strconv.Itoa(f.Min + rng.IntN(min(f.Max, 20)-f.Min+1))
					}
				}
				taps++
				cmd, err := a.Build(values)
				if err != nil {
					refused++
					continue
				}
				act := engine.Action{By: a.By, Cmd: cmd}
				if who := play.Consent(s, act); len(who) > 0 {
					consents++
					d := cmd.(genoa.Deal)
					want := d.From // the merchant's deal: the payer accepts
					if a.By == engine.NoSeat {
						want = s.(*genoa.State).Merchant // the payer's proposal: the merchant accepts
					}
					if !slices.Equal(who, []engine.Seat{want}) {
						t.Fatalf("consent for %s by %v: %v, want %v", cmdJSON(cmd), a.By, who, want)
					}
					if rng.IntN(3) == 0 {
						continue // the payer refuses: nothing is played
					}
				}
				next, _, err := engine.Play(s, act)
				if err != nil {
					if _, ok := engine.AsRefusal(err); !ok {
						t.Fatalf("%s: %v", cmdJSON(cmd), err)
					}
					refused++
					continue
				}
				s = next
			}
			t.Logf("two rounds in %d taps, %d refused, %d deals asked for consent", taps, refused, consents)
		})
	}
}
