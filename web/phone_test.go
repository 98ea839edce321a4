package web

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/otd-project/otd/app"
	"github.com/otd-project/otd/internal/memstore"
	"github.com/otd-project/otd/tournament"
)

// clock is a clock the test moves (no sleeping).
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time      { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) add(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }

// venueSource is a Director on the store in memory, whose changes the
// server learns of as from SQLite's watcher when serve writes: Sync reports
// the change (the store in memory has no watcher of its own).
type venueSource struct {
	*app.Director
	changes chan struct{}
}

func (v venueSource) Changes(context.Context) (<-chan struct{}, error) { return v.changes, nil }

func (v venueSource) Sync(context.Context) error {
	select {
	case v.changes <- struct{}{}:
	default:
	}
	return nil
}

// venue is a served event of 4 players (2 named as a script), round 1
// paired 1-2 and 3-4, with the venue on.
type venue struct {
	s     *Server
	d     *app.Director
	id    int64
	links []app.ReportLink
	clock *clock
}

func newVenue(t *testing.T) *venue {
	t.Helper()
	ctx := context.Background()
	d := app.New(app.Store{Storage: memstore.New()})
	tm, err := d.Create(ctx, tournament.DefaultSettings("Venue <b>Open</b>", 3))
	if err != nil {
		t.Fatal(err)
	}
	var ops []tournament.Op
	for _, name := range []string{"Ann Archer", scriptName, "Cy Cole", "Di Dunn"} {
		ops = append(ops, func(t *tournament.Tournament) (tournament.Change, error) {
			return t.AddPlayer(tournament.PlayerInput{Name: name})
		})
	}
	ops = append(ops, func(t *tournament.Tournament) (tournament.Change, error) {
		return t.Pair(tournament.PairOptions{Manual: true, Forced: [][2]int{{1, 2}, {3, 4}}})
	})
	if _, _, err := d.DoForTest(ctx, tm.ID, ops...); err != nil {
		t.Fatal(err)
	}
	links, err := d.ReportLinks(ctx, tm.ID, 1)
	if err != nil || len(links) != 2 {
		t.Fatalf("ReportLinks: %v, %v", links, err)
	}
	c := &clock{t: time.Date(2026, 11, 21, 14, 2, 11, 0, time.UTC)}
	s, err := New(t.Context(), venueSource{d, make(chan struct{}, 1)}, tm.ID, WithVenue(d, ""), WithClock(c.now))
	if err != nil {
		t.Fatal(err)
	}
	return &venue{s, d, tm.ID, links, c}
}

// request is a request to path (a form if not nil: a POST).
func request(method, path string, form url.Values) *http.Request {
	if form == nil {
		return httptest.NewRequest(method, path, nil)
	}
	r := httptest.NewRequest(method, path, strings.NewReader(form.Encode()))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return r
}

// do sends a request from address addr (a form if not nil: a POST). An
// update stream's (a path ending in /events) is gone at once: the stream
// answers its first message, then ends.
func (v *venue) do(method, path string, form url.Values, addr string, header ...string) *httptest.ResponseRecorder {
	r := request(method, path, form)
	if strings.HasSuffix(path, "/events") {
		ctx, cancel := context.WithCancel(r.Context())
		cancel()
		r = r.WithContext(ctx)
	}
	r.RemoteAddr = addr + ":50000"
	for i := 0; i+1 < len(header); i += 2 {
		r.Header.Set(header[i], header[i+1])
	}
	w := httptest.NewRecorder()
	v.s.ServeHTTP(w, r)
	return w
}

// report posts form to a token's path from addr as a phone does: a report
// taken sends the phone to the page (303 to path) whose GET it returns; a
// refused one is answered at once.
func (v *venue) report(t *testing.T, path string, form url.Values, addr string, header ...string) *httptest.ResponseRecorder {
	t.Helper()
	w := v.do("POST", path, form, addr, header...)
	if w.Code != http.StatusSeeOther {
		return w
	}
	if loc := w.Header().Get("Location"); loc != strings.TrimSuffix(path, "/call") {
		t.Errorf("a report to %s sends to %q", path, loc)
	}
	return v.do("GET", w.Header().Get("Location"), nil, addr, header...)
}

func discs(b, w string) url.Values { return url.Values{"black": {b}, "white": {w}} }

// tok is table's side's token: long, or short as a phone may type it.
func (v *venue) tok(table int, side tournament.Color, short bool) string {
	k := v.links[table-1].Black
	if side == tournament.White {
		k = v.links[table-1].White
	}
	if short {
		return strings.ToLower(k.Printed())
	}
	return k.Long
}

func expect(t *testing.T, w *httptest.ResponseRecorder, status int, says ...string) {
	t.Helper()
	if w.Code != status {
		t.Errorf("status %d, want %d: %s", w.Code, status, w.Body)
	}
	for _, s := range says {
		if !strings.Contains(w.Body.String(), s) {
			t.Errorf("the page does not say %q:\n%s", s, w.Body)
		}
	}
}

// TestPhoneAgree: both sides report the same result (34-29 and 35-29 are
// one after RULES.md section 2), the long code and the short one typed in
// lower case: recorded, the log naming both sides and addresses; a report
// by the codes is then refused with the director's word, their pages say
// the result.
func TestPhoneAgree(t *testing.T) {
	v := newVenue(t)
	B, W := tournament.Black, tournament.White
	w := v.do("GET", "/r/"+v.tok(1, B, false), nil, "10.0.0.1")
	expect(t, w, 200, "Round 1, table 1", "You report for Black: Ann Archer.", "&lt;script&gt;alert(1)&lt;/script&gt;", `action="/r/`+v.tok(1, B, false)+`"`)
	if strings.Contains(w.Body.String(), scriptName) {
		t.Error("a name that is a script is not escaped")
	}
	if got := w.Header().Get("Referrer-Policy"); got != "no-referrer" {
		t.Errorf("Referrer-Policy %q", got)
	}
	expect(t, v.report(t, "/r/"+v.tok(1, B, false), discs("35", "29"), "10.0.0.1"), 200, "waiting for your opponent", "Your report: 35-29.")
	v.clock.add(29 * time.Second)
	expect(t, v.report(t, "/r/"+v.tok(1, W, true), discs("34", "29"), "10.0.0.2"), 200, "Recorded: 35-29. Thank you.")
	_, log, err := v.d.Log(context.Background(), v.id)
	if err != nil {
		t.Fatal(err)
	}
	want := "report: black from 10.0.0.1 at 14:02:11 (35-29), white from 10.0.0.2 at 14:02:40 (34-29)"
	if got := log[len(log)-1].Actor.String(); got != want {
		t.Errorf("the log's actor: %q, want %q", got, want)
	}
	for _, short := range []bool{false, true} {
		expect(t, v.do("POST", "/r/"+v.tok(1, B, short), discs("40", "24"), "10.0.0.1"), http.StatusConflict, "only the director can change it now")
		expect(t, v.do("GET", "/r/"+v.tok(1, W, short), nil, "10.0.0.2"), 200, "Recorded: 35-29. Thank you.", "Only the director can change the result now.")
	}
}

// TestPhoneRedirect: a report taken answers with a redirect to the page
// (POST, redirect, GET: a reload does not send it again), which says what
// came of it from the game's state, live while the phone waits (the public
// pages' script, allowed by the Content-Security-Policy); the other side's
// page, before it reports, says the opponent reported and is not reloaded
// under the player's typing; once recorded, both pages say the result.
func TestPhoneRedirect(t *testing.T) {
	v := newVenue(t)
	B, W := tournament.Black, tournament.White
	black, white := "/r/"+v.tok(1, B, false), "/r/"+v.tok(1, W, true)
	w := v.do("POST", black, discs("40", "24"), "10.0.0.1")
	if w.Code != http.StatusSeeOther || w.Header().Get("Location") != black {
		t.Fatalf("a report: %d to %q, want 303 to %s", w.Code, w.Header().Get("Location"), black)
	}
	w = v.do("GET", black, nil, "10.0.0.1")
	expect(t, w, 200, "Your report is in: waiting for your opponent", "Your report: 40-24.", string(scriptTag))
	if !strings.Contains(w.Header().Get("Content-Security-Policy"), "'sha256-") {
		t.Errorf("the waiting page's Content-Security-Policy %q allows no script", w.Header().Get("Content-Security-Policy"))
	}
	w = v.do("GET", white, nil, "10.0.0.2")
	expect(t, w, 200, "Your opponent has reported: send yours.")
	if strings.Contains(w.Body.String(), "<script") {
		t.Error("the page of a side that has not reported reloads itself")
	}
	// What the page says comes from the game, not from the address.
	if w = v.do("GET", black+"?state=recorded&result=64-0&recorded=1", nil, "10.0.0.1"); strings.Contains(w.Body.String(), "Recorded") {
		t.Errorf("a forged query string makes the page say recorded:\n%s", w.Body)
	}
	w = v.do("POST", white, discs("40", "24"), "10.0.0.2")
	if w.Code != http.StatusSeeOther || w.Header().Get("Location") != white {
		t.Fatalf("the report that records: %d to %q, want 303 to %s", w.Code, w.Header().Get("Location"), white)
	}
	for _, page := range []string{black, white} {
		w := v.do("GET", page, nil, "10.0.0.1")
		expect(t, w, 200, "Recorded: 40-24. Thank you.")
		if strings.Contains(w.Body.String(), "<script") || strings.Contains(w.Body.String(), "<form") {
			t.Errorf("%s once recorded: a script or a form:\n%s", page, w.Body)
		}
	}
}

// TestPhoneStates: a dispute, one phone reporting both sides, a call, a
// contradiction by the moves, discs that are no numbers; in French too.
func TestPhoneStates(t *testing.T) {
	B, W := tournament.Black, tournament.White
	v := newVenue(t)
	expect(t, v.report(t, "/r/"+v.tok(1, B, false), discs("40", "24"), "10.0.0.1"), 200)
	expect(t, v.report(t, "/r/"+v.tok(1, W, false), discs("24", "40"), "10.0.0.2"), 200, "The two reports differ")
	expect(t, v.report(t, "/r/"+v.tok(2, B, false), discs("40", "24"), "10.0.0.3"), 200)
	expect(t, v.report(t, "/r/"+v.tok(2, W, false), discs("40", "24"), "10.0.0.3"), 200, "Both reports came from one phone")

	v = newVenue(t)
	expect(t, v.report(t, "/r/"+v.tok(1, W, false)+"/call", url.Values{}, "10.0.0.2"), 200, "The director is called", "You called the director.")
	// Five moves finish no game: 64-0 is not what they give.
	form := discs("64", "0")
	form.Set("moves", "f5d6c3d3c4")
	expect(t, v.do("POST", "/r/"+v.tok(2, B, false), form, "10.0.0.3"), http.StatusUnprocessableEntity, "The moves stop before the end of the game", "the moves stop at move 5", "f5d6c3d3c4")
	expect(t, v.report(t, "/r/"+v.tok(2, B, false), discs("forty", ""), "10.0.0.3"), 200, "whole numbers from 0 to 64", `value="forty"`)
	expect(t, v.report(t, "/r/"+v.tok(2, W, false), discs("40", "24"), "10.0.0.4", "Accept-Language", "fr"), 200, "Votre déclaration est reçue")
	expect(t, v.do("GET", "/r/"+v.tok(2, W, false), nil, "10.0.0.4", "Accept-Language", "ja"), 200, "報告を受け付けました", "あなたの報告：40-24。")
}

// TestPhoneRepaired: a round unpaired and paired anew: its old codes are
// unknown.
func TestPhoneRepaired(t *testing.T) {
	v := newVenue(t)
	ctx := context.Background()
	old := v.tok(1, tournament.Black, true)
	expect(t, v.do("GET", "/r/"+old, nil, "10.0.0.1"), 200)
	if _, err := v.d.Unpair(ctx, v.id); err != nil {
		t.Fatal(err)
	}
	if _, err := v.d.Pair(ctx, v.id, tournament.PairOptions{Manual: true, Forced: [][2]int{{1, 3}, {2, 4}}}); err != nil {
		t.Fatal(err)
	}
	expect(t, v.do("GET", "/r/"+old, nil, "10.0.0.1"), http.StatusNotFound, "Unknown code")
	expect(t, v.do("POST", "/r/"+old, discs("40", "24"), "10.0.0.1"), http.StatusNotFound, "Unknown code")
}

// TestCodeForm: the home page's form of a slip's code, with the venue on
// only; the code typed goes to its page.
func TestCodeForm(t *testing.T) {
	v := newVenue(t)
	expect(t, v.do("GET", "/", nil, "10.0.0.1"), 200, "Enter the code on your slip", `action="/r"`)
	w := v.do("GET", "/r?code="+url.QueryEscape(" "+v.tok(1, tournament.White, true)+" "), nil, "10.0.0.1")
	want := "/r/" + strings.ToUpper(strings.ReplaceAll(v.tok(1, tournament.White, true), "-", ""))
	if w.Code != http.StatusSeeOther || w.Header().Get("Location") != want {
		t.Errorf("the code's form: %d to %q, want 303 to %q", w.Code, w.Header().Get("Location"), want)
	}
	expect(t, v.do("GET", want, nil, "10.0.0.1"), 200, "You report for White")
	// As a phone's keyboard may type it: en dashes, a minus sign, spaces.
	part := strings.Split(v.tok(1, tournament.White, true), "-")
	typed := part[0][:2] + " " + part[0][2:] + "–" + part[1] + "−" + part[2]
	w = v.do("GET", "/r?code="+url.QueryEscape(typed), nil, "10.0.0.1")
	if w.Code != http.StatusSeeOther || w.Header().Get("Location") != want {
		t.Errorf("the code typed %q: %d to %q, want 303 to %q", typed, w.Code, w.Header().Get("Location"), want)
	}
	expect(t, v.do("GET", "/r/"+url.PathEscape(strings.ReplaceAll(v.tok(1, tournament.White, true), "-", "—")), nil, "10.0.0.1"), 200, "You report for White")

	ts, _, cancel := newServer(t) // without the venue
	defer cancel()
	_, body := get(t, "GET", ts.URL+"/")
	if strings.Contains(body, "Enter the code") {
		t.Error("the code's form on a read-only server")
	}
}

// TestPhoneFollowsTheRush: a phone waiting for its opponent reloads its
// page at each change of the event; in a rush (3 changes a second, other
// games' reports) its 100 reloads are all served, with the live script:
// a valid code's page is not counted against the address's requests.
func TestPhoneFollowsTheRush(t *testing.T) {
	v := newVenue(t)
	phone := "10.0.0.1"
	expect(t, v.report(t, "/r/"+v.tok(1, tournament.Black, false), discs("40", "24"), phone), 200, "waiting for your opponent")
	for i := range 100 {
		side, score := tournament.Black, discs("40", "24")
		if i%2 == 1 {
			side, score = tournament.White, discs("24", "40")
		}
		if w := v.do("POST", "/r/"+v.tok(2, side, false), score, fmt.Sprintf("10.3.0.%d", i+1)); w.Code != http.StatusSeeOther {
			t.Fatalf("table 2's report %d: %d", i, w.Code)
		}
		v.clock.add(time.Second / 3)
		w := v.do("GET", "/r/"+v.tok(1, tournament.Black, false), nil, phone)
		if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), "new EventSource") {
			t.Fatalf("the phone's reload %d: %d, want its page with the live script:\n%s", i, w.Code, w.Body)
		}
	}
}

// TestPhoneRefusalTranslated: impossible discs are refused in the
// reader's language, with the discs sent.
func TestPhoneRefusalTranslated(t *testing.T) {
	v := newVenue(t)
	for lang, says := range map[string]string{
		"en": "These discs cannot be (40-30)",
		"fr": "Ces pions sont impossibles (40-30)",
		"ja": "この石数はありえません（40-30）",
	} {
		expect(t, v.do("POST", "/r/"+v.tok(1, tournament.Black, false), discs("40", "30"), "10.0.0.1", "Accept-Language", lang), http.StatusUnprocessableEntity, says)
	}
}

// TestPhoneSlowed: an address that mistyped a code too often is answered
// 429 with a page in its reader's language that says to wait or ask the
// director, and when to try again.
func TestPhoneSlowed(t *testing.T) {
	v := newVenue(t)
	var w *httptest.ResponseRecorder
	for range 100 {
		if w = v.do("GET", "/r/0000000000000", nil, "10.0.0.9", "Accept-Language", "fr"); w.Code == http.StatusTooManyRequests {
			break
		}
	}
	expect(t, w, http.StatusTooManyRequests, "Trop d&#39;essais : attendez une minute, ou demandez à l&#39;arbitre.", `<html lang="fr"`)
	if w.Header().Get("Retry-After") == "" || !strings.HasPrefix(w.Header().Get("Content-Type"), "text/html") {
		t.Errorf("the 429: Retry-After %q, Content-Type %q", w.Header().Get("Retry-After"), w.Header().Get("Content-Type"))
	}
	expect(t, v.do("GET", "/r/"+v.tok(1, tournament.Black, false), nil, "10.0.0.9", "Accept-Language", "ja"), http.StatusTooManyRequests, "試行回数が多すぎます")
}

// TestPhoneTooLarge: a report of a megabyte is refused 413 with a short
// page, its form not read.
func TestPhoneTooLarge(t *testing.T) {
	v := newVenue(t)
	form := discs("40", "24")
	form.Set("moves", strings.Repeat("f5", 1<<19))
	w := v.do("POST", "/r/"+v.tok(1, tournament.Black, false), form, "10.0.0.1")
	expect(t, w, http.StatusRequestEntityTooLarge, "This report is too long")
	if strings.Contains(w.Body.String(), "Enter the discs") {
		t.Error("a report too long is answered as discs left out")
	}
	if tb, _ := v.d.VenueTables(context.Background(), v.id); tb[0].State != app.NoReport {
		t.Errorf("table 1 after a report too long: %s", tb[0].State)
	}
}

// realGame is a real game's moves (cmd/otd/cli/testdata/script/result_moves.txtar,
// its slip and 'otd verify'): it ends 8-56 at move 60; its first 20 moves
// leave 19-5 with 40 empty squares.
const realGame = "c4e3f4c5d6f3d3c2f2e2c3b5e1c6a6d2c1f6f5e6f7b6c7d1a5d7e8f1g1e7f8c8d8g8g7h8g6h5h7h6g5g4a4a3g2g3b4b3b2b7a8b8a7a2h2h3h1b1a1h4"

// TestPhoneRefusalPage: a report refused (moves that contradict the discs,
// moves that stop before the end, impossible discs, 0-0) is answered with
// the code's own page: its game, players and side, the form as sent, and
// why in the player's words, never the command line's.
func TestPhoneRefusalPage(t *testing.T) {
	v := newVenue(t)
	code := "/r/" + v.tok(1, tournament.Black, false)
	withMoves := func(moves string) url.Values {
		f := discs("40", "24")
		f.Set("moves", moves)
		return f
	}
	page := []string{"Round 1, table 1", "1 Ann Archer", "You report for Black: Ann Archer.", "Black&#39;s discs (Ann Archer)"}
	for _, tc := range []struct {
		form url.Values
		says []string
	}{
		{withMoves(realGame), []string{`value="40"`, `value="24"`, realGame, "The moves end the game with 8-56, not with the discs you entered", "the moves end the game at move 60, 8-56"}},
		{withMoves(realGame[:40]), []string{"The moves stop before the end of the game: enter them all, or call the director.", "the moves stop at move 20, 19-5 with 40 empty squares"}},
		{withMoves("c4e3f4c5d6f3a1"), []string{"The moves do not replay", "move 7, a1 by black"}},
		{withMoves("f5 zz9"), []string{"The moves cannot be read", `found &#34;zz9&#34;`}},
		{discs("0", "0"), []string{"No game ends with no disc on the board (0-0)"}},
		{discs("40", "30"), []string{"These discs cannot be (40-30)", `value="30"`}},
	} {
		w := v.do("POST", code, tc.form, "10.0.0.1")
		expect(t, w, http.StatusUnprocessableEntity, append(page, tc.says...)...)
		for _, not := range []string{"(not known)", "game 0", "--time-default", "--moves", "the result entered", "together no more than the board"} {
			if strings.Contains(w.Body.String(), not) && tc.form.Get("white") != "30" {
				t.Errorf("the refusal of %v says %q", tc.form, not)
			}
		}
	}
	expect(t, v.do("POST", code, withMoves(realGame), "10.0.0.1", "Accept-Language", "fr"), http.StatusUnprocessableEntity, "Les coups finissent la partie à 8-56")
	expect(t, v.do("POST", code, withMoves(realGame), "10.0.0.1", "Accept-Language", "ja"), http.StatusUnprocessableEntity, "棋譜では8-56で終局します")
}
