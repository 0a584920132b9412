// Package notation reads and writes game records: plain text files that
// record a whole game, the way PGN does for chess, for every game Comptoir
// knows. The format is documented in docs/notation.md.
//
// A record is a header of tags, then one action per line:
//
//	[Game "genoa"]
//	[Variant "alea-2001"]
//	[Players "Anna, Bruno, Chloé"]
//	[Option "market-advance=on"]
//
//	# a comment, also allowed after a command
//	roll blue=3 red=5
//	Bruno: offer to=Anna ducats=20 square=harbour
//
// A line without a "Name:" prefix is an action of the table or a device
// (engine.NoSeat); "staff:" is the café staff. The command itself is the
// game's command in the text form of its engine.Codec.
package notation

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"comptoir/engine"
)

// Tag is one header line: [Key "Value"].
type Tag struct {
	Key, Value string
}

// Line is one action line of a record.
type Line struct {
	// N is the line number in the file, 1-based (0 for a line added in
	// memory).
	N int
	// By is the acting seat: a player, engine.NoSeat or engine.Staff.
	By engine.Seat
	// Command is the command text, without the seat prefix and comment.
	Command string
	// Comment is the text after '#', if any, without the '#'.
	Comment string
}

// Record is a game record.
type Record struct {
	// File names the record in errors.
	File string
	// Tags are the header tags in file order, including Game, Variant,
	// Players and Option.
	Tags []Tag
	// Setup is built from the Game, Variant, Players and Option tags.
	Setup engine.Setup
	// Lines are the actions in order.
	Lines []Line
}

// Tag returns the value of the first tag with the key.
func (r *Record) Tag(key string) (string, bool) {
	for _, t := range r.Tags {
		if t.Key == key {
			return t.Value, true
		}
	}
	return "", false
}

// ErrSyntax is matched by every error of Read about the text of a record.
var ErrSyntax = errors.New("record syntax")

// LineError is an error at one line of a record.
type LineError struct {
	File string
	Line int
	Err  error
}

func (e *LineError) Error() string {
	if r, ok := engine.AsRefusal(e.Err); ok {
		return fmt.Sprintf("%s:%d: %s (fr: %s)", e.File, e.Line, r.EN, r.FR)
	}
	return fmt.Sprintf("%s:%d: %v", e.File, e.Line, e.Err)
}

func (e *LineError) Unwrap() error { return e.Err }

// maxLine bounds one line of a record.
const maxLine = 64 << 10

// Read reads a record. file names it in errors.
func Read(r io.Reader, file string) (*Record, error) {
	rec := &Record{File: file}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 4096), maxLine)
	n := 0
	inHeader := true
	fail := func(format string, args ...any) error {
		return &LineError{File: file, Line: n, Err: fmt.Errorf("%w: "+format, append([]any{ErrSyntax}, args...)...)}
	}
	for sc.Scan() {
		n++
		text := sc.Text()
		if n == 1 {
			text = strings.TrimPrefix(text, "\ufeff")
		}
		code, comment := splitComment(text)
		code = strings.TrimSpace(code)
		if code == "" {
			continue
		}
		if strings.HasPrefix(code, "[") {
			if !inHeader {
				return nil, fail("header tag %s after the first action: tags go at the top of the record", code)
			}
			tag, err := parseTag(code)
			if err != nil {
				return nil, fail("%v", err)
			}
			if err := rec.addTag(tag); err != nil {
				return nil, fail("%v", err)
			}
			continue
		}
		if inHeader {
			inHeader = false
			if err := rec.checkHeader(); err != nil {
				return nil, fail("%v", err)
			}
		}
		by, cmd := splitSeat(code, rec.Setup.Players)
		if cmd == "" {
			return nil, fail("%q has no command after the player's name", code)
		}
		rec.Lines = append(rec.Lines, Line{N: n, By: by, Command: cmd, Comment: strings.TrimSpace(comment)})
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, &LineError{File: file, Line: n + 1, Err: fmt.Errorf("%w: line longer than %d bytes", ErrSyntax, maxLine)}
		}
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	if inHeader {
		if err := rec.checkHeader(); err != nil {
			return nil, &LineError{File: file, Line: n, Err: fmt.Errorf("%w: %v", ErrSyntax, err)}
		}
	}
	return rec, nil
}

// splitComment splits a line at the first '#' outside double quotes.
func splitComment(s string) (code, comment string) {
	inq := false
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '\\' && inq:
			i++
		case s[i] == '"':
			inq = !inq
		case s[i] == '#' && !inq:
			return s[:i], s[i+1:]
		}
	}
	return s, ""
}

func parseTag(s string) (Tag, error) {
	if !strings.HasSuffix(s, "]") {
		return Tag{}, fmt.Errorf("tag %s: want [Key \"value\"]", s)
	}
	body := strings.TrimSpace(s[1 : len(s)-1])
	key, val, ok := strings.Cut(body, " ")
	if !ok || key == "" {
		return Tag{}, fmt.Errorf("tag %s: want [Key \"value\"]", s)
	}
	for _, r := range key {
		if !(r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return Tag{}, fmt.Errorf("tag key %q: letters, digits, '-' and '_' only", key)
		}
	}
	v, err := strconv.Unquote(strings.TrimSpace(val))
	if err != nil {
		return Tag{}, fmt.Errorf("tag %s: the value must be in double quotes", key)
	}
	return Tag{Key: key, Value: v}, nil
}

func (r *Record) addTag(t Tag) error {
	switch t.Key {
	case "Game":
		if r.Setup.Game != "" {
			return fmt.Errorf("tag Game given twice")
		}
		r.Setup.Game = t.Value
	case "Variant":
		if r.Setup.Variant != "" {
			return fmt.Errorf("tag Variant given twice")
		}
		r.Setup.Variant = t.Value
	case "Players":
		if r.Setup.Players != nil {
			return fmt.Errorf("tag Players given twice")
		}
		players, err := ParsePlayers(t.Value)
		if err != nil {
			return err
		}
		r.Setup.Players = players
	case "Option":
		k, v, ok := strings.Cut(t.Value, "=")
		k = strings.TrimSpace(k)
		if !ok || k == "" {
			return fmt.Errorf("tag Option %q: want \"name=value\"", t.Value)
		}
		if r.Setup.Options == nil {
			r.Setup.Options = map[string]string{}
		}
		if _, dup := r.Setup.Options[k]; dup {
			return fmt.Errorf("option %q given twice", k)
		}
		r.Setup.Options[k] = strings.TrimSpace(v)
	}
	r.Tags = append(r.Tags, t)
	return nil
}

// ParsePlayers splits a comma-separated list of player names.
func ParsePlayers(s string) ([]string, error) {
	var players []string
	seen := map[string]bool{}
	for _, p := range strings.Split(s, ",") {
		p = strings.TrimSpace(p)
		if p == "" {
			return nil, fmt.Errorf("players %q: a name is empty", s)
		}
		if strings.ContainsAny(p, ":#\"") {
			return nil, fmt.Errorf("player %q: a name may not hold ':', '#' or '\"'", p)
		}
		low := strings.ToLower(p)
		if low == "table" || low == "staff" {
			return nil, fmt.Errorf("player %q: that name is reserved", p)
		}
		if seen[low] {
			return nil, fmt.Errorf("player %q named twice", p)
		}
		seen[low] = true
		players = append(players, p)
	}
	return players, nil
}

func (r *Record) checkHeader() error {
	if r.Setup.Game == "" {
		return fmt.Errorf("the header has no [Game \"...\"] tag")
	}
	if len(r.Setup.Players) == 0 {
		return fmt.Errorf("the header has no [Players \"...\"] tag")
	}
	return nil
}

// splitSeat splits "Name: command" into the seat and the command.
func splitSeat(s string, players []string) (engine.Seat, string) {
	name, rest, ok := strings.Cut(s, ":")
	if !ok {
		return engine.NoSeat, s
	}
	name = strings.TrimSpace(name)
	switch strings.ToLower(name) {
	case "table":
		return engine.NoSeat, strings.TrimSpace(rest)
	case "staff":
		return engine.Staff, strings.TrimSpace(rest)
	}
	for i, p := range players {
		if strings.EqualFold(p, name) {
			return engine.Seat(i), strings.TrimSpace(rest)
		}
	}
	return engine.NoSeat, s
}

// Actions parses every line with the game's codec.
func (r *Record) Actions(c *engine.Codec) ([]engine.Action, error) {
	out := make([]engine.Action, 0, len(r.Lines))
	for _, l := range r.Lines {
		cmd, err := c.ParseCommand(l.Command, r.Setup.Players)
		if err != nil {
			return nil, &LineError{File: r.File, Line: l.N, Err: err}
		}
		out = append(out, engine.Action{By: l.By, Cmd: cmd})
	}
	return out, nil
}

// Play starts the record's game with rules and plays every line. It stops
// at the first line that cannot be read or is illegal, with a *LineError
// that gives the line number and the reason, and returns the state before
// that line.
func Play(rules engine.Rules, r *Record) (engine.State, error) {
	if rules.Name() != r.Setup.Game {
		return nil, fmt.Errorf("%s: the record is a game of %q, not %q", r.File, r.Setup.Game, rules.Name())
	}
	s, err := rules.Start(r.Setup)
	if err != nil {
		return nil, fmt.Errorf("%s: setup: %w", r.File, err)
	}
	c := rules.Codec()
	for _, l := range r.Lines {
		cmd, err := c.ParseCommand(l.Command, r.Setup.Players)
		if err != nil {
			return s, &LineError{File: r.File, Line: l.N, Err: err}
		}
		next, _, err := engine.Play(s, engine.Action{By: l.By, Cmd: cmd})
		if err != nil {
			return s, &LineError{File: r.File, Line: l.N, Err: err}
		}
		s = next
	}
	return s, nil
}

// New returns an empty record for a setup, with its Game, Variant,
// Players and Option tags, then the extra tags.
func New(setup engine.Setup, extra ...Tag) *Record {
	r := &Record{Setup: setup}
	r.Tags = append(r.Tags, Tag{"Game", setup.Game})
	if setup.Variant != "" {
		r.Tags = append(r.Tags, Tag{"Variant", setup.Variant})
	}
	r.Tags = append(r.Tags, Tag{"Players", strings.Join(setup.Players, ", ")})
	for _, k := range sortedOptions(setup.Options) {
		r.Tags = append(r.Tags, Tag{"Option", k + "=" + setup.Options[k]})
	}
	r.Tags = append(r.Tags, extra...)
	return r
}

// Add appends an action, written with the game's codec.
func (r *Record) Add(c *engine.Codec, a engine.Action, comment string) {
	r.Lines = append(r.Lines, Line{By: a.By, Command: c.FormatCommand(a.Cmd, r.Setup.Players), Comment: comment})
}

// Write writes the record in the text format that Read reads.
func Write(w io.Writer, r *Record) error {
	bw := bufio.NewWriter(w)
	for _, t := range r.Tags {
		fmt.Fprintf(bw, "[%s %s]\n", t.Key, strconv.Quote(t.Value))
	}
	bw.WriteString("\n")
	for _, l := range r.Lines {
		switch {
		case l.By == engine.Staff:
			bw.WriteString("staff: ")
		case l.By >= 0 && int(l.By) < len(r.Setup.Players):
			bw.WriteString(r.Setup.Players[l.By] + ": ")
		}
		bw.WriteString(l.Command)
		if l.Comment != "" {
			bw.WriteString(" # " + strings.ReplaceAll(l.Comment, "\n", " "))
		}
		bw.WriteString("\n")
	}
	return bw.Flush()
}

func sortedOptions(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	for i := 1; i < len(keys); i++ {
		for j := i; j > 0 && keys[j] < keys[j-1]; j-- {
			keys[j], keys[j-1] = keys[j-1], keys[j]
		}
	}
	return keys
}
