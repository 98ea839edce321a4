package web

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/otd-project/otd/app"
	"github.com/otd-project/otd/scoring"
	"github.com/otd-project/otd/tournament"
)

// Option sets up a Server.
type Option func(*Server)

// WithVenue turns the venue on ('otd serve --venue'): the players report
// their games through d from the pages of their slips' codes (/r/{token}),
// and the director runs the event through d from the console (/console,
// console.go). Every action is d's (the application layer's): the pages
// hold no rule of their own. publicURL is the address the phones open,
// which the slips printed from the console carry ("": the address the
// console is opened at).
func WithVenue(d *app.Director, publicURL string) Option {
	return func(s *Server) { s.venue, s.publicURL = d, publicURL }
}

// WithClock gives the server its clock (the reports' times, the rate
// limits): time.Now by default.
func WithClock(now func() time.Time) Option { return func(s *Server) { s.now = now } }

// maxForm is the bytes of a report's form at most (the moves of a game are
// 120 characters).
const maxForm = 8 << 10

// errLimited refuses a token's page to an address over its limit.
var errLimited = errors.New("too many requests from this address")

// movesFaults name the refusals of moves that contradict a report.
var movesFaults = map[app.MovesFault]string{app.MovesIllegal: "moves-illegal", app.MovesOver: "moves-over", app.MovesUnfinished: "moves-unfinished"}

// phoneView is a token's page: the game and side it opens, what that side
// reported, the game's state, and why a report was refused (Refused: a
// code of the template's; Reason the app's words).
type phoneView struct {
	Token                string
	Side                 string // black, white
	Round, Table, Number int
	Category, Code       string
	Black, White         app.PageSeat
	State                string // app.TableState; "" if none (refused)
	SameAddress          bool
	Reported             *tournament.Report
	Refused, Reason      string // unknown, recorded, limited, large, discs, impossible and no discs (Reason: the discs), moves-unread, moves-illegal, moves-over (Reason: the moves' score), moves-unfinished, invalid, failed
	Detail               string // the moves' replay, in the verifier's words
	Result               string // a recorded game's discs ("40-24"); "" if none or no discs
	Discs                [2]string
	Moves                string
}

// phoneRoutes registers the pages of the slips' codes.
func (s *Server) phoneRoutes() {
	s.route(public, "GET /r", s.enterCode)
	s.route(token, "GET /r/{token}", s.reporting)
	s.route(token, "POST /r/{token}", s.report(false))
	s.route(token, "POST /r/{token}/call", s.report(true))
}

// enterCode takes the code typed from a slip (?code=) to its page.
func (s *Server) enterCode(w http.ResponseWriter, r *http.Request) {
	typed := strings.TrimSpace(r.URL.Query().Get("code"))
	code, err := app.NormalizeBase32(typed)
	if err != nil { // its page says the code is unknown
		code = strings.ToUpper(typed)
	}
	if code == "" || len(code) > 2*app.TokenLong {
		http.Redirect(w, r, "/", http.StatusSeeOther)
		return
	}
	http.Redirect(w, r, "/r/"+url.PathEscape(code), http.StatusSeeOther)
}

// reporting is a token's page: the form of its side of its game, what it
// reported and the game's state; a recorded game's result.
func (s *Server) reporting(w http.ResponseWriter, r *http.Request) {
	rep, err := s.venue.Reporting(r.Context(), s.id, r.PathValue("token"))
	if errors.Is(err, app.ErrRecorded) {
		err = nil // the game's state says it (what the phone that reported last sees)
	}
	s.phone(w, r, rep, err, phoneView{})
}

// report takes a side's report (or, call, its call for the director); a
// report taken sends the phone to its page (POST, redirect, GET: a reload
// sends nothing again), which says what came of it from the game's state;
// a report refused is answered with the page and why.
func (s *Server) report(call bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		r.Body = http.MaxBytesReader(w, r.Body, maxForm)
		if err := r.ParseForm(); err != nil {
			s.phone(w, r, app.Reporting{}, err, phoneView{})
			return
		}
		pv := phoneView{Discs: [2]string{r.PostFormValue("black"), r.PostFormValue("white")}, Moves: strings.TrimSpace(r.PostFormValue("moves"))}
		in := app.ReportInput{Call: call, Moves: pv.Moves}
		if !call {
			var errB, errW error
			in.Black, errB = strconv.Atoi(strings.TrimSpace(pv.Discs[0]))
			in.White, errW = strconv.Atoi(strings.TrimSpace(pv.Discs[1]))
			if errB != nil || errW != nil {
				// The page again, with the form as sent: the token is
				// looked up as for any request.
				rep, err := s.venue.Reporting(r.Context(), s.id, r.PathValue("token"))
				if err == nil {
					pv.Refused = "discs"
				}
				s.phone(w, r, rep, err, pv)
				return
			}
		}
		before, _ := s.state()
		rep, err := s.venue.Report(r.Context(), s.id, r.PathValue("token"), in, address(r), s.now())
		if err == nil {
			s.synced(r.Context(), before)
			http.Redirect(w, r, "/r/"+r.PathValue("token"), http.StatusSeeOther)
			return
		}
		s.phone(w, r, rep, err, pv)
	}
}

// phone answers a token's page: rep as the venue gives it, or err's
// refusal. An unknown token counts as a failure of the address (limiter)
// and says nothing more than "unknown code".
func (s *Server) phone(w http.ResponseWriter, r *http.Request, rep app.Reporting, err error, pv phoneView) {
	status := http.StatusOK
	var moves *app.MovesError
	var large *http.MaxBytesError
	var unread *app.MovesTextError
	switch {
	case errors.Is(err, errLimited):
		status, pv.Refused = http.StatusTooManyRequests, "limited"
	case errors.As(err, &large):
		status, pv.Refused = http.StatusRequestEntityTooLarge, "large"
	case errors.Is(err, app.ErrUnknownToken):
		s.limits.fail(address(r))
		status, pv.Refused = http.StatusNotFound, "unknown"
	case errors.Is(err, app.ErrRecorded):
		status, pv.Refused = http.StatusConflict, "recorded"
	case errors.As(err, &moves):
		status, pv.Refused, pv.Reason, pv.Detail = http.StatusUnprocessableEntity, movesFaults[moves.Fault()], moves.Score(), moves.Fact()
	case errors.As(err, &unread):
		status, pv.Refused, pv.Detail = http.StatusUnprocessableEntity, "moves-unread", unread.Err.Error()
	case errors.Is(err, scoring.ErrDiscs):
		status, pv.Refused, pv.Reason = http.StatusUnprocessableEntity, "impossible", strings.TrimSpace(pv.Discs[0])+"-"+strings.TrimSpace(pv.Discs[1])
		if pv.Reason == "0-0" {
			pv.Refused = "no discs"
		}
	case errors.Is(err, tournament.ErrInvalid):
		status, pv.Refused, pv.Reason = http.StatusUnprocessableEntity, "invalid", err.Error()
	case err != nil:
		status, pv.Refused, pv.Reason = http.StatusServiceUnavailable, "failed", err.Error()
	}
	if !slices.Contains([]string{"unknown", "failed", "limited", "large"}, pv.Refused) && rep.Side == "" {
		// A report refused: the page of its code again, with the form
		// as sent and why.
		var lerr error
		if rep, lerr = s.venue.Reporting(r.Context(), s.id, r.PathValue("token")); lerr != nil && !errors.Is(lerr, app.ErrRecorded) {
			status, pv.Refused, pv.Reason = http.StatusServiceUnavailable, "failed", lerr.Error()
		}
	}
	if !slices.Contains([]string{"unknown", "failed", "limited", "large"}, pv.Refused) {
		g := rep.Table.Game
		pv.Side, pv.State, pv.SameAddress, pv.Reported = string(rep.Side), string(rep.Table.State), rep.Table.SameAddress, rep.Reported
		pv.Round, pv.Table, pv.Number, pv.Category, pv.Code = g.Round, g.Table, g.Game, g.Category, g.Match
		pv.Black = app.PageSeat{Number: rep.Black.Number, Name: rep.Black.Name}
		pv.White = app.PageSeat{Number: rep.White.Number, Name: rep.White.Name}
		if pv.Refused != "" && pv.Refused != "recorded" && pv.Refused != "discs" {
			pv.State = "" // a report refused: what was sent is what matters
		}
		if res := g.Result; res != nil && res.Kind == tournament.Normal {
			pv.Result = fmt.Sprintf("%d-%d", res.Black, res.White)
		}
	}
	pv.Token = r.PathValue("token")
	t, results, gen, lerr := s.current(r.Context())
	if lerr != nil {
		httpError(w, "the results cannot be read now: "+lerr.Error(), http.StatusServiceUnavailable)
		return
	}
	lang := readerLanguage(w, r)
	code, body := makePage(t, results, gen, lang, r, func(_ *tournament.Tournament, _ *http.Request, v *view) error {
		v.Kind, v.Phone, v.Script = "phone", &pv, ""
		if pv.Reported != nil && pv.Refused == "" && pv.State != string(app.Recorded) {
			// Waiting for the other side or the director: the page
			// follows the event live (a form not yet sent is not
			// reloaded away).
			v.Script = scriptTag
		}
		return nil
	})
	if code != http.StatusOK {
		httpError(w, string(body), code)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Language", lang.String())
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(body)
}
