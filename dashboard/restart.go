package dashboard

import (
	"comptoir/engine"
	"comptoir/games/kit"

	"bytes"

	"comptoir/notation"
)

// What a restart keeps
//
// The game is in the journal: after a restart of the daemon every phone
// finds its seat (the tokens are in Opts.TokenFile) and its same view.
// The announced commands (each game's kit.Game.Announce: Genoa's offers) are journalled
// steps too: restoreSaid rebuilds them from the game's record, so the
// table still shows each seat's last offer. Proposals are not game steps:
// a proposal still pending at the restart is gone (neither phone shows
// it; the rules never saw it), and its maker proposes again.

// restoreSaid rebuilds each seat's latest announced command from the
// record of the game being played (its standing steps).
func (s *Server) restoreSaid(u *Update) {
	data, err := s.sess.Record()
	if err != nil {
		s.logf("dashboard: restoring the announced offers: %v", err)
		return
	}
	rec, err := notation.Read(bytes.NewReader(data), "the game's record")
	if err != nil {
		s.logf("dashboard: restoring the announced offers: %v", err)
		return
	}
	codec := u.Codec
	players := rec.Setup.Players
	// Replayed from the start, to say each offer in the log's words.
	st, err := u.Rules.Start(rec.Setup)
	if err != nil {
		st = nil
	}
	for _, l := range rec.Lines {
		cmd, err := codec.ParseCommand(l.Command, players)
		if err != nil {
			st = nil
			continue
		}
		var label *kit.Text
		if st != nil {
			act := engine.Action{By: l.By, Cmd: cmd}
			if evs, err := st.Decide(act); err == nil {
				label = describeEvents(st, evs)
				if st, _, err = engine.Play(st, act); err != nil {
					st = nil
				}
			} else {
				st = nil
			}
		}
		if l.By < 0 || !s.announces(u, cmd) {
			continue
		}
		s.props.announce(l.By, codec.FormatCommand(cmd, players), label)
	}
}
