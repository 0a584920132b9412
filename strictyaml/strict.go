// Package strictyaml decodes YAML data files strictly, from yaml.v3 nodes:
// unknown keys are refused, required keys must be present, every value has
// the type it should, and every error names the file, the line and the key,
// for example
//
//	board.yaml:12: key "cels": unknown key in a building; expected one of key, fr, en, cells, names, aliases
//
// Every YAML file Comptoir reads is decoded through it, by the package
// that owns the format: the games' data (games/genoa/board,
// games/genoa/catalog, games/negoce, games/dschunke), the table
// configuration (tableconfig, hw/hwconfig) and the tag map (hw/tagmap).
// Tools read those files through the same packages (comptoir enroll
// decodes a cards file with its game's decoder, a board with
// games/genoa/board), and the staff's board edit decodes the layout it
// writes with games/genoa/board before saving it. Files that Comptoir
// writes for itself (input recordings, journals, dice calibrations,
// dashboard tokens) are JSON, and game records are in package notation's
// text format.
//
// # Errors
//
// Every error is an *Error. It wraps ErrInvalid, one of ErrUnknownKey,
// ErrMissingKey and ErrBadValue saying what kind of fault it is, and the
// File's Sentinel when one is set, so that a package can keep its own
// sentinel: errors.Is(err, tagmap.ErrFormat) holds for every error of a tag
// map. A package's own checks report through Failf (a message led by its
// kind, "bad value: pin GPIO17 is already used") or Wrap (any error of
// its own, at a place in the file).
//
// # Key paths
//
// Fields names the keys of a mapping by themselves ("cells") and the
// mapping by a description ("a building"); Section names them by their
// dotted path from the top of the file ("devices.nfc.reset", "goods[2].en"),
// for nested configuration sections.
package strictyaml

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// ErrInvalid is wrapped by every error of this package.
var ErrInvalid = errors.New("invalid data file")

// The kinds of errors: every *Error wraps one of them.
var (
	ErrUnknownKey = errors.New("unknown key")
	ErrMissingKey = errors.New("missing key")
	ErrBadValue   = errors.New("bad value")
)

// Error is a decoding error at a place in a file.
type Error struct {
	File string // file name as given to Parse
	Line int    // 1-based line, 0 when unknown
	Key  string // key at fault, "" when none
	Msg  string // what is wrong and what to do
	// Err is what went wrong, wrapped but not printed (Msg says it): one
	// of ErrUnknownKey, ErrMissingKey, ErrBadValue, or an error of the
	// caller's given to Wrap or Failf.
	Err error
	// Sentinel is the File's Sentinel, wrapped too; nil when none.
	Sentinel error
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	b.WriteString(": ")
	if e.Key != "" {
		fmt.Fprintf(&b, "key %q: ", e.Key)
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Unwrap returns ErrInvalid, Err and Sentinel, so that errors.Is(err,
// ErrInvalid) holds, and errors.Is with the kind or the caller's sentinel.
func (e *Error) Unwrap() []error {
	out := []error{ErrInvalid}
	if e.Err != nil {
		out = append(out, e.Err)
	}
	if e.Sentinel != nil {
		out = append(out, e.Sentinel)
	}
	return out
}

// File is a YAML file being decoded.
type File struct {
	Name string
	// Sentinel, when not nil, is wrapped by every error about this file,
	// for a package that exports a sentinel of its own (for example
	// tagmap.ErrFormat). It is not printed.
	Sentinel error
}

func (f File) at(n *yaml.Node, key string, kind error, msg string) error {
	line := 0
	if n != nil {
		line = n.Line
	}
	return &Error{File: f.Name, Line: line, Key: key, Msg: msg, Err: kind, Sentinel: f.Sentinel}
}

// Errorf returns an *Error of kind ErrBadValue at node n (which may be nil)
// for key. The message is not led by the kind: it says what is wrong.
func (f File) Errorf(n *yaml.Node, key, format string, args ...any) error {
	return f.at(n, key, ErrBadValue, fmt.Sprintf(format, args...))
}

// Failf returns an *Error of the given kind (ErrBadValue, or a sentinel
// of the caller's) at node n for key, its message led by the kind:
//
//	table.yaml:9: key "devices.buttons.pins.undo": bad value: pin GPIO17 is already used by devices.buttons.pins.confirm
func (f File) Failf(n *yaml.Node, key string, kind error, format string, args ...any) error {
	return f.Wrap(n, key, fmt.Errorf("%w: "+format, append([]any{kind}, args...)...))
}

// Wrap returns an *Error at node n for key that prints and wraps err, an
// error of the caller's (for example a parse error of a value).
func (f File) Wrap(n *yaml.Node, key string, err error) error {
	return f.at(n, key, err, err.Error())
}

var yamlLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// parserProblems are the problems of yaml.v3's parser (parserc.go), whose
// "line N" is the 0-based line of the mark (decode.go, parser.fail),
// unlike its scanner's, which is 1-based. No scanner problem has these
// texts.
var parserProblems = map[string]bool{
	"did not find expected ',' or ']'":       true,
	"did not find expected ',' or '}'":       true,
	"did not find expected '-' indicator":    true,
	"did not find expected <document start>": true,
	"did not find expected <stream-start>":   true,
	"did not find expected key":              true,
	"did not find expected node content":     true,
	"found duplicate %TAG directive":         true,
	"found duplicate %YAML directive":        true,
	"found incompatible YAML document":       true,
	"found undefined tag handle":             true,
}

// Parse parses data and returns the top-level mapping node.
func (f File) Parse(data []byte) (*yaml.Node, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		msg := err.Error()
		if m := yamlLine.FindStringSubmatch(msg); m != nil {
			line, _ := strconv.Atoi(m[1])
			if parserProblems[m[2]] {
				line++
			}
			return nil, &Error{File: f.Name, Line: line, Msg: "not valid YAML: " + m[2], Err: ErrBadValue, Sentinel: f.Sentinel}
		}
		return nil, f.at(nil, "", ErrBadValue, "not valid YAML: "+strings.TrimPrefix(msg, "yaml: "))
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		return nil, &Error{File: f.Name, Line: 1, Msg: "empty file; expected a mapping with a version key", Err: ErrMissingKey, Sentinel: f.Sentinel}
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return nil, f.Errorf(root, "", "top level is a %s; expected a mapping with a version key", kindName(root))
	}
	return root, nil
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "mapping"
	case yaml.SequenceNode:
		return "list"
	case yaml.ScalarNode:
		return "scalar"
	case yaml.AliasNode:
		return "alias"
	}
	return "node"
}

// Fields checks that n is a mapping whose keys are all in required or
// optional, with every required key present and no key twice, and returns
// the value node of each key present. where names the mapping in errors
// (for example "building guild-hall").
func (f File) Fields(n *yaml.Node, where string, required, optional []string) (map[string]*yaml.Node, error) {
	return f.fields(n, where, "", required, optional)
}

// Section is Fields for the mapping at a dotted key path, for example
// "devices.nfc" or "goods[2]": errors name the keys by their whole path,
// "devices.nfc.reset", and the mapping by its path.
func (f File) Section(n *yaml.Node, path string, required, optional []string) (map[string]*yaml.Node, error) {
	return f.fields(n, path, path+".", required, optional)
}

func (f File) fields(n *yaml.Node, where, prefix string, required, optional []string) (map[string]*yaml.Node, error) {
	if n.Kind != yaml.MappingNode {
		return nil, f.Errorf(n, strings.TrimSuffix(prefix, "."), "%s is %s; expected a mapping", where, describe(n))
	}
	allowed := make(map[string]bool, len(required)+len(optional))
	for _, k := range required {
		allowed[k] = true
	}
	for _, k := range optional {
		allowed[k] = true
	}
	out := make(map[string]*yaml.Node, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			return nil, f.Errorf(k, "", "%s has a key that is a %s; expected a plain name", where, kindName(k))
		}
		if !allowed[k.Value] {
			all := append(append([]string{}, required...), optional...)
			msg := fmt.Sprintf("unknown key in %s; expected one of %s", where, strings.Join(all, ", "))
			if near := Nearest(k.Value, all); near != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", near)
			}
			return nil, f.at(k, prefix+k.Value, ErrUnknownKey, msg)
		}
		if _, dup := out[k.Value]; dup {
			return nil, f.Errorf(k, prefix+k.Value, "given twice in %s; keep one", where)
		}
		out[k.Value] = v
	}
	for _, k := range required {
		if _, ok := out[k]; !ok {
			return nil, f.at(n, prefix+k, ErrMissingKey, fmt.Sprintf("missing in %s; it is required", where))
		}
	}
	return out, nil
}

// String returns the value of scalar string node n.
func (f File) String(n *yaml.Node, key string) (string, error) {
	if n.Kind != yaml.ScalarNode || (n.Tag != "!!str" && n.Tag != "") {
		return "", f.Errorf(n, key, "is %s; expected a text", describe(n))
	}
	return n.Value, nil
}

// Int returns the value of integer node n.
func (f File) Int(n *yaml.Node, key string) (int, error) {
	if n.Kind == yaml.ScalarNode && digits.MatchString(n.Value) && n.Tag != "!!str" {
		if _, err := strconv.Atoi(n.Value); err != nil {
			return 0, f.Errorf(n, key, "%q is out of range", n.Value)
		}
	}
	if n.Kind != yaml.ScalarNode || n.Tag != "!!int" {
		return 0, f.Errorf(n, key, "is %s; expected a whole number", describe(n))
	}
	v, err := strconv.Atoi(n.Value)
	if err != nil {
		return 0, f.Errorf(n, key, "%q is out of range", n.Value)
	}
	return v, nil
}

// Bool returns the value of boolean node n.
func (f File) Bool(n *yaml.Node, key string) (bool, error) {
	if n.Kind != yaml.ScalarNode || n.Tag != "!!bool" {
		return false, f.Errorf(n, key, "is %s; expected true or false", describe(n))
	}
	var b bool
	if err := n.Decode(&b); err != nil {
		return false, f.Errorf(n, key, "%q is not true or false", n.Value)
	}
	return b, nil
}

// Scalar returns the text of scalar node n as written, whatever its type:
// for values that are names and may look like numbers ("1" or 1 for an
// I2C bus, 0x20 for an address, GPIO17). An empty value, a list or a
// mapping is refused.
func (f File) Scalar(n *yaml.Node, key string) (string, error) {
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		return "", f.Errorf(n, key, "is %s; expected a single value", describe(n))
	}
	return n.Value, nil
}

// Float returns the value of number node n, whole or decimal.
func (f File) Float(n *yaml.Node, key string) (float64, error) {
	if n.Kind != yaml.ScalarNode || (n.Tag != "!!int" && n.Tag != "!!float") {
		return 0, f.Errorf(n, key, "is %s; expected a number", describe(n))
	}
	var v float64
	if err := n.Decode(&v); err != nil {
		return 0, f.Errorf(n, key, "%q is not a number", n.Value)
	}
	return v, nil
}

// Duration returns the value of duration node n, a text with its unit
// such as 100ms, 5s or 1m30s (time.ParseDuration).
func (f File) Duration(n *yaml.Node, key string) (time.Duration, error) {
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		return 0, f.Errorf(n, key, "is %s; expected a duration with its unit, like 100ms or 5s", describe(n))
	}
	d, err := time.ParseDuration(n.Value)
	if err != nil {
		return 0, f.Errorf(n, key, "%q is not a duration; write it with its unit, like 100ms or 5s", n.Value)
	}
	return d, nil
}

// Seq returns the items of list node n.
func (f File) Seq(n *yaml.Node, key string) ([]*yaml.Node, error) {
	if n.Kind != yaml.SequenceNode {
		return nil, f.Errorf(n, key, "is %s; expected a list", describe(n))
	}
	return n.Content, nil
}

// Strings returns the texts of list node n.
func (f File) Strings(n *yaml.Node, key string) ([]string, error) {
	items, err := f.Seq(n, key)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(items))
	for i, it := range items {
		if out[i], err = f.String(it, key); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// StringMap returns the pairs of a mapping of texts to texts, in file order.
func (f File) StringMap(n *yaml.Node, key string) ([][2]string, error) {
	if n.Kind != yaml.MappingNode {
		return nil, f.Errorf(n, key, "is %s; expected a mapping of names to texts", describe(n))
	}
	var out [][2]string
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, err := f.String(n.Content[i], key)
		if err != nil {
			return nil, err
		}
		if seen[k] {
			return nil, f.Errorf(n.Content[i], key+"."+k, "given twice; keep one")
		}
		seen[k] = true
		v, err := f.String(n.Content[i+1], key+"."+k)
		if err != nil {
			return nil, err
		}
		out = append(out, [2]string{k, v})
	}
	return out, nil
}

// describe says what n is, with an article: "a list", "a text \"x\"",
// "an empty value".
func describe(n *yaml.Node) string {
	if n.Kind != yaml.ScalarNode {
		if n.Kind == yaml.AliasNode {
			return "an alias (anchors are not supported)"
		}
		return "a " + kindName(n)
	}
	switch n.Tag {
	case "!!int":
		return "a number"
	case "!!float":
		return "a decimal number"
	case "!!bool":
		return "true/false"
	case "!!null":
		return "an empty value"
	case "!!str":
		return fmt.Sprintf("a text %q", n.Value)
	}
	return fmt.Sprintf("the value %q", n.Value)
}

var digits = regexp.MustCompile(`^[-+]?[0-9]+$`)

// Version checks the version key of a top-level mapping: it must be the
// whole number want.
func (f File) Version(fields map[string]*yaml.Node, want int) error {
	n := fields["version"]
	v, err := f.Int(n, "version")
	if err != nil {
		return err
	}
	if v != want {
		return f.Errorf(n, "version", "version %d is not supported; this Comptoir reads version %d", v, want)
	}
	return nil
}
