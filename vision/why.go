package vision

import (
	"fmt"
	"strings"
)

// WhyCode names why a die was not read. Each code has a text in English
// and in French (Why.EN, Why.FR) that says what is wrong and what to do.
type WhyCode int

const (
	// WhyNone: the die was read.
	WhyNone WhyCode = iota
	// WhyBadFrame: the picture cannot be read; Detail is the error.
	WhyBadFrame
	// WhyClassifier: the learned classifier failed; Detail is the error.
	WhyClassifier
	// WhyNoDie: no die at all in a picture of one die.
	WhyNoDie
	// WhyNotFound: nothing of the die's colour and size in the picture.
	WhyNotFound
	// WhyEdge: the die is at the edge of the picture.
	WhyEdge
	// WhyTooSmall: the die is too small in the picture to be read.
	WhyTooSmall
	// WhyTwoObjects: two objects of the die's colour, read as Face and
	// Other.
	WhyTwoObjects
	// WhyTouching: the die touches the other die.
	WhyTouching
	// WhyTilted: the die looks like Face but leans (on the tray's wall).
	WhyTilted
	// WhyNoNumeral: no numeral stands out on the die's top face.
	WhyNoNumeral
	// WhyUnsure: the numeral is unclear, the reader Pct percent sure.
	WhyUnsure
	// WhyUnlike: the numeral is nearest to Face but unlike every Face
	// learned.
	WhyUnlike
	// WhyLooksLike: the numeral looks like Face or Other.
	WhyLooksLike
	// WhyOddSize: the numeral reads Face but its size is unusual.
	WhyOddSize
	// WhyContrast: the numeral reads Face, or Other at another contrast.
	WhyContrast
	// WhyReadersDisagree: the two readers read Face and Other.
	WhyReadersDisagree
	// WhyVetoed: read as Face, but the classifier is Pct percent sure of
	// Other.
	WhyVetoed
	// WhyNoCrop: a calibration picture where the die is not found, or
	// only at the picture's edge, or too small.
	WhyNoCrop
	// WhyOtherFace: a calibration picture of face Other shows a Face on
	// top.
	WhyOtherFace
	// WhyCocked: the pose network finds the die cocked (leaning on the
	// tray's wall, its top face turned away), Pct percent sure.
	WhyCocked
	// WhyWashedOut: the die's colour covers only part of it (its top
	// face washed out by the light), and the numeral by its coloured
	// part reads Face where the whole die reads Other.
	WhyWashedOut
	// WhySameColour: the die is not found, but two dice of the other
	// colour are: the reader tells the dice apart by their colours.
	WhySameColour
	// WhyNotFlatHere: the die's numeral is not where this camera shows
	// a flat die's (learned at calibration or during play: net_flat.go):
	// cocked against the tray's wall.
	WhyNotFlatHere
	// WhyBlankFace: the die's top face is washed out and shows no
	// numeral at all (a lamp washes out the face and its white numeral
	// alike).
	WhyBlankFace

	numWhyCodes // the number of codes, for tests
)

// whyTexts are the texts of each code, in English and in French: formats
// whose arguments are, by index, [1] Face, [2] Other, [3] Pct, [4] Detail
// (fmt does not complain of arguments that explicit indexes leave out,
// but does when a text has no verb at all: Why.text does not format it).
var whyTexts = [numWhyCodes]struct{ en, fr string }{
	WhyNone: {},
	WhyBadFrame: {
		"the picture cannot be read (%[4]s): check the camera and its cable",
		"l'image est illisible (%[4]s) : vérifiez la caméra et son câble",
	},
	WhyClassifier: {
		"the dice classifier failed (%[4]s): restart the dice reader",
		"le classifieur des dés a échoué (%[4]s) : redémarrez le lecteur de dés",
	},
	WhyNoDie: {
		"no die in the picture: put the die in the tray, under the camera",
		"aucun dé dans l'image : posez le dé dans le plateau, sous la caméra",
	},
	WhyNotFound: {
		"not found: nothing of its colour and size — is the die in the tray, in the light?",
		"introuvable : rien de sa couleur et de sa taille — le dé est-il dans le plateau, à la lumière ?",
	},
	WhyEdge: {
		"at the edge of the picture, maybe partly out of it: move it to the middle of the tray",
		"au bord de l'image, peut-être en partie hors champ : ramenez-le au milieu du plateau",
	},
	WhyTooSmall: {
		"too small to read: lower the camera",
		"trop petit pour être lu : baissez la caméra",
	},
	WhyTwoObjects: {
		"two objects of its colour, read as %[1]d and %[2]d: take out of the tray what is not a die",
		"deux objets de sa couleur, lus %[1]d et %[2]d : retirez du plateau ce qui n'est pas un dé",
	},
	WhyTouching: {
		"touching the other die: move them apart",
		"touche l'autre dé : écartez-les",
	},
	WhyTilted: {
		"tilted (looks like %[1]d, but its face is turned away: leaning on the tray's wall?): lay it flat or roll again",
		"penché (on dirait un %[1]d, mais sa face est de biais : appuyé contre le bord du plateau ?) : posez-le à plat ou relancez",
	},
	WhyNoNumeral: {
		"no numeral stands out on its top face: give more light, or move the lamp to avoid glare",
		"aucun chiffre ne ressort sur sa face du dessus : donnez plus de lumière, ou déplacez la lampe pour éviter les reflets",
	},
	WhyUnsure: {
		"numeral unclear (%[3]d%% sure): look again, or give more light",
		"chiffre peu net (sûr à %[3]d %%) : regardez à nouveau, ou donnez plus de lumière",
	},
	WhyUnlike: {
		"numeral unclear (nearest to %[1]d, but unlike every %[1]d learned): calibrate the reader for these dice",
		"chiffre peu net (plus proche d'un %[1]d, mais différent de tous les %[1]d appris) : calibrez le lecteur pour ces dés",
	},
	WhyLooksLike: {
		"numeral unclear (looks like %[1]d or %[2]d): look again, or give more light",
		"chiffre peu net (on dirait un %[1]d ou un %[2]d) : regardez à nouveau, ou donnez plus de lumière",
	},
	WhyOddSize: {
		"numeral unclear (reads %[1]d, but its size is unusual: glare or an edge?): move the lamp or the die",
		"chiffre peu net (lu %[1]d, mais sa taille est inhabituelle : un reflet ou une arête ?) : déplacez la lampe ou le dé",
	},
	WhyContrast: {
		"numeral unclear (reads %[1]d, or %[2]d at another contrast): give a more even light",
		"chiffre peu net (lu %[1]d, ou %[2]d à un autre contraste) : éclairez plus uniformément",
	},
	WhyReadersDisagree: {
		"read as %[1]d and as %[2]d by the two readers: look again",
		"lu %[1]d par un lecteur et %[2]d par l'autre : regardez à nouveau",
	},
	WhyVetoed: {
		"read as %[1]d, but the classifier is %[3]d%% sure of a %[2]d: look again",
		"lu %[1]d, mais le classifieur est sûr à %[3]d %% d'un %[2]d : regardez à nouveau",
	},
	WhyNoCrop: {
		"not found (nothing of its colour and of a die's size, or at the picture's edge): give more light, or bring the camera lower if the die looks tiny",
		"introuvable (rien de sa couleur et de la taille d'un dé, ou au bord de l'image) : donnez plus de lumière, ou baissez la caméra si le dé paraît minuscule",
	},
	WhyOtherFace: {
		"the reader sees a %[1]d on top: is face %[2]d up, alone in the tray?",
		"le lecteur voit un %[1]d dessus : la face %[2]d est-elle en haut, seule dans le plateau ?",
	},
	WhyCocked: {
		"cocked (its top face is turned away, %[3]d%% sure: leaning on the tray's wall?): lay it flat or roll again",
		"cassé (sa face du dessus est de biais, sûr à %[3]d %% : appuyé contre le bord du plateau ?) : posez-le à plat ou relancez",
	},
	WhyWashedOut: {
		"its top face is washed out by the light (its coloured side reads %[1]d, the whole die %[2]d): dim or move the lamp, or roll again",
		"sa face du dessus est délavée par la lumière (son côté coloré se lit %[1]d, le dé entier %[2]d) : baissez ou déplacez la lampe, ou relancez",
	},
	WhyNotFlatHere: {
		"cocked? its numeral is not where this camera shows a flat die's: is it leaning on the tray's wall? Lay it flat or roll again",
		"cassé ? son chiffre n'est pas là où cette caméra montre celui d'un dé à plat : est-il appuyé contre le bord du plateau ? Posez-le à plat ou relancez",
	},
	WhyBlankFace: {
		"its top face shows no numeral: the lamp washes it out — move the lamp aside or dim it",
		"sa face du dessus ne montre aucun chiffre : la lampe l'éblouit — écartez la lampe ou baissez-la",
	},
	WhySameColour: {
		"not found, but two dice of the other colour are: the reader tells the dice apart by their colours; play with one blue and one red d8",
		"introuvable, mais deux dés de l'autre couleur sont là : le lecteur distingue les dés par leur couleur ; jouez avec un d8 bleu et un d8 rouge",
	},
}

// Why is why a die was not read: a code and the numbers its text names.
// The zero Why is a die read. Its texts in English and in French come
// from the same code, so that they cannot say different things.
type Why struct {
	Code WhyCode
	// Face and Other are the numerals the code's text names (see each
	// code), 0 when it names none.
	Face, Other int
	// Pct is how sure the reader was, in percent, for the codes that
	// say it.
	Pct int
	// Detail is an error's words (WhyBadFrame, WhyClassifier), the same
	// in both languages.
	Detail string
}

// pct is p, 0 to 1, in whole percent.
func pct(p float64) int { return int(100*p + 0.5) }

// EN is the reason in English; "" for the zero Why.
func (w Why) EN() string { return w.text(false) }

// FR is the reason in French; "" for the zero Why.
func (w Why) FR() string { return w.text(true) }

// String is the reason in English, or the code when it has no text.
func (w Why) String() string {
	if s := w.EN(); s != "" || w.Code == WhyNone {
		return s
	}
	return fmt.Sprintf("WhyCode(%d)", int(w.Code))
}

// whyNames are the codes' short names, for the tallies of a report.
var whyNames = [numWhyCodes]string{
	WhyNone:            "read",
	WhyBadFrame:        "bad picture",
	WhyClassifier:      "classifier failed",
	WhyNoDie:           "no die",
	WhyNotFound:        "not found",
	WhyEdge:            "at the picture's edge",
	WhyTooSmall:        "too small",
	WhyTwoObjects:      "two objects of its colour",
	WhyTouching:        "touching the other die",
	WhyTilted:          "tilted (hand-tuned test)",
	WhyNoNumeral:       "no numeral stands out",
	WhyUnsure:          "numeral unclear (classifier)",
	WhyUnlike:          "unlike every face learned",
	WhyLooksLike:       "looks like two faces",
	WhyOddSize:         "numeral size unusual",
	WhyContrast:        "reads otherwise, other contrast",
	WhyReadersDisagree: "the readers disagree",
	WhyVetoed:          "vetoed by the classifier",
	WhyNoCrop:          "no crop (calibration)",
	WhyOtherFace:       "another face up (calibration)",
	WhyCocked:          "cocked (pose network)",
	WhyWashedOut:       "top face washed out",
	WhySameColour:      "not found, two of the other colour",
	WhyNotFlatHere:     "cocked (calibrated camera)",
	WhyBlankFace:       "top face blank (glare)",
}

// Name is the code's short name (for a report's tallies), or
// "WhyCode(N)" for a code that has none.
func (c WhyCode) Name() string {
	if c < WhyNone || c >= numWhyCodes {
		return fmt.Sprintf("WhyCode(%d)", int(c))
	}
	return whyNames[c]
}

func (w Why) text(fr bool) string {
	if w.Code <= WhyNone || w.Code >= numWhyCodes {
		return ""
	}
	t := whyTexts[w.Code]
	format := t.en
	if fr {
		format = t.fr
	}
	if !strings.Contains(format, "%") {
		return format // fmt would complain of the unused arguments
	}
	return fmt.Sprintf(format, w.Face, w.Other, w.Pct, w.Detail)
}

// badFrame is the reason of a die not read because the picture is not.
func badFrame(err error) Why { return Why{Code: WhyBadFrame, Detail: err.Error()} }

// Unread says why d is not a sure reading at minConf: its reader's
// reason, or, when the reader gave none, that it was not found or not
// sure enough; the zero Why when it is read.
func (d Die) Unread(minConf float64) Why {
	switch {
	case !d.Found:
		if d.Why.Code != WhyNone {
			return d.Why
		}
		return Why{Code: WhyNotFound}
	case d.Face < 1 || d.Face > 8 || d.Confidence < minConf:
		if d.Face == 0 && d.Why.Code != WhyNone {
			return d.Why
		}
		return Why{Code: WhyUnsure, Pct: pct(d.Confidence)}
	}
	return Why{}
}

// Unread says, die by die, why r is not a sure roll at minConf, in
// English and in French ("blue die: …; red die: …"); "" when it is.
func (r Roll) Unread(minConf float64) (en, fr string) {
	var ens, frs []string
	for _, d := range []struct {
		en, fr string
		d      Die
	}{{"blue die", "dé bleu", r.Blue}, {"red die", "dé rouge", r.Red}} {
		if w := d.d.Unread(minConf); w.Code != WhyNone {
			ens = append(ens, d.en+": "+w.EN())
			frs = append(frs, d.fr+" : "+w.FR())
		}
	}
	return strings.Join(ens, "; "), strings.Join(frs, " ; ")
}

// CalibrationError is a calibration picture refused: the die and face
// asked for, and why they could not be learned. It wraps ErrCalibration.
type CalibrationError struct {
	// Die is "blue", "red", or "die" (the one die in the picture).
	Die  string
	Face int
	Why  Why
}

func (e *CalibrationError) Error() string { return ErrCalibration.Error() + ": " + e.EN() }

// Unwrap returns ErrCalibration.
func (e *CalibrationError) Unwrap() error { return ErrCalibration }

// EN is the refusal in English, saying what to do.
func (e *CalibrationError) EN() string {
	s := fmt.Sprintf("%s face %d: %s", e.Die, e.Face, e.Why.EN())
	if e.Why.Code != WhyOtherFace && e.Why.Code != WhySameColour {
		s += "; show the die alone, face up, in the middle of the tray"
	}
	return s
}

// FR is the refusal in French, saying what to do.
func (e *CalibrationError) FR() string {
	die := map[string]string{"blue": "dé bleu", "red": "dé rouge", "die": "dé"}[e.Die]
	if die == "" {
		die = "dé " + e.Die
	}
	s := fmt.Sprintf("%s, face %d : %s", die, e.Face, e.Why.FR())
	if e.Why.Code != WhyOtherFace && e.Why.Code != WhySameColour {
		s += " ; montrez le dé seul, face en haut, au milieu du plateau"
	}
	return s
}
