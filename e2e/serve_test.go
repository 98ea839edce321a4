//go:build e2e

package e2e

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// checkServe runs 'otd serve' on a loopback port against a small event: two
// engines that played round 1 table 1 (so that the game has moves), and two
// people whose game has no result yet. Chromium renders the pages at phone
// and desktop widths and reads their DOM back; then a page stays open in
// Chromium (driven over its DevTools pipe), 'otd result' enters the missing
// result, and the page must show it within a few seconds (its update
// stream reloads it).
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
	checkPages(t, e, url, []page{
		{"pairings", "", []string{"Round 1: where do I play?", "1 Greedy", "&lt;script&gt;alert(1)&lt;/script&gt;", "Müller, Jürgen"}},
		{"standings", "standings", []string{"Greedy", "Random", "Müller, Jürgen"}},
		{"game", "round/1/table/1?move=20", []string{"Move 20 of", "<svg", `class="disc black"`, "‹ prev", "next ›"}},
	})

	// Live: the page open, a result entered, the page changes.
	c := devtools(t, e)
	target := c.call(t, "", "Target.createTarget", map[string]any{"url": url + "round/1"})
	session := c.call(t, "", "Target.attachToTarget", map[string]any{"targetId": target["targetId"], "flatten": true})["sessionId"].(string)
	text := func() string {
		r, err := c.try(session, "Runtime.evaluate", map[string]any{"expression": "document.readyState + ' ' + document.body.innerText", "returnByValue": true})
		if err != nil {
			return "" // the page is reloading
		}
		v, _ := r["result"].(map[string]any)["value"].(string)
		return v
	}
	row := regexp.MustCompile(`2\t3 <script>alert\(1\)</script>\t4 Müller, Jürgen[ \t]*([^\n]*)`)
	waitFor := func(what string, ok func(string) bool) {
		t.Helper()
		var last string
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
			if last = text(); strings.HasPrefix(last, "complete ") && ok(last) {
				return
			}
		}
		t.Fatalf("the page does not show %s within 10 s:\n%s", what, last)
	}
	waitFor("table 2 without a result", func(s string) bool { m := row.FindStringSubmatch(s); return m != nil && m[1] == "" })
	// The update stream is open before the result is entered.
	time.Sleep(500 * time.Millisecond)
	start := time.Now()
	s.run("result", "1", "2", "40-24")
	waitFor("the result 40-24", func(s string) bool { m := row.FindStringSubmatch(s); return m != nil && m[1] == "40-24" })
	t.Logf("the open page showed the result %v after 'otd result' began", time.Since(start).Round(10*time.Millisecond))
}

// serve runs 'otd serve' on e's database on a loopback port until the test
// ends, and returns its address.
func serve(t *testing.T, e *env) string {
	srv := exec.Command(e.otd, "--db", e.db, "serve", "--listen", "127.0.0.1:0", "--qr=false")
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
	url := ""
	for sc := bufio.NewScanner(out); url == "" && sc.Scan(); {
		url = regexp.MustCompile(`http://127\.0\.0\.1:\d+/`).FindString(sc.Text())
	}
	if url == "" {
		t.Fatal("otd serve printed no address")
	}
	go io.Copy(io.Discard, out)
	return url
}

// page is a page of otd serve (its path after the address) and text its DOM
// must have.
type page struct {
	name, path string
	want       []string
}

// checkPages renders each page in Chromium, finds its text in the DOM (and
// no name as markup), and takes screenshots at phone and desktop widths.
func checkPages(t *testing.T, e *env, url string, pages []page) {
	t.Helper()
	for _, p := range pages {
		dom := string(chromium(t, e, url+p.path, "--dump-dom"))
		for _, w := range p.want {
			if !strings.Contains(dom, w) {
				t.Errorf("%s: the DOM lacks %q", p.name, w)
			}
		}
		if strings.Contains(dom, names[1]) {
			t.Errorf("%s: the name %s is not text", p.name, names[1])
		}
		for _, size := range [][2]int{{390, 844}, {1280, 800}} {
			img := screenshot(t, e, url+p.path, filepath.Join(e.out, fmt.Sprintf("serve-%s-%dx%d.png", p.name, size[0], size[1])), size[0], size[1])
			if b := img.Bounds(); b.Dx() != size[0] || !inked(img) {
				t.Errorf("%s: the %dx%d screenshot is %v, inked %v", p.name, size[0], size[1], b, inked(img))
			}
		}
	}
}

// cdp is a client of Chromium's DevTools protocol over --remote-debugging-pipe:
// JSON messages ended by a NUL, written to its fd 3, read from its fd 4.
type cdp struct {
	w  io.Writer
	r  *bufio.Reader
	id int
}

// devtools starts headless Chromium driven over its pipe; it stops with the test.
func devtools(t *testing.T, e *env) *cdp {
	t.Helper()
	toChrome, ourEnd, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	fromChrome, theirEnd, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(tool(t, "chromium"), "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--remote-debugging-pipe",
		"--user-data-dir="+filepath.Join(e.dir, "chromium-live"), "about:blank")
	cmd.ExtraFiles = []*os.File{toChrome, theirEnd} // fds 3 and 4
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	toChrome.Close()
	theirEnd.Close()
	t.Cleanup(func() {
		ourEnd.Close()
		cmd.Process.Kill()
		cmd.Wait()
	})
	return &cdp{w: ourEnd, r: bufio.NewReader(fromChrome)}
}

// try calls method (in session, if any) and returns its result.
func (c *cdp) try(session, method string, params map[string]any) (map[string]any, error) {
	c.id++
	msg := map[string]any{"id": c.id, "method": method, "params": params}
	if session != "" {
		msg["sessionId"] = session
	}
	b, err := json.Marshal(msg)
	if err != nil {
		return nil, err
	}
	if _, err := c.w.Write(append(b, 0)); err != nil {
		return nil, err
	}
	for {
		line, err := c.r.ReadBytes(0)
		if err != nil {
			return nil, fmt.Errorf("chromium's pipe: %w", err)
		}
		var reply struct {
			ID     int
			Result map[string]any
			Error  *struct{ Message string }
		}
		if err := json.Unmarshal(line[:len(line)-1], &reply); err != nil {
			return nil, err
		}
		if reply.ID != c.id {
			continue // an event, or an answer to another call
		}
		if reply.Error != nil {
			return nil, fmt.Errorf("%s: %s", method, reply.Error.Message)
		}
		return reply.Result, nil
	}
}

func (c *cdp) call(t *testing.T, session, method string, params map[string]any) map[string]any {
	t.Helper()
	r, err := c.try(session, method, params)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
