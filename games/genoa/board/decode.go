package board

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"

	"comptoir/configs"
	strict "comptoir/strictyaml"
)

// Version is the version of the board file format this package reads.
const Version = 1

// DefaultFile is the path of the default layout in configs.FS.
const DefaultFile = "genoa/board.yaml"

var cellRE = regexp.MustCompile(`^([1-8])-([1-8])$`)

var keyRE = regexp.MustCompile(`^[a-z][a-z0-9-]*$`)

// Decode decodes and validates a board file. file names the file in error
// messages, which read like
//
//	board.yaml:12: key "cels": unknown key in building guild-hall; expected one of key, fr, en, cells, names, aliases
//
// Every error is a *strictyaml.Error and wraps ErrInvalid.
func Decode(data []byte, file string) (*Board, error) {
	f := strict.File{Name: file, Sentinel: ErrInvalid}
	l, err := decodeLayout(data, f)
	if err != nil {
		return nil, err
	}
	return build(l, func(line int, format string, args ...any) error {
		return f.Errorf(&yaml.Node{Line: line}, "", format, args...)
	})
}

func decodeLayout(data []byte, f strict.File) (*layout, error) {
	root, err := f.Parse(data)
	if err != nil {
		return nil, err
	}
	top, err := f.Fields(root, "the board file", []string{"version", "market", "streets", "buildings"}, nil)
	if err != nil {
		return nil, err
	}
	if err := f.Version(top, Version); err != nil {
		return nil, err
	}
	l := &layout{notes: map[Cell]string{}, cellLine: map[Cell]int{}}
	cells := func(n *yaml.Node, key string) ([]Cell, error) {
		items, err := f.Seq(n, key)
		if err != nil {
			return nil, err
		}
		out := make([]Cell, 0, len(items))
		for _, it := range items {
			s, err := f.String(it, key)
			if err != nil {
				return nil, err
			}
			m := cellRE.FindStringSubmatch(strings.TrimSpace(s))
			if m == nil {
				return nil, f.Errorf(it, key, "%q is not a cell; write X-Y with X (blue, column) and Y (red, row) from 1 to 8, for example 3-2", s)
			}
			x, _ := strconv.Atoi(m[1])
			y, _ := strconv.Atoi(m[2])
			c := Cell{X: x, Y: y}
			if _, dup := l.cellLine[c]; !dup {
				l.cellLine[c] = it.Line
			}
			if note := strings.TrimSpace(strings.TrimPrefix(it.LineComment, "#")); note != "" {
				l.notes[c] = note
			}
			out = append(out, c)
		}
		return out, nil
	}
	if l.market, err = cells(top["market"], "market"); err != nil {
		return nil, err
	}
	if l.streets, err = cells(top["streets"], "streets"); err != nil {
		return nil, err
	}
	items, err := f.Seq(top["buildings"], "buildings")
	if err != nil {
		return nil, err
	}
	for _, it := range items {
		fields, err := f.Fields(it, "a building", []string{"key", "fr", "en", "cells"}, []string{"names", "aliases"})
		if err != nil {
			return nil, err
		}
		var rb rawBuilding
		rb.line = it.Line
		if rb.key, err = f.String(fields["key"], "key"); err != nil {
			return nil, err
		}
		if !keyRE.MatchString(rb.key) {
			return nil, f.Errorf(fields["key"], "key", "%q is not a building key; use lower-case words joined by dashes, for example guild-hall", rb.key)
		}
		where := "building " + rb.key
		if rb.fr, err = f.String(fields["fr"], "fr"); err != nil {
			return nil, err
		}
		if rb.en, err = f.String(fields["en"], "en"); err != nil {
			return nil, err
		}
		if rb.fr == "" || rb.en == "" {
			return nil, f.Errorf(it, "fr", "%s needs a French and an English name", where)
		}
		if n, ok := fields["names"]; ok {
			pairs, err := f.StringMap(n, "names")
			if err != nil {
				return nil, err
			}
			rb.names = map[string]string{}
			for _, p := range pairs {
				rb.names[p[0]] = p[1]
			}
		}
		if n, ok := fields["aliases"]; ok {
			if rb.aliases, err = f.Strings(n, "aliases"); err != nil {
				return nil, err
			}
		}
		if rb.cells, err = cells(fields["cells"], "cells"); err != nil {
			return nil, err
		}
		l.buildings = append(l.buildings, rb)
	}
	return l, nil
}

var (
	defaultOnce  sync.Once
	defaultBoard *Board
)

// Default returns the default layout, decoded once from the embedded
// configs.FS ("genoa/board.yaml"). It panics if the embedded file is
// invalid, which the tests rule out.
func Default() *Board {
	defaultOnce.Do(func() {
		data, err := configs.FS.ReadFile(DefaultFile)
		if err != nil {
			panic(fmt.Sprintf("board: embedded %s: %v", DefaultFile, err))
		}
		b, err := Decode(data, "board.yaml")
		if err != nil {
			panic(fmt.Sprintf("board: embedded %s: %v", DefaultFile, err))
		}
		defaultBoard = b
	})
	return defaultBoard
}
