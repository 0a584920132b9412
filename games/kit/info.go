package kit

// Info is the fixed data a page needs to draw a game, served once at
// /api/game: for Genoa the board's layout, the goods' and tiles' names and
// what each card asks for. It holds no state and no secret.
type Info struct {
	Game    string          `json:"game"`
	Variant string          `json:"variant,omitempty"`
	Squares []InfoSquare    `json:"squares,omitempty"`
	Goods   map[string]Name `json:"goods,omitempty"`
	Tiles   map[string]Name `json:"tiles,omitempty"`
	Decks   map[string]Name `json:"decks,omitempty"`
	Cards   map[string]Card `json:"cards,omitempty"`
	Extra   map[string]Name `json:"extra,omitempty"`
	// Edit lists the items of the game's fixed data the staff may edit
	// now (Editor), with what each is: the staff page offers them. Empty:
	// the items are free form (Genoa's cells).
	Edit []EditItem `json:"edit,omitempty"`
	// Dice is set when the game has dice (Game.Dice): the staff page may
	// enter a roll as the players see it. The dashboard fills it in.
	Dice bool `json:"dice,omitempty"`
}

// EditItem is one item of the game's fixed data the staff may edit
// (an Edit's Key) and its value now.
type EditItem struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// InfoSquare is a board square: its key (as in views and commands), kind,
// names and cells [column, row].
type InfoSquare struct {
	Key   string   `json:"key"`
	Kind  string   `json:"kind"`
	FR    string   `json:"fr"`
	EN    string   `json:"en"`
	Cells [][2]int `json:"cells"`
}

// Name is a name in both languages, with a colour where the game has one.
type Name struct {
	FR     string `json:"fr"`
	EN     string `json:"en"`
	Colour string `json:"colour,omitempty"`
}

// Card says what a card is and what it needs, in both languages.
type Card struct {
	Deck string `json:"deck"`
	FR   string `json:"fr"`
	EN   string `json:"en"`
}
