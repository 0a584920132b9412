// Package render draws labelled pictures of a blue and a red d8 for the
// tests of the dice reader and the settler, with POV-Ray (the Debian
// package povray). It needs no OpenCV.
//
// # Scenes
//
// A Scene is plain data: a camera above a dice tray or a bare table, one or
// two lights (warm, neutral or cool, with soft shadows), table, felt and
// wall textures, the dice and, in recorded sequences, a hand. Random draws
// a scene from a seeded source: dice lying on random faces at random
// places and turns, wholly in the picture, and, with probability HardRate
// each, up to three hard cases (low light, glare, a tilted camera, a die
// against a wall, dice touching, a die near the picture's edge, blur,
// noise), which are named in Scene.Hard: the adversarial set. Throw draws
// a realistic throw instead: a tray framed by a fixed camera, ordinary
// floors (no felt or cloth of a die's colour), mild light, tilt, blur and
// noise, and at a low rate (ThrowOpts.RejectRate) a hard rest
// (ThrowOpts.Rests): the dice touching (at their contact distance, both
// flat: each shows its roll and is labelled with it), or one the reader
// must refuse (Die.Reject, labelled "?"): a die cocked against a wall, a
// die partly out of the picture, a die leaning on the other (tilted 20 to
// 35 degrees towards it, its outline seen from above touching the
// other's; drawn only when Rests names it). The same seed gives the same
// scene.
//
// # Dice
//
// A die is a regular octahedron with rounded tips and a raised numeral
// centred on each face, in one of POV-Ray's fonts (timrom.ttf, serif, or
// cyrvetic.ttf, sans serif); opposite faces add up to 9, as on real d8s.
// FaceUp lays a die with a given numeral pointing straight up; the label
// of a picture is the numeral on top (Die.Face).
//
// # The wide distribution
//
// Wide draws a crop of one die and WideFrame a 640x480 frame of a blue and
// a red die where everything a real table varies is drawn from the seed:
// the numeral's font (TrueType files of POV-Ray and of the Debian packages
// fonts-dejavu-core, fonts-liberation, fonts-freefont-ttf and
// fonts-noto-core; fonts-urw-base35 ships no TrueType, which POV-Ray's
// text object needs), engraved or printed numerals 0.42 to 0.6 of the
// die's size, white, cream, gold, silver or black ink, opaque, pearl or
// translucent bodies of several blues and reds, rounded or sharp edges,
// dice 25 to 160 pixels across (camera 20 to 70 cm away), camera tilt up
// to 20 degrees, warm, neutral or cool and dim, normal or harsh light
// (point lights with hard shadows, or area lights), felt, wood, cloth,
// printed mats and plastic, a neighbour die or a tray wall, then motion
// blur, exposure shifts, sensor noise and JPEG quality (Defects). The
// fonts and surfaces are split in wide.yaml (LoadSplit): the test split's
// are never drawn for training. DrawSet and WideOf draw one box's dice
// set, for calibration. DrawTable draws a table as a café sets it up for
// a game (one dice set, surface, lamp and camera), whose frames (Alone:
// one face of one die, to calibrate on; Throw: both dice, sometimes one
// cocked against a wall) share everything but the dice. RenderBatch renders many crops in one povray run
// (an animation whose frame k is scene k). The command dicewide
// (cmd/dicewide) writes them with labels.csv.
//
// # Sequences
//
// Sequences scripts recorded throws for the settler (an empty tray, dice
// flying in and tumbling, rocking, at rest; a hand passing; a die knocked
// onto another face or nudged on the same face; dice picked up and thrown
// again), with the truth of every frame and the rolls a settler must
// report.
//
// # Rendering
//
// Render writes the scene, runs povray in a temporary folder (Debian's
// povray only writes there and below the current folder), and adds the
// blur and noise of the scene. The command dicerender (cmd/dicerender)
// writes the pictures as JPEG with labels.csv; the pictures of
// vision/testdata come from it, see the README files there.
package render
