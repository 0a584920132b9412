package recordtest

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"comptoir/engine"
	"comptoir/notation"
)

// RefusedTag is the tag of a scenario record that names a line refused
// where the record ends, and the code of the rule that refuses it:
//
//	[Refused "Anna: deliver card=S07 => genoa.small-order"]
//
// With "at N: " before the line, it is refused in the state just before
// the record's line N (the line number in the file) is played:
//
//	[Refused "at 40: Anna: act order=L01 tile=extra => genoa.supply-empty"]
const RefusedTag = "Refused"

// Scenario replays a record written to show one rule (a corner of the
// rules, with the text it checks quoted in its comments), makes every
// check of Log on it, and checks each of its Refused tags against the
// state the record ends in. It returns that state, for the test's own
// checks of the outcome.
func Scenario(t testing.TB, rules engine.Rules, codec *engine.Codec, file string) engine.State {
	t.Helper()
	if _, err := Log(Opts{Rules: rules, Codec: codec}, file); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rec, err := notation.Read(f, file)
	if err != nil {
		t.Fatal(err)
	}
	at := map[int][]string{} // line number (0: the end) → tags' values
	for _, tag := range rec.Tags {
		if tag.Key != RefusedTag {
			continue
		}
		n, v := 0, tag.Value
		if rest, ok := strings.CutPrefix(v, "at "); ok {
			num, after, ok := strings.Cut(rest, ":")
			if _, err := fmt.Sscanf(num, "%d", &n); !ok || err != nil || n <= 0 {
				t.Fatalf("%s: [%s %q]: write \"at N: LINE => RULE-CODE\"", file, RefusedTag, tag.Value)
			}
			v = strings.TrimSpace(after)
		}
		at[n] = append(at[n], v)
	}
	actions, err := rec.Actions(codec)
	if err != nil {
		t.Fatal(err)
	}
	st, err := rules.Start(rec.Setup)
	if err != nil {
		t.Fatal(err)
	}
	check := func(n int) {
		for _, v := range at[n] {
			if err := refusedAtEnd(st, codec, rec.Setup.Players, v); err != nil {
				t.Errorf("%s: [%s %q]: %v", file, RefusedTag, v, err)
			}
		}
		delete(at, n)
	}
	for k, a := range actions {
		check(rec.Lines[k].N)
		if st, _, err = engine.Play(st, a); err != nil {
			t.Fatalf("%s:%d: %v", file, rec.Lines[k].N, err)
		}
	}
	check(0)
	for n := range at {
		t.Errorf("%s: a %s tag is at line %d, which holds no action", file, RefusedTag, n)
	}
	return st
}

// refusedAtEnd checks that the line of a Refused tag's value is refused
// in st for the rule of the code it names.
func refusedAtEnd(st engine.State, codec *engine.Codec, players []string, value string) error {
	line, code, ok := strings.Cut(value, "=>")
	line, code = strings.TrimSpace(line), strings.TrimSpace(code)
	if !ok || line == "" || code == "" {
		return errors.New(`write the tag as "LINE => RULE-CODE"`)
	}
	by := engine.NoSeat
	if name, rest, ok := strings.Cut(line, ":"); ok {
		for i, p := range players {
			if p == strings.TrimSpace(name) {
				by, line = engine.Seat(i), strings.TrimSpace(rest)
			}
		}
	}
	cmd, err := codec.ParseCommand(line, players)
	if err != nil {
		return fmt.Errorf("the line does not read: %w", err)
	}
	_, err = st.Decide(engine.Action{By: by, Cmd: cmd})
	if err == nil {
		return errors.New("accepted, want refused")
	}
	var rule *engine.Rule
	if !errors.As(err, &rule) {
		return fmt.Errorf("failed with %v, not a refusal", err)
	}
	if rule.Code != code {
		return fmt.Errorf("refused for %s (%v), want %s", rule.Code, err, code)
	}
	return nil
}
