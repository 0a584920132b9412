package engine

import (
	"bytes"
	"encoding"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"
)

// Codec knows a game's commands and events by name, and encodes them as
// JSON (journal, phones) or as one line of text (the game record notation).
//
// Commands and events are struct values (not pointers) whose Name method
// works on the zero value. Their exported fields are encoded; in text, a
// field's key is its name with a lower-case first letter, or the name given
// by a `note:"key"` tag (`note:"-"` leaves it out). Field types may be
// strings, integers, booleans, Seat, types that implement
// encoding.TextMarshaler and TextUnmarshaler, slices of those, and maps
// from a string type to an integer type.
//
// A Codec is built once, then only read: it is safe for concurrent use.
type Codec struct {
	game     string
	commands map[string]reflect.Type
	events   map[string]reflect.Type
	fieldsOf map[reflect.Type][]field
}

// NewCodec returns a codec for the game that knows the given commands and
// events. It panics on a type it cannot encode, a pointer, or a name used
// twice: those are programming errors found by the first test.
func NewCodec(game string, commands []Command, events []Event) *Codec {
	c := &Codec{game: game, commands: map[string]reflect.Type{}, events: map[string]reflect.Type{}, fieldsOf: map[reflect.Type][]field{}}
	for _, cmd := range commands {
		c.register(c.commands, cmd.Name(), reflect.TypeOf(cmd))
	}
	for _, ev := range events {
		c.register(c.events, ev.Name(), reflect.TypeOf(ev))
	}
	return c
}

func (c *Codec) register(m map[string]reflect.Type, name string, t reflect.Type) {
	if t.Kind() != reflect.Struct {
		panic(fmt.Sprintf("engine: %s %q: %v is not a struct", c.game, name, t))
	}
	if _, dup := m[name]; dup {
		panic(fmt.Sprintf("engine: %s: name %q registered twice", c.game, name))
	}
	if !validName(name) {
		panic(fmt.Sprintf("engine: %s: name %q must be lower-case letters, digits and '-'", c.game, name))
	}
	fs := structFields(t)
	c.fieldsOf[t] = fs
	for _, f := range fs {
		if !textable(f.typ) {
			panic(fmt.Sprintf("engine: %s %q: field %s of type %v cannot be written as text", c.game, name, f.name, f.typ))
		}
	}
	m[name] = t
}

func validName(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
			return false
		}
	}
	return true
}

// Game is the name of the game the codec is for.
func (c *Codec) Game() string { return c.game }

// CommandNames lists the command names, sorted.
func (c *Codec) CommandNames() []string { return sortedKeys(c.commands) }

// EventNames lists the event names, sorted.
func (c *Codec) EventNames() []string { return sortedKeys(c.events) }

func sortedKeys(m map[string]reflect.Type) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// EncodeEvent returns the event as JSON.
func (c *Codec) EncodeEvent(ev Event) ([]byte, error) {
	if _, ok := c.events[ev.Name()]; !ok {
		return nil, fmt.Errorf("%s: unknown event %q", c.game, ev.Name())
	}
	return json.Marshal(ev)
}

// DecodeEvent decodes an event from its name and JSON. Unknown fields are
// refused.
func (c *Codec) DecodeEvent(name string, data []byte) (Event, error) {
	t, ok := c.events[name]
	if !ok {
		return nil, fmt.Errorf("%s: unknown event %q", c.game, name)
	}
	v, err := c.decodeStrict(t, data, false)
	if err != nil {
		return nil, fmt.Errorf("%s event %q: %w", c.game, name, err)
	}
	return v.(Event), nil
}

// DecodeCommand decodes a command from its name and JSON arguments, as a
// phone sends it. Unknown fields are refused. A Seat field left out is
// NoSeat, as in the text form (see ParseCommand), never seat 0.
func (c *Codec) DecodeCommand(name string, data []byte) (Command, error) {
	t, ok := c.commands[name]
	if !ok {
		return nil, Refusef(ErrUnknownCommand, "%q is not a command of %s; commands: %s", "%q n'est pas une commande de %s ; commandes : %s",
			name, c.game, strings.Join(c.CommandNames(), ", "))
	}
	if len(bytes.TrimSpace(data)) == 0 {
		data = []byte("{}")
	}
	v, err := c.decodeStrict(t, data, true)
	if err != nil {
		return nil, Refusef(ErrBadArgument, "command %s: %v", "commande %s : %v", name, err)
	}
	return v.(Command), nil
}

// decodeStrict decodes a t from JSON; with noSeat, Seat fields the JSON
// leaves out are NoSeat.
func (c *Codec) decodeStrict(t reflect.Type, data []byte, noSeat bool) (any, error) {
	p := reflect.New(t)
	if noSeat {
		for _, f := range c.fields(t) {
			if f.typ == seatType {
				p.Elem().Field(f.index).SetInt(int64(NoSeat))
			}
		}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(p.Interface()); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, fmt.Errorf("data after the JSON value")
	}
	return p.Elem().Interface(), nil
}

// field is one encodable field of a struct.
type field struct {
	index int
	name  string // Go name
	key   string // text key
	typ   reflect.Type
}

// fields returns t's encodable fields, computed once when t was registered.
func (c *Codec) fields(t reflect.Type) []field {
	if f, ok := c.fieldsOf[t]; ok {
		return f
	}
	return structFields(t)
}

func structFields(t reflect.Type) []field {
	var out []field
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		key := f.Tag.Get("note")
		if key == "-" {
			continue
		}
		if key == "" {
			key = string(unicode.ToLower(rune(f.Name[0]))) + f.Name[1:]
		}
		out = append(out, field{index: i, name: f.Name, key: key, typ: f.Type})
	}
	return out
}

var (
	textMarshaler   = reflect.TypeOf((*encoding.TextMarshaler)(nil)).Elem()
	textUnmarshaler = reflect.TypeOf((*encoding.TextUnmarshaler)(nil)).Elem()
	seatType        = reflect.TypeOf(Seat(0))
)

func textable(t reflect.Type) bool {
	if t == seatType || scalar(t) {
		return true
	}
	switch t.Kind() {
	case reflect.Slice:
		return t.Elem() == seatType || scalar(t.Elem())
	case reflect.Map:
		return t.Key().Kind() == reflect.String && isInt(t.Elem().Kind())
	}
	return false
}

func scalar(t reflect.Type) bool {
	if t.Implements(textMarshaler) && reflect.PointerTo(t).Implements(textUnmarshaler) {
		return true
	}
	k := t.Kind()
	return k == reflect.String || k == reflect.Bool || isInt(k)
}

func isInt(k reflect.Kind) bool {
	switch k {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return true
	}
	return false
}

// FormatCommand writes cmd as one line of text: its name, then key=value
// for every field that is not zero, for example
// "deal from=Bruno to=Anna ducats=20 goods=silk:1". players gives the
// names that Seat fields are written with.
func (c *Codec) FormatCommand(cmd Command, players []string) string {
	var b strings.Builder
	b.WriteString(cmd.Name())
	v := reflect.ValueOf(cmd)
	for _, f := range c.fields(v.Type()) {
		fv := v.Field(f.index)
		if fv.IsZero() && fv.Type() != seatType {
			continue
		}
		if fv.Kind() == reflect.Slice && fv.Len() == 0 || fv.Kind() == reflect.Map && fv.Len() == 0 {
			continue
		}
		b.WriteByte(' ')
		b.WriteString(f.key)
		b.WriteByte('=')
		b.WriteString(formatValue(fv, players))
	}
	return b.String()
}

func formatValue(v reflect.Value, players []string) string {
	t := v.Type()
	switch {
	case t == seatType:
		s := Seat(v.Int())
		if s >= 0 && int(s) < len(players) && players[s] != "" {
			return quote(players[s])
		}
		switch s {
		case NoSeat:
			return "table"
		case Staff:
			return "staff"
		}
		return strconv.Itoa(int(s) + 1)
	case t.Implements(textMarshaler):
		b, err := v.Interface().(encoding.TextMarshaler).MarshalText()
		if err != nil {
			return quote(err.Error())
		}
		return quote(string(b))
	case t.Kind() == reflect.Slice:
		parts := make([]string, v.Len())
		for i := range parts {
			parts[i] = formatValue(v.Index(i), players)
		}
		return strings.Join(parts, ",")
	case t.Kind() == reflect.Map:
		keys := v.MapKeys()
		sort.Slice(keys, func(i, j int) bool { return keys[i].String() < keys[j].String() })
		parts := make([]string, 0, len(keys))
		for _, k := range keys {
			parts = append(parts, quote(k.String())+":"+strconv.FormatInt(intOf(v.MapIndex(k)), 10))
		}
		return strings.Join(parts, ",")
	case t.Kind() == reflect.String:
		return quote(v.String())
	case t.Kind() == reflect.Bool:
		return strconv.FormatBool(v.Bool())
	default:
		return strconv.FormatInt(intOf(v), 10)
	}
}

func intOf(v reflect.Value) int64 {
	if v.CanInt() {
		return v.Int()
	}
	return int64(v.Uint())
}

// plainWord reports whether s can be written without quotes.
func plainWord(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if unicode.IsSpace(r) || strings.ContainsRune(`"=,:#;`, r) {
			return false
		}
	}
	return true
}

func quote(s string) string {
	if plainWord(s) {
		return s
	}
	return strconv.Quote(s)
}

// ParseCommand reads one line written by FormatCommand. Seats may be
// written as a player's name or a 1-based number. Errors are refusals that
// say what is wrong in the line.
func (c *Codec) ParseCommand(line string, players []string) (Command, error) {
	toks, unclosed := tokens(line)
	if unclosed != "" {
		return nil, Refusef(ErrBadArgument, "unclosed quote after %s=", "guillemet non fermé après %s=", unclosed)
	}
	if len(toks) == 0 {
		return nil, Refuse(ErrBadArgument, "empty command", "commande vide")
	}
	name := toks[0].key
	if toks[0].hasValue {
		return nil, Refusef(ErrBadArgument, "a line starts with a command name, not %q", "une ligne commence par le nom d'une commande, pas %q", name+"=")
	}
	t, ok := c.commands[name]
	if !ok {
		return nil, Refusef(ErrUnknownCommand, "%q is not a command of %s; commands: %s", "%q n'est pas une commande de %s ; commandes : %s",
			name, c.game, strings.Join(c.CommandNames(), ", "))
	}
	v := reflect.New(t).Elem()
	fs := c.fields(t)
	for _, f := range fs {
		if f.typ == seatType {
			v.Field(f.index).SetInt(int64(NoSeat))
		}
	}
	var seen uint64 // bit i: field i given
	for _, tok := range toks[1:] {
		i := slices.IndexFunc(fs, func(f field) bool { return f.key == tok.key })
		if i < 0 || !tok.hasValue {
			keys := make([]string, len(fs))
			for j, f := range fs {
				keys[j] = f.key
			}
			return nil, Refusef(ErrBadArgument, "%s: %q is not an argument; arguments: %s", "%s : %q n'est pas un argument ; arguments : %s",
				name, tok.key, strings.Join(keys, ", "))
		}
		f := fs[i]
		if i < 64 && seen&(1<<i) != 0 {
			return nil, Refusef(ErrBadArgument, "%s: %s given twice", "%s : %s donné deux fois", name, tok.key)
		}
		if i < 64 {
			seen |= 1 << i
		}
		if err := parseValue(v.Field(f.index), tok.value, players); err != nil {
			return nil, Refusef(ErrBadArgument, "%s: %s=%s: %v", "%s : %s=%s : %v", name, tok.key, tok.value, err)
		}
	}
	return v.Interface().(Command), nil
}

func parseValue(v reflect.Value, s string, players []string) error {
	t := v.Type()
	switch {
	case t == seatType:
		seat, err := parseSeat(s, players)
		if err != nil {
			return err
		}
		v.SetInt(int64(seat))
	case reflect.PointerTo(t).Implements(textUnmarshaler):
		u, err := unquote(s)
		if err != nil {
			return err
		}
		return v.Addr().Interface().(encoding.TextUnmarshaler).UnmarshalText([]byte(u))
	case t.Kind() == reflect.Slice:
		parts, err := splitList(s, ',')
		if err != nil {
			return err
		}
		sl := reflect.MakeSlice(t, len(parts), len(parts))
		for i, p := range parts {
			if err := parseValue(sl.Index(i), p, players); err != nil {
				return err
			}
		}
		v.Set(sl)
	case t.Kind() == reflect.Map:
		parts, err := splitList(s, ',')
		if err != nil {
			return err
		}
		m := reflect.MakeMapWithSize(t, len(parts))
		for _, p := range parts {
			kv, err := splitList(p, ':')
			if err != nil {
				return err
			}
			if len(kv) != 2 {
				return fmt.Errorf("%q: want name:count", p)
			}
			k, err := unquote(kv[0])
			if err != nil {
				return err
			}
			n := reflect.New(t.Elem()).Elem()
			if err := parseInt(n, kv[1]); err != nil {
				return err
			}
			m.SetMapIndex(reflect.ValueOf(k).Convert(t.Key()), n)
		}
		v.Set(m)
	case t.Kind() == reflect.String:
		u, err := unquote(s)
		if err != nil {
			return err
		}
		v.SetString(u)
	case t.Kind() == reflect.Bool:
		b, err := strconv.ParseBool(s)
		if err != nil {
			return fmt.Errorf("want true or false")
		}
		v.SetBool(b)
	default:
		return parseInt(v, s)
	}
	return nil
}

func parseInt(v reflect.Value, s string) error {
	if v.CanInt() {
		n, err := strconv.ParseInt(s, 10, v.Type().Bits())
		if err != nil {
			return fmt.Errorf("%q is not a whole number", s)
		}
		v.SetInt(n)
		return nil
	}
	n, err := strconv.ParseUint(s, 10, v.Type().Bits())
	if err != nil {
		return fmt.Errorf("%q is not a whole number from 0", s)
	}
	v.SetUint(n)
	return nil
}

func parseSeat(s string, players []string) (Seat, error) {
	u, err := unquote(s)
	if err != nil {
		return NoSeat, err
	}
	switch u {
	case "table":
		return NoSeat, nil
	case "staff":
		return Staff, nil
	}
	if seat, ok := (Setup{Players: players}).SeatOf(u); ok {
		return seat, nil
	}
	return NoSeat, fmt.Errorf("no player %q (players: %s)", u, strings.Join(players, ", "))
}

func unquote(s string) (string, error) {
	if strings.HasPrefix(s, `"`) {
		u, err := strconv.Unquote(s)
		if err != nil {
			return "", fmt.Errorf("bad quoted text %s", s)
		}
		return u, nil
	}
	return s, nil
}

// splitList splits s at sep outside double quotes.
func splitList(s string, sep byte) ([]string, error) {
	var out []string
	start, inq := 0, false
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '\\' && inq:
			i++
		case s[i] == '"':
			inq = !inq
		case s[i] == sep && !inq:
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	if inq {
		return nil, fmt.Errorf("unclosed quote in %s", s)
	}
	return append(out, s[start:]), nil
}

type token struct {
	key, value string
	hasValue   bool
}

// tokens splits a line into words and key=value pairs; values may hold
// quoted text with spaces. unclosed is the key of a value whose quote is
// not closed.
func tokens(line string) (toks []token, unclosed string) {
	var out []token
	i := 0
	for {
		for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
			i++
		}
		if i >= len(line) {
			return out, ""
		}
		start := i
		for i < len(line) && line[i] != '=' && line[i] != ' ' && line[i] != '\t' {
			i++
		}
		tok := token{key: line[start:i]}
		if i < len(line) && line[i] == '=' {
			i++
			tok.hasValue = true
			vs, inq := i, false
			for i < len(line) && (inq || line[i] != ' ' && line[i] != '\t') {
				switch {
				case line[i] == '\\' && inq:
					i++
				case line[i] == '"':
					inq = !inq
				}
				i++
			}
			if inq {
				return nil, tok.key
			}
			if i > len(line) {
				i = len(line)
			}
			tok.value = line[vs:i]
		}
		out = append(out, tok)
	}
}
