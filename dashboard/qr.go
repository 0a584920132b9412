package dashboard

import (
	"net/http"

	qrcode "github.com/skip2/go-qrcode"
)

// qrPNG returns a QR code of text as a PNG of size×size pixels, with
// medium error correction (a phone reads it off a screen at an angle).
func qrPNG(text string, size int) ([]byte, error) {
	return qrcode.Encode(text, qrcode.Medium, size)
}

// writeQR answers with a QR code of text, 256 pixels wide, not to be
// cached (a seat's join link changes).
func (s *Server) writeQR(w http.ResponseWriter, text string) {
	png, err := qrPNG(text, 256)
	if err != nil {
		s.logf("dashboard: QR: %v", err)
		http.Error(w, "QR code failed", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "image/png")
	w.Header().Set("Cache-Control", "no-store")
	w.Write(png)
}
