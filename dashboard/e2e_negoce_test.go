package dashboard

import (
	"encoding/json"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"comptoir/engine"
	"comptoir/games/negoce"
)

// TestBrowserNegoceSale plays the start of a Négoce 2 game at a table in
// headless Chromium: four phones join by their QR links, the deal is
// scanned card by card, the Contraband auction is bid on the phones, the
// winner's card for sale is scanned (face down), Bruno offers a card face
// down with coins from his phone's sheet, Chloé a card face up, David's
// card is scanned face down, and Anna accepts Bruno's offer. It checks
// that coins are public on every screen, that each phone shows its own
// hand and no other, and that no page and no websocket frame of the table
// or of a phone other than the owner's ever holds a face-down card (a card
// back is shown instead), until the sale gives it to its buyer.
func TestBrowserNegoceSale(t *testing.T) {
	browserAvailable(t)
	checkLeaks(t)
	rules := negoce.New()
	setup := engine.Setup{Game: negoce.Name, Players: []string{"Anna", "Bruno", "Chloé", "David"}}
	cat, err := negoce.DefaultCatalog()
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, id := range cat.IDs() {
		ids = append(ids, string(id))
	}
	ct := newCardTable(t, rules, setup, ids)
	tbl, phones := ct.join("negoce")
	all := append([]*screen{tbl}, phones...)
	ct.shot(tbl, "negoce-table-join.png")

	// The deal: each player lays his eight cards on the reader, in seat
	// order (two whole goods each, in the catalog's order).
	for _, id := range ids[:32] {
		ct.tap(id)
	}
	ct.settle(all...)
	for i, p := range phones {
		var n int
		if err := chromedp.Run(p.ctx, chromedp.Evaluate(`document.querySelectorAll('#ng-hand li[data-card]').length`, &n)); err != nil {
			t.Fatal(err)
		}
		if n != 8 {
			t.Errorf("%s's phone shows %d cards in hand, want 8", setup.Players[i], n)
		}
	}

	// The auction, bid on the phones.
	for _, step := range []struct {
		seat int
		line string
	}{{2, "bid price=1"}, {3, "pass"}, {0, "bid price=2"}, {1, "bid price=3"}, {2, "pass"}, {0, "bid price=5"}} {
		ct.click(phones[step.seat], step.line)
	}
	ct.settle(all...)
	var price string
	if err := chromedp.Run(tbl.ctx, chromedp.Text(`#ng-auction .price`, &price, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	if price != "5" {
		t.Errorf("the table shows the auction's price %q, want 5", price)
	}
	ct.shot(tbl, "negoce-table-auction.png")
	ct.click(phones[1], "pass") // Anna wins the Contraband for 5

	// Anna's card for sale, scanned: face down. Bruno's offer from his
	// phone's sheet: a perfume (perfume-1, the first of his four, which
	// stands for them all) face down and 2 coins. Chloé's: silk-1 face
	// up. David's card scanned: wine-3, face down.
	ct.tap("jade-1")
	// Bruno taps his perfume and fills the sheet; Chloé's offer draws
	// every page again before he sends it: his sheet stays open and keeps
	// what he chose.
	if err := chromedp.Run(phones[1].ctx, chromedp.Poll(`(() => {
		const card = document.querySelector('#ng-hand li.tappable[data-target="perfume-1"]'); if (!card) return false;
		card.click();
		const down = document.querySelector('#sheet[data-action="offer:perfume"] button.option[data-value="down"]'); if (!down) return false;
		down.click();
		const n = document.querySelector('#sheet input[name="coins"]'); if (!n) return false;
		n.value = "2"; n.dispatchEvent(new Event("input"));
		return true; })()`, nil, chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		t.Fatal(err)
	}
	ct.click(phones[2], "offer card=silk-1 up=true")
	ct.settle(phones[1])
	var kept []string
	if err := chromedp.Run(phones[1].ctx, chromedp.Evaluate(`(() => { const f = document.getElementById('sheet'); if (!f) return ["no sheet"];
		return [f.dataset.action, f.elements.face.value, f.elements.coins.value]; })()`, &kept)); err != nil {
		t.Fatal(err)
	}
	if strings.Join(kept, " ") != "offer:perfume down 2" {
		t.Errorf("after another player's step Bruno's offer sheet holds %q, want what he chose (offer:perfume down 2)", kept)
	}
	ct.act(phones[1], "send the offer", `const b = document.getElementById('sheet-send'); if (!b || b.disabled) return false; b.click(); return true;`)
	ct.tap("wine-3")
	ct.settle(all...)

	// What each screen shows of the offers: Bruno's and David's cards are
	// backs, Chloé's is silk-1; every screen shows the same coins.
	st := ct.sess.Latest().State
	pub := st.View(engine.NoSeat).(negoce.View)
	for _, s := range all {
		var backs, faces []string
		var coins []string
		if err := chromedp.Run(s.ctx,
			chromedp.Evaluate(`Array.from(document.querySelectorAll('#ng-offers li.offer')).filter(li => li.querySelector('.ncard.back')).map(li => li.dataset.by)`, &backs),
			chromedp.Evaluate(`Array.from(document.querySelectorAll('#ng-offers .ncard[data-card]')).map(c => c.dataset.card)`, &faces),
			chromedp.Evaluate(`Array.from(document.querySelectorAll('#ng-players td.coins')).map(td => td.textContent)`, &coins),
		); err != nil {
			t.Fatal(err)
		}
		wantBacks := []string{"1", "3"}
		wantFaces := []string{"silk-1"}
		switch s.name {
		case "phone-2": // Bruno sees his own card, marked face down
			wantBacks, wantFaces = []string{"3"}, []string{"perfume-1", "silk-1"}
		case "phone-4":
			wantBacks, wantFaces = []string{"1"}, []string{"silk-1", "wine-3"}
		}
		slices.Sort(faces)
		if !slices.Equal(backs, wantBacks) || !slices.Equal(faces, wantFaces) {
			t.Errorf("%s shows card backs for seats %v and cards %v; want backs %v, cards %v", s.name, backs, faces, wantBacks, wantFaces)
		}
		var want []string
		for _, p := range pub.Players {
			want = append(want, strconv.Itoa(p.Coins))
		}
		if !slices.Equal(coins, want) {
			t.Errorf("%s shows coins %v, want %v (public)", s.name, coins, want)
		}
	}
	if pub.Players[0].Coins != 10 {
		t.Errorf("Anna has %d coins, want 15 - 5", pub.Players[0].Coins)
	}
	// Each phone's hand is its own: the engine's view of that seat.
	for i, p := range phones {
		var shown []string
		if err := chromedp.Run(p.ctx, chromedp.Evaluate(`Array.from(document.querySelectorAll('#ng-hand li[data-card]')).map(li => li.dataset.card + (li.classList.contains('offered') ? '*' : ''))`, &shown)); err != nil {
			t.Fatal(err)
		}
		var want []string
		for _, cv := range st.View(engine.Seat(i)).(negoce.View).Hand {
			want = append(want, string(cv.Card)+map[bool]string{true: "*"}[cv.Offered])
		}
		if !slices.Equal(shown, want) {
			t.Errorf("%s's phone shows the hand %v, want %v", setup.Players[i], shown, want)
		}
	}
	for i, p := range phones {
		ct.shot(p, "negoce-seat-"+strconv.Itoa(i+1)+"-"+strings.ToLower(setup.Players[i])+".png")
	}
	ct.shot(tbl, "negoce-table-offers.png")

	// Anna accepts Bruno's offer: she gets perfume-1 and 2 coins, Bruno
	// jade-1 and the coin she laid on it (none here).
	ct.click(phones[0], "accept from=Bruno")
	ct.settle(all...)
	end := ct.sess.Latest().State
	if v := end.View(0).(negoce.View); !slices.ContainsFunc(v.Hand, func(c negoce.CardView) bool { return c.Card == "perfume-1" }) {
		t.Errorf("after the sale Anna's hand %v lacks perfume-1", v.Hand)
	}
	var annaHand []string
	if err := chromedp.Run(phones[0].ctx, chromedp.Evaluate(`Array.from(document.querySelectorAll('#ng-hand li[data-card]')).map(li => li.dataset.card + " " + li.textContent.trim())`, &annaHand)); err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(annaHand, func(c string) bool { return strings.HasPrefix(c, "perfume-1 ") && strings.Contains(c, "Perfume") }) {
		t.Errorf("Anna's phone does not show the card she bought (perfume-1, a Perfume): %q", annaHand)
	}

	// The face-down cards were never seen by anyone but their owners (and
	// by the buyer once the sale was made): not on any page, not in any
	// frame. Nor was any hand but one's own.
	secretOf := map[string][]string{ // card → screens allowed to see it
		"perfume-1": {"phone-2", "phone-1"}, // Bruno's, sold to Anna
		"jade-1":    {"phone-1", "phone-2"}, // Anna's card for sale, bought by Bruno
		"wine-3":    {"phone-4"},
	}
	for i := range setup.Players {
		for _, cv := range st.View(engine.Seat(i)).(negoce.View).Hand {
			id := string(cv.Card)
			if _, ok := secretOf[id]; ok || id == "contraband" || strings.Contains(mustJSON(t, pub), `"`+id+`"`) {
				continue // listed above, or public: the Contraband card (on the market at the start), silk-1 (offered face up)
			}
			secretOf[id] = []string{"phone-" + strconv.Itoa(i+1)}
		}
	}
	if page := ct.text(tbl); strings.Contains(page, "Parfum") || strings.Contains(page, "Perfume") {
		t.Errorf("the table's page names the perfume, though no perfume card was ever shown face up")
	}
	for _, s := range all {
		page := ct.text(s)
		frames := s.frames()
		states := 0
		for _, raw := range frames {
			if _, _, ok := publicPart(raw, ""); ok {
				states++
			}
		}
		if states < 10 {
			t.Errorf("%s received %d state frames, want one per step", s.name, states)
		}
		for card, allowed := range secretOf {
			if slices.Contains(allowed, s.name) {
				continue
			}
			re := regexp.MustCompile(`\b` + regexp.QuoteMeta(card) + `\b`)
			if re.MatchString(page) {
				t.Errorf("%s's page shows %s, another player's hidden card", s.name, card)
			}
			for _, raw := range frames {
				if re.MatchString(raw) {
					t.Errorf("%s received a frame holding %s, another player's hidden card: %.300s", s.name, card, raw)
					break
				}
			}
		}
	}

	// Anna still holds nine cards: she sells the Contraband card (scanned,
	// face down), finds no offer and forces the sale: a second card, the
	// tea named from her phone's buttons, David's four tea cards shown on
	// every screen; she picks tea-1 by laying it on the reader.
	ct.tap("contraband")
	ct.click(phones[0], "force card=jade-2")
	ct.click(phones[0], "name good=tea")
	ct.settle(all...)
	for _, s := range all {
		var shown []string
		if err := chromedp.Run(s.ctx, chromedp.Evaluate(`Array.from(document.querySelectorAll('#ng-named li .ncard[data-card]')).map(c => c.dataset.card)`, &shown)); err != nil {
			t.Fatal(err)
		}
		if strings.Join(shown, ",") != "tea-1,tea-2,tea-3,tea-4" {
			t.Errorf("%s shows the revealed cards %v, want David's four tea cards", s.name, shown)
		}
	}
	ct.shot(tbl, "negoce-table-forced.png")
	ct.tap("tea-1")
	ct.settle(all...)
	after := ct.sess.Latest().State.View(engine.Seat(3)).(negoce.View)
	var got []string
	for _, cv := range after.Hand {
		got = append(got, string(cv.Card))
	}
	if !slices.Contains(got, "contraband") || !slices.Contains(got, "jade-2") || slices.Contains(got, "tea-1") {
		t.Errorf("after the forced sale David holds %v, want the Contraband and jade-2 for tea-1", got)
	}

	// In French: the renderer's texts follow the language toggle.
	ct.french(phones[3], `.ng-status .phase`)
	ct.french(tbl, `.ng-status .phase`)
	ct.shot(tbl, "negoce-table-sold-fr.png")
	ct.fitsScreen(tbl)
	ct.fitsScreen(phones[1])
	ct.shot(tbl, "negoce-table-sold.png")
	ct.shot(phones[0], "negoce-seat-1-anna-sold.png")
	// The staff page, behind the PIN, shows every hand.
	staff := ct.open("staff", ct.url+"/staff", `#conn[data-state=up]`)
	var hands int
	if err := chromedp.Run(staff.ctx,
		chromedp.SendKeys(`#pin input`, "2468", chromedp.ByQuery),
		chromedp.Click(`#pin button`, chromedp.ByQuery),
		chromedp.WaitVisible(`#ng-hands`, chromedp.ByQuery),
		chromedp.Evaluate(`document.querySelectorAll('#ng-hands li[data-seat]').length`, &hands)); err != nil {
		t.Fatalf("staff page: %v", err)
	}
	if hands != 4 {
		t.Errorf("the staff page shows %d hands, want 4", hands)
	}
	ct.shot(staff, "negoce-staff.png")
	t.Logf("screenshots in %s", ct.shots)
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
