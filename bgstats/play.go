package bgstats

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"strings"
	"time"

	"comptoir/engine"
	"comptoir/journal"
)

// Game is what BG Stats needs to know of one game, besides its rules.
type Game struct {
	// Name is the game's name as the app shows it, for example "The
	// Traders of Genoa"; required.
	Name string
	// BGGID is the game's BoardGameGeek id, 0 when it has none (or none is
	// known): the app then matches the game by Name.
	BGGID int
	// BGGName and BGGYear are the BoardGameGeek name and year of
	// publication, if known.
	BGGName string
	BGGYear int
	// MinPlayers and MaxPlayers are the player counts the game allows.
	MinPlayers, MaxPlayers int
	// NoPoints is true for a game that has a winner but no points: the
	// play then has no scores and no ranks, only the winner.
	NoPoints bool
	// StartCommand is the command (its verb in the game record notation)
	// whose first standing step names the start player, for a game where
	// the table decides at the start who begins (for example an
	// auction's opening bid). Empty: the first seat starts, since a
	// setup's players are in seating order from the first player.
	StartCommand string
	// Rounds counts the rounds played in a final state; nil when the game
	// has no rounds.
	Rounds func(engine.State) int
}

// Opts are the table's settings that go into a play.
type Opts struct {
	// Location is the venue, for example the café's name.
	Location string
	// Zone is the table's time zone, for the play's local date. Nil:
	// time.Local.
	Zone *time.Location
	// Source names the program in the link (the app's sourceName). Empty:
	// DefaultSource.
	Source string
}

// DefaultSource is the link's sourceName when Opts.Source is empty.
const DefaultSource = "Comptoir"

// Sentinel errors of Read.
var (
	// ErrNotFinished: the game is still being played, or was abandoned
	// (not scored).
	ErrNotFinished = errors.New("bgstats: the game is not over")
	// ErrNoSuchGame: the journal has no game with that number.
	ErrNoSuchGame = errors.New("bgstats: no such game in the journal")
)

// Play is a finished game, ready to be written for BG Stats.
type Play struct {
	// ID is the game's number in its journal.
	ID    int64
	Game  Game
	Setup engine.Setup
	// Result is the final score; Over is true.
	Result engine.Result
	// Started and Ended are the journal's start and end of the game.
	Started, Ended time.Time
	// StartPlayer is the seat that began the game.
	StartPlayer engine.Seat
	// Rounds is the number of rounds played, 0 if the game has none.
	Rounds int
}

// Read reads game id of the journal as a play. The game must be over (by
// the rules, or ended by the staff: scored as it stands). rules are the
// game's rules (as the table played it: a Genoa table's board).
func Read(st *journal.Store, rules engine.Rules, id int64, g Game) (Play, error) {
	infos, err := st.Games()
	if err != nil {
		return Play{}, err
	}
	var info *journal.Info
	for i := range infos {
		if infos[i].ID == id {
			info = &infos[i]
		}
	}
	if info == nil {
		return Play{}, fmt.Errorf("%w: game %d of %s (comptoir plays lists them)", ErrNoSuchGame, id, st.Path())
	}
	if info.Outcome != "over" {
		what := "is still being played"
		if info.Outcome == "abandoned" {
			what = "was abandoned"
		}
		return Play{}, fmt.Errorf("%w: game %d of %s %s", ErrNotFinished, id, st.Path(), what)
	}
	game, err := st.Load(rules, id)
	if err != nil {
		return Play{}, err
	}
	s, err := game.State()
	if err != nil {
		return Play{}, err
	}
	p, err := FromState(s, info.Started, info.Finished, g)
	if err != nil {
		return Play{}, err
	}
	p.ID = id
	p.StartPlayer = startPlayer(game.Steps(), g.StartCommand)
	return p, nil
}

// startPlayer is the seat of the first standing step of command verb, or
// the first seat.
func startPlayer(steps []journal.Step, verb string) engine.Seat {
	if verb == "" {
		return 0
	}
	for _, s := range steps {
		if s.Undo || s.Undone || s.By < 0 {
			continue
		}
		if v, _, _ := strings.Cut(s.Command, " "); v == verb {
			return s.By
		}
	}
	return 0
}

// FromState makes the play of a final state: a game over, or ended by
// the staff and scored as it stands. The start player is the first seat
// (Read finds the real one in the journal).
func FromState(s engine.State, started, ended time.Time, g Game) (Play, error) {
	if g.Name == "" {
		return Play{}, errors.New("bgstats: the game's metadata has no name")
	}
	setup := s.Setup()
	res := s.Result()
	res.Over = true
	if len(res.Scores) != len(setup.Players) {
		return Play{}, fmt.Errorf("bgstats: %d scores for %d players", len(res.Scores), len(setup.Players))
	}
	for _, sc := range res.Scores {
		if sc.Seat < 0 || int(sc.Seat) >= len(setup.Players) {
			return Play{}, fmt.Errorf("bgstats: a score for seat %d of %d", int(sc.Seat), len(setup.Players))
		}
	}
	if started.IsZero() {
		started = ended
	}
	p := Play{Game: g, Setup: setup, Result: res, Started: started, Ended: ended}
	if g.Rounds != nil {
		p.Rounds = g.Rounds(s)
	}
	return p, nil
}

// Duration is the play's length in whole minutes, rounded to the nearest.
func (p Play) Duration() int {
	if p.Ended.Before(p.Started) {
		return 0
	}
	return int(p.Ended.Sub(p.Started).Round(time.Minute) / time.Minute)
}

// winners returns the set of winning seats.
func (p Play) winners() map[engine.Seat]bool {
	w := map[engine.Seat]bool{}
	for _, s := range p.Result.Winners {
		w[s] = true
	}
	return w
}

// comments is the score's breakdown, one line per player.
func (p Play) comments() string {
	var lines []string
	for _, sc := range p.Result.Scores {
		var parts []string
		for _, part := range sc.Parts {
			parts = append(parts, fmt.Sprintf("%s %d", part.NameEN, part.Points))
		}
		name := p.Setup.Players[sc.Seat]
		switch {
		case p.Game.NoPoints && len(parts) > 0:
			lines = append(lines, fmt.Sprintf("%s: %s", name, strings.Join(parts, ", ")))
		case p.Game.NoPoints:
		case len(parts) > 0:
			lines = append(lines, fmt.Sprintf("%s: %d (%s)", name, sc.Total, strings.Join(parts, ", ")))
		default:
			lines = append(lines, fmt.Sprintf("%s: %d", name, sc.Total))
		}
	}
	return strings.Join(lines, "\n")
}

// uuid is a stable UUID-shaped identifier made from parts (version 5
// layout, SHA-256 based), so the same game exported twice is the same
// play.
func uuid(parts ...string) string {
	h := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	h[6] = h[6]&0x0f | 0x50
	h[8] = h[8]&0x3f | 0x80
	return strings.ToUpper(fmt.Sprintf("%x-%x-%x-%x-%x", h[0:4], h[4:6], h[6:8], h[8:10], h[10:16]))
}

// playID is the play's stable id.
func (p Play) playID() string {
	return uuid("play", p.Setup.Game, p.Started.UTC().Format(time.RFC3339Nano), strings.Join(p.Setup.Players, ","))
}

func (o Opts) zone() *time.Location {
	if o.Zone == nil {
		return time.Local
	}
	return o.Zone
}
