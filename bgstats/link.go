package bgstats

import (
	"encoding/json"
	"net/url"
	"strings"
)

// LinkBase is the app's import address: the play goes, as JSON, in its
// data parameter. On a phone with the app it opens the app's new-play
// screen filled in (the web page hands it to the app).
const LinkBase = "https://app.bgstatsapp.com/createPlay.html"

// The link's JSON. The app's documentation ("Linking and pushing to BG
// Stats from other apps or websites") is not in our sources; the fields
// below are those that programs pushing plays with this link write, and
// what they say of them:
//   - sourceName, sourcePlayId and playDate are required; playDate is
//     "yyyy-MM-dd HH:mm:ss" in UTC (the Rulebook Rebels Discord bot's
//     bgStats.ts: "BG Stats requires playDate as UTC"; Spielwirbel's
//     bgstats.js: "BG Stats' required playDate format, in UTC");
//   - game: name, sourceGameId, bggId (a JSON number: a quoted id crashes
//     the app), highestWins, noPoints (the Android app fails on a missing
//     boolean, so both are always written);
//   - players: name, sourcePlayerId, score, winner, startPlayer (both
//     always written, for the same reason), rank, role, team;
//   - location, durationMin, board, comments (ClockTracker, Hermod).
//
// LinkFields lists them, for the tests.

// Link is the JSON of the import link.
type Link struct {
	SourceName   string       `json:"sourceName"`
	SourcePlayID string       `json:"sourcePlayId"`
	PlayDate     string       `json:"playDate"`
	DurationMin  int          `json:"durationMin,omitempty"`
	Location     string       `json:"location,omitempty"`
	Board        string       `json:"board,omitempty"`
	Comments     string       `json:"comments,omitempty"`
	Game         LinkGame     `json:"game"`
	Players      []LinkPlayer `json:"players"`
}

// LinkGame is the link's game.
type LinkGame struct {
	Name         string `json:"name"`
	SourceGameID string `json:"sourceGameId"`
	BGGID        int    `json:"bggId,omitempty"`
	HighestWins  bool   `json:"highestWins"`
	NoPoints     bool   `json:"noPoints"`
}

// LinkPlayer is one player of the link. Score and Rank are left out for
// a game without points.
type LinkPlayer struct {
	Name           string `json:"name"`
	SourcePlayerID string `json:"sourcePlayerId"`
	Score          *int   `json:"score,omitempty"`
	Winner         bool   `json:"winner"`
	StartPlayer    bool   `json:"startPlayer"`
	Rank           int    `json:"rank,omitempty"`
}

// LinkFields are the link's documented fields, by object.
var LinkFields = map[string][]string{
	"play":   {"sourceName", "sourcePlayId", "playDate", "durationMin", "location", "board", "comments", "game", "players"},
	"game":   {"name", "sourceGameId", "bggId", "highestWins", "noPoints"},
	"player": {"name", "sourcePlayerId", "score", "winner", "startPlayer", "rank"},
}

// LinkData returns the link's play.
func (p Play) LinkData(o Opts) Link {
	src := o.Source
	if src == "" {
		src = DefaultSource
	}
	l := Link{
		SourceName: src, SourcePlayID: p.playID(),
		PlayDate:    p.Started.UTC().Format(dateLayout),
		DurationMin: p.Duration(), Location: o.Location, Board: p.Setup.Variant,
		Comments: p.comments(),
		Game: LinkGame{
			Name: p.Game.Name, SourceGameID: p.Setup.Game, BGGID: p.Game.BGGID,
			HighestWins: !p.Game.NoPoints, NoPoints: p.Game.NoPoints,
		},
	}
	winners := p.winners()
	for _, sc := range p.Result.Scores {
		lp := LinkPlayer{
			Name: p.Setup.Players[sc.Seat], SourcePlayerID: uuid("player", p.Setup.Players[sc.Seat]),
			Winner: winners[sc.Seat], StartPlayer: sc.Seat == p.StartPlayer,
		}
		if !p.Game.NoPoints {
			total := sc.Total
			lp.Score, lp.Rank = &total, sc.Rank
		}
		l.Players = append(l.Players, lp)
	}
	return l
}

// Link returns the import link: LinkBase with the play's JSON in its data
// parameter.
func (p Play) Link(o Opts) (string, error) {
	b, err := json.Marshal(p.LinkData(o))
	if err != nil {
		return "", err
	}
	// Escaped as JavaScript's encodeURIComponent does (a space is %20, not
	// +), since the page decodes it in JavaScript.
	return LinkBase + "?data=" + strings.ReplaceAll(url.QueryEscape(string(b)), "+", "%20"), nil
}
