package negocekit

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"comptoir/engine"
	"comptoir/games/kit"
	"comptoir/games/negoce"
	"comptoir/notation"
)

var setup = engine.Setup{Game: negoce.Name, Players: []string{"Anna", "Bruno", "Chloé", "David"}}

// Scripts of play in the record notation (the same game as the rules'
// tests): Anna wins the Contraband, lays it face up, three offers.
var (
	deal = []string{
		"deal to=Anna goods=jade,jewels",
		"deal to=Bruno goods=perfume,spices",
		"deal to=Chloé goods=coffee,silk",
		"deal to=David goods=wine,tea",
	}
	opened  = cat(deal, "Bruno: bid price=1")
	auction = cat(deal, "Bruno: bid price=1", "Chloé: bid price=2", "David: pass", "Anna: bid price=4", "Bruno: pass", "Chloé: pass")
	laidUp  = cat(auction, "Anna: lay card=contraband up=true")
	offers  = cat(laidUp, "Bruno: offer card=perfume-1 up=true", "Chloé: offer coins=3", "David: offer card=wine-1 coins=1")
	forced  = cat(offers, "Anna: force card=jade-2")
	named   = cat(forced, "Anna: name good=tea")
)

func cat(base []string, more ...string) []string { return append(slices.Clip(base), more...) }

func script(t testing.TB, lines []string) *negoce.State {
	t.Helper()
	head := "[Game \"negoce\"]\n[Players \"Anna, Bruno, Chloé, David\"]\n"
	rec, err := notation.Read(strings.NewReader(head+strings.Join(lines, "\n")+"\n"), "test")
	if err != nil {
		t.Fatal(err)
	}
	st, err := notation.Play(negoce.New(), rec)
	if err != nil {
		t.Fatal(err)
	}
	return st.(*negoce.State)
}

func start(t testing.TB) *negoce.State {
	t.Helper()
	st, err := negoce.New().Start(setup)
	if err != nil {
		t.Fatal(err)
	}
	return st.(*negoce.State)
}

func apply(t testing.TB, s *negoce.State, a engine.Action) (*negoce.State, []engine.Event) {
	t.Helper()
	next, evs, err := engine.Play(s, a)
	if err != nil {
		t.Fatalf("%v by %v: %v", a.Cmd, a.By, err)
	}
	return next.(*negoce.State), evs
}

// randomStates plays a seeded random legal game and returns its states.
func randomStates(t testing.TB, seed int64) []*negoce.State {
	t.Helper()
	rng := rand.New(rand.NewSource(seed))
	s := start(t)
	out := []*negoce.State{s}
	for step := 0; !s.Result().Over; step++ {
		if step > 100000 {
			t.Fatalf("seed %d: no winner after %d steps", seed, step)
		}
		legal := s.Legal()
		s, _ = apply(t, s, legal[rng.Intn(len(legal))])
		out = append(out, s)
	}
	return out
}

// combos lists values to try for an action's fields: every option, and
// for a number its bounds, the first values above the minimum and its
// starting value.
func combos(a kit.Action) []map[string]string {
	out := []map[string]string{{}}
	for _, f := range a.Fields {
		var vals []string
		if len(f.Options) > 0 {
			for _, o := range f.Options {
				vals = append(vals, o.Value)
			}
		} else {
			for _, n := range []int{f.Min, f.Min + 1, f.Min + 2, f.Min + 3, f.Value, f.Max} {
				if n >= f.Min && n <= f.Max && !slices.Contains(vals, strconv.Itoa(n)) {
					vals = append(vals, strconv.Itoa(n))
				}
			}
		}
		var next []map[string]string
		for _, m := range out {
			for _, v := range vals {
				c := map[string]string{f.Key: v}
				for k, x := range m {
					c[k] = x
				}
				next = append(next, c)
			}
		}
		out = next
	}
	return out
}

// defaults are the values a field sheet starts with.
func defaults(a kit.Action) map[string]string {
	m := map[string]string{}
	for _, f := range a.Fields {
		if len(f.Options) > 0 {
			m[f.Key] = f.Options[0].Value
		} else {
			m[f.Key] = strconv.Itoa(f.Value)
		}
	}
	return m
}

// phoneOf is the seat whose phone has a legal action: its own, or for a
// deal by the table the player dealt to, who records their own hand.
func phoneOf(a engine.Action) engine.Seat {
	if d, ok := a.Cmd.(negoce.Deal); ok && a.By == engine.NoSeat {
		return d.To
	}
	return a.By
}

var placeholder = regexp.MustCompile(`\{(\w+)\}`)

// notation finds what a player must never read: a word=value, a card id,
// a good's key (the names are capitalised: "Silk", never "silk").
func notationIn(cat *negoce.Catalog) *regexp.Regexp {
	words := []string{`\w=\S`}
	for _, id := range cat.IDs() {
		words = append(words, `\b`+regexp.QuoteMeta(string(id))+`\b`)
	}
	for _, k := range cat.GoodKeys() {
		words = append(words, `\b`+regexp.QuoteMeta(k)+`\b`)
	}
	return regexp.MustCompile(strings.Join(words, "|"))
}

// checkState checks a state's actions for every seat: each legal action
// reached by exactly one described action, every value a field offers
// accepted by the rules, labels in words, nothing the seat may not know.
func checkState(t *testing.T, s *negoce.State, where string) {
	t.Helper()
	cat := s.Catalog()
	bad := notationIn(cat)
	acts := map[engine.Seat][]kit.Action{}
	for p := range engine.Seat(negoce.Players) {
		acts[p] = play.Actions(s, p)
	}
	for _, p := range []engine.Seat{engine.NoSeat, engine.Staff, 4} {
		if got := play.Actions(s, p); got != nil {
			t.Errorf("%s: Actions(%v) = %d actions, want none", where, p, len(got))
		}
	}
	for _, l := range s.Legal() {
		n := 0
		for _, a := range acts[phoneOf(l)] {
			for _, vals := range combos(a) {
				if cmd, err := a.Build(vals); err == nil && reflect.DeepEqual(cmd, l.Cmd) {
					n++
					break
				}
			}
		}
		if n != 1 {
			t.Errorf("%s: legal %#v by %v is reached by %d actions of %v, want 1", where, l.Cmd, l.By, n, phoneOf(l))
		}
	}
	for p, as := range acts {
		ids := map[string]bool{}
		view, _ := json.Marshal(s.View(p))
		for _, a := range as {
			if ids[a.ID] {
				t.Errorf("%s: seat %v has two actions %q", where, p, a.ID)
			}
			ids[a.ID] = true
			if a.By != p {
				t.Errorf("%s: seat %v's action %q is played by %v", where, p, a.ID, a.By)
			}
			checkWords(t, where+" "+a.ID, a, bad)
			// Nothing the seat does not see in its own view.
			raw, _ := json.Marshal(a)
			for _, id := range cat.IDs() {
				if strings.Contains(string(raw), `"`+string(id)+`"`) && !strings.Contains(string(view), `"`+string(id)+`"`) {
					t.Errorf("%s: seat %v's action %s names %s, which its view does not show", where, p, raw, id)
				}
			}
			if a.Target != "" && !strings.Contains(string(view), `"`+a.Target+`"`) && !strings.HasPrefix(a.Target, "offer-") {
				t.Errorf("%s: action %q targets %q, not on the seat's page", where, a.ID, a.Target)
			}
			for _, vals := range append(combos(a), defaults(a)) {
				cmd, err := a.Build(vals)
				if err != nil {
					t.Errorf("%s: %q.Build(%v): %v", where, a.ID, vals, err)
					continue
				}
				_, err = s.Decide(engine.Action{By: a.By, Cmd: cmd})
				// The goods a player may name when recording their hand
				// include those dealt to others, which the player, holding
				// the cards, cannot name: the rules refuse them.
				if err != nil && !(a.ID == "deal" && dealtElsewhere(err)) {
					t.Errorf("%s: %q with %v: %#v refused: %v", where, a.ID, vals, cmd, err)
				}
			}
		}
	}
}

// dealtElsewhere is the rules refusing a good a player records as theirs
// when it was dealt to another player.
func dealtElsewhere(err error) bool {
	return errors.Is(err, negoce.ErrWholeGoods) || errors.Is(err, negoce.ErrAlreadyDealt)
}

// seenWords caches findNotation: the same labels come back in every state.
var seenWords = map[string]string{}

// findNotation returns the notation in s, placeholders aside.
func findNotation(bad *regexp.Regexp, s string) string {
	m, ok := seenWords[s]
	if !ok {
		m = bad.FindString(placeholder.ReplaceAllString(s, ""))
		seenWords[s] = m
	}
	return m
}

// checkWords checks an action's texts: French and English, different, no
// notation, placeholders only for its fields.
func checkWords(t *testing.T, where string, a kit.Action, bad *regexp.Regexp) {
	t.Helper()
	keys := map[string]bool{}
	texts := []kit.Text{a.Label}
	for _, f := range a.Fields {
		keys[f.Key] = true
		texts = append(texts, f.Label)
		if len(f.Options) == 0 && (f.Unit.EN == "" || f.Units.FR == "" || f.Min > f.Max || f.Value < f.Min || f.Value > f.Max) {
			t.Errorf("%s: field %q: unit %v/%v, range %d..%d from %d", where, f.Key, f.Unit, f.Units, f.Min, f.Max, f.Value)
		}
		for _, o := range f.Options {
			texts = append(texts, o.Label)
		}
	}
	if a.Label.FR == a.Label.EN {
		t.Errorf("%s: label %q in both languages", where, a.Label.EN)
	}
	for _, x := range texts {
		for _, s := range []string{x.FR, x.EN} {
			if s == "" {
				t.Errorf("%s: a text is missing: %+v", where, x)
			}
			if m := findNotation(bad, s); m != "" {
				t.Errorf("%s: %q holds notation %q", where, s, m)
			}
			for _, m := range placeholder.FindAllStringSubmatch(s, -1) {
				if !keys[m[1]] {
					t.Errorf("%s: %q has {%s}, not a field", where, s, m[1])
				}
			}
		}
	}
}

// TestActionsCoverLegal runs over seeded random games and checks, in every
// state, every seat's actions against the rules (see checkState).
func TestActionsCoverLegal(t *testing.T) {
	games := int64(4)
	if testing.Short() {
		games = 1
	}
	states := 0
	for seed := int64(1); seed <= games; seed++ {
		for i, s := range randomStates(t, seed) {
			checkState(t, s, fmt.Sprintf("seed %d step %d (%s)", seed, i, s.Phase().Key()))
			states++
			if t.Failed() {
				t.FailNow()
			}
		}
	}
	t.Logf("%d states checked", states)
}

// TestActionsScripted checks the scripted positions of every phase,
// partial deals from the reader included.
func TestActionsScripted(t *testing.T) {
	for name, lines := range map[string][]string{
		"start": nil, "half a good scanned": {"deal to=Anna cards=jade-1,jade-2"}, "Anna dealt": deal[:1],
		"dealt": deal, "opened": opened, "lay": auction, "laid": laidUp, "offers": offers, "forced": forced, "named": named,
		"bonus": cat(offers, "Anna: bonus coins=2"),
	} {
		t.Run(name, func(t *testing.T) { checkState(t, script(t, lines), name) })
	}
}

// TestPlayFromPhones plays whole games through the phones' actions alone,
// the deal included, choosing actions and values at random: every game
// reaches a winner.
func TestPlayFromPhones(t *testing.T) {
	games := int64(20)
	if testing.Short() {
		games = 4
	}
	for seed := int64(1); seed <= games; seed++ {
		rng := rand.New(rand.NewSource(seed))
		s := start(t)
		steps := 0
		for !s.Result().Over {
			if steps++; steps > 200000 {
				t.Fatalf("seed %d: no winner after %d taps", seed, steps)
			}
			var all []kit.Action
			for p := range engine.Seat(negoce.Players) {
				all = append(all, play.Actions(s, p)...)
			}
			if len(all) == 0 {
				t.Fatalf("seed %d: phase %s: no phone has anything to do", seed, s.Phase().Key())
			}
			a := all[rng.Intn(len(all))]
			cs := combos(a)
			cmd, err := a.Build(cs[rng.Intn(len(cs))])
			if err != nil {
				t.Fatal(err)
			}
			next, _, err := engine.Play(s, engine.Action{By: a.By, Cmd: cmd})
			if a.ID == "deal" && dealtElsewhere(err) {
				continue // a good dealt to another: not in this player's hand
			}
			if err != nil {
				t.Fatalf("seed %d: %q: %v", seed, a.ID, err)
			}
			s = next.(*negoce.State)
		}
	}
}

// TestLabels checks the words of the actions of known positions.
func TestLabels(t *testing.T) {
	tests := []struct {
		lines  []string
		seat   engine.Seat
		id     string
		en, fr string
		target string
	}{
		{nil, 0, "deal", "I was dealt {good}", "J'ai reçu {good}", ""},
		{opened, 2, "bid:2", "Bid 2 coins", "Enchérir à 2 pièces", ""},
		{opened, 2, "bid:3", "Bid 3 coins", "Enchérir à 3 pièces", ""},
		{deal, 3, "bid:1", "Open the auction at 1 coin", "Ouvrir les enchères à 1 pièce", ""},
		{auction, 0, "lay:contraband", "Put the Contraband card up for sale, {face}", "Mettre en vente la carte Contrebande, {face}", "contraband"},
		{auction, 0, "lay:jewels", "Put a Jewels card up for sale, {face}", "Mettre en vente une carte Bijoux, {face}", "jewels-1"},
		{offers, 0, "accept:1:perfume:0", "Accept Bruno's offer: a Perfume card", "Accepter l'offre de Bruno : une carte Parfum", "offer-1"},
		{offers, 0, "accept:2::3", "Accept Chloé's offer: 3 coins", "Accepter l'offre de Chloé : 3 pièces", "offer-2"},
		{offers, 0, "accept:3:down:1", "Accept David's offer: a face-down card and 1 coin", "Accepter l'offre de David : une carte face cachée et 1 pièce", "offer-3"},
		{offers, 0, "force:jade", "Force the sale: lay a Jade card face down beside it", "Forcer la vente : poser une carte Jade face cachée à côté", "jade-1"},
		{offers, 0, "bonus", "Coins on your card for sale: {coins}", "Pièces sur votre carte en vente : {coins}", ""},
		{offers, 1, "offer:spices", "Offer a Spices card, {face}, with {coins}", "Proposer une carte Épices, {face}, avec {coins}", "spices-1"},
		{offers, 1, "offer-coins", "Offer {coins}", "Proposer {coins}", ""},
		{offers, 1, "withdraw", "Take back your offer", "Retirer votre offre", ""},
		{forced, 0, "name", "Ask for {good}", "Demander {good}", ""},
		{named, 0, "pick:3", "Take a Tea card from David, who gets the two cards of the market", "Prendre une carte Thé à David, qui reçoit les deux cartes du marché", "tea-1"},
	}
	for _, tt := range tests {
		t.Run(tt.id+"/"+tt.en, func(t *testing.T) {
			s := script(t, tt.lines)
			a, err := kit.Find(play.Actions(s, tt.seat), tt.id)
			if err != nil {
				t.Fatalf("seat %v has no %q: %v", tt.seat, tt.id, err)
			}
			if a.Label.EN != tt.en || a.Label.FR != tt.fr || a.Target != tt.target {
				t.Errorf("%q = %q / %q → %q, want %q / %q → %q", tt.id, a.Label.EN, a.Label.FR, a.Target, tt.en, tt.fr, tt.target)
			}
		})
	}
	// The goods a player records are named as printed, with their number;
	// a good the player holds whole is no longer offered.
	s := script(t, deal[:1])
	a, _ := kit.Find(play.Actions(s, 1), "deal")
	var names []string
	for _, o := range a.Fields[0].Options {
		names = append(names, o.Label.FR)
	}
	if want := "Jade (1) Bijoux (2) Parfum (3) Épices (4) Café (5) Soie (6) Vin (7) Thé (8)"; strings.Join(names, " ") != want {
		t.Errorf("Bruno's goods to record = %q, want %q", strings.Join(names, " "), want)
	}
	s = script(t, []string{"deal to=Anna goods=jade", "deal to=Anna cards=silk-1"})
	a, _ = kit.Find(play.Actions(s, 0), "deal")
	if len(a.Fields[0].Options) != 1 || a.Fields[0].Options[0].Label.EN != "Silk (6)" {
		t.Errorf("Anna, holding jade and one silk card, records %+v, want the rest of Silk (6) only", a.Fields[0].Options)
	}
	if cmd, _ := a.Build(map[string]string{"good": "silk"}); !reflect.DeepEqual(cmd, negoce.Deal{To: 0, Cards: []negoce.CardID{"silk-2", "silk-3", "silk-4"}}) {
		t.Errorf("the rest of silk = %#v", cmd)
	}
}

// TestAcceptStale checks that an offer changed after the seller's page was
// drawn cannot be accepted through the old page's tap.
func TestAcceptStale(t *testing.T) {
	tests := []struct {
		change string
		stale  bool
	}{
		{"Chloé: offer coins=2", true},
		{"Chloé: offer card=silk-1", true},
		{"Chloé: offer coins=3", false},
		{"Bruno: offer coins=1", false},
	}
	for _, tt := range tests {
		t.Run(tt.change, func(t *testing.T) {
			before := play.Actions(script(t, offers), 0)
			a, err := kit.Find(before, "accept:2::3")
			if err != nil {
				t.Fatal(err)
			}
			_, err = kit.Find(play.Actions(script(t, cat(offers, tt.change)), 0), a.ID)
			if stale := errors.Is(err, kit.ErrNoAction); stale != tt.stale {
				t.Errorf("after %q, accepting Chloé's 3 coins is stale: %v, want %v", tt.change, stale, tt.stale)
			}
		})
	}
	// A face-down card changed for another looks the same to the seller.
	a := play.Actions(script(t, cat(offers, "David: offer card=tea-1 coins=1")), 0)
	if _, err := kit.Find(a, "accept:3:down:1"); err != nil {
		t.Errorf("David's face-down card changed for another: %v", err)
	}
}

// TestBuildRefuses checks that values out of range or not offered are
// refused in both languages, never played.
func TestBuildRefuses(t *testing.T) {
	tests := []struct {
		lines  []string
		seat   engine.Seat
		id     string
		values map[string]string
	}{
		{offers, 1, "offer-coins", map[string]string{"coins": "16"}},
		{offers, 1, "offer-coins", map[string]string{"coins": "0"}},
		{offers, 1, "offer:spices", map[string]string{"face": "up", "coins": "-1"}},
		{offers, 1, "offer:spices", map[string]string{"face": "sideways"}},
		{offers, 0, "bonus", map[string]string{"coins": "two"}},
		{forced, 0, "name", map[string]string{"good": "jade"}},
		{forced, 0, "name", map[string]string{"good": "contraband"}},
		{deal[:1], 0, "deal", map[string]string{"good": "silk"}},
	}
	for _, tt := range tests {
		t.Run(tt.id+fmt.Sprint(tt.values), func(t *testing.T) {
			s := script(t, tt.lines)
			acts := play.Actions(s, tt.seat)
			if tt.id == "deal" && len(acts) != 0 {
				t.Fatalf("Anna holds 8 cards, yet has %d actions", len(acts))
			} else if tt.id == "deal" {
				return
			}
			a, err := kit.Find(acts, tt.id)
			if err != nil {
				t.Fatal(err)
			}
			cmd, err := a.Build(tt.values)
			r, ok := engine.AsRefusal(err)
			if !ok || r.EN == "" || r.FR == "" || r.EN == r.FR {
				t.Errorf("Build(%v) = %v, %v; want a refusal in both languages", tt.values, cmd, err)
			}
		})
	}
}

// TestPrompt checks what each viewer is told the game waits for.
func TestPrompt(t *testing.T) {
	tests := []struct {
		lines  []string
		viewer engine.Seat
		en, fr string
	}{
		{nil, 0, "Record your hand: the goods you were dealt (8 cards to go)", "Enregistrez votre main : les marchandises reçues (encore 8 cartes)"},
		{[]string{"deal to=Anna goods=jade", "deal to=Anna cards=silk-1,silk-2,silk-3"}, 0, "Record your hand: the goods you were dealt (1 card to go)", "Enregistrez votre main : les marchandises reçues (encore 1 carte)"},
		{deal[:1], 0, "Waiting for Bruno, Chloé and David to record their hands", "En attente de Bruno, Chloé et David, qui enregistrent leur main"},
		{deal[:3], engine.NoSeat, "Waiting for David to record their hand", "En attente de David, qui enregistre sa main"},
		{deal, 1, "Contraband auction: if you were drawn to start, open at 1 coin", "Enchères de la Contrebande : si vous avez été tiré au sort, ouvrez à 1 pièce"},
		{deal, engine.NoSeat, "Contraband auction: the player drawn at random opens at 1 coin", "Enchères de la Contrebande : le joueur tiré au sort ouvre à 1 pièce"},
		{opened, 2, "Raise to 2 or 3 coins, or pass (Bruno bids 1 coin)", "Surenchérissez à 2 ou 3 pièces, ou passez (Bruno en est à 1 pièce)"},
		{opened, 0, "Chloé, raise or pass (Bruno bids 1 coin)", "Chloé, surenchérissez ou passez (Bruno en est à 1 pièce)"},
		{cat(deal, "Anna: bid price=1", "Bruno: bid price=3", "Chloé: bid price=5", "David: bid price=7", "Anna: bid price=9", "Bruno: bid price=11", "Chloé: bid price=13", "David: bid price=14"),
			0, "Raise to 15 coins or pass (David bids 14 coins)", "Surenchérissez à 15 pièces ou passez (David en est à 14 pièces)"},
		{auction, 0, "Put a card of your hand up for sale", "Mettez en vente une carte de votre main"},
		{auction, engine.Staff, "Anna, put a card up for sale", "Anna, mettez une carte en vente"},
		{laidUp, 0, "Accept an offer or force the sale (no offer yet)", "Acceptez une offre ou forcez la vente (aucune offre pour l'instant)"},
		{cat(laidUp, "Chloé: offer coins=1"), engine.NoSeat, "Buyers, make your offers; Anna accepts one or forces the sale (1 offer)", "Acheteurs, faites vos offres ; Anna en accepte une ou force la vente (1 offre)"},
		{offers, 0, "Accept an offer or force the sale (3 offers)", "Acceptez une offre ou forcez la vente (3 offres)"},
		{laidUp, 1, "Make an offer for Anna's card", "Faites une offre pour la carte d'Anna"},
		{offers, 1, "Your offer stands: change it or take it back; Anna decides", "Votre offre tient : modifiez-la ou retirez-la ; Anna décide"},
		{forced, 0, "Forced sale: name a good you do not hold", "Vente forcée : annoncez une marchandise que vous n'avez pas"},
		{forced, 3, "Anna, name the good you ask for (forced sale)", "Anna, annoncez la marchandise demandée (vente forcée)"},
		{named, 0, "Forced sale: take one of the Tea cards shown", "Vente forcée : prenez une des cartes Thé montrées"},
		{named, engine.NoSeat, "Anna, take one of the Tea cards shown", "Anna, prenez une des cartes Thé montrées"},
	}
	for _, tt := range tests {
		t.Run(tt.en, func(t *testing.T) {
			got := play.Prompt(script(t, tt.lines), tt.viewer)
			if got.EN != tt.en || got.FR != tt.fr {
				t.Errorf("Prompt(%v) = %q / %q, want %q / %q", tt.viewer, got.EN, got.FR, tt.en, tt.fr)
			}
		})
	}
}

// TestPromptEveryState checks the prompt of every viewer over seeded
// random games: in both languages, the player waited for named to the
// others and addressed as "you" (not by name) on their own phone, no
// notation.
func TestPromptEveryState(t *testing.T) {
	st := start(t)
	bad := notationIn(st.Catalog())
	games := int64(2)
	if testing.Short() {
		games = 1
	}
	for seed := int64(1); seed <= games; seed++ {
		for i, s := range randomStates(t, seed) {
			w := s.Waiting()
			for _, viewer := range []engine.Seat{engine.NoSeat, engine.Staff, 0, 1, 2, 3} {
				p := play.Prompt(s, viewer)
				where := fmt.Sprintf("seed %d step %d (%s), viewer %v: %q / %q", seed, i, s.Phase().Key(), viewer, p.EN, p.FR)
				if p.EN == "" || p.FR == "" || p.EN == p.FR {
					t.Fatalf("%s: want both languages", where)
				}
				if m := bad.FindString(p.EN + " " + p.FR); m != "" {
					t.Fatalf("%s: notation %q", where, m)
				}
				if len(w) == 1 && !s.Result().Over {
					name := setup.Players[w[0]]
					if viewer == w[0] && strings.Contains(p.EN, name) {
						t.Fatalf("%s: names its own reader", where)
					}
					if viewer != w[0] && !strings.Contains(p.EN, name) && !strings.Contains(p.FR, name) {
						t.Fatalf("%s: does not name %s, whom the game waits for", where, name)
					}
				}
			}
		}
	}
}

func TestOverPrompt(t *testing.T) {
	s := randomStates(t, 1)
	end := s[len(s)-1]
	w := end.Winner()
	if got := play.Prompt(end, w); !strings.HasPrefix(got.EN, "You win") || !strings.HasPrefix(got.FR, "Vous gagnez") {
		t.Errorf("the winner reads %q / %q", got.EN, got.FR)
	}
	other := (w + 1) % negoce.Players
	if got := play.Prompt(end, other); !strings.HasPrefix(got.EN, setup.Players[w]+" wins") {
		t.Errorf("%s reads %q", setup.Players[other], got.EN)
	}
	if acts := play.Actions(end, w); len(acts) != 0 {
		t.Errorf("after the end the winner has %d actions", len(acts))
	}
}

func TestCoinsPlural(t *testing.T) {
	for n, want := range map[int]kit.Text{0: {FR: "0 pièce", EN: "0 coins"}, 1: {FR: "1 pièce", EN: "1 coin"}, 2: {FR: "2 pièces", EN: "2 coins"}, 15: {FR: "15 pièces", EN: "15 coins"}} {
		if got := coins(n); got != want {
			t.Errorf("coins(%d) = %+v, want %+v", n, got, want)
		}
	}
}

// TestUndoable checks which steps their player may take back: none that
// showed a hidden card or made a sale.
func TestUndoable(t *testing.T) {
	tests := []struct {
		lines []string
		line  string
		want  bool
	}{
		{nil, "Anna: deal to=Anna goods=jade", true},
		{opened, "Chloé: bid price=2", true},
		{auction[:len(auction)-1], "Chloé: pass", true}, // the pass that ends the auction
		{auction, "Anna: lay card=jade-1", true},
		{auction, "Anna: lay card=jade-1 up=true", false},
		{laidUp, "Bruno: offer card=perfume-1", true},
		{laidUp, "Bruno: offer card=perfume-1 coins=2", true},
		{laidUp, "Bruno: offer card=perfume-1 up=true", false},
		{laidUp, "Bruno: offer coins=2", true},
		{offers, "Bruno: withdraw", true},
		{offers, "Anna: bonus coins=2", true},
		{offers, "Anna: force card=jade-2", true},
		{offers, "Anna: accept from=Chloé", false},
		{offers, "Anna: accept from=David", false},
		{forced, "Anna: name good=tea", false},
		{named, "Anna: pick card=tea-2", false},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			s := script(t, tt.lines)
			head := "[Game \"negoce\"]\n[Players \"Anna, Bruno, Chloé, David\"]\n"
			rec, err := notation.Read(strings.NewReader(head+tt.line+"\n"), "test")
			if err != nil {
				t.Fatal(err)
			}
			as, err := rec.Actions(negoce.New().Codec())
			if err != nil {
				t.Fatal(err)
			}
			_, evs := apply(t, s, as[0])
			if got := play.Undoable(s, as[0], evs); got != tt.want {
				t.Errorf("Undoable(%s) = %v, want %v", tt.line, got, tt.want)
			}
		})
	}
}
