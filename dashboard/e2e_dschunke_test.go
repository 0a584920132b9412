package dashboard

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"comptoir/engine"
	"comptoir/games/dschunke"
)

// TestBrowserDschunkeSecretBids plays the first round of the rules text's
// bidding example (games/dschunke/testdata/bidding-example.txt) at a
// table in headless Chromium: four phones join by their QR links and
// record their starting hands from their prompt's action, the market card
// is scanned, the actions and restocks are played, then every phone seals
// its bid from its prompt's action.
// Until the last bid is sealed, no websocket frame received by the table's
// screen or by another phone holds a sealed bid: the bid column says
// "sealed", the hand sizes do not move, nothing but the seat's own "me"
// and listed actions tells any goods count of the bids. After the last
// bid the table's screen shows every bid and the sales, and the single
// winner of the fish S draws his special card by scanning it.
func TestBrowserDschunkeSecretBids(t *testing.T) {
	browserAvailable(t)
	checkLeaks(t)
	rules := dschunke.New()
	setup := engine.Setup{Game: dschunke.Name, Players: []string{"Anna", "Bruno", "Chloé", "David"}}
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
	ct := newCardTable(t, rules, setup, ids)
	tbl, phones := ct.join("dschunke")
	all := append([]*screen{tbl}, phones...)

	// The starting hands, each from its phone's prompt, card by card; the
	// last one, the only hand left, in one tap that names it.
	hands := []map[string]int{{"fish": 2, "rice": 2, "spices": 2, "vegetables": 2}, {"rice": 3, "spices": 3, "vegetables": 2},
		{"rice": 3, "spices": 3, "vegetables": 2}, {"fish": 6, "vegetables": 2}}
	// Anna's sheet: a row of the four goods for each of her 8 cards, on
	// the phone's width.
	var rows int
	if err := chromedp.Run(phones[0].ctx,
		chromedp.Poll(`(() => { const b = document.querySelector('#prompt button.action[data-action="hand"]'); if (!b) return false; b.click(); return !!document.querySelector('#sheet'); })()`, nil, chromedp.WithPollingTimeout(10*time.Second)),
		chromedp.Evaluate(`Array.from(document.querySelectorAll('#sheet .field')).filter((f) => f.querySelectorAll('button.option').length === 4).length`, &rows)); err != nil {
		t.Fatal(err)
	}
	if rows != dschunke.HandSize {
		t.Errorf("the hand's sheet has %d rows of the four goods, want %d", rows, dschunke.HandSize)
	}
	ct.fitsScreen(phones[0])
	ct.shot(phones[0], "dschunke-hand-sheet.png")
	if err := chromedp.Run(phones[0].ctx, chromedp.Click(`#sheet-cancel`, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	for i, hand := range hands[:3] {
		handSheet(ct, phones[i], hand)
	}
	var last string
	if err := chromedp.Run(phones[3].ctx, chromedp.Poll(`(() => { const b = document.querySelector('#prompt button.action[data-action="hand"]'); return b && !b.textContent.includes("…") ? b.textContent : false; })()`, &last, chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`6 (fish cards|cartes poisson), 2 (vegetables cards|cartes légumes)`).MatchString(last) {
		t.Errorf("David's last starting hand reads %q, want his 6 fish and 2 vegetables", last)
	}
	ct.act(phones[3], "the last hand", `const b = document.querySelector('#prompt button.action[data-action="hand"]');
		if (!b) return false;
		b.click();
		return true;`)
	for i := range phones {
		if got := ct.sess.Latest().State.View(engine.Seat(i)).(dschunke.View).Me.Hand; len(got) == 0 {
			t.Errorf("%s's hand was not recorded", setup.Players[i])
		}
	}
	// Round 1: the market card scanned, then the actions and restocks.
	ct.tap("market-02")
	for _, l := range []struct {
		seat engine.Seat
		line string
	}{
		{0, "income with=merchant"}, {1, "load with=merchant at=1,2"}, {2, "take with=merchant goods=fish:3"},
		{3, "take with=helper junk=white goods=rice:3"},
		{0, "restock goods=fish:1,rice:1"}, {1, "restock goods=spices:2"}, {2, "restock goods=vegetables:2"}, {3, "restock goods=vegetables:2"},
	} {
		ct.submit(l.seat, l.line)
	}
	ct.settle(all...)
	if !ct.sess.Latest().State.(*dschunke.State).AwaitsBids() {
		t.Fatal("the bidding is not open after the restocks")
	}
	ct.shot(tbl, "dschunke-table-bidding.png")

	// The sealed bids, each from its phone's prompt.
	bids := []map[string]int{{"rice": 1}, {"spices": 3}, {"spices": 3}, {"fish": 4}}
	cards := make([]int, len(setup.Players)) // hand sizes before the bids
	for i, p := range ct.sess.Latest().State.View(engine.NoSeat).(dschunke.View).Players {
		cards[i] = p.Cards
	}
	bid := func(seat int) {
		t.Helper()
		sheet(ct, phones[seat], "bid", bids[seat])
	}
	for seat := 0; seat < 3; seat++ {
		bid(seat)
	}
	ct.settle(all...)
	ct.shot(phones[0], "dschunke-seat-1-anna-sealed.png")
	ct.shot(tbl, "dschunke-table-sealed.png")

	// Before the last bid: no frame to another seat or to the table holds
	// a sealed bid.
	checked := 0
	sealedSeq := ct.sess.Latest().Seq
	for k, s := range all {
		viewer := k - 1  // -1: the table
		var seen []int64 // the steps of the sealing this screen received
		for _, raw := range s.frames() {
			f, rest, ok := publicPart(raw, "me")
			if !ok {
				continue
			}
			checked++
			if f.Seq > sealedSeq-3 {
				seen = append(seen, f.Seq)
			}
			var v dschunke.View
			if err := json.Unmarshal(f.View, &v); err != nil {
				t.Fatalf("%s: frame %d: %v", s.name, f.Seq, err)
			}
			if v.Me != nil && int(v.Me.Seat) != viewer {
				t.Errorf("%s: frame %d holds seat %d's secrets", s.name, f.Seq, v.Me.Seat+1)
			}
			if viewer < 0 && (v.Me != nil || len(f.Legal) > 0 && string(f.Legal) != "null") {
				t.Errorf("%s: frame %d holds a seat's secrets or actions", s.name, f.Seq)
			}
			if len(v.Biddings) > 0 || len(v.StaffSecrets) > 0 {
				t.Errorf("%s: frame %d holds bids before the reveal: %v %v", s.name, f.Seq, v.Biddings, v.StaffSecrets)
			}
			for i, p := range v.Players {
				if p.Bid != "" && p.Bid != "sealed" {
					t.Errorf("%s: frame %d shows %s's bid %q before the reveal", s.name, f.Seq, p.Name, p.Bid)
				}
				if p.Bid == "sealed" && p.Cards != cards[i] {
					t.Errorf("%s: frame %d shows %s with %d cards after sealing, %d before: the bid's size shows", s.name, f.Seq, p.Name, p.Cards, cards[i])
				}
			}
			// Nothing but the seat's own parts tells a bid's goods count.
			for seat, b := range bids[:3] {
				if seat == viewer {
					continue
				}
				for g, n := range b {
					for _, pat := range []string{fmt.Sprintf(`\b%s:%d\b`, g, n), fmt.Sprintf(`"%s":%d\b`, g, n)} {
						if regexp.MustCompile(pat).MatchString(rest) {
							t.Errorf("%s: frame %d holds %q, %s's sealed bid: %.300s", s.name, f.Seq, pat, setup.Players[seat], rest)
						}
					}
				}
			}
		}
		// Raw events never reach a screen, only the log's words: the
		// secret ones would tell a hand, a bid or a special card.
		for _, raw := range s.frames() {
			for _, ev := range []engine.Event{dschunke.HandDealt{}, dschunke.BidSealed{}, dschunke.SpecialDrawn{}} {
				if strings.Contains(raw, `"`+ev.Name()+`"`) {
					t.Errorf("%s received the raw event %s: %.200s", s.name, ev.Name(), raw)
				}
			}
		}
		// The hub may skip a step for a slow screen, never the last: each
		// screen got the state after the third bid.
		if !slices.Contains(seen, sealedSeq) {
			t.Errorf("%s received the steps %v of the bids, not the last, %d", s.name, seen, sealedSeq)
		}
	}
	// Each phone shows its own sealed bid, the table none.
	for seat := 0; seat < 3; seat++ {
		var mine string
		if err := chromedp.Run(phones[seat].ctx, chromedp.Text(`#mybid`, &mine, chromedp.ByQuery)); err != nil {
			t.Fatal(err)
		}
		for g, n := range bids[seat] {
			if !strings.Contains(mine, "×"+strconv.Itoa(n)) || mine == "" {
				t.Errorf("%s's phone shows the sealed bid %q, want %s ×%d", setup.Players[seat], mine, g, n)
			}
		}
	}
	var sealed []string
	if err := chromedp.Run(tbl.ctx, chromedp.Evaluate(`Array.from(document.querySelectorAll('#dj-players [data-bid]')).map(el => el.dataset.bid)`, &sealed)); err != nil {
		t.Fatal(err)
	}
	if strings.Join(sealed, ",") != "sealed,sealed,sealed," {
		t.Errorf("the table shows the bids %q, want three sealed and David's to come", sealed)
	}

	// The last bid: all are revealed at once on the table's screen.
	bid(3)
	ct.settle(all...)
	var shown []string
	if err := chromedp.Run(tbl.ctx, chromedp.Evaluate(`Array.from(document.querySelectorAll('#dj-players [data-bid]')).map(el => el.dataset.bid)`, &shown)); err != nil {
		t.Fatal(err)
	}
	want := []string{"rice:1", "spices:3", "spices:3", "fish:4"}
	if strings.Join(shown, ",") != strings.Join(want, ",") {
		t.Errorf("after the reveal the table shows the bids %q, want %q", shown, want)
	}
	var revealed, sales int
	if err := chromedp.Run(tbl.ctx,
		chromedp.Evaluate(`document.querySelectorAll('#dj-biddings td.revealed').length`, &revealed),
		chromedp.Evaluate(`document.querySelectorAll('#dj-sales li').length`, &sales)); err != nil {
		t.Fatal(err)
	}
	if revealed != 4 || sales == 0 {
		t.Errorf("the table shows %d revealed bids and %d sales, want 4 and some", revealed, sales)
	}
	// David, the single winner of the fish S, scans the special card he
	// took.
	if !ct.sess.Latest().State.(*dschunke.State).AwaitsCard() {
		t.Fatal("after the reveal the table does not wait for David's special card")
	}
	ct.tap("take-goods-1")
	ct.settle(all...)
	var special string
	if err := chromedp.Run(phones[3].ctx, chromedp.Text(`#dj-me`, &special, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	i := indexOf(t, d, "take-goods-1")
	fr, en := d.CardName(i, "fr"), d.CardName(i, "en")
	if !strings.Contains(special, fr) && !strings.Contains(special, en) {
		t.Errorf("David's phone does not show his special card %q: %q", en, special)
	}
	if anna := ct.text(phones[0]); strings.Contains(anna, fr) || strings.Contains(anna, en) {
		t.Errorf("Anna's phone names David's secret special card")
	}
	ct.shot(tbl, "dschunke-table-revealed.png")
	for i, p := range phones {
		ct.shot(p, "dschunke-seat-"+strconv.Itoa(i+1)+"-"+strings.ToLower(setup.Players[i])+".png")
	}
	ct.fitsScreen(tbl)
	ct.fitsScreen(phones[3])
	ct.french(tbl, `.dj-status .phase`)
	ct.french(phones[1], `.dj-status .phase`)
	ct.shot(tbl, "dschunke-table-fr.png")
	ct.shot(phones[1], "dschunke-seat-2-bruno-fr.png")
	t.Logf("%d state frames checked before the last bid; screenshots in %s", checked, ct.shots)
}

// handSheet records a starting hand from a phone's prompt: the action's
// button, the goods of each card in its sheet, the send button.
func handSheet(ct *cardTable, p *screen, hand map[string]int) {
	ct.t.Helper()
	var cards []string
	for _, g := range []string{"fish", "rice", "spices", "vegetables"} {
		for range hand[g] {
			cards = append(cards, g)
		}
	}
	js, _ := json.Marshal(cards)
	ct.act(p, fmt.Sprintf("hand %v", hand), `const b = document.querySelector('#prompt button.action[data-action="hand"]');
		if (!b) return false;
		b.click();
		const cards = `+string(js)+`;
		for (let k = 0; k < cards.length; k++) {
			const o = Array.from(document.querySelectorAll('#sheet .field')).find((f) => f.querySelector('input[type=hidden]').name === 'card' + (k + 1))
				.querySelector('button.option[data-value="' + cards[k] + '"]');
			if (!o) throw new Error("no card " + (k + 1) + " " + cards[k]);
			o.click();
		}
		const send = document.querySelector('#sheet-send');
		if (!send || send.disabled) return false;
		send.click();
		return true;`)
}

// sheet plays a seat's action from its phone's prompt: the action's
// button, then its sheet's fields (every number field not given set to 0),
// then the sheet's send button, and the confirmation when it asks one.
func sheet(ct *cardTable, p *screen, action string, fields map[string]int) {
	ct.t.Helper()
	id, _ := json.Marshal(action)
	vals, _ := json.Marshal(fields)
	ct.act(p, action+" "+string(vals), `const b = document.querySelector('#prompt button.action[data-action=' + JSON.stringify(`+string(id)+`) + ']');
		if (!b) return false;
		b.click();
		const f = document.querySelector('#sheet');
		if (!f) return false;
		const vals = `+string(vals)+`;
		for (const el of f.querySelectorAll('input[type=number]')) {
			el.value = String(vals[el.name] || 0);
			el.dispatchEvent(new Event("input", { bubbles: true }));
		}
		for (const k of Object.keys(vals)) if (!f.elements[k]) throw new Error("no field " + k);
		const send = document.querySelector('#sheet-send');
		if (!send || send.disabled) return false;
		send.click();
		// A step that cannot be taken back (the last bid) asks first.
		const dlg = document.querySelector('#dialog');
		if (dlg && !dlg.hidden) document.querySelector('#dialog-ok').click();
		return true;`)
}

func indexOf(t *testing.T, d *dschunke.Data, id string) int {
	t.Helper()
	i, ok := d.SpecialIndex(id)
	if !ok {
		t.Fatalf("no special card %s", id)
	}
	return i
}
