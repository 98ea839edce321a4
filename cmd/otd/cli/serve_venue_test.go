package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// from is an HTTP client whose connections come from the loopback address
// ip (127.0.0.2...), as two phones come from two addresses.
func from(ip string) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}}
	return &http.Client{Timeout: hang, Transport: &http.Transport{DialContext: d.DialContext},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// postForm posts form to u from client c and returns the status and page:
// of the page a report taken sends to (303, then a GET, as a phone does).
func postForm(t *testing.T, c *http.Client, u string, form url.Values) (int, string) {
	t.Helper()
	resp, err := c.PostForm(u, form)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode == http.StatusSeeOther {
		resp.Body.Close()
		loc, err := resp.Location()
		if err != nil {
			t.Fatal(err)
		}
		if resp, err = c.Get(loc.String()); err != nil {
			t.Fatal(err)
		}
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// clubPaired is the venue's tests' event: Club, 4 players, round 1 paired
// 1-2 and 3-4.
func clubPaired(t *testing.T) *testDB {
	db := newTestDB(t)
	clubEvent(db)
	return db
}

// clubEvent makes clubPaired's event in db.
func clubEvent(db *testDB) {
	db.must("tournament", "new", "Club", "--rounds", "3")
	for _, n := range []string{"Ann Archer", "Ben Bell", "Cy Cole", "Di Dane"} {
		db.must("player", "add", n)
	}
	db.must("round", "pair", "--manual", "--force", "1-2", "--force", "3-4")
}

// stubs prints round 1's slips for the server at base and returns their
// stubs' short addresses and printed codes, in order: table 1 black,
// white, table 2...
func stubs(t *testing.T, db *testDB, base string) (short, codes []string) {
	t.Helper()
	slips := filepath.Join(t.TempDir(), "slips.html")
	db.must("round", "slips", "--url", base, "--output", slips)
	page, err := os.ReadFile(slips)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range regexp.MustCompile(`<p class="url">(http://[^<]*/r/[0-9A-Z]{13})</p>`).FindAllStringSubmatch(string(page), -1) {
		short = append(short, m[1])
	}
	for _, m := range regexp.MustCompile(`<p class="code">([0-9A-Z-]{15})</p>`).FindAllStringSubmatch(string(page), -1) {
		codes = append(codes, m[1])
	}
	if len(short) != 4 || len(codes) != 4 {
		t.Fatalf("the slips' stubs: %d addresses, %d codes:\n%s", len(short), len(codes), page)
	}
	return short, codes
}

// TestServeVenue: 'otd serve --venue' opens the database for writing and
// says so; the slips printed while it runs carry the codes its pages take:
// the two sides of table 1 report the same result from two addresses (one
// by the long code, one by the short one): recorded, and 'otd log' names
// both sides and addresses; a report after that is refused. Without
// --venue a report is refused: the pages are read-only.
func TestServeVenue(t *testing.T) {
	db := clubPaired(t)

	base, out, cancel, done := startServe(t, db.path, serveOptions{Venue: true})
	if !strings.Contains(out.String(), "Serving Club, the venue is on") {
		t.Errorf("serve --venue says:\n%s", out)
	}
	short, long := stubs(t, db, base)
	black, white := from("127.0.0.2"), from("127.0.0.3")
	form := url.Values{"black": {"40"}, "white": {"24"}}
	if code, body := postForm(t, black, short[0], form); code != 200 || !strings.Contains(body, "waiting for your opponent") {
		t.Fatalf("black's report: %d\n%s", code, body)
	}
	// White types the printed code on the home page's form.
	resp, err := white.Get(base + "r?code=" + strings.ToLower(long[1]))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	loc, _ := resp.Location()
	if code, body := postForm(t, white, loc.String(), form); code != 200 || !strings.Contains(body, "Recorded: 40-24. Thank you.") {
		t.Fatalf("white's report at %s: %d\n%s", loc, code, body)
	}
	log := db.must("log")
	if !regexp.MustCompile(`by report: black from 127\.0\.0\.2 at \d\d:\d\d:\d\d\s+\(40-24\), white\s+from\s+127\.0\.0\.3\s+at\s+\d\d:\d\d:\d\d\s+\(40-24\)`).MatchString(log) {
		t.Errorf("otd log does not say who reported:\n%s", log)
	}
	var entries []struct {
		Action string
		Actor  struct {
			Kind    string
			Reports []struct {
				Side, Address, Score string
				At                   time.Time
			}
		}
	}
	if err := json.Unmarshal([]byte(db.must("log", "--json")), &entries); err != nil {
		t.Fatal(err)
	}
	if a := entries[len(entries)-1].Actor; a.Kind != "report" || len(a.Reports) != 2 ||
		a.Reports[0].Side != "black" || a.Reports[0].Address != "127.0.0.2" || a.Reports[0].At.IsZero() || a.Reports[0].Score != "40-24" ||
		a.Reports[1].Side != "white" || a.Reports[1].Address != "127.0.0.3" || a.Reports[1].At.Before(a.Reports[0].At) {
		t.Errorf("otd log --json's actor of the result: %+v", a)
	}
	if code, body := postForm(t, black, short[0], form); code != http.StatusConflict || !strings.Contains(body, "only the director can change it now") {
		t.Errorf("a report after the result: %d\n%s", code, body)
	}
	cancel()
	if err := <-done; err != nil && err != context.Canceled {
		t.Fatal(err)
	}

	base, _, cancel, done = startServe(t, db.path, serveOptions{})
	defer func() { cancel(); <-done }()
	if code, _ := postForm(t, black, base+"r/"+strings.ReplaceAll(long[2], "-", ""), form); code != http.StatusMethodNotAllowed {
		t.Errorf("a report without --venue: %d, want 405", code)
	}
}

// TestServeVenueLive: a result recorded by serve's own process (two phones'
// reports) reaches the live pages: another client's update stream gets a
// new generation, and the public page then shows the result. The change
// watcher must see the writes of the process it runs in, not only another
// otd's.
func TestServeVenueLive(t *testing.T) {
	db := clubPaired(t)
	base, _, cancel, done := startServe(t, db.path, serveOptions{Venue: true})
	defer func() { cancel(); <-done }()
	short, _ := stubs(t, db, base)
	// The public page seen before, so that a page kept from before the
	// result would be served stale.
	if body := get(t, base+"round/1"); strings.Contains(body, "37-27") {
		t.Fatalf("round 1 before any report shows 37-27:\n%s", body)
	}
	next := follow(t, base)
	first := next()
	form := url.Values{"black": {"37"}, "white": {"27"}}
	postForm(t, from("127.0.0.2"), short[2], form)
	if code, body := postForm(t, from("127.0.0.3"), short[3], form); code != 200 || !strings.Contains(body, "Recorded: 37-27. Thank you.") {
		t.Fatalf("white's report: %d\n%s", code, body)
	}
	if gen := next(); gen == first {
		t.Fatalf("the update stream sent generation %s again", gen)
	}
	if body := get(t, base+"round/1"); !strings.Contains(body, "37-27") {
		t.Errorf("round 1 after the result recorded by reports does not show 37-27:\n%s", body)
	}
}

// follow opens the update stream of the server at base (until the test
// ends) and returns a function giving its next generation.
func follow(t *testing.T, base string) func() string {
	t.Helper()
	resp, err := from("127.0.0.4").Get(base + "events")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	events := bufio.NewScanner(resp.Body)
	return func() string {
		for events.Scan() {
			if data, ok := strings.CutPrefix(events.Text(), "data: "); ok {
				return data
			}
		}
		t.Fatalf("the update stream ended: %v", events.Err())
		return ""
	}
}

// get returns the page at u.
func get(t *testing.T, u string) string {
	t.Helper()
	resp, err := from("127.0.0.5").Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}
