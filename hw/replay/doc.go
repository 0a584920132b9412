// Package replay records the table's inputs to a file and plays them back,
// so that the daemon, its tests and the demo run without a Pi.
//
// # Format
//
// A recording is JSON lines, one event per line, in time order. Blank lines
// and lines starting with # are comments.
//
//	{"t":"2026-11-21T20:00:00.120Z","type":"tag","uid":"04A2B3C4D5E680"}
//	{"t":"2026-11-21T20:00:01.500Z","type":"unknown_tag","uid":"04FFFFFFFFFFFF"}
//	{"t":"2026-11-21T20:00:02.000Z","type":"button","name":"confirm"}
//	{"t":"2026-11-21T20:00:03.000Z","type":"sensed","cells":["3-2","4-4"]}
//	{"t":"2026-11-21T20:00:04.000Z","type":"status","device":"nfc","ok":false,"detail":"unplugged"}
//	{"t":"2026-11-21T20:00:05.000Z","type":"dice","blue":3,"red":2,"confidence":0.97}
//	{"t":"2026-11-21T20:00:06.000Z","type":"dice_unreadable","reason":"red die cocked"}
//	{"t":"2026-11-21T20:00:07.000Z","type":"dice_unreadable","reason":"red die: touching the other die: move them apart","reason_fr":"dé rouge : touche l'autre dé : écartez-les"}
//
// t is an RFC 3339 time with fractional seconds; it never goes backwards.
// Each type has its fields, all required except detail, confidence,
// correction, latency_ms and reason_fr (the reason in French, which older
// recordings lack); any other field is an error naming the file and the
// line. The types map one to one to the values of package input.
//
// # Playing back
//
// A Source emits the events at their recorded pace, divided by
// Opts.Speed, timed by Opts.Clock; each event's time is the clock's time
// when it is emitted, unless Opts.KeepTimes. hw/testdata/table-demo.jsonl
// is a short recorded turn, with hw/testdata/tags.yaml enrolling its tags.
//
// # Concurrency
//
// Source.Run starts one goroutine that stops, closing its channel, at the
// end of the recording or when the context is done.
package replay
