package vision

/*
#cgo !windows pkg-config: opencv4
#cgo CXXFLAGS: --std=c++11
#include <stdlib.h>
#include "decode.h"
*/
import "C"

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"unsafe"

	"gocv.io/x/gocv"
)

// errNotDecoded is decodeBGR's error for bytes OpenCV does not decode
// (not an image, or truncated before its first pixels).
var errNotDecoded = errors.New("not an image that OpenCV decodes (JPEG, PNG, BMP...)")

// decodeBGR decodes an image file's bytes into a BGR Mat the caller
// closes, as gocv.IMDecode does, but an exception OpenCV throws (a JPEG
// whose header announces a picture of billions of pixels) is an error,
// not the end of the process.
func decodeBGR(data []byte) (gocv.Mat, error) {
	if len(data) == 0 {
		return gocv.Mat{}, errors.New("empty file")
	}
	var rows, cols C.int
	var pix *C.uchar
	var msg [256]C.char
	switch rc := C.comptoir_imdecode((*C.uchar)(unsafe.Pointer(&data[0])), C.int(len(data)), &rows, &cols, &pix, &msg[0], C.int(len(msg))); rc {
	case 0:
	case 1:
		return gocv.Mat{}, errNotDecoded
	case 2:
		return gocv.Mat{}, fmt.Errorf("OpenCV refused it: %s", strings.TrimSpace(C.GoString(&msg[0])))
	default:
		return gocv.Mat{}, fmt.Errorf("no memory for its pixels (code %d)", int(rc))
	}
	defer C.free(unsafe.Pointer(pix))
	m := gocv.NewMatWithSize(int(rows), int(cols), gocv.MatTypeCV8UC3)
	dst, err := m.DataPtrUint8()
	if err != nil {
		m.Close()
		return gocv.Mat{}, err
	}
	copy(dst, unsafe.Slice((*byte)(unsafe.Pointer(pix)), len(dst)))
	return m, nil
}

// readPicture reads the picture file at path as a BGR Mat the caller
// closes (decodeBGR: a file OpenCV throws on is an error).
func readPicture(path string) (gocv.Mat, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return gocv.Mat{}, err
	}
	m, err := decodeBGR(data)
	if err != nil {
		return gocv.Mat{}, fmt.Errorf("%s: %w", path, err)
	}
	return m, nil
}
