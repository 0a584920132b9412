package table

import (
	"errors"
	"fmt"
	"time"

	"comptoir/engine"
	"comptoir/input"
	"comptoir/journal"
)

// The journal under faults.
//
// A step the journal cannot record is not taken: a phone's command is
// refused with the journal's words (what happened, what to do), the
// journal's status, shown on every screen (seats included), turns to "not
// recording", and the raw cause goes to the log only. An input of the
// table's devices (dice, tags, buttons, a replay) is not lost: it is held,
// told to the table as not recorded yet, and played again in order once
// the journal records; inputs that come meanwhile queue behind it, up to
// MaxHeld, after which each one is refused as not recorded.
//
// Every JournalCheck the session checks the journal (its file still the
// one open, writable) and retries a journal that is down; a journal file
// deleted or replaced is written again at its path, and the staff are
// told on the journal's status and in the log.

// DefaultJournalCheck is how often the session checks its journal.
const DefaultJournalCheck = 2 * time.Second

// MaxHeld is how many table inputs wait for a journal that is down.
const MaxHeld = 32

// journalDevice is the journal's name among the devices' statuses.
const journalDevice = "journal"

// heldInputs are the table inputs waiting for the journal.
type heldInputs struct {
	events    []input.Event // oldest first, at most MaxHeld
	replaying bool          // the held inputs are being played again
}

// journalTimer starts the timer of the next journal check.
func (s *Session) journalTimer() <-chan time.Time {
	d := s.opts.JournalCheck
	if d <= 0 {
		d = DefaultJournalCheck
	}
	return s.clock.NewTimer(d).C()
}

// journalCheck checks the journal and retries it when down, then plays
// the held inputs if it records; it returns the next check's timer.
func (s *Session) journalCheck() <-chan time.Time {
	s.retryJournal()
	return s.journalTimer()
}

// retryJournal checks (and if need be brings back) the journal, tells its
// status, and plays the held inputs once it records. It reports whether
// the journal records and nothing is held.
func (s *Session) retryJournal() bool {
	if s.held.replaying {
		return true
	}
	if err := s.game.Check(); err != nil {
		s.journalDown(err)
		return false
	}
	s.journalUp()
	if len(s.held.events) == 0 {
		return true
	}
	held := s.held.events
	s.held.events = nil
	s.held.replaying = true
	for i, ev := range held {
		s.handleInput(ev)
		if len(s.held.events) > 0 {
			// Down again: the rest waits behind it, in order.
			s.held.events = append(s.held.events, held[i+1:]...)
			break
		}
	}
	s.held.replaying = false
	if len(s.held.events) == 0 {
		s.logf("journal: the %d held table inputs are recorded", len(held))
	}
	return len(s.held.events) == 0
}

// journalFailed turns the journal's error for a step into a refusal in
// words (also shown to by), sets the journal's status and logs the raw
// cause.
func (s *Session) journalFailed(by engine.Seat, err error) error {
	r := s.journalDown(err)
	s.refuse(by, r)
	return r
}

// journalDown sets the journal's status to "not recording" and returns
// the refusal that tells it.
func (s *Session) journalDown(err error) *engine.Refusal {
	en, fr := "the journal is not recording: the step is not taken. Call the staff.",
		"le journal n'enregistre plus : l'étape n'est pas prise. Appelez le personnel."
	if f, ok := journal.AsFault(err); ok {
		en, fr = f.EN, f.FR
	}
	r := engine.Refuse(ErrJournal, en, fr)
	d, ok := s.devices[journalDevice]
	if !ok || d.OK || d.Detail != en {
		s.logf("%v", err)
		s.devices[journalDevice] = input.DeviceStatus{At: s.clock.Now(), Device: journalDevice, OK: false, Detail: en, DetailFR: fr}
		s.publish()
	}
	return r
}

// journalUp sets the journal's status back to recording, telling what
// was rescued, if anything.
func (s *Session) journalUp() {
	d, ok := s.devices[journalDevice]
	rescues := s.game.TakeRescues()
	for _, r := range rescues {
		s.logf("journal %s: %s / %s (found: %v)", r.Path, r.EN, r.FR, r.Cause)
		s.devices[journalDevice] = input.DeviceStatus{At: s.clock.Now(), Device: journalDevice, OK: true, Detail: r.EN, DetailFR: r.FR}
	}
	if len(rescues) > 0 {
		s.publish()
		return
	}
	if ok && !d.OK {
		s.logf("journal: recording again")
		s.devices[journalDevice] = input.DeviceStatus{At: s.clock.Now(), Device: journalDevice, OK: true,
			Detail: "the journal records again", DetailFR: "le journal enregistre de nouveau"}
		s.publish()
	}
}

// holdInput queues a table input behind those already held; it reports
// whether it did (the input then waits for the journal).
func (s *Session) holdInput(ev input.Event) bool {
	if len(s.held.events) == 0 || s.held.replaying || !stepInput(ev) {
		return false
	}
	s.hold(ev)
	return true
}

// hold keeps a table input the journal could not record, to play it
// again once it records, and tells the table.
func (s *Session) hold(ev input.Event) {
	d := s.devices[journalDevice]
	if len(s.held.events) >= MaxHeld {
		s.refuse(engine.NoSeat, engine.Refuse(ErrJournal,
			fmt.Sprintf("%s was NOT recorded: the journal is down and %d inputs already wait. Play it again once the journal records. %s", inputName(ev, "en"), len(s.held.events), d.Detail),
			fmt.Sprintf("%s n'a PAS été enregistré : le journal est arrêté et %d entrées attendent déjà. Rejouez-le quand le journal enregistre de nouveau. %s", inputName(ev, "fr"), len(s.held.events), d.DetailFR)))
		return
	}
	s.held.events = append(s.held.events, ev)
	s.refuse(engine.NoSeat, engine.Refuse(ErrJournal,
		fmt.Sprintf("%s is not recorded yet: it is held (%d waiting) and will be played as soon as the journal records again. %s", inputName(ev, "en"), len(s.held.events), d.Detail),
		fmt.Sprintf("%s n'est pas encore enregistré : il est gardé (%d en attente) et sera joué dès que le journal enregistrera de nouveau. %s", inputName(ev, "fr"), len(s.held.events), d.DetailFR)))
}

// stepInput reports whether a table input may make a step.
func stepInput(ev input.Event) bool {
	switch ev.(type) {
	case input.DeviceStatus, input.UnknownTag, input.DiceUnreadable:
		return false
	}
	return true
}

func inputName(ev input.Event, lang string) string {
	fr := lang == "fr"
	switch e := ev.(type) {
	case input.DiceRolled:
		if fr {
			return fmt.Sprintf("Le tirage bleu=%d rouge=%d", e.Blue, e.Red)
		}
		return fmt.Sprintf("The roll blue=%d red=%d", e.Blue, e.Red)
	case input.TagTapped:
		if fr {
			return "Le badge " + e.UID
		}
		return "The tag " + e.UID
	case input.Button:
		if fr {
			return "Le bouton " + e.Name
		}
		return "The button " + e.Name
	}
	if fr {
		return "L'entrée de la table"
	}
	return "The table's input"
}

// isJournal reports whether err is a journal's failure to record.
func isJournal(err error) bool {
	_, fault := journal.AsFault(err)
	return fault || errors.Is(err, ErrJournal) || errors.Is(err, journal.ErrClosed)
}

func (s *Session) logf(format string, args ...any) {
	if s.opts.Logf != nil {
		s.opts.Logf(format, args...)
	}
}
