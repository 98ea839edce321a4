package cli

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/otd-project/otd/internal/testenv"
	"github.com/otd-project/otd/tournament"
	"rsc.io/qr"
)

// lockedBuffer is a bytes.Buffer that a test may read while serve writes it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestServe runs otd serve on a free port: it prints the address and its QR
// code, serves the
// pairings, and a result recorded through the application layer by another
// connection (as 'otd result' in another terminal) reaches an open update
// stream and the pages within a couple of seconds; the database stays
// writable for the director; ending the context (Ctrl-C) stops it, open
// stream and all.
func TestServe(t *testing.T) {
	t.Parallel() // a database of its own
	testServe(t, newTestDB(t))
}

// TestServePostgres is TestServe on PostgreSQL, whose changes reach serve
// by LISTEN/NOTIFY.
func TestServePostgres(t *testing.T) {
	t.Parallel() // a database of its own
	testServe(t, &testDB{t: t, path: testenv.Postgres(t)})
}

func testServe(t *testing.T, db *testDB) {
	db.must("tournament", "new", "Club", "--rounds", "3")
	for _, n := range []string{"Ann Archer", "<script>alert(1)</script>", "Cy Cole", "Di Dane"} {
		db.must("player", "add", n)
	}
	db.must("round", "pair", "--manual", "--force", "1-2", "--force", "3-4")

	url, out, cancel, done := startServe(t, db.path, serveOptions{QR: true})
	defer cancel()

	checkQR(t, out.String(), url)

	resp, err := http.Get(url + "?q=ann")
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if want := "Ann Archer</a>: table 1, black, against 2 &lt;script&gt;alert(1)&lt;/script&gt;"; resp.StatusCode != 200 || !strings.Contains(string(page), want) {
		t.Fatalf("GET /?q=ann: %d, lacks %q:\n%s", resp.StatusCode, want, page)
	}

	// The client's timeout ends a stream that stalls (a guard against a
	// hang: the stream's events come as the test makes them).
	events, err := (&http.Client{Timeout: hang}).Get(url + "events")
	if err != nil {
		t.Fatal(err)
	}
	defer events.Body.Close()
	r := bufio.NewReader(events.Body)
	next := func() (string, error) {
		for {
			l, err := r.ReadString('\n')
			if err != nil {
				return "", err
			}
			if d, ok := strings.CutPrefix(l, "data: "); ok {
				return strings.TrimSpace(d), nil
			}
		}
	}
	if d, _ := next(); d != "0" {
		t.Fatalf("first event %q; want 0", d)
	}

	d, closeDB, err := openDB(db.path, dbOptions{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer closeDB()
	if _, _, err := d.DoForTest(context.Background(), 1, func(tm *tournament.Tournament) (tournament.Change, error) {
		return tm.RecordResult(tournament.At(1, 1), tournament.ResultInput{Black: 40, White: 24, HasScore: true}, false)
	}); err != nil {
		t.Fatal(err)
	}
	if d, _ := next(); d != "1" {
		t.Fatalf("event after the result %q; want 1", d)
	}
	resp, err = http.Get(url + "round/1")
	if err != nil {
		t.Fatal(err)
	}
	page, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(page), "<td>40-24</td>") {
		t.Errorf("round 1 lacks the result:\n%s", page)
	}

	// Another tournament becomes the current one: serve goes on serving
	// the one it started with.
	db.must("tournament", "new", "Other Open", "--rounds", "1")
	if d, _ := next(); d != "2" {
		t.Fatalf("event after tournament new %q; want 2", d)
	}
	resp, err = http.Get(url + "round/1")
	if err != nil {
		t.Fatal(err)
	}
	page, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(page), "<td>40-24</td>") || !strings.Contains(string(page), "Club") || strings.Contains(string(page), "Other Open") {
		t.Errorf("after another tournament was made current, round 1 is not Club's:\n%s", page)
	}

	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("serve: %v", err)
		}
	case <-time.After(hang):
		t.Fatalf("serve did not stop within %v of its context's end", hang)
	}
	// Ended by serve, not by the client's timeout.
	if d, err := next(); err == nil || errors.Is(err, context.DeadlineExceeded) || os.IsTimeout(err) {
		t.Errorf("the update stream is still open: %q, %v", d, err)
	}
}

// TestServeUsage: a wrong --listen or a database without a tournament.
func TestServeUsage(t *testing.T) {
	db := newTestDB(t)
	if _, errs, code := db.run("serve"); code != exitFailure || !strings.Contains(errs, "no database") {
		t.Errorf("serve without a database: exit %d, %q", code, errs)
	}
	db.must("tournament", "new", "Club", "--rounds", "3")
	if _, errs, code := db.run("serve", "--listen", "nowhere:x"); code != exitUsage || !strings.Contains(errs, "--listen nowhere:x") {
		t.Errorf("serve --listen nowhere:x: exit %d, %q", code, errs)
	}
}

// startServe runs otd serve on db (told o's QR and Venue) on free ports of
// this computer until cancel, and returns, once it printed all it prints at
// start, its address, what it prints, and its end.
func startServe(t *testing.T, db string, o serveOptions) (url string, out *lockedBuffer, cancel context.CancelFunc, done <-chan error) {
	t.Helper()
	out = &lockedBuffer{}
	g := &globals{DB: db, Stdout: out, Stderr: io.Discard}
	ctx, cancel := context.WithCancel(context.Background())
	ended := make(chan error, 1)
	go func() {
		ended <- serve(ctx, g, serveOptions{Listen: "127.0.0.1:0", QR: o.QR, Venue: o.Venue, HTTPSListen: "127.0.0.1:0"})
	}()
	for deadline := time.Now().Add(hang); !strings.Contains(out.String(), "Ctrl-C stops."); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			cancel()
			t.Fatalf("serve printed no address:\n%s", out.String())
		}
	}
	return regexp.MustCompile(`http://127\.0\.0\.1:\d+/`).FindString(out.String()), out, cancel, ended
}

// checkQR finds in out, under the line of url, the QR code of url drawn in
// half blocks, and compares it module by module with url's code.
func checkQR(t *testing.T, out, url string) {
	t.Helper()
	_, after, ok := strings.Cut(out, url+"\n")
	if !ok {
		t.Fatalf("no line of %s:\n%s", url, out)
	}
	code, err := qr.Encode(url, qr.L)
	if err != nil {
		t.Fatal(err)
	}
	const quiet = 4
	lines := strings.Split(after, "\n")
	if rows := (code.Size + 2*quiet + 1) / 2; len(lines) < rows {
		t.Fatalf("%d lines under the address; want the %d of its QR code", len(lines), rows)
	}
	for i := range (code.Size + 2*quiet + 1) / 2 {
		line, ok := strings.CutPrefix(lines[i], "  \x1b[30;107m")
		line, ok2 := strings.CutSuffix(line, "\x1b[0m")
		cells := []rune(line)
		if !ok || !ok2 || len(cells) != code.Size+2*quiet {
			t.Fatalf("QR line %d: %q: not %d half blocks, black on white", i, lines[i], code.Size+2*quiet)
		}
		for j, c := range cells {
			x, y := j-quiet, 2*i-quiet
			top, bottom := strings.ContainsRune("▀█", c), strings.ContainsRune("▄█", c)
			if top != code.Black(x, y) || bottom != code.Black(x, y+1) {
				t.Fatalf("QR line %d column %d: %q; the code has %v over %v", i, j, c, code.Black(x, y), code.Black(x, y+1))
			}
		}
	}
}

// TestServeNoQR: with --qr off (the default when standard output is not a
// terminal) serve prints the address and no QR code.
func TestServeNoQR(t *testing.T) {
	db := newTestDB(t)
	db.must("tournament", "new", "Club", "--rounds", "3")
	_, out, cancel, done := startServe(t, db.path, serveOptions{})
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if s := out.String(); strings.ContainsAny(s, "▀▄█\x1b") || !strings.Contains(s, "http://127.0.0.1:") {
		t.Errorf("serve without --qr printed:\n%s", s)
	}
	if isTerminal(out) {
		t.Error("a buffer is taken for a terminal: --qr would default on")
	}
}
