package scoring

import "fmt"

// BQ is a Brightwell Quotient, kept exact as a fraction (c may be 64/rounds,
// and points come in halves). The zero value is 0. A BQ is never negative.
type BQ struct{ num, den int }

func (b BQ) parts() (num, den int) {
	if b.den <= 0 {
		return b.num, 1
	}
	return b.num, b.den
}

// Cmp compares two BQs exactly: -1, 0 or +1.
func (b BQ) Cmp(o BQ) int {
	bn, bd := b.parts()
	on, od := o.parts()
	x, y := bn*od, on*bd
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

// Round gives the nearest integer, halves up: the value published by
// FlipTheDisc as the "mbq".
func (b BQ) Round() int {
	n, d := b.parts()
	return floorDiv(2*n+d, 2*d)
}

// Rat gives the value as a fraction in lowest terms, den > 0.
func (b BQ) Rat() (num, den int) {
	n, d := b.parts()
	g := gcd(n, d)
	return n / g, d / g
}

// String gives the value to two decimals, without trailing zeros: "83", "83.5", "577.86".
func (b BQ) String() string {
	n, d := b.parts()
	c := floorDiv(200*n+d, 2*d) // hundredths, halves up
	sign := ""
	if c < 0 {
		sign, c = "-", -c
	}
	s := fmt.Sprintf("%s%d", sign, c/100)
	switch {
	case c%10 != 0:
		s += fmt.Sprintf(".%02d", c%100)
	case c%100 != 0:
		s += fmt.Sprintf(".%d", c%100/10)
	}
	return s
}

// MarshalJSON writes the value as String does, as a JSON number: 577.86.
func (b BQ) MarshalJSON() ([]byte, error) { return []byte(b.String()), nil }

func floorDiv(a, b int) int {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}

func gcd(a, b int) int {
	if a < 0 {
		a = -a
	}
	for b != 0 {
		a, b = b, a%b
	}
	if a == 0 {
		return 1
	}
	return a
}
