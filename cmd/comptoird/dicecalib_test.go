package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"comptoir/dashboard"
	"comptoir/input"
	"comptoir/vision"
)

// TestDaemonDiceCalibrate runs the daemon with the real dice reader (the
// comptoir-dice program, built for the test) on the demo's pictured rolls and
// calibrates it from the staff's API: the last throw learned (twice), a
// face no d8 shows refused in both languages, a save refused until enough
// dice, then saved beside the journal as a calibration vision reads, the
// staff frame showing it; the next reader child starts with it.
func TestDaemonDiceCalibrate(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the comptoir-dice program")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "comptoir-dice")
	build := exec.Command("go", "build", "-o", bin, "comptoir/cmd/comptoir-dice")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/comptoir-dice: %v\n%s", err, out)
	}
	addr := demoDaemon(t, dir, bin, 60*time.Second)
	repo, _ := filepath.Abs("../..")
	deadline := time.Now().Add(60 * time.Second)
	own := "http://" + addr
	post := func(pin, origin, body string) (int, []byte) {
		t.Helper()
		req, _ := http.NewRequest("POST", own+"/api/calibrate", bytes.NewBufferString(body))
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
	if code, _ := post("", own, `{"action":"save"}`); code != http.StatusUnauthorized {
		t.Errorf("calibrate without the PIN: %d, want 401", code)
	}
	if code, _ := post("1234", "http://evil.example", `{"action":"save"}`); code != http.StatusForbidden {
		t.Errorf("calibrate from another site: %d, want 403", code)
	}
	// The last throw the reader read, as the staff page knows it, once no
	// new one comes for 2 s (the reader may still be reading the
	// recording's last roll when it ends).
	conn := staffConn(t, addr)
	defer conn.Close()
	var last dashboard.DiceThrow
	for {
		conn.SetReadDeadline(time.Now().Add(2 * time.Second))
		_, data, err := conn.ReadMessage()
		if err != nil {
			break // quiet
		}
		if throws, ok := staffThrows(data); ok && len(throws) > 0 {
			last = throws[len(throws)-1]
		}
		if time.Now().After(deadline) {
			t.Fatal("the staff frames never quiet")
		}
	}
	conn.Close()
	// what the reader learned of its camera as the table played is kept
	// beside the journal, for the next reader child
	learned := func() (vision.LearnedCamera, error) {
		data, err := os.ReadFile(cameraLearnedFile(filepath.Join(dir, "t.db")))
		if err != nil {
			return vision.LearnedCamera{}, err
		}
		return vision.DecodeLearnedCamera(data)
	}
	if l, err := learned(); err != nil || l.Dice() == 0 || l.Sizes() == 0 {
		t.Errorf("what the reader learned of its camera: %d flat dice, %d widths, %v; want some of each", l.Dice(), l.Sizes(), err)
	}
	// The staff moved the camera: the reader forgets it, its file says so
	// at once, and the staff page's last throw says it learns it afresh.
	if code, body := post("", own, `{"action":"forget-camera"}`); code != http.StatusUnauthorized {
		t.Errorf("forget-camera without the PIN: %d %s, want 401", code, body)
	}
	if code, body := post("1234", own, `{"action":"forget-camera"}`); code != http.StatusOK {
		t.Errorf("forget-camera: %d %s", code, body)
	}
	if l, err := learned(); err != nil || l.Dice() != 0 || l.Sizes() != 0 {
		t.Errorf("the camera forgotten, the file holds %d flat dice, %d widths, %v; want none", l.Dice(), l.Sizes(), err)
	}
	staff := staffConn(t, addr)
	for {
		staff.SetReadDeadline(time.Now().Add(10 * time.Second))
		_, data, err := staff.ReadMessage()
		if err != nil {
			t.Fatalf("no staff frame saying the camera is forgotten: %v", err)
		}
		throws, ok := staffThrows(data)
		if !ok || len(throws) == 0 {
			continue
		}
		if v := throws[len(throws)-1].View; v != nil && v.Flat == 0 && v.FlatNeed == vision.MinFlatDice && v.Across == 0 {
			break
		}
	}
	staff.Close()
	blue, red := int(last.Blue.Face), int(last.Red.Face)
	if blue == 0 || red == 0 {
		t.Fatalf("the last throw %+v is not read", last)
	}
	file := filepath.Join(dir, "t.calibration.json")
	var refused struct {
		EN, FR      string
		Calibration dashboard.DiceCalibration
	}
	code, body := post("1234", own, `{"action":"save"}`)
	json.Unmarshal(body, &refused)
	if code != http.StatusUnprocessableEntity || !strings.Contains(refused.EN, "4 more") || refused.FR == "" {
		t.Errorf("save before learning: %d %s, want 422 saying 4 more", code, body)
	}
	learn := fmt.Sprintf(`{"action":"learn","blue":%d,"red":%d}`, blue, red)
	var got dashboard.DiceCalibration
	code, body = post("1234", own, learn)
	if err := json.Unmarshal(body, &got); code != http.StatusOK || err != nil || !slices.Equal(got.Blue, []int{blue}) || !slices.Equal(got.Red, []int{red}) || got.Need != 2 {
		t.Fatalf("learn %d %d: %d %s", blue, red, code, body)
	}
	// A face no d8 shows is refused before the reader is asked; the
	// reader's own refusal of a mistyped face (one its classifier is
	// sure of) is TestDicefeedCalibrate's.
	code, body = post("1234", own, fmt.Sprintf(`{"action":"learn","blue":9,"red":%d}`, red))
	json.Unmarshal(body, &refused)
	if code != http.StatusBadRequest || !strings.Contains(refused.EN, "1 to 8") || refused.FR == "" {
		t.Errorf("learn a blue 9: %d %s, want 400 in both languages", code, body)
	}
	if code, body = post("1234", own, learn); code != http.StatusOK {
		t.Fatalf("learn again: %d %s", code, body)
	}
	code, body = post("1234", own, `{"action":"save"}`)
	got = dashboard.DiceCalibration{}
	if err := json.Unmarshal(body, &got); code != http.StatusOK || err != nil || !got.Saved || !slices.Contains(got.Faces, blue) || !slices.Contains(got.Faces, red) {
		t.Fatalf("save: %d %s", code, body)
	}
	c, err := vision.LoadNetCalibration(file)
	if err != nil {
		t.Fatalf("the calibration saved beside the journal: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "calibration.json")); err == nil {
		t.Errorf("the calibration was saved to the folder's shared calibration.json too, which another table there would read")
	}
	if !slices.Contains(c.Faces(), blue) || !slices.Contains(c.Faces(), red) {
		t.Errorf("calibration faces %v, want %d and %d", c.Faces(), blue, red)
	}
	var f struct {
		Role   string
		Camera *struct{ Calibration *dashboard.DiceCalibration }
	}
	conn = staffConn(t, addr)
	defer conn.Close()
	conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	for f.Role != "staff" || f.Camera == nil || f.Camera.Calibration == nil || !f.Camera.Calibration.Saved {
		_, data, err := conn.ReadMessage()
		if err != nil {
			t.Fatalf("no staff frame with the calibration saved: %v; last %+v", err, f.Camera)
		}
		json.Unmarshal(data, &f)
	}
	if f.Camera.Calibration.Dice != 4 {
		t.Errorf("the staff frame's calibration %+v, want 4 dice learned", f.Camera.Calibration)
	}
	// Start again: nothing learned, the calibration in use dropped at
	// the next save.
	code, body = post("1234", own, `{"action":"reset"}`)
	got = dashboard.DiceCalibration{}
	if err := json.Unmarshal(body, &got); code != http.StatusOK || err != nil || got.Dice != 0 || got.Need != 4 || got.Saved || len(got.Earlier) != 0 {
		t.Errorf("reset: %d %s, want nothing learned", code, body)
	}
	code, body = post("1234", own, `{"action":"save"}`)
	if code != http.StatusUnprocessableEntity || !strings.Contains(string(body), "4 more") {
		t.Errorf("save after the reset: %d %s, want 422 saying 4 more", code, body)
	}
	if c2, err := vision.LoadNetCalibration(file); err != nil || fmt.Sprint(c2.Faces()) != fmt.Sprint(c.Faces()) {
		t.Errorf("the file after a reset and a refused save: %v %v, want it as saved", c2, err)
	}
	// The next child starts with the file, and tells it at once: what
	// it learns next adds to it.
	d := &diceReader{path: bin, args: []string{"dicefeed", "--readings", "--pictures", repo + "/configs/demo/dice"}, calibration: file, opts: DefaultDiceReaderOpts, logf: t.Logf}
	cmd, stdout, _, err := d.start()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(cmd.Args, "--calibration") || cmd.Args[len(cmd.Args)-1] != file {
		t.Errorf("the next reader's args %v, want --calibration %s", cmd.Args, file)
	}
	lines := make(chan string)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	var inUse input.DiceCalibReply
	for inUse.Type != "calibration" {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatal("the next reader ended without telling its calibration")
			}
			json.Unmarshal([]byte(l), &inUse)
		case <-time.After(20 * time.Second):
			t.Fatal("the next reader did not tell its calibration")
		}
	}
	if fmt.Sprint(inUse.Earlier) != fmt.Sprint(c.Faces()) || inUse.Dice != 4 {
		t.Errorf("the next reader's calibration %+v, want the file's faces %v, 4 dice", inUse, c.Faces())
	}
	l := newDiceLog(d)
	if b, _ := json.Marshal(inUse); !l.line(string(b)) {
		t.Errorf("the daemon does not take the reader's calibration line")
	}
	if got := l.Calibration(); got == nil || !got.Saved || fmt.Sprint(got.Earlier) != fmt.Sprint(c.Faces()) || got.Dice != 4 {
		t.Errorf("the staff page's calibration after the reader's start: %+v, want it saved, of the file's faces", got)
	}
	d.closeStdin()
	go func() {
		for range lines {
		}
	}()
	cmd.Wait()
}

// staffConn is a staff connection (PIN 1234).
func staffConn(t *testing.T, addr string) *websocket.Conn {
	t.Helper()
	conn, _, err := websocket.DefaultDialer.Dial("ws://"+addr+"/ws", http.Header{"Origin": {"http://" + addr}})
	if err != nil {
		t.Fatal(err)
	}
	conn.WriteJSON(map[string]string{"type": "hello", "role": "staff", "pin": "1234"})
	return conn
}
