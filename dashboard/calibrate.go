package dashboard

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"

	"comptoir/games/kit"
	"comptoir/input"
)

// Calibrating the dice reader from the table's own throws (the staff
// page's "Calibrate these dice"): the staff throw both dice, check the
// faces and tap Learn (the camera learns its last frame as that throw);
// once it has learned enough, "Save and use" writes the calibration and
// the reader reads with it at once. What it learns adds to the
// calibration in use (Earlier), unless the staff "Start again" (reset:
// everything learned is dropped, the calibration in use too at the next
// save). POST /api/calibrate (staff PIN, own Origin) takes
// {"action":"learn","blue":3,"red":5}, {"action":"save"},
// {"action":"reset"} or {"action":"forget-camera"} (the staff moved the
// camera: the reader forgets where it showed a flat die's numeral and how
// large it showed the dice, and learns them from the next throws).

// DiceCalibration is the calibration learned from the throws so far, as
// the staff page shows it: the reader's state, its Faces set once it is
// saved and in use.
type DiceCalibration struct {
	input.DiceCalibState
	// Saved is set once the calibration was saved and is in use.
	Saved bool `json:"saved,omitempty"`
}

// CalibrationRefused is a learn or save the reader refused (a die it
// could not learn, too few dice to save), in both languages, with the
// calibration as it stands.
type CalibrationRefused struct {
	kit.Text
	State DiceCalibration
}

func (e *CalibrationRefused) Error() string { return "calibration refused: " + e.EN }

// calibrateRequest is the body of POST /api/calibrate.
type calibrateRequest struct {
	Action string `json:"action"`
	Blue   int    `json:"blue"`
	Red    int    `json:"red"`
}

// serveCalibrate learns the camera's last frame as a throw, saves the
// calibration learned, or starts again from nothing.
func (s *Server) serveCalibrate(w http.ResponseWriter, r *http.Request) {
	if !s.staffOnly(w, r) {
		return
	}
	if s.opts.Dice == nil {
		httpError(w, http.StatusNotFound, "this table has no dice camera", "cette table n'a pas de caméra des dés")
		return
	}
	var req calibrateRequest
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1024)).Decode(&req); err != nil {
		httpError(w, http.StatusBadRequest, `want {"action":"learn","blue":1-8,"red":1-8}, {"action":"save"}, {"action":"reset"} or {"action":"forget-camera"}`, `attendu {"action":"learn","blue":1-8,"red":1-8}, {"action":"save"}, {"action":"reset"} ou {"action":"forget-camera"}`)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), snapshotWait)
	defer cancel()
	var got DiceCalibration
	var err error
	switch req.Action {
	case "learn":
		if req.Blue < 1 || req.Blue > 8 || req.Red < 1 || req.Red > 8 {
			httpError(w, http.StatusBadRequest, "give the face of each die, 1 to 8", "indiquez la face de chaque dé, de 1 à 8")
			return
		}
		got, err = s.opts.Dice.Learn(ctx, req.Blue, req.Red)
	case "save":
		got, err = s.opts.Dice.Calibrate(ctx)
	case "reset":
		got, err = s.opts.Dice.Reset(ctx)
	case "forget-camera":
		got, err = s.opts.Dice.ForgetCamera(ctx)
	default:
		httpError(w, http.StatusBadRequest, `the action is "learn", "save", "reset" or "forget-camera"`, `l'action est « learn », « save », « reset » ou « forget-camera »`)
		return
	}
	var refused *CalibrationRefused
	switch {
	case errors.As(err, &refused):
		s.notifyCamera()
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnprocessableEntity)
		json.NewEncoder(w).Encode(map[string]any{"en": refused.EN, "fr": refused.FR, "calibration": refused.State})
		return
	case errors.Is(err, ErrNoFrame):
		httpError(w, http.StatusConflict, "the camera has no frame yet: throw the dice and wait until it has read them, then learn again", "la caméra n'a pas encore d'image : lancez les dés et attendez qu'elle les ait lus, puis réessayez")
		return
	case errors.Is(err, ErrNoCamera):
		httpError(w, http.StatusServiceUnavailable, "the dice reader is not running (see the devices): try again once the camera is back", "le lecteur de dés ne tourne pas (voir les appareils) : réessayez quand la caméra est revenue")
		return
	case err != nil:
		s.logf("dashboard: calibrate: %v", err)
		httpError(w, http.StatusInternalServerError, "the calibration failed: "+err.Error(), "la calibration a échoué : "+err.Error())
		return
	}
	s.notifyCamera()
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(got)
}
