package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/jpeg"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"comptoir/dashboard"
	"comptoir/games/kit"
	"comptoir/hw/replay"
	"comptoir/input"
	"comptoir/table"
)

// fakeReadings is a dice reader child with --readings: each roll asked
// on stdin is reported after its verdict die by die (blue read at 0.97,
// red at 0.93), but the sixth, whose red die it cannot read; an inspect
// request gets a small real JPEG and the last verdict.
func fakeReadings(w *replay.Writer) int {
	w.Write(input.DeviceStatus{At: time.Now(), Device: "camera", OK: true, Detail: "fake"})
	out := json.NewEncoder(os.Stdout)
	var last input.DiceReading
	sc := bufio.NewScanner(os.Stdin)
	for n := 0; sc.Scan(); {
		if strings.Contains(sc.Text(), `"inspect"`) {
			var req struct{ File string }
			json.Unmarshal(sc.Bytes(), &req)
			reply := readerLine{Type: "inspected", File: req.File, DiceReading: last}
			if last.At.IsZero() {
				reply.Error, reply.Code = "no frame yet", "no-frame"
			} else {
				f, err := os.Create(req.File)
				if err == nil {
					err = jpeg.Encode(f, image.NewGray(image.Rect(0, 0, 64, 48)), nil)
					f.Close()
				}
				if err != nil {
					reply.Error = err.Error()
				}
			}
			out.Encode(reply)
			continue
		}
		evs, err := replay.Decode(strings.NewReader(sc.Text()), "stdin")
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		for _, e := range evs {
			n++
			d := e.(input.DiceRolled)
			at := time.Now()
			last = input.DiceReading{At: at, Blue: input.DieReading{Face: d.Blue, Confidence: 0.97, Found: true}, Red: input.DieReading{Face: d.Red, Confidence: 0.93, Found: true}}
			// what it learned of its camera: two flat dice a throw
			last.View = &input.ReaderView{Flat: 2 * n, FlatNeed: max(12-2*n, 0), Across: 33, Small: true, SmallUnder: 40}
			if n == 6 {
				last.Red = input.DieReading{Confidence: 0.41, Found: true, Reason: "numeral unclear", ReasonFR: "chiffre peu net"}
				last.Reason, last.ReasonFR = "red die: numeral unclear", "dé rouge : chiffre peu net"
				out.Encode(readerLine{Type: "reading", DiceReading: last})
				w.Write(input.DiceUnreadable{At: at, Reason: last.Reason, ReasonFR: last.ReasonFR})
				continue
			}
			out.Encode(readerLine{Type: "reading", DiceReading: last})
			w.Write(input.DiceRolled{At: at, Blue: d.Blue, Red: d.Red, Confidence: 0.93})
		}
	}
	return 0
}

// TestDaemonDiceCamera runs the daemon on the demo's recording with a
// fake reader giving its verdicts: the staff's frame lists each throw die
// by die with what the table did with it, and the staff's button saves
// the reader's last frame beside the journal, served to the staff only.
func TestDaemonDiceCamera(t *testing.T) {
	t.Setenv(fakeDiceEnv, "readings")
	dir := t.TempDir()
	addr := demoDaemon(t, dir, os.Args[0], 30*time.Second)

	t.Run("throws", func(t *testing.T) {
		conn, _, err := websocket.DefaultDialer.Dial("ws://"+addr+"/ws", http.Header{"Origin": {"http://" + addr}})
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		conn.WriteJSON(map[string]string{"type": "hello", "role": "staff", "pin": "1234"})
		var throws []dashboard.DiceThrow
		conn.SetReadDeadline(time.Now().Add(10 * time.Second))
		for {
			_, data, err := conn.ReadMessage()
			if err != nil {
				t.Fatalf("no staff frame with the 6 throws decided: %v; last %+v", err, throws)
			}
			got, ok := staffThrows(data)
			if !ok {
				continue
			}
			throws = got
			if len(throws) == 6 && throws[5].Fate != "" && throws[4].Fate != "" {
				break
			}
		}
		for i, th := range throws[:5] {
			if th.Fate != "accepted" || th.Seq == 0 || th.Blue.Face == 0 || th.Blue.Confidence != 0.97 || th.Red.Confidence != 0.93 {
				t.Errorf("throw %d = %+v, want read (0.97, 0.93) and accepted as a step", i, th)
			}
		}
		if u := throws[5]; u.Fate != "unreadable" || u.Red.Face != 0 || u.Red.Reason != "numeral unclear" || u.Red.Confidence != 0.41 || u.Blue.Face == 0 {
			t.Errorf("the sixth throw = %+v, want blue read, red unread (numeral unclear, 0.41), asked of the players", u)
		}
		// what the reader learned of its camera came through its pipe,
		// throw by throw
		for i, th := range throws {
			if v := th.View; v == nil || v.Flat != 2*(i+1) || v.FlatNeed != max(12-2*(i+1), 0) || v.Across != 33 || !v.Small {
				t.Errorf("throw %d's view = %+v, want %d flat dice, 33 pixels across", i, v, 2*(i+1))
			}
		}
		// the reasons in French came through the reader's pipe
		if u := throws[5]; u.Red.ReasonFR != "chiffre peu net" || u.Reason != "red die: numeral unclear" || u.ReasonFR != "dé rouge : chiffre peu net" {
			t.Errorf("the sixth throw's reasons = %q %q %q, want the reader's in both languages", u.Red.ReasonFR, u.Reason, u.ReasonFR)
		}
	})

	t.Run("inspect", func(t *testing.T) {
		do := func(method, path, pin, origin string) (int, []byte) {
			req, _ := http.NewRequest(method, "http://"+addr+path, nil)
			if pin != "" {
				req.Header.Set(dashboard.StaffPINHeader, pin)
			}
			if origin != "" {
				req.Header.Set("Origin", origin)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			return resp.StatusCode, b
		}
		own := "http://" + addr
		if code, _ := do("POST", "/api/inspect", "", own); code != http.StatusUnauthorized {
			t.Errorf("inspect without the PIN: %d, want 401", code)
		}
		if code, _ := do("POST", "/api/inspect", "1234", "http://evil.example"); code != http.StatusForbidden {
			t.Errorf("inspect from another site: %d, want 403", code)
		}
		code, body := do("POST", "/api/inspect", "1234", own)
		var got struct {
			Name    string
			Reading *input.DiceReading
		}
		if err := json.Unmarshal(body, &got); code != http.StatusOK || err != nil || got.Reading == nil {
			t.Fatalf("inspect: %d %s", code, body)
		}
		if got.Reading.Red.Reason != "numeral unclear" || got.Reading.Red.ReasonFR != "chiffre peu net" || got.Reading.Red.Confidence != 0.41 {
			t.Errorf("the verdict saved %+v, want the reader's last (red unread)", got.Reading)
		}
		jpg := filepath.Join(dir, "inspect", got.Name+".jpg")
		f, err := os.Open(jpg)
		if err != nil {
			t.Fatalf("the frame is not beside the journal: %v", err)
		}
		_, err = jpeg.DecodeConfig(f)
		f.Close()
		if err != nil {
			t.Errorf("%s is not a JPEG: %v", jpg, err)
		}
		var saved struct{ Reading input.DiceReading }
		if data, err := os.ReadFile(filepath.Join(dir, "inspect", got.Name+".json")); err != nil || json.Unmarshal(data, &saved) != nil || saved.Reading.Reason != "red die: numeral unclear" {
			t.Errorf("the verdict's file: %v %+v", err, saved)
		}
		want, _ := os.ReadFile(jpg)
		if code, b := do("GET", "/download/inspect/"+got.Name+".jpg", "1234", ""); code != http.StatusOK || string(b) != string(want) {
			t.Errorf("download: %d, %d bytes, want the %d of the file", code, len(b), len(want))
		}
		if code, _ := do("GET", "/download/inspect/"+got.Name+".jpg", "", ""); code != http.StatusUnauthorized {
			t.Errorf("download without the PIN: %d, want 401", code)
		}
		if code, _ := do("GET", "/download/inspect/..%2Ft.db", "1234", ""); code != http.StatusNotFound {
			t.Errorf("download of the journal: %d, want 404", code)
		}
		if code, b := do("GET", "/api/inspect", "1234", ""); code != http.StatusOK || !strings.Contains(string(b), got.Name) {
			t.Errorf("list: %d %s, want %s", code, b, got.Name)
		}
	})

	// The staff enter the roll the camera could not read: the staff's
	// frame shows the throw entered with its faces, the dice as the
	// table knows them (the calibration's form takes them).
	t.Run("entered", func(t *testing.T) {
		conn := staffConn(t, addr)
		defer conn.Close()
		conn.WriteJSON(map[string]any{"type": "staff", "nonce": "0123456789abcdef0123456789abcdef", "pin": "1234", "action": "dice", "values": map[string]string{"blue": "2", "red": "4"}})
		conn.SetReadDeadline(time.Now().Add(10 * time.Second))
		var last dashboard.DiceThrow
		for {
			_, data, err := conn.ReadMessage()
			if err != nil {
				t.Fatalf("no staff frame with the unreadable throw entered: %v; last %+v", err, last)
			}
			throws, ok := staffThrows(data)
			if !ok || len(throws) == 0 {
				continue
			}
			last = throws[len(throws)-1]
			if last.Fate == "entered" {
				break
			}
		}
		if fmt.Sprint(last.Entered) != "[2 4]" || last.Seq == 0 || last.Red.Face != 0 {
			t.Errorf("the throw entered %+v, want blue 2 red 4 as a step, the reader's verdict kept", last)
		}
	})
}

// TestDiceLog checks the daemon's record of the throws without a reader
// process: a verdict goes with the roll that follows it, the session's
// notes find their throw, a roll without a verdict is kept as reported,
// the list keeps the last maxThrows, and a frame asked of no running
// reader is refused as such.
func TestDiceLog(t *testing.T) {
	l := newDiceLog(&diceReader{})
	at := time.Date(2026, 11, 25, 20, 0, 0, 0, time.UTC)
	if !l.line(`{"type":"reading","t":"2026-11-25T20:00:00Z","blue":{"face":4,"confidence":0.98,"found":true},"red":{"face":2,"confidence":0.95,"found":true}}`) {
		t.Fatal("a reading line was not taken")
	}
	if l.line(`{"t":"2026-11-25T20:00:00Z","type":"dice","blue":4,"red":2}`) {
		t.Fatal("a recording line was taken as the reader's")
	}
	l.event(input.DiceRolled{At: at, Blue: 4, Red: 2, Confidence: 0.95})
	l.event(input.DiceRolled{At: at.Add(time.Second), Blue: 1, Red: 8, Confidence: 0.92}) // no verdict before it
	l.note(table.DiceNote{At: at, Blue: 4, Red: 2, Fate: table.DiceAccepted, Seq: 12})
	l.note(table.DiceNote{At: at, Blue: 4, Red: 2, Fate: table.DiceMisread, Seq: 12, Why: kit.Text{EN: "the players saw blue 4, red 3", FR: "x"}, Entered: [2]input.Face{4, 3}})
	l.note(table.DiceNote{At: at.Add(time.Hour), Fate: table.DiceAccepted, Seq: 99}) // no such throw
	// An unreadable throw the players entered: the roll as the table
	// knows it.
	unread := at.Add(2 * time.Second)
	l.event(input.DiceUnreadable{At: unread, Reason: "red die: numeral unclear"})
	l.note(table.DiceNote{At: unread, Fate: table.DiceUnreadable})
	l.note(table.DiceNote{At: unread, Fate: table.DiceEntered, Seq: 13, Entered: [2]input.Face{6, 1}})
	if th := l.Throws(); len(th) != 3 || th[2].Fate != "entered" || th[2].Seq != 13 || fmt.Sprint(th[2].Entered) != "[6 1]" {
		t.Errorf("the unreadable throw entered: %+v, want entered as step 13, blue 6 red 1", th[len(th)-1])
	}
	th := l.Throws()
	if len(th) != 3 {
		t.Fatalf("throws %+v, want 3", th)
	}
	if th[0].Blue.Confidence != 0.98 || th[0].Red.Confidence != 0.95 || th[0].Fate != "misread" || th[0].Seq != 12 || th[0].Why == nil || th[0].Why.EN != "the players saw blue 4, red 3" || fmt.Sprint(th[0].Entered) != "[4 3]" {
		t.Errorf("first throw %+v, want the verdict's confidences and the misread", th[0])
	}
	if th[1].Blue.Face != 1 || th[1].Red.Face != 8 || th[1].Blue.Confidence != 0.92 || th[1].Fate != "" {
		t.Errorf("second throw %+v, want the roll as reported, not yet decided", th[1])
	}
	select {
	case <-l.Changed():
	default:
		t.Error("no change signalled")
	}
	for i := range maxThrows + 5 {
		l.event(input.DiceUnreadable{At: at.Add(time.Duration(i+10) * time.Second), Reason: "blue die not found in the tray", ReasonFR: "dé bleu introuvable dans le plateau"})
	}
	if th := l.Throws(); len(th) != maxThrows || th[len(th)-1].Reason != "blue die not found in the tray" || th[len(th)-1].ReasonFR != "dé bleu introuvable dans le plateau" {
		t.Errorf("%d throws kept, want the last %d, with their reasons in both languages", len(th), maxThrows)
	}
	if _, err := l.Snapshot(context.Background(), filepath.Join(t.TempDir(), "x.jpg")); !errors.Is(err, dashboard.ErrNoCamera) {
		t.Errorf("a frame asked of no reader: %v, want ErrNoCamera", err)
	}
}

// demoDaemon runs the daemon on the demo's Genoa recording in dir (its
// journal there) with the dice reader command reader, until the test
// ends, and returns its address once the recording has ended (waiting up
// to wait).
func demoDaemon(t *testing.T, dir, reader string, wait time.Duration) string {
	t.Helper()
	cfg := genoaConfig(t, dir, "t.db", "staff_pin: \"1234\"\ndice_reader: "+reader+"\nreplay:\n  inputs: %R/configs/demo/genoa-inputs.jsonl\n  frames: %R/configs/demo/dice\n  speed: 20\n")
	ctx, cancel := context.WithCancel(context.Background())
	var stderr syncBuf
	done := make(chan error, 1)
	addr := freeAddr(t)
	go func() { done <- run(ctx, []string{"--config", cfg, "--listen", addr}, io.Discard, &stderr) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("run = %v\n%s", err, stderr.String())
		}
	})
	deadline := time.Now().Add(wait)
	for !strings.Contains(stderr.String(), "the recording has ended") {
		if time.Now().After(deadline) {
			t.Fatalf("the recording did not end:\n%s", stderr.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	return addr
}

// TestCalibrationFile: each table keeps its calibration in a file named
// after its journal; a table without one adopts a copy of the folder's
// shared calibration.json (where tables kept it before), which stays as
// it was, and a table with one of its own keeps it.
func TestCalibrationFile(t *testing.T) {
	for _, tc := range []struct{ journal, want string }{
		{"/var/lib/comptoir/table.db", "/var/lib/comptoir/table.calibration.json"},
		{"/tmp/comptoir-demo.db", "/tmp/comptoir-demo.calibration.json"},
		{"/srv/t2", "/srv/t2.calibration.json"},
	} {
		if got := calibrationFile(tc.journal); got != tc.want {
			t.Errorf("calibrationFile(%q) = %q, want %q", tc.journal, got, tc.want)
		}
	}
	if p := calibrationFile("t.db"); !filepath.IsAbs(p) {
		t.Errorf("a relative journal's file %q is not absolute: the reader child may run elsewhere", p)
	}
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.db"), filepath.Join(dir, "b.db")
	if calibrationFile(a) == calibrationFile(b) {
		t.Fatalf("two journals of one folder share %s", calibrationFile(a))
	}
	var logged []string
	logf := func(f string, v ...any) { logged = append(logged, fmt.Sprintf(f, v...)) }
	t.Run("nothing-to-adopt", func(t *testing.T) {
		if err := adoptSharedCalibration(a, logf); err != nil || len(logged) != 0 {
			t.Fatalf("no file at all: %v, logged %q", err, logged)
		}
		if _, err := os.Stat(calibrationFile(a)); err == nil {
			t.Errorf("a calibration file was made from nothing")
		}
	})
	shared := filepath.Join(dir, "calibration.json")
	const old = `{"kind":"the calibration of before"}`
	if err := os.WriteFile(shared, []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	mine := []byte(`{"kind":"b's own"}`)
	if err := os.WriteFile(calibrationFile(b), mine, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Run("adopted", func(t *testing.T) {
		logged = nil
		if err := adoptSharedCalibration(a, logf); err != nil {
			t.Fatal(err)
		}
		if got, err := os.ReadFile(calibrationFile(a)); err != nil || string(got) != old {
			t.Errorf("a's calibration: %q, %v, want a copy of the shared one", got, err)
		}
		if got, err := os.ReadFile(shared); err != nil || string(got) != old {
			t.Errorf("the shared calibration after the copy: %q, %v, want it as it was", got, err)
		}
		if len(logged) != 1 || !strings.Contains(logged[0], calibrationFile(a)) || !strings.Contains(logged[0], "calibrate again") {
			t.Errorf("logged %q, want one line naming the new file and saying to calibrate again if needed", logged)
		}
	})
	t.Run("own-kept", func(t *testing.T) {
		logged = nil
		if err := adoptSharedCalibration(b, logf); err != nil || len(logged) != 0 {
			t.Fatalf("%v, logged %q", err, logged)
		}
		if got, _ := os.ReadFile(calibrationFile(b)); string(got) != string(mine) {
			t.Errorf("b's own calibration became %q", got)
		}
		// a saving its calibration leaves b's alone (the files differ)
		if err := os.WriteFile(calibrationFile(a), []byte(`{"kind":"a saved"}`), 0o644); err != nil {
			t.Fatal(err)
		}
		if got, _ := os.ReadFile(calibrationFile(b)); string(got) != string(mine) {
			t.Errorf("b's calibration after a saved: %q", got)
		}
	})
	t.Run("unreadable", func(t *testing.T) {
		c := filepath.Join(dir, "c.db")
		if err := os.Remove(shared); err != nil {
			t.Fatal(err)
		}
		if err := os.Mkdir(shared, 0o755); err != nil { // a folder where the file should be
			t.Fatal(err)
		}
		err := adoptSharedCalibration(c, logf)
		if err == nil || !strings.Contains(err.Error(), shared) || !strings.Contains(err.Error(), "calibrate this table again") {
			t.Errorf("a shared calibration that cannot be read: %v, want an error naming it and what to do", err)
		}
		if _, err := os.Stat(calibrationFile(c)); err == nil {
			t.Errorf("a calibration file was made from an unreadable one")
		}
		if left, _ := filepath.Glob(filepath.Join(dir, ".calibration-*")); len(left) != 0 {
			t.Errorf("temporary files left: %v", left)
		}
	})
}

// TestCameraLearnedFile: each table's reader keeps what it learned of its
// camera in a file named after the table's journal, so that two tables
// whose journals share a folder do not share it.
func TestCameraLearnedFile(t *testing.T) {
	for _, tc := range []struct{ journal, want string }{
		{"/var/lib/comptoir/table.db", "/var/lib/comptoir/table.camera-learned.json"},
		{"/tmp/comptoir-demo.db", "/tmp/comptoir-demo.camera-learned.json"},
		{"/srv/t2", "/srv/t2.camera-learned.json"},
	} {
		if got := cameraLearnedFile(tc.journal); got != tc.want {
			t.Errorf("cameraLearnedFile(%q) = %q, want %q", tc.journal, got, tc.want)
		}
	}
	if a, b := cameraLearnedFile("/tmp/a.db"), cameraLearnedFile("/tmp/b.db"); a == b {
		t.Errorf("two journals of /tmp share %s", a)
	}
	if p := cameraLearnedFile("t.db"); !filepath.IsAbs(p) {
		t.Errorf("a relative journal's file %q is not absolute: the reader child may run elsewhere", p)
	}
}

// staffThrows decodes a frame of a staff connection: the dice camera's
// throws, ok when it is a staff frame with the camera.
func staffThrows(data []byte) (throws []dashboard.DiceThrow, ok bool) {
	var f struct {
		Role   string
		Camera *struct{ Throws []dashboard.DiceThrow }
	}
	if json.Unmarshal(data, &f) != nil || f.Role != "staff" || f.Camera == nil {
		return nil, false
	}
	return f.Camera.Throws, true
}
