// Package recordtest replays the game records of a game's testdata
// against golden logs, for the tests of every game's rules: the one
// record test that each game's package runs with its own rules and codec.
// Scenario replays a record written to show one rule and checks the lines
// it says are refused; CheckTrace checks a game's RULES.md, the trace of
// every rule paragraph to the tests and records that check it.
//
// It lives beside package notation, not in engine/, because it reads
// files: the engine stays free of I/O.
package recordtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"comptoir/engine"
	"comptoir/notation"
)

// Opts says which game to replay and where its records are.
type Opts struct {
	Rules engine.Rules
	Codec *engine.Codec
	// Glob matches the record files; each one's golden log is beside it,
	// with the extension .golden instead of .txt.
	Glob string
	// Update rewrites the golden logs instead of comparing them.
	Update bool
}

// DefaultOpts replays testdata/*.txt with the given rules and codec.
func DefaultOpts(rules engine.Rules, codec *engine.Codec) Opts {
	return Opts{Rules: rules, Codec: codec, Glob: "testdata/*.txt"}
}

// Check replays every record that o.Glob matches, each in a subtest, and
// checks that:
//   - every action is accepted and every event applies, and the state's
//     invariants (engine.Checker, when the state has it) hold after every
//     event;
//   - the game's log equals the golden file: each line as the codec writes
//     it back, each event described in English and in French by the state
//     it applies to, the final position when the state is a fmt.Stringer,
//     and the result as JSON;
//   - the events, through their JSON as a journal keeps them, replay to the
//     same state (reflect.DeepEqual);
//   - notation.Play, which comptoir replay and score use, reaches the same
//     state.
//
// States must be engine.Describer.
func Check(t *testing.T, o Opts) {
	t.Helper()
	files, err := filepath.Glob(o.Glob)
	if err != nil || len(files) == 0 {
		t.Fatalf("no records match %s: %v", o.Glob, err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) { checkRecord(t, o, file) })
	}
}

func checkRecord(t *testing.T, o Opts, file string) {
	log, err := Log(o, file)
	if err != nil {
		t.Fatal(err)
	}
	golden := strings.TrimSuffix(file, filepath.Ext(file)) + ".golden"
	if o.Update {
		if err := os.WriteFile(golden, log, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -update to write it)", err)
	}
	if !bytes.Equal(log, want) {
		t.Errorf("the log of %s differs from %s (go test -update rewrites it; review the diff); got:\n%s", file, golden, log)
	}
}

// Log replays one record, makes every check of Check but the golden
// file's, and returns the game's log.
func Log(o Opts, file string) ([]byte, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rec, err := notation.Read(f, file)
	if err != nil {
		return nil, err
	}
	actions, err := rec.Actions(o.Codec)
	if err != nil {
		return nil, err
	}
	st, err := o.Rules.Start(rec.Setup)
	if err != nil {
		return nil, err
	}
	players := rec.Setup.Players
	var log bytes.Buffer
	var events []engine.Event
	for k, a := range actions {
		line := rec.Lines[k]
		fmt.Fprintf(&log, "%d: %s: %s\n", line.N, who(a.By, players), o.Codec.FormatCommand(a.Cmd, players))
		evs, err := st.Decide(a)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", file, line.N, err)
		}
		for _, ev := range evs {
			d, ok := st.(engine.Describer)
			if !ok {
				return nil, fmt.Errorf("%T is not an engine.Describer", st)
			}
			fmt.Fprintf(&log, "    %s\n    %s\n", d.Describe(ev, "en"), d.Describe(ev, "fr"))
			if st, err = st.Apply(ev); err != nil {
				return nil, fmt.Errorf("%s:%d: %s does not apply: %w", file, line.N, ev.Name(), err)
			}
			if c, ok := st.(engine.Checker); ok {
				if err := c.Check(); err != nil {
					return nil, fmt.Errorf("%s:%d: after %s: %w", file, line.N, ev.Name(), err)
				}
			}
		}
		events = append(events, evs...)
	}
	if s, ok := st.(fmt.Stringer); ok {
		fmt.Fprintf(&log, "\n%s\n", s.String())
	}
	res, err := json.MarshalIndent(st.Result(), "", "  ")
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(&log, "result: %s\n", res)

	// The events alone rebuild the same state, through their JSON, as a
	// journal does.
	var decoded []engine.Event
	for _, ev := range events {
		b, err := o.Codec.EncodeEvent(ev)
		if err != nil {
			return nil, fmt.Errorf("%s: encode %s: %w", file, ev.Name(), err)
		}
		d, err := o.Codec.DecodeEvent(ev.Name(), b)
		if err != nil {
			return nil, fmt.Errorf("%s: decode %s %s: %w", file, ev.Name(), b, err)
		}
		decoded = append(decoded, d)
	}
	again, err := engine.Replay(o.Rules, rec.Setup, decoded)
	if err != nil {
		return nil, fmt.Errorf("%s: replaying the journal: %w", file, err)
	}
	if !reflect.DeepEqual(again, st) {
		return nil, fmt.Errorf("%s: the journal replays to another state", file)
	}
	played, err := notation.Play(o.Rules, rec)
	if err != nil {
		return nil, fmt.Errorf("%s: notation.Play: %w", file, err)
	}
	if !reflect.DeepEqual(played, st) {
		return nil, fmt.Errorf("%s: notation.Play reaches another state", file)
	}
	return log.Bytes(), nil
}

// who names the author of an action in the log: a player, the staff or
// the table.
func who(by engine.Seat, players []string) string {
	switch {
	case by >= 0 && int(by) < len(players):
		return players[by]
	case by == engine.Staff:
		return "staff"
	}
	return "table"
}
