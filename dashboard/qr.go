package dashboard

import qrcode "github.com/skip2/go-qrcode"

// qrPNG returns a QR code of text as a PNG of size×size pixels, with
// medium error correction (a phone reads it off a screen at an angle).
func qrPNG(text string, size int) ([]byte, error) {
	return qrcode.Encode(text, qrcode.Medium, size)
}
