package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"comptoir/engine"
	"comptoir/notation"
)

func init() {
	commands["replay"] = command{
		summary: "replay a game record; print the final state and the scores, or the first illegal line",
		run:     runReplay,
	}
	commands["score"] = command{
		summary: "print the scores of a game record, with their breakdown",
		run:     runScore,
	}
}

// openRecord reads a game record file and finds its game's rules.
func openRecord(path string) (*notation.Record, engine.Rules, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	rec, err := notation.Read(f, path)
	if err != nil {
		return nil, nil, err
	}
	rules, err := rulesOf(rec.Setup.Game)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	return rec, rules, nil
}

func runReplay(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	fs.SetOutput(stderr)
	lang := fs.String("lang", "en", "language of reasons and score lines: en or fr")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: comptoir replay [--lang en|fr] FILE\n\nReplays the game record FILE line by line through the rules engine.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil || fs.NArg() != 1 {
		if err == nil {
			fs.Usage()
		}
		return errUsage
	}
	rec, rules, err := openRecord(fs.Arg(0))
	if err != nil {
		return err
	}
	s, err := notation.Play(rules, rec)
	if err != nil {
		if le, ok := err.(*notation.LineError); ok {
			if r, ok := engine.AsRefusal(le.Err); ok {
				return fmt.Errorf("%s:%d: %s", le.File, le.Line, r.Reason(*lang))
			}
		}
		return err
	}
	fmt.Fprintf(stdout, "%s: %d lines played\n", rec.File, len(rec.Lines))
	if str, ok := s.(fmt.Stringer); ok {
		fmt.Fprintln(stdout, strings.TrimRight(str.String(), "\n"))
	} else {
		b, err := json.MarshalIndent(s.View(engine.Staff), "", "  ")
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s\n", b)
	}
	printResult(stdout, s.Result(), *lang)
	return nil
}

func runScore(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("score", flag.ContinueOnError)
	fs.SetOutput(stderr)
	lang := fs.String("lang", "en", "language of score lines: en or fr")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: comptoir score [--lang en|fr] [--json] FILE\n\nScores the game record FILE (the score so far if the game is not over).")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil || fs.NArg() != 1 {
		if err == nil {
			fs.Usage()
		}
		return errUsage
	}
	rec, rules, err := openRecord(fs.Arg(0))
	if err != nil {
		return err
	}
	s, err := notation.Play(rules, rec)
	if err != nil {
		return err
	}
	if *asJSON {
		b, err := json.MarshalIndent(s.Result(), "", "  ")
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s\n", b)
		return nil
	}
	printResult(stdout, s.Result(), *lang)
	return nil
}

// printResult prints the scores, one player a line with the breakdown.
func printResult(w io.Writer, r engine.Result, lang string) {
	switch {
	case r.Over && lang == "fr":
		fmt.Fprintln(w, "Partie terminée. Scores :")
	case r.Over:
		fmt.Fprintln(w, "Game over. Scores:")
	case lang == "fr":
		fmt.Fprintln(w, "Partie en cours. Scores provisoires :")
	default:
		fmt.Fprintln(w, "Game not over. Scores so far:")
	}
	for _, sc := range r.Scores {
		var parts []string
		for _, p := range sc.Parts {
			name := p.NameEN
			if lang == "fr" {
				name = p.NameFR
			}
			parts = append(parts, fmt.Sprintf("%s %d", name, p.Points))
		}
		fmt.Fprintf(w, "  %d. %-12s %5d  (%s)", sc.Rank, sc.Player, sc.Total, strings.Join(parts, ", "))
		if sc.TieBreak != 0 {
			if lang == "fr" {
				fmt.Fprintf(w, " départage %d", sc.TieBreak)
			} else {
				fmt.Fprintf(w, " tie-break %d", sc.TieBreak)
			}
		}
		fmt.Fprintln(w)
	}
	if r.Over {
		var names []string
		for _, s := range r.Winners {
			if int(s) >= 0 && int(s) < len(r.Scores) {
				names = append(names, r.Scores[s].Player)
			}
		}
		if lang == "fr" {
			fmt.Fprintf(w, "Vainqueur : %s\n", strings.Join(names, ", "))
		} else {
			fmt.Fprintf(w, "Winner: %s\n", strings.Join(names, ", "))
		}
	}
}
