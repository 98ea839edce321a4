// Package web serves a tournament's results to the players' phones over the
// venue's network ('otd serve'): the current round's pairings with a search
// by name, the standings, the crosstable, each round and each player's
// games. The pages are the HTML report's (package export), built by
// html/template, self-contained (nothing fetched) and readable without
// JavaScript; with it, a page reloads itself when the database changes
// (Server-Sent Events on /events). No request changes anything.
package web

import (
	"bytes"
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"fmt"
	"html/template"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/otd-project/otd/tournament"
	"github.com/otd-project/otd/tournament/export"
)

// Source is what the server reads: the application layer (tournament.Director).
type Source interface {
	Current(ctx context.Context) (*tournament.Tournament, error)
	Changes(ctx context.Context, every time.Duration) (<-chan struct{}, error)
}

// Limits of the server (variables so that tests can shorten them).
var (
	MaxStreams   = 300                    // update streams open at once; more get 503
	pollEvery    = 250 * time.Millisecond // how often the database is looked at
	keepAlive    = 15 * time.Second       // a comment on an idle stream, so that proxies and phones keep it
	streamWrite  = 10 * time.Second       // a stream's client must take each message within this
	streamLife   = 30 * time.Minute       // a stream is then closed; the browser opens another
	maxPage      = 4 << 20                // bytes of a page at most
	maxQueryRune = 100                    // characters of a search at most
)

//go:embed web.tmpl
var webText string

// liveScript reloads the page when the generation the update stream gives
// differs from the page's (a change since the page was made). It is the only
// script the Content-Security-Policy allows, by its hash.
const liveScript = `var g = document.querySelector("main").dataset.gen;
new EventSource("/events").onmessage = function (e) { if (e.data !== g) location.reload(); };`

var (
	templates = template.Must(export.HTMLTemplates().Parse(webText))
	scriptTag = template.HTML("<script>" + liveScript + "</script>")
	csp       = func() string {
		sum := sha256.Sum256([]byte(liveScript))
		return "default-src 'none'; style-src 'unsafe-inline'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'; script-src 'sha256-" +
			base64.StdEncoding.EncodeToString(sum[:]) + "'"
	}()
)

// Server is the http.Handler of the pages.
type Server struct {
	src     Source
	ctx     context.Context
	mux     *http.ServeMux
	streams chan struct{} // a place for each open update stream

	mu      sync.Mutex
	gen     uint64        // changes seen
	changed chan struct{} // closed at the next change

	load    sync.Mutex // one reading of the database at a time
	cached  *tournament.Tournament
	results export.HTMLPage
	atGen   uint64 // the generation cached was read at
}

// New returns the server of src's current tournament, watching src for
// changes until ctx ends (then the update streams close too, so that
// http.Server.Shutdown need not wait for them).
func New(ctx context.Context, src Source) (*Server, error) {
	changes, err := src.Changes(ctx, pollEvery)
	if err != nil {
		return nil, fmt.Errorf("watching the database for changes: %w", err)
	}
	s := &Server{src: src, ctx: ctx, mux: http.NewServeMux(), streams: make(chan struct{}, MaxStreams), changed: make(chan struct{})}
	go func() {
		for range changes {
			s.mu.Lock()
			s.gen++
			close(s.changed)
			s.changed = make(chan struct{})
			s.mu.Unlock()
		}
	}()
	s.mux.HandleFunc("GET /{$}", s.page(s.home))
	s.mux.HandleFunc("GET /standings", s.page(simple("standings")))
	s.mux.HandleFunc("GET /crosstable", s.page(simple("crosstable")))
	s.mux.HandleFunc("GET /round/{n}", s.page(s.round))
	s.mux.HandleFunc("GET /player/{n}", s.page(s.player))
	s.mux.HandleFunc("GET /events", s.events)
	return s, nil
}

// ServeHTTP answers GET and HEAD only: nothing changes anything.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Security-Policy", csp)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cache-Control", "no-cache")
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		h.Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed: these pages are read-only", http.StatusMethodNotAllowed)
		return
	}
	s.mux.ServeHTTP(w, r)
}

// state returns the generation and the channel closed at the next change.
func (s *Server) state() (uint64, <-chan struct{}) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.gen, s.changed
}

// current returns the current tournament, its results page and the
// generation they were read at, reading the database again only after a
// change.
func (s *Server) current(ctx context.Context) (*tournament.Tournament, export.HTMLPage, uint64, error) {
	s.load.Lock()
	defer s.load.Unlock()
	gen, _ := s.state()
	if s.cached == nil || s.atGen != gen {
		t, err := s.src.Current(ctx)
		if err != nil {
			return nil, export.HTMLPage{}, 0, err
		}
		results, err := export.ResultsPage(t)
		if err != nil {
			return nil, export.HTMLPage{}, 0, err
		}
		results.PlayerPages = true
		s.cached, s.results, s.atGen = t, results, gen
	}
	return s.cached, s.results, s.atGen, nil
}

// view is what a page shows: the results page with the part Kind names.
type view struct {
	export.HTMLPage
	Kind       string // home, standings, crosstable, round, player
	Heading    string
	Gen        uint64
	RoundLinks []int
	Round      *export.HTMLRound
	Seats      []export.HTMLSeat // home: the search's finds; player: the games
	Query      string
	Script     template.HTML
}

// errNotFound makes a page answer 404.
var errNotFound = fmt.Errorf("no such page")

// page makes the handler of a page whose fill sets its part of v.
func (s *Server) page(fill func(t *tournament.Tournament, r *http.Request, v *view) error) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		t, results, gen, err := s.current(r.Context())
		if err != nil {
			http.Error(w, "the results cannot be read now: "+err.Error(), http.StatusServiceUnavailable)
			return
		}
		v := view{HTMLPage: results, Gen: gen, Script: scriptTag}
		for n := 1; n <= t.Paired(); n++ {
			v.RoundLinks = append(v.RoundLinks, n)
		}
		if err := fill(t, r, &v); err != nil {
			http.Error(w, err.Error(), http.StatusNotFound)
			return
		}
		var b bytes.Buffer
		if err := templates.ExecuteTemplate(&b, "web", v); err != nil {
			http.Error(w, "the page cannot be made: "+err.Error(), http.StatusInternalServerError)
			return
		}
		if b.Len() > maxPage {
			http.Error(w, "the page is too large", http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Content-Length", strconv.Itoa(b.Len()))
		w.Write(b.Bytes())
	}
}

func simple(kind string) func(*tournament.Tournament, *http.Request, *view) error {
	return func(_ *tournament.Tournament, _ *http.Request, v *view) error {
		v.Kind = kind
		return nil
	}
}

// home is the current round's pairings and the search by name (?q=).
func (s *Server) home(t *tournament.Tournament, r *http.Request, v *view) error {
	v.Kind = "home"
	q := strings.TrimSpace(r.URL.Query().Get("q"))
	for i := range q {
		if utf8.RuneCountInString(q[:i]) == maxQueryRune {
			q = q[:i]
			break
		}
	}
	v.Query = q
	if t.Paired() == 0 {
		return nil
	}
	round := export.RoundGames(t, t.Paired())
	v.Round = &round
	if q == "" {
		return nil
	}
	for _, seat := range export.Seats(t, t.Paired()) {
		if strings.Contains(strings.ToLower(seat.Name), strings.ToLower(q)) || strconv.Itoa(seat.Number) == q {
			v.Seats = append(v.Seats, seat)
		}
	}
	return nil
}

// number reads the path's {n}, from 1 to most.
func number(r *http.Request, most int) (int, error) {
	n, err := strconv.Atoi(r.PathValue("n"))
	if err != nil || n < 1 || n > most {
		return 0, errNotFound
	}
	return n, nil
}

func (s *Server) round(t *tournament.Tournament, r *http.Request, v *view) error {
	n, err := number(r, t.Paired())
	if err != nil {
		return err
	}
	round := export.RoundGames(t, n)
	v.Kind, v.Round = "round", &round
	return nil
}

func (s *Server) player(t *tournament.Tournament, r *http.Request, v *view) error {
	n, err := number(r, len(t.Players))
	if err != nil {
		return err
	}
	p := t.Players[n-1]
	v.Kind, v.Heading = "player", fmt.Sprintf("%d %s", p.Number, p.Name)
	for _, row := range v.Rows {
		if row.Number == p.Number {
			v.Heading += fmt.Sprintf(": rank %d, %s points", row.Rank, row.Points)
		}
	}
	for k := 1; k <= t.Paired(); k++ {
		for _, seat := range export.Seats(t, k) {
			if seat.Number == p.Number {
				v.Seats = append(v.Seats, seat)
			}
		}
	}
	return nil
}

// events is the update stream: the generation at once, then again after
// each change; a comment every keepAlive. A client that does not take a
// message within streamWrite is cut off; the stream ends after streamLife,
// when the server stops, or when MaxStreams are open already (503).
func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	select {
	case s.streams <- struct{}{}:
		defer func() { <-s.streams }()
	default:
		w.Header().Set("Retry-After", "30")
		http.Error(w, "too many live pages open: reload later", http.StatusServiceUnavailable)
		return
	}
	rc := http.NewResponseController(w)
	// The request is read: the server's read timeout would end the stream.
	rc.SetReadDeadline(time.Time{})
	w.Header().Set("Content-Type", "text/event-stream")
	send := func(msg string) bool {
		rc.SetWriteDeadline(time.Now().Add(streamWrite))
		_, err := io.WriteString(w, msg)
		return err == nil && rc.Flush() == nil
	}
	life := time.NewTimer(streamLife)
	defer life.Stop()
	ping := time.NewTicker(keepAlive)
	defer ping.Stop()
	gen, changed := s.state()
	msg := fmt.Sprintf("retry: 2000\ndata: %d\n\n", gen)
	for send(msg) {
		select {
		case <-r.Context().Done():
			return
		case <-s.ctx.Done():
			return
		case <-life.C:
			return
		case <-ping.C:
			msg = ": keep-alive\n\n"
		case <-changed:
			gen, changed = s.state()
			msg = fmt.Sprintf("data: %d\n\n", gen)
		}
	}
}
