package vision

import (
	_ "embed"
	"fmt"
)

//go:embed model/builtin.json
var builtinJSON []byte

// BuiltinModel returns the built-in numeral model (vision/model/builtin.json,
// learned by TestLearnBuiltin with -update).
func BuiltinModel() (Model, error) {
	m, err := DecodeModel(builtinJSON)
	if err != nil {
		return Model{}, fmt.Errorf("built-in model: %w", err)
	}
	return m, nil
}
