// Package configs holds Comptoir's data files, embedded in the binaries so
// that a fresh install has every board map, card catalog and edition
// profile: board layouts, card catalogs, edition differences, pin maps and
// example table configurations. Nothing here is code; every file is decoded
// strictly by the package that owns its format, with errors that name the
// file, the line and the key.
//
// Layout: one folder per game (genoa/, negoce/, dschunke/) and tables/ for
// table configurations. A file on disk given on a command line replaces
// the embedded one of the same name.
package configs

import "embed"

// FS is the embedded tree of data files, with paths such as
// "genoa/board.yaml".
//
//go:embed all:*
var FS embed.FS
