package tagmap

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"comptoir/input"
	"comptoir/strictyaml"
)

// Errors of the package, wrapped with details.
var (
	ErrEnrolled = errors.New("tag already enrolled")
	ErrBadUID   = errors.New("bad tag UID")
	ErrFormat   = errors.New("bad tag map")
)

// Kinds of targets.
const (
	KindSquare = "square"
	KindCard   = "card"
)

// Target is what a tag stands for.
type Target struct {
	Kind  string // KindSquare or KindCard
	ID    string // "3-2" for a square (blue column, red row), a card id for a card
	Label string // for people, may be empty
}

func (t Target) String() string {
	s := t.Kind + " " + t.ID
	if t.Label != "" {
		s += " (" + t.Label + ")"
	}
	return s
}

// Entry is one enrolled tag.
type Entry struct {
	UID string
	Target
}

// Map is the enrolled tags of a table.
type Map struct {
	mu      sync.RWMutex
	entries []Entry        // guarded by mu, in enrollment order
	byUID   map[string]int // guarded by mu: index in entries
}

// New returns an empty map.
func New() *Map { return &Map{byUID: map[string]int{}} }

// NormalizeUID checks a UID and returns it upper-case without separators.
// Colons, dashes and spaces between bytes are accepted.
func NormalizeUID(s string) (string, error) {
	u := strings.ToUpper(strings.NewReplacer(":", "", "-", "", " ", "").Replace(s))
	b, err := hex.DecodeString(u)
	if err != nil || u == "" {
		return "", fmt.Errorf("%w %q: want hexadecimal bytes, like 04A2B3C4D5E680", ErrBadUID, s)
	}
	if n := len(b); n != 4 && n != 7 && n != 10 {
		return "", fmt.Errorf("%w %q: %d bytes; NFC tags have 4, 7 or 10", ErrBadUID, s, n)
	}
	return u, nil
}

// Lookup returns the target of a tag.
func (m *Map) Lookup(uid string) (Target, bool) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	i, ok := m.byUID[uid]
	if !ok {
		return Target{}, false
	}
	return m.entries[i].Target, true
}

// Add enrolls a tag. A tag enrolled already is refused with ErrEnrolled and
// the entry it has.
func (m *Map) Add(uid string, t Target) error {
	u, err := NormalizeUID(uid)
	if err != nil {
		return err
	}
	if _, err := checkTarget(t); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if i, ok := m.byUID[u]; ok {
		return fmt.Errorf("%w: %s is %s; remove it first to enroll it as %s %s", ErrEnrolled, u, m.entries[i].Target, t.Kind, t.ID)
	}
	m.byUID[u] = len(m.entries)
	m.entries = append(m.entries, Entry{UID: u, Target: t})
	return nil
}

// Remove forgets a tag and reports whether it was enrolled.
func (m *Map) Remove(uid string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	i, ok := m.byUID[uid]
	if !ok {
		return false
	}
	m.entries = append(m.entries[:i], m.entries[i+1:]...)
	m.byUID = make(map[string]int, len(m.entries))
	for j, e := range m.entries {
		m.byUID[e.UID] = j
	}
	return true
}

// Has reports whether a target has at least one tag.
func (m *Map) Has(t Target) bool {
	m.mu.RLock()
	defer m.mu.RUnlock()
	for _, e := range m.entries {
		if e.Kind == t.Kind && e.ID == t.ID {
			return true
		}
	}
	return false
}

// Entries returns a copy of the entries in enrollment order.
func (m *Map) Entries() []Entry {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return append([]Entry(nil), m.entries...)
}

// Len returns the number of enrolled tags.
func (m *Map) Len() int {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return len(m.entries)
}

// checkTarget checks a target and names the bad key, "kind" or "id".
func checkTarget(t Target) (string, error) {
	switch t.Kind {
	case KindSquare:
		if len(t.ID) != 3 || t.ID[0] < '1' || t.ID[0] > '8' || t.ID[1] != '-' || t.ID[2] < '1' || t.ID[2] > '8' {
			return "id", fmt.Errorf("%w: square id %q: want a cell X-Y, each 1 to 8, like 3-2", ErrFormat, t.ID)
		}
	case KindCard:
		if t.ID == "" || strings.ContainsAny(t.ID, " \t\n") {
			return "id", fmt.Errorf("%w: card id %q: want the catalog id, like L01", ErrFormat, t.ID)
		}
	default:
		return "kind", fmt.Errorf("%w: kind %q: want square or card", ErrFormat, t.Kind)
	}
	return "", nil
}

// Encode writes the map in its file format.
func (m *Map) Encode() []byte {
	var b strings.Builder
	b.WriteString("# Enrolled NFC tags of a Comptoir table, written by `comptoir enroll`.\n")
	b.WriteString("version: 1\ntags:\n")
	for _, e := range m.Entries() {
		fmt.Fprintf(&b, "  - uid: %s\n    kind: %s\n    id: %s\n", e.UID, e.Kind, strconv.Quote(e.ID))
		if e.Label != "" {
			fmt.Fprintf(&b, "    label: %s\n", strconv.Quote(e.Label))
		}
	}
	if m.Len() == 0 {
		return []byte(strings.Replace(b.String(), "tags:\n", "tags: []\n", 1))
	}
	return []byte(b.String())
}

// Save writes the map to path, atomically: a crash leaves the old file or
// the new one, never half of one.
func (m *Map) Save(path string) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tags-*.yaml")
	if err != nil {
		return fmt.Errorf("tagmap: saving: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(m.Encode()); err != nil {
		tmp.Close()
		return fmt.Errorf("tagmap: saving: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("tagmap: saving: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("tagmap: saving: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("tagmap: saving: %w", err)
	}
	return nil
}

// Load reads a map file. A file that does not exist is an empty map, so a
// first enrollment starts from nothing.
func Load(path string) (*Map, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return New(), nil
	}
	if err != nil {
		return nil, fmt.Errorf("tagmap: %w", err)
	}
	return Decode(data, filepath.Base(path))
}

// Decode decodes a map file with comptoir/strictyaml; file names it in
// errors. Every error wraps ErrFormat and strictyaml.ErrInvalid; a bad UID
// wraps ErrBadUID too, and a UID given twice ErrEnrolled.
func Decode(data []byte, file string) (*Map, error) {
	f := strictyaml.File{Name: file, Sentinel: ErrFormat}
	root, err := f.Parse(data)
	if err != nil {
		return nil, err
	}
	top, err := f.Fields(root, "the tag map", []string{"version", "tags"}, nil)
	if err != nil {
		return nil, err
	}
	if err := f.Version(top, 1); err != nil {
		return nil, err
	}
	tags, err := f.Seq(top["tags"], "tags")
	if err != nil {
		return nil, err
	}
	m := New()
	lines := map[string]int{} // uid -> line of its entry
	for i, n := range tags {
		path := fmt.Sprintf("tags[%d]", i)
		vals, err := f.Section(n, path, []string{"uid", "kind", "id"}, []string{"label"})
		if err != nil {
			return nil, err
		}
		var t Target
		var raw string
		if raw, err = f.Scalar(vals["uid"], path+".uid"); err != nil {
			return nil, err
		}
		if t.Kind, err = f.String(vals["kind"], path+".kind"); err != nil {
			return nil, err
		}
		if t.ID, err = f.Scalar(vals["id"], path+".id"); err != nil {
			return nil, err
		}
		if l := vals["label"]; l != nil {
			if t.Label, err = f.Scalar(l, path+".label"); err != nil {
				return nil, err
			}
		}
		uidNode := vals["uid"]
		uid, err := NormalizeUID(raw)
		if err != nil {
			return nil, f.Wrap(uidNode, path+".uid", err)
		}
		if key, err := checkTarget(t); err != nil {
			return nil, f.Wrap(vals[key], path+"."+key, err)
		}
		if first, dup := lines[uid]; dup {
			other, _ := m.Lookup(uid)
			return nil, f.Failf(uidNode, path+".uid", ErrEnrolled, "%s is %s on line %d", uid, other, first)
		}
		lines[uid] = uidNode.Line
		if err := m.Add(uid, t); err != nil {
			return nil, f.Wrap(uidNode, path+".uid", err)
		}
	}
	return m, nil
}

// Resolved is a tap of an enrolled tag.
type Resolved struct {
	input.TagTapped
	Target Target
}

func (r Resolved) String() string { return "tag " + r.UID + " = " + r.Target.String() }

// Resolver turns taps into Resolved or input.UnknownTag.
type Resolver struct {
	m *Map
}

// NewResolver returns a resolver over m; m may change while it runs.
func NewResolver(m *Map) *Resolver { return &Resolver{m: m} }

// Resolve maps one event: an input.TagTapped becomes a Resolved or an
// input.UnknownTag; any other event is returned as is.
func (r *Resolver) Resolve(e input.Event) input.Event {
	tap, ok := e.(input.TagTapped)
	if !ok {
		return e
	}
	if t, ok := r.m.Lookup(tap.UID); ok {
		return Resolved{TagTapped: tap, Target: t}
	}
	return input.UnknownTag(tap)
}

// Run resolves every event of in until in is closed or ctx is done.
func (r *Resolver) Run(ctx context.Context, in <-chan input.Event) <-chan input.Event {
	out := make(chan input.Event, 8)
	go func() {
		defer close(out)
		for {
			select {
			case <-ctx.Done():
				return
			case e, ok := <-in:
				if !ok {
					return
				}
				select {
				case out <- r.Resolve(e):
				case <-ctx.Done():
					return
				}
			}
		}
	}()
	return out
}
