package scoring

import "testing"

func TestBQValue(t *testing.T) {
	for _, tt := range []struct {
		b      BQ
		s      string
		round  int
		rn, rd int
	}{
		{BQ{}, "0", 0, 0, 1},
		{BQ{166, 2}, "83", 83, 83, 1},
		{BQ{167, 2}, "83.5", 84, 167, 2},
		{BQ{165, 2}, "82.5", 83, 165, 2},
		{BQ{4045, 7}, "577.86", 578, 4045, 7},
		{BQ{3853, 7}, "550.43", 550, 3853, 7},
		{BQ{2 * 4237, 2 * 5}, "847.4", 847, 4237, 5},
		{BQ{1, 200}, "0.01", 0, 1, 200},
		{BQ{1, 201}, "0", 0, 1, 201},
		{BQ{-1, 2}, "-0.5", 0, -1, 2},
		{BQ{-3, 7}, "-0.43", 0, -3, 7},
	} {
		if s := tt.b.String(); s != tt.s {
			t.Errorf("%v/%v: String = %q, want %q", tt.b.num, tt.b.den, s, tt.s)
		}
		if r := tt.b.Round(); r != tt.round {
			t.Errorf("%v/%v: Round = %d, want %d", tt.b.num, tt.b.den, r, tt.round)
		}
		if n, d := tt.b.Rat(); n != tt.rn || d != tt.rd {
			t.Errorf("%v/%v: Rat = %d/%d, want %d/%d", tt.b.num, tt.b.den, n, d, tt.rn, tt.rd)
		}
	}
	if (BQ{166, 2}).Cmp(BQ{83, 1}) != 0 || (BQ{4045, 7}).Cmp(BQ{578, 1}) != -1 || (BQ{}).Cmp(BQ{-1, 3}) != 1 {
		t.Error("Cmp")
	}
}
