package engine

import (
	"go/ast"
	"go/parser"
	gotoken "go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// verbs are a format's verbs in order (%% left out).
var verbs = regexp.MustCompile(`%[-+# 0]*[0-9]*(?:\.[0-9]+)?[a-zA-Z%]`)

func formatVerbs(f string) []string {
	var out []string
	for _, v := range verbs.FindAllString(f, -1) {
		if v != "%%" {
			out = append(out, v[len(v)-1:])
		}
	}
	return out
}

// TestRefusefFormatsAgree reads every call of Refusef in the tree: go vet
// checks its French format against the arguments (Refusef forwards it to
// fmt.Sprintf as a printf wrapper), and this test that the English one
// has the same verbs in the same order, so neither language reads an
// argument the other does not.
func TestRefusefFormatsAgree(t *testing.T) {
	root := filepath.Join("..")
	fset := gotoken.NewFileSet()
	calls := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) < 3 {
				return true
			}
			name := ""
			switch fn := call.Fun.(type) {
			case *ast.Ident:
				name = fn.Name
			case *ast.SelectorExpr:
				name = fn.Sel.Name
			}
			if name != "Refusef" {
				return true
			}
			en, ok1 := call.Args[1].(*ast.BasicLit)
			fr, ok2 := call.Args[2].(*ast.BasicLit)
			if !ok1 || !ok2 || en.Kind != gotoken.STRING || fr.Kind != gotoken.STRING {
				return true // formats built at run time: vet's business
			}
			calls++
			e, _ := strconv.Unquote(en.Value)
			r, _ := strconv.Unquote(fr.Value)
			if ev, fv := formatVerbs(e), formatVerbs(r); !slices.Equal(ev, fv) {
				t.Errorf("%s: Refusef's English %q has verbs %v, its French %q has %v", fset.Position(call.Pos()), e, ev, r, fv)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if calls < 10 {
		t.Errorf("found %d calls of Refusef in the tree: the walk is broken", calls)
	}
	t.Logf("%d calls checked", calls)
}
