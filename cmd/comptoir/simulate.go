package main

import (
	"flag"
	"fmt"
	"io"
	"math/rand"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"comptoir/engine"
	"comptoir/games"
	"comptoir/notation"
)

func init() {
	commands["simulate"] = command{
		summary: "play seeded random legal games to the end, checking the rules' invariants after every event",
		run:     runSimulate,
	}
}

// simOpts are the simulator's settings.
type simOpts struct {
	game     string
	games    int
	players  []int    // player counts, games spread across them
	variants []string // editions, games spread across them
	seed     int64
	maxSteps int
	records  string // directory to write the game records in, or ""
}

// simStats sums up a simulation.
type simStats struct {
	games, over, actions, events int
	violations                   []string
	panics                       int
}

func runSimulate(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("simulate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	game := fs.String("game", "genoa", "game to simulate: "+strings.Join(games.NamesOf(commandGames()), ", "))
	n := fs.Int("games", 100, "number of games")
	players := fs.String("players", "", "player count, or a list (2,3,5) or range (2-5); default: every count the game allows")
	edition := fs.String("edition", "", "edition (variant), or a comma-separated list, or \"all\"; default: all")
	seed := fs.Int64("seed", 1, "seed of the first game; game i uses seed+i")
	maxSteps := fs.Int("max-steps", 20000, "a game still running after this many actions is a violation")
	records := fs.String("records", "", "write each game's record (notation) in this directory")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: comptoir simulate [--game NAME] [--games N] [--players P] [--edition E] [--seed S]\n\nPlays random legal games: every action is drawn uniformly from the legal\nactions, the invariants are checked after every event. Exit status 1 on any\nviolation or panic.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil || fs.NArg() != 0 {
		if err == nil {
			fs.Usage()
		}
		return errUsage
	}
	rules, err := rulesOf(*game)
	if err != nil {
		return err
	}
	o := simOpts{game: *game, games: *n, seed: *seed, maxSteps: *maxSteps, records: *records}
	cat, _ := rules.(engine.Catalog)
	if o.players, err = parseCounts(*players, cat); err != nil {
		return err
	}
	if o.variants, err = parseVariants(*edition, cat); err != nil {
		return err
	}
	if o.records != "" {
		if err := os.MkdirAll(o.records, 0o755); err != nil {
			return err
		}
	}
	start := time.Now()
	st := simulate(rules, o, stderr)
	el := time.Since(start)
	fmt.Fprintf(stdout, "simulate %s: %d games (%s; %s players), %d ended, %d actions, %d events, %d invariant violations, %d panics, %.1fs\n",
		o.game, st.games, variantList(o.variants), intsList(o.players), st.over, st.actions, st.events, len(st.violations), st.panics, el.Seconds())
	if len(st.violations) > 0 || st.panics > 0 {
		return fmt.Errorf("%d violations, %d panics (details above)", len(st.violations), st.panics)
	}
	return nil
}

func variantList(v []string) string {
	if len(v) == 1 && v[0] == "" {
		return "no editions"
	}
	return strings.Join(v, ", ")
}

func intsList(v []int) string {
	s := make([]string, len(v))
	for i, n := range v {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, ",")
}

func parseCounts(s string, cat engine.Catalog) ([]int, error) {
	if s == "" {
		if cat == nil || len(cat.PlayerCounts()) == 0 {
			return nil, fmt.Errorf("--players is needed: the game does not list its player counts")
		}
		return cat.PlayerCounts(), nil
	}
	var out []int
	for _, part := range strings.Split(s, ",") {
		lo, hi, isRange := strings.Cut(part, "-")
		a, err := strconv.Atoi(strings.TrimSpace(lo))
		if err != nil {
			return nil, fmt.Errorf("--players %q: %q is not a number", s, lo)
		}
		b := a
		if isRange {
			if b, err = strconv.Atoi(strings.TrimSpace(hi)); err != nil || b < a {
				return nil, fmt.Errorf("--players %q: bad range %q", s, part)
			}
		}
		for i := a; i <= b; i++ {
			out = append(out, i)
		}
	}
	for _, n := range out {
		if n < 1 || n > len(playerNames) {
			return nil, fmt.Errorf("--players %d: the simulator seats 1 to %d players", n, len(playerNames))
		}
	}
	if cat != nil {
		allowed := map[int]bool{}
		for _, n := range cat.PlayerCounts() {
			allowed[n] = true
		}
		for _, n := range out {
			if len(allowed) > 0 && !allowed[n] {
				return nil, fmt.Errorf("--players %d: the game allows %s players", n, intsList(cat.PlayerCounts()))
			}
		}
	}
	return out, nil
}

func parseVariants(s string, cat engine.Catalog) ([]string, error) {
	var known []string
	if cat != nil {
		known = cat.Variants()
	}
	if s == "" || s == "all" {
		if len(known) == 0 {
			return []string{""}, nil
		}
		return known, nil
	}
	out := strings.Split(s, ",")
	for _, v := range out {
		ok := len(known) == 0
		for _, k := range known {
			ok = ok || k == v
		}
		if !ok {
			return nil, fmt.Errorf("--edition %q: editions are %s", v, strings.Join(known, ", "))
		}
	}
	return out, nil
}

var playerNames = []string{"Anna", "Bruno", "Chloé", "David", "Emma", "Farid", "Gina", "Hugo"}

// simulate plays o.games games.
func simulate(rules engine.Rules, o simOpts, stderr io.Writer) simStats {
	var st simStats
	for i := 0; i < o.games; i++ {
		seed := o.seed + int64(i)
		setup := engine.Setup{
			Game:    rules.Name(),
			Variant: o.variants[i%len(o.variants)],
			Players: playerNames[:o.players[(i/len(o.variants))%len(o.players)]],
		}
		st.games++
		res := simulateOne(rules, setup, seed, o)
		st.actions += res.actions
		st.events += res.events
		if res.over {
			st.over++
		}
		if res.panicked {
			st.panics++
		}
		if res.violation != "" {
			msg := fmt.Sprintf("game %d (seed %d, %s %s, %d players), action %d: %s", i+1, seed, setup.Game, setup.Variant, len(setup.Players), res.actions, res.violation)
			st.violations = append(st.violations, msg)
			if len(st.violations) <= 10 {
				fmt.Fprintln(stderr, "violation:", msg)
			}
		}
	}
	return st
}

type oneResult struct {
	actions, events int
	over, panicked  bool
	violation       string
}

// simulateOne plays one game; a panic in the rules is caught and reported.
func simulateOne(rules engine.Rules, setup engine.Setup, seed int64, o simOpts) (res oneResult) {
	rng := rand.New(rand.NewSource(seed))
	var rec *notation.Record
	if o.records != "" {
		rec = notation.New(setup, notation.Tag{Key: "Seed", Value: strconv.FormatInt(seed, 10)})
		defer func() {
			base := setup.Game
			if setup.Variant != "" {
				base += "-" + setup.Variant
			}
			name := filepath.Join(o.records, fmt.Sprintf("%s-%dp-seed%d.txt", base, len(setup.Players), seed))
			if f, err := os.Create(name); err == nil {
				notation.Write(f, rec)
				f.Close()
			}
		}()
	}
	defer func() {
		if p := recover(); p != nil {
			res.panicked = true
			res.violation = fmt.Sprintf("panic: %v\n%s", p, debug.Stack())
		}
	}()
	s, err := rules.Start(setup)
	if err != nil {
		res.violation = "start: " + err.Error()
		return res
	}
	check := func() bool {
		if c, ok := s.(engine.Checker); ok {
			if err := c.Check(); err != nil {
				res.violation = "invariant: " + err.Error()
				return false
			}
		}
		return true
	}
	if !check() {
		return res
	}
	codec := rules.Codec()
	for res.actions < o.maxSteps {
		if s.Result().Over {
			res.over = true
			if len(s.Legal()) != 0 {
				res.violation = "the game is over but actions are still legal"
			}
			return res
		}
		legal := s.Legal()
		if len(legal) == 0 {
			res.violation = fmt.Sprintf("no legal action while the game waits for %v", s.Waiting())
			return res
		}
		a := legal[rng.Intn(len(legal))]
		// The action must survive its own notation: what is legal can be
		// written in a record and read back.
		text := codec.FormatCommand(a.Cmd, setup.Players)
		if _, err := codec.ParseCommand(text, setup.Players); err != nil {
			res.violation = fmt.Sprintf("legal action %q does not read back: %v", text, err)
			return res
		}
		if rec != nil {
			rec.Add(codec, a, "")
		}
		evs, err := s.Decide(a)
		if err != nil {
			res.violation = fmt.Sprintf("legal action %s by %v refused: %v", text, a.By, err)
			return res
		}
		for _, ev := range evs {
			next, err := s.Apply(ev)
			if err != nil {
				res.violation = fmt.Sprintf("event %s of %s does not apply: %v", ev.Name(), text, err)
				return res
			}
			s = next
			res.events++
			if !check() {
				return res
			}
		}
		res.actions++
	}
	res.violation = fmt.Sprintf("not over after %d actions", o.maxSteps)
	return res
}
