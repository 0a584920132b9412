package dashboard

import (
	"fmt"
	"strings"

	"comptoir/engine"
	"comptoir/table"
)

// logStaff logs a staff action and its outcome through Opts.Logf, once:
// what was asked, the reason, accepted or refused. Never the PIN.
func (s *Server) logStaff(req table.StaffRequest, err error) {
	var b strings.Builder
	fmt.Fprintf(&b, "dashboard: staff %s", req.Kind)
	switch req.Kind {
	case table.StaffReassign:
		fmt.Fprintf(&b, " %s", req.Seat)
	case table.StaffCorrect:
		if req.Cmd != nil {
			fmt.Fprintf(&b, " %s", req.Cmd.Name())
		}
	case table.StaffCell:
		fmt.Fprintf(&b, " %s=%s", req.Edit.Key, req.Edit.Value)
	case table.StaffNewGame:
		if len(req.Players) > 0 {
			fmt.Fprintf(&b, " %s", strings.Join(req.Players, ", "))
		}
	}
	if req.Reason != "" {
		fmt.Fprintf(&b, " (%s)", req.Reason)
	}
	switch r, refused := engine.AsRefusal(err); {
	case err == nil:
		b.WriteString(": done")
	case refused:
		fmt.Fprintf(&b, ": refused: %s", r.Reason("en"))
	default:
		fmt.Fprintf(&b, ": failed: %v", err)
	}
	s.logf("%s", b.String())
}
