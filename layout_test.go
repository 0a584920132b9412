package comptoir

import (
	"encoding/json"
	"go/parser"
	"go/token"
	"io/fs"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// goFiles maps each package folder to its non-test Go files' imports.
func goFiles(t *testing.T) map[string]map[string][]string {
	t.Helper()
	pkgs := map[string]map[string][]string{}
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && path != "." || d.Name() == "testdata" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		dir := filepath.Dir(path)
		if pkgs[dir] == nil {
			pkgs[dir] = map[string][]string{}
		}
		var imps []string
		for _, i := range f.Imports {
			p, _ := strconv.Unquote(i.Path.Value)
			imps = append(imps, p)
		}
		pkgs[dir][path] = imps
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return pkgs
}

// rulesDir reports whether dir holds a game's pure rules: games/<game>
// and its sub-packages, except its kit (games/<game>/<game>kit), the kit
// package itself and the list.
func rulesDir(dir string) bool {
	parts := strings.Split(filepath.ToSlash(dir), "/")
	if len(parts) < 2 || parts[0] != "games" || parts[1] == "kit" || parts[1] == "tally" {
		return false
	}
	return !(len(parts) >= 3 && parts[2] == parts[1]+"kit")
}

func under(path string, dirs ...string) bool {
	for _, d := range dirs {
		if path == d || strings.HasPrefix(path, d+"/") {
			return true
		}
	}
	return false
}

// TestImportBoundaries keeps OpenCV in vision/, periph.io in hw/ and cmd/,
// and the rules engines free of I/O, clocks and randomness.
func TestImportBoundaries(t *testing.T) {
	impure := map[string]bool{"os": true, "net": true, "net/http": true, "time": true, "math/rand": true,
		"math/rand/v2": true, "crypto/rand": true, "database/sql": true, "io/ioutil": true, "os/exec": true, "syscall": true}
	for dir, files := range goFiles(t) {
		for file, imps := range files {
			for _, imp := range imps {
				switch {
				case strings.HasPrefix(imp, "gocv.io/") && !under(dir, "vision"):
					t.Errorf("%s imports %s: OpenCV lives only in vision/", file, imp)
				case strings.HasPrefix(imp, "periph.io/") && !under(dir, "hw", "cmd"):
					t.Errorf("%s imports %s: periph.io lives only in hw/ and cmd/", file, imp)
				case (under(dir, "engine") || rulesDir(dir)) && impure[imp]:
					t.Errorf("%s imports %s: the engine and the games' rules are pure (no I/O, clock or randomness)", file, imp)
				case (under(dir, "engine") || rulesDir(dir)) && strings.HasPrefix(imp, "comptoir/") && !under(imp, "comptoir/engine", "comptoir/configs", "comptoir/strictyaml", "comptoir/input") && !(rulesDir(dir) && rulesDir(strings.TrimPrefix(imp, "comptoir/"))):
					t.Errorf("%s imports %s: the engine and the games' rules depend only on engine/, configs/, strictyaml/, input/ (plain values) and their own game", file, imp)
				case under(dir, "games") && !rulesDir(dir) && impure[imp]:
					t.Errorf("%s imports %s: a game's kit is pure too (no I/O, clock or randomness)", file, imp)
				case under(dir, "games") && strings.HasPrefix(imp, "comptoir/") && !under(imp, "comptoir/engine", "comptoir/configs", "comptoir/strictyaml", "comptoir/input", "comptoir/games"):
					t.Errorf("%s imports %s: the games depend only on engine/, configs/, strictyaml/, input/ and games/ (no session, dashboard, journal or hardware)", file, imp)
				case under(dir, "table", "dashboard") && under(imp, "comptoir/games") && imp != "comptoir/games" && imp != "comptoir/games/kit":
					t.Errorf("%s imports %s: the session and the dashboard know a game only through its kit and the list of games", file, imp)
				}
			}
		}
	}
}

// TestPackageDocs checks every package says what it is.
func TestPackageDocs(t *testing.T) {
	for dir, files := range goFiles(t) {
		documented := false
		for file := range files {
			f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.PackageClauseOnly|parser.ParseComments)
			if err != nil {
				t.Fatal(err)
			}
			if f.Doc != nil && strings.TrimSpace(f.Doc.Text()) != "" {
				documented = true
			}
		}
		if !documented {
			t.Errorf("package in %s has no package doc comment", dir)
		}
	}
}

// TestBuildsWithoutOpenCV checks that the engine, the journal, the
// dashboard, the table session and the hardware inputs do not depend on
// OpenCV (cgo), so they build and test on any machine.
func TestBuildsWithoutOpenCV(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-json=ImportPath,Deps",
		"./engine/...", "./games/...", "./journal/...", "./notation/...", "./dashboard/...", "./table/...", "./hw/...", "./cmd/comptoird").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for dec.More() {
		var p struct{ ImportPath string }
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		if strings.HasPrefix(p.ImportPath, "gocv.io/") || p.ImportPath == "comptoir/vision" {
			t.Errorf("%s is a dependency of a package that must build without OpenCV", p.ImportPath)
		}
	}
}
