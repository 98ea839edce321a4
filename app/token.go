package app

import (
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"strings"
	"unicode"

	"golang.org/x/text/width"

	"github.com/otd-project/otd/tournament"
)

// A report token opens one side of one game of the venue (issue 31): the
// HMAC-SHA256, under the tournament's secret (VenueKeys.Secret), of the
// tournament, the game, the side and the players it is paired with. It is
// derived, never stored: a slip can be printed again and nothing can list
// the tokens; pairing the game anew with other players changes it; a game
// recorded refuses it (ErrRecorded) until an undo of its result.
//
// It is written in Crockford's base32: the QR code carries 128 bits
// (TokenLong characters), the slip prints the first 65 (TokenShort, a
// prefix of the long one, so that one lookup serves both).
//
// Why 65 bits suffice for the printed one: a guess needs a request, and
// failed requests are limited per address and overall (the web's limiter:
// say 10 a minute per address, 600 a minute overall). With at most ~500
// tokens live at once, one guess finds one with probability 500/2^65; 600
// a minute for a 3-day event is 2.6 million guesses, which find one with
// probability about 3.5e-11.
const (
	TokenLong  = 26 // characters: 130 bits, of which the first 128 are the HMAC's
	TokenShort = 13 // characters: 65 bits
)

// crockford is Crockford's base32 alphabet: the digits and the letters but
// I, L, O and U.
const crockford = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

// EncodeBase32 writes b in Crockford's base32, 5 bits a character, the
// last padded with zero bits.
func EncodeBase32(b []byte) string {
	var s strings.Builder
	var acc uint32
	bits := 0
	for _, c := range b {
		acc = acc<<8 | uint32(c)
		bits += 8
		for bits >= 5 {
			bits -= 5
			s.WriteByte(crockford[acc>>bits&31])
		}
	}
	if bits > 0 {
		s.WriteByte(crockford[acc<<(5-bits)&31])
	}
	return s.String()
}

// ErrBase32 is text that is not Crockford's base32.
var ErrBase32 = errors.New("not Crockford's base32")

// NormalizeBase32 gives s in Crockford's base32 as EncodeBase32 writes it:
// upper case, hyphens dropped, I and L read as 1, O as 0. A code typed on a
// phone is read as printed: the dashes a keyboard puts for a hyphen (‐ ‑ ‒ –
// — −, a full-width －) and spaces are dropped too, full-width letters and
// digits read as theirs.
func NormalizeBase32(s string) (string, error) {
	var b strings.Builder
	for _, c := range strings.ToUpper(width.Fold.String(s)) {
		switch {
		case c == '-' || c == '−' || unicode.Is(unicode.Pd, c) || unicode.IsSpace(c):
			continue
		case c == 'I' || c == 'L':
			c = '1'
		case c == 'O':
			c = '0'
		}
		if c > 127 || strings.IndexByte(crockford, byte(c)) < 0 {
			return "", fmt.Errorf("%q: %w: the character %q", s, ErrBase32, c)
		}
		b.WriteRune(c)
	}
	return b.String(), nil
}

// DecodeBase32 reads Crockford's base32 (as NormalizeBase32 reads it) into
// whole bytes; the bits of a last character beyond them are dropped.
func DecodeBase32(s string) ([]byte, error) {
	n, err := NormalizeBase32(s)
	if err != nil {
		return nil, err
	}
	var out []byte
	var acc uint32
	bits := 0
	for i := range len(n) {
		acc = acc<<5 | uint32(strings.IndexByte(crockford, n[i]))
		bits += 5
		if bits >= 8 {
			bits -= 8
			out = append(out, byte(acc>>bits))
		}
	}
	return out, nil
}

// Token is one side's report token, long (the QR code's) and short (the
// slip's printed address, a prefix of the long one).
type Token struct{ Long, Short string }

// Printed is the short token as the slip prints it: XXXX-XXXX-XXXXX.
func (k Token) Printed() string { return k.Short[:4] + "-" + k.Short[4:8] + "-" + k.Short[8:] }

// token derives the token of side of game g of tournament id under secret.
func token(secret []byte, id int64, g tournament.Game, side tournament.Color) Token {
	m := hmac.New(sha256.New, secret)
	ref := g.Ref()
	fmt.Fprintf(m, "otd report\x00%d\x00%d\x00%d\x00%s\x00%d\x00%s\x00%d\x00%d", id, ref.Round, ref.Table, ref.Match, ref.Game, side, g.Black, g.White)
	long := EncodeBase32(m.Sum(nil)[:16])
	return Token{Long: long, Short: long[:TokenShort]}
}

// found is a game and side a token opens.
type found struct {
	game *tournament.Game
	side tournament.Color
}

// lookup finds the game and side of tournament t whose token (long or
// short) is given, among its games that are not byes and have no result,
// or are of the last round paired or the final phase (whose tokens are
// then known, to say ErrRecorded): each game's tokens are derived and
// compared in constant time. A token of no such game is ErrUnknownToken,
// as is any without a secret.
func lookup(secret []byte, t *tournament.Tournament, given string) (found, error) {
	n, err := NormalizeBase32(given)
	if len(secret) == 0 || err != nil || len(n) != TokenLong && len(n) != TokenShort {
		return found{}, ErrUnknownToken
	}
	var hit found
	for _, games := range [][]tournament.Game{t.Games, t.FinalGames} {
		for i := range games {
			g := &games[i]
			if g.IsBye() || g.Result != nil && !g.IsFinal() && g.Round != t.Paired() {
				continue
			}
			for _, side := range []tournament.Color{tournament.Black, tournament.White} {
				k := token(secret, t.ID, *g, side)
				if subtle.ConstantTimeCompare([]byte(n), []byte(k.Long[:len(n)])) == 1 {
					hit = found{g, side}
				}
			}
		}
	}
	if hit.game == nil {
		return hit, ErrUnknownToken
	}
	return hit, nil
}
