package dschunkekit

import (
	"errors"
	"fmt"

	"comptoir/engine"
	"comptoir/games/dschunke"
	"comptoir/games/kit"
)

// DataFile is the default of a table's data file, to copy where the
// table's board: says: the embedded board and cards files together
// (dschunke.DecodeTable), kept equal to them by TestDefaultTableFile.
const DataFile = "configs/dschunke/table.yaml"

// editor is the staff's correction of Dschunke's stand-in data (the
// market cards, bonus cards, track and set-up the rules text does not
// give), one value at a time: dschunke.Correction says the keys.
var editor = &kit.Editor{Load: loadData, Apply: correct, Encode: encodeData, File: DataFile}

// loadData returns rules over a table's data file (nil: the embedded data).
func loadData(data []byte, file string) (engine.Rules, error) {
	if data == nil {
		return dschunke.New(), nil
	}
	d, err := dschunke.DecodeTable(data, file)
	if err != nil {
		return nil, err
	}
	return dschunke.NewWithData(d), nil
}

// dataOf returns the data r plays on.
func dataOf(r engine.Rules) (*dschunke.Data, error) {
	dr, ok := r.(dschunke.Rules)
	if !ok {
		return nil, fmt.Errorf("dschunke editor: the rules are %T, not Dschunke's", r)
	}
	return dr.Data()
}

// correct applies the staff's corrections in order; data that do not
// hold together yet (two merchants on one junk) are incomplete.
func correct(r engine.Rules, edits []kit.Edit) (engine.Rules, error) {
	d, err := dataOf(r)
	if err != nil {
		return nil, err
	}
	var cs []dschunke.Correction
	for _, e := range edits {
		cs = append(cs, dschunke.Correction{Key: e.Key, Value: e.Value})
	}
	nd, err := dschunke.Correct(d, cs)
	if errors.Is(err, dschunke.ErrData) {
		return nil, fmt.Errorf("%w: %w", kit.ErrIncomplete, err)
	}
	if err != nil {
		return nil, err
	}
	return dschunke.NewWithData(nd), nil
}

// encodeData writes the rules' data as a table's data file.
func encodeData(r engine.Rules) []byte {
	d, err := dataOf(r)
	if err != nil {
		// The session only holds rules this editor or the game made.
		panic(err)
	}
	return dschunke.EncodeTable(d)
}
