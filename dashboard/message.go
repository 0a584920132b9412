package dashboard

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"comptoir/table"
)

// Limits on what a phone may send.
const (
	// maxMessage is the largest message decoded; a larger one gets an
	// error reply and is skipped, the connection goes on.
	maxMessage = 4 << 10
	// maxFrame is the largest message read at all: beyond it the peer is
	// not a phone of ours and the connection is closed.
	maxFrame = 1 << 20
	// maxText caps every text field (token, PIN, reason, command line).
	maxText = 512
	// minNonce is the shortest nonce of a staff message.
	minNonce = 16
)

// ErrBadMessage is matched by every error of DecodeMessage.
var ErrBadMessage = errors.New("bad message")

// Message types sent by the phones.
const (
	msgHello    = "hello"    // identify: a seat's token, or the staff's PIN
	msgCommand  = "command"  // a game command, as name+args or as one line
	msgStaff    = "staff"    // a staff request, with the PIN
	msgPropose  = "propose"  // a proposal to the seat the game waits for
	msgAnswer   = "answer"   // that seat's answer to a proposal
	msgAct      = "act"      // one of the seat's actions described for people (kit.Play), by ID
	msgTakeBack = "takeback" // the seat takes back its own last step
)

// maxValues caps the fields' values of one act message.
const maxValues = 16

// Message is a decoded message from a phone or a screen.
//
//	{"type":"hello","token":"…"}                     a seat's phone
//	{"type":"hello","role":"staff","pin":"1234"}     the staff page
//	{"type":"command","name":"take","args":{"n":2}}  a game command
//	{"type":"command","line":"take n=2"}             the same, as a line
//	{"type":"staff","nonce":"…","action":"undo","reason":"misread die"}  (after a staff hello; or with "pin")
//	{"type":"staff","nonce":"…","action":"new-game","line":"Anna, Bruno"} (no line: the same players)
//	{"type":"propose","line":"deal from=Bruno to=harbour ducats=10"}
//	{"type":"answer","proposal":3,"accept":true}
//	{"type":"act","seq":12,"action":"take","values":{"n":"2"}}
//	{"type":"takeback","seq":12}
//	{"type":"dice","seq":12,"values":{"blue":"3","red":"5"}}  the table's screen enters the roll the camera missed;
//	                                                          from a seat, the thrower corrects the camera's reading of step 12
//
// ID, when set, is echoed in the reply so the page can tell which message
// it answers.
type Message struct {
	Type string `json:"type"`
	ID   int64  `json:"id,omitempty"`

	Token string `json:"token,omitempty"`
	Role  string `json:"role,omitempty"`
	PIN   string `json:"pin,omitempty"`

	Name string          `json:"name,omitempty"`
	Args json.RawMessage `json:"args,omitempty"`
	Line string          `json:"line,omitempty"`

	Action string `json:"action,omitempty"`
	Reason string `json:"reason,omitempty"`
	Seat   *int   `json:"seat,omitempty"`
	Cell   string `json:"cell,omitempty"`
	Square string `json:"square,omitempty"`

	Proposal int64 `json:"proposal,omitempty"`
	Accept   *bool `json:"accept,omitempty"`

	// Seq is the frame the phone acted on (act, takeback).
	Seq int64 `json:"seq,omitempty"`
	// Values are an act's fields' values, by field key.
	Values map[string]string `json:"values,omitempty"`

	// Nonce makes a staff message once only: a replayed one is refused.
	Nonce string `json:"nonce,omitempty"`
}

var staffActions = map[string]bool{
	string(table.StaffUndo): true, string(table.StaffCorrect): true, string(table.StaffCell): true,
	string(table.StaffEnd): true, string(table.StaffAbandon): true, string(table.StaffReassign): true, string(table.StaffNewGame): true,
	string(table.StaffDice): true,
}

// DecodeMessage decodes one message strictly: one JSON object, no unknown
// keys, a known type with the fields that type needs and no others that
// would be ignored. Errors wrap ErrBadMessage and say what is wrong.
func DecodeMessage(data []byte) (Message, error) {
	var m Message
	if len(data) > maxMessage {
		return m, fmt.Errorf("%w: %d bytes, at most %d", ErrBadMessage, len(data), maxMessage)
	}
	if !utf8.Valid(data) {
		return m, fmt.Errorf("%w: not UTF-8 text", ErrBadMessage)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		return Message{}, fmt.Errorf("%w: %v", ErrBadMessage, err)
	}
	if dec.More() {
		return Message{}, fmt.Errorf("%w: data after the JSON object", ErrBadMessage)
	}
	if err := m.check(); err != nil {
		return Message{}, fmt.Errorf("%w: %v", ErrBadMessage, err)
	}
	return m, nil
}

func (m *Message) check() error {
	for _, f := range []struct{ name, v string }{
		{"token", m.Token}, {"role", m.Role}, {"pin", m.PIN}, {"name", m.Name}, {"line", m.Line},
		{"action", m.Action}, {"reason", m.Reason}, {"cell", m.Cell}, {"square", m.Square}, {"nonce", m.Nonce},
	} {
		if len(f.v) > maxText {
			return fmt.Errorf("%s is %d bytes long, at most %d", f.name, len(f.v), maxText)
		}
	}
	has := func(names ...string) string {
		vals := map[string]bool{
			"token": m.Token != "", "role": m.Role != "", "pin": m.PIN != "",
			"name": m.Name != "", "args": len(m.Args) > 0, "line": m.Line != "",
			"action": m.Action != "", "reason": m.Reason != "", "seat": m.Seat != nil,
			"cell": m.Cell != "", "square": m.Square != "",
			"proposal": m.Proposal != 0, "accept": m.Accept != nil, "nonce": m.Nonce != "",
			"seq": m.Seq != 0, "values": len(m.Values) > 0,
		}
		for _, n := range names {
			delete(vals, n)
		}
		var extra []string
		for n, set := range vals {
			if set {
				extra = append(extra, n)
			}
		}
		if len(extra) == 0 {
			return ""
		}
		slices.Sort(extra)
		return strings.Join(extra, ", ")
	}
	switch m.Type {
	case msgHello:
		if x := has("token", "role", "pin"); x != "" {
			return fmt.Errorf("hello does not take %s", x)
		}
		switch {
		case m.Role == "staff":
			if m.PIN == "" || m.Token != "" {
				return fmt.Errorf(`a staff hello gives the "pin" and no token`)
			}
		case m.Role == "" || m.Role == "seat":
			if m.Token == "" || m.PIN != "" {
				return fmt.Errorf(`a seat hello gives the seat's "token" and no pin`)
			}
		default:
			return fmt.Errorf("role %q: want seat or staff", m.Role)
		}
	case msgCommand:
		if x := has("name", "args", "line"); x != "" {
			return fmt.Errorf("command does not take %s", x)
		}
		if (m.Name == "") == (m.Line == "") {
			return fmt.Errorf(`a command gives either "name" (and "args") or "line"`)
		}
		if m.Line != "" && len(m.Args) > 0 {
			return fmt.Errorf(`a command line takes no "args"`)
		}
		if len(m.Args) > 0 && bytes.TrimSpace(m.Args)[0] != '{' {
			return fmt.Errorf(`"args" must be a JSON object`)
		}
		if strings.ContainsAny(m.Line, "\n\r") {
			return fmt.Errorf("a command line is one line")
		}
	case msgStaff:
		if x := has("pin", "action", "reason", "seat", "line", "cell", "square", "nonce", "values"); x != "" {
			return fmt.Errorf("staff does not take %s", x)
		}
		if len(m.Values) > 0 && m.Action != string(table.StaffDice) {
			return fmt.Errorf("staff action %q does not take values (only dice: blue and red)", m.Action)
		}
		if len(m.Nonce) < minNonce {
			return fmt.Errorf(`a staff request gives a "nonce" of at least %d characters, new for each request`, minNonce)
		}
		if !staffActions[m.Action] {
			return fmt.Errorf("staff action %q: want undo, correct, cell, end, abandon, reassign, new-game or dice", m.Action)
		}
	case msgPropose:
		if x := has("line", "seat"); x != "" {
			return fmt.Errorf("propose does not take %s", x)
		}
		if m.Line == "" || strings.ContainsAny(m.Line, "\n\r") {
			return fmt.Errorf(`a proposal gives the command as one "line"`)
		}
	case msgAnswer:
		if x := has("proposal", "accept"); x != "" {
			return fmt.Errorf("answer does not take %s", x)
		}
		if m.Proposal <= 0 || m.Accept == nil {
			return fmt.Errorf(`an answer gives the "proposal" number and "accept": true or false`)
		}
	case msgAct:
		if x := has("seq", "action", "values"); x != "" {
			return fmt.Errorf("act does not take %s", x)
		}
		if m.Action == "" {
			return fmt.Errorf(`an act gives the "action" ID`)
		}
		if len(m.Values) > maxValues {
			return fmt.Errorf("an act gives at most %d values", maxValues)
		}
		for k, v := range m.Values {
			if k == "" || len(k) > maxText || len(v) > maxText {
				return fmt.Errorf("a value's key is empty, or a key or value is longer than %d bytes", maxText)
			}
		}
	case msgTakeBack:
		if x := has("seq"); x != "" {
			return fmt.Errorf("takeback does not take %s", x)
		}
	case msgDice:
		if x := has("seq", "values"); x != "" {
			return fmt.Errorf("dice does not take %s", x)
		}
		if len(m.Values) != 2 || len(m.Values["blue"]) > 2 || len(m.Values["red"]) > 2 {
			return fmt.Errorf(`dice gives "values" with "blue" and "red" only`)
		}
	case "":
		return fmt.Errorf(`no "type": want hello, command, act, takeback, propose, answer or staff`)
	default:
		return fmt.Errorf("type %q: want hello, command, act, takeback, propose, answer or staff", m.Type)
	}
	return nil
}
