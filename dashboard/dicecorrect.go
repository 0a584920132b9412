package dashboard

import (
	"context"
	"fmt"
	"strconv"

	"comptoir/engine"
	"comptoir/games/kit"
)

// While the camera's dice reading is the table's last step (nothing
// happened since: table.Update.Reading), the phone of the seat that threw
// offers to correct it: "Camera read blue 3 · red 5 — not what the dice
// show?", and a button that opens a sheet with a row of buttons per die,
// like the dice ask's. The faces chosen go as a "dice" message from the
// seat, with the reading's seq; the session undoes the reading as a
// misread and plays the roll entered (table.Session.CorrectDice). The
// offer is built into the thrower's frame only.

// correctAction is the ID of the correction's sheet on the phone.
const correctAction = "dice-correct"

// diceCorrect is the thrower's offer to correct the camera's reading.
type diceCorrect struct {
	// Seq is the reading's step: the correction stands for it only.
	Seq int64 `json:"seq"`
	// Blue and Red are the faces the camera read.
	Blue int `json:"blue"`
	Red  int `json:"red"`
	// EN and FR say what the camera read, and ask whether it is right.
	EN string `json:"en"`
	FR string `json:"fr"`
	// Action is the sheet that enters the faces the dice show: a field
	// per die, its options the faces.
	Action kit.Action `json:"action"`
}

// diceCorrectFor is the offer of u's frame for a, or nil: only the
// thrower's phone has one.
func (s *Server) diceCorrectFor(u *Update, a audience, over bool) *diceCorrect {
	r := u.Reading
	if r == nil || over || a.role != roleSeat || a.seat != r.Thrower || r.Seq != u.Seq {
		return nil
	}
	faces := s.faces()
	if len(faces) < 2 {
		return nil
	}
	die := func(key string, label kit.Text) kit.Field {
		f := kit.Field{Key: key, Label: label, Colour: key}
		for _, n := range faces {
			v := strconv.Itoa(n)
			f.Options = append(f.Options, kit.Option{Value: v, Label: kit.Text{FR: v, EN: v}})
		}
		return f
	}
	return &diceCorrect{
		Seq: r.Seq, Blue: int(r.Blue), Red: int(r.Red),
		EN: fmt.Sprintf("Camera read blue %d · red %d — not what the dice show?", r.Blue, r.Red),
		FR: fmt.Sprintf("La caméra a lu bleu %d · rouge %d — ce n'est pas ce que montrent les dés ?", r.Blue, r.Red),
		Action: kit.Action{
			ID: correctAction, Group: "roll",
			Label: kit.Text{EN: "The dice show blue {blue} · red {red}", FR: "Les dés montrent bleu {blue} · rouge {red}"},
			Fields: []kit.Field{
				die("blue", kit.Text{EN: "Blue die", FR: "Dé bleu"}),
				die("red", kit.Text{EN: "Red die", FR: "Dé rouge"}),
			},
		},
	}
}

// diceFaces are the faces of a "dice" message; a refusal when one is
// not a number.
func diceFaces(m Message) (blue, red int, err error) {
	blue, err1 := strconv.Atoi(m.Values["blue"])
	red, err2 := strconv.Atoi(m.Values["red"])
	if err1 != nil || err2 != nil {
		return 0, 0, engine.Refuse(engine.ErrBadArgument, "choose a face of each die", "choisissez une face de chaque dé")
	}
	return blue, red, nil
}

// correctDice is a seat's "dice" message: the thrower's correction of
// the camera's reading of step m.Seq, which the session judges.
func (s *Server) correctDice(ctx context.Context, seat engine.Seat, m Message) []byte {
	blue, red, err := diceFaces(m)
	if err != nil {
		return s.outcome(m.ID, err)
	}
	sctx, cancel := context.WithTimeout(ctx, s.opts.SubmitTimeout)
	defer cancel()
	return s.outcome(m.ID, s.sess.CorrectDice(sctx, seat, m.Seq, blue, red))
}
