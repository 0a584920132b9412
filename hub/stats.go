package hub

import (
	"bytes"
	"fmt"
	"io"
	"sort"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// Plots are the floor's statistics, drawn by gonum/plot as SVG.
var Plots = []string{"per-day", "length", "scores", "hours"}

// Plot draws the named plot of the plays, labelled in lang ("fr" or
// "en"), as SVG to w.
func Plot(w io.Writer, name, lang string, plays []Play) error {
	tr := func(fr, en string) string {
		if lang == "fr" {
			return fr
		}
		return en
	}
	p := plot.New()
	switch name {
	case "per-day":
		p.Title.Text = tr("Parties par jour", "Plays per day")
		counts := map[string]float64{}
		for _, pl := range plays {
			counts[pl.Finished.Local().Format("2006-01-02")]++
		}
		if err := bars(p, counts); err != nil {
			return err
		}
	case "length":
		p.Title.Text = tr("Durée médiane (min) par jeu, édition et joueurs", "Median length (min) by game, edition and players")
		by := map[string][]float64{}
		for _, pl := range plays {
			if pl.Outcome != "over" {
				continue
			}
			k := fmt.Sprintf("%s %s %dj", pl.Name, pl.Variant, len(pl.Players))
			by[k] = append(by[k], pl.Duration().Minutes())
		}
		med := map[string]float64{}
		for k, v := range by {
			sort.Float64s(v)
			med[k] = v[len(v)/2]
		}
		if err := bars(p, med); err != nil {
			return err
		}
	case "scores":
		p.Title.Text = tr("Scores finaux", "Final scores")
		p.X.Label.Text = tr("points", "points")
		var vals plotter.Values
		for _, pl := range plays {
			if pl.Result != nil {
				for _, s := range pl.Result.Scores {
					vals = append(vals, float64(s.Total))
				}
			}
		}
		if len(vals) == 0 {
			vals = plotter.Values{0}
		}
		h, err := plotter.NewHist(vals, 20)
		if err != nil {
			return err
		}
		p.Add(h)
	case "hours":
		p.Title.Text = tr("Tables occupées selon l'heure", "Tables in use by hour of day")
		counts := map[string]float64{}
		for h := 0; h < 24; h++ {
			counts[fmt.Sprintf("%02d", h)] = 0
		}
		for _, pl := range plays {
			for t := pl.Started.Truncate(time.Hour); !t.After(pl.Finished); t = t.Add(time.Hour) {
				counts[t.Local().Format("15")]++
			}
		}
		if err := bars(p, counts); err != nil {
			return err
		}
	default:
		return fmt.Errorf("hub: no plot %q; plots: %v", name, Plots)
	}
	wt, err := p.WriterTo(8*vg.Inch, 4*vg.Inch, "svg")
	if err != nil {
		return err
	}
	_, err = wt.WriteTo(w)
	return err
}

// bars adds a bar chart of the values by label, labels sorted.
func bars(p *plot.Plot, m map[string]float64) error {
	labels := make([]string, 0, len(m))
	for k := range m {
		labels = append(labels, k)
	}
	sort.Strings(labels)
	vals := make(plotter.Values, len(labels))
	for i, k := range labels {
		vals[i] = m[k]
	}
	if len(vals) == 0 {
		vals, labels = plotter.Values{0}, []string{"—"}
	}
	b, err := plotter.NewBarChart(vals, vg.Points(14))
	if err != nil {
		return err
	}
	p.Add(b)
	p.NominalX(labels...)
	return nil
}

// svgBuffer draws a plot into memory.
func svgBuffer(name, lang string, plays []Play) ([]byte, error) {
	var b bytes.Buffer
	err := Plot(&b, name, lang, plays)
	return b.Bytes(), err
}
