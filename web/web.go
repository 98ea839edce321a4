// Package web serves a tournament's results to the players' phones over the
// venue's network ('otd serve'): the current round's pairings with a search
// by name, the standings, the crosstable, each round and each player's
// games, a championship's final phase (its current round on the home page),
// final ranking, categories and teams, and a viewer that steps through a
// game otd played (its recorded moves, a round's or a final game's), one
// page a move. The pages are the HTML report's (package export), built by
// html/template, self-contained (nothing fetched) and readable without
// JavaScript; with it, a page reloads itself when the database changes
// (Server-Sent Events on /events). Without the venue (WithVenue) no request
// changes anything: the server only reads. With it ('otd serve --venue'),
// two kinds of request write, each through one action of the application
// layer (package app) and nothing else: a phone's report by its slip's code
// (phone.go: app.Director.Report) and the director's console (console.go,
// session.go: record, approve, reject, withdraw, pair, undo...); every route
// says which kind it is where it is registered (routes.go).
package web

import (
	"bytes"
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"errors"
	"fmt"
	"html/template"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"golang.org/x/text/language"

	"github.com/otd-project/otd/app"
	"github.com/otd-project/otd/engine"

	"github.com/otd-project/otd/engine/transcript"
	"github.com/otd-project/otd/internal/htmlpage"
	"github.com/otd-project/otd/internal/txt"
	"github.com/otd-project/otd/tournament"
)

// Source is what the server reads: the application layer (app.Director).
type Source interface {
	Tournament(ctx context.Context, id int64) (*tournament.Tournament, error)
	Changes(ctx context.Context) (<-chan struct{}, error)
}

// Limits of the server (variables so that tests can shorten them).
var (
	MaxStreams   = 300              // update streams open at once; more get 503
	keepAlive    = 15 * time.Second // a comment on an idle stream, so that proxies and phones keep it
	streamWrite  = 10 * time.Second // a stream's client must take each message within this
	streamLife   = 30 * time.Minute // a stream is then closed; the browser opens another
	maxPage      = 4 << 20          // bytes of a page at most
	maxQueryRune = 100              // characters of a search at most
	maxKept      = 32 << 20         // bytes of the pages kept until the next change
	maxPages     = 2000             // pages kept until the next change at most
	maxKey       = 512              // bytes of a kept page's key at most (cacheKey)
)

//go:embed web.tmpl
var webText string

// liveScript reloads the page when the generation the update stream gives
// differs from the page's (a change since the page was made). It is the only
// script the Content-Security-Policy allows, by its hash.
const liveScript = `var g = document.querySelector("main").dataset.gen;
new EventSource("/events").onmessage = function (e) { if (e.data !== g) location.reload(); };`

var (
	// templates are the pages' in each of htmlpage.Languages.
	templates = inLanguages(webText)
	languages = language.NewMatcher(htmlpage.Languages)
	scriptTag = template.HTML("<script>" + liveScript + "</script>")
	csp       = policy(liveScript)
)

// inLanguages parses text on the results page's templates, in each of
// htmlpage.Languages.
func inLanguages(text string) map[language.Tag]*template.Template {
	base := template.Must(htmlpage.Templates().Parse(text))
	out := map[language.Tag]*template.Template{}
	for _, lang := range htmlpage.Languages {
		out[lang] = htmlpage.In(base, lang)
	}
	return out
}

// policy is the Content-Security-Policy of pages whose only script is
// script (allowed by its hash).
func policy(script string) string {
	sum := sha256.Sum256([]byte(script))
	return "default-src 'none'; style-src 'unsafe-inline'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'; script-src 'sha256-" +
		base64.StdEncoding.EncodeToString(sum[:]) + "'"
}

// Server is the http.Handler of the pages.
type Server struct {
	src     Source
	id      int64 // the tournament served
	ctx     context.Context
	mux     *http.ServeMux
	streams chan struct{} // a place for each open update stream

	mu      sync.Mutex
	gen     uint64        // changes seen
	changed chan struct{} // closed at the next change

	load    sync.Mutex // one reading of the database at a time
	cached  *tournament.Tournament
	results app.Page
	atGen   uint64 // the generation cached was read at

	pagesMu   sync.Mutex
	pages     map[string]*madePage // the pages made at pagesGen, by cacheKey
	pagesGen  uint64
	pagesSize int

	routes    []route                     // every route, with its kind (routes.go)
	venue     *app.Director               // nil: the venue is off, nothing is written
	now       func() time.Time            // the clock of the reports, the sessions and the limits
	limits    *limiter                    // of the token routes
	logins    *limiter                    // of the console's logins
	origins   *http.CrossOriginProtection // refuses another site's writes
	publicURL string                      // the address the phones open (WithVenue)
	sessions  *sessions                   // the console's, with the venue
}

// New returns the server of src's tournament id (the one it serves, whatever
// becomes the database's current tournament), watching src for changes
// until ctx ends (then the update streams close too, so that
// http.Server.Shutdown need not wait for them). With WithVenue, the players
// report their results from their phones and the director runs the event
// from the console (/console).
func New(ctx context.Context, src Source, id int64, opts ...Option) (*Server, error) {
	changes, err := src.Changes(ctx)
	if err != nil {
		return nil, fmt.Errorf("watching the database for changes: %w", err)
	}
	s := &Server{src: src, id: id, ctx: ctx, mux: http.NewServeMux(), streams: make(chan struct{}, MaxStreams), changed: make(chan struct{}), pages: map[string]*madePage{},
		now: time.Now, origins: http.NewCrossOriginProtection()}
	for _, o := range opts {
		o(s)
	}
	s.limits, s.logins, s.sessions = newLimiter(s.now, tokenLimits), newLimiter(s.now, loginLimits), newSessions(s.now)
	go func() {
		for range changes {
			s.mu.Lock()
			s.gen++
			close(s.changed)
			s.changed = make(chan struct{})
			s.mu.Unlock()
		}
	}()
	s.route(public, "GET /{$}", s.page("q", s.home))
	s.route(public, "GET /standings", s.page("", simple("standings")))
	s.route(public, "GET /crosstable", s.page("", simple("crosstable")))
	s.route(public, "GET /round/{n}", s.page("", s.round))
	s.route(public, "GET /player/{n}", s.page("", s.player))
	s.route(public, "GET /round/{n}/table/{t}", s.page("move", s.game))
	s.route(public, "GET /final", s.page("", s.part("final", func(v *view) bool { return len(v.Final) > 0 })))
	s.route(public, "GET /categories", s.page("", s.part("categories", func(v *view) bool { return len(v.Categories) > 0 })))
	s.route(public, "GET /teams", s.page("", s.part("teams", func(v *view) bool { return len(v.Teams) > 0 })))
	s.route(public, "GET /final/game/{seq}", s.page("move", s.finalGame))
	s.route(public, "GET /events", s.events)
	if s.venue != nil {
		s.phoneRoutes()
		s.consoleRoutes()
	}
	return s, nil
}

// ServeHTTP answers GET and HEAD, and POST to the routes that write (the
// venue's): without them nothing changes anything.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Security-Policy", csp)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cache-Control", "no-cache")
	h.Set("Vary", "Accept-Language, Cookie")
	if r.Method != http.MethodGet && r.Method != http.MethodHead && (r.Method != http.MethodPost || !s.writes()) {
		h.Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed: these pages are read-only", http.StatusMethodNotAllowed)
		return
	}
	s.mux.ServeHTTP(w, r)
}

// writes reports whether a route writes (POST).
func (s *Server) writes() bool {
	return slices.ContainsFunc(s.routes, func(r route) bool { return r.method() == http.MethodPost })
}

// syncWait bounds how long a write waits for the server to see it (synced):
// a guard against a watcher that never reports, not a time the write takes.
var syncWait = 10 * time.Second

// synced returns once the server has seen a change since generation before
// (state's, read before a write of its own): it makes the source look now
// if it can (app.Syncer: SQLite's watcher polls), and waits for the
// generation to move (PostgreSQL's notification comes by itself). So the
// page a write sends to carries the new generation, and its live script
// does not reload it a moment later.
func (s *Server) synced(ctx context.Context, before uint64) {
	if sy, ok := s.src.(app.Syncer); ok {
		sy.Sync(ctx)
	}
	guard := time.NewTimer(syncWait)
	defer guard.Stop()
	for {
		gen, changed := s.state()
		if gen != before {
			return
		}
		select {
		case <-changed:
		case <-guard.C:
			return
		case <-ctx.Done():
			return
		}
	}
}

// state returns the generation and the channel closed at the next change.
func (s *Server) state() (uint64, <-chan struct{}) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.gen, s.changed
}

// current returns the current tournament, its results page and the
// generation they were read at, reading the database again only after a
// change. The pages made are kept until then too (made, keep): a crowd
// asks for the same few.
func (s *Server) current(ctx context.Context) (*tournament.Tournament, app.Page, uint64, error) {
	s.load.Lock()
	defer s.load.Unlock()
	gen, _ := s.state()
	if s.cached == nil || s.atGen != gen {
		t, err := s.src.Tournament(ctx, s.id)
		if err != nil {
			return nil, app.Page{}, 0, err
		}
		results, err := app.ResultsPage(t)
		if err != nil {
			return nil, app.Page{}, 0, err
		}
		results.PlayerPages = true
		for _, ph := range results.Final {
			linkGames(ph.Games)
		}
		s.cached, s.results, s.atGen = t, results, gen
	}
	return s.cached, s.results, s.atGen, nil
}

// view is what a page shows: the results page with the part Kind names.
type view struct {
	app.Page
	Kind       string // home, standings, crosstable, round, player, game
	Languages  []languageLink
	Player     *playerView
	Gen        uint64
	RoundLinks []int
	Round      *roundView
	FinalRound *app.PageFinalWall // home: the final phase's last round; player: their final games
	Seats      []seatView         // home: the search's finds; player: the games
	Game       *gameView
	Query      string
	Script     template.HTML
	Phone      *phoneView // a slip's code's page
	Venue      bool       // home: the form of a slip's code
}

// languageLink is a language of the page's switch.
type languageLink struct {
	Code, Name string
	Current    bool // the page's
}

// playerView is the player a player's page is of: their number and name,
// their rank and points in the standings (Rank 0: none) and their place in
// the final ranking (0: none).
type playerView struct {
	Number, Rank, FinalRank int
	Name, Points            string
}

// roundView is a round's games, each linking to its viewer if it has moves.
type roundView struct {
	Number int
	Games  []gameRow
}

type gameRow struct {
	app.PageGame
	Round int
	Moves bool
}

// seatView is a player's place in a round, linking to the game's viewer if
// it has moves.
type seatView struct {
	app.PageSeat
	Moves bool
}

// gameView is the viewer's game: round Round's table Table, or (Round 0)
// game Number of the final phase's match Code of Category; its players and
// result, and the board after move Move of 0 to Last (Prev and Next the
// moves before and after it). Board is empty if the game has no moves to
// show, and Note says why: none (no result yet), unrecorded (no moves), or
// why the moves cannot be read. Path is its page.
type gameView struct {
	Round, Table, Number int
	Category, Code, Path string
	Black, White         app.PageSeat // Number and Name of each player
	Result               string
	Note                 string
	Board                template.HTML // the SVG picture of transcript.Picture.WriteSVG
	Move, Last           int
	Prev, Next           int
	Played               *played // move Move, unless the start or a pass
}

// played is a move: its square ("c5") and its player's colour (black, white).
type played struct{ Square, Colour string }

// pageError is a page's error with its HTTP status.
type pageError struct {
	status int
	msg    string
}

func (e *pageError) Error() string { return e.msg }

func notFound(format string, a ...any) error {
	return &pageError{http.StatusNotFound, fmt.Sprintf(format, a...)}
}

// errNotFound makes a page answer 404.
var errNotFound = notFound("no such page")

// page makes the handler of a page whose fill sets its part of v, reading
// the query parameter param if any ("" for none). A page is made once a
// change, whoever asks for it meanwhile (a crowd asks for the same few): see
// made.
func (s *Server) page(param string, fill func(t *tournament.Tournament, r *http.Request, v *view) error) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		t, results, gen, err := s.current(r.Context())
		if err != nil {
			httpError(w, "the results cannot be read now: "+err.Error(), http.StatusServiceUnavailable)
			return
		}
		lang := readerLanguage(w, r)
		key := lang.String() + " " + cacheKey(r, param)
		p := s.made(gen, key)
		p.once.Do(func() {
			p.status, p.body = makePage(t, results, gen, lang, r, fill)
			s.grew(gen, key, p)
		})
		if p.status != http.StatusOK {
			httpError(w, string(p.body), p.status)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Content-Language", lang.String())
		w.Header().Set("Content-Length", strconv.Itoa(len(p.body)))
		w.Write(p.body)
	}
}

// httpError answers an error: its text escaped (txt.Printable), as it may
// quote what the database holds (a name).
func httpError(w http.ResponseWriter, msg string, status int) {
	http.Error(w, txt.Printable(msg), status)
}

// makePage makes a page: its status and body (the error's text if not 200).
func makePage(t *tournament.Tournament, results app.Page, gen uint64, lang language.Tag, r *http.Request, fill func(*tournament.Tournament, *http.Request, *view) error) (int, []byte) {
	v := view{Page: results, Gen: gen, Script: scriptTag}
	for _, l := range htmlpage.Languages {
		v.Languages = append(v.Languages, languageLink{Code: l.String(), Name: htmlpage.LanguageNames[l], Current: l == lang})
	}
	for n := 1; n <= t.Paired(); n++ {
		v.RoundLinks = append(v.RoundLinks, n)
	}
	if err := fill(t, r, &v); err != nil {
		status := http.StatusNotFound
		if pe := (*pageError)(nil); errors.As(err, &pe) {
			status = pe.status
		}
		return status, []byte(err.Error())
	}
	var b bytes.Buffer
	if err := htmlpage.Execute(&b, templates[lang], "web", v); err != nil {
		return http.StatusInternalServerError, []byte("the page cannot be made: " + err.Error())
	}
	if b.Len() > maxPage {
		return http.StatusInternalServerError, []byte("the page is too large")
	}
	return http.StatusOK, b.Bytes()
}

// langCookie remembers the language the reader chose (?lang=).
const langCookie = "lang"

// readerLanguage is the language of the pages for r: the one chosen by
// ?lang= (then remembered in a cookie), else the one remembered, else the
// best for the browser's Accept-Language; English if none is known.
func readerLanguage(w http.ResponseWriter, r *http.Request) language.Tag {
	known := func(code string) (language.Tag, bool) {
		i := slices.IndexFunc(htmlpage.Languages, func(l language.Tag) bool { return l.String() == code })
		if i < 0 {
			return language.Und, false
		}
		return htmlpage.Languages[i], true
	}
	if lang, ok := known(r.URL.Query().Get("lang")); ok {
		http.SetCookie(w, &http.Cookie{Name: langCookie, Value: lang.String(), Path: "/", MaxAge: 365 * 24 * 3600, HttpOnly: true, SameSite: http.SameSiteLaxMode})
		return lang
	}
	if c, err := r.Cookie(langCookie); err == nil {
		if lang, ok := known(c.Value); ok {
			return lang
		}
	}
	tags, _, _ := language.ParseAcceptLanguage(r.Header.Get("Accept-Language"))
	_, i, _ := languages.Match(tags...)
	return htmlpage.Languages[i]
}

// madePage is a page made (or being made) at a generation.
type madePage struct {
	once   sync.Once
	status int
	body   []byte
}

// cacheKey is what makes a page: its path and the query parameter param
// that it reads (the home page's search q, the viewer's move), if any; any
// other parameter is ignored, so that a client cannot fill the kept pages
// with URLs of its own (/crosstable?move=1, 2...).
func cacheKey(r *http.Request, param string) string {
	if param == "" {
		return r.URL.Path
	}
	return r.URL.Path + "?" + param + "=" + r.URL.Query().Get(param)
}

// atoi reads a whole number as the pages write it in their links: no plus
// sign, no leading zero. So a page is at one URL, and /round/01 is no second
// copy of /round/1 among the kept pages.
func atoi(s string) (int, bool) {
	n, err := strconv.Atoi(s)
	return n, err == nil && strconv.Itoa(n) == s
}

// made returns the page of key at generation gen: the one kept, or a new
// one to make. A new one is kept while fewer than maxPages pages of less
// than maxKept bytes in all are, and its key is at most maxKey bytes.
func (s *Server) made(gen uint64, key string) *madePage {
	s.pagesMu.Lock()
	defer s.pagesMu.Unlock()
	if s.pagesGen != gen {
		s.pages, s.pagesGen, s.pagesSize = map[string]*madePage{}, gen, 0
	}
	if p, ok := s.pages[key]; ok {
		return p
	}
	p := &madePage{}
	if len(key) <= maxKey && len(s.pages) < maxPages && s.pagesSize < maxKept {
		s.pages[key] = p
		s.pagesSize += len(key)
	}
	return p
}

// grew counts the page p of key made at generation gen, or drops it if it is
// not a page (an error is made again each time: it costs little).
func (s *Server) grew(gen uint64, key string, p *madePage) {
	s.pagesMu.Lock()
	defer s.pagesMu.Unlock()
	if s.pagesGen != gen || s.pages[key] != p {
		return
	}
	if p.status != http.StatusOK {
		delete(s.pages, key)
		s.pagesSize -= len(key)
		return
	}
	s.pagesSize += len(p.body)
}

func simple(kind string) func(*tournament.Tournament, *http.Request, *view) error {
	return func(_ *tournament.Tournament, _ *http.Request, v *view) error {
		v.Kind = kind
		return nil
	}
}

// home is the current round's pairings and the search by name (?q=).
func (s *Server) home(t *tournament.Tournament, r *http.Request, v *view) error {
	v.Kind, v.Venue = "home", s.venue != nil
	q := strings.TrimSpace(r.URL.Query().Get("q"))
	for i := range q {
		if utf8.RuneCountInString(q[:i]) == maxQueryRune {
			q = q[:i]
			break
		}
	}
	v.Query = q
	if k := len(t.FinalRounds()); k > 0 {
		w, err := app.FinalRound(t, k)
		if err != nil {
			return err
		}
		linkGames(w.Games)
		v.FinalRound = &w
	}
	if t.Paired() == 0 {
		return nil
	}
	v.Round = rounds(t, t.Paired())
	if q == "" {
		return nil
	}
	fq := tournament.FoldName(q)
	for _, seat := range app.Seats(t, t.Paired()) {
		if strings.Contains(tournament.FoldName(seat.Name), fq) || strconv.Itoa(seat.Number) == q {
			v.Seats = append(v.Seats, withMoves(t, seat))
		}
	}
	return nil
}

// hasMoves reports whether g has recorded moves (a game otd played).
func hasMoves(g tournament.Game) bool { return g.Result != nil && g.Result.Moves != "" }

// rounds gives round r's games.
func rounds(t *tournament.Tournament, r int) *roundView {
	games := t.Round(r)
	rv := &roundView{Number: r}
	for i, h := range app.RoundGames(t, r).Games {
		rv.Games = append(rv.Games, gameRow{PageGame: h, Round: r, Moves: hasMoves(games[i])})
	}
	return rv
}

// withMoves tells whether a seat's game has moves.
func withMoves(t *tournament.Tournament, seat app.PageSeat) seatView {
	g, err := t.Game(seat.Round, seat.Table)
	return seatView{PageSeat: seat, Moves: err == nil && hasMoves(*g)}
}

// number reads the path's {name}, from 1 to most.
func number(r *http.Request, name string, most int) (int, error) {
	n, ok := atoi(r.PathValue(name))
	if !ok || n < 1 || n > most {
		return 0, errNotFound
	}
	return n, nil
}

func (s *Server) round(t *tournament.Tournament, r *http.Request, v *view) error {
	n, err := number(r, "n", t.Paired())
	if err != nil {
		return err
	}
	v.Kind, v.Round = "round", rounds(t, n)
	return nil
}

func (s *Server) player(t *tournament.Tournament, r *http.Request, v *view) error {
	n, err := number(r, "n", len(t.Players))
	if err != nil {
		return err
	}
	p := t.Players[n-1]
	v.Kind, v.Player = "player", &playerView{Number: p.Number, Name: p.Name}
	for _, row := range v.Rows {
		if row.Number == p.Number {
			v.Player.Rank, v.Player.Points = row.Rank, row.Points
		}
	}
	if v.FinalRanking != nil {
		for _, row := range v.FinalRanking.Rows {
			if row.Number == p.Number && row.Final {
				v.Player.FinalRank = row.Rank
			}
		}
	}
	for k := 1; k <= t.Paired(); k++ {
		for _, seat := range app.Seats(t, k) {
			if seat.Number == p.Number {
				v.Seats = append(v.Seats, withMoves(t, seat))
			}
		}
	}
	var mine []tournament.Game
	for _, g := range t.FinalGames {
		if g.Black == p.Number || g.White == p.Number {
			mine = append(mine, g)
		}
	}
	if len(mine) > 0 {
		v.FinalRound = &app.PageFinalWall{Games: app.FinalGames(t, mine)}
		linkGames(v.FinalRound.Games)
	}
	return nil
}

// part makes the handler of a championship's page (kind final, categories
// or teams): not found unless the results page has that part (has).
func (s *Server) part(kind string, has func(*view) bool) func(*tournament.Tournament, *http.Request, *view) error {
	return func(_ *tournament.Tournament, _ *http.Request, v *view) error {
		if !has(v) {
			return notFound("the tournament has no %s", map[string]string{"final": "final phase", "categories": "categories", "teams": "teams"}[kind])
		}
		v.Kind = kind
		return nil
	}
}

// linkGames links each final game that has moves to its viewer.
func linkGames(games []app.PageFinalGame) {
	for i, g := range games {
		if g.Moves {
			games[i].Link = app.GamePath(tournament.Game{FinalRef: tournament.FinalRef{Seq: g.Seq}})
		}
	}
}

// game is the viewer of round {n}'s table {t}: the board after move ?move=
// (0 the start; by default the last move), with links to the first, the
// previous, the next and the last move.
func (s *Server) game(t *tournament.Tournament, r *http.Request, v *view) error {
	round, err := number(r, "n", t.Paired())
	if err != nil {
		return err
	}
	table, err := number(r, "t", len(t.Round(round)))
	if err != nil {
		return notFound("round %d has tables 1 to %d", round, len(t.Round(round)))
	}
	g, err := t.Game(round, table)
	if err != nil {
		return notFound("round %d table %d: %v", round, table, err)
	}
	if g.IsBye() {
		return notFound("round %d table %d is a bye: there is no game", round, table)
	}
	gv := &gameView{Round: round, Table: table, Path: app.GamePath(*g)}
	return viewer(t, r, v, gv, fmt.Sprintf("round %d table %d", round, table), g.Black, g.White, g.Result)
}

// finalGame is the viewer of the final game paired {seq}th (Game.Seq),
// as game.
func (s *Server) finalGame(t *tournament.Tournament, r *http.Request, v *view) error {
	seq, ok := atoi(r.PathValue("seq"))
	i := slices.IndexFunc(t.FinalGames, func(g tournament.Game) bool { return g.Seq == seq })
	if !ok || i < 0 {
		return errNotFound
	}
	g := t.FinalGames[i]
	match := app.MatchLabel(g.Category, g.Match)
	gv := &gameView{Category: g.Category, Code: g.Match, Number: g.Game, Path: app.GamePath(g)}
	return viewer(t, r, v, gv, fmt.Sprintf("%s game %d", match, g.Game), g.Black, g.White, g.Result)
}

// viewer fills the viewer's page gv of the game named where (in errors)
// between black and white: the board after move ?move=.
func viewer(t *tournament.Tournament, r *http.Request, v *view, gv *gameView, where string, black, white int, res *tournament.Result) error {
	b, w := t.Players[black-1], t.Players[white-1]
	gv.Black, gv.White = app.PageSeat{Number: b.Number, Name: b.Name}, app.PageSeat{Number: w.Number, Name: w.Name}
	v.Kind, v.Game = "game", gv
	switch {
	case res == nil:
		gv.Note = "none"
		return nil
	case res.Moves == "":
		gv.Result, gv.Note = res.String(), "unrecorded"
		return nil
	}
	gv.Result = res.String()
	rec, err := transcript.ParseMovesRules(res.Moves, t.GameRules())
	if err != nil {
		gv.Note = err.Error()
		return nil
	}
	rep := transcript.Replay(rec)
	for _, p := range rep.Moves { // the last move's number (passes have none of their own)
		gv.Last = max(gv.Last, p.Number)
	}
	gv.Move = gv.Last
	if q := r.URL.Query().Get("move"); q != "" {
		n, ok := atoi(q)
		if !ok {
			return &pageError{http.StatusBadRequest, fmt.Sprintf("move %.20q: not a move number (0 to %d)", q, gv.Last)}
		}
		if n < 0 || n > gv.Last {
			return notFound("%s has no move %d: its moves are 0 (the start) to %d", where, n, gv.Last)
		}
		gv.Move = n
	}
	m := gv.Move
	for _, p := range rep.Moves {
		if p.Number == m && p.Move != engine.PassPoint {
			gv.Played = &played{Square: p.Move.String(), Colour: p.Color.String()}
		}
	}
	gv.Prev, gv.Next = max(m-1, 0), min(m+1, gv.Last)
	pic, _ := rep.Picture(m)
	var svg strings.Builder
	if err := pic.WriteSVG(&svg); err != nil {
		return &pageError{http.StatusInternalServerError, "drawing the board: " + err.Error()}
	}
	// WriteSVG writes every text escaped.
	gv.Board = template.HTML(svg.String())
	return nil
}

// events is the public pages' update stream (follow), refused (503) when
// MaxStreams are open already.
func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	select {
	case s.streams <- struct{}{}:
		defer func() { <-s.streams }()
	default:
		w.Header().Set("Retry-After", "30")
		http.Error(w, "too many live pages open: reload later", http.StatusServiceUnavailable)
		return
	}
	s.follow(w, r)
}

// follow is an update stream: the generation at once, then again after
// each change; a comment every keepAlive. A client that does not take a
// message within streamWrite is cut off; the stream ends after streamLife,
// or when the server stops.
func (s *Server) follow(w http.ResponseWriter, r *http.Request) {
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
