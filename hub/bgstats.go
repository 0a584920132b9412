package hub

import (
	"encoding/json"
	"net/url"
	"strconv"

	"comptoir/games"
)

// BGStatsBase is the BG Stats app's page that creates a play from JSON.
const BGStatsBase = "https://app.bgstatsapp.com/createPlay.html?data="

type bgsPlay struct {
	SourceName   string      `json:"sourceName"`
	SourcePlayID string      `json:"sourcePlayId"`
	PlayDate     string      `json:"playDate"`
	DurationMin  int         `json:"durationMin"`
	Location     *bgsPlace   `json:"location,omitempty"`
	Game         bgsGameRef  `json:"game"`
	Players      []bgsPlayer `json:"players"`
}

type bgsPlace struct {
	Name string `json:"name"`
}

type bgsGameRef struct {
	Name         string `json:"name"`
	SourceGameID string `json:"sourceGameId"`
	HighestWins  bool   `json:"highestWins"`
	BGGName      string `json:"bggName,omitempty"`
	BGGYear      int    `json:"bggYear,omitempty"`
}

type bgsPlayer struct {
	Name        string `json:"name"`
	Score       string `json:"score,omitempty"`
	Winner      bool   `json:"winner"`
	StartPlayer bool   `json:"startPlayer"`
}

// BGStatsJSON is the play in the JSON BG Stats' createPlay page takes,
// the game named as its kit names it in BG Stats (kit.Game.BGStats).
func BGStatsJSON(p Play, location string) []byte {
	bp := bgsPlay{
		SourceName: "Comptoir", SourcePlayID: p.Table + "/" + strconv.FormatInt(p.Game, 10),
		PlayDate: p.Started.Local().Format("2006-01-02 15:04:05"), DurationMin: int(p.Duration().Minutes() + 0.5),
		Game:    bgsGameRef{Name: p.Name, SourceGameID: p.Name, HighestWins: true},
		Players: []bgsPlayer{},
	}
	if k, err := games.Lookup(p.Name); err == nil {
		// The game's names in BG Stats are its kit's.
		bp.Game.Name, bp.Game.BGGName, bp.Game.BGGYear = k.BGStats.Name, k.BGStats.BGGName, k.BGStats.BGGYear
	}
	if location != "" {
		bp.Location = &bgsPlace{Name: location}
	}
	winners := map[string]bool{}
	for _, w := range p.Winners() {
		winners[w] = true
	}
	for i, name := range p.Players {
		pl := bgsPlayer{Name: name, Winner: winners[name], StartPlayer: i == 0}
		if p.Result != nil {
			for _, s := range p.Result.Scores {
				if int(s.Seat) == i {
					pl.Score = strconv.Itoa(s.Total)
				}
			}
		}
		bp.Players = append(bp.Players, pl)
	}
	data, _ := json.Marshal(bp)
	return data
}

// BGStatsLink is the link that opens the play in BG Stats.
func BGStatsLink(p Play, location string) string {
	return BGStatsBase + url.QueryEscape(string(BGStatsJSON(p, location)))
}
