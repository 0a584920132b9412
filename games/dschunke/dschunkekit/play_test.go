package dschunkekit

import (
	"encoding/json"
	"errors"
	"maps"
	"math/rand"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"comptoir/engine"
	"comptoir/games/dschunke"
	"comptoir/games/dschunke/dschunketest"
	"comptoir/games/kit"
)

var (
	players3 = []string{"Anna", "Bruno", "Chloé"}
	players4 = []string{"Anna", "Bruno", "Chloé", "David"}
)

func startGame(t *testing.T, players []string) *dschunke.State {
	t.Helper()
	s, err := dschunke.New().Start(engine.Setup{Game: dschunke.Name, Players: players})
	if err != nil {
		t.Fatal(err)
	}
	return s.(*dschunke.State)
}

// randomStates plays a seeded game by uniform choice among Legal and
// calls visit on every state met, the last (over) included.
func randomStates(t *testing.T, players []string, seed int64, visit func(s *dschunke.State)) {
	t.Helper()
	rng := rand.New(rand.NewSource(seed))
	s := startGame(t, players)
	for steps := 0; ; steps++ {
		visit(s)
		if s.Over() {
			return
		}
		if steps > 5000 {
			t.Fatalf("seed %d: not over after %d actions", seed, steps)
		}
		legal := s.Legal()
		next, _, err := engine.Play(s, legal[rng.Intn(len(legal))])
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		s = next.(*dschunke.State)
	}
}

// format writes a command in the notation, to compare commands.
func format(s *dschunke.State, c engine.Command) string {
	return dschunke.New().Codec().FormatCommand(c, s.Setup().Players)
}

// valuesFor gives the values of the fields that should build c: a
// starting hand's goods card by card, the bundle of goods cards taken or
// restocked, the goods counts of a bid or an exchange (give-, take-),
// every goods absent at 0, the palettes' places, the market card, the
// pile and the card (by its first card of the same name).
func valuesFor(d *dschunke.Data, c engine.Command) map[string]string {
	v := map[string]string{}
	goods := func(prefix string, m map[string]int) {
		for _, g := range d.Goods {
			v[prefix+g.Key] = strconv.Itoa(m[g.Key])
		}
	}
	bundle := func(m map[string]int) {
		var l []string
		for _, g := range d.Goods {
			if n := m[g.Key]; n > 0 {
				l = append(l, g.Key+strconv.Itoa(n))
			}
		}
		v["goods"] = strings.Join(l, ",")
	}
	switch c := c.(type) {
	case dschunke.Hand:
		k := 1
		for _, g := range d.Goods {
			for range c.Goods[g.Key] {
				v["card"+strconv.Itoa(k)] = g.Key
				k++
			}
		}
	case dschunke.Reveal:
		v["market"] = c.Market
	case dschunke.Exchange:
		goods("give-", c.Give)
		goods("take-", c.Take)
	case dschunke.Draw:
		v["pile"], v["card"] = c.Pile, kindOf(d, c.Card)
	case dschunke.Load:
		v["at"] = atValue(c.At)
	case dschunke.Take:
		bundle(c.Goods)
	case dschunke.Restock:
		bundle(c.Goods)
	case dschunke.Bid:
		goods("", c.Goods)
	case dschunke.Play:
		bundle(c.Goods)
		v["at"] = atValue(c.At)
		if c.From != "" {
			v["from"] = c.From + ":" + strconv.Itoa(c.Slot)
			v["to"] = c.Junk + ":" + atValue(c.At)
		}
	}
	return v
}

// kindOf is the option value of card id: its kind, by the first card of
// its name.
func kindOf(d *dschunke.Data, id string) string {
	first, _ := d.SpecialIndex(firstOfName(d, id))
	return kindValue(first)
}

func firstOfName(d *dschunke.Data, id string) string {
	i, _ := d.SpecialIndex(id)
	for k, c := range d.Special {
		if d.CardName(k, "en") == d.CardName(i, "en") {
			return c.ID
		}
	}
	return id
}

// same reports whether got is the command want, a special card by its
// name (cards of one name are the same card to the rules), two palettes
// laid in one layer in either order (the same hold after).
func same(s *dschunke.State, by engine.Seat, got, want engine.Command) bool {
	if g, ok := got.(dschunke.Draw); ok {
		w, ok := want.(dschunke.Draw)
		return ok && g.Pile == w.Pile && firstOfName(s.Data(), g.Card) == firstOfName(s.Data(), w.Card)
	}
	if format(s, got) == format(s, want) {
		return true
	}
	g, ok1 := got.(dschunke.Load)
	w, ok2 := want.(dschunke.Load)
	if !ok1 || !ok2 || g.With != w.With || g.Junk != w.Junk {
		return false
	}
	a, _, err1 := engine.Play(s, engine.Action{By: by, Cmd: got})
	b, _, err2 := engine.Play(s, engine.Action{By: by, Cmd: want})
	return err1 == nil && err2 == nil && a.(*dschunke.State).String() == b.(*dschunke.State).String()
}

// defaults are an action's fields at their starting values.
func defaults(a kit.Action) map[string]string {
	v := map[string]string{}
	for _, f := range a.Fields {
		if len(f.Options) > 0 {
			v[f.Key] = f.Options[0].Value
		} else {
			v[f.Key] = strconv.Itoa(f.Value)
		}
	}
	return v
}

// notation matches what players must never read: an argument (=), a
// goods count (fish:2), a grid cell (4-2), a pawn's name in commands, a
// card's or a pile's key, a placeholder left over.
func notation(d *dschunke.Data) *regexp.Regexp {
	words := []string{`=`, `\w+:\d`, `\d-\d`, `\bhelper2\b`, `\bwith \w+=`, `[{}]`, `%!`}
	for _, c := range d.Market {
		words = append(words, regexp.QuoteMeta(c.ID))
	}
	for _, c := range d.Special {
		words = append(words, `\b`+regexp.QuoteMeta(c.ID)+`\b`)
	}
	for _, c := range d.Restock {
		words = append(words, regexp.QuoteMeta(c.ID))
	}
	return regexp.MustCompile(strings.Join(words, "|"))
}

// badCounts lists the counts of goods in x, in either language, that
// are not of cards agreeing with their number (dschunketest.Counts).
func badCounts(d *dschunke.Data, x kit.Text) []string {
	var names []string
	for _, g := range d.Goods {
		names = append(names, g.FR, g.EN)
	}
	c := dschunketest.NewCounts(names...)
	return append(c.Bad(x.FR), c.Bad(x.EN)...)
}

// TestBadCounts: the check of counts of goods finds the wrong forms and
// only them; the phone's bundles of goods cards pass it.
func TestBadCounts(t *testing.T) {
	s := startGame(t, players4)
	g := game{d: s.Data()}
	for _, tt := range []struct {
		name string
		x    kit.Text
		bad  int
	}{
		{"bare names", tx("1 légumes, 2 poisson", "1 vegetables, 2 spices"), 4},
		{"wrong number", tx("1 cartes riz, 2 carte poisson", "2 fish card, 1 RICE CARDS"), 4},
		{"cards", tx("1 carte légumes, 0 carte riz, 3 CARTES POISSON", "1 vegetables card, 0 rice cards, 3 FISH CARDS"), 0},
		{"prices", tx("poisson 2 · riz 1", "fish 2 · rice 1"), 0},
		{"bundle", g.bundle(map[string]int{"fish": 1, "vegetables": 2}), 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := badCounts(s.Data(), tt.x); len(got) != tt.bad {
				t.Errorf("%+v: bad counts %q, want %d", tt.x, got, tt.bad)
			}
		})
	}
	if got, want := g.bundle(map[string]int{"fish": 1, "vegetables": 2}), tx("1 carte poisson, 2 cartes légumes", "1 fish card, 2 vegetables cards"); got != want {
		t.Errorf("bundle %+v, want %+v", got, want)
	}
}

// texts lists every text of an action a player reads.
func texts(a kit.Action) []kit.Text {
	out := []kit.Text{a.Label}
	for _, f := range a.Fields {
		out = append(out, f.Label)
		if len(f.Options) == 0 {
			out = append(out, f.Unit, f.Units)
		}
		for _, o := range f.Options {
			out = append(out, o.Label)
		}
	}
	return out
}

// owner is the seat whose phone does the table's legal action a: the
// first player turns the market card over, the player taking a special
// card says which, and each player records their own starting hand.
func owner(s *dschunke.State, a engine.Action) engine.Seat {
	v := s.View(engine.NoSeat).(dschunke.View)
	switch a.Cmd.(type) {
	case dschunke.Reveal:
		return v.First
	case dschunke.Hand:
		return v.Waiting[0]
	}
	return v.Turn
}

// TestActionsOverRandomGames plays seeded games of 3 and 4 players and
// checks, in every state, every seat's actions: no other seat's secret
// special card named by its id; unique IDs; texts in both languages,
// different, with no notation; every legal action of the seat, and of the
// table that the seat's phone does, built by exactly one action from
// some values; a player's step asks to be confirmed exactly when it
// cannot be taken back; every action's default values make a command the
// rules accept (a starting hand may be refused as short of cards, with a
// reason); a seat with nothing to do has no action.
func TestActionsOverRandomGames(t *testing.T) {
	for _, tt := range []struct {
		players []string
		seed    int64
	}{
		{players3, 1}, {players3, 41}, {players4, 2}, {players4, 42},
	} {
		t.Run(strconv.Itoa(len(tt.players))+"p-seed"+strconv.FormatInt(tt.seed, 10), func(t *testing.T) {
			states, acts := 0, 0
			kinds := map[string]bool{}
			randomStates(t, tt.players, tt.seed, func(s *dschunke.State) {
				states++
				bad := notation(s.Data())
				legal := s.Legal()
				bySeat := make([][]kit.Action, len(tt.players))
				secrets := s.View(engine.Staff).(dschunke.View).StaffSecrets
				for seat := range tt.players {
					as := actions(s, engine.Seat(seat))
					bySeat[seat] = as
					// No other seat's secret special card, by its id.
					raw, err := json.Marshal(as)
					if err != nil {
						t.Fatal(err)
					}
					for _, p := range secrets {
						for _, id := range p.Special {
							if int(p.Seat) != seat && strings.Contains(string(raw), `"`+id+`"`) {
								t.Fatalf("seat %d's actions name %s, seat %d's secret card: %s", seat, id, p.Seat, raw)
							}
						}
					}
					acts += len(as)
					ids := map[string]bool{}
					for _, a := range as {
						kinds[strings.SplitN(a.ID, ":", 2)[0]] = true
						if ids[a.ID] {
							t.Fatalf("%s: two actions %q for seat %d", s, a.ID, seat)
						}
						ids[a.ID] = true
						if a.Build == nil || a.Group == "" {
							t.Fatalf("action %q: no Build or no Group", a.ID)
						}
						for _, x := range texts(a) {
							if x.FR == "" || x.EN == "" || x.FR == x.EN {
								t.Errorf("action %q: text %+v not in both languages", a.ID, x)
							}
							if m := bad.FindString(x.FR + " | " + x.EN); m != "" {
								t.Errorf("action %q: notation %q in %+v", a.ID, m, x)
							}
							if b := badCounts(s.Data(), x); len(b) > 0 {
								t.Errorf("action %q: counts of goods %q in %+v", a.ID, b, x)
							}
						}
						for _, f := range a.Fields {
							if f.Key == "" || (len(f.Options) == 0 && (f.Min > f.Value || f.Value > f.Max)) {
								t.Errorf("action %q: field %+v has no key or its value is out of range", a.ID, f)
							}
						}
						cmd, err := a.Build(defaults(a))
						if err != nil {
							t.Fatalf("action %q: default values: %v", a.ID, err)
						}
						evs, err := s.Decide(engine.Action{By: a.By, Cmd: cmd})
						if err == nil && a.By >= 0 && a.Confirm == undoable(s, engine.Action{By: a.By, Cmd: cmd}, evs) {
							t.Errorf("action %q: confirm %v, but undoable %v", a.ID, a.Confirm, !a.Confirm)
						}
						if a.ID == "bid:none" && a.Confirm != (len(s.Waiting()) == 1) {
							t.Errorf("bid, %d still to bid: confirm %v", len(s.Waiting()), a.Confirm)
						}
						if err != nil {
							var r *engine.Refusal
							if !(a.ID == "hand" && errors.As(err, &r) && errors.Is(err, dschunke.ErrDealShort) && r.FR != "") {
								t.Fatalf("%s\naction %q by %d: default command %s refused: %v", s, a.ID, seat, format(s, cmd), err)
							}
						}
					}
				}
				for _, l := range legal {
					seat := l.By
					if seat == engine.NoSeat {
						seat = owner(s, l)
					}
					// The values, and for two palettes the other order
					// (one choice when it makes no difference).
					candidates := []map[string]string{valuesFor(s.Data(), l.Cmd)}
					if c, ok := l.Cmd.(dschunke.Load); ok && !slices.IsSorted(c.At) {
						c.At = slices.Sorted(slices.Values(c.At))
						candidates = append(candidates, valuesFor(s.Data(), c))
					}
					var found []string
					for _, a := range bySeat[seat] {
						if a.By != l.By && !(l.By == engine.NoSeat && a.By == seat && a.ID == "hand") {
							continue
						}
						for _, values := range candidates {
							in := map[string]string{}
							for _, f := range a.Fields {
								if x, ok := values[f.Key]; ok {
									in[f.Key] = x
								}
							}
							if cmd, err := a.Build(in); err == nil && same(s, l.By, cmd, l.Cmd) {
								found = append(found, a.ID)
								break
							}
						}
					}
					if len(found) != 1 {
						t.Fatalf("%s\nlegal %s by %d: built by %d actions %v of seat %d, want 1", s, format(s, l.Cmd), l.By, len(found), found, seat)
					}
				}
				for seat, as := range bySeat {
					if len(as) > 0 && !slices.Contains(s.Waiting(), engine.Seat(seat)) {
						t.Errorf("%s\nseat %d has actions %d but the game does not wait for it", s, seat, len(as))
					}
				}
			})
			for _, k := range []string{"hand", "reveal", "bid", "load", "income", "take", "restock", "pass"} {
				if !kinds[k] {
					t.Errorf("no %q action met in %d states", k, states)
				}
			}
			t.Logf("%d states, %d actions, kinds %v", states, acts, kinds)
		})
	}
}

// TestDrawOffersNoSecret: the special cards a player may say they took
// are the cards not known to be out of the piles from that player's
// view; a card another player holds in secret is still offered.
func TestDrawOffersNoSecret(t *testing.T) {
	met := 0
	for _, seed := range []int64{1, 2, 3, 41, 42} {
		randomStates(t, players4, seed, func(s *dschunke.State) {
			v := s.View(engine.Staff).(dschunke.View)
			if v.Phase != "draw" {
				return
			}
			as := actions(s, v.Turn)
			if len(as) != 1 || as[0].ID != "draw" {
				t.Fatalf("draw: actions %v", as)
			}
			var offered []string
			for _, o := range as[0].Fields[1].Options {
				offered = append(offered, o.Label.EN)
			}
			for _, p := range v.StaffSecrets {
				if p.Seat == v.Turn {
					continue
				}
				for _, id := range p.Special {
					i, _ := s.Data().SpecialIndex(id)
					met++
					if name := upper(s.Data().CardName(i, "en")); !slices.Contains(offered, name) {
						t.Errorf("%s holds %s in secret: not offered to %d (%v), which tells it", p.Seat, name, v.Turn, offered)
					}
				}
			}
		})
	}
	if met == 0 {
		t.Fatal("no secret card met while drawing")
	}
}

// TestDrawRefusesACardNotInThePiles: a card of a name whose cards are all
// out of the piles is refused, in both languages.
func TestDrawRefusesACardNotInThePiles(t *testing.T) {
	checked := false
	randomStates(t, players4, 42, func(s *dschunke.State) {
		v := s.View(engine.Staff).(dschunke.View)
		if checked || v.Phase != "draw" {
			return
		}
		a := actions(s, v.Turn)[0]
		for _, p := range v.StaffSecrets {
			if p.Seat == v.Turn || len(p.Special) == 0 {
				continue
			}
			id := p.Special[0]
			i, _ := s.Data().SpecialIndex(id)
			n := 0
			for k := range s.Data().Special {
				if s.Data().CardName(k, "en") == s.Data().CardName(i, "en") {
					n++
				}
			}
			if n != 1 {
				continue
			}
			_, err := a.Build(map[string]string{"card": kindOf(s.Data(), id)})
			var r *engine.Refusal
			if !errors.As(err, &r) || !errors.Is(err, dschunke.ErrCardDrawn) || r.FR == "" || r.EN == "" {
				t.Fatalf("card %s held by %d: Build gives %v, want a refusal", id, p.Seat, err)
			}
			checked = true
			return
		}
	})
	if !checked {
		t.Skip("no unique secret card met while drawing")
	}
}

// TestBuildRefusesValuesOutOfRange: a number outside its stepper or a
// choice not offered is refused, naming the field in both languages.
func TestBuildRefusesValuesOutOfRange(t *testing.T) {
	s := startGame(t, players3)
	hand := actions(s, 0)[0]
	for _, tt := range []struct {
		name   string
		values map[string]string
		want   string
	}{
		{"not a goods", map[string]string{"card1": "silk"}, "Card 1: choose one of the choices shown"},
		{"a goods' name", map[string]string{"card8": "Fish"}, "Card 8: choose one of the choices shown"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := hand.Build(tt.values)
			var r *engine.Refusal
			if !errors.As(err, &r) || !strings.Contains(r.EN, tt.want) || r.FR == "" {
				t.Fatalf("Build(%v) = %v, want a refusal %q", tt.values, err, tt.want)
			}
		})
	}
	s = playLines(t, s, "Anna: hand goods=fish:2,rice:2,spices:2,vegetables:2", "Bruno: hand goods=fish:2,rice:2,spices:2,vegetables:2",
		"Chloé: hand goods=fish:2,rice:2,spices:2,vegetables:2")
	reveal := actions(s, 0)[0]
	if _, err := reveal.Build(map[string]string{"market": "market-99"}); !errors.Is(err, engine.ErrBadArgument) {
		t.Fatalf("reveal of an unknown card: %v, want a refusal", err)
	}
}

// playLines plays notation lines ("Name: command" or the table's).
func playLines(t *testing.T, s *dschunke.State, lines ...string) *dschunke.State {
	t.Helper()
	for _, line := range lines {
		by := engine.NoSeat
		if name, rest, ok := strings.Cut(line, ": "); ok {
			seat, _ := s.Setup().SeatOf(name)
			by, line = seat, rest
		}
		cmd, err := dschunke.New().Codec().ParseCommand(line, s.Setup().Players)
		if err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		next, _, err := engine.Play(s, engine.Action{By: by, Cmd: cmd})
		if err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		s = next.(*dschunke.State)
	}
	return s
}

var hands3 = []string{
	"Anna: hand goods=fish:2,rice:2,spices:2,vegetables:2",
	"Bruno: hand goods=fish:2,rice:2,spices:2,vegetables:2",
	"Chloé: hand goods=fish:2,rice:2,spices:2,vegetables:2",
}

// TestPrompt: the player waited for is named to everyone else and
// addressed without a name; both languages, each its own.
func TestPrompt(t *testing.T) {
	s := startGame(t, players3)
	dealt := playLines(t, s, hands3...)
	market := playLines(t, dealt, "reveal market=market-01")
	for _, tt := range []struct {
		name   string
		s      *dschunke.State
		viewer engine.Seat
		en, fr string
	}{
		{"hands, to Anna", s, 0, "Record your starting hand: your 8 goods cards", "Notez votre main de départ : vos 8 cartes marchandises"},
		{"hands, to the table", s, engine.NoSeat, "Starting hands: waiting for Anna, Bruno and Chloé", "Mains de départ : on attend Anna, Bruno et Chloé"},
		{"hands, after Anna's", playLines(t, s, hands3[0]), 0, "Starting hands: waiting for Bruno and Chloé", "Mains de départ : on attend Bruno et Chloé"},
		{"market, to Anna", dealt, 0, "Turn over the market card of round 1", "Retournez la carte marché du tour 1"},
		{"market, to Bruno", dealt, 1, "Anna, turn over the market card of round 1", "Anna, retournez la carte marché du tour 1"},
		{"action, to the staff", market, engine.Staff, "Anna, take your action with a merchant or a helper", "Anna, faites votre action avec un marchand ou un aide"},
		{"action, to Anna", market, 0, "Take your action with a merchant or a helper", "Faites votre action avec un marchand ou un aide"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := prompt(tt.s, tt.viewer)
			if got.EN != tt.en || got.FR != tt.fr {
				t.Errorf("prompt = %+v, want %q / %q", got, tt.en, tt.fr)
			}
		})
	}
}

// TestPromptOverRandomGames: in every state, the prompt to the table
// names every player waited for, and to a player waited for alone, does
// not start with their name.
func TestPromptOverRandomGames(t *testing.T) {
	randomStates(t, players4, 7, func(s *dschunke.State) {
		table := prompt(s, engine.NoSeat)
		if table.FR == "" || table.EN == "" || table.FR == table.EN {
			t.Fatalf("prompt %+v", table)
		}
		w := s.Waiting()
		for _, seat := range w {
			name := s.Setup().Players[seat]
			if !strings.Contains(table.EN, name) || !strings.Contains(table.FR, name) {
				t.Fatalf("prompt to the table %+v does not name %s", table, name)
			}
			if own := prompt(s, seat); len(w) == 1 && strings.HasPrefix(own.EN, name) {
				t.Fatalf("prompt to %s: %+v", name, own)
			}
		}
	})
}

// TestPlurals: counts in each language's grammar.
func TestPlurals(t *testing.T) {
	for _, tt := range []struct {
		n      int
		fr, en string
	}{
		{0, "0 carte", "0 cards"}, {1, "1 carte", "1 card"}, {2, "2 cartes", "2 cards"},
	} {
		if got := count(tt.n, "carte", "cartes", "card", "cards"); got.FR != tt.fr || got.EN != tt.en {
			t.Errorf("count(%d) = %+v, want %q / %q", tt.n, got, tt.fr, tt.en)
		}
	}
}

// TestUndoable: a player's own step may be taken back unless a card was
// turned over or taken, or the bids were revealed with it.
func TestUndoable(t *testing.T) {
	s := startGame(t, players3)
	dealt := playLines(t, s, hands3...)
	market := playLines(t, dealt, "reveal market=market-01")
	for _, tt := range []struct {
		name string
		s    *dschunke.State
		line string
		want bool
	}{
		{"a starting hand", s, hands3[0], true},
		{"the market card", dealt, "reveal market=market-01", false},
		{"the market card from the first player's phone", dealt, "Anna: reveal market=market-01", false},
		{"an income", market, "Anna: income with=merchant", true},
		{"a load", market, "Anna: load with=merchant at=3,1", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			a := lineAction(t, tt.s, tt.line)
			evs, err := tt.s.Decide(a)
			if err != nil {
				t.Fatalf("%s: %v", tt.line, err)
			}
			if got := undoable(tt.s, a, evs); got != tt.want {
				t.Errorf("undoable(%s) = %v, want %v", tt.line, got, tt.want)
			}
		})
	}
	// The bidding: a sealed bid may be taken back; the last one reveals
	// them all and may not.
	met := false
	randomStates(t, players3, 5, func(s *dschunke.State) {
		if met || s.View(engine.NoSeat).(dschunke.View).Phase != "bidding" || len(s.Waiting()) != len(players3) {
			return
		}
		met = true
		for i, seat := range s.Waiting() {
			a := engine.Action{By: seat, Cmd: dschunke.Bid{}}
			evs, err := s.Decide(a)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := undoable(s, a, evs), i < len(players3)-1; got != want {
				t.Errorf("bid %d of %d: undoable %v, want %v", i+1, len(players3), got, want)
			}
			next, _, _ := engine.Play(s, a)
			s = next.(*dschunke.State)
		}
	})
	if !met {
		t.Fatal("no bidding met")
	}
}

func lineAction(t *testing.T, s *dschunke.State, line string) engine.Action {
	t.Helper()
	by := engine.NoSeat
	if name, rest, ok := strings.Cut(line, ": "); ok {
		by, _ = s.Setup().SeatOf(name)
		line = rest
	}
	cmd, err := dschunke.New().Codec().ParseCommand(line, s.Setup().Players)
	if err != nil {
		t.Fatal(err)
	}
	return engine.Action{By: by, Cmd: cmd}
}

// TestConsent: nothing in Dschunke moves another player's holdings, so
// no command needs anyone's consent.
func TestConsent(t *testing.T) {
	randomStates(t, players3, 3, func(s *dschunke.State) {
		for _, a := range s.Legal() {
			if c := consent(s, a); len(c) != 0 {
				t.Fatalf("%s needs %v", format(s, a.Cmd), c)
			}
		}
	})
	if Game().Play == nil || Game().Play.Actions == nil || Game().Play.Prompt == nil || Game().Play.Undoable == nil {
		t.Fatal("the kit's Game has no Play")
	}
}

// TestEveryChoiceIsLegal: a sheet of choices cannot be filled wrong. In
// every state of seeded games, every combination of the options of an
// action (a hand's cards by sampling) builds a command the rules accept;
// the only refusals left are a starting hand of goods the deal has no
// more cards of, a special card taken that is not in the piles (the list
// cannot tell which the others hold) and a palette moved from and to the
// same junk (two lists, the rules say why). The last starting hand is one
// tap: the only hand left.
func TestEveryChoiceIsLegal(t *testing.T) {
	for _, tt := range []struct {
		players []string
		seed    int64
	}{
		{players3, 11}, {players4, 12}, {players4, 42},
	} {
		t.Run(strconv.Itoa(len(tt.players))+"p-seed"+strconv.FormatInt(tt.seed, 10), func(t *testing.T) {
			rng := rand.New(rand.NewSource(tt.seed))
			tried := map[string]int{}
			lastHands := 0
			randomStates(t, tt.players, tt.seed, func(s *dschunke.State) {
				for seat := range tt.players {
					for _, a := range actions(s, engine.Seat(seat)) {
						combos := []map[string]string{{}}
						for _, f := range a.Fields {
							if len(f.Options) == 0 {
								combos = nil // a stepper: bids and exchanges, judged by the rules
								break
							}
							var next []map[string]string
							for _, c := range combos {
								for _, o := range f.Options {
									if len(next) > 2000 {
										break
									}
									m := maps.Clone(c)
									m[f.Key] = o.Value
									next = append(next, m)
								}
							}
							combos = next
						}
						if a.ID == "hand" {
							if len(s.Waiting()) == 1 {
								lastHands++
								if len(a.Fields) != 0 {
									t.Fatalf("the last starting hand to record has %d fields, want one tap", len(a.Fields))
								}
							}
							combos = nil
							for range 50 {
								m := map[string]string{}
								for _, f := range a.Fields {
									m[f.Key] = f.Options[rng.Intn(len(f.Options))].Value
								}
								combos = append(combos, m)
							}
						}
						for _, values := range combos {
							kind := strings.SplitN(a.ID, ":", 2)[0]
							tried[kind]++
							cmd, err := a.Build(values)
							if err == nil {
								_, err = s.Decide(engine.Action{By: a.By, Cmd: cmd})
							}
							if err == nil || kind == "hand" && errors.Is(err, dschunke.ErrDealShort) || kind == "draw" && errors.Is(err, dschunke.ErrCardDrawn) ||
								kind == "play" && errors.Is(err, dschunke.ErrSameJunk) {
								continue
							}
							t.Fatalf("%s\naction %q of seat %d with %v: %v", s, a.ID, seat, values, err)
						}
					}
				}
			})
			for _, k := range []string{"hand", "restock", "take", "load", "reveal"} {
				if tried[k] == 0 {
					t.Errorf("no %q choice tried", k)
				}
			}
			if lastHands == 0 {
				t.Error("no last starting hand met")
			}
			t.Logf("choices tried: %v", tried)
		})
	}
}
