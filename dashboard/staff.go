package dashboard

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"comptoir/engine"
	"comptoir/games/kit"
	"comptoir/table"
)

func (s *Server) staffRequest(m Message) (table.StaffRequest, error) {
	bad := func(en, fr string) (table.StaffRequest, error) {
		return table.StaffRequest{}, engine.Refuse(engine.ErrBadArgument, en, fr)
	}
	req := table.StaffRequest{Kind: table.StaffKind(m.Action), Reason: m.Reason, Seat: engine.NoSeat}
	if err := checkStaffTexts(m); err != nil {
		return table.StaffRequest{}, err
	}
	switch req.Kind {
	case table.StaffUndo, table.StaffEnd, table.StaffAbandon:
		if strings.TrimSpace(m.Reason) == "" {
			return bad("say why, for the journal", "dites pourquoi, pour le journal")
		}
	case table.StaffCorrect:
		if m.Line == "" {
			return bad(`a correction is a game command in "line"`, `une correction est une commande du jeu dans "line"`)
		}
		codec := s.codec()
		if codec == nil {
			return table.StaffRequest{}, ErrNotRunning
		}
		cmd, err := codec.ParseCommand(m.Line, s.players())
		if err != nil {
			return table.StaffRequest{}, err
		}
		req.Cmd = withReason(cmd, m.Reason)
	case table.StaffReassign:
		n := len(s.players())
		if m.Seat == nil || *m.Seat < 1 || *m.Seat > n {
			return bad(fmt.Sprintf("which seat? 1 to %d", n), fmt.Sprintf("quelle place ? 1 à %d", n))
		}
		req.Seat = engine.Seat(*m.Seat - 1)
	case table.StaffCell:
		// The game's editor checks the item (kit.Editor.Apply): Genoa's
		// cell and its square, a Dschunke stand-in and its value.
		if strings.TrimSpace(m.Cell) == "" || strings.TrimSpace(m.Square) == "" {
			return bad("which cell or item, and what does it become?", "quelle case ou valeur, et que devient-elle ?")
		}
		req.Edit = kit.Edit{Key: strings.TrimSpace(m.Cell), Value: strings.TrimSpace(m.Square)}
	case table.StaffDice:
		// The dice as the players see them: a roll the camera could not
		// read, or one it read wrong (the session journals the misread).
		blue, err1 := strconv.Atoi(strings.TrimSpace(m.Values["blue"]))
		red, err2 := strconv.Atoi(strings.TrimSpace(m.Values["red"]))
		dice := s.kit.Dice
		if dice == nil {
			return bad("this game has no dice", "ce jeu n'a pas de dés")
		}
		if err1 != nil || err2 != nil || !dice(blue, red) {
			return bad(fmt.Sprintf("the dice as they lie: blue and red faces this game's dice have, not %q and %q", m.Values["blue"], m.Values["red"]),
				fmt.Sprintf("les dés comme ils sont tombés : des faces bleue et rouge de ce jeu, pas %q et %q", m.Values["blue"], m.Values["red"]))
		}
		req.Blue, req.Red = blue, red
	case table.StaffNewGame:
		seen := map[string]bool{}
		for _, name := range strings.Split(m.Line, ",") {
			name = strings.TrimSpace(name)
			if name == "" {
				continue
			}
			if seen[strings.ToLower(name)] {
				return bad(fmt.Sprintf("%s is seated twice", name), fmt.Sprintf("%s est placé deux fois", name))
			}
			if err := checkPlayerName(name); err != nil {
				return table.StaffRequest{}, err
			}
			seen[strings.ToLower(name)] = true
			req.Players = append(req.Players, name)
		}
	}
	return req, nil
}

// staff carries out a staff request checked against the PIN: a seat
// freed by the dashboard itself, anything else by the session. false
// closes the connection (too many wrong PINs).
func (s *Server) staff(ctx context.Context, c *client, st *connState, m Message) bool {
	if !s.staffAllowed(c, st, m) {
		st.pinFailed++
		s.logf("dashboard: staff action %q refused: wrong PIN (%d on this connection)", m.Action, st.pinFailed)
		return st.pinFailed < maxPINFailures
	}
	req, err := s.staffRequest(m)
	if err != nil {
		s.reply(c, s.outcome(m.ID, err))
		return true
	}
	if req.Kind == table.StaffReassign {
		if err := s.tok.free(req.Seat, s.opts.Clock.Now()); err != nil {
			s.logStaff(req, err)
			s.reply(c, s.outcome(m.ID, err))
			return true
		}
		s.logStaff(req, nil)
		s.notifySeats()
		s.reply(c, s.outcome(m.ID, nil))
		return true
	}
	sctx, cancel := context.WithTimeout(ctx, s.opts.SubmitTimeout)
	err = s.sess.Staff(sctx, req)
	cancel()
	s.logStaff(req, err)
	s.reply(c, s.outcome(m.ID, err))
	return true
}
