package dashboard

import (
	"context"
	"reflect"
	"strconv"

	"comptoir/engine"
	"comptoir/games/kit"
	"comptoir/input"
	"comptoir/table"
)

// When the camera cannot read the dice (an unreadable roll, or a reading
// the table refused as too unsure) and the game waits for them, the pages
// ask for the roll at once: the phone of the seat whose action enters the
// dice opens that action's sheet (a row of buttons per die), and the
// table's trusted screen shows the same rows and enters the roll itself
// (message "dice"), played as the table's as a reading would be.

// msgDice is the table's screen entering the roll the camera missed.
const msgDice = "dice"

// ErrNoDiceAsk refuses a roll entered on the table's screen when the
// table does not wait for one (the camera read it meanwhile, or the game
// moved on).
var ErrNoDiceAsk = engine.NewRule("dashboard.no-dice-ask", "the table does not wait for the dice now", "la table n'attend pas les dés maintenant")

// diceAsk is a frame's request for the roll.
type diceAsk struct {
	// Seq is the frame's: the ask stands for this step only.
	Seq int64 `json:"seq"`
	// ID tells one ask from the next at the same step (another
	// unreadable throw): the phone opens the roll's sheet again.
	ID int64 `json:"id"`
	// EN and FR say why the camera could not read the roll.
	EN string `json:"en"`
	FR string `json:"fr"`
	// Action is the seat's action that enters the roll, and Blue and
	// Red its fields for each die (a seat's frame).
	Action string `json:"action,omitempty"`
	Blue   string `json:"blue,omitempty"`
	Red    string `json:"red,omitempty"`
	// Faces are the faces of the dice (the table's screen).
	Faces []int `json:"faces,omitempty"`
	// Enter is true on the table's trusted screen: it may enter the
	// roll (msgDice).
	Enter bool `json:"enter,omitempty"`
}

// diceRefused is the standing refusal of the camera's roll, or nil.
func diceRefused(u *Update) *table.Refused {
	r := u.Refusal
	if r == nil || r.Code != table.ErrDiceUnreadable.Code || r.Seat != engine.NoSeat || r.Seq != u.Seq {
		return nil
	}
	return r
}

// diceAction is the action that a roll of blue and red is played with
// now, as the camera's reading would be; false when the game does not
// take that roll now.
func (s *Server) diceAction(u *Update, blue, red int) (engine.Action, bool) {
	if s.kit.Dice == nil || s.kit.Adapter == nil || !s.kit.Dice(blue, red) {
		return engine.Action{}, false
	}
	a, err := s.kit.Adapter(u.Rules).Translate(u.State, input.DiceRolled{Blue: input.Face(blue), Red: input.Face(red), Confidence: 1}, kit.Target{})
	if err != nil {
		return engine.Action{}, false
	}
	if _, err := u.State.Decide(a); err != nil {
		return engine.Action{}, false
	}
	return a, true
}

// faces are the dice's faces (1 to 8 that the game's dice may show).
func (s *Server) faces() []int {
	var out []int
	for f := 1; f <= 8; f++ {
		if s.kit.Dice != nil && (s.kit.Dice(f, 1) || s.kit.Dice(1, f)) {
			out = append(out, f)
		}
	}
	return out
}

// diceAskFor is the ask of u's frame for a, or nil.
func (s *Server) diceAskFor(u *Update, acts map[engine.Seat][]kit.Action, a audience, over bool) *diceAsk {
	r := diceRefused(u)
	if r == nil || over {
		return nil
	}
	faces := s.faces()
	if len(faces) < 2 {
		return nil
	}
	if _, ok := s.diceAction(u, faces[0], faces[1]); !ok {
		return nil // the game does not wait for the dice
	}
	ask := &diceAsk{Seq: u.Seq, ID: s.refusals, EN: r.EN, FR: r.FR}
	switch a.role {
	case roleSeat:
		id, blue, red := s.seatDiceAction(u, acts[a.seat], faces)
		if id == "" {
			return nil
		}
		ask.Action, ask.Blue, ask.Red = id, blue, red
	case roleTable:
		ask.Faces, ask.Enter = faces, a.screen
	case roleStaff:
		ask.Faces = faces
	}
	return ask
}

// seatDiceAction finds among a seat's actions the one that enters the
// dice: two choices that build, for two different rolls, the very
// command the camera's reading of those rolls makes. It returns its ID
// and the keys of its blue and red fields.
func (s *Server) seatDiceAction(u *Update, acts []kit.Action, faces []int) (id, blue, red string) {
	rolls := [][2]int{{faces[0], faces[1]}, {faces[1], faces[0]}}
	var want []engine.Command
	for _, r := range rolls {
		a, ok := s.diceAction(u, r[0], r[1])
		if !ok {
			return "", "", ""
		}
		want = append(want, a.Cmd)
	}
	for _, a := range acts {
		if len(a.Fields) != 2 || a.Build == nil {
			continue
		}
		for _, order := range [][2]int{{0, 1}, {1, 0}} {
			b, r := a.Fields[order[0]], a.Fields[order[1]]
			same := true
			for i, roll := range rolls {
				cmd, err := a.Build(map[string]string{b.Key: strconv.Itoa(roll[0]), r.Key: strconv.Itoa(roll[1])})
				if err != nil || !reflect.DeepEqual(cmd, want[i]) {
					same = false
					break
				}
			}
			if same {
				return a.ID, b.Key, r.Key
			}
		}
	}
	return "", "", ""
}

// enterDice plays the roll the table's screen entered (msgDice): only the
// trusted screen may, and only while the table asks for the roll.
func (s *Server) enterDice(ctx context.Context, c *client, m Message) []byte {
	if !c.screen {
		return errorReply(m.ID, "not-screen", "only the table's own screen enters the dice; use the phone", "seul l'écran de la table saisit les dés ; utilisez le téléphone")
	}
	u := s.latestUpdate()
	if u == nil {
		return s.outcome(m.ID, ErrNotRunning)
	}
	blue, red, err := diceFaces(m)
	if m.Seq != u.Seq || diceRefused(u) == nil {
		return s.outcome(m.ID, engine.Refuse(ErrNoDiceAsk, "", ""))
	}
	if err != nil {
		return s.outcome(m.ID, err)
	}
	a, ok := s.diceAction(u, blue, red)
	if !ok {
		return s.outcome(m.ID, engine.Refuse(ErrNoDiceAsk, "", ""))
	}
	sctx, cancel := context.WithTimeout(ctx, s.opts.SubmitTimeout)
	defer cancel()
	return s.outcome(m.ID, s.sess.Submit(sctx, a))
}
