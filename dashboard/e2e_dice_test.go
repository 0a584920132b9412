package dashboard

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"comptoir/engine"
	"comptoir/games/genoa"
	"comptoir/input"
	"comptoir/table"
)

// TestBrowserDiceCamera opens Genoa's table screen, the merchant's phone
// and the staff page in Chromium over a real session and journal, with a
// fake dice camera:
//   - the staff page lists the camera's throws die by die as they come,
//     with the reader's reasons in the page's language, and its button saves the last frame for inspection (a real file),
//     after saying clearly that there is no frame yet;
//   - an unreadable roll makes the phone open the roll's sheet at once
//     (two rows of eight faces) and the table's screen show its own rows,
//     in English and in French, with the reader's reason in each; the roll entered on the phone is played
//     and journalled;
//   - a reading refused as too unsure does the same, and the roll entered
//     on the table's screen is played and journalled as the table's.
func TestBrowserDiceCamera(t *testing.T) {
	browserAvailable(t)
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	rules := genoa.New()
	setup := engine.Setup{Game: "genoa", Variant: "alea-2001", Players: []string{"Anna", "Bruno"}}
	store, sess := newSession(t, dir, rules, setup)
	inputs := make(chan input.Event)
	cam := newFakeCamera()
	inspectDir := filepath.Join(dir, "inspect")
	url := serveTableWith(t, ctx, sess, inputs, store, dir, func(o *Opts) { o.Dice, o.InspectDir = cam, inspectDir })
	drawGenoaHands(t, ctx, sess, rules, setup.Players)

	tv := newChromium(t, ctx)
	var joins []string
	if err := chromedp.Run(tv,
		chromedp.Navigate(url+"/"),
		chromedp.WaitVisible(`.qr img`, chromedp.ByQuery),
		chromedp.Evaluate(`Array.from(document.querySelectorAll('a.join')).map(a => a.href)`, &joins),
	); err != nil || len(joins) != 2 {
		t.Fatalf("table view: %v, %d join links", err, len(joins))
	}
	phone := newChromium(t, ctx)
	if err := chromedp.Run(phone, chromedp.Navigate(joins[0]), chromedp.WaitVisible(`#prompt`, chromedp.ByQuery)); err != nil {
		t.Fatalf("Anna's phone: %v", err)
	}
	staff := newChromium(t, ctx)
	if err := chromedp.Run(staff,
		chromedp.Navigate(url+"/staff"),
		chromedp.WaitVisible(`#pin input`, chromedp.ByQuery),
		chromedp.SendKeys(`#pin input`, "2468", chromedp.ByQuery),
		chromedp.Click(`#pin button`, chromedp.ByQuery),
		chromedp.WaitVisible(`#dice-camera`, chromedp.ByQuery),
	); err != nil {
		t.Fatalf("staff page: %v", err)
	}
	rolls := func() int {
		n := 0
		for _, s := range sess.Record().Lines {
			if strings.HasPrefix(s.Command, "roll ") {
				n++
			}
		}
		return n
	}

	t.Run("staff page", func(t *testing.T) {
		pollPage(t, staff, "no throw yet", `!!document.querySelector('#dice-throws-none')`)
		// No frame yet: the button says so.
		pollPage(t, staff, "the inspect button", `(document.querySelector('#inspect').click(), true)`)
		pollPage(t, staff, "no frame said", `!document.getElementById('toast').hidden && document.getElementById('toast').textContent.includes('no frame yet')`)
		cam.add(unreadThrow(time.Now()))
		pollPage(t, staff, "the throw, live", `(() => { const r = document.querySelector('#dice-throws tbody tr'); return r && r.dataset.fate === 'unreadable' && r.querySelector('.red').textContent.includes('41') && r.querySelector('.blue').textContent.includes('5') && r.textContent.includes('numeral unclear'); })()`)
		pollPage(t, staff, "the inspect button", `(document.querySelector('#inspect').click(), true)`)
		pollPage(t, staff, "the frame listed", `document.querySelectorAll('#inspections li.inspection').length === 1`)
		files, _ := filepath.Glob(filepath.Join(inspectDir, "*.jpg"))
		jsons, _ := filepath.Glob(filepath.Join(inspectDir, "*.json"))
		if len(files) != 1 || len(jsons) != 1 {
			t.Errorf("inspection folder holds %v %v, want a frame and its verdict", files, jsons)
		}
		if li := pageText(staff, `#inspections li`); !strings.Contains(li, "numeral unclear") {
			t.Errorf("the listed frame says %q, want its verdict", li)
		}
		// in French, the reader's reasons in French
		pollPage(t, staff, "the staff page in French", `(() => { if (document.documentElement.lang !== 'fr') document.getElementById('lang').click(); return document.documentElement.lang === 'fr'; })()`)
		pollPage(t, staff, "the throw's reason in French", `(() => { const r = document.querySelector('#dice-throws tbody tr .why'); return r && r.textContent.includes('chiffre peu net') && !r.textContent.includes('numeral unclear'); })()`)
		if li := pageText(staff, `#inspections li`); !strings.Contains(li, "dé rouge : chiffre peu net") || strings.Contains(li, "numeral unclear") {
			t.Errorf("the listed frame says %q in French, want its verdict in French", li)
		}
		pollPage(t, staff, "the staff page in English", `(() => { if (document.documentElement.lang !== 'en') document.getElementById('lang').click(); return document.documentElement.lang === 'en'; })()`)
		pollPage(t, staff, "the throw's reason in English", `(() => { const r = document.querySelector('#dice-throws tbody tr .why'); return r && r.textContent.includes('numeral unclear') && !r.textContent.includes('chiffre peu net'); })()`)
		chromedp.Run(staff, chromedp.ScrollIntoView(`#dice-camera`, chromedp.ByQuery))
		pageShot(t, staff, "dice-camera-staff.png")
	})

	t.Run("what the reader learned of its camera", func(t *testing.T) {
		// A reader that does not say what it learned of its camera: no
		// word of it. Then one learning where its camera shows a flat
		// die's numeral as the table plays, one that knows it, and one
		// that took the camera as moved and learns it afresh, whose
		// dice look too small.
		pollPage(t, staff, "no word of the guard", `!document.querySelector('#dice-guard')`)
		at := time.Now()
		learning := func(v input.ReaderView) {
			at = at.Add(time.Second)
			th := unreadThrow(at)
			th.View = &v
			cam.add(th)
		}
		guard := func(what, cond string) {
			t.Helper()
			pollPage(t, staff, what, `(() => { const g = document.querySelector('#dice-guard'); return !!g && `+cond+`; })()`)
		}
		learning(input.ReaderView{Flat: 7, FlatNeed: 5})
		guard("learning", `g.dataset.need === '5' && g.textContent.startsWith('Cocked dice: the reader is learning where this camera shows') && g.textContent.includes('after 5 more dice read flat it will refuse') && !g.textContent.includes('moved') && !document.querySelector('#dice-small')`)
		learning(input.ReaderView{Flat: 14, Across: 62, SmallUnder: 40})
		guard("refusing", `g.dataset.need === '0' && g.textContent.includes('knows where this camera shows a flat die') && g.textContent.includes('(14 flat dice)') && !document.querySelector('#dice-small')`)
		learning(input.ReaderView{Flat: 6, FlatNeed: 6, Moved: 1, Across: 33, Small: true, SmallUnder: 40})
		guard("the camera moved", `g.dataset.moved === '1' && g.dataset.need === '6' && g.textContent.includes('The camera seems to have been moved: the reader forgot the dice') && !document.querySelector('#dice-glare')`)
		// a lamp that washes the dice's top faces out: the staff page
		// says to move it, as long as the reader says so
		learning(input.ReaderView{Flat: 6, FlatNeed: 6, Moved: 1, Across: 33, Small: true, SmallUnder: 40, Blank: 5, BlankOf: 16, Glare: true})
		pollPage(t, staff, "the lamp washes the dice out", `(() => { const s = document.querySelector('#dice-glare'); return !!s && s.dataset.blank === '5' && s.textContent === 'The lamp washes the dice out: 5 of the last 16 dice at rest showed a white top face, no numeral on it, and were refused. Move the lamp aside from the tray or dim it.'; })()`)
		pollPage(t, staff, "the dice too small", `(() => { const s = document.querySelector('#dice-small'); return !!s && s.dataset.across === '33' && s.textContent.startsWith('The dice look about 33 pixels across') && s.textContent.includes('Bring the camera lower (or zoom in) until a die is at least 40 pixels across.'); })()`)
		pollPage(t, staff, "the staff page in French", `(() => { if (document.documentElement.lang !== 'fr') document.getElementById('lang').click(); return document.documentElement.lang === 'fr'; })()`)
		guard("in French", `g.textContent.startsWith('Dés cassés : le lecteur apprend où cette caméra') && g.textContent.includes('après encore 6 dés lus à plat') && g.textContent.includes('La caméra semble avoir été déplacée : le lecteur a oublié') && document.querySelector('#dice-small').textContent.startsWith('Les dés font environ 33 pixels de large') && document.querySelector('#dice-glare').textContent.startsWith('La lampe éblouit les dés : 5 des 16 derniers dés au repos')`)
		// On a phone (390x844) the camera's section fits the width.
		var overflow int
		if err := chromedp.Run(staff, chromedp.EmulateViewport(390, 844), chromedp.ScrollIntoView(`#dice-guard`, chromedp.ByQuery),
			chromedp.Evaluate(`Math.max(0, document.documentElement.scrollWidth - window.innerWidth)`, &overflow)); err != nil {
			t.Fatal(err)
		}
		pageShot(t, staff, "dice-guard-390.png")
		if overflow > 0 {
			t.Errorf("the staff page at 390x844 with the guard's words: %d px sideways overflow", overflow)
		}
		// "The camera was moved": asked first, then the reader forgets
		// the camera and the guard's words say it learns it afresh
		pollPage(t, staff, "the camera moved, in French", `(() => { const b = document.querySelector('#camera-moved-ask'); return !!b && b.textContent === 'La caméra a été déplacée' && b.getBoundingClientRect().height >= 44; })()`)
		pollPage(t, staff, "asked to confirm", `(document.querySelector('#camera-moved-ask').click(), true)`)
		pollPage(t, staff, "the question", `(() => { const p = document.querySelector('#camera-moved'); return !!p && p.textContent.includes('Oublier où cette caméra montre le chiffre') && !!document.querySelector('#camera-moved-yes') && !document.querySelector('#camera-moved-ask'); })()`)
		chromedp.Run(staff, chromedp.ScrollIntoView(`#camera-moved`, chromedp.ByQuery))
		pageShot(t, staff, "camera-moved-390.png")
		if err := chromedp.Run(staff, chromedp.Evaluate(`Math.max(0, document.documentElement.scrollWidth - window.innerWidth)`, &overflow)); err != nil || overflow > 0 {
			t.Errorf("the question at 390x844: %d px sideways overflow (%v)", overflow, err)
		}
		pollPage(t, staff, "cancel", `(document.querySelector('#camera-moved-no').click(), true)`)
		pollPage(t, staff, "nothing forgotten", `!!document.querySelector('#camera-moved-ask') && !!document.querySelector('#dice-small')`)
		cam.mu.Lock()
		if cam.forgot != 0 {
			t.Errorf("cancelled, the camera was asked to forget")
		}
		cam.mu.Unlock()
		pollPage(t, staff, "asked again", `(document.querySelector('#camera-moved-ask').click(), true)`)
		pollPage(t, staff, "confirm", `(document.querySelector('#camera-moved-yes').click(), true)`)
		guard("forgotten", `g.dataset.need === '12' && g.textContent.includes('après encore 12 dés lus à plat') && !document.querySelector('#dice-small')`)
		cam.mu.Lock()
		if cam.forgot != 1 {
			t.Errorf("the camera was asked to forget %d times, want once", cam.forgot)
		}
		cam.mu.Unlock()
		// back to the window's own size
		if err := chromedp.Run(staff, chromedp.ActionFunc(func(ctx context.Context) error { return emulation.ClearDeviceMetricsOverride().Do(ctx) })); err != nil {
			t.Fatal(err)
		}
		pollPage(t, staff, "the staff page in English", `(() => { if (document.documentElement.lang !== 'en') document.getElementById('lang').click(); return document.documentElement.lang === 'en'; })()`)
	})

	t.Run("calibrate from throws", func(t *testing.T) {
		pollPage(t, staff, "the calibration panel, nothing learned", `(() => { const s = document.querySelector('#calibrate-dice'); return s && s.textContent.includes('8 throws are enough') && document.querySelector('#calib-save').disabled && document.querySelectorAll('#calib-grid td.learned').length === 0 && document.querySelectorAll('#calib-grid td').length === 16; })()`)
		throw := func(blue, red int) {
			th := unreadThrow(time.Now())
			th.Red = th.Blue
			th.Blue.Face, th.Red.Face = input.Face(blue), input.Face(red)
			th.Reason, th.ReasonFR, th.Fate = "", "", "accepted"
			cam.add(th)
		}
		learned := func(die string, faces ...int) string {
			var conds []string
			for _, f := range faces {
				conds = append(conds, fmt.Sprintf(`!!document.querySelector('#calib-grid tr[data-die=%s] td[data-face="%d"][data-learned="1"]')`, die, f))
			}
			return strings.Join(conds, " && ")
		}
		for i, roll := range [][2]int{{5, 3}, {2, 7}} {
			throw(roll[0], roll[1])
			pollPage(t, staff, "the form filled with the throw", fmt.Sprintf(`document.querySelector('#calib-blue').value === '%d' && document.querySelector('#calib-red').value === '%d'`, roll[0], roll[1]))
			pollPage(t, staff, "learn", `(document.querySelector('#calib-learn').click(), true)`)
			pollPage(t, staff, "the grid shows the throw", learned("blue", roll[0])+" && "+learned("red", roll[1])+fmt.Sprintf(` && document.querySelectorAll('#calib-grid td.learned').length === %d`, 2*(i+1)))
		}
		pollPage(t, staff, "save enabled", `!document.querySelector('#calib-save').disabled && document.querySelector('#calib-status').textContent.includes('4 dice learned')`)
		chromedp.Run(staff, chromedp.ScrollIntoView(`#calibrate-dice`, chromedp.ByQuery))
		pageShot(t, staff, "calibrate-staff.png")
		pollPage(t, staff, "save", `(document.querySelector('#calib-save').click(), true)`)
		pollPage(t, staff, "saved and in use", `document.querySelector('#calib-status').textContent.includes('saved and in use') && document.querySelector('#calib-status').textContent.includes('2 3 5 7')`)
		if c := cam.Calibration(); c == nil || !c.Saved {
			t.Errorf("the camera's calibration %+v, want saved", c)
		}
		pollPage(t, staff, "the staff page in French", `(() => { if (document.documentElement.lang !== 'fr') document.getElementById('lang').click(); return document.documentElement.lang === 'fr'; })()`)
		pollPage(t, staff, "the panel in French", `document.querySelector('#calibrate-dice').textContent.includes('Calibrer ces dés') && document.querySelector('#calib-status').textContent.includes('calibration enregistrée et utilisée')`)
		pollPage(t, staff, "the staff page in English", `(() => { if (document.documentElement.lang !== 'en') document.getElementById('lang').click(); return document.documentElement.lang === 'en'; })()`)

		// The faces as the table knows them: a die the camera could not
		// read, then the roll the players entered; a misread, then the
		// roll the players saw.
		picked := func(what string, blue, red int) {
			t.Helper()
			pollPage(t, staff, what, fmt.Sprintf(`document.querySelector('#calib-blue').value === '%d' && document.querySelector('#calib-red').value === '%d'`, blue, red))
		}
		unread := unreadThrow(time.Now()) // blue 5 read, red not
		cam.add(unread)
		picked("the blue die read, the red one as it was", 5, 7)
		cam.settle(func(th *DiceThrow) { th.Fate, th.Seq, th.Entered = "entered", 9, []int{5, 6} })
		picked("the roll the players entered", 5, 6)
		pollPage(t, staff, "the throw entered, in the list", `document.querySelector('#dice-throws tbody tr').dataset.fate === 'entered' && document.querySelector('#dice-throws tbody tr .fate').textContent.includes('entered by the players')`)
		throw(4, 4)
		picked("a throw read", 4, 4)
		cam.settle(func(th *DiceThrow) { th.Fate, th.Seq, th.Entered = "misread", 10, []int{4, 8} })
		picked("the roll the players saw instead", 4, 8)
	})

	t.Run("calibrate again, or start again", func(t *testing.T) {
		// The reader started with the calibration saved: faces 1 and 8
		// learned before, kept by what it learns next.
		cam.inUse(4, 1, 8)
		pollPage(t, staff, "the faces learned before", `document.querySelectorAll('#calib-grid tr[data-die=earlier] td.learned').length === 2 && !!document.querySelector('#calib-grid tr[data-die=earlier] td[data-face="1"][data-learned="1"]') && !!document.querySelector('#calib-grid tr[data-die=earlier] td[data-face="8"][data-learned="1"]') && document.querySelector('#calib-grid tr[data-die=earlier] th').textContent === 'Learned before' && document.querySelector('#calib-earlier').textContent.includes('adds to them')`)
		pollPage(t, staff, "no word of the camera's lean", `!document.querySelector('#calib-leans')`)
		// The calibration's dice looked tilted to the hand-tuned reader:
		// the camera leans, and the panel says what to change.
		cam.leans(2, 8)
		pollPage(t, staff, "the camera leans", `!!document.querySelector('#calib-leans') && document.querySelector('#calib-leans').textContent.includes('The camera leans: 2 of the 8 dice learned') && document.querySelector('#calib-leans').textContent.includes('straight above the tray')`)
		// Where this camera shows a flat die's numeral: too few dice yet,
		// then enough to refuse a die cocked against the tray's wall.
		pollPage(t, staff, "no word of the flat dice", `!document.querySelector('#calib-flat')`)
		cam.flat(11, 1)
		pollPage(t, staff, "one more die", `!!document.querySelector('#calib-flat') && document.querySelector('#calib-flat').dataset.need === '1' && document.querySelector('#calib-flat').textContent.startsWith('1 more die learned') && document.querySelector('#calib-flat').textContent.includes('cocked against the tray')`)
		cam.flat(16, 0)
		pollPage(t, staff, "enough flat dice", `document.querySelector('#calib-flat').dataset.need === '0' && document.querySelector('#calib-flat').textContent.startsWith('16 dice learned show where this camera sees')`)
		// How large the dice look: 62 pixels across says nothing; 33
		// says the camera is too far, and what to do.
		cam.across(62)
		pollPage(t, staff, "no word of the dice's size", `!document.querySelector('#calib-small')`)
		cam.across(33)
		pollPage(t, staff, "dice too small", `!!document.querySelector('#calib-small') && document.querySelector('#calib-small').dataset.across === '33' && document.querySelector('#calib-small').textContent.startsWith('The dice are about 33 pixels across') && document.querySelector('#calib-small').textContent.includes('Bring the camera lower (or zoom in) until a die is at least 40 pixels across')`)
		// The calibration learned the colour of a violet "blue" die,
		// which the reader's own hues did not find.
		pollPage(t, staff, "no word of the dice's colours", `!document.querySelector('.calib-colour')`)
		cam.colours(input.DieColour{Die: "blue", From: 190, To: 290, OwnFrom: 190, OwnTo: 264})
		pollPage(t, staff, "the blue die's colour learned", `document.querySelectorAll('.calib-colour').length === 1 && document.querySelector('#calib-colour-blue').dataset.to === '290' && document.querySelector('#calib-colour-blue').textContent.startsWith('Learned the colour of the blue die: the reader did not find it by its own hues (190° to 264°); with this calibration it looks for it from 190° to 290°.')`)
		// On a phone (390x844) the panel, with its longest note, fits the
		// width, shows no notation and keeps its targets tappable.
		var panel struct {
			Overflow int      `json:"overflow"`
			Notation []string `json:"notation"`
			Small    []string `json:"small"`
		}
		if err := chromedp.Run(staff, chromedp.EmulateViewport(390, 844), chromedp.ScrollIntoView(`#calib-leans`, chromedp.ByQuery), chromedp.Evaluate(calibPanelCheckJS, &panel)); err != nil {
			t.Fatal(err)
		}
		pageShot(t, staff, "calibrate-leans-390.png")
		if panel.Overflow > 0 || len(panel.Notation) > 0 || len(panel.Small) > 0 {
			t.Errorf("the calibration panel at 390x844: %+v, want no sideways overflow, no notation, no target under 44 px", panel)
		}
		if err := chromedp.Run(staff, chromedp.EmulateViewport(420, 1400)); err != nil {
			t.Fatal(err)
		}
		pollPage(t, staff, "start again", `(document.querySelector('#calib-reset').click(), true)`)
		pollPage(t, staff, "asked to confirm", `!!document.querySelector('#calib-reset-confirm') && document.querySelector('#calib-reset-confirm').textContent.includes('Drop everything learned') && !document.querySelector('#calib-reset')`)
		chromedp.Run(staff, chromedp.ScrollIntoView(`#calibrate-dice`, chromedp.ByQuery))
		pageShot(t, staff, "calibrate-start-again.png")
		pollPage(t, staff, "the staff page in French", `(() => { if (document.documentElement.lang !== 'fr') document.getElementById('lang').click(); return document.documentElement.lang === 'fr'; })()`)
		pollPage(t, staff, "the confirmation in French", `document.querySelector('#calib-reset-confirm').textContent.includes('Oublier tout ce qui est appris') && document.querySelector('#calib-reset-yes').textContent === 'Oui, tout oublier' && document.querySelector('#calib-grid tr[data-die=earlier] th').textContent === 'Déjà appris' && document.querySelector('#calib-leans').textContent.includes('La caméra est inclinée : 2 des 8 dés appris') && document.querySelector('#calib-flat').textContent.startsWith('16 dés appris montrent où cette caméra voit') && document.querySelector('#calib-small').textContent.includes('Descendez la caméra (ou zoomez) jusqu\'à ce qu\'un dé fasse au moins 40 pixels') && document.querySelector('#calib-colour-blue').textContent.startsWith('Couleur du dé bleu apprise : le lecteur ne le trouvait pas à ses propres teintes (190° à 264°)')`)
		pollPage(t, staff, "the staff page in English", `(() => { if (document.documentElement.lang !== 'en') document.getElementById('lang').click(); return document.documentElement.lang === 'en'; })()`)
		pollPage(t, staff, "cancel", `(document.querySelector('#calib-reset-no').click(), true)`)
		pollPage(t, staff, "nothing dropped", `!document.querySelector('#calib-reset-confirm') && !!document.querySelector('#calib-reset') && document.querySelectorAll('#calib-grid tr[data-die=earlier] td.learned').length === 2`)
		if c := cam.Calibration(); c == nil || len(c.Earlier) != 2 {
			t.Errorf("the camera's calibration %+v after cancel, want the earlier faces kept", c)
		}
		pollPage(t, staff, "start again", `(document.querySelector('#calib-reset').click(), true)`)
		pollPage(t, staff, "confirm", `(document.querySelector('#calib-reset-yes').click(), true)`)
		pollPage(t, staff, "everything dropped", `!document.querySelector('#calib-grid tr[data-die=earlier]') && document.querySelectorAll('#calib-grid td.learned').length === 0 && document.querySelector('#calib-status').textContent.includes('0 dice learned') && document.querySelector('#calib-save').disabled`)
		if c := cam.Calibration(); c == nil || c.Dice != 0 || len(c.Earlier) != 0 {
			t.Errorf("the camera's calibration %+v after start again, want nothing learned", c)
		}
	})

	t.Run("unreadable: the phone asks at once", func(t *testing.T) {
		inputs <- input.DiceUnreadable{At: time.Now(), Reason: "red die: numeral unclear"}
		pollPage(t, phone, "the roll's sheet open at once", `(() => { const s = document.querySelector('#sheet[data-action=roll]'); return s && s.querySelectorAll('.options.dice').length === 2 && s.querySelectorAll('.options.dice')[0].querySelectorAll('button.option').length === 8 && s.querySelectorAll('.options.dice')[1].querySelectorAll('button.option').length === 8; })()`)
		pollPage(t, tv, "the table's rows", `document.querySelectorAll('#dice-ask button.option[data-die=blue]').length === 8 && document.querySelectorAll('#dice-ask button.option[data-die=red]').length === 8`)
		// Closed, the sheet stays closed; another unreadable throw opens
		// it again.
		pollPage(t, phone, "cancel the sheet", `(document.querySelector('#sheet-cancel').click(), true)`)
		pollPage(t, phone, "the sheet closed", `!document.querySelector('#sheet') && !!document.querySelector('#dice-ask')`)
		inputs <- input.Button{At: time.Now(), Name: "nothing"}
		time.Sleep(300 * time.Millisecond)
		var reopened bool
		if err := chromedp.Run(phone, chromedp.Evaluate(`!!document.querySelector('#sheet')`, &reopened)); err != nil {
			t.Fatal(err)
		}
		if reopened {
			t.Error("the sheet the player closed opened again with no new throw")
		}
		const notFoundEN = "blue die: not found: nothing of its colour and size — is the die in the tray, in the light?"
		const notFoundFR = "dé bleu : introuvable : rien de sa couleur et de sa taille — le dé est-il dans le plateau, à la lumière ?"
		inputs <- input.DiceUnreadable{At: time.Now(), Reason: notFoundEN, ReasonFR: notFoundFR}
		pollPage(t, phone, "the sheet open again", `!!document.querySelector('#sheet[data-action=roll]') && /blue die: not found|dé bleu : introuvable/.test(document.querySelector('#dice-ask').textContent)`)
		for _, tc := range []struct{ lang, want, reason, other string }{
			{"en", "Enter the roll: the dice could not be read", notFoundEN, notFoundFR},
			{"fr", "Saisissez le tirage\u00a0: les dés n'ont pas pu être lus", notFoundFR, notFoundEN},
		} {
			for _, c := range []context.Context{phone, tv} {
				pollPage(t, c, "language "+tc.lang, `(() => { if (document.documentElement.lang !== `+jsString(tc.lang)+`) document.getElementById('lang').click(); return document.documentElement.lang === `+jsString(tc.lang)+`; })()`)
				if got := pageText(c, `#dice-ask`); !strings.Contains(got, tc.want) || !strings.Contains(got, tc.reason) || strings.Contains(got, tc.other) {
					t.Errorf("%s: the ask says %q, want %q and the reader's reason in its language, %q", tc.lang, got, tc.want, tc.reason)
				}
			}
		}
		pageShot(t, phone, "dice-ask-phone.png")
		pageShot(t, tv, "dice-ask-table.png")
		pollPage(t, phone, "tap 5 and 1", `(() => { const o = document.querySelectorAll('#sheet .options.dice'); o[0].querySelector('[data-value="5"]').click(); document.querySelectorAll('#sheet .options.dice')[1].querySelector('[data-value="1"]').click(); document.querySelector('#sheet-send').click(); return true; })()`)
		pollPage(t, phone, "the ask gone", `!document.querySelector('#dice-ask') && !document.querySelector('#sheet')`)
		pollPage(t, tv, "the ask gone from the table", `!document.querySelector('#dice-ask')`)
		if n := rolls(); n != 1 {
			t.Fatalf("%d rolls in the journal, want the one entered on the phone", n)
		}
		if s := sess.Record().Lines; s[len(s)-1].By != 0 || s[len(s)-1].Command != "roll blue=5 red=1" {
			t.Errorf("last step %+v, want Anna's roll blue=5 red=1", s[len(s)-1])
		}
	})

	t.Run("unsure: the table's screen enters it", func(t *testing.T) {
		if err := sess.Staff(ctx, table.StaffRequest{Kind: table.StaffUndo, Reason: "test: roll again"}); err != nil {
			t.Fatal(err)
		}
		inputs <- input.DiceRolled{At: time.Now(), Blue: 3, Red: 4, Confidence: 0.5}
		pollPage(t, tv, "the table's rows", `document.querySelectorAll('#dice-ask button.option[data-die=red]').length === 8`)
		pollPage(t, phone, "the phone's sheet", `!!document.querySelector('#sheet[data-action=roll]')`)
		pollPage(t, tv, "tap 3 and 4", `(() => { document.querySelector('#dice-ask [data-die=blue][data-value="3"]').click(); document.querySelector('#dice-ask [data-die=red][data-value="4"]').click(); const b = document.querySelector('#dice-send'); if (b.disabled) return false; b.click(); return true; })()`)
		pollPage(t, tv, "the ask gone", `!document.querySelector('#dice-ask')`)
		pollPage(t, phone, "the phone's ask gone", `!document.querySelector('#dice-ask') && !document.querySelector('#sheet')`)
		s := sess.Record().Lines
		if last := s[len(s)-1]; last.By != engine.NoSeat || last.Command != "roll blue=3 red=4" {
			t.Errorf("last step %+v, want the table's roll blue=3 red=4", last)
		}
	})
}

// jsString quotes s for JavaScript.
func jsString(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}

// calibPanelCheckJS checks the staff page's calibration panel as
// pageCheckJS checks a player's page (the rest of the staff page has the
// staff's command form, notation by design): sideways overflow of the
// page, the notation in the panel's text, its buttons and selects under
// 44 px.
const calibPanelCheckJS = `(() => {
	const out = { overflow: 0, notation: [], small: [] };
	if (document.documentElement.scrollWidth > window.innerWidth) out.overflow = document.documentElement.scrollWidth;
	const panel = document.querySelector("#calibrate-dice");
	const m = panel.innerText.match(/\b[a-z]+=[^\s]/);
	if (m) out.notation.push(m[0]);
	for (const el of panel.querySelectorAll("button, select")) {
		const r = el.getBoundingClientRect();
		if (r.width < 43.5 || r.height < 43.5) out.small.push((el.id || el.tagName) + " " + Math.round(r.width) + "x" + Math.round(r.height));
	}
	return out;
})()`
