package bgstats

import (
	"encoding/json"
	"strconv"
)

// The ".bgsplay" file holds the same tables as the app's full backup
// (players, locations, games, plays), cross-referenced by id. Field names
// and layout follow files the app writes (a play file shared by the app:
// https://pastebin.com/iDbHyBui); dates are "2006-01-02 15:04:05" in the
// wall time of the place.

// File is a ".bgsplay" file.
type File struct {
	About     string     `json:"about"`
	Players   []Player   `json:"players"`
	Locations []Location `json:"locations"`
	Games     []FileGame `json:"games"`
	Plays     []FilePlay `json:"plays"`
	UserInfo  UserInfo   `json:"userInfo"`
}

// UserInfo names the app's owner among the players; 0: none.
type UserInfo struct {
	MeRefID int `json:"meRefId"`
}

// Player is a player of the file.
type Player struct {
	ID               int    `json:"id"`
	UUID             string `json:"uuid"`
	Name             string `json:"name"`
	IsAnonymous      bool   `json:"isAnonymous"`
	ModificationDate string `json:"modificationDate"`
	BGGUsername      string `json:"bggUsername"`
}

// Location is a venue of the file.
type Location struct {
	ID               int    `json:"id"`
	UUID             string `json:"uuid"`
	Name             string `json:"name"`
	ModificationDate string `json:"modificationDate"`
}

// FileGame is a game of the file.
type FileGame struct {
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

// FilePlay is a play of the file.
type FilePlay struct {
	UUID             string        `json:"uuid"`
	ModificationDate string        `json:"modificationDate"`
	EntryDate        string        `json:"entryDate"`
	PlayDate         string        `json:"playDate"`
	UsesTeams        bool          `json:"usesTeams"`
	DurationMin      int           `json:"durationMin"`
	Ignored          bool          `json:"ignored"`
	ManualWinner     bool          `json:"manualWinner"`
	Rounds           int           `json:"rounds"`
	LocationRefID    int           `json:"locationRefId"`
	GameRefID        int           `json:"gameRefId"`
	Board            string        `json:"board"`
	ScoringSettings  int           `json:"scoringSettings"`
	PlayerScores     []PlayerScore `json:"playerScores"`
	ExpansionPlays   []any         `json:"expansionPlays"`
	Comments         string        `json:"comments"`
}

// PlayerScore is one player's line of a play. Score is text in the app's
// files; empty for a game without points.
type PlayerScore struct {
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

// dateLayout is the app's date layout.
const dateLayout = "2006-01-02 15:04:05"

// BGSFile returns the play as a ".bgsplay" file, the players in seating
// order.
func (p Play) BGSFile(o Opts) File {
	z := o.zone()
	mod := p.Ended.In(z).Format(dateLayout)
	g := p.Game
	minP, maxP := g.MinPlayers, g.MaxPlayers
	if minP == 0 {
		minP, maxP = len(p.Setup.Players), len(p.Setup.Players)
	}
	f := File{
		About:     "Comptoir: a play of " + g.Name + ". Import it into BG Stats (share the file with the app).",
		Locations: []Location{{ID: 1, UUID: uuid("location", o.Location), Name: o.Location, ModificationDate: mod}},
		Games: []FileGame{{
			ID: 1, UUID: uuid("game", p.Setup.Game), Name: g.Name, ModificationDate: mod,
			HighestWins: !g.NoPoints, NoPoints: g.NoPoints,
			BGGName: g.BGGName, BGGYear: g.BGGYear, BGGID: g.BGGID, IsBaseGame: true,
			MinPlayerCount: minP, MaxPlayerCount: maxP,
		}},
	}
	play := FilePlay{
		UUID: p.playID(), ModificationDate: mod, EntryDate: mod,
		PlayDate:    p.Started.In(z).Format(dateLayout),
		DurationMin: p.Duration(), Rounds: p.Rounds,
		LocationRefID: 1, GameRefID: 1, Board: p.Setup.Variant,
		ExpansionPlays: []any{}, Comments: p.comments(),
	}
	for i, name := range p.Setup.Players {
		f.Players = append(f.Players, Player{ID: i + 1, UUID: uuid("player", name), Name: name, ModificationDate: mod})
	}
	winners := p.winners()
	for _, sc := range p.Result.Scores {
		ps := PlayerScore{
			Winner: winners[sc.Seat], StartPlayer: sc.Seat == p.StartPlayer,
			PlayerRefID: int(sc.Seat) + 1, SeatOrder: int(sc.Seat) + 1,
		}
		if !g.NoPoints {
			ps.Score, ps.Rank = strconv.Itoa(sc.Total), sc.Rank
		}
		play.PlayerScores = append(play.PlayerScores, ps)
	}
	f.Plays = []FilePlay{play}
	return f
}

// File returns the ".bgsplay" file's bytes (indented JSON).
func (p Play) File(o Opts) ([]byte, error) {
	return json.MarshalIndent(p.BGSFile(o), "", "  ")
}
