//go:build e2e

package e2e

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// checkServe runs 'otd serve' on a loopback port against a small event: two
// engines that played round 1 table 1 (so that the game has moves), and two
// people whose game has no result yet. Chromium renders the pages at phone
// and desktop widths and reads their DOM back; then a page stays open,
// 'otd result' enters the missing result, and the page must show it (its
// update stream reloads it).
func checkServe(t *testing.T, e *env) {
	s := *e
	s.t, s.db = t, filepath.Join(e.dir, "serve.db")
	s.run("tournament", "new", "Serve <Cup>", "--rounds", "2")
	s.run("player", "add", "Greedy", "--engine", "builtin:greedy")
	s.run("player", "add", "Random", "--engine", "builtin:random")
	s.run("player", "add", names[1]) // <script>alert(1)</script>
	s.run("player", "add", names[3]) // Müller, Jürgen
	s.run("round", "pair", "--manual", "--force", "1-2", "--force", "3-4")
	s.run("round", "play", "--time", "10s")

	url := serve(t, &s)
	b := newBrowser(t)
	checkPages(t, e, b, url, []page{
		{"pairings", "", []string{"Round 1: where do I play?", "1 Greedy", "&lt;script&gt;alert(1)&lt;/script&gt;", "Müller, Jürgen"}},
		{"standings", "standings", []string{"Greedy", "Random", "Müller, Jürgen"}},
		{"game", "round/1/table/1?move=20", []string{"Move 20 of", "<svg", `class="disc black"`, "‹ prev", "next ›"}},
	})

	// Live: the page open, a result entered, the page changes. Table 2 is
	// the element that shows both its players, a row or a card.
	table2 := []string{"3 " + names[1], "4 " + names[3]}
	p := b.open(t, "about:blank", desktop, "")
	// The update stream is open (its first message came) before the
	// result is entered: the page learns of it through the stream.
	stream := chromedp.Events(p.ctx, network.EventSourceMessageReceived)
	p.do("open round 1", chromedp.Navigate(url+"round/1"))
	for _, err := range stream {
		if err != nil {
			t.Fatalf("the page's update stream: %v", err)
		}
		break
	}
	if got := p.item(table2...); got == "" || score.MatchString(got) {
		t.Fatalf("table 2 shows %q; want its players without a result", got)
	}
	start := time.Now()
	s.run("result", "1", "2", "40-24")
	p.waitItem("40-24", table2...)
	t.Logf("the open page showed the result %v after 'otd result' began", time.Since(start).Round(10*time.Millisecond))
}

// score is a game's result as the pages show it.
var score = regexp.MustCompile(`\d+-\d+`)

// serve runs 'otd serve' on e's database on a loopback port until the test
// ends, and returns its address.
func serve(t *testing.T, e *env) string {
	return serveURL(t, startServe(t, e))
}

// startServe runs 'otd serve' with args on e's database on a loopback port
// until the test ends, and returns what it printed before it served.
func startServe(t *testing.T, e *env, args ...string) []string {
	t.Helper()
	srv := exec.Command(e.otd, append([]string{"--db", e.db, "serve", "--listen", "127.0.0.1:0", "--qr=false"}, args...)...)
	out, err := srv.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	srv.Stderr = os.Stderr
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		srv.Process.Signal(os.Interrupt)
		srv.Wait()
	})
	var lines []string
	sc := bufio.NewScanner(out)
	for sc.Scan() && sc.Text() != "Ctrl-C stops." {
		lines = append(lines, sc.Text())
	}
	go io.Copy(io.Discard, out)
	return lines
}

// serveURL is the players' address in serve's lines.
func serveURL(t *testing.T, lines []string) string {
	t.Helper()
	for _, l := range lines {
		if url := regexp.MustCompile(`http://127\.0\.0\.1:\d+/`).FindString(l); url != "" {
			return url
		}
	}
	t.Fatalf("otd serve printed no address: %q", lines)
	return ""
}

// page is a page of otd serve (its path after the address) and text its DOM
// must have.
type page struct {
	name, path string
	want       []string
}

// checkPages opens each page at desktop and phone widths, finds its text
// in the DOM (and no name as markup), and takes screenshots.
func checkPages(t *testing.T, e *env, b *browser, url string, pages []page) {
	t.Helper()
	for _, p := range pages {
		for _, v := range []viewport{desktop, phone} {
			tab := b.open(t, url+p.path, v, "")
			if v == desktop {
				dom := tab.html()
				for _, w := range p.want {
					if !strings.Contains(dom, w) {
						t.Errorf("%s: the DOM lacks %q", p.name, w)
					}
				}
				if strings.Contains(dom, names[1]) {
					t.Errorf("%s: the name %s is not text", p.name, names[1])
				}
			}
			img := tab.screenshot(filepath.Join(e.out, fmt.Sprintf("serve-%s-%dx%d.png", p.name, v.width, v.height)))
			if b := img.Bounds(); b.Dx() != int(v.width) || !inked(img) {
				t.Errorf("%s: the %dx%d screenshot is %v, inked %v", p.name, v.width, v.height, b, inked(img))
			}
			tab.close()
		}
	}
}
