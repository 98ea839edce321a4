package web

import (
	"context"
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
// server is not told of (the phone pages read the venue at each request).
type venueSource struct{ *app.Director }

func (venueSource) Changes(context.Context) (<-chan struct{}, error) { return make(chan struct{}), nil }

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
	s, err := New(t.Context(), venueSource{d}, tm.ID, WithVenue(d, ""), WithClock(c.now))
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
// lower case: recorded, the log naming both sides and addresses; the codes
// are then refused with the director's word.
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
	expect(t, v.do("POST", "/r/"+v.tok(1, B, false), discs("35", "29"), "10.0.0.1"), 200, "waiting for your opponent", "Your report: 35-29.")
	v.clock.add(29 * time.Second)
	expect(t, v.do("POST", "/r/"+v.tok(1, W, true), discs("34", "29"), "10.0.0.2"), 200, "Recorded. Thank you.")
	_, log, err := v.d.Log(context.Background(), v.id)
	if err != nil {
		t.Fatal(err)
	}
	want := "report: black from 10.0.0.1 at 14:02:11, white from 10.0.0.2 at 14:02:40"
	if got := log[len(log)-1].Actor.String(); got != want {
		t.Errorf("the log's actor: %q, want %q", got, want)
	}
	for _, short := range []bool{false, true} {
		expect(t, v.do("POST", "/r/"+v.tok(1, B, short), discs("40", "24"), "10.0.0.1"), http.StatusConflict, "only the director can change it now")
		expect(t, v.do("GET", "/r/"+v.tok(1, W, short), nil, "10.0.0.2"), http.StatusConflict, "only the director can change it now")
	}
}

// TestPhoneStates: a dispute, one phone reporting both sides, a call, a
// contradiction by the moves, discs that are no numbers; in French too.
func TestPhoneStates(t *testing.T) {
	B, W := tournament.Black, tournament.White
	v := newVenue(t)
	expect(t, v.do("POST", "/r/"+v.tok(1, B, false), discs("40", "24"), "10.0.0.1"), 200)
	expect(t, v.do("POST", "/r/"+v.tok(1, W, false), discs("24", "40"), "10.0.0.2"), 200, "The two reports differ")
	expect(t, v.do("POST", "/r/"+v.tok(2, B, false), discs("40", "24"), "10.0.0.3"), 200)
	expect(t, v.do("POST", "/r/"+v.tok(2, W, false), discs("40", "24"), "10.0.0.3"), 200, "Both reports came from one phone")

	v = newVenue(t)
	expect(t, v.do("POST", "/r/"+v.tok(1, W, false)+"/call", url.Values{}, "10.0.0.2"), 200, "The director is called", "You called the director.")
	// Five moves finish no game: 64-0 is not what they give.
	form := discs("64", "0")
	form.Set("moves", "f5d6c3d3c4")
	expect(t, v.do("POST", "/r/"+v.tok(2, B, false), form, "10.0.0.3"), http.StatusUnprocessableEntity, "The moves contradict the result: ", "f5d6c3d3c4")
	expect(t, v.do("POST", "/r/"+v.tok(2, B, false), discs("forty", ""), "10.0.0.3"), 200, "whole numbers from 0 to 64", `value="forty"`)
	expect(t, v.do("POST", "/r/"+v.tok(2, W, false), discs("40", "24"), "10.0.0.4", "Accept-Language", "fr"), 200, "Votre déclaration est reçue")
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

	ts, _, cancel := newServer(t) // without the venue
	defer cancel()
	_, body := get(t, "GET", ts.URL+"/")
	if strings.Contains(body, "Enter the code") {
		t.Error("the code's form on a read-only server")
	}
}
