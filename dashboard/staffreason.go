package dashboard

import (
	"reflect"
	"strings"

	"comptoir/engine"
)

// withReason gives a staff correction the reason typed in the staff page's
// reason field when the command has a reason of its own left empty (Genoa's
// "correct ... reason=..."), so the reason is not typed twice.
func withReason(cmd engine.Command, reason string) engine.Command {
	reason = strings.TrimSpace(reason)
	v := reflect.ValueOf(cmd)
	if reason == "" || v.Kind() != reflect.Struct {
		return cmd
	}
	f := v.FieldByName("Reason")
	if !f.IsValid() || f.Kind() != reflect.String || f.String() != "" {
		return cmd
	}
	c := reflect.New(v.Type()).Elem()
	c.Set(v)
	c.FieldByName("Reason").SetString(reason)
	out, ok := c.Interface().(engine.Command)
	if !ok {
		return cmd
	}
	return out
}
