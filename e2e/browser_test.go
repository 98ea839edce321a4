//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"os"
	"strings"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
)

// The harness of the browser checks: headless Chromium driven by chromedp
// (over its DevTools pipe). A test opens pages of 'otd serve' (serve) in
// tabs at a viewport, reads their text and DOM, clicks and fills forms, and
// waits for what it needs with chromedp's waits (never a sleep).

// waitLimit bounds every wait for a page: a page that never shows what a
// check waits for fails the check instead of hanging the run.
const waitLimit = 30 * time.Second

// viewport is a screen a page is opened on.
type viewport struct {
	name          string
	width, height int64
	mobile        bool // a phone: a mobile user agent, touch, and the page's <meta name="viewport"> applies
}

var (
	desktop = viewport{"desktop", 1280, 800, false}
	phone   = viewport{"phone", 360, 800, true}
)

// browser is a headless Chromium, Debian's (chromium on PATH, where Debian
// puts /usr/bin/chromium): no sandbox as root (Chromium refuses to start
// as root with it), background networking off, a temporary profile.
type browser struct {
	ctx     context.Context
	version string // Chrome/N.N.N.N, for the phone's user agent
	agent   string // its own user agent
}

// newBrowser starts Chromium for t; it stops when t ends.
// Flags are Chromium's further command-line flags.
func newBrowser(t *testing.T, flags ...chromedp.ExecAllocatorOption) *browser {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(tool(t, "chromium")),
		chromedp.Flag("disable-background-networking", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.DisableGPU,
	)
	opts = append(opts, flags...)
	if os.Geteuid() == 0 {
		opts = append(opts, chromedp.NoSandbox)
	}
	alloc, stopAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, stop := chromedp.NewContext(alloc)
	t.Cleanup(func() { stop(); stopAlloc() })
	v, err := chromedp.CallBrowser(ctx, cdpbrowser.GetVersion, cdp.Empty{})
	if err != nil {
		t.Fatalf("starting chromium: %v", err)
	}
	return &browser{ctx: ctx, version: strings.TrimPrefix(v.Product, "Headless"), agent: v.UserAgent}
}

// tab is a page open in the browser.
type tab struct {
	t     *testing.T
	ctx   context.Context
	close func() // closes the tab
	view  viewport
}

// open opens url in a new tab at viewport v; lang, when not empty, is the
// browser's language (Accept-Language and navigator.languages). The tab is
// a visitor of its own (a browser context: its own cookies, and its own
// connections: Chromium opens at most 6 to a server per visitor, and each
// page of otd serve holds one for its update stream). It closes when t
// ends, or before with close.
func (b *browser) open(t *testing.T, url string, v viewport, lang string) *tab {
	t.Helper()
	return b.openFrom(t, url, v, lang, "")
}

// openFrom opens url as open does, the tab's connections coming to the
// server from the loopback address from ("": 127.0.0.1, as every tab's):
// a phone of its own on the venue's network. Chromium cannot choose the
// address it connects from, so the tab goes through a proxy of its own
// (fromProxy) that connects from there; the tab opens the same URLs.
func (b *browser) openFrom(t *testing.T, url string, v viewport, lang, from string) *tab {
	t.Helper()
	var via []chromedp.CreateBrowserContextOption
	if from != "" {
		proxy := fromProxy(t, from)
		via = append(via, func(p *target.CreateBrowserContextParams) {
			// <-loopback>: through the proxy even to 127.0.0.1, which
			// Chromium otherwise connects to directly.
			p.ProxyServer, p.ProxyBypassList = proxy, "<-loopback>"
		})
	}
	ctx, stop := chromedp.NewContext(b.ctx, chromedp.WithNewBrowserContext(via...))
	t.Cleanup(stop)
	// The first action on a context opens its tab for the context's life:
	// here, with no time limit (the later ones have waitLimit).
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("opening a tab: %v", err)
	}
	p := &tab{t: t, ctx: ctx, close: stop, view: v}
	agent := b.agent
	emulate := []chromedp.EmulateViewportOption{chromedp.EmulatePortrait}
	if v.mobile {
		agent = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) " + b.version + " Mobile Safari/537.36"
		emulate = append(emulate, chromedp.EmulateMobile, chromedp.EmulateTouch)
	}
	p.do("open "+url,
		chromedp.EmulateViewport(v.width, v.height, emulate...),
		chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := cdp.Call(ctx, tg, emulation.SetUserAgentOverride, emulation.SetUserAgentOverrideParams{UserAgent: agent, AcceptLanguage: lang})
			return err
		}),
		chromedp.Navigate(url))
	return p
}

// do runs steps in the tab, failing the test on an error (what says what
// they were for).
func (p *tab) do(what string, steps ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	ctx, stop := context.WithTimeout(p.ctx, waitLimit)
	defer stop()
	if err := chromedp.Do(ctx, steps...); err != nil {
		p.t.Fatalf("%s (%s): %v", what, p.view.name, err)
	}
}

// get runs an action in the tab and returns its value.
func get[T any](p *tab, what string, a chromedp.Action[T]) T {
	p.t.Helper()
	ctx, stop := context.WithTimeout(p.ctx, waitLimit)
	defer stop()
	v, err := chromedp.Run(ctx, a)
	if err != nil {
		p.t.Fatalf("%s (%s): %v", what, p.view.name, err)
	}
	return v
}

// html is the page's DOM, serialized.
func (p *tab) html() string {
	p.t.Helper()
	return get(p, "the page's DOM", chromedp.OuterHTML(chromedp.CSS("html")))
}

// text is the text the first element of CSS selector sel shows, once it
// is there.
func (p *tab) text(sel string) string {
	p.t.Helper()
	return get(p, "the text of "+sel, chromedp.Text(chromedp.CSS(sel)))
}

// click clicks the first element of sel once it is visible (a tap on a
// phone).
func (p *tab) click(sel string) {
	p.t.Helper()
	if p.view.mobile {
		p.do("tap "+sel, chromedp.Tap(chromedp.CSS(sel), chromedp.NodeVisible))
		return
	}
	p.do("click "+sel, chromedp.Click(chromedp.CSS(sel), chromedp.NodeVisible))
}

// fill types value into the form field sel, emptied first.
func (p *tab) fill(sel, value string) {
	p.t.Helper()
	p.do("fill "+sel, chromedp.Clear(chromedp.CSS(sel)), chromedp.SendKeys(chromedp.CSS(sel), value))
}

// clickButton clicks the button labelled label (all its text) in the
// innermost element that shows every text of of (the page if none).
func (p *tab) clickButton(label string, of ...string) {
	p.t.Helper()
	in := "document"
	if len(of) > 0 {
		in = "(" + itemJS(of) + " ?? document.createElement('p'))"
	}
	sel := chromedp.JSPath(fmt.Sprintf(`[...%s.querySelectorAll("button")].filter(b => b.innerText.trim() == %s)`, in, js(label)))
	if p.view.mobile {
		p.do(fmt.Sprintf("tap %q in %q", label, of), chromedp.Tap(sel, chromedp.NodeVisible))
		return
	}
	p.do(fmt.Sprintf("click %q in %q", label, of), chromedp.Click(sel, chromedp.NodeVisible))
}

// waitSelector waits until an element of sel is visible.
func (p *tab) waitSelector(sel string) {
	p.t.Helper()
	p.do("wait for "+sel, chromedp.WaitVisible(chromedp.CSS(sel)))
}

// waitText waits until an element of sel shows text; the page may reload
// meanwhile.
func (p *tab) waitText(sel, text string) {
	p.t.Helper()
	p.do(fmt.Sprintf("wait for %s showing %q", sel, text),
		chromedp.WaitVisible(chromedp.JSPath(fmt.Sprintf(`[...document.querySelectorAll(%s)].filter(e => e.innerText.includes(%s))`, js(sel), js(text)))))
}

// itemJS is a JavaScript expression: the innermost element that shows
// every text of of (the row or the card of a game, say), or undefined.
func itemJS(of []string) string {
	return fmt.Sprintf(`[...document.querySelectorAll("body *")].filter(e => e instanceof HTMLElement && %s.every(s => e.innerText.includes(s))).pop()`, js(of))
}

// item is the text of the innermost element that shows every text of of.
func (p *tab) item(of ...string) string {
	p.t.Helper()
	return get(p, fmt.Sprintf("the element showing %q", of), chromedp.Evaluate[string](itemJS(of)+`?.innerText ?? ""`))
}

// waitItem waits until the innermost element that shows every text of of
// shows text too; the page may reload meanwhile.
func (p *tab) waitItem(text string, of ...string) {
	p.t.Helper()
	p.do(fmt.Sprintf("wait for the element showing %q to show %q", of, text),
		chromedp.WaitVisible(chromedp.JSPath(fmt.Sprintf(`[%s].filter(e => e?.innerText.includes(%s))`, itemJS(of), js(text)))))
}

// scrollWidth is the page's width and the window's: a page wider than the
// window scrolls sideways.
func (p *tab) scrollWidth() (page, window int) {
	p.t.Helper()
	w := get(p, "the page's width", chromedp.Evaluate[[2]int](`[document.documentElement.scrollWidth, window.innerWidth]`))
	return w[0], w[1]
}

// noSideScroll checks that the page does not scroll sideways: it is no
// wider than the window, and on a phone the window is the screen's width
// (a page wider than its <meta name="viewport"> width makes the phone
// widen the window, zooming the page out, rather than scroll).
func (p *tab) noSideScroll(name string) {
	p.t.Helper()
	page, window := p.scrollWidth()
	if page > window || window > int(p.view.width) {
		p.t.Errorf("%s on a %d px %s: the page is %d px wide in a %d px window: it scrolls sideways", name, p.view.width, p.view.name, page, window)
	}
}

// sideBoxes lists the page's boxes that scroll sideways inside it (a wide
// table in a box of class scroll, say): tag.class and widths.
func (p *tab) sideBoxes() []string {
	p.t.Helper()
	return get(p, "the boxes that scroll sideways", chromedp.Evaluate[[]string](
		`[...document.querySelectorAll("body *")].filter(e => e.scrollWidth > e.clientWidth && getComputedStyle(e).overflowX != "visible" && getComputedStyle(e).overflowX != "hidden").map(e => e.tagName.toLowerCase() + "." + e.className + ": " + e.scrollWidth + " px in " + e.clientWidth)`))
}

// screenshot saves what the tab shows to the PNG file path and returns it.
func (p *tab) screenshot(path string) image.Image {
	p.t.Helper()
	b := get(p, "a screenshot", chromedp.CaptureScreenshot())
	if err := os.WriteFile(path, b, 0o644); err != nil {
		p.t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		p.t.Fatalf("%s: %v", path, err)
	}
	return img
}

// js is v as a JavaScript literal.
func js(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}
