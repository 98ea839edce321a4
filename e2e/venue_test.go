//go:build e2e

package e2e

import (
	"crypto/sha256"
	"crypto/tls"
	"encoding/base64"
	"fmt"
	"html"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// The venue in a real browser (issue 31, point 5): phones report from the
// URLs printed on the slips' stubs, the director works the console over
// HTTPS, the public pages follow.
//
// Addresses: a game's two reports from one address go to the director
// ("both from one address"), and every tab of Chromium connects from
// 127.0.0.1. A phone of its own is therefore a tab whose connections go
// through a proxy that connects to serve from another loopback address
// (openFrom), or, where many phones report, a Go client connecting from
// one (phoneClient): both give serve what a phone on the venue's network
// gives it, a request from an address of its own.

// venue is an 'otd serve --venue' running for a test.
type venue struct {
	url  string // the players' address: http://127.0.0.1:PORT/
	once string // the one-time link of the console, over HTTPS
	spki string // the served certificate's public key's SHA-256, base64, once checked against the printed fingerprint
}

// serveVenue runs 'otd serve --venue' on e's database, its console's HTTPS
// on a loopback port too, and checks the certificate it serves against the
// fingerprint it printed, as a director checks it in a tablet's browser.
func serveVenue(t *testing.T, e *env) *venue {
	t.Helper()
	lines := startServe(t, e, "--venue", "--https-listen", "127.0.0.1:0")
	v := &venue{url: serveURL(t, lines)}
	fp := ""
	for i, l := range lines {
		if strings.HasSuffix(l, "fingerprint is") && i+1 < len(lines) {
			fp = strings.TrimSpace(lines[i+1])
		}
		if u := regexp.MustCompile(`https://\S+/console/login\?once=\S+`).FindString(l); u != "" {
			v.once = u
		}
	}
	if fp == "" || v.once == "" {
		t.Fatalf("otd serve --venue printed no fingerprint or no one-time link: %q", lines)
	}
	if !strings.HasSuffix(v.once, "#sha256="+strings.ReplaceAll(fp, ":", "")) {
		t.Errorf("the one-time link %s does not carry the fingerprint %s", v.once, fp)
	}
	u, err := url.Parse(v.once)
	if err != nil {
		t.Fatal(err)
	}
	// The certificate is self-signed: the fingerprint is what vouches
	// for it.
	conn, err := tls.Dial("tcp", u.Host, &tls.Config{InsecureSkipVerify: true})
	if err != nil {
		t.Fatalf("the console over HTTPS: %v", err)
	}
	cert := conn.ConnectionState().PeerCertificates[0]
	conn.Close()
	sum := sha256.Sum256(cert.Raw)
	var got []string
	for _, b := range sum {
		got = append(got, fmt.Sprintf("%02X", b))
	}
	if strings.Join(got, ":") != fp {
		t.Fatalf("the console serves a certificate of fingerprint %s; serve printed %s", strings.Join(got, ":"), fp)
	}
	spki := sha256.Sum256(cert.RawSubjectPublicKeyInfo)
	v.spki = base64.StdEncoding.EncodeToString(spki[:])
	return v
}

// browser starts Chromium trusting the console's certificate, the one
// serveVenue checked, and no other: Chromium's
// --ignore-certificate-errors-spki-list pins its public key (not
// --ignore-certificate-errors, which would take any certificate).
func (v *venue) browser(t *testing.T) *browser {
	return newBrowser(t, chromedp.Flag("ignore-certificate-errors-spki-list", v.spki))
}

// console opens the console in a tab at viewport vp through the one-time
// link (usable once: one console tab a serve) and waits for the tables.
func (v *venue) console(t *testing.T, b *browser, vp viewport) *tab {
	t.Helper()
	c := b.open(t, v.once, vp, "")
	c.clickButton("Open the console (one-time link)")
	c.waitSelector("#tables")
	return c
}

// stub is a side's stub of a slip: the side, its player as printed
// ("1 ARCHER, Ann") and the URL printed under its QR code.
type stub struct {
	side, player, url string
}

// stubs reads the stubs of round's slips ('otd round slips' for serve at
// base), in the order of the slips: table 1's black and white, table 2's...
func stubs(t *testing.T, e *env, base, round string) []stub {
	t.Helper()
	page := string(e.run("round", "slips", round, "--url", base))
	var s []stub
	for _, m := range regexp.MustCompile(`<strong>(Black|White)</strong>: ([^<]*): report the result</p>[\s\S]*?<p class="url">([^<]*)</p>`).FindAllStringSubmatch(page, -1) {
		s = append(s, stub{strings.ToLower(m[1]), html.UnescapeString(m[2]), html.UnescapeString(m[3])})
	}
	for i, st := range s {
		if want := []string{"black", "white"}[i%2]; st.side != want || !strings.HasPrefix(st.url, base+"r/") {
			t.Fatalf("stub %d of the slips: %+v; want %s's, at %sr/...", i+1, st, want, base)
		}
	}
	return s
}

// fromProxy serves, until t ends, an HTTP proxy on 127.0.0.1 that connects
// to the servers it is asked for from the loopback address from, and
// returns its address.
func fromProxy(t *testing.T, from string) string {
	tr := &http.Transport{DialContext: (&net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}}).DialContext}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	// A proxy's request names its URL in full: it is sent on as it is, to
	// this computer only (Chromium's own requests elsewhere are refused).
	proxy := &httputil.ReverseProxy{Rewrite: func(*httputil.ProxyRequest) {}, Transport: tr}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if ip := net.ParseIP(r.URL.Hostname()); r.Method == http.MethodConnect || ip == nil || !ip.IsLoopback() {
			http.Error(w, "this proxy goes to this computer only", http.StatusForbidden)
			return
		}
		proxy.ServeHTTP(w, r)
	})}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close(); tr.CloseIdleConnections() })
	return "http://" + ln.Addr().String()
}

// phoneClient is a phone without a browser: it reports through the form of
// a stub's page, from loopback address from.
func phoneClient(from string) *http.Client {
	return &http.Client{Transport: &http.Transport{DialContext: (&net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}}).DialContext}}
}

// report sends a stub's report (black's and white's discs) as the page's
// form does, and returns the page that answers.
func report(t *testing.T, c *http.Client, s stub, black, white int) string {
	t.Helper()
	res, err := c.PostForm(s.url, url.Values{"black": {fmt.Sprint(black)}, "white": {fmt.Sprint(white)}})
	if err != nil {
		t.Fatalf("reporting %d-%d for %s (%s): %v", black, white, s.player, s.side, err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("reporting %d-%d for %s (%s): %s\n%s", black, white, s.player, s.side, res.Status, b)
	}
	return string(b)
}

// phoneReport reports black-white on the stub's page open in p: the form
// filled and sent as a player does.
func phoneReport(p *tab, black, white int) {
	p.t.Helper()
	p.fill("#black", fmt.Sprint(black))
	p.fill("#white", fmt.Sprint(white))
	p.clickButton("Report")
}

// venueEvent makes e's event: a tournament of players, round 1 paired.
func venueEvent(e *env, players []string) {
	e.run("tournament", "new", "Venue Open", "--rounds", "3")
	for _, p := range players {
		e.run("player", "add", p)
	}
	e.run("round", "pair")
}

// TestVenuePhones: two phones report the same result (34-29 and 35-29,
// the same after the rules' empties to the winner) -> recorded, shown live
// on the public page, 'otd log' names both sides and their addresses; two
// disagree -> the console (over HTTPS, logged in by the one-time link)
// shows the dispute, the director records black's report; the other phone
// then reports -> refused, saying that only the director changes it now;
// two phones of one address -> the director's, "both from one address".
func TestVenuePhones(t *testing.T) {
	e := build(t)
	venueEvent(e, names[4:10])
	v := serveVenue(t, e)
	s := stubs(t, e, v.url, "1")
	if len(s) != 6 {
		t.Fatalf("round 1 of 6 players has %d stubs; want 6", len(s))
	}
	b := v.browser(t)
	public := b.open(t, v.url+"round/1", desktop, "")
	console := v.console(t, b, desktop)

	// Table 1: two phones, two addresses, one result.
	black := b.openFrom(t, s[0].url, phone, "", "127.0.0.2")
	white := b.openFrom(t, s[1].url, phone, "", "127.0.0.3")
	black.waitText("p", "You report for Black")
	phoneReport(black, 34, 29)
	black.waitText("p.state", "Your report is in: waiting for your opponent's.")
	phoneReport(white, 35, 29)
	white.waitText("p.state", "Recorded: 35-29. Thank you.")
	public.waitItem("35-29", s[0].player, s[1].player)
	log := strings.Join(strings.Fields(string(e.run("log"))), " ")
	if !regexp.MustCompile(`report: black from 127\.0\.0\.2 at [0-9:]+ \(34-29\), white from 127\.0\.0\.3 at [0-9:]+ \(35-29\)`).MatchString(log) {
		t.Errorf("otd log does not say who reported table 1, from where:\n%s", log)
	}

	// Table 2: they differ; the director settles it.
	black = b.openFrom(t, s[2].url, phone, "", "127.0.0.4")
	white = b.openFrom(t, s[3].url, phone, "", "127.0.0.5")
	// White's page opened a second time, its form left unsent (a page with
	// a form not sent does not reload itself): it reports after the
	// director recorded the result.
	late := b.openFrom(t, s[3].url, phone, "", "127.0.0.5")
	late.waitSelector("form.report")
	phoneReport(black, 40, 24)
	black.waitText("p.state", "Your report is in")
	phoneReport(white, 24, 40)
	white.waitText("p.state", "The two reports differ: the director will settle it. Keep your slip.")
	table2 := []string{"Table 2", s[2].player, s[3].player}
	console.waitItem("disputed", table2...)
	for _, r := range []string{"40-24 127.0.0.4", "24-40 127.0.0.5"} {
		console.waitItem(r, table2...)
	}
	console.act(func() { console.clickButton("Record black's report", table2...) })
	console.waitItem("recorded 40-24", table2...)
	public.waitItem("40-24", s[2].player, s[3].player)
	// White's phone, waiting, shows the result at once; the page left with
	// its form unsent still has it: a report from it now is refused.
	white.waitText("p.state", "Recorded: 40-24. Thank you.")
	phoneReport(late, 30, 34)
	late.waitText("p.refused", "This game's result is recorded: only the director can change it now.")
	// The log names both reports, the one recorded (black's), and the session.
	log = strings.Join(strings.Fields(string(e.run("log"))), " ")
	if !regexp.MustCompile(`round 1 table 2 \([^)]*\) by report: black from 127\.0\.0\.4 at [0-9:]+ \(40-24, chosen\), white from 127\.0\.0\.5 at [0-9:]+ \(24-40\); approved by console session \w+ \((password|one-time link) from [0-9.]+\) no result -> 40-24`).MatchString(log) {
		t.Errorf("otd log does not say whose report table 2's result is and which session approved it:\n%s", log)
	}

	// Table 3: both sides from one address (two tabs of 127.0.0.1).
	black = b.open(t, s[4].url, phone, "")
	white = b.open(t, s[5].url, phone, "")
	phoneReport(black, 33, 31)
	black.waitText("p.state", "Your report is in")
	phoneReport(white, 33, 31)
	white.waitText("p.state", "Both reports came from one phone: the director will check them.")
	console.waitItem("both reports came from one address", "Table 3", s[4].player, s[5].player)
	if got := public.item(s[4].player, s[5].player); score.MatchString(got) {
		t.Errorf("table 3, reported twice from one address, shows %q on the public page: recorded without the director", got)
	}
}

// gen is the generation of the database the page shows (its
// main[data-gen]).
func (p *tab) gen() int {
	p.t.Helper()
	return get(p, "the page's generation", chromedp.Evaluate[int](`+document.querySelector("main").dataset.gen`))
}

// settle waits until the console shows the database as it is now: the
// generation its update stream gives. The console reloads itself when the
// stream's generation is not the page's: a click then may land on a page
// about to go.
func (p *tab) settle() {
	p.t.Helper()
	now := get(p, "the update stream's generation", chromedp.Evaluate[string](
		`new Promise(ok => { const s = new EventSource("/events"); s.onmessage = e => { s.close(); ok(e.data) } })`, chromedp.EvalAwaitPromise))
	p.do("wait for the page of generation "+now, chromedp.WaitVisible(chromedp.JSPath(
		fmt.Sprintf(`[document.body].filter(() => document.querySelector("main")?.dataset.gen == %s)`, js(now)))))
}

// act does a console's write (click) and waits for the console to show
// it: the page of the generation after the write. serve learns of its own
// writes as of another process's (it polls the database), so that the
// page the write redirects to may come before the change is seen, and
// reload once it is.
func (p *tab) act(click func()) {
	p.t.Helper()
	p.settle()
	before := p.gen()
	click()
	p.do("wait for the page after the change", chromedp.WaitVisible(chromedp.JSPath(
		fmt.Sprintf(`[document.body].filter(() => +document.querySelector("main")?.dataset.gen > %d)`, before))))
	p.settle()
}

// clickLink follows the link showing text.
func (p *tab) clickLink(text string) {
	p.t.Helper()
	p.do("follow "+text, chromedp.Click(chromedp.JSPath(fmt.Sprintf(`[...document.querySelectorAll("a")].filter(a => a.innerText.trim() == %s)`, js(text))), chromedp.NodeVisible))
}

// waitCount waits until count elements of sel are on the page (the page
// may reload meanwhile).
func (p *tab) waitCount(sel string, count int) {
	p.t.Helper()
	p.do(fmt.Sprintf("wait for %d of %s", count, sel),
		chromedp.WaitVisible(chromedp.JSPath(fmt.Sprintf(`[document.body].filter(() => document.querySelectorAll(%s).length == %d)`, js(sel), count))))
}

// TestVenueRound40 runs a round of 40 players from its first report to the
// next round's pairing without the command line (which only sets the event
// up: its players and round 1's pairing). Tables 1 to 4 report from phones
// in Chromium (two tabs, from 127.0.0.2 and 127.0.0.3, going from table
// to table); tables 5 to 20 from Go clients, each side from a loopback
// address of its own (127.0.1.T and 127.0.2.T), as a room of phones would.
// Tables 2 and 9 disagree: the director records white's and black's
// report; at table 15 they disagree, the director rejects the reports and
// they report again, agreeing; at table 12 black calls the director, who
// types the result. Then the console pairs round 2 and shows it, and the
// public pairings page, open all along, shows round 2.
func TestVenueRound40(t *testing.T) {
	e := build(t)
	var players []string
	for i := 1; i <= 40; i++ {
		players = append(players, fmt.Sprintf("PLAYER%02d, Test", i))
	}
	venueEvent(e, players)
	v := serveVenue(t, e)
	s := stubs(t, e, v.url, "1")
	if len(s) != 40 {
		t.Fatalf("round 1 of 40 players has %d stubs; want 40", len(s))
	}
	b := v.browser(t)
	public := b.open(t, v.url, phone, "")
	public.waitText("h2", "Round 1: where do I play?")
	console := v.console(t, b, desktop)

	// A table's result as its sides report it: black's discs 20+T, and
	// disagreeing at tables 2, 9 and 15 (white reports the reverse).
	result := func(table int) (int, int) { return 20 + table, 44 - table }
	differ := map[int]bool{2: true, 9: true, 15: true}
	phones := [2]*tab{b.openFrom(t, "about:blank", phone, "", "127.0.0.2"), b.openFrom(t, "about:blank", phone, "", "127.0.0.3")}
	for table := 1; table <= 20; table++ {
		black, white := result(table)
		for side := range 2 {
			st := s[2*(table-1)+side]
			r := [2]int{black, white}
			if side == 1 && differ[table] {
				r = [2]int{white, black}
			}
			switch {
			case table <= 4:
				p := phones[side]
				p.do("open "+st.url, chromedp.Navigate(st.url))
				phoneReport(p, r[0], r[1])
				// the report's answer: not a p.state of the page before
				// it ("Your opponent has reported"), or the next table's
				// page may open before the answer comes, and the answer
				// then replaces it
				p.do("wait for the report's answer", chromedp.WaitVisible(chromedp.JSPath(
					`[document.body].filter(() => /Your report: |Recorded: /.test(document.body.innerText))`)))
			case table == 12 && side == 0:
				res, err := phoneClient("127.0.1.12").PostForm(st.url+"/call", nil)
				if err != nil || res.StatusCode != http.StatusOK {
					t.Fatalf("table 12's black calls the director: %v %v", res, err)
				}
				res.Body.Close()
			default:
				report(t, phoneClient(fmt.Sprintf("127.0.%d.%d", side+1, table)), st, r[0], r[1])
			}
		}
	}
	tableOf := func(n int) []string { return []string{fmt.Sprintf("Table %d", n), s[2*(n-1)].player, s[2*n-1].player} }
	// The console, live, shows the reports: 16 results recorded, 3
	// disputes, a call.
	console.waitCount("#tables li.state-recorded", 16)
	console.waitCount("#tables li.state-disputed", 3)
	console.waitCount("#tables li.state-called", 1)

	console.act(func() { console.clickButton("Record white's report", tableOf(2)...) })
	console.waitItem("recorded 42-22", tableOf(2)...)
	console.act(func() { console.clickButton("Record black's report", tableOf(9)...) })
	console.waitItem("recorded 29-35", tableOf(9)...)
	console.act(func() { console.clickButton("Reject the reports", tableOf(15)...) })
	console.waitItem("no report", tableOf(15)...)
	for side := range 2 {
		report(t, phoneClient(fmt.Sprintf("127.0.%d.15", side+1)), s[2*14+side], 35, 29)
	}
	console.waitItem("recorded 35-29", tableOf(15)...)
	console.settle()
	console.fill("#tables li.state-called input[name=score]", "33-31")
	console.act(func() { console.clickButton("Record", tableOf(12)...) })
	console.waitItem("recorded 33-31", tableOf(12)...)
	console.waitCount("#tables li.state-recorded", 20)

	console.settle()
	console.clickButton("Pair round 2")
	console.waitText("h2", "Round 2: why these pairs")
	console.clickLink("Tables")
	console.waitText("#tables h2", "Round 2")
	console.waitCount("#tables li", 20)
	if n := strings.Count(console.text("#tables"), "no report"); n != 20 {
		t.Errorf("the console shows round 2 with %d tables of no report; want 20:\n%s", n, console.text("#tables"))
	}
	public.waitText("h2", "Round 2: where do I play?")
}

// TestVenuePagesAt360 opens the venue's pages on a 360-pixel phone in
// English, French and Japanese (the browser's Accept-Language): the
// phone's report page (a form with a dispute under way, and a recorded
// game's refusal), the console (its login, its tables with a dispute, its
// undo) over HTTPS, and the public pages. None may scroll sideways, nor cut
// a table in a box that does. The language switch on the page goes to
// Japanese, and the Japanese pages' screenshots are left in E2E_OUT for a
// person to check that their glyphs show.
func TestVenuePagesAt360(t *testing.T) {
	e := build(t)
	venueEvent(e, []string{"山田 太郎", "ARCHER, Ann", "Kashiwabara Takuji Alexander Longname", "Müller, Jürgen"})
	pw := filepath.Join(e.dir, "pw.txt")
	if err := os.WriteFile(pw, []byte("a director's password\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	e.run("tournament", "edit", "--director-password-file", pw)
	v := serveVenue(t, e)
	s := stubs(t, e, v.url, "1")
	// Table 1 disputed; table 2 recorded.
	report(t, phoneClient("127.0.1.1"), s[0], 40, 24)
	report(t, phoneClient("127.0.2.1"), s[1], 24, 40)
	report(t, phoneClient("127.0.1.2"), s[2], 33, 31)
	report(t, phoneClient("127.0.2.2"), s[3], 33, 31)
	u, err := url.Parse(v.once)
	if err != nil {
		t.Fatal(err)
	}
	consoleURL := "https://" + u.Host + "/console"
	b := v.browser(t)
	check := func(p *tab, name string) {
		t.Helper()
		p.noSideScroll(name)
		if boxes := p.sideBoxes(); len(boxes) > 0 {
			t.Errorf("%s: cut inside a box that scrolls sideways: %q", name, boxes)
		}
	}
	for _, lang := range []string{"en", "fr", "ja"} {
		t.Run(lang, func(t *testing.T) {
			for _, pg := range []struct{ name, url, sel string }{
				{"the report page of a disputed game", s[0].url, "form.report"},
				{"the report page of a recorded game", s[2].url, "p.state"},
				{"home", v.url, "form.code"},
				{"round 1", v.url + "round/1", "main"},
				{"standings", v.url + "standings", "main"},
			} {
				p := b.open(t, pg.url, phone, lang)
				p.waitSelector(pg.sel)
				check(p, pg.name+" ("+lang+")")
				if lang == "ja" && pg.name == "the report page of a disputed game" {
					p.screenshot(filepath.Join(e.out, "venue-report-ja-360.png"))
				}
				p.close()
			}
			c := b.open(t, consoleURL+"/login", phone, lang)
			c.waitSelector("#password")
			check(c, "the console's login ("+lang+")")
			c.fill("#password", "a director's password")
			c.click(`form[action="/console/login"] button`)
			c.waitSelector("#tables li.state-disputed")
			check(c, "the console's tables ("+lang+")")
			if lang == "ja" {
				c.screenshot(filepath.Join(e.out, "venue-console-ja-360.png"))
			}
			c.do("the undo page", chromedp.Navigate(consoleURL+"/undo"))
			c.waitSelector("#undo form")
			check(c, "the console's undo ("+lang+")")
			c.close()
		})
	}
	// The switch: an English page, then its 日本語 link.
	p := b.open(t, v.url, phone, "en")
	p.waitText("h2", "Round 1: where do I play?")
	p.clickLink("日本語")
	p.waitText("h2", "第1回戦：私の席は？")
	check(p, "home after the switch to Japanese")
}
