package web

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/otd-project/otd/app"
	"github.com/otd-project/otd/engine"
	"github.com/otd-project/otd/internal/htmlpage"
	"github.com/otd-project/otd/tournament"
)

// The director's console (otd serve --venue, issue 31): at /console, every
// table's state, the results entered or corrected, the players' reports
// approved or rejected, players withdrawn or marked absent, the next round
// paired, slips and the wall sheet printed, the last change undone. Each
// action is the application layer's (app.Director's), by the console
// session's actor: the console holds no rule of its own. It is served over
// HTTP to this computer only (loopback), to others over HTTPS; every write
// is a POST refused cross-origin (http.CrossOriginProtection) and without a
// session (a cookie HttpOnly, SameSite=Strict, Secure under HTTPS).

//go:embed console.tmpl
var consoleText string

// consoleScript reloads the console when the database changes (a report
// came, a result was entered elsewhere), unless the director is typing in
// one of its forms: it then says that the page is out of date. It follows
// the console's own stream, which the phones following the public pages
// (MaxStreams of them at most) cannot take from the director. Nor does it
// reload once a form is sent: the write's own change reaches the stream
// before its answer (serve sees its own writes at once), and a reload then
// cancels the page the write leads to (a pairing's reasons).
const consoleScript = `var g = document.querySelector("main").dataset.gen, sent = false;
document.addEventListener("submit", function () { sent = true; });
new EventSource("/console/events").onmessage = function (e) {
  if (e.data === g || sent) return;
  var a = document.activeElement;
  if (a && a.form && a.value) document.getElementById("stale").hidden = false; else location.reload();
};`

var (
	consoleTemplates = inLanguages(consoleText)
	consoleCSP       = policy(consoleScript)
)

// LoginLink makes a one-time link into the console ("/console/login?once=
// ..."), to print at start: it opens one session, once. "" without the
// console.
func (s *Server) LoginLink() string {
	if s.venue == nil {
		return ""
	}
	return "/console/login?once=" + s.sessions.oneTime()
}

// consoleRoutes registers the console's routes.
func (s *Server) consoleRoutes() {
	s.route(director, "GET /console", s.consoleGET(s.board))
	s.route(director, "GET /console/explain", s.consoleGET(s.explain))
	s.route(director, "GET /console/undo", s.consoleGET(s.wouldUndo))
	s.route(director, "GET /console/slips", s.consoleGET(s.slips))
	s.route(director, "GET /console/wall", s.consoleGET(s.wall))
	s.route(director, "GET /console/events", s.follow)
	s.route(login, "GET /console/login", s.consoleGET(s.loginForm))
	s.route(login, "POST /console/login", s.login)
	s.route(director, "POST /console/logout", s.logout)
	s.route(director, "POST /console/result", s.consolePOST(s.enter))
	s.route(director, "POST /console/approve", s.consolePOST(s.approve))
	s.route(director, "POST /console/reject", s.consolePOST(s.reject))
	s.route(director, "POST /console/withdraw", s.consolePOST(s.withdraw))
	s.route(director, "POST /console/absent", s.consolePOST(s.absent))
	s.route(director, "POST /console/pair", s.consolePOST(s.pair))
	s.route(director, "POST /console/undo", s.consolePOST(s.undo))
}

// consoleView is what a console page shows.
type consoleView struct {
	Kind      string // board, login, explain, undo
	Name      string // the tournament's
	Session   string
	Gen       uint64
	Languages []languageLink
	Script    template.HTML
	Flash     flash
	Once      string
	Round     int
	Tables    []consoleTable
	Players   []tournament.Player // those who may withdraw
	NextRound int                 // the round "pair" pairs, 0 if none
	Explain   *tournament.ExplainReport
	Undo      *undoView
}

// flash is what the console's last action did (Kind: recorded, rejected,
// withdrawn, absent, paired, undone), or why it was refused (refused: Text,
// the application's words; slowed), with what the template words it with.
type flash struct {
	Kind           string
	Game           tournament.GameRef
	Result         string
	Player, Round  int
	Entry          int64
	Action, Detail string
	Text           string
}

// Failed reports whether the action was refused.
func (f flash) Failed() bool { return f.Kind == "refused" || f.Kind == "slowed" }

func refusal(err error) flash { return flash{Kind: "refused", Text: err.Error()} }

// consoleTable is a table on the console.
type consoleTable struct {
	app.VenueTable
	Black, White string // "12 Ann Archer"
	Result       string
}

// undoView is what undo would undo.
type undoView struct {
	Entry               int64
	Action, Summary, By string
	Now, Back           string
	Refused             string // why nothing can be undone
}

// private answers a console request that may not be served (false): over
// plain HTTP from another computer. It sets the console's headers. Every
// login and director route passes here (route).
func (s *Server) private(w http.ResponseWriter, r *http.Request) bool {
	h := w.Header()
	h.Set("Content-Security-Policy", consoleCSP)
	h.Set("Cache-Control", "no-store")
	h.Set("Referrer-Policy", "no-referrer")
	if r.TLS == nil && !loopback(r) {
		s.render(w, r, http.StatusForbidden, consoleView{Kind: "https"})
		return false
	}
	return true
}

// consoleGET makes the handler of a console page, showing what the
// session's last action did.
func (s *Server) consoleGET(fill func(w http.ResponseWriter, r *http.Request, v *consoleView) error) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		v := consoleView{}
		if se, ok := s.sessions.of(r); ok {
			v.Session, v.Flash = se.name, se.flash
			s.sessions.setFlash(r, flash{})
		}
		status := http.StatusOK
		if err := fill(w, r, &v); err != nil {
			status, v.Flash = http.StatusConflict, refusal(err)
			if pe := (*pageError)(nil); errors.As(err, &pe) {
				status = pe.status
			}
		}
		if v.Kind == "" { // a page of its own (slips, wall) was written
			return
		}
		s.render(w, r, status, v)
	}
}

// consolePOST makes the handler of a console write (its route's guard
// refused another site's and a request without a session): act runs it by
// the session's actor and says what it did (or why it was refused), which
// the page it redirects to shows, once the server has seen the change
// (synced: that page is current).
func (s *Server) consolePOST(act func(d *app.Director, w http.ResponseWriter, r *http.Request) (flash, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		r.Body = http.MaxBytesReader(w, r.Body, 64<<10)
		actor, _ := Actor(r)
		before, _ := s.state()
		msg, err := act(s.venue.As(actor), w, r)
		if err != nil {
			msg = refusal(err)
		} else {
			s.synced(r.Context(), before)
		}
		s.sessions.setFlash(r, msg)
		to := "/console"
		if loc := w.Header().Get("Location"); loc != "" {
			to = loc
		}
		http.Redirect(w, r, to, http.StatusSeeOther)
	}
}

// render writes console page v.
func (s *Server) render(w http.ResponseWriter, r *http.Request, status int, v consoleView) {
	lang := readerLanguage(w, r)
	for _, l := range htmlpage.Languages {
		v.Languages = append(v.Languages, languageLink{Code: l.String(), Name: htmlpage.LanguageNames[l], Current: l == lang})
	}
	var b bytes.Buffer
	if err := htmlpage.Execute(&b, consoleTemplates[lang], "console", v); err != nil {
		httpError(w, "the page cannot be made: "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Language", lang.String())
	w.WriteHeader(status)
	w.Write(b.Bytes())
}

// board is the console's main page: the tables and the director's forms.
func (s *Server) board(_ http.ResponseWriter, r *http.Request, v *consoleView) error {
	v.Kind = "board"
	gen, _ := s.state()
	v.Gen, v.Script = gen, template.HTML("<script>"+consoleScript+"</script>")
	t, err := s.venue.Tournament(r.Context(), s.id)
	if err != nil {
		return err
	}
	v.Name, v.Round = t.Name, t.Paired()
	tables, err := s.venue.VenueTables(r.Context(), s.id)
	if err != nil {
		return err
	}
	for _, vt := range tables {
		ct := consoleTable{VenueTable: vt, Black: playerName(t, vt.Game.Black), White: playerName(t, vt.Game.White)}
		if vt.Game.Result != nil {
			ct.Result = vt.Game.Result.String()
		}
		v.Tables = append(v.Tables, ct)
	}
	for _, p := range t.Players {
		if p.Left == 0 {
			v.Players = append(v.Players, p)
		}
	}
	if t.Paired() < t.Rounds {
		v.NextRound = t.Paired() + 1
	}
	return nil
}

func playerName(t *tournament.Tournament, n int) string {
	if n < 1 || n > len(t.Players) {
		return ""
	}
	return strconv.Itoa(n) + " " + t.Players[n-1].Name
}

// explain is round explain's reasons for the last round paired.
func (s *Server) explain(_ http.ResponseWriter, r *http.Request, v *consoleView) error {
	v.Kind = "explain"
	t, err := s.venue.Tournament(r.Context(), s.id)
	if err != nil {
		return err
	}
	v.Name, v.Round = t.Name, t.Paired()
	rep, err := t.Explain(t.Paired())
	if err != nil {
		return err
	}
	v.Explain = &rep
	return nil
}

// wouldUndo shows what undo would undo: the event's last change, whoever
// made it.
func (s *Server) wouldUndo(_ http.ResponseWriter, r *http.Request, v *consoleView) error {
	v.Kind, v.Undo = "undo", &undoView{}
	last, u, err := s.venue.WouldUndo(r.Context(), s.id)
	if err != nil {
		v.Undo.Refused = err.Error()
		return nil
	}
	now, back := u.Describe()
	*v.Undo = undoView{Entry: last.ID, Action: string(last.Action), Summary: last.Summary(), By: last.Actor.String(), Now: now, Back: back}
	return nil
}

// slips writes the result slips of the last round paired (?table=T: that
// table's again), as 'otd round slips' does.
func (s *Server) slips(w http.ResponseWriter, r *http.Request, _ *consoleView) error {
	var err error
	o := app.SlipsOptions{PerPage: 2, URL: s.publicURL}
	if o.URL == "" {
		o.URL = "http://" + r.Host
	}
	if q := r.URL.Query().Get("table"); q != "" {
		if o.Table, err = strconv.Atoi(q); err != nil || o.Table < 1 {
			return &pageError{http.StatusBadRequest, fmt.Sprintf("table %.20q: not a table number", q)}
		}
	}
	page, err := s.venue.Slips(r.Context(), s.id, o)
	if err != nil {
		return err
	}
	return s.printed(w, r, "slips", page)
}

// wall writes the wall sheet of the last round paired.
func (s *Server) wall(w http.ResponseWriter, r *http.Request, _ *consoleView) error {
	t, err := s.venue.Tournament(r.Context(), s.id)
	if err != nil {
		return err
	}
	page, err := app.WallPage(t, t.Paired())
	if err != nil {
		return err
	}
	return s.printed(w, r, "wall", page)
}

// printed writes a page to print (template name of the HTML report's).
// consoleGET leaves the answer to it: the view has no Kind.
func (s *Server) printed(w http.ResponseWriter, r *http.Request, name string, page app.Page) error {
	var b bytes.Buffer
	if err := htmlpage.Execute(&b, templates[readerLanguage(w, r)], name, page); err != nil {
		return err
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Write(b.Bytes())
	return nil
}

// loginForm is the login page; with ?once=, the one-time link's.
func (s *Server) loginForm(_ http.ResponseWriter, r *http.Request, v *consoleView) error {
	v.Kind, v.Once = "login", r.URL.Query().Get("once")
	return nil
}

// login opens a session for the director's password or a one-time link's
// token: each failure counts against the address and overall
// (Server.logins, which refuses a login unchecked beyond them: route).
func (s *Server) login(w http.ResponseWriter, r *http.Request) {
	var err error
	way := "password"
	if once := r.PostFormValue("once"); once != "" {
		way = "one-time link"
		if !s.sessions.useOnce(once) {
			err = errors.New("this one-time link is used or unknown: log in with the director's password")
		}
	} else {
		err = s.venue.CheckDirectorPassword(r.Context(), s.id, r.PostFormValue("password"))
	}
	if err != nil {
		if !errors.Is(err, app.ErrNoDirectorPassword) {
			s.logins.fail(address(r))
		}
		s.render(w, r, http.StatusUnauthorized, consoleView{Kind: "login", Flash: refusal(err)})
		return
	}
	cookie, _ := s.sessions.start(way + " from " + address(r))
	http.SetCookie(w, &http.Cookie{Name: sessionCookie, Value: cookie, Path: "/console", HttpOnly: true, Secure: r.TLS != nil,
		SameSite: http.SameSiteStrictMode, MaxAge: int(sessionLife / time.Second)})
	http.Redirect(w, r, "/console", http.StatusSeeOther)
}

// logout ends the session (nothing is written: no change to wait for).
func (s *Server) logout(w http.ResponseWriter, r *http.Request) {
	s.sessions.end(r)
	http.SetCookie(w, &http.Cookie{Name: sessionCookie, Value: "", Path: "/console", MaxAge: -1, HttpOnly: true, Secure: r.TLS != nil, SameSite: http.SameSiteStrictMode})
	http.Redirect(w, r, "/console/login", http.StatusSeeOther)
}

// gameRef reads the game a form names: round and table, or match and game
// (a final game).
func gameRef(r *http.Request) (tournament.GameRef, error) {
	if m := r.PostFormValue("match"); m != "" {
		g, err := strconv.Atoi(r.PostFormValue("game"))
		if err != nil {
			return tournament.GameRef{}, fmt.Errorf("game %.20q: not a game number", r.PostFormValue("game"))
		}
		return tournament.GameRef{Match: m, Game: g}, nil
	}
	round, err1 := strconv.Atoi(r.PostFormValue("round"))
	table, err2 := strconv.Atoi(r.PostFormValue("table"))
	if err1 != nil || err2 != nil {
		return tournament.GameRef{}, errors.New("the form names no game: reload the console")
	}
	return tournament.At(round, table), nil
}

// where names a game in the console's messages.
func where(ref tournament.GameRef) string {
	if ref.Match != "" {
		return fmt.Sprintf("%s game %d", ref.Match, ref.Game)
	}
	return fmt.Sprintf("round %d table %d", ref.Round, ref.Table)
}

// colour reads a form's colour: black, white or "".
func colour(v string) (tournament.Color, error) {
	switch c := tournament.Color(v); c {
	case "", tournament.Black, tournament.White:
		return c, nil
	}
	return "", fmt.Errorf("%.20q: not a colour (black or white)", v)
}

// enter records or (correct=1) corrects a game's result, as 'otd result'
// (--correct): the score B-W, or how it ended (kind: time-default or
// forfeit, of a colour).
func (s *Server) enter(d *app.Director, _ http.ResponseWriter, r *http.Request) (flash, error) {
	ref, err := gameRef(r)
	if err != nil {
		return flash{}, err
	}
	var in tournament.ResultInput
	if sc := strings.TrimSpace(r.PostFormValue("score")); sc != "" {
		score, err := engine.ParseScore(sc)
		if err != nil {
			return flash{}, fmt.Errorf("%s: %w", where(ref), err)
		}
		in.Black, in.White, in.HasScore = score.Black, score.White, true
	}
	side, err := colour(r.PostFormValue("side"))
	if err != nil {
		return flash{}, err
	}
	switch r.PostFormValue("end") {
	case "time-default":
		in.TimeDefault = side
	case "forfeit":
		in.Forfeit = side
	}
	if !in.HasScore && in.Forfeit == "" {
		return flash{}, fmt.Errorf("%s: give the score B-W (black's discs first), e.g. 40-24", where(ref))
	}
	if r.PostFormValue("correct") != "" {
		_, err = d.Correct(r.Context(), s.id, ref, in, false)
	} else {
		_, err = d.Record(r.Context(), s.id, ref, in)
	}
	if err != nil && !strings.HasPrefix(err.Error(), where(ref)) { // most name the game already
		err = fmt.Errorf("%s: %w", where(ref), err)
	}
	if err != nil {
		return flash{}, err
	}
	return flash{Kind: "recorded", Game: ref, Result: in.String()}, nil
}

// approve records a game's result from its reports: both agreeing, or the
// side chosen (a dispute).
func (s *Server) approve(d *app.Director, _ http.ResponseWriter, r *http.Request) (flash, error) {
	ref, err := gameRef(r)
	if err != nil {
		return flash{}, err
	}
	side, err := colour(r.PostFormValue("side"))
	if err != nil {
		return flash{}, err
	}
	v, err := d.Approve(r.Context(), s.id, ref, side)
	if err != nil {
		return flash{}, err
	}
	return flash{Kind: "recorded", Game: ref, Result: v.Game.Result.String()}, nil
}

// reject drops a game's reports: its players report again.
func (s *Server) reject(d *app.Director, _ http.ResponseWriter, r *http.Request) (flash, error) {
	ref, err := gameRef(r)
	if err != nil {
		return flash{}, err
	}
	if err := d.Reject(r.Context(), s.id, ref); err != nil {
		return flash{}, err
	}
	return flash{Kind: "rejected", Game: ref}, nil
}

// player reads the form's player number.
func player(r *http.Request) (int, error) {
	n, err := strconv.Atoi(r.PostFormValue("player"))
	if err != nil {
		return 0, fmt.Errorf("player %.20q: not a player's number", r.PostFormValue("player"))
	}
	return n, nil
}

func (s *Server) withdraw(d *app.Director, _ http.ResponseWriter, r *http.Request) (flash, error) {
	n, err := player(r)
	if err != nil {
		return flash{}, err
	}
	if _, err := d.Withdraw(r.Context(), s.id, n); err != nil {
		return flash{}, err
	}
	return flash{Kind: "withdrawn", Player: n}, nil
}

func (s *Server) absent(d *app.Director, _ http.ResponseWriter, r *http.Request) (flash, error) {
	n, err := player(r)
	if err != nil {
		return flash{}, err
	}
	round, err := strconv.Atoi(r.PostFormValue("round"))
	if err != nil {
		return flash{}, fmt.Errorf("round %.20q: not a round number", r.PostFormValue("round"))
	}
	if _, err := d.Absent(r.Context(), s.id, n, round); err != nil {
		return flash{}, err
	}
	return flash{Kind: "absent", Player: n, Round: round}, nil
}

// pair pairs the next round, then shows why each pair was paired.
func (s *Server) pair(d *app.Director, w http.ResponseWriter, r *http.Request) (flash, error) {
	o, err := d.Pair(r.Context(), s.id, tournament.PairOptions{})
	if err != nil {
		return flash{}, err
	}
	w.Header().Set("Location", "/console/explain")
	return flash{Kind: "paired", Round: o.Tournament.Paired()}, nil
}

// undo undoes the change the undo page showed (entry), if it is still the
// last: the same undo as 'otd undo'.
func (s *Server) undo(d *app.Director, _ http.ResponseWriter, r *http.Request) (flash, error) {
	entry, err := strconv.ParseInt(r.PostFormValue("entry"), 10, 64)
	if err != nil {
		return flash{}, errors.New("the form names no change: look at the undo page again")
	}
	last, _, err := d.UndoEntry(r.Context(), s.id, entry)
	if err != nil {
		return flash{}, err
	}
	return flash{Kind: "undone", Entry: last.ID, Action: string(last.Action), Detail: last.Summary()}, nil
}
