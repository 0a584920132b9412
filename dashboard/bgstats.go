package dashboard

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"comptoir/engine"
	"comptoir/games/kit"
)

// The BG Stats app (https://www.bgstatsapp.com) imports a play from a
// ".bgsplay" file: JSON with the same tables as its full export (players,
// locations, games, plays) cross-referenced by id. Field names and layout
// follow files the app writes; dates are "2006-01-02 15:04:05".

type bgsFile struct {
	About     string        `json:"about"`
	Players   []bgsPlayer   `json:"players"`
	Locations []bgsLocation `json:"locations"`
	Games     []bgsGame     `json:"games"`
	Plays     []bgsPlay     `json:"plays"`
	UserInfo  bgsUserInfo   `json:"userInfo"`
}

type bgsUserInfo struct {
	MeRefID int `json:"meRefId"`
}

type bgsPlayer struct {
	ID               int    `json:"id"`
	UUID             string `json:"uuid"`
	Name             string `json:"name"`
	IsAnonymous      bool   `json:"isAnonymous"`
	ModificationDate string `json:"modificationDate"`
	BGGUsername      string `json:"bggUsername"`
}

type bgsLocation struct {
	ID               int    `json:"id"`
	UUID             string `json:"uuid"`
	Name             string `json:"name"`
	ModificationDate string `json:"modificationDate"`
}

type bgsGame struct {
	ID               int    `json:"id"`
	UUID             string `json:"uuid"`
	Name             string `json:"name"`
	ModificationDate string `json:"modificationDate"`
	Cooperative      bool   `json:"cooperative"`
	HighestWins      bool   `json:"highestWins"`
	NoPoints         bool   `json:"noPoints"`
	UsesTeams        bool   `json:"usesTeams"`
	BGGName          string `json:"bggName"`
	BGGYear          int    `json:"bggYear"`
	BGGID            int    `json:"bggId"`
	IsBaseGame       bool   `json:"isBaseGame"`
	IsExpansion      bool   `json:"isExpansion"`
	MinPlayerCount   int    `json:"minPlayerCount"`
	MaxPlayerCount   int    `json:"maxPlayerCount"`
}

type bgsPlay struct {
	UUID             string           `json:"uuid"`
	ModificationDate string           `json:"modificationDate"`
	EntryDate        string           `json:"entryDate"`
	PlayDate         string           `json:"playDate"`
	UsesTeams        bool             `json:"usesTeams"`
	DurationMin      int              `json:"durationMin"`
	Ignored          bool             `json:"ignored"`
	ManualWinner     bool             `json:"manualWinner"`
	Rounds           int              `json:"rounds"`
	LocationRefID    int              `json:"locationRefId"`
	GameRefID        int              `json:"gameRefId"`
	Board            string           `json:"board"`
	ScoringSettings  int              `json:"scoringSettings"`
	PlayerScores     []bgsPlayerScore `json:"playerScores"`
	ExpansionPlays   []any            `json:"expansionPlays"`
	Comments         string           `json:"comments"`
}

type bgsPlayerScore struct {
	Score         string `json:"score"`
	Winner        bool   `json:"winner"`
	NewPlayer     bool   `json:"newPlayer"`
	StartPlayer   bool   `json:"startPlayer"`
	PlayerRefID   int    `json:"playerRefId"`
	Rank          int    `json:"rank"`
	SeatOrder     int    `json:"seatOrder"`
	Role          string `json:"role"`
	StartPosition string `json:"startPosition"`
}

// bgsUUID is a stable UUID-shaped identifier made from parts, so that
// importing the same game twice gives the same play, not a duplicate.
func bgsUUID(parts ...string) string {
	h := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	h[6] = h[6]&0x0f | 0x50 // version 5 (name-based)
	h[8] = h[8]&0x3f | 0x80
	return strings.ToUpper(fmt.Sprintf("%x-%x-%x-%x-%x", h[0:4], h[4:6], h[6:8], h[8:10], h[10:16]))
}

const bgsDate = "2006-01-02 15:04:05"

// BGStatsPlay returns the .bgsplay file of a finished game: the players
// with their total scores, rank and winner flags, the breakdown in the
// comments. started may be zero (then the play is dated at end, with no
// duration).
//
// The game's names are its kit's (kit.Game.BGStats), its player counts
// those its rules allow (engine.Catalog).
func BGStatsPlay(k kit.Game, setup engine.Setup, res engine.Result, started, ended time.Time, location string) ([]byte, error) {
	if !res.Over {
		return nil, fmt.Errorf("bgsplay: the game is not over")
	}
	if len(res.Scores) != len(setup.Players) {
		return nil, fmt.Errorf("bgsplay: %d scores for %d players", len(res.Scores), len(setup.Players))
	}
	if started.IsZero() {
		started = ended
	}
	mod := ended.UTC().Format(bgsDate)
	g := bgsGame{Name: k.BGStats.Name, BGGName: k.BGStats.BGGName, BGGYear: k.BGStats.BGGYear}
	if g.Name == "" {
		g.Name = setup.Game
	}
	if k.Rules != nil {
		if c, ok := k.Rules().(engine.Catalog); ok && len(c.PlayerCounts()) > 0 {
			g.MinPlayerCount, g.MaxPlayerCount = slices.Min(c.PlayerCounts()), slices.Max(c.PlayerCounts())
		}
	}
	g.ID, g.UUID, g.ModificationDate = 1, bgsUUID("game", setup.Game), mod
	g.HighestWins, g.IsBaseGame = true, true
	if g.MinPlayerCount == 0 {
		g.MinPlayerCount, g.MaxPlayerCount = len(setup.Players), len(setup.Players)
	}
	f := bgsFile{
		About:     "Comptoir: a play of " + g.Name + ". Import it into BG Stats (share the file with the app).",
		Locations: []bgsLocation{{ID: 1, UUID: bgsUUID("location", location), Name: location, ModificationDate: mod}},
		Games:     []bgsGame{g},
	}
	play := bgsPlay{
		UUID:             bgsUUID("play", setup.Game, started.UTC().Format(time.RFC3339Nano), strings.Join(setup.Players, ",")),
		ModificationDate: mod, EntryDate: mod, PlayDate: started.UTC().Format(bgsDate),
		DurationMin:   int(ended.Sub(started).Minutes()),
		LocationRefID: 1, GameRefID: 1, Board: setup.Variant,
		ExpansionPlays: []any{},
	}
	var comments []string
	for i, name := range setup.Players {
		f.Players = append(f.Players, bgsPlayer{ID: i + 1, UUID: bgsUUID("player", name), Name: name, ModificationDate: mod})
	}
	winners := map[engine.Seat]bool{}
	for _, w := range res.Winners {
		winners[w] = true
	}
	for _, sc := range res.Scores {
		i := int(sc.Seat)
		if i < 0 || i >= len(setup.Players) {
			return nil, fmt.Errorf("bgsplay: score for seat %d of %d", i, len(setup.Players))
		}
		play.PlayerScores = append(play.PlayerScores, bgsPlayerScore{
			Score: strconv.Itoa(sc.Total), Winner: winners[sc.Seat], StartPlayer: i == 0,
			PlayerRefID: i + 1, Rank: sc.Rank, SeatOrder: i + 1,
		})
		var parts []string
		for _, p := range sc.Parts {
			parts = append(parts, fmt.Sprintf("%s %d", p.NameEN, p.Points))
		}
		comments = append(comments, fmt.Sprintf("%s: %d (%s)", setup.Players[i], sc.Total, strings.Join(parts, ", ")))
	}
	play.Comments = strings.Join(comments, "\n")
	f.Plays = []bgsPlay{play}
	return json.MarshalIndent(f, "", "  ")
}
