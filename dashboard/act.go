package dashboard

import (
	"context"
	"slices"
	"strconv"
	"strings"

	"comptoir/engine"
	"comptoir/games/kit"
)

// A phone plays without the notation (issue 16): the seat's frame lists
// its actions described for people (kit.Play.Actions) and the phone
// sends back an action's ID and its fields' values. The server never
// trusts a command or a seat from the page: it finds the ID among the
// seat's actions on the latest state and builds the command itself. A
// command that takes something from another seat (kit.Play.Consent),
// however it arrives, waits for that seat's acceptance as a proposal.

// Refusals of an act.
var (
	// ErrStaleAction refuses an action ID the seat no longer has: the
	// game moved on since its page was drawn.
	ErrStaleAction = engine.NewRule("dashboard.stale-action", "the game moved on: look again", "la partie a avancé : regardez de nouveau")
	// ErrNoPlay refuses an act in a game that is played with its commands.
	ErrNoPlay = engine.NewRule("dashboard.no-play", "this game is played with its commands here", "ce jeu se joue ici avec ses commandes")
	// ErrNoValue refuses an act without a choice one of its fields needs.
	ErrNoValue = engine.NewRule("dashboard.no-value", "choose a value first", "choisissez d'abord une valeur")
)

// seatActions are the actions of every seat of st (kit.Play.Actions),
// nil when the game has no Play.
func (s *Server) seatActions(st engine.State) map[engine.Seat][]kit.Action {
	p := s.kit.Play
	if p == nil || p.Actions == nil {
		return nil
	}
	out := map[engine.Seat][]kit.Action{}
	if st.Result().Over {
		return out
	}
	for i := range st.Setup().Players {
		out[engine.Seat(i)] = p.Actions(st, engine.Seat(i))
	}
	return out
}

// prompt is what the game waits for, told to viewer; nil without Play.
func (s *Server) prompt(st engine.State, viewer engine.Seat) *kit.Text {
	p := s.kit.Play
	if p == nil || p.Prompt == nil {
		return nil
	}
	t := p.Prompt(st, viewer)
	if t.EN == "" && t.FR == "" {
		return nil
	}
	return &t
}

// act plays the seat's action m.Action with m.Values. proposed is true
// when it waits for other seats' consent.
func (s *Server) act(ctx context.Context, seat engine.Seat, m Message) (proposed bool, err error) {
	u := s.latestUpdate()
	if u == nil {
		return false, ErrNotRunning
	}
	p := s.kit.Play
	if p == nil || p.Actions == nil {
		return false, engine.Refuse(ErrNoPlay, "", "")
	}
	a, err := kit.Find(p.Actions(u.State, seat), m.Action)
	if err != nil {
		return false, engine.Refuse(ErrStaleAction, "", "")
	}
	values := map[string]string{}
	for _, f := range a.Fields {
		v, ok := m.Values[f.Key]
		switch {
		case ok:
		case len(f.Options) == 0:
			v = strconv.Itoa(f.Value)
		case len(f.Options) == 1:
			v = f.Options[0].Value
		default:
			return false, engine.Refuse(ErrNoValue, "choose first: "+f.Label.EN, "choisissez d'abord : "+f.Label.FR)
		}
		values[f.Key] = v
	}
	cmd, err := a.Build(values)
	if err != nil {
		if _, ok := engine.AsRefusal(err); ok {
			return false, err
		}
		return false, engine.Refuse(engine.ErrBadArgument, err.Error(), err.Error())
	}
	label := fillLabel(a, values)
	return s.playAs(ctx, seat, engine.Action{By: a.By, Cmd: cmd}, &label)
}

// playAs plays act from seat's phone: at once, or as a proposal to the
// seats whose consent it needs (kit.Play.Consent), said with label (nil:
// in the words of the log).
func (s *Server) playAs(ctx context.Context, seat engine.Seat, act engine.Action, label *kit.Text) (proposed bool, err error) {
	u := s.latestUpdate()
	if u == nil {
		return false, ErrNotRunning
	}
	if need := s.consent(u.State, seat, act); len(need) > 0 {
		// Judge it first: a deal the rules refuse is not proposed.
		evs, err := u.State.Decide(act)
		if err != nil {
			return false, err
		}
		if label == nil {
			label = describeEvents(u.State, evs)
		}
		s.props.addConsent(seat, act.By, need, u.Codec.FormatCommand(act.Cmd, s.players()), label, act.Cmd, u.Seq)
		s.notifySeats()
		return true, nil
	}
	var said *kit.Text
	if s.announces(u, act.Cmd) {
		// Said in the log's words, from the state it is played on.
		if evs, err := u.State.Decide(act); err == nil {
			said = describeEvents(u.State, evs)
		}
	}
	sctx, cancel := context.WithTimeout(ctx, s.opts.SubmitTimeout)
	err = s.sess.Submit(sctx, act)
	cancel()
	if err == nil && s.announces(s.latestUpdate(), act.Cmd) {
		s.props.announce(seat, s.codec().FormatCommand(act.Cmd, s.players()), said)
		s.notifySeats()
	}
	return false, err
}

// consent lists the seats other than seat that must accept act.
func (s *Server) consent(st engine.State, seat engine.Seat, act engine.Action) []engine.Seat {
	p := s.kit.Play
	if p == nil || p.Consent == nil {
		return nil
	}
	var need []engine.Seat
	for _, c := range p.Consent(st, act) {
		if c != seat && c >= 0 && int(c) < len(st.Setup().Players) && !slices.Contains(need, c) {
			need = append(need, c)
		}
	}
	return need
}

// describeEvents tells what evs would do, in the log's public words.
func describeEvents(st engine.State, evs []engine.Event) *kit.Text {
	d, ok := st.(engine.Describer)
	if !ok {
		return nil
	}
	var fr, en []string
	for _, ev := range evs {
		fr = append(fr, d.Describe(ev, "fr"))
		en = append(en, d.Describe(ev, "en"))
		next, err := st.Apply(ev)
		if err != nil {
			break
		}
		st = next
		if d, ok = st.(engine.Describer); !ok {
			break
		}
	}
	return &kit.Text{FR: strings.Join(fr, " ; "), EN: strings.Join(en, "; ")}
}

// fillLabel is a's label with its fields' values: a number with its unit,
// an option by its name.
func fillLabel(a kit.Action, values map[string]string) kit.Text {
	fr, en := a.Label.FR, a.Label.EN
	for _, f := range a.Fields {
		v := values[f.Key]
		vfr, ven := v, v
		if len(f.Options) > 0 {
			for _, o := range f.Options {
				if o.Value == v {
					vfr, ven = o.Label.FR, o.Label.EN
				}
			}
		} else if n, err := strconv.Atoi(v); err == nil {
			ufr, uen := f.Unit.FR, f.Unit.EN
			if n != 1 && n != -1 && f.Units.EN != "" {
				uen = f.Units.EN
			}
			if (n >= 2 || n <= -2) && f.Units.FR != "" {
				ufr = f.Units.FR // French: 0 and 1 take the singular
			}
			vfr, ven = strings.TrimSpace(v+" "+ufr), strings.TrimSpace(v+" "+uen)
		}
		fr = strings.ReplaceAll(fr, "{"+f.Key+"}", vfr)
		en = strings.ReplaceAll(en, "{"+f.Key+"}", ven)
	}
	return kit.Text{FR: fr, EN: en}
}

// takeBack undoes seat's own last step (Session.TakeBack).
func (s *Server) takeBack(ctx context.Context, seat engine.Seat) error {
	sctx, cancel := context.WithTimeout(ctx, s.opts.SubmitTimeout)
	defer cancel()
	return s.sess.TakeBack(sctx, seat)
}
