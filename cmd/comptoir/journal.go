package main

import (
	"flag"
	"fmt"
	"io"
	"time"

	"comptoir/journal"
)

func init() {
	commands["journal"] = command{
		summary: "list a table's journal, or end or abandon its unfinished game (with the daemon stopped)",
		run:     runJournal,
	}
}

const journalUsage = `usage: comptoir journal list --journal FILE
       comptoir journal end --journal FILE --game N
       comptoir journal abandon --journal FILE --game N

list prints the journal's games. end marks game N over (scored as it
stands), abandon marks it abandoned (no result): a table daemon then begins
a new game in the journal, of the table's own game. Stop the table's
comptoird first: it holds the journal while it runs.`

func runJournal(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || (args[0] != "list" && args[0] != "end" && args[0] != "abandon") {
		fmt.Fprintln(stderr, journalUsage)
		return errUsage
	}
	verb := args[0]
	fs := flag.NewFlagSet("journal "+verb, flag.ContinueOnError)
	fs.SetOutput(stderr)
	path := fs.String("journal", "", "the journal `file`")
	id := fs.Int64("game", 0, "the game's `number` in the journal (see comptoir journal list)")
	fs.Usage = func() { fmt.Fprintln(stderr, journalUsage); fs.PrintDefaults() }
	if err := fs.Parse(args[1:]); err != nil || fs.NArg() != 0 || *path == "" || (verb != "list" && *id <= 0) {
		if err == nil {
			fs.Usage()
		}
		return errUsage
	}
	st, err := journal.Open(*path)
	if err != nil {
		return err
	}
	defer st.Close()
	if verb != "list" {
		outcome := "over"
		if verb == "abandon" {
			outcome = "abandoned"
		}
		if err := st.FinishGame(*id, outcome, time.Now()); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "game %d: %s\n", *id, outcome)
		return nil
	}
	games, err := st.Games()
	if err != nil {
		return err
	}
	for _, g := range games {
		state := "unfinished"
		if g.Outcome != "" {
			state = g.Outcome + " " + g.Finished.Format(time.RFC3339)
		}
		fmt.Fprintf(stdout, "%d\t%s\t%s\t%v\tstarted %s\t%s\n", g.ID, g.Setup.Game, g.Setup.Variant, g.Setup.Players, g.Started.Format(time.RFC3339), state)
	}
	return nil
}
