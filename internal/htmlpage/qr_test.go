package htmlpage

import (
	"fmt"
	"regexp"
	"testing"

	"rsc.io/qr"
)

// TestQR checks that the SVG QR code has exactly the black modules of the
// code rsc.io/qr encodes, each moved by the 4 modules of the quiet zone,
// inside a white square of the code's size plus the quiet zone on each side.
func TestQR(t *testing.T) {
	for _, url := range []string{"http://127.0.0.1:8080/round/1/table/2", "http://192.168.1.20:8080/final/game/17"} {
		svg, err := QR(url)
		if err != nil {
			t.Fatal(err)
		}
		code, err := qr.Encode(url, qr.M)
		if err != nil {
			t.Fatal(err)
		}
		n := code.Size + 8
		if want := fmt.Sprintf(`viewBox="0 0 %d %d"`, n, n); !regexp.MustCompile(regexp.QuoteMeta(want)).MatchString(string(svg)) {
			t.Errorf("%s: no %s in %.200s", url, want, svg)
		}
		drawn := map[[2]int]bool{}
		for _, m := range regexp.MustCompile(`M(\d+) (\d+)h1v1h-1z`).FindAllStringSubmatch(string(svg), -1) {
			var x, y int
			fmt.Sscan(m[1], &x)
			fmt.Sscan(m[2], &y)
			drawn[[2]int{x - 4, y - 4}] = true
		}
		black := 0
		for y := range code.Size {
			for x := range code.Size {
				if code.Black(x, y) {
					black++
					if !drawn[[2]int{x, y}] {
						t.Errorf("%s: module (%d,%d) is black, not drawn", url, x, y)
					}
				}
			}
		}
		if len(drawn) != black || black == 0 {
			t.Errorf("%s: %d modules drawn, the code has %d black", url, len(drawn), black)
		}
	}
}
