package dashboard

import (
	"context"
	"reflect"
	"slices"
	"sync"

	"comptoir/engine"
	"comptoir/games/kit"
)

// Proposals are offers a player makes to the seat the game waits for (in
// Genoa, the merchant): "move the pawn to the harbour and I pay you 10
// ducats". A proposal is a game command the proposer writes for the other
// seat to play; the other seat accepts (the dashboard then submits it as
// theirs, and the rules judge it) or refuses. Only the two seats and the
// staff see a proposal.

// Proposal states.
const (
	propPending  = "pending"
	propAccepted = "accepted"
	propRefused  = "refused"
	propExpired  = "expired"
)

type proposal struct {
	ID   int64       `json:"id"`
	From engine.Seat `json:"from"`
	// To is the first seat that must accept; Need are the seats that
	// must still accept, Asked all those asked.
	To    engine.Seat   `json:"to"`
	Need  []engine.Seat `json:"need"`
	Asked []engine.Seat `json:"asked"`
	// Line is the command in the notation: for the staff, and for the
	// seats of a game played without kit.Play. Label says it in words.
	Line   string    `json:"line,omitempty"`
	Label  *kit.Text `json:"label,omitempty"`
	Status string    `json:"status"`
	// FR and EN say why it was refused or expired, in public words.
	FR string `json:"fr,omitempty"`
	EN string `json:"en,omitempty"`
	// private are the words of the refusal for the seat that played it
	// (by) and the staff: they may name that seat's holdings.
	private *[2]string // en, fr
	// by is the seat the command is played as once every seat asked has
	// accepted: the seat proposed to (a proposal), or the proposer's
	// action's By (a command that needs consent).
	by  engine.Seat
	cmd engine.Command
	// seq is the journal's step the consent was asked at: it expires
	// when the game moves on. 0 for a proposal to the seat the game
	// waits for, which expires when the game no longer waits for it.
	seq int64
}

// proposals is the set of proposals; a player has at most one standing
// (a new one replaces it).
type proposals struct {
	mu   sync.Mutex
	next int64 // guarded by mu
	// said is each seat's latest announced command (Opts.Announce: an
	// offer made aloud at the table), guarded by mu.
	said map[engine.Seat]announced
	// byFrom is each proposer's latest proposal; guarded by mu.
	byFrom map[engine.Seat]*proposal
}

func newProposals() *proposals {
	return &proposals{byFrom: map[engine.Seat]*proposal{}, said: map[engine.Seat]announced{}}
}

// announced is a command a seat played that the whole table hears, such
// as an offer for an action: the rules keep who offered, the dashboard
// shows what.
type announced struct {
	Seat engine.Seat `json:"seat"`
	// Line is the command in the notation; Label says it in the log's
	// words (nil when unknown: restored after a restart).
	Line  string    `json:"line,omitempty"`
	Label *kit.Text `json:"label,omitempty"`
}

// announce records seat's latest announced command.
func (p *proposals) announce(seat engine.Seat, line string, label *kit.Text) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.said[seat] = announced{Seat: seat, Line: line, Label: label}
}

// announcements returns the announced commands, in seat order; with
// words, in words only (those without words are left out).
func (p *proposals) announcements(words bool) []announced {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []announced
	for _, a := range p.said {
		if words {
			if a.Label == nil {
				continue
			}
			a.Line = ""
		}
		out = append(out, a)
	}
	slices.SortFunc(out, func(x, y announced) int { return int(x.Seat - y.Seat) })
	return out
}

// ErrProposeSeat refuses a proposal that names another player in a seat
// field: a player proposes for themselves only.
var ErrProposeSeat = engine.NewRule("dashboard.propose-seat", "a proposal may only name yourself", "une proposition ne peut nommer que vous-même")

// ErrNobodyToPropose refuses a proposal when the game waits for nobody else.
var ErrNobodyToPropose = engine.NewRule("dashboard.nobody-to-propose", "the game waits for nobody you could propose to", "la partie n'attend personne à qui proposer")

// ErrNoProposal refuses an answer to a proposal that is not there.
var ErrNoProposal = engine.NewRule("dashboard.no-proposal", "there is no such proposal waiting for you", "aucune proposition de ce genre ne vous attend")

// onlySeat reports whether every Seat field of cmd is seat.
func onlySeat(cmd engine.Command, seat engine.Seat) bool {
	v := reflect.ValueOf(cmd)
	if v.Kind() != reflect.Struct {
		return false
	}
	seatType := reflect.TypeOf(engine.Seat(0))
	for i := 0; i < v.NumField(); i++ {
		f := v.Field(i)
		switch {
		case f.Type() == seatType:
			if engine.Seat(f.Int()) != seat {
				return false
			}
		case f.Kind() == reflect.Slice && f.Type().Elem() == seatType:
			for j := 0; j < f.Len(); j++ {
				if engine.Seat(f.Index(j).Int()) != seat {
					return false
				}
			}
		}
	}
	return true
}

// add records a proposal from a seat to another, played as that seat
// once accepted.
func (p *proposals) add(from, to engine.Seat, line string, cmd engine.Command) *proposal {
	return p.addConsent(from, to, []engine.Seat{to}, line, nil, cmd, 0)
}

// addConsent records from's command, played as by once every seat of
// need has accepted; it expires when the game moves on from step seq (0:
// when the game no longer waits for need[0]).
func (p *proposals) addConsent(from, by engine.Seat, need []engine.Seat, line string, label *kit.Text, cmd engine.Command, seq int64) *proposal {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.next++
	pr := &proposal{ID: p.next, From: from, To: need[0], Need: slices.Clone(need), Asked: slices.Clone(need),
		Line: line, Label: label, Status: propPending, by: by, cmd: cmd, seq: seq}
	p.byFrom[from] = pr
	return pr
}

// accept records seat's acceptance of pending proposal id: done is true
// when it was the last one needed, and the proposal is then marked
// accepted (so that two answers cannot both play it).
func (p *proposals) accept(id int64, seat engine.Seat) (pr proposal, done, ok bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, q := range p.byFrom {
		if q.ID != id || q.Status != propPending || !slices.Contains(q.Need, seat) {
			continue
		}
		q.Need = slices.DeleteFunc(q.Need, func(s engine.Seat) bool { return s == seat })
		if len(q.Need) == 0 {
			q.Status = propAccepted
			return *q, true, true
		}
		return *q, false, true
	}
	return proposal{}, false, false
}

// take returns the pending proposal id that seat must answer and marks it
// with status.
func (p *proposals) take(id int64, seat engine.Seat, status string) (proposal, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, pr := range p.byFrom {
		if pr.ID == id && slices.Contains(pr.Need, seat) && pr.Status == propPending {
			pr.Status = status
			return *pr, true
		}
	}
	return proposal{}, false
}

// settle sets the outcome of an answered proposal: public is what the
// proposer reads (en, fr), private, if not nil, what the seat that played
// it and the staff read.
func (p *proposals) settle(id int64, status string, public [2]string, private *[2]string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, pr := range p.byFrom {
		if pr.ID == id {
			pr.Status, pr.EN, pr.FR, pr.private = status, public[0], public[1], private
		}
	}
}

// expire marks pending proposals to seats the game no longer waits for,
// and the consents asked at an earlier step than seq. It reports whether
// any changed.
func (p *proposals) expire(waiting []engine.Seat, seq int64) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	changed := false
	for _, pr := range p.byFrom {
		if pr.Status == propPending && (pr.seq == 0 && !slices.Contains(waiting, pr.To) || pr.seq != 0 && pr.seq != seq) {
			pr.Status = propExpired
			pr.EN, pr.FR = "the game moved on", "la partie a avancé"
			changed = true
		}
	}
	return changed
}

// clear forgets every proposal (a new game).
func (p *proposals) clear() {
	p.mu.Lock()
	defer p.mu.Unlock()
	clear(p.byFrom)
	clear(p.said)
}

// visible returns the proposals a audience may see, oldest first; with
// words, a seat sees them in words only, never in the notation.
func (p *proposals) visible(a audience, words bool) []proposal {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []proposal
	for _, pr := range p.byFrom {
		if a.role == roleStaff || a.role == roleSeat && (pr.From == a.seat || pr.by == a.seat || slices.Contains(pr.Asked, a.seat)) {
			v := *pr
			if v.private != nil && (a.role == roleStaff || a.seat == v.by) {
				v.EN, v.FR = v.private[0], v.private[1]
			}
			v.private = nil
			if a.role == roleSeat && words {
				v.Line = ""
			}
			out = append(out, v)
		}
	}
	slices.SortFunc(out, func(x, y proposal) int { return int(x.ID - y.ID) })
	return out
}

// propose records seat's proposal to the seat the game waits for.
func (s *Server) propose(seat engine.Seat, m Message) error {
	u := s.latestUpdate()
	if u == nil {
		return ErrNotRunning
	}
	cmd, err := u.Codec.ParseCommand(m.Line, s.players())
	if err != nil {
		return err
	}
	if !onlySeat(cmd, seat) {
		return engine.Refuse(ErrProposeSeat, "", "")
	}
	to := engine.NoSeat
	for _, w := range u.State.Waiting() {
		if w != seat {
			to = w
			break
		}
	}
	if to == engine.NoSeat {
		return engine.Refuse(ErrNobodyToPropose, "", "")
	}
	s.props.add(seat, to, u.Codec.FormatCommand(cmd, s.players()), cmd)
	s.notifySeats()
	return nil
}

// answer plays or refuses a proposal made to seat: it is played once
// every seat asked has accepted.
func (s *Server) answer(ctx context.Context, seat engine.Seat, m Message) error {
	if !*m.Accept {
		if _, ok := s.props.take(m.Proposal, seat, propRefused); !ok {
			return engine.Refuse(ErrNoProposal, "", "")
		}
		s.props.settle(m.Proposal, propRefused, [2]string{"refused by " + s.name(seat), "refusée par " + s.name(seat)}, nil)
		s.notifySeats()
		return nil
	}
	pr, done, ok := s.props.accept(m.Proposal, seat)
	if !ok {
		return engine.Refuse(ErrNoProposal, "", "")
	}
	if !done {
		s.notifySeats()
		return nil
	}
	sctx, cancel := context.WithTimeout(ctx, s.opts.SubmitTimeout)
	err := s.sess.Submit(sctx, engine.Action{By: pr.by, Cmd: pr.cmd})
	cancel()
	switch r, ok := engine.AsRefusal(err); {
	case err == nil:
		s.props.settle(pr.ID, propAccepted, [2]string{}, nil)
	case ok:
		// The proposer learns the deal failed and the rule it broke; the
		// details may name the holdings of the seat that played it, for it
		// alone.
		en, fr := r.Public()
		s.props.settle(pr.ID, propRefused, [2]string{en, fr}, &[2]string{r.EN, r.FR})
	default:
		s.props.settle(pr.ID, propRefused, [2]string{"the table could not play it", "la table n'a pas pu la jouer"}, &[2]string{err.Error(), err.Error()})
	}
	s.notifySeats()
	if pr.by == seat {
		return err
	}
	// The refusal's details name pr.by's holdings: the seat that accepted
	// a deal played as another learns the rule only.
	if r, ok := engine.AsRefusal(err); ok {
		en, fr := r.Public()
		return &engine.Refusal{Rule: r.Rule, EN: en, FR: fr}
	}
	return err
}
