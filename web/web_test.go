package web

import (
	"bufio"
	"context"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/otd-project/otd/tournament"
)

const scriptName = "<script>alert(1)</script>"

// opening is the first 20 moves of examples/game.txt: the moves of round 1
// table 1 (the viewer does not check them against the result).
const opening = "c4e3f4c5d6f3d3c2f2e2c3b5e1c6a6d2c1f6f5e6"

// event is a 2-round event of 4 players: round 1 finished (1-2 40-24 with
// its moves, 3-4 30-34 without), round 2 paired (2-3, 4-1) without results.
func event() *tournament.Tournament {
	t := &tournament.Tournament{Settings: tournament.DefaultSettings("Club <b>Cup</b>", 3)}
	for i, name := range []string{"LEADER, Imre", scriptName, "Ann Archer", "Cy Cole"} {
		t.Players = append(t.Players, tournament.Player{Number: i + 1, Name: name, FirstRound: 1})
	}
	res := func(b, w int) *tournament.Result {
		return &tournament.Result{Black: b, White: w, Kind: tournament.Normal}
	}
	t.Games = []tournament.Game{
		{Round: 1, Table: 1, Black: 1, White: 2, Result: &tournament.Result{Black: 40, White: 24, Kind: tournament.Normal, Moves: opening}},
		{Round: 1, Table: 2, Black: 3, White: 4, Result: res(30, 34)},
		{Round: 2, Table: 1, Black: 2, White: 3},
		{Round: 2, Table: 2, Black: 4, White: 1},
	}
	return t
}

// source is a Source in memory: set replaces the tournament and reports a change.
type source struct {
	mu      sync.Mutex
	t       *tournament.Tournament
	changes chan struct{}
}

func (s *source) Tournament(_ context.Context, id int64) (*tournament.Tournament, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if id != s.t.ID {
		return nil, fmt.Errorf("tournament %d: %w", id, tournament.ErrNoTournament)
	}
	return s.t, nil
}

func (s *source) Changes(context.Context) (<-chan struct{}, error) {
	return s.changes, nil
}

func (s *source) set(t *tournament.Tournament) {
	s.mu.Lock()
	s.t = t
	s.mu.Unlock()
	s.changes <- struct{}{}
}

func newServer(t testing.TB) (*httptest.Server, *source, context.CancelFunc) {
	t.Helper()
	return serverOf(t, event())
}

// serverOf serves tm.
func serverOf(t testing.TB, tm *tournament.Tournament) (*httptest.Server, *source, context.CancelFunc) {
	t.Helper()
	src := &source{t: tm, changes: make(chan struct{})}
	ctx, cancel := context.WithCancel(context.Background())
	h, err := New(ctx, src, src.t.ID)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(h)
	t.Cleanup(func() { cancel(); ts.Close(); close(src.changes) })
	return ts, src, cancel
}

func get(t *testing.T, method, url string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(method, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, string(b)
}

// fetch gets url and checks the status and that the page has each of want.
func fetch(t *testing.T, url string, status int, want []string) (*http.Response, string) {
	t.Helper()
	resp, body := get(t, "GET", url)
	if resp.StatusCode != status {
		t.Fatalf("status %d; want %d\n%s", resp.StatusCode, status, body)
	}
	for _, w := range want {
		if !strings.Contains(body, w) {
			t.Errorf("the page lacks %q:\n%s", w, body)
		}
	}
	return resp, body
}

const escaped = "&lt;script&gt;alert(1)&lt;/script&gt;"

// TestPages: every page, its status, type and key facts; every name is
// text (the one script is the page's own).
func TestPages(t *testing.T) {
	ts, _, _ := newServer(t)
	tests := []struct {
		path   string
		status int
		want   []string
	}{
		{"/", 200, []string{"Round 2: where do I play?", `<td class="n">1</td><td>2 ` + escaped + `</td><td>3 Ann Archer</td><td></td>`, `name="q"`}},
		{"/?q=ann", 200, []string{`<a href="/player/3">Ann Archer</a>: table 1, white, against 2 ` + escaped}},
		{"/?q=LEADER", 200, []string{`<a href="/player/1">LEADER, Imre</a>: table 2, white, against 4 Cy Cole`}},
		{"/?q=%3Cscript", 200, []string{`<a href="/player/2">` + escaped + `</a>: table 1, black, against 3 Ann Archer`}},
		{"/?q=nobody", 200, []string{"No player of this round is named “nobody”."}},
		{"/standings", 200, []string{"Standings after round 1 of 3", `<td class="n">1</td><td class="n">1</td><td><a href="/player/1">LEADER, Imre</a></td>`, `<a href="/player/2">` + escaped + `</a>`}},
		{"/crosstable", 200, []string{"<td>&#43;2b40</td>", "<td>-1w24</td>", "<td>&#43;3w34</td>"}},
		{"/round/1", 200, []string{"Round 1", `<td>1 LEADER, Imre</td><td>2 ` + escaped + `</td><td><a href="/round/1/table/1">40-24</a></td>`, "<td>3 Ann Archer</td><td>4 Cy Cole</td><td>30-34</td>"}},
		{"/round/2", 200, []string{"Round 2", "<td>4 Cy Cole</td><td>1 LEADER, Imre</td><td></td>"}},
		{"/player/1", 200, []string{"<h2>1 LEADER, Imre</h2>\n<p class=\"standing\">Rank 1; points: 1</p>", `<td>black</td><td>2 ` + escaped + `</td><td><a href="/round/1/table/1">40-24</a></td>`, `<td>white</td><td>4 Cy Cole</td><td></td>`}},
		{"/player/2", 200, []string{"<h2>2 " + escaped + "</h2>\n<p class=\"standing\">Rank ", `<a href="/round/1/table/1">40-24</a>`}},
		{"/player/3", 200, []string{`<td>black</td><td>4 Cy Cole</td><td>30-34</td>`}},
		{"/round/1/table/1", 200, []string{"Round 1, table 1", `<a href="/player/1">1 LEADER, Imre</a> (black) against <a href="/player/2">2 ` + escaped + `</a> (white): 40-24`,
			"Move 20 of 20: e6 by white", "<svg", "After move 20, black to move.", `<a href="?move=0">« first</a> <a href="?move=19">‹ prev</a> <span>next ›</span> <span>last »</span>`}},
		{"/round/1/table/1?move=0", 200, []string{"The start (20 moves)", "After move 0", `<span>« first</span> <span>‹ prev</span> <a href="?move=1">next ›</a> <a href="?move=20">last »</a>`}},
		{"/round/1/table/1?move=5", 200, []string{"Move 5 of 20: d6 by black", "After move 5, white to move.", `<a href="?move=4">‹ prev</a> <a href="?move=6">next ›</a>`, `name="move" type="number" min="0" max="20" value="5"`}},
		{"/round/1/table/2", 200, []string{"3 Ann Archer</a> (black) against", "30-34", "No moves are recorded"}},
		{"/round/2/table/1", 200, []string{"The game has no result yet."}},
		{"/round/1/table/1?move=21", 404, []string{"round 1 table 1 has no move 21: its moves are 0 (the start) to 20"}},
		{"/round/1/table/1?move=-1", 404, []string{"has no move -1"}},
		{"/round/1/table/1?move=x", 400, []string{`move "x": not a move number (0 to 20)`}},
		{"/round/1/table/1?move=07", 400, []string{`move "07": not a move number (0 to 20)`}},
		{"/round/01", 404, []string{"no such page"}},
		{"/player/+1", 404, []string{"no such page"}},
		{"/round/1/table/3", 404, []string{"round 1 has tables 1 to 2"}},
		{"/round/3/table/1", 404, nil},
		{"/round/3", 404, nil},
		{"/round/x", 404, nil},
		{"/player/0", 404, nil},
		{"/player/5", 404, nil},
		{"/nothing", 404, nil},
	}
	for _, tc := range tests {
		t.Run(tc.path, func(t *testing.T) {
			resp, body := fetch(t, ts.URL+tc.path, tc.status, tc.want)
			if tc.status != 200 {
				return
			}
			if ct := resp.Header.Get("Content-Type"); ct != "text/html; charset=utf-8" {
				t.Errorf("Content-Type %q", ct)
			}
			if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") {
				t.Errorf("Content-Security-Policy %q", csp)
			}
			// The board's SVG names its namespace: not a link.
			body = strings.ReplaceAll(body, `xmlns="http://www.w3.org/2000/svg"`, "")
			if strings.Contains(body, scriptName) || strings.Count(body, "<script") != 1 || !strings.Contains(body, "Club &lt;b&gt;Cup&lt;/b&gt;") {
				t.Errorf("a name is not text, or the page has a script not its own:\n%s", body)
			}
			for _, bad := range []string{"http://", "https://", "src="} {
				if strings.Contains(body, bad) {
					t.Errorf("the page fetches or links out: %q", bad)
				}
			}
			if head, _ := get(t, "HEAD", ts.URL+tc.path); head.StatusCode != 200 {
				t.Errorf("HEAD: status %d", head.StatusCode)
			}
		})
	}
}

// TestReadOnly: every method but GET and HEAD is refused, on every path.
func TestReadOnly(t *testing.T) {
	ts, _, _ := newServer(t)
	for _, method := range []string{"POST", "PUT", "PATCH", "DELETE", "OPTIONS"} {
		for _, path := range []string{"/", "/standings", "/events", "/nothing"} {
			resp, _ := get(t, method, ts.URL+path)
			if resp.StatusCode != http.StatusMethodNotAllowed || resp.Header.Get("Allow") != "GET, HEAD" {
				t.Errorf("%s %s: status %d, Allow %q; want 405", method, path, resp.StatusCode, resp.Header.Get("Allow"))
			}
		}
	}
}

// stream opens /events and returns its data lines as they come.
func stream(t *testing.T, url string) (<-chan string, *http.Response) {
	t.Helper()
	resp, err := http.Get(url + "/events")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	lines := make(chan string, 16)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			if d, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
				lines <- d
			}
		}
	}()
	return lines, resp
}

// next waits for the stream's next data line.
func next(t *testing.T, lines <-chan string) (string, bool) {
	t.Helper()
	select {
	case d, ok := <-lines:
		return d, ok
	case <-time.After(time.Minute): // a guard against a hang
		t.Fatal("no event within a minute")
		return "", false
	}
}

// TestEvents: the stream gives the generation at once and again after a
// change; a page asked for after it shows the change and its generation
// (the page kept from before is not served); the
// stream ends when the server's context does.
func TestEvents(t *testing.T) {
	ts, src, cancel := newServer(t)
	lines, resp := stream(t, ts.URL)
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Errorf("Content-Type %q", ct)
	}
	if d, _ := next(t, lines); d != "0" {
		t.Errorf("first event %q; want 0", d)
	}
	// The page is made and kept until the change.
	for range 2 {
		if _, body := get(t, "GET", ts.URL+"/"); !strings.Contains(body, `data-gen="0"`) || strings.Contains(body, "<td>20-44</td>") {
			t.Errorf("the page before the change:\n%s", body)
		}
	}
	changed := event()
	changed.Games[2].Result = &tournament.Result{Black: 20, White: 44, Kind: tournament.Normal}
	src.set(changed)
	if d, _ := next(t, lines); d != "1" {
		t.Errorf("event after a change %q; want 1", d)
	}
	if _, body := get(t, "GET", ts.URL+"/"); !strings.Contains(body, `data-gen="1"`) || !strings.Contains(body, "<td>20-44</td>") {
		t.Errorf("the page after the change:\n%s", body)
	}
	cancel()
	if d, ok := next(t, lines); ok {
		t.Errorf("the stream goes on after the server stopped: %q", d)
	}
}

// TestStreamLimit: beyond MaxStreams open streams, /events answers 503.
func TestStreamLimit(t *testing.T) {
	defer func(n int) { MaxStreams = n }(MaxStreams)
	MaxStreams = 2
	ts, _, _ := newServer(t)
	for range 2 {
		lines, _ := stream(t, ts.URL)
		next(t, lines)
	}
	if resp, _ := get(t, "GET", ts.URL+"/events"); resp.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("a third stream: status %d; want 503", resp.StatusCode)
	}
}

// TestConcurrentPages loads pages at once while the tournament changes (run
// with -race: the cached tournament is shared).
func TestConcurrentPages(t *testing.T) {
	ts, src, _ := newServer(t)
	var wg sync.WaitGroup
	for i := range 40 {
		wg.Go(func() {
			for _, p := range []string{"/", "/standings", "/crosstable", "/round/1", "/player/1", "/?q=a"} {
				if resp, _ := get(t, "GET", ts.URL+p); resp.StatusCode != 200 {
					t.Errorf("%s: status %d", p, resp.StatusCode)
				}
			}
			if i%10 == 0 {
				src.set(event())
			}
		})
	}
	wg.Wait()
}

// TestViewerBoard: the viewer draws the board after the move asked for (4
// discs at the start, one more a move), and by default after the last.
func TestViewerBoard(t *testing.T) {
	ts, _, _ := newServer(t)
	for _, tc := range []struct {
		name, query string
		discs       int
	}{{"start", "?move=0", 4}, {"first", "?move=1", 5}, {"13", "?move=13", 17}, {"default", "", 24}} {
		t.Run(tc.name, func(t *testing.T) {
			resp, body := get(t, "GET", ts.URL+"/round/1/table/1"+tc.query)
			if n := strings.Count(body, `class="disc `); resp.StatusCode != 200 || n != tc.discs {
				t.Errorf("status %d, %d discs; want 200, %d", resp.StatusCode, n, tc.discs)
			}
		})
	}
}

// TestKeptPagesBounded: parameters the pages do not read make no page of
// their own, errors are not kept, and the kept pages stop at maxPages however
// many searches come (a client cannot fill the server's memory).
func TestKeptPagesBounded(t *testing.T) {
	src := &source{t: event(), changes: make(chan struct{})}
	ctx, cancel := context.WithCancel(context.Background())
	s, err := New(ctx, src, src.t.ID)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s)
	t.Cleanup(func() { cancel(); ts.Close(); close(src.changes) })
	kept := func() int {
		s.pagesMu.Lock()
		defer s.pagesMu.Unlock()
		return len(s.pages)
	}
	long := strings.Repeat("x", 4000)
	for i := range 50 {
		get(t, "GET", fmt.Sprintf("%s/standings?junk=%d%s", ts.URL, i, long)) // one page: /standings
		get(t, "GET", fmt.Sprintf("%s/round/99?x=%d", ts.URL, i))             // a 404: not kept
	}
	if n := kept(); n != 1 {
		t.Errorf("%d pages kept after 50 standings with junk and 50 404s; want 1", n)
	}
	// A parameter that another page reads is junk here: the viewer reads
	// move, the home page q, no other page either.
	for i := range 50 {
		get(t, "GET", fmt.Sprintf("%s/crosstable?move=%d", ts.URL, i))
		get(t, "GET", fmt.Sprintf("%s/player/1?q=%d&move=%d", ts.URL, i, i))
		get(t, "GET", fmt.Sprintf("%s/round/1/table/1?move=20&q=%d", ts.URL, i))
		get(t, "GET", fmt.Sprintf("%s/?q=a&move=%d", ts.URL, i))
	}
	if n := kept(); n != 5 {
		t.Errorf("%d pages kept after 50 requests each of 4 pages with parameters they do not read; want 5", n)
	}
	get(t, "GET", ts.URL+"/?q="+long) // a key over maxKey: made, not kept
	if n := kept(); n != 5 {
		t.Errorf("%d pages kept after a search of 4,000 characters; want 5", n)
	}
	for i := range maxPages + 50 {
		resp, _ := get(t, "GET", fmt.Sprintf("%s/?q=%d", ts.URL, i))
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("search %d: %s", i, resp.Status)
		}
	}
	if n := kept(); n != maxPages {
		t.Errorf("%d pages kept after %d searches; want %d", n, maxPages+50, maxPages)
	}
}

// TestSearchFoldsAccents: "where do I play?" finds a player typed without
// accents, case or the letters a phone keyboard lacks (ø, ł, ß).
func TestSearchFoldsAccents(t *testing.T) {
	names := []string{"Müller, Jörg", "Ødegaard, Ola", "Çelik, Ayşe", "Żak, Piotr", "Tomás, Ana", "José, Luis", "Łukasiewicz, Jan", "Strauß, Eva"}
	tm := &tournament.Tournament{Settings: tournament.DefaultSettings("Open", 3)}
	for i, n := range names {
		tm.Players = append(tm.Players, tournament.Player{Number: i + 1, Name: n, FirstRound: 1})
	}
	for i := 0; i < len(names); i += 2 {
		tm.Games = append(tm.Games, tournament.Game{Round: 1, Table: i/2 + 1, Black: i + 1, White: i + 2})
	}
	src := &source{t: tm, changes: make(chan struct{})}
	ctx, cancel := context.WithCancel(context.Background())
	h, err := New(ctx, src, tm.ID)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(h)
	t.Cleanup(func() { cancel(); ts.Close(); close(src.changes) })
	for q, want := range map[string]string{"Muller": names[0], "odegaard": names[1], "Celik": names[2], "ZAK": names[3],
		"Tomas": names[4], "Jose": names[5], "lukasiewicz": names[6], "strauss": names[7], "ayse": names[2]} {
		_, page := get(t, "GET", ts.URL+"/?q="+url.QueryEscape(q))
		found := strings.Count(page, `<p class="found">`)
		if found != 1 || !strings.Contains(page, html.EscapeString(want)+"</a>: table") {
			t.Errorf("?q=%s: %d found; want %q:\n%s", q, found, want, page)
		}
	}
}
