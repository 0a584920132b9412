package render

import (
	"fmt"
	"math"
)

// Vec is a point or direction in POV-Ray's scene coordinates: x to the
// right, y up, z away from the default viewer (a left-handed frame).
// Lengths are millimetres.
type Vec struct{ X, Y, Z float64 }

func (a Vec) Add(b Vec) Vec             { return Vec{a.X + b.X, a.Y + b.Y, a.Z + b.Z} }
func (a Vec) Sub(b Vec) Vec             { return Vec{a.X - b.X, a.Y - b.Y, a.Z - b.Z} }
func (a Vec) Scale(k float64) Vec       { return Vec{a.X * k, a.Y * k, a.Z * k} }
func (a Vec) Dot(b Vec) float64         { return a.X*b.X + a.Y*b.Y + a.Z*b.Z }
func (a Vec) Len() float64              { return math.Sqrt(a.Dot(a)) }
func (a Vec) Unit() Vec                 { return a.Scale(1 / a.Len()) }
func (a Vec) pov() string               { return fmt.Sprintf("<%.4f,%.4f,%.4f>", a.X, a.Y, a.Z) }
func (a Vec) Cross(b Vec) Vec           { return Vec{a.Y*b.Z - a.Z*b.Y, a.Z*b.X - a.X*b.Z, a.X*b.Y - a.Y*b.X} }
func (a Vec) lerp(b Vec, t float64) Vec { return a.Add(b.Sub(a).Scale(t)) }

// Mat is a 3x3 matrix acting on column vectors: M.Apply(v) = M v.
type Mat [3][3]float64

// Identity is the identity rotation.
var Identity = Mat{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}

// Apply returns m v.
func (m Mat) Apply(v Vec) Vec {
	return Vec{
		m[0][0]*v.X + m[0][1]*v.Y + m[0][2]*v.Z,
		m[1][0]*v.X + m[1][1]*v.Y + m[1][2]*v.Z,
		m[2][0]*v.X + m[2][1]*v.Y + m[2][2]*v.Z,
	}
}

// Mul returns m n (n applied first).
func (m Mat) Mul(n Mat) Mat {
	var r Mat
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			for k := 0; k < 3; k++ {
				r[i][j] += m[i][k] * n[k][j]
			}
		}
	}
	return r
}

// Det is the determinant; +1 for a rotation.
func (m Mat) Det() float64 {
	return m[0][0]*(m[1][1]*m[2][2]-m[1][2]*m[2][1]) -
		m[0][1]*(m[1][0]*m[2][2]-m[1][2]*m[2][0]) +
		m[0][2]*(m[1][0]*m[2][1]-m[1][1]*m[2][0])
}

// rows builds the matrix whose rows are a, b, c.
func rows(a, b, c Vec) Mat {
	return Mat{{a.X, a.Y, a.Z}, {b.X, b.Y, b.Z}, {c.X, c.Y, c.Z}}
}

// cols builds the matrix whose columns are a, b, c.
func cols(a, b, c Vec) Mat {
	return Mat{{a.X, b.X, c.X}, {a.Y, b.Y, c.Y}, {a.Z, b.Z, c.Z}}
}

// RotY is a rotation by deg degrees about the vertical axis.
func RotY(deg float64) Mat {
	s, c := math.Sincos(deg * math.Pi / 180)
	return Mat{{c, 0, s}, {0, 1, 0}, {-s, 0, c}}
}

// axisAngle is the rotation by deg degrees about the unit axis a.
func axisAngle(a Vec, deg float64) Mat {
	a = a.Unit()
	s, c := math.Sincos(deg * math.Pi / 180)
	t := 1 - c
	return Mat{
		{t*a.X*a.X + c, t*a.X*a.Y - s*a.Z, t*a.X*a.Z + s*a.Y},
		{t*a.X*a.Y + s*a.Z, t*a.Y*a.Y + c, t*a.Y*a.Z - s*a.X},
		{t*a.X*a.Z - s*a.Y, t*a.Y*a.Z + s*a.X, t*a.Z*a.Z + c},
	}
}

// povMatrix writes the POV-Ray matrix of the affine map p -> m p + t.
// POV-Ray's rows are the images of the basis vectors, that is m's columns.
func povMatrix(m Mat, t Vec) string {
	return fmt.Sprintf("matrix <%.5f,%.5f,%.5f, %.5f,%.5f,%.5f, %.5f,%.5f,%.5f, %.4f,%.4f,%.4f>",
		m[0][0], m[1][0], m[2][0],
		m[0][1], m[1][1], m[2][1],
		m[0][2], m[1][2], m[2][2],
		t.X, t.Y, t.Z)
}

// A d8 is a regular octahedron with its vertices on the axes, at distance 1
// from its centre in the die's own frame. Face i has the outward normal
// faceSigns[i]/sqrt(3) and shows numeral faceNumeral[i]. As on real d8s,
// opposite faces add up to 9.
var faceSigns = [8]Vec{
	{1, 1, 1}, {-1, 1, 1}, {-1, 1, -1}, {1, 1, -1},
	{-1, -1, -1}, {1, -1, -1}, {1, -1, 1}, {-1, -1, 1},
}

var faceNumeral = [8]int{1, 7, 3, 5, 8, 2, 6, 4}

// FaceNormal is the outward unit normal, in the die's frame, of the face
// that shows numeral n (1 to 8).
func FaceNormal(n int) Vec {
	for i, v := range faceNumeral {
		if v == n {
			return faceSigns[i].Unit()
		}
	}
	panic(fmt.Sprintf("render: no d8 face %d", n))
}

// TopFace is the numeral of the face whose outward normal, after the die
// is rotated by rot, points most nearly straight up, and the cosine of the
// angle between that normal and the vertical (1 when the die lies flat).
func TopFace(rot Mat) (face int, cos float64) {
	cos = -2
	for i, s := range faceSigns {
		c := rot.Apply(s.Unit()).Y
		if c > cos {
			face, cos = faceNumeral[i], c
		}
	}
	return face, cos
}

// FaceUp is the rotation that lays the die on the face opposite numeral n,
// so that n points straight up, then turns it by yaw degrees about the
// vertical.
func FaceUp(n int, yaw float64) Mat {
	up := FaceNormal(n)
	// Any unit vector perpendicular to up, taken towards one of the face's
	// vertices so that the numeral's orientation is reproducible.
	side := Vec{0, math.Copysign(1, up.Y), 0}
	side = side.Sub(up.Scale(side.Dot(up))).Unit()
	third := side.Cross(up) // (side, up, third) is a right-handed triple
	// rows(side, up, third) maps side to x, up to y and third to z.
	return RotY(yaw).Mul(rows(side, up, third))
}

// inradius is the distance from an octahedron's centre to a face, for a
// vertex distance of 1.
var inradius = 1 / math.Sqrt(3)
