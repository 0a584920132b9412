// Package tagmap says what each NFC tag is: the map from tag UIDs to board
// squares and cards that enrollment writes, its file format, the Resolver
// that turns taps into known targets or unknown tags, and the enrollment
// session that walks a person through tapping every square and card.
//
// # File format
//
//	version: 1
//	tags:
//	  - uid: 04A2B3C4D5E680   # upper-case hex, 4, 7 or 10 bytes
//	    kind: square          # square or card
//	    id: "3-2"             # a cell X-Y for a square, a card id for a card
//	    label: Street 3-2     # optional, shown to people
//
// Decoding is strict, with comptoir/strictyaml: unknown keys, missing
// keys, bad UIDs and a UID given twice are errors naming the file, the
// line and the key, for example
//
//	tags.yaml:9: key "tags[2].uid": tag already enrolled: DEADBEEF is card L01 on line 3
//
// Every one wraps ErrFormat and strictyaml.ErrInvalid; a bad UID wraps
// ErrBadUID too, a UID given twice ErrEnrolled. A target may have
// more than one tag (a replaced sticker); a tag has exactly one target.
//
// # Unknown tags
//
// The Resolver never drops a tap: a tag that is not in the map becomes an
// input.UnknownTag, which the dashboard offers to enroll.
//
// # Concurrency
//
// A Map is safe for concurrent use: the dashboard may enroll a tag while a
// Resolver reads the map. Resolver.Run starts one goroutine that stops,
// closing its channel, when its input channel is closed or its context is
// done.
package tagmap
