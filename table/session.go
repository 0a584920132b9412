package table

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"comptoir/engine"
	"comptoir/games"
	"comptoir/games/kit"
	"comptoir/hw/clock"
	"comptoir/input"
	"comptoir/journal"
	"comptoir/notation"
)

// Indicator is the table box's lights: the "waiting for you" LED and the
// buzzer or red LED of a refusal. The session calls it from its own
// goroutine; an implementation must not block.
type Indicator interface {
	Waiting(on bool)
	Refused()
}

// Opts configure a Session.
type Opts struct {
	// Rules are the game's rules. Required.
	Rules engine.Rules
	// Game is the game's journal, begun or resumed. Required.
	Game *journal.Game
	// Store is the journal's store; it lets the staff start a new game
	// at the table (StaffNewGame). Nil: they cannot.
	Store *journal.Store
	// Kit is the game's kit: its table adapter and its dice. Zero means
	// the kit of the game of that name in the list of games
	// (games.Lookup); a game that is not there cannot be played.
	Kit kit.Game
	// Adapter turns table inputs into the game's commands. Nil means the
	// kit's, if any; without one, table inputs other than device
	// statuses and unknown tags are ignored and the game is played from
	// the phones.
	Adapter Adapter
	// Tags finds what an enrolled tag stands for. Nil: no tag is enrolled.
	Tags TagLookup
	// Clock stamps the journal's steps and times the undo window.
	// Nil means the real clock.
	Clock clock.Clock
	// Indicator drives the box's lights; nil when none is fitted.
	Indicator Indicator
	// MinConfidence is the confidence under which a dice reading is
	// treated as unreadable: a wrong roll is far worse than a request to
	// look again.
	MinConfidence float64
	// UndoWindow is how long after a step from the table's devices the
	// undo button may still cancel it.
	UndoWindow time.Duration
	// MaxUnknown is how many unknown tags are kept for enrolment (the
	// most recent ones).
	MaxUnknown int
	// JournalCheck is how often the journal is checked, and retried
	// while it does not record; 0 means DefaultJournalCheck.
	JournalCheck time.Duration
	// Logf logs the journal's faults with their raw causes; nil: none.
	Logf func(format string, args ...any)
	// DiceNote is told, on the session's goroutine, what became of each
	// dice reading of the camera (dicenote.go); nil: nobody listens. It
	// must not block.
	DiceNote func(DiceNote)
}

// DefaultOpts are the options a table uses unless its configuration says
// otherwise. Rules and Game must still be set.
var DefaultOpts = Opts{
	MinConfidence: 0.9,
	UndoWindow:    30 * time.Second,
	MaxUnknown:    16,
}

// Update is what subscribers receive after every change: a step accepted
// or undone, a refusal, a device's status, an unknown tag.
type Update struct {
	// Game is the game's number in the table's journal; it changes when
	// the staff start a new game.
	Game int64
	// Outcome is "" while the game runs, then "over" or "abandoned".
	Outcome string
	// Seq is the journal's last entry: it grows with every accepted step
	// and every undo.
	Seq int64
	// State is the game's state, an immutable value: call State.View(seat)
	// for each connection.
	State engine.State
	// Rules are the rules the state was built with, and Codec theirs:
	// a reader decodes and formats commands with the update's rules,
	// never reading them back from the session (a staff board edit swaps
	// the rules on the session's goroutine).
	Rules engine.Rules
	Codec *engine.Codec
	// Log is the game's log in words, public, oldest first. Read only.
	Log []LogLine
	// Refusal is the last refusal since the last accepted step, nil if
	// none.
	Refusal *Refused
	// Devices is the last status of each device, by device name order.
	Devices []input.DeviceStatus
	// Unknown are the unknown tags seen lately, waiting to be enrolled,
	// oldest first.
	Unknown []input.UnknownTag
	// Last is the last standing step, nil if none.
	Last *LastStep
	// Reading is the camera's dice reading standing as the last step,
	// which the seat that threw may correct (CorrectDice); nil if none.
	Reading *Reading
}

// LogLine is one line of the game's log, in both languages.
type LogLine struct {
	Seq int64  `json:"seq"`
	FR  string `json:"fr"`
	EN  string `json:"en"`
}

// Refused is a refusal as shown to the table.
type Refused struct {
	// Seat is whom it answers: a player, engine.NoSeat for the table's
	// devices, engine.Staff.
	Seat engine.Seat `json:"seat"`
	// Code is the rule's stable code, for example "genoa.visited-twice".
	Code string `json:"code"`
	FR   string `json:"fr"`
	EN   string `json:"en"`
	// PublicFR and PublicEN are the rule's public words, without the
	// details of this case (engine.Refusal.Public): what anyone but the
	// seat that acted may read, the table's screen included.
	PublicFR string `json:"-"`
	PublicEN string `json:"-"`
	// Seq is the journal's last entry when it happened.
	Seq int64 `json:"seq"`
}

// NewRefused is the refusal r of by's action, at the journal's entry seq.
func NewRefused(by engine.Seat, r *engine.Refusal, seq int64) *Refused {
	code := ""
	if r.Rule != nil {
		code = r.Rule.Code
	}
	en, fr := r.Public()
	return &Refused{Seat: by, Code: code, FR: r.FR, EN: r.EN, PublicFR: fr, PublicEN: en, Seq: seq}
}

// Errors of the session.
var (
	// ErrStopped is returned by Submit and Staff once Run has returned.
	ErrStopped = errors.New("table: the session has stopped")
	// ErrRunning is returned by a second call of Run.
	ErrRunning = errors.New("table: the session is already running")
	// ErrBadRequest is wrapped by the error of a malformed staff request.
	ErrBadRequest = errors.New("table: bad request")
	// ErrJournal is the rule of the refusal of a step the journal could
	// not record: the step is not taken. Its words say what happened and
	// what to do (see journalfault.go).
	ErrJournal = engine.NewRule("table.journal", "the journal could not record the step", "le journal n'a pas pu enregistrer l'étape")
)

// Session is one table's game. Make it with New, then call Run.
type Session struct {
	rules   engine.Rules
	store   *journal.Store
	adapter Adapter
	tags    TagLookup
	clock   clock.Clock
	ind     Indicator
	opts    Opts

	reqs    chan request
	stopped chan struct{} // closed when Run returns
	once    sync.Once

	// Owned by the Run goroutine (and by New before Run starts).
	state    engine.State
	seq      int64
	log      []LogLine
	refusal  *Refused
	devices  map[string]input.DeviceStatus
	unknown  []input.UnknownTag
	game     *journal.Game
	last     *journal.Step    // the last standing step, nil if none
	lastDice int64            // Seq of the last step made from a dice roll, 0 if none
	lastRoll input.DiceRolled // the roll of step lastDice
	byHand   bool             // lastRoll was entered by hand (StaffDice), not read
	thrower  engine.Seat      // the seat that threw lastRoll (throwerOf)
	asked    time.Time        // the camera's last reading if it could not read the roll (unreadable, too unsure), zero if none
	askedSeq int64            // the step that reading came after (enteredFor)
	waiting  *bool            // last value sent to the indicator
	outcome  string
	held     heldInputs  // table inputs waiting for the journal (journalfault.go)
	played   *playedStep // the last step played since the journal was read, nil if none

	mu     sync.Mutex
	subs   map[chan Update]struct{} // guarded by mu
	latest Update                   // guarded by mu
	record *journal.Game            // the game of latest, guarded by mu
}

type request struct {
	sync   bool // does nothing: answered once every earlier request and input is handled
	action *engine.Action
	staff  *StaffRequest
	// takeBack is a player's take back of their last step.
	takeBack *engine.Seat
	// dice is a player's correction of the camera's reading.
	dice  *diceFix
	reply chan error
}

// New returns a session over the journal's game, at the state the
// journal's standing steps give.
func New(opts Opts) (*Session, error) {
	if opts.Rules == nil || opts.Game == nil {
		return nil, fmt.Errorf("%w: Opts.Rules and Opts.Game are required", ErrBadRequest)
	}
	if opts.Clock == nil {
		opts.Clock = clock.Real()
	}
	if opts.Kit.Name == "" {
		k, err := games.Lookup(opts.Rules.Name())
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrBadRequest, err)
		}
		opts.Kit = k
	}
	if opts.Kit.Name != opts.Rules.Name() {
		return nil, fmt.Errorf("%w: the kit of %q for rules of %q", ErrBadRequest, opts.Kit.Name, opts.Rules.Name())
	}
	if opts.Adapter == nil && opts.Kit.Adapter != nil {
		opts.Adapter = opts.Kit.Adapter(opts.Rules)
	}
	if opts.MaxUnknown <= 0 {
		opts.MaxUnknown = DefaultOpts.MaxUnknown
	}
	s := &Session{
		rules:   opts.Rules,
		store:   opts.Store,
		game:    opts.Game,
		adapter: opts.Adapter,
		tags:    opts.Tags,
		clock:   opts.Clock,
		ind:     opts.Indicator,
		opts:    opts,
		reqs:    make(chan request),
		stopped: make(chan struct{}),
		devices: map[string]input.DeviceStatus{},
		subs:    map[chan Update]struct{}{},
	}
	if opts.Game.Finished() {
		// The journal keeps the outcome in its history; a finished game
		// only matters here as one that takes no more steps.
		s.outcome = "over"
	}
	if err := s.rebuild(); err != nil {
		return nil, err
	}
	s.publish()
	return s, nil
}

// Rules are the game's rules as of the latest update (Update.Rules).
func (s *Session) Rules() engine.Rules { return s.Latest().Rules }

// Kit is the game's kit; it does not change while the session lives.
func (s *Session) Kit() kit.Game { return s.opts.Kit }

// Setup is the game's setup.
func (s *Session) Setup() engine.Setup { return s.Latest().State.Setup() }

// Current returns the update once every input and request the session
// received before the call is handled.
func (s *Session) Current(ctx context.Context) (Update, error) {
	if err := s.do(ctx, request{sync: true}); err != nil {
		return Update{}, err
	}
	return s.Latest(), nil
}

// Latest returns the latest update.
func (s *Session) Latest() Update {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.latest
}

// rebuild sets the state, the log and the last step from the journal.
func (s *Session) rebuild() error {
	st, err := s.game.State()
	if err != nil {
		return fmt.Errorf("table: rebuild the game from the journal: %w", err)
	}
	steps := s.game.Steps()
	log, err := buildLog(s.rules, s.game.Setup(), steps)
	if err != nil {
		return fmt.Errorf("table: rebuild the game's log from the journal: %w", err)
	}
	s.state, s.log = st, log
	s.seq, s.last, s.played, s.lastDice = 0, nil, nil, 0
	for _, step := range steps {
		s.seq = step.Seq
		if !step.Undo && !step.Undone {
			s.last = &step
		}
	}
	if s.last != nil && s.last.Seq == s.seq {
		// The last step, nothing undone since: played from a dice roll,
		// its note says which (a session that resumes the journal knows
		// the camera's reading as the one that played it did).
		if roll, hand, thrower, ok := parseRollNote(s.last.Note); ok {
			s.lastDice, s.lastRoll, s.byHand, s.thrower = s.last.Seq, roll, hand, thrower
		}
	}
	return nil
}

// buildLog tells the standing steps in words, from the setup.
func buildLog(rules engine.Rules, setup engine.Setup, steps []journal.Step) ([]LogLine, error) {
	st, err := rules.Start(setup)
	if err != nil {
		return nil, err
	}
	var out []LogLine
	for _, step := range steps {
		if step.Undo {
			out = append(out, undoLine(step, setup.Players))
			continue
		}
		if step.Undone {
			continue
		}
		var lines []LogLine
		st, lines, err = describe(st, step.Seq, step.By, step.Command, step.Events)
		if err != nil {
			return nil, fmt.Errorf("step %d: %w", step.Seq, err)
		}
		out = append(out, lines...)
	}
	return out, nil
}

func undoLine(step journal.Step, players []string) LogLine {
	if step.By >= 0 && int(step.By) < len(players) && !strings.HasPrefix(step.Reason, MisreadPrefix) {
		// A player's take back (takeback.go).
		name := players[step.By]
		return LogLine{Seq: step.Seq, FR: name + " reprend sa dernière étape.", EN: name + " took back their last step."}
	}
	fr, en := undoReason(step.Reason)
	return LogLine{Seq: step.Seq,
		FR: fmt.Sprintf("La dernière étape est annulée (%s).", fr),
		EN: fmt.Sprintf("The last step is undone (%s).", en)}
}

// undoReason is the reason of an undo in French and English: the table's
// own reasons are translated, the staff's are shown as they wrote them.
func undoReason(reason string) (fr, en string) {
	var blue, red int
	switch {
	case reason == "undo button":
		return "bouton d'annulation de la table", "the table's undo button"
	case reason == "taken back":
		return "reprise par le joueur", "taken back by the player"
	default:
		if fr, en, ok := misreadWords(reason); ok {
			return fr, en
		}
		if n, err := fmt.Sscanf(reason, "dice corrected to blue=%d red=%d", &blue, &red); err == nil && n == 2 {
			return fmt.Sprintf("dés corrigés : bleu %d, rouge %d", blue, red), fmt.Sprintf("dice corrected: blue %d, red %d", blue, red)
		}
	}
	return reason, reason
}

// describe applies the events to st and tells each in words with the
// state it applies to. Without a Describer, the log says who played which
// command, by its name only: its arguments may be secret (a card, a sum).
func describe(st engine.State, seq int64, by engine.Seat, command string, evs []engine.Event) (engine.State, []LogLine, error) {
	var out []LogLine
	_, ok := st.(engine.Describer)
	if !ok {
		verb, _, _ := strings.Cut(command, " ")
		who := by.String()
		if by >= 0 && int(by) < len(st.Setup().Players) {
			who = st.Setup().Players[by]
		}
		out = append(out, LogLine{Seq: seq, FR: who + " : " + verb, EN: who + ": " + verb})
	}
	for _, ev := range evs {
		if ok {
			d := st.(engine.Describer)
			out = append(out, LogLine{Seq: seq, FR: d.Describe(ev, "fr"), EN: d.Describe(ev, "en")})
		}
		var err error
		if st, err = st.Apply(ev); err != nil {
			return nil, nil, fmt.Errorf("apply %s: %w", ev.Name(), err)
		}
	}
	return st, out, nil
}

// Run runs the game until ctx is cancelled, reading the table's inputs
// from inputs (which may be nil, or closed when the inputs end: the game
// goes on from the phones). It returns nil when ctx is cancelled.
func (s *Session) Run(ctx context.Context, inputs <-chan input.Event) error {
	first := false
	s.once.Do(func() { first = true })
	if !first {
		return ErrRunning
	}
	defer close(s.stopped)
	s.indicate()
	check := s.journalTimer()
	for {
		select {
		case <-check:
			check = s.journalCheck()
		case <-ctx.Done():
			return nil
		case ev, ok := <-inputs:
			if !ok {
				inputs = nil
				continue
			}
			s.handleInput(ev)
		case r := <-s.reqs:
			r.reply <- s.handleRequest(r)
		}
	}
}

// Submit plays a player's command from a phone. It returns nil once the
// step is accepted and journalled, a *engine.Refusal (see
// engine.AsRefusal) when the rules refuse it, or another error when the
// journal failed or ctx ended first.
func (s *Session) Submit(ctx context.Context, a engine.Action) error {
	if a.By == engine.Staff {
		return engine.Refuse(ErrStaffNotAllowed, "staff commands go through the staff page", "les commandes du personnel passent par la page du personnel")
	}
	if a.Cmd == nil {
		return fmt.Errorf("%w: an action without a command", ErrBadRequest)
	}
	return s.do(ctx, request{action: &a})
}

// Staff carries out a request of the staff page; its errors are those of
// Submit, or ErrBadRequest for an incomplete request.
func (s *Session) Staff(ctx context.Context, r StaffRequest) error {
	switch r.Kind {
	case StaffUndo:
		if r.Reason == "" {
			return fmt.Errorf("%w: an undo needs a reason, for the game's log", ErrBadRequest)
		}
	case StaffCorrect:
		if r.Cmd == nil {
			return fmt.Errorf("%w: a staff command needs a command", ErrBadRequest)
		}
	case StaffEnd:
	case StaffAbandon:
		if r.Reason == "" {
			return fmt.Errorf("%w: abandoning a game needs a reason, for the history", ErrBadRequest)
		}
	case StaffNewGame:
	case StaffRules:
		if r.Rules == nil {
			return fmt.Errorf("%w: new rules are needed", ErrBadRequest)
		}
	case StaffDice:
		if r.Blue < 1 || r.Red < 1 {
			return fmt.Errorf("%w: the dice entered need both faces, not blue=%d red=%d", ErrBadRequest, r.Blue, r.Red)
		}
	default:
		return fmt.Errorf("%w: staff request %q is not the session's", ErrBadRequest, r.Kind)
	}
	return s.do(ctx, request{staff: &r})
}

func (s *Session) do(ctx context.Context, r request) error {
	r.reply = make(chan error, 1)
	select {
	case s.reqs <- r:
	case <-ctx.Done():
		return ctx.Err()
	case <-s.stopped:
		return ErrStopped
	}
	select {
	case err := <-r.reply:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Subscribe returns a channel that receives the latest update at once,
// then every new one; an update not read before the next replaces it. The
// channel is closed when ctx ends.
func (s *Session) Subscribe(ctx context.Context) <-chan Update {
	ch := make(chan Update, 1)
	s.mu.Lock()
	s.subs[ch] = struct{}{}
	ch <- s.latest
	s.mu.Unlock()
	context.AfterFunc(ctx, func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		delete(s.subs, ch)
		close(ch)
	})
	return ch
}

// publish sends the current update to every subscriber, replacing an
// unread one. Only the Run goroutine (or New) calls it, so a drained
// channel stays empty until the send below.
func (s *Session) publish() {
	u := Update{
		Game:    s.game.ID(),
		Outcome: s.outcome,
		Seq:     s.seq,
		State:   s.state,
		Rules:   s.rules,
		Codec:   s.rules.Codec(),
		Log:     s.log[:len(s.log):len(s.log)],
		Refusal: s.refusal,
		Unknown: append([]input.UnknownTag(nil), s.unknown...),
		Last:    s.lastStep(),
		Reading: s.reading(),
	}
	for _, name := range sortedKeys(s.devices) {
		u.Devices = append(u.Devices, s.devices[name])
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.latest = u
	s.record = s.game
	for ch := range s.subs {
		select {
		case <-ch:
		default:
		}
		ch <- u
	}
}

func (s *Session) handleRequest(r request) error {
	if r.sync {
		return nil
	}
	if r.action != nil {
		return s.play(*r.action, false)
	}
	if r.takeBack != nil {
		return s.takeBack(*r.takeBack)
	}
	if r.dice != nil {
		return s.correctDice(*r.dice)
	}
	switch r.staff.Kind {
	case StaffUndo:
		return s.undo(engine.Staff, r.staff.Reason)
	case StaffCorrect:
		return s.play(engine.Action{By: engine.Staff, Cmd: r.staff.Cmd}, false)
	case StaffEnd, StaffAbandon:
		return s.finish(r.staff.Kind, r.staff.Reason)
	case StaffNewGame:
		return s.newGame(s.nextSetup(*r.staff))
	case StaffRules:
		return s.swapRules(r.staff.Rules, r.staff.Adapter)
	case StaffDice:
		return s.enterDice(engine.Staff, r.staff.Blue, r.staff.Red)
	}
	return fmt.Errorf("%w: staff request %q is not the session's", ErrBadRequest, r.staff.Kind)
}

// play decides the action, journals the step, then shows it.
func (s *Session) play(a engine.Action, fromDice bool) error {
	if err := s.writable(); err != nil {
		s.refuse(a.By, err.(*engine.Refusal))
		return err
	}
	if len(s.held.events) > 0 && !s.retryJournal() {
		// Table inputs wait for the journal: nothing goes before them.
		var down error = ErrJournal
		if f := s.game.Down(); f != nil {
			down = f
		}
		return s.journalFailed(a.By, down)
	}
	next, lines, evs, err := s.decide(a)
	if err != nil {
		if r, ok := engine.AsRefusal(err); ok {
			s.refuse(a.By, r)
			return r
		}
		return err
	}
	entered := s.enteredFor(a, fromDice)
	note := ""
	if fromDice {
		note = rollNote(s.lastRoll, s.byHand, s.thrower)
	}
	step, err := s.game.AppendNoted(s.clock.Now(), a, evs, note)
	if err != nil {
		return s.journalFailed(a.By, err)
	}
	s.journalUp()
	for i := range lines {
		lines[i].Seq = step.Seq
	}
	s.played = &playedStep{seq: step.Seq, before: s.state, action: a, events: evs}
	s.state, s.seq = next, step.Seq
	s.log = append(s.log, lines...)
	s.refusal = nil
	s.last = &step
	s.lastDice = 0
	if fromDice {
		s.lastDice = step.Seq
	}
	s.asked = time.Time{}
	if entered != nil {
		entered.Seq = step.Seq
		s.noteDice(*entered)
	}
	s.publish()
	s.indicate()
	return nil
}

// decide returns the state after the action, its log lines and events.
func (s *Session) decide(a engine.Action) (engine.State, []LogLine, []engine.Event, error) {
	evs, err := s.state.Decide(a)
	if err != nil {
		return nil, nil, nil, err
	}
	command := s.rules.Codec().FormatCommand(a.Cmd, s.state.Setup().Players)
	next, lines, err := describe(s.state, 0, a.By, command, evs)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("table: the rules decided %s but cannot apply it: %w", a.Cmd.Name(), err)
	}
	return next, lines, evs, nil
}

func (s *Session) refuse(by engine.Seat, r *engine.Refusal) {
	s.refusal = NewRefused(by, r, s.seq)
	if by == engine.NoSeat && s.ind != nil {
		s.ind.Refused()
	}
	s.publish()
}

func (s *Session) undo(by engine.Seat, reason string) error {
	if err := s.writable(); err != nil {
		return err
	}
	if s.last == nil {
		return engine.Refuse(ErrNothingToUndo, "", "")
	}
	if _, err := s.game.Undo(s.clock.Now(), by, reason); err != nil {
		if isJournal(err) {
			return s.journalFailed(by, err)
		}
		return fmt.Errorf("%w: %w", ErrBadRequest, err)
	}
	if err := s.rebuild(); err != nil {
		return err
	}
	s.refusal = nil
	s.lastDice = 0
	s.publish()
	s.indicate()
	return nil
}

// indicate lights the "waiting for you" LED when the game waits for the
// table, and only says so when that changes.
func (s *Session) indicate() {
	if s.ind == nil || s.adapter == nil {
		return
	}
	on := s.outcome == "" && s.adapter.AwaitsTable(s.state)
	if s.waiting != nil && *s.waiting == on {
		return
	}
	s.waiting = &on
	s.ind.Waiting(on)
}

func (s *Session) handleInput(ev input.Event) {
	if s.holdInput(ev) {
		return
	}
	var target Target
	switch e := ev.(type) {
	case input.DeviceStatus:
		s.devices[e.Device] = e
		s.publish()
		return
	case input.UnknownTag:
		s.addUnknown(e)
		return
	case input.DiceUnreadable:
		s.refuse(engine.NoSeat, engine.Refuse(ErrDiceUnreadable,
			fmt.Sprintf("the dice could not be read (%s): look again, roll again or enter the roll", e.ReasonIn("en")),
			fmt.Sprintf("les dés n'ont pas pu être lus (%s) : regardez à nouveau, relancez ou saisissez le tirage", e.ReasonIn("fr"))))
		s.noteDice(DiceNote{At: e.At, Fate: DiceUnreadable})
		s.asked, s.askedSeq = e.At, s.seq
		return
	case input.DiceRolled:
		if s.opts.Kit.Dice == nil {
			return // the game has no dice: a reading means nothing to it
		}
		if !s.opts.Kit.Dice(int(e.Blue), int(e.Red)) || e.Confidence < s.opts.MinConfidence {
			r := engine.Refusef(ErrDiceUnreadable, "the dice reading blue=%d red=%d is not sure enough (%.2f): look again or roll again",
				"la lecture des dés bleu=%d rouge=%d n'est pas assez sûre (%.2f) : regardez à nouveau ou relancez", e.Blue, e.Red, e.Confidence)
			s.refuse(engine.NoSeat, r)
			s.noteRefused(e, r)
			s.asked, s.askedSeq = e.At, s.seq
			return
		}
		if e.Correction {
			s.correct(e)
			return
		}
	case input.TagTapped:
		t, ok := Target{}, false
		if s.tags != nil {
			t, ok = s.tags(e.UID)
		}
		if !ok {
			s.addUnknown(input.UnknownTag(e))
			return
		}
		target = t
	case input.Button:
		if e.Name == "undo" {
			s.undoButton()
			return
		}
	}
	if s.adapter == nil {
		return
	}
	roll, dice := ev.(input.DiceRolled)
	a, err := s.adapter.Translate(s.state, ev, target)
	if err != nil {
		if r, ok := engine.AsRefusal(err); ok {
			s.refuse(engine.NoSeat, r)
			if dice {
				s.noteRefused(roll, r)
			}
		}
		return
	}
	if dice {
		s.lastRoll, s.byHand, s.thrower = roll, false, s.throwerOf(a, roll)
	}
	err = s.play(a, dice)
	if isJournal(err) {
		s.hold(ev)
	}
	if dice {
		s.notePlayed(roll, err)
	}
}

// notePlayed tells what became of reading e, played with error err.
func (s *Session) notePlayed(e input.DiceRolled, err error) {
	switch r, refused := engine.AsRefusal(err); {
	case err == nil:
		s.noteDice(DiceNote{At: e.At, Blue: e.Blue, Red: e.Red, Fate: DiceAccepted, Seq: s.seq})
	case isJournal(err):
		s.noteDice(DiceNote{At: e.At, Blue: e.Blue, Red: e.Red, Fate: DiceHeld})
	case refused:
		s.noteRefused(e, r)
	}
}

// correct replaces the last roll by a corrected reading, if nothing
// happened since the roll was played.
func (s *Session) correct(e input.DiceRolled) {
	if s.last == nil || s.lastDice != s.last.Seq {
		s.refuse(engine.NoSeat, engine.Refusef(ErrLateCorrection, "a die now shows blue=%d red=%d but the game went on; ask the staff to correct the roll",
			"un dé montre maintenant bleu=%d rouge=%d mais la partie a continué ; demandez au personnel de corriger le tirage", e.Blue, e.Red))
		return
	}
	if s.adapter == nil {
		return
	}
	was, undone := s.lastRoll, s.last.Seq
	if err := s.undo(engine.NoSeat, fmt.Sprintf("dice corrected to blue=%d red=%d", e.Blue, e.Red)); err != nil {
		if isJournal(err) {
			s.hold(e)
		}
		return
	}
	s.noteDice(DiceNote{At: was.At, Blue: was.Blue, Red: was.Red, Fate: DiceCorrected, Seq: undone})
	e.Correction = false
	a, err := s.adapter.Translate(s.state, e, Target{})
	if err != nil {
		if r, ok := engine.AsRefusal(err); ok {
			s.refuse(engine.NoSeat, r)
			s.noteRefused(e, r)
		}
		return
	}
	s.lastRoll, s.byHand, s.thrower = e, false, s.throwerOf(a, e)
	err = s.play(a, true)
	if isJournal(err) {
		s.hold(e)
	}
	s.notePlayed(e, err)
}

// MisreadPrefix begins the reason of the undo of a camera's dice reading
// that the players corrected (StaffDice, CorrectDice).
const MisreadPrefix = "dice misread: "

// enterDice plays the roll that by (the staff, StaffDice, or the seat
// that threw, CorrectDice) entered by hand, undoing first a reading of
// the camera still standing that differs from it: that undo, journalled
// as by's, has a reason that begins with MisreadPrefix and says who saw
// the dice.
func (s *Session) enterDice(by engine.Seat, blue, red int) error {
	if s.opts.Kit.Dice == nil || !s.opts.Kit.Dice(blue, red) {
		return fmt.Errorf("%w: blue=%d red=%d is not a roll of this game", ErrBadRequest, blue, red)
	}
	if s.adapter == nil {
		return fmt.Errorf("%w: the table has no game adapter", ErrBadRequest)
	}
	e := input.DiceRolled{At: s.clock.Now(), Blue: input.Face(blue), Red: input.Face(red), Confidence: 1}
	if s.last != nil && s.lastDice == s.last.Seq {
		read := s.lastRoll
		if int(read.Blue) == blue && int(read.Red) == red {
			return nil // the roll standing is the one entered
		}
		who, saw := thePlayers, kit.Text{EN: fmt.Sprintf("the players saw blue %d, red %d", blue, red), FR: fmt.Sprintf("les joueurs ont vu bleu %d, rouge %d", blue, red)}
		if players := s.state.Setup().Players; by >= 0 && int(by) < len(players) {
			who = players[by]
			saw = kit.Text{EN: fmt.Sprintf("%s saw blue %d, red %d", who, blue, red), FR: fmt.Sprintf("%s a vu bleu %d, rouge %d", who, blue, red)}
		}
		why := misreadReason(read.Blue, read.Red, who, blue, red)
		if s.byHand {
			why = fmt.Sprintf("dice entered again: blue=%d red=%d, then blue=%d red=%d", read.Blue, read.Red, blue, red)
		}
		undone := s.last.Seq
		if err := s.undo(by, why); err != nil {
			return err
		}
		if !s.byHand {
			s.noteDice(DiceNote{At: read.At, Blue: read.Blue, Red: read.Red, Fate: DiceMisread, Seq: undone, Why: saw, Entered: [2]input.Face{input.Face(blue), input.Face(red)}})
		}
	}
	a, err := s.adapter.Translate(s.state, e, Target{})
	if err != nil {
		if r, ok := engine.AsRefusal(err); ok {
			s.refuse(by, r)
		}
		return err
	}
	// Set before play publishes: the roll played is no reading to correct.
	s.lastRoll, s.byHand = e, true
	return s.play(a, true)
}

// Misreads counts the camera's dice readings the players corrected in a
// game's steps (the undos StaffDice journals).
func Misreads(steps []journal.Step) int {
	n := 0
	for _, st := range steps {
		if st.Undo && strings.HasPrefix(st.Reason, MisreadPrefix) {
			n++
		}
	}
	return n
}

// undoButton undoes the last step when the table's devices made it less
// than UndoWindow ago.
func (s *Session) undoButton() {
	switch {
	case s.last == nil:
		s.refuse(engine.NoSeat, engine.Refuse(ErrNothingToUndo, "", ""))
	case s.last.By != engine.NoSeat:
		s.refuse(engine.NoSeat, engine.Refuse(ErrUndoStaff, "the last step was a player's: only the staff can undo it",
			"la dernière étape venait d'un joueur : seul le personnel peut l'annuler"))
	case s.clock.Now().Sub(s.last.At) > s.opts.UndoWindow:
		s.refuse(engine.NoSeat, engine.Refusef(ErrUndoStaff, "the last step is more than %v old: only the staff can undo it",
			"la dernière étape date de plus de %v : seul le personnel peut l'annuler", s.opts.UndoWindow))
	default:
		if err := s.undo(engine.NoSeat, "undo button"); isJournal(err) {
			s.hold(input.Button{At: s.clock.Now(), Name: "undo"})
		}
	}
}

func (s *Session) addUnknown(e input.UnknownTag) {
	for i, u := range s.unknown {
		if u.UID == e.UID {
			s.unknown = append(s.unknown[:i:i], s.unknown[i+1:]...)
			break
		}
	}
	s.unknown = append(s.unknown, e)
	if len(s.unknown) > s.opts.MaxUnknown {
		s.unknown = s.unknown[len(s.unknown)-s.opts.MaxUnknown:]
	}
	s.publish()
}

func sortedKeys(m map[string]input.DeviceStatus) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Record returns the current game's standing steps as a game record, for
// download.
func (s *Session) Record() *notation.Record {
	s.mu.Lock()
	g := s.record
	s.mu.Unlock()
	return g.Record()
}

// writable refuses a step once the game has ended.
func (s *Session) writable() error {
	if s.outcome != "" {
		return engine.Refuse(ErrGameFinished, "", "")
	}
	return nil
}

// finish ends or abandons the game.
func (s *Session) finish(kind StaffKind, reason string) error {
	if err := s.writable(); err != nil {
		return err
	}
	outcome := "abandoned"
	if kind == StaffEnd {
		outcome = "over"
		if !s.state.Result().Over && reason == "" {
			return fmt.Errorf("%w: the game is not over by its rules: say why it ends early", ErrBadRequest)
		}
	}
	if err := s.game.Finish(s.clock.Now(), outcome); err != nil {
		return s.journalFailed(engine.Staff, err)
	}
	s.outcome = outcome
	line := LogLine{Seq: s.seq, FR: "La partie est terminée.", EN: "The game is over."}
	if kind == StaffAbandon {
		line = LogLine{Seq: s.seq, FR: "La partie est abandonnée (" + reason + ").", EN: "The game is abandoned (" + reason + ")."}
	} else if reason != "" {
		line = LogLine{Seq: s.seq, FR: "Le personnel a mis fin à la partie (" + reason + ").", EN: "The staff ended the game (" + reason + ")."}
	}
	s.log = append(s.log, line)
	s.refusal = nil
	s.publish()
	s.indicate()
	return nil
}

// newGame begins a new game in the store, once the current one ended.
func (s *Session) newGame(setup engine.Setup) error {
	if s.store == nil {
		return fmt.Errorf("%w: this session cannot start games (no store)", ErrBadRequest)
	}
	if s.outcome == "" {
		return fmt.Errorf("%w: end or abandon the current game first", ErrBadRequest)
	}
	g, err := s.store.Begin(s.rules, setup, s.clock.Now())
	if isJournal(err) {
		return s.journalFailed(engine.Staff, err)
	}
	if err != nil {
		return fmt.Errorf("%w: %w", ErrBadRequest, err)
	}
	s.game, s.outcome = g, ""
	if err := s.rebuild(); err != nil {
		return err
	}
	s.refusal, s.lastDice, s.asked = nil, 0, time.Time{}
	s.publish()
	s.indicate()
	return nil
}

// nextSetup is the setup of a StaffNewGame request: its own, or the
// game before's with its players.
func (s *Session) nextSetup(r StaffRequest) engine.Setup {
	if r.Setup != nil {
		return *r.Setup
	}
	setup := s.state.Setup()
	if len(r.Players) > 0 {
		setup.Players = r.Players
	}
	return setup
}

// swapRules reloads the game from the journal with other rules of the
// same game, and keeps them if the game so far replays with them.
func (s *Session) swapRules(rules engine.Rules, adapter Adapter) error {
	if s.store == nil {
		return fmt.Errorf("%w: this session cannot reload its game (no store)", ErrBadRequest)
	}
	if rules.Name() != s.rules.Name() {
		return fmt.Errorf("%w: rules of %q for a game of %q", ErrBadRequest, rules.Name(), s.rules.Name())
	}
	g, err := s.store.Load(rules, s.game.ID())
	if err == nil {
		_, err = g.State()
	}
	if err != nil {
		return engine.Refusef(ErrRulesMismatch, "the game so far does not fit the new rules: %v", "la partie jouée ne s'accorde pas aux nouvelles règles : %v", err)
	}
	oldRules, oldGame, oldAdapter := s.rules, s.game, s.adapter
	s.rules, s.game = rules, g
	if adapter != nil {
		s.adapter = adapter
	}
	if err := s.rebuild(); err != nil {
		s.rules, s.game, s.adapter = oldRules, oldGame, oldAdapter
		if err2 := s.rebuild(); err2 != nil {
			return fmt.Errorf("table: restoring the old rules: %w", err2)
		}
		return engine.Refusef(ErrRulesMismatch, "the game so far does not fit the new rules: %v", "la partie jouée ne s'accorde pas aux nouvelles règles : %v", err)
	}
	s.publish()
	s.indicate()
	return nil
}
