package dashboard

import (
	"bytes"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"strconv"
)

// The web app manifest and its icons, so that a phone can keep the
// table on its home screen. The icons are drawn here (a coin on the
// counter's colour), once, at start.

var iconSizes = []int{192, 512}

// drawIcon draws the square icon of size n: a gold coin with its rim on
// the dashboard's accent colour.
func drawIcon(n int) []byte {
	img := image.NewRGBA(image.Rect(0, 0, n, n))
	accent := color.RGBA{0x8a, 0x3b, 0x12, 0xff}
	gold := color.RGBA{0xf4, 0xc4, 0x30, 0xff}
	rim := color.RGBA{0xb8, 0x86, 0x0b, 0xff}
	c := float64(n) / 2
	for y := range n {
		for x := range n {
			dx, dy := float64(x)+.5-c, float64(y)+.5-c
			d := dx*dx + dy*dy
			switch r := float64(n) * .34; {
			case d <= (r*.78)*(r*.78):
				img.Set(x, y, gold)
			case d <= r*r:
				img.Set(x, y, rim)
			default:
				img.Set(x, y, accent)
			}
		}
	}
	var b bytes.Buffer
	png.Encode(&b, img) // writing to memory does not fail
	return b.Bytes()
}

// manifest is the web app manifest of the table named name.
func manifest(name string) []byte {
	type icon struct {
		Src   string `json:"src"`
		Sizes string `json:"sizes"`
		Type  string `json:"type"`
	}
	m := struct {
		Name       string `json:"name"`
		ShortName  string `json:"short_name"`
		StartURL   string `json:"start_url"`
		Display    string `json:"display"`
		Background string `json:"background_color"`
		Theme      string `json:"theme_color"`
		Icons      []icon `json:"icons"`
	}{Name: "Comptoir · " + name, ShortName: "Comptoir", StartURL: "/seat", Display: "standalone",
		Background: "#fbf7ef", Theme: "#8a3b12"}
	for _, n := range iconSizes {
		s := itoaSize(n)
		m.Icons = append(m.Icons, icon{Src: "/icon-" + s + ".png", Sizes: s + "x" + s, Type: "image/png"})
	}
	b, _ := json.Marshal(m)
	return b
}

func itoaSize(n int) string { return strconv.Itoa(n) }

// manifestRoutes serves the manifest and its icons.
func (s *Server) manifestRoutes(m *http.ServeMux) {
	man := manifest(s.kit.BGStats.Name)
	m.HandleFunc("GET /manifest.webmanifest", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/manifest+json")
		w.Write(man)
	})
	for _, n := range iconSizes {
		data := drawIcon(n)
		m.HandleFunc("GET /icon-"+itoaSize(n)+".png", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "image/png")
			w.Header().Set("Cache-Control", "max-age=86400")
			w.Write(data)
		})
	}
}
