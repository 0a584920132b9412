package dashboard

import (
	"bytes"
	"fmt"
	"html"
	"io/fs"

	"comptoir/games/kit"
)

// gameMarker is where index.html takes the game's renderer and styles.
const gameMarker = "<!-- game: the game's renderer and styles, from its kit -->"

// gamePage is index.html with the script (and stylesheet, if any) of the
// game's kit (kit.Game.Web), loaded before app.js.
func gamePage(k kit.Game) ([]byte, error) {
	index, err := webFS.ReadFile("web/index.html")
	if err != nil {
		return nil, fmt.Errorf("dashboard: %w", err)
	}
	if !bytes.Contains(index, []byte(gameMarker)) {
		return nil, fmt.Errorf("dashboard: index.html has no place for the game's renderer (%q)", gameMarker)
	}
	name := html.EscapeString(k.Name)
	tags := fmt.Sprintf(`<script src="/static/%s.js" defer></script>`, name)
	if _, err := fs.Stat(k.Web, k.Name+".css"); err == nil {
		tags = fmt.Sprintf(`<link rel="stylesheet" href="/static/%s.css">`, name) + "\n" + tags
	}
	return bytes.Replace(index, []byte(gameMarker), []byte(tags), 1), nil
}

// gameFS serves the game's own files (its kit's Web: NAME.js, NAME.css)
// over the dashboard's web/.
type gameFS struct {
	game kit.Game
	web  fs.FS
}

func (g gameFS) Open(name string) (fs.File, error) {
	if name == g.game.Name+".js" || name == g.game.Name+".css" {
		return g.game.Web.Open(name)
	}
	return g.web.Open(name)
}
