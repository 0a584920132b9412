package dschunke

import (
	"bytes"
	"errors"
	"testing"
)

// FuzzDecodeTable feeds a table's data file (written by the daemon, but
// a file anyone may edit) to DecodeTable: it never panics, every error
// wraps ErrData, and data it accepts are written back to a file that
// decodes to the same file again.
func FuzzDecodeTable(f *testing.F) {
	d, err := LoadData()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(EncodeTable(d))
	f.Add([]byte("version: 1\nboard: {}\ncards: {}\n"))
	f.Add([]byte("version: 2\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := DecodeTable(data, "table.yaml")
		if err != nil {
			if !errors.Is(err, ErrData) {
				t.Fatalf("error %v does not wrap ErrData", err)
			}
			return
		}
		out := EncodeTable(d)
		d2, err := DecodeTable(out, "again.yaml")
		if err != nil {
			t.Fatalf("the data written back do not decode: %v\n%s", err, out)
		}
		if again := EncodeTable(d2); !bytes.Equal(again, out) {
			t.Fatalf("writing the data again differs:\n%s\nwant\n%s", again, out)
		}
	})
}
