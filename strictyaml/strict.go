// Package strictyaml decodes YAML data files strictly, from yaml.v3 nodes:
// unknown keys are refused, required keys must be present, every value has
// the type it should, and every error names the file, the line and the key,
// for example
//
//	board.yaml:12: key "cels": unknown key; expected one of key, fr, en, names, aliases, cells
//
// Every data file and configuration of Comptoir is decoded through it.
package strictyaml

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// ErrInvalid is wrapped by every error of this package.
var ErrInvalid = errors.New("invalid data file")

// Error is a decoding error at a place in a file.
type Error struct {
	File string // file name as given to Parse
	Line int    // 1-based line, 0 when unknown
	Key  string // key at fault, "" when none
	Msg  string // what is wrong and what to do
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

// Unwrap returns ErrInvalid, so that errors.Is(err, ErrInvalid) holds.
func (e *Error) Unwrap() error { return ErrInvalid }

// File is a YAML file being decoded.
type File struct {
	Name string
}

// Errorf returns an *Error at node n (which may be nil) for key.
func (f File) Errorf(n *yaml.Node, key, format string, args ...any) error {
	line := 0
	if n != nil {
		line = n.Line
	}
	return &Error{File: f.Name, Line: line, Key: key, Msg: fmt.Sprintf(format, args...)}
}

var yamlLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// Parse parses data and returns the top-level mapping node.
func (f File) Parse(data []byte) (*yaml.Node, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		msg := err.Error()
		if m := yamlLine.FindStringSubmatch(msg); m != nil {
			line, _ := strconv.Atoi(m[1])
			return nil, &Error{File: f.Name, Line: line, Msg: "not valid YAML: " + m[2]}
		}
		return nil, &Error{File: f.Name, Msg: "not valid YAML: " + strings.TrimPrefix(msg, "yaml: ")}
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		return nil, &Error{File: f.Name, Line: 1, Msg: "empty file; expected a mapping with a version key"}
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
	if n.Kind != yaml.MappingNode {
		return nil, f.Errorf(n, "", "%s is a %s; expected a mapping", where, kindName(n))
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
			return nil, f.Errorf(k, k.Value, "unknown key in %s; expected one of %s", where, strings.Join(all, ", "))
		}
		if _, dup := out[k.Value]; dup {
			return nil, f.Errorf(k, k.Value, "given twice in %s; keep one", where)
		}
		out[k.Value] = v
	}
	for _, k := range required {
		if _, ok := out[k]; !ok {
			return nil, f.Errorf(n, k, "missing in %s; it is required", where)
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
