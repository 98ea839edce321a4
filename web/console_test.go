package web

import (
	"bufio"
	"context"
	"crypto/tls"
	"fmt"
	"html/template"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/otd-project/otd/app"
	"github.com/otd-project/otd/internal/htmlpage"
	"github.com/otd-project/otd/tournament"
)

const directorPassword = "correct horse battery"

// consoleFixture is a console on a store in memory: the venue's event
// (newVenue: 4 players, round 1 paired 1-2 and 3-4), the director's password
// set.
type consoleFixture struct {
	t     *testing.T
	d     *app.Director
	id    int64
	s     *Server
	clock *clock
	links []app.ReportLink
}

func newConsole(t *testing.T) *consoleFixture {
	t.Helper()
	v := newVenue(t)
	if err := v.d.SetDirectorPassword(context.Background(), v.id, directorPassword); err != nil {
		t.Fatal(err)
	}
	return &consoleFixture{t: t, d: v.d, id: v.id, s: v.s, clock: v.clock, links: v.links}
}

// request is a request to the console: from this computer over HTTP unless
// changed by edit.
func (f *consoleFixture) request(method, path string, form url.Values, cookie *http.Cookie, edit ...func(*http.Request)) *httptest.ResponseRecorder {
	r := request(method, path, form)
	r.RemoteAddr = "127.0.0.1:50000"
	if cookie != nil {
		r.AddCookie(cookie)
	}
	for _, e := range edit {
		e(r)
	}
	w := httptest.NewRecorder()
	f.s.ServeHTTP(w, r)
	return w
}

func from(addr string) func(*http.Request) { return func(r *http.Request) { r.RemoteAddr = addr } }

func sessionOf(w *httptest.ResponseRecorder) *http.Cookie {
	for _, c := range w.Result().Cookies() {
		if c.Name == sessionCookie && c.Value != "" {
			return c
		}
	}
	return nil
}

// login logs in with the director's password and returns the session's
// cookie and name.
func (f *consoleFixture) login() (*http.Cookie, string) {
	f.t.Helper()
	w := f.request("POST", "/console/login", url.Values{"password": {directorPassword}}, nil)
	c := sessionOf(w)
	if w.Code != http.StatusSeeOther || c == nil {
		f.t.Fatalf("login: %d %q, cookie %v", w.Code, w.Body, c)
	}
	return c, f.page("/console", c).name
}

type consolePage struct {
	status int
	body   string
	name   string // the session's, as the page says it
}

func (f *consoleFixture) page(path string, c *http.Cookie) consolePage {
	f.t.Helper()
	w := f.request("GET", path, nil, c)
	p := consolePage{status: w.Code, body: w.Body.String()}
	if _, rest, ok := strings.Cut(p.body, "(session "); ok {
		p.name, _, _ = strings.Cut(rest, ")")
	}
	return p
}

// lastEntry is the newest entry of the tournament's log.
func (f *consoleFixture) lastEntry() tournament.Entry {
	f.t.Helper()
	_, log, err := f.d.Log(context.Background(), f.id)
	if err != nil {
		f.t.Fatal(err)
	}
	return log[len(log)-1]
}

func (f *consoleFixture) game(r, table int) *tournament.Game {
	f.t.Helper()
	tm, err := f.d.Tournament(context.Background(), f.id)
	if err != nil {
		f.t.Fatal(err)
	}
	g, err := tm.Game(r, table)
	if err != nil {
		f.t.Fatal(err)
	}
	return g
}

// TestConsoleLogin: the director's password opens a session (a cookie
// HttpOnly, SameSite=Strict, Secure under HTTPS), a wrong one does not; a
// one-time link opens one session, once.
func TestConsoleLogin(t *testing.T) {
	f := newConsole(t)
	if p := f.page("/console", nil); p.status != http.StatusSeeOther {
		t.Errorf("the console without a session: %d, want a redirect to the login", p.status)
	}
	w := f.request("POST", "/console/login", url.Values{"password": {"wrong password"}}, nil)
	if w.Code != http.StatusUnauthorized || sessionOf(w) != nil || !strings.Contains(w.Body.String(), template.HTMLEscapeString(app.ErrWrongPassword.Error())) {
		t.Errorf("a wrong password: %d, cookie %v, %q", w.Code, sessionOf(w), w.Body)
	}
	for _, tls := range []bool{false, true} {
		w = f.request("POST", "/console/login", url.Values{"password": {directorPassword}}, nil, func(r *http.Request) {
			if tls {
				r.TLS = &tlsState
			}
		})
		c := sessionOf(w)
		if w.Code != http.StatusSeeOther || c == nil || !c.HttpOnly || c.SameSite != http.SameSiteStrictMode || c.Secure != tls {
			t.Fatalf("the right password (TLS %v): %d, cookie %+v", tls, w.Code, c)
		}
		if p := f.page("/console", c); p.status != http.StatusOK || len(p.name) != 4 || !strings.Contains(p.body, "Table 1") {
			t.Errorf("the console with the session: %d, session %q", p.status, p.name)
		}
	}
	link := f.s.LoginLink()
	if p := f.page(link, nil); p.status != http.StatusOK || !strings.Contains(p.body, `name="once"`) {
		t.Fatalf("the one-time link's page: %d %q", p.status, p.body)
	}
	once := url.Values{"once": {strings.TrimPrefix(link, "/console/login?once=")}}
	if w := f.request("POST", "/console/login", once, nil); w.Code != http.StatusSeeOther || sessionOf(w) == nil {
		t.Errorf("the one-time link: %d, cookie %v", w.Code, sessionOf(w))
	}
	if w := f.request("POST", "/console/login", once, nil); w.Code != http.StatusUnauthorized || sessionOf(w) != nil {
		t.Errorf("the one-time link used twice: %d, cookie %v; want refused", w.Code, sessionOf(w))
	}
	// Logging out ends the session.
	c, _ := f.login()
	f.request("POST", "/console/logout", url.Values{}, c)
	if p := f.page("/console", c); p.status != http.StatusSeeOther {
		t.Errorf("the console after logging out: %d, want the login", p.status)
	}
}

var tlsState = tls.ConnectionState{HandshakeComplete: true}

// consoleWrites are the console's writes, each with a form that would act
// with a session: refused without one, and cross-origin.
var consoleWrites = []struct {
	path string
	form url.Values
}{
	{"/console/result", url.Values{"round": {"1"}, "table": {"1"}, "score": {"40-24"}}},
	{"/console/approve", url.Values{"round": {"1"}, "table": {"1"}, "side": {"black"}}},
	{"/console/reject", url.Values{"round": {"1"}, "table": {"1"}}},
	{"/console/withdraw", url.Values{"player": {"4"}}},
	{"/console/absent", url.Values{"player": {"4"}, "round": {"2"}}},
	{"/console/pair", url.Values{}},
	{"/console/undo", url.Values{"entry": {"1"}}},
	{"/console/logout", url.Values{}},
}

// TestConsoleWritesRefused: every write is refused without a session, and
// with one from another site's form (Sec-Fetch-Site, or an Origin that is
// not the console's); nothing is changed.
func TestConsoleWritesRefused(t *testing.T) {
	f := newConsole(t)
	if _, r1 := f.d.Report(context.Background(), f.id, f.links[0].Black.Long, app.ReportInput{Black: 40, White: 24}, "10.0.0.1", f.clock.now()); r1 != nil {
		t.Fatal(r1)
	}
	c, _ := f.login()
	before := f.lastEntry().ID
	crossSite := func(r *http.Request) { r.Header.Set("Sec-Fetch-Site", "cross-site") }
	otherOrigin := func(r *http.Request) { r.Header.Set("Origin", "http://evil.example") }
	for _, wr := range consoleWrites {
		for _, tc := range []struct {
			name   string
			cookie *http.Cookie
			edit   func(*http.Request)
		}{
			{"no session", nil, func(*http.Request) {}},
			{"a session unknown", &http.Cookie{Name: sessionCookie, Value: strings.Repeat("ab", 32)}, func(*http.Request) {}},
			{"cross-site", c, crossSite},
			{"another origin", c, otherOrigin},
		} {
			if w := f.request("POST", wr.path, wr.form, tc.cookie, tc.edit); w.Code != http.StatusForbidden {
				t.Errorf("%s, %s: %d, want 403", wr.path, tc.name, w.Code)
			}
		}
	}
	if got := f.lastEntry().ID; got != before {
		t.Errorf("the log's last entry is %d, was %d: a refused write changed the tournament", got, before)
	}
	if p := f.page("/console", c); p.status != http.StatusOK || !strings.Contains(p.body, "one report") {
		t.Errorf("the session was ended or the report dropped by a refused write: %d", p.status)
	}
}

// TestConsoleApproveDispute: two reports that differ are a dispute on the
// console; the director records white's, and the log says the console
// session approved it.
func TestConsoleApproveDispute(t *testing.T) {
	f := newConsole(t)
	ctx := context.Background()
	for _, rep := range []struct {
		tok  string
		in   app.ReportInput
		addr string
	}{
		{f.links[0].Black.Long, app.ReportInput{Black: 40, White: 24}, "10.0.0.1"},
		{f.links[0].White.Long, app.ReportInput{Black: 24, White: 40}, "10.0.0.2"},
	} {
		if _, err := f.d.Report(ctx, f.id, rep.tok, rep.in, rep.addr, f.clock.now()); err != nil {
			t.Fatal(err)
		}
	}
	c, name := f.login()
	p := f.page("/console", c)
	if !strings.Contains(p.body, "disputed") || !strings.Contains(p.body, "10.0.0.2") || strings.Contains(p.body, scriptName) {
		t.Fatalf("the console does not show the dispute (or a name unescaped): %s", p.body)
	}
	// Each table's state is one class: "no report" is state-no-report.
	if !strings.Contains(p.body, `<li class="state-disputed">`) || !strings.Contains(p.body, `<li class="state-no-report">`) {
		t.Errorf("the tables' classes: want state-disputed and state-no-report in %s", p.body)
	}
	approve := url.Values{"round": {"1"}, "table": {"1"}}
	if w := f.request("POST", "/console/approve", approve, c); w.Code != http.StatusSeeOther {
		t.Fatalf("approving: %d", w.Code)
	}
	if p := f.page("/console", c); !strings.Contains(p.body, template.HTMLEscapeString(app.ErrReportsDiffer.Error())) {
		t.Errorf("approving a dispute without a side: the refusal is not shown")
	}
	approve.Set("side", "white")
	f.request("POST", "/console/approve", approve, c)
	g := f.game(1, 1)
	if g.Result == nil || g.Result.Black != 24 || g.Result.White != 40 {
		t.Fatalf("round 1 table 1 after approving white's report: %v, want 24-40", g.Result)
	}
	if by := f.lastEntry().Actor.String(); !strings.Contains(by, "white from 10.0.0.2") || !strings.HasSuffix(by, "approved by console session "+name+" (password from 127.0.0.1)") {
		t.Errorf("the log's actor: %q, want white's report approved by console session %s (password from 127.0.0.1)", by, name)
	}
}

// TestConsoleResultOverReports: the director enters on the console the
// result of a game both of whose reports came from one address: the log
// keeps the reports (which side, from where, when, what) and the session,
// which says how it logged in (here a one-time link, from a tablet).
func TestConsoleResultOverReports(t *testing.T) {
	f := newConsole(t)
	ctx := context.Background()
	at := f.clock.now()
	for _, tok := range []string{f.links[0].Black.Long, f.links[0].White.Long} {
		if _, err := f.d.Report(ctx, f.id, tok, app.ReportInput{Black: 40, White: 24}, "10.0.0.1", at); err != nil {
			t.Fatal(err)
		}
	}
	once := url.Values{"once": {strings.TrimPrefix(f.s.LoginLink(), "/console/login?once=")}}
	c := sessionOf(f.request("POST", "/console/login", once, nil, from("192.168.1.7:5000"), overTLS))
	if c == nil {
		t.Fatal("the one-time link opened no session")
	}
	f.request("POST", "/console/result", url.Values{"round": {"1"}, "table": {"1"}, "score": {"40-24"}}, c, from("192.168.1.7:5000"), overTLS)
	if g := f.game(1, 1); g.Result == nil || g.Result.String() != "40-24" {
		t.Fatalf("round 1 table 1: %v, want 40-24", g.Result)
	}
	clock := at.Format(time.TimeOnly)
	want := " (one-time link from 192.168.1.7) entered the result; reports: black from 10.0.0.1 at " + clock + " (40-24), white from 10.0.0.1 at " + clock + " (40-24)"
	if by := f.lastEntry().Actor.String(); !strings.HasPrefix(by, "console session ") || !strings.HasSuffix(by, want) {
		t.Errorf("the log's actor: %q, want console session NAME%s", by, want)
	}
}

// TestConsoleUndo: the undo page shows the last change, whoever made it,
// and its form undoes that change; a change made since the page was shown
// is not undone in its place.
func TestConsoleUndo(t *testing.T) {
	f := newConsole(t)
	c, name := f.login()
	f.request("POST", "/console/result", url.Values{"round": {"1"}, "table": {"2"}, "score": {"33-31"}}, c)
	last := f.lastEntry()
	if g := f.game(1, 2); g.Result == nil || g.Result.String() != "33-31" || last.Actor.String() != "console session "+name+" (password from 127.0.0.1)" {
		t.Fatalf("the result entered: %v by %q", g.Result, last.Actor)
	}
	p := f.page("/console/undo", c)
	if !strings.Contains(p.body, fmt.Sprintf("Entry %d", last.ID)) || !strings.Contains(p.body, "console session "+name) {
		t.Fatalf("the undo page does not show entry %d by the session: %s", last.ID, p.body)
	}
	// A change from the command line comes meanwhile: the form shown is stale.
	if _, err := f.d.Record(context.Background(), f.id, tournament.At(1, 1), tournament.ResultInput{Black: 40, White: 24, HasScore: true}); err != nil {
		t.Fatal(err)
	}
	f.request("POST", "/console/undo", url.Values{"entry": {fmt.Sprint(last.ID)}}, c)
	if g := f.game(1, 1); g.Result == nil {
		t.Errorf("a stale undo form undid the newer change")
	}
	newest := f.lastEntry()
	f.request("POST", "/console/undo", url.Values{"entry": {fmt.Sprint(newest.ID)}}, c)
	if g := f.game(1, 1); g.Result != nil {
		t.Errorf("round 1 table 1 after undoing it: %v, want no result", g.Result)
	}
	if g := f.game(1, 2); g.Result == nil {
		t.Errorf("undo undid round 1 table 2 too")
	}
}

// TestConsolePair: with round 1's results entered on the console, it pairs
// round 2 and shows why each pair was paired.
func TestConsolePair(t *testing.T) {
	f := newConsole(t)
	c, _ := f.login()
	f.request("POST", "/console/result", url.Values{"round": {"1"}, "table": {"1"}, "score": {"40-24"}}, c)
	f.request("POST", "/console/result", url.Values{"round": {"1"}, "table": {"2"}, "end": {"forfeit"}, "side": {"white"}}, c)
	w := f.request("POST", "/console/pair", url.Values{}, c)
	if loc := w.Header().Get("Location"); w.Code != http.StatusSeeOther || loc != "/console/explain" {
		t.Fatalf("pairing: %d to %q, want the explanation", w.Code, loc)
	}
	tm, _ := f.d.Tournament(context.Background(), f.id)
	if tm.Paired() != 2 {
		t.Fatalf("rounds paired: %d, want 2", tm.Paired())
	}
	// The winners (1 and 3) meet: the score gap is 0.
	p := f.page("/console/explain", c)
	if !strings.Contains(p.body, "Round 2: why these pairs") || !strings.Contains(p.body, "Round 2 paired") {
		t.Errorf("the explanation after pairing: %s", p.body)
	}
	g := tm.Round(2)[0]
	if min(g.Black, g.White) != 1 || max(g.Black, g.White) != 3 {
		t.Errorf("round 2 table 1: %d-%d, want the winners 1 and 3", g.Black, g.White)
	}
}

// TestConsoleLoginLimit: 1,000 wrong passwords from one address at once
// are checked only loginLimits.failBurst times, the rest refused unchecked;
// from 1,000 addresses, only loginLimits.allFailBurst are; none logs in; time
// passing lets one more be tried.
func TestConsoleLoginLimit(t *testing.T) {
	f := newConsole(t)
	count := func(addr func(i int) string, edit ...func(*http.Request)) (checked, slowed int) {
		for i := range 1000 {
			w := f.request("POST", "/console/login", url.Values{"password": {fmt.Sprintf("guess %d", i)}}, nil, append([]func(*http.Request){from(addr(i))}, edit...)...)
			switch {
			case sessionOf(w) != nil:
				t.Fatalf("guess %d logged in", i)
			case w.Code == http.StatusUnauthorized:
				checked++
			case w.Code == http.StatusTooManyRequests:
				slowed++
			default:
				t.Fatalf("guess %d: %d", i, w.Code)
			}
		}
		return checked, slowed
	}
	if checked, slowed := count(func(int) string { return "127.0.0.9:4000" }); checked != loginLimits.failBurst || slowed != 1000-loginLimits.failBurst {
		t.Errorf("one address: %d checked, %d slowed; want %d checked", checked, slowed, loginLimits.failBurst)
	}
	f.clock.add(6 * time.Second) // one more for the address, at 10 a minute
	if checked, _ := count(func(int) string { return "127.0.0.9:4000" }); checked != 1 {
		t.Errorf("one address, 6 s later: %d checked, want 1", checked)
	}
	f.clock.add(time.Hour)
	if checked, _ := count(func(i int) string { return fmt.Sprintf("10.0.%d.%d:4000", i/250, 1+i%250) }, overTLS); checked != loginLimits.allFailBurst {
		t.Errorf("1,000 addresses: %d checked, want the overall bound %d", checked, loginLimits.allFailBurst)
	}
	// The right password from another computer is refused too while the
	// overall bound holds.
	if w := f.request("POST", "/console/login", url.Values{"password": {directorPassword}}, nil, from("192.168.1.7:5000"), overTLS); w.Code != http.StatusTooManyRequests {
		t.Errorf("the right password from another computer while slowed: %d, want 429", w.Code)
	}
}

func overTLS(r *http.Request) { r.TLS = &tlsState }

// TestConsoleLoginNotLockedOut: guesses from the room (40 addresses, 6
// wrong passwords each) spend the overall bound of login failures, but not
// the director's logins: from this computer (loopback), and with a valid
// one-time link from another; a loopback address's own failures still
// slow it down.
func TestConsoleLoginNotLockedOut(t *testing.T) {
	f := newConsole(t)
	for i := range 40 {
		for j := range 6 {
			f.request("POST", "/console/login", url.Values{"password": {fmt.Sprint("guess ", j)}}, nil, from(fmt.Sprintf("192.168.1.%d:5000", 10+i)), overTLS)
		}
	}
	if w := f.request("POST", "/console/login", url.Values{"password": {directorPassword}}, nil, from("192.168.1.200:5000"), overTLS); w.Code != http.StatusTooManyRequests {
		t.Fatalf("the overall bound is not spent: another computer's right password got %d, want 429", w.Code)
	}
	if w := f.request("POST", "/console/login", url.Values{"password": {directorPassword}}, nil); w.Code != http.StatusSeeOther || sessionOf(w) == nil {
		t.Errorf("the right password from this computer: %d, want a session", w.Code)
	}
	once := url.Values{"once": {strings.TrimPrefix(f.s.LoginLink(), "/console/login?once=")}}
	if w := f.request("POST", "/console/login", once, nil, from("192.168.1.201:5000"), overTLS); w.Code != http.StatusSeeOther || sessionOf(w) == nil {
		t.Errorf("a valid one-time link from another computer: %d, want a session", w.Code)
	}
	if w := f.request("POST", "/console/login", once, nil, from("192.168.1.202:5000"), overTLS); w.Code != http.StatusTooManyRequests {
		t.Errorf("a used one-time link from another computer: %d, want 429 (the overall bound)", w.Code)
	}
	// Loopback's own failures: failBurst are checked, then it is slowed.
	for range loginLimits.failBurst {
		f.request("POST", "/console/login", url.Values{"password": {"wrong"}}, nil)
	}
	if w := f.request("POST", "/console/login", url.Values{"password": {directorPassword}}, nil); w.Code != http.StatusTooManyRequests {
		t.Errorf("the right password from this computer after %d failures of its own: %d, want 429", loginLimits.failBurst, w.Code)
	}
}

// TestConsoleLoopbackOnly: over plain HTTP the console answers this
// computer only; another gets a page sending it to the HTTPS address, over
// HTTPS it is served.
func TestConsoleLoopbackOnly(t *testing.T) {
	f := newConsole(t)
	for _, tc := range []struct {
		addr   string
		tls    bool
		status int
	}{
		{"192.168.1.7:5000", false, http.StatusForbidden},
		{"[fe80::1]:5000", false, http.StatusForbidden},
		{"127.0.0.1:5000", false, http.StatusOK},
		{"[::1]:5000", false, http.StatusOK},
		{"192.168.1.7:5000", true, http.StatusOK},
	} {
		for _, path := range []string{"/console/login", "/console"} {
			w := f.request("GET", path, nil, nil, from(tc.addr), func(r *http.Request) {
				if tc.tls {
					r.TLS = &tlsState
				}
			})
			want := tc.status
			if path == "/console" && want == http.StatusOK {
				want = http.StatusSeeOther // to the login
			}
			if w.Code != want {
				t.Errorf("GET %s from %s (TLS %v): %d, want %d", path, tc.addr, tc.tls, w.Code, want)
			}
			if want == http.StatusForbidden && !strings.Contains(w.Body.String(), "HTTPS") {
				t.Errorf("GET %s from %s over HTTP: the page does not send it to the HTTPS address", path, tc.addr)
			}
		}
		w := f.request("POST", "/console/login", url.Values{"password": {directorPassword}}, nil, from(tc.addr), func(r *http.Request) {
			if tc.tls {
				r.TLS = &tlsState
			}
		})
		if got := sessionOf(w) != nil; got != (tc.status == http.StatusOK) {
			t.Errorf("login from %s (TLS %v): session %v", tc.addr, tc.tls, got)
		}
	}
}

// TestConsoleTranslated: every message of the console has its French and
// Japanese.
func TestConsoleTranslated(t *testing.T) {
	if missing := htmlpage.Untranslated(template.Must(htmlpage.Templates().Parse(consoleText))); len(missing) > 0 {
		t.Errorf("messages without a translation:\n%s", strings.Join(missing, "\n"))
	}
}

// TestConsoleFlashTranslated: what an action did is said in the
// director's language, the names and results as they are.
func TestConsoleFlashTranslated(t *testing.T) {
	f := newConsole(t)
	c, _ := f.login()
	lang := func(code string) func(*http.Request) {
		return func(r *http.Request) { r.Header.Set("Accept-Language", code) }
	}
	f.request("POST", "/console/result", url.Values{"round": {"1"}, "table": {"1"}, "score": {"40-24"}}, c)
	if body := f.request("GET", "/console", nil, c, lang("fr")).Body.String(); !strings.Contains(body, "Ronde 1, table 1 : 40-24 enregistré") {
		t.Errorf("a result recorded, in French: %s", body)
	}
	f.request("POST", "/console/withdraw", url.Values{"player": {"4"}}, c)
	if body := f.request("GET", "/console", nil, c, lang("ja")).Body.String(); !strings.Contains(body, "選手4を未組み合わせの回戦から棄権にしました") {
		t.Errorf("a player withdrawn, in Japanese: %s", body)
	}
}

// TestConsoleStreamBeyondMaxStreams: with MaxStreams public streams open
// (the phones following the pages), a director's session still follows
// the console's stream (/console/events), which its page's script opens; a
// request without a session is sent to the login.
func TestConsoleStreamBeyondMaxStreams(t *testing.T) {
	defer func(n int) { MaxStreams = n }(MaxStreams)
	MaxStreams = 1
	f := newConsole(t)
	cookie, _ := f.login()
	if body := f.request("GET", "/console", nil, cookie).Body.String(); !strings.Contains(body, `new EventSource("/console/events")`) {
		t.Errorf("the console's script does not follow /console/events:\n%s", body)
	}
	ts := httptest.NewServer(f.s)
	t.Cleanup(ts.Close) // after the streams end (t.Context, the server's)
	lines, _ := stream(t, ts.URL)
	next(t, lines)
	if resp, _ := get(t, "GET", ts.URL+"/events"); resp.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("a public stream beyond MaxStreams: status %d; want 503", resp.StatusCode)
	}
	follow := func(cookie *http.Cookie) *http.Response {
		req, _ := http.NewRequest("GET", ts.URL+"/console/events", nil)
		if cookie != nil {
			req.AddCookie(cookie)
		}
		resp, err := (&http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}).Do(req)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { resp.Body.Close() })
		return resp
	}
	if resp := follow(nil); resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/console/login" {
		t.Errorf("the console's stream without a session: status %d to %q; want 303 to the login", resp.StatusCode, resp.Header.Get("Location"))
	}
	resp := follow(cookie)
	line, err := bufio.NewReader(resp.Body).ReadString('\n')
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "text/event-stream" || err != nil || line != "retry: 2000\n" {
		t.Errorf("the console's stream: status %d, %q, first line %q, %v", resp.StatusCode, resp.Header.Get("Content-Type"), line, err)
	}
}

// TestConsoleSlips: the console's slips carry each side's stub as 'otd
// round slips' prints them: the QR code's long address, the short one and
// the code to type, on the serve's public address.
func TestConsoleSlips(t *testing.T) {
	f := newConsole(t)
	c, _ := f.login()
	p := f.page("/console/slips", c)
	for _, l := range f.links {
		for _, k := range []app.Token{l.Black, l.White} {
			// The console is opened at example.com (httptest's host),
			// the serve given no public address.
			for _, want := range []string{"http://example.com/r/" + k.Short, k.Printed()} {
				if !strings.Contains(p.body, want) {
					t.Errorf("the console's slips do not carry %q", want)
				}
			}
			if qr, _ := htmlpage.QR("http://example.com/r/" + k.Long); !strings.Contains(p.body, string(qr)) {
				t.Errorf("the console's slips do not carry the QR code of /r/%s", k.Long)
			}
		}
	}
	if p := f.page("/console/slips?table=2", c); !strings.Contains(p.body, "/r/"+f.links[1].White.Short) || strings.Contains(p.body, f.links[0].Black.Short) {
		t.Errorf("table 2's slip again: not its stubs alone")
	}
}

// TestConsoleRefusalNamesTheGameOnce: a result refused says which game once.
func TestConsoleRefusalNamesTheGameOnce(t *testing.T) {
	f := newConsole(t)
	c, _ := f.login()
	f.request("POST", "/console/result", url.Values{"round": {"1"}, "table": {"2"}, "score": {"70-3"}}, c)
	body := f.page("/console", c).body
	if n := strings.Count(body, "round 1 table 2"); n != 1 || !strings.Contains(body, "70-3") {
		t.Errorf("the refusal of 70-3 names round 1 table 2 %d times, want once:\n%s", n, body)
	}
}
