package app_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/otd-project/otd/app"
	"github.com/otd-project/otd/internal/memstore"
	"github.com/otd-project/otd/tournament"
)

// TestBase32: Crockford's base32 of RFC 4648's test strings and of 128-bit
// values. The expected strings are RFC 4648's base32hex ("foobar" is
// CPNMUOJ1E8) with each symbol mapped to Crockford's of the same value
// (0-9 A-H J K M N P-T V-Z): C P N M U O J 1 E 8 -> C S Q P Y R K 1 E 8.
func TestBase32(t *testing.T) {
	for _, tc := range []struct {
		in   []byte
		want string
	}{
		{[]byte("f"), "CR"},
		{[]byte("fo"), "CSQG"},
		{[]byte("foo"), "CSQPY"},
		{[]byte("foob"), "CSQPYRG"},
		{[]byte("fooba"), "CSQPYRK1"},
		{[]byte("foobar"), "CSQPYRK1E8"},
		{make([]byte, 16), strings.Repeat("0", 26)},
		// 128 ones: 25 Zs, then 3 ones and 2 bits of padding: 11100 = 28 = W.
		{[]byte(strings.Repeat("\xff", 16)), strings.Repeat("Z", 25) + "W"},
		{[]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}, "000G40R40M30E209185GR38E1W"},
	} {
		if got := app.EncodeBase32(tc.in); got != tc.want {
			t.Errorf("EncodeBase32(%x) = %s; want %s", tc.in, got, tc.want)
		}
		back, err := app.DecodeBase32(strings.ToLower(tc.want))
		if err != nil || string(back) != string(tc.in) {
			t.Errorf("DecodeBase32(%s) = %x, %v; want %x", strings.ToLower(tc.want), back, err, tc.in)
		}
	}
	// Read as Crockford says: any case, I and L as 1, O as 0, hyphens ignored;
	// and as a phone's keyboard may type the hyphens: any dash, the minus
	// sign, spaces; full-width characters as theirs.
	for in, want := range map[string]string{
		"csqp-yrk1-e8": "CSQPYRK1E8", "oOiIlL": "001111", "": "",
		"CSQP‐YRK1‑E8": "CSQPYRK1E8", "CSQP‒YRK1–E8": "CSQPYRK1E8", "CSQP—YRK1−E8": "CSQPYRK1E8",
		" CSQP YRK1 E8 ": "CSQPYRK1E8", "ＣＳＱＰ－ｙｒｋ１　Ｅ８": "CSQPYRK1E8",
	} {
		if got, err := app.NormalizeBase32(in); got != want || err != nil {
			t.Errorf("NormalizeBase32(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"U", "CSQP_YRK", "é", "*", "CSQP.YRK"} {
		if _, err := app.NormalizeBase32(bad); !errors.Is(err, app.ErrBase32) {
			t.Errorf("NormalizeBase32(%q): %v; want ErrBase32", bad, err)
		}
	}
}

// TestTokens: each side of each game has its own token, 26 characters long
// with its 13-character short form a prefix of it (printed XXXX-XXXX-XXXXX);
// each opens its game and side alone; a token one character off, or of
// another tournament, opens nothing.
func TestTokens(t *testing.T) {
	ctx := context.Background()
	d := app.New(app.Store{Storage: memstore.New()})
	id, links := venueEvent(t, d, "")
	other, otherLinks := namedVenueEvent(t, d, "Venue 2", "")
	seen := map[string]bool{}
	for _, l := range links {
		for _, side := range []tournament.Color{tournament.Black, tournament.White} {
			k := l.Black
			if side == tournament.White {
				k = l.White
			}
			if len(k.Long) != app.TokenLong || len(k.Short) != app.TokenShort || !strings.HasPrefix(k.Long, k.Short) || len(k.Printed()) != 15 || k.Printed()[4] != '-' || k.Printed()[9] != '-' {
				t.Errorf("%s %s: token %+v, printed %s", l.Game.Where(), side, k, k.Printed())
			}
			if seen[k.Short] {
				t.Errorf("%s %s: a token twice", l.Game.Where(), side)
			}
			seen[k.Short] = true
			for _, tok := range []string{k.Long, k.Short, k.Printed(), strings.ToLower(k.Long)} {
				r, err := d.Reporting(ctx, id, tok)
				if err != nil || r.Side != side || r.Table.Game.Ref() != l.Game.Ref() {
					t.Errorf("%s %s: %s opens %s of %+v, %v", l.Game.Where(), side, tok, r.Side, r.Table.Game, err)
				}
			}
			off := k.Short[:12] + string("0123456789ABCDEFGHJKMNPQRSTVWXYZ"[(strings.IndexByte("0123456789ABCDEFGHJKMNPQRSTVWXYZ", k.Short[12])+1)%32])
			if _, err := d.Reporting(ctx, id, off); !errors.Is(err, app.ErrUnknownToken) {
				t.Errorf("a token one character off: %v; want ErrUnknownToken", err)
			}
			if _, err := d.Reporting(ctx, other, k.Long); !errors.Is(err, app.ErrUnknownToken) {
				t.Errorf("a token of another tournament: %v; want ErrUnknownToken", err)
			}
		}
	}
	if otherLinks[0].Black == links[0].Black {
		t.Error("two tournaments' first games have one token")
	}
}

// BenchmarkReporting: a token looked up among 200 open games (400 players,
// round 1), on the store in memory: the lookup derives 800 tokens.
func BenchmarkReporting(b *testing.B) {
	ctx := context.Background()
	d := app.New(app.Store{Storage: memstore.New()})
	tm, err := d.Create(ctx, tournament.DefaultSettings("Big", 7))
	if err != nil {
		b.Fatal(err)
	}
	var ops []tournament.Op
	for i := range 400 {
		in := tournament.PlayerInput{Name: fmt.Sprintf("P%d", i+1), Rating: 2000 - i}
		ops = append(ops, func(t *tournament.Tournament) (tournament.Change, error) { return t.AddPlayer(in) })
	}
	ops = append(ops, func(t *tournament.Tournament) (tournament.Change, error) { return t.Pair(tournament.PairOptions{}) })
	if _, _, err := d.DoForTest(ctx, tm.ID, ops...); err != nil {
		b.Fatal(err)
	}
	links, err := d.ReportLinks(ctx, tm.ID, 1)
	if err != nil || len(links) != 200 {
		b.Fatalf("%d games, %v", len(links), err)
	}
	tok := links[199].White.Short
	b.ResetTimer()
	for b.Loop() {
		if _, err := d.Reporting(ctx, tm.ID, tok); err != nil {
			b.Fatal(err)
		}
	}
}
