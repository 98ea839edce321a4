package web

import (
	"context"
	"net/http"
	"strings"

	"github.com/otd-project/otd/app"
	"github.com/otd-project/otd/tournament"
)

// The routes of the server, each registered through route with its kind,
// so that what a route needs is said where it is added and the security
// test (security_test.go) walks them all: a write route it cannot prove
// fails it.

// kind is what a route needs.
type kind int

const (
	public   kind = iota + 1 // a page: GET only, changes nothing, for anyone
	token                    // a player's report: its {token} opens one side of one game
	login                    // the console's login: a write without a session, whose password or one-time link is checked
	director                 // the director's console: a director's session
)

func (k kind) String() string {
	return map[kind]string{public: "public", token: "token", login: "login", director: "director"}[k]
}

// route is a registered route: its kind and its pattern as http.ServeMux
// reads it ("POST /r/{token}").
type route struct {
	kind    kind
	pattern string
}

// method is the route's method (GET if the pattern names none).
func (r route) method() string {
	if m, _, ok := strings.Cut(r.pattern, " "); ok {
		return m
	}
	return http.MethodGet
}

// actorKey keys a director route's request's actor (Server.session's).
type actorKey struct{}

// Actor is the director's session acting on a director route's request.
func Actor(r *http.Request) (tournament.Actor, bool) {
	a, ok := r.Context().Value(actorKey{}).(tournament.Actor)
	return a, ok
}

// route registers h on pattern as a route of kind k, guarded as its kind
// asks. Every write (a POST) refuses another site's request. A public
// route is a GET. A token route's pattern has {token}, and its requests are
// rate-limited per address: a wrong token counts as a failure, a write as
// a request (see limiter). A login or director route is the console's: served over
// plain HTTP to this computer only (loopback), to others over HTTPS; a
// login's write is limited as the logins are (Server.logins: the handler
// counts a wrong password; a login from this computer or with a valid
// one-time link is not held to the overall bound); a director route needs a director's session
// (Server.session), without which a page sends to the login and a write is
// refused.
func (s *Server) route(k kind, pattern string, h http.HandlerFunc) {
	rt := route{k, pattern}
	switch {
	case k == public && rt.method() != http.MethodGet:
		panic("web: a public route is a GET: " + pattern)
	case k == token && !strings.Contains(pattern, "{token}"):
		panic("web: a token route reads {token}: " + pattern)
	case k != public && k != token && k != login && k != director:
		panic("web: a route without a kind: " + pattern)
	}
	s.routes = append(s.routes, rt)
	s.mux.Handle(pattern, s.guard(k, h))
}

// guard wraps h in what a route of kind k needs.
func (s *Server) guard(k kind, h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		write := r.Method != http.MethodGet && r.Method != http.MethodHead
		if (k == login || k == director) && !s.private(w, r) {
			return
		}
		if write {
			if err := s.origins.Check(r); err != nil {
				httpError(w, "refused: a request from another site", http.StatusForbidden)
				return
			}
		}
		switch k {
		case token:
			w.Header().Set("Referrer-Policy", "no-referrer")
			if !s.limits.allow(address(r), write, false) {
				w.Header().Set("Retry-After", "60")
				s.phone(w, r, app.Reporting{}, errLimited, phoneView{})
				return
			}
		case login:
			if write {
				r.Body = http.MaxBytesReader(w, r.Body, 64<<10)
			}
			if write && !s.logins.allow(address(r), true, loopback(r) || s.sessions.valid(r.PostFormValue("once"))) {
				w.Header().Set("Retry-After", "60")
				s.render(w, r, http.StatusTooManyRequests, consoleView{Kind: "login", Flash: flash{Kind: "slowed"}})
				return
			}
		case director:
			a, ok := s.session(r)
			switch {
			case !ok && write:
				httpError(w, "refused: log in to the console first (/console/login)", http.StatusForbidden)
				return
			case !ok:
				http.Redirect(w, r, "/console/login", http.StatusSeeOther)
				return
			}
			r = r.WithContext(context.WithValue(r.Context(), actorKey{}, a))
		}
		h(w, r)
	}
}
