package web

import (
	"context"
	"crypto/rand"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/otd-project/otd/app"
	"github.com/otd-project/otd/tournament"
)

// reports is the reports the venue holds, as "table side" words.
func (v *venue) reports(t *testing.T) []string {
	t.Helper()
	tables, err := v.d.VenueTables(context.Background(), v.id)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, tb := range tables {
		for _, r := range tb.Reports {
			out = append(out, fmt.Sprintf("%d %s", tb.Game.Table, r.Side))
		}
	}
	return out
}

// guess is a code no game has: 13 or 26 random characters of base32.
func guess(n int) string {
	b := make([]byte, 20)
	rand.Read(b)
	return app.EncodeBase32(b)[:n]
}

// session opens a director's session through the console's one-time link,
// as the director does: its cookie.
func (v *venue) session(t *testing.T) *http.Cookie {
	t.Helper()
	once := strings.TrimPrefix(v.s.LoginLink(), "/console/login?once=")
	c := sessionOf(v.do("POST", "/console/login", url.Values{"once": {once}}, "127.0.0.1"))
	if c == nil {
		t.Fatal("the one-time link opened no session")
	}
	return c
}

// TestRoutes walks the route registry: every route has a kind, a public one
// is a GET; each token route's write refuses no token, a wrong one (long
// or short), a token of a recorded game, another site's request, and a
// token writes its own game's side only (another game's or side's token is
// of no use for this one); each login and director route (the console's)
// refuses plain HTTP from another computer; a director route refuses a
// request without a session and with a false one (a page sends to the
// login), and its write another site's request, changing nothing; a
// login's write refuses another site's request and is slowed after wrong
// passwords.
func TestRoutes(t *testing.T) {
	v := newVenue(t)
	kinds := map[kind]int{}
	for _, rt := range v.s.routes {
		kinds[rt.kind]++
		if rt.kind == public && rt.method() != http.MethodGet {
			t.Errorf("%s: a public route that is not a GET", rt.pattern)
		}
		if rt.kind != public && rt.kind != token && rt.kind != login && rt.kind != director {
			t.Errorf("%s: a route without a kind", rt.pattern)
		}
	}
	if kinds[token] < 3 || kinds[director] < 10 || kinds[login] != 2 {
		t.Fatalf("the routes walked: %v", kinds)
	}
	B, W := tournament.Black, tournament.White
	walked := v
	entries := func() int {
		_, log, err := walked.d.Log(context.Background(), walked.id)
		if err != nil {
			t.Fatal(err)
		}
		return len(log)
	}
	for _, rt := range walked.s.routes {
		_, path, _ := strings.Cut(rt.pattern, " ")
		at := func(tok string) string { return strings.Replace(path, "{token}", tok, 1) }
		write := rt.method() == http.MethodPost
		if rt.kind == login || rt.kind == director {
			v := walked
			if w := v.do(rt.method(), path, url.Values{}, "192.168.1.7", "Cookie", sessionCookie+"="+v.session(t).Value); w.Code != http.StatusForbidden || !strings.Contains(w.Body.String(), "HTTPS") {
				t.Errorf("%s over HTTP from another computer, with a session: %d, want 403 and the HTTPS address", rt.pattern, w.Code)
			}
		}
		switch {
		case rt.kind == director:
			v := walked
			before := entries()
			for _, c := range []string{"", sessionCookie + "=" + strings.Repeat("ab", 32)} {
				w := v.do(rt.method(), path, url.Values{}, "127.0.0.1", "Cookie", c)
				switch {
				case write && w.Code != http.StatusForbidden:
					t.Errorf("%s with the cookie %q: %d, want 403", rt.pattern, c, w.Code)
				case !write && (w.Code != http.StatusSeeOther || w.Header().Get("Location") != "/console/login"):
					t.Errorf("%s with the cookie %q: %d to %q, want the login", rt.pattern, c, w.Code, w.Header().Get("Location"))
				}
			}
			c := sessionCookie + "=" + v.session(t).Value
			if write {
				expect(t, v.do(rt.method(), path, url.Values{}, "127.0.0.1", "Cookie", c, "Sec-Fetch-Site", "cross-site"), http.StatusForbidden)
				expect(t, v.do(rt.method(), path, url.Values{}, "127.0.0.1", "Cookie", c, "Origin", "http://evil.example"), http.StatusForbidden)
				if after := entries(); after != before {
					t.Errorf("%s: refused requests changed the log (%d entries, were %d)", rt.pattern, after, before)
				}
				expect(t, v.do(rt.method(), path, url.Values{}, "127.0.0.1", "Cookie", c), http.StatusSeeOther) // the check can pass
			} else {
				expect(t, v.do(rt.method(), path, nil, "127.0.0.1", "Cookie", c), 200) // the check can pass
			}
		case rt.kind == login && write:
			v = newVenue(t) // fresh limits
			if err := v.d.SetDirectorPassword(context.Background(), v.id, "correct horse battery"); err != nil {
				t.Fatal(err)
			}
			right := url.Values{"password": {"correct horse battery"}}
			for _, h := range [][]string{{"Sec-Fetch-Site", "cross-site"}, {"Origin", "http://evil.example"}} {
				if w := v.do("POST", path, right, "127.0.0.1", h...); w.Code != http.StatusForbidden || sessionOf(w) != nil {
					t.Errorf("%s from another site: %d, want 403 and no session", rt.pattern, w.Code)
				}
			}
			count := map[int]int{}
			for i := range 100 {
				count[v.do("POST", path, url.Values{"password": {fmt.Sprint("guess ", i)}}, "127.0.0.1").Code]++
			}
			if count[http.StatusUnauthorized] != loginLimits.failBurst || count[http.StatusTooManyRequests] != 100-loginLimits.failBurst {
				t.Errorf("%s: 100 wrong passwords at once: %v, want %d checked, the rest 429", rt.pattern, count, loginLimits.failBurst)
			}
			if w := v.do("POST", path, right, "127.0.0.1"); w.Code != http.StatusTooManyRequests || sessionOf(w) != nil {
				t.Errorf("%s: the right password while slowed: %d, want 429", rt.pattern, w.Code)
			}
			v.clock.add(time.Minute)
			if w := v.do("POST", path, right, "127.0.0.1"); sessionOf(w) == nil {
				t.Errorf("%s: the right password a minute later: %d, no session", rt.pattern, w.Code)
			}
		case rt.kind == login:
			expect(t, v.do(rt.method(), path, nil, "127.0.0.1"), 200, "Log in")
		case rt.kind == token && write:
			v = newVenue(t) // fresh limits and reports
			addr := "10.9.0.1"
			for _, bad := range []string{"", guess(app.TokenShort), guess(app.TokenLong), "%3Cscript%3E"} {
				w := v.do("POST", at(bad), discs("40", "24"), addr)
				if w.Code < 300 { // "" is /r//call: redirected to /r/call, no route
					t.Errorf("%s with the code %q: %d", rt.pattern, bad, w.Code)
				}
			}
			// Another site's request, with the right token.
			expect(t, v.do("POST", at(v.tok(1, B, false)), discs("40", "24"), addr, "Sec-Fetch-Site", "cross-site"), http.StatusForbidden)
			expect(t, v.do("POST", at(v.tok(1, B, false)), discs("40", "24"), addr, "Origin", "http://evil.example"), http.StatusForbidden)
			if got := v.reports(t); len(got) > 0 {
				t.Errorf("%s: refused requests left reports %v", rt.pattern, got)
			}
			// Another game's and the other side's tokens write theirs only.
			expect(t, v.do("POST", at(v.tok(2, B, false)), discs("40", "24"), addr), http.StatusSeeOther)
			expect(t, v.do("POST", at(v.tok(1, W, true)), discs("40", "24"), "10.9.0.2"), http.StatusSeeOther)
			if got := strings.Join(v.reports(t), ", "); got != "1 white, 2 black" {
				t.Errorf("%s: the reports %q, want 1 white, 2 black (table 1 black's untouched)", rt.pattern, got)
			}
			// A used token: the game recorded.
			if _, err := v.d.Record(context.Background(), v.id, tournament.GameRef{Round: 1, Table: 1}, tournament.ResultInput{Black: 30, White: 34, HasScore: true}); err != nil {
				t.Fatal(err)
			}
			for _, side := range []tournament.Color{B, W} {
				expect(t, v.do("POST", at(v.tok(1, side, false)), discs("40", "24"), addr), http.StatusConflict)
			}
			g, err := v.s.src.Tournament(context.Background(), v.id)
			if err != nil {
				t.Fatal(err)
			}
			if r := g.Round(1)[0].Result; r == nil || r.Black != 30 {
				t.Errorf("%s: the result recorded became %v", rt.pattern, r)
			}
		case rt.kind == token:
			w := v.do(rt.method(), at(v.tok(1, B, false)), nil, "10.9.0.3")
			if w.Header().Get("Referrer-Policy") != "no-referrer" {
				t.Errorf("%s: Referrer-Policy %q", rt.pattern, w.Header().Get("Referrer-Policy"))
			}
			// A wrong code says nothing but "unknown code": long or short,
			// the same page.
			a, b := v.do(rt.method(), at(guess(app.TokenShort)), nil, "10.9.0.3"), v.do(rt.method(), at(guess(app.TokenLong)), nil, "10.9.0.3")
			if a.Code != http.StatusNotFound || a.Body.String() != b.Body.String() {
				t.Errorf("%s: wrong codes answer %d and %d, the pages differ: %v", rt.pattern, a.Code, b.Code, a.Body.String() != b.Body.String())
			}
		}
	}
}

// TestGuesses: 10,000 guessed codes from one address, ten a second by the
// injected clock, are slowed (most answered 429) and find nothing; guesses
// from a thousand addresses meet the bound of all failures, while a
// player who never mistyped still opens their page.
func TestGuesses(t *testing.T) {
	v := newVenue(t)
	count := map[int]int{}
	for i := range 10000 {
		count[v.do("GET", "/r/"+guess([]int{app.TokenShort, app.TokenLong}[i%2]), nil, "10.0.0.66").Code]++
		v.clock.add(100 * time.Millisecond)
	}
	// 1000 s: 10 at once, then one each 6 s.
	if count[http.StatusOK] != 0 || count[http.StatusTooManyRequests] < 9500 || count[http.StatusNotFound] > 10+1000/6+1 {
		t.Errorf("10,000 guesses from one address: %v", count)
	}

	v = newVenue(t)
	count = map[int]int{}
	for round := range 3 {
		for i := range 1000 {
			w := v.do("GET", "/r/"+guess(app.TokenShort), nil, fmt.Sprintf("10.1.%d.%d", i/250, i%250+1))
			if round > 0 {
				count[w.Code]++
			}
		}
	}
	if count[http.StatusOK] != 0 || count[http.StatusNotFound] != 0 {
		t.Errorf("the second and third guesses of 1000 addresses at once: %v, want all 429", count)
	}
	expect(t, v.do("GET", "/r/"+v.tok(1, tournament.Black, true), nil, "10.2.0.1"), 200, "You report for Black")
	v.clock.add(time.Minute)
	if w := v.do("GET", "/r/"+guess(app.TokenShort), nil, "10.1.0.1"); w.Code != http.StatusNotFound {
		t.Errorf("a minute later, a guess: %d, want 404 (the bounds refilled)", w.Code)
	}
}
